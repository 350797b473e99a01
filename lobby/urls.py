from django.urls import path

from lobby import views

app_name = "lobby"

urlpatterns = [
    path("", views.people, name="people"),
    path("challenge/", views.challenge_create, name="challenge_create"),
    path("challenge/quick/", views.challenge_quick, name="challenge_quick"),
    path("challenges/<int:challenge_id>/accept/", views.challenge_accept, name="challenge_accept"),
    path(
        "challenges/<int:challenge_id>/decline/", views.challenge_decline, name="challenge_decline"
    ),
    path("challenges/<int:challenge_id>/cancel/", views.challenge_cancel, name="challenge_cancel"),
    path("seek/", views.seek_create, name="seek_create"),
    path("seeks/<int:seek_id>/take/", views.seek_take, name="seek_take"),
    path("seeks/<int:seek_id>/cancel/", views.seek_cancel, name="seek_cancel"),
    path("links/", views.link_create, name="link_create"),
    path("links/<int:link_id>/cancel/", views.link_cancel, name="link_cancel"),
    path("link/<str:token>/", views.link, name="link"),
    path("link/<str:token>/accept/", views.link_accept, name="link_accept"),
]
