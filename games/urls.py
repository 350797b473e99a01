from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/<int:game_id>/", views.table, name="table"),
    path("matches/<int:match_id>/", views.match, name="match"),
]
