from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("password/change/", views.password_change, name="password_change"),
    path("password/change/done/", views.password_change_done, name="password_change_done"),
    path("password/reset/", views.password_reset, name="password_reset"),
    path("password/reset/sent/", views.password_reset_done, name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        views.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path("password/reset/done/", views.password_reset_complete, name="password_reset_complete"),
    path("u/<str:username>/", views.profile, name="profile"),
    path("u/<str:username>/block/", views.block, name="block"),
    path("u/<str:username>/unblock/", views.unblock, name="unblock"),
    path("blocked/", views.blocked, name="blocked"),
    path("profile/edit/", views.profile_edit, name="profile_edit"),
    path("email/confirm/<str:token>/", views.email_confirm, name="email_confirm"),
    path("delete/", views.account_delete, name="delete"),
    path("bot/", views.bot_account, name="bot_account"),
]
