from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from api import pages as api_pages
from core import i18n
from spite import views

# The admin's header and tab title name the site, not the framework ("Django administration").
admin.site.site_header = admin.site.site_title = _("Spite & Malice administration")

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("privacy/", views.privacy, name="privacy"),
    path("healthz", views.healthz, name="healthz"),
    path("language/", i18n.set_language, name="set_language"),
    path("jsi18n/", i18n.JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/tokens/", api_pages.tokens, name="api_tokens"),
    path("accounts/tokens/<int:token_id>/revoke/", api_pages.token_revoke, name="api_token_revoke"),
    path("accounts/", include("accounts.urls")),
    path("learn/", include("learn.urls")),
    path("play/people/", include("lobby.urls")),
    path("play/", include("games.urls")),
    path("leagues/", include("leagues.urls")),
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    # The split view: its set-up script is a file (?script), not inline (Content-Security-Policy).
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api_schema", template_name="api/swagger_ui.html"
        ),
        name="api_docs",
    ),
    path("admin/", admin.site.urls),
]

# The site's error pages (core/error_pages.py); the database away: the 503 page, not a 500
# (core/outages.py).
handler400 = "core.error_pages.bad_request"
handler403 = "core.error_pages.permission_denied"
handler404 = "core.error_pages.page_not_found"
handler500 = "core.outages.server_error"
