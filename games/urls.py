from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/<int:game_id>/", views.table, name="table"),
    path("games/<int:game_id>/replay/", views.replay, name="replay"),
    path("matches/<int:match_id>/", views.match, name="match"),
    path("watch/", views.watch, name="watch"),
    path("history/<str:username>/", views.history, name="history"),
]
