from api.views import games, me

app_name = "api"
urlpatterns = [
    *me.urlpatterns,
    *games.urlpatterns,
]
