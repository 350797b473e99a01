from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from accounts import hooks
        from games.selectors import user_has_sat

        hooks.has_played.append(user_has_sat)  # a bot account starts with no match played
