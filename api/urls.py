from api.views import games, leagues, matches, me, tournaments

app_name = "api"
urlpatterns = [
    *me.urlpatterns,
    *games.urlpatterns,
    *leagues.urlpatterns,
    *matches.urlpatterns,
    *tournaments.urlpatterns,
]
