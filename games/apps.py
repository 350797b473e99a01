from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Matches and games")

    def ready(self) -> None:
        from accounts import hooks
        from games.selectors import user_has_sat

        hooks.has_played.append(user_has_sat)  # a bot account starts with no match played
        if _bot_names not in hooks.reserved_names:
            hooks.reserved_names.append(_bot_names)  # no player may be named like a bot


def _bot_names() -> list:
    from games.models import BotLevel

    return [level.label for level in BotLevel]
