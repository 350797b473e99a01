from django.urls import path

from api import views

app_name = "api"
urlpatterns = [
    path("me/", views.MeView.as_view(), name="me"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/moves/", views.GameMovesView.as_view(), name="game_moves"),
]
