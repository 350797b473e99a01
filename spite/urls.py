from django.contrib import admin
from django.urls import include, path

from spite import views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("play/people/", include("lobby.urls")),
    path("play/", include("games.urls")),
    path("leagues/", include("leagues.urls")),
    path("admin/", admin.site.urls),
]
