from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Players and accounts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        user_logged_out.connect(_logged_out, dispatch_uid="accounts-sockets-signed-out")


def _logged_out(sender, request, user, **kwargs) -> None:
    """A log out closes that session's open sockets (core/credentials.py)."""
    from accounts.services import user_logged_out

    session = getattr(request, "session", None)
    user_logged_out(user=user, session_key=getattr(session, "session_key", None))
