from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby"
    verbose_name = _("Lobby")

    def ready(self) -> None:
        from games import hooks
        from lobby.services import lobby_expire

        # The sweeper marks the challenges and seeks that ran out of time.
        hooks.sweep_jobs["lobby_expire"] = lobby_expire
