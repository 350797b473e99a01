from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = _("API tokens")

    def ready(self) -> None:
        from accounts import hooks
        from api import schema  # noqa: F401  (registers the schema extension)
        from api.services import api_tokens_revoke_all
        from api.ws import token_holds
        from core import credentials

        # A socket opened with a token acts only while the token holds (core/credentials.py).
        if token_holds not in credentials.checks:
            credentials.checks.append(token_holds)
        # A new password (changed, reset, or the account deleted) revokes the user's tokens.
        if api_tokens_revoke_all not in hooks.password_changed:
            hooks.password_changed.append(api_tokens_revoke_all)
