from django.urls import path

from leagues import views

app_name = "leagues"

urlpatterns = [
    path("", views.league_list, name="list"),
    path("<slug:slug>/", views.league_detail, name="detail"),
    path("<slug:slug>/join/", views.league_join, name="join"),
    path("<slug:slug>/leave/", views.league_leave, name="leave"),
    path("<slug:slug>/requests/", views.league_requests, name="requests"),
    path(
        "<slug:slug>/requests/<int:membership_id>/approve/",
        views.membership_approve,
        name="approve",
    ),
    path(
        "<slug:slug>/requests/<int:membership_id>/decline/",
        views.membership_decline,
        name="decline",
    ),
    path("<slug:slug>/queue/", views.league_queue, name="queue"),
    path("<slug:slug>/challenge/", views.ranked_challenge, name="ranked_challenge"),
    path("<slug:slug>/bot/", views.league_play_bot, name="play_bot"),
    path("<slug:slug>/tournaments/<slug:tslug>/", views.tournament_detail, name="tournament"),
    path(
        "<slug:slug>/tournaments/<slug:tslug>/register/",
        views.tournament_register,
        name="tournament_register",
    ),
    path(
        "<slug:slug>/tournaments/<slug:tslug>/withdraw/",
        views.tournament_withdraw,
        name="tournament_withdraw",
    ),
]
