from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from spite import views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("play/people/", include("lobby.urls")),
    path("play/", include("games.urls")),
    path("leagues/", include("leagues.urls")),
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api_schema"), name="api_docs"),
    path("admin/", admin.site.urls),
]
