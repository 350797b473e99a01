from django.urls import re_path

from api.errors import UnknownPathView
from api.views import games, leagues, matches, me, tournaments

app_name = "api"
urlpatterns = [
    *me.urlpatterns,
    *games.urlpatterns,
    *leagues.urlpatterns,
    *matches.urlpatterns,
    *tournaments.urlpatterns,
]
# Always last: an address that names no endpoint answers JSON 404 (only with a final slash,
# so APPEND_SLASH still redirects "me" to "me/").
urlpatterns += [re_path(r"^(?:[\s\S]*/)?$", UnknownPathView.as_view(), name="unknown")]
