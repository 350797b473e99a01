"""django-axes (the log-in throttle, docs/accounts.md) in the admin in the reader's language:
its app named in the site's words, and its models' names listed for our catalogs (axes ships
no Vietnamese, Spanish, Italian, Bengali or Burmese catalog). The texts must stay exactly
axes's own (tests/test_admin_i18n.py checks)."""

from axes.apps import AppConfig as AxesAppConfig
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop


class AxesConfig(AxesAppConfig):
    verbose_name = _("Log-in protection")


AXES_TEXTS = (
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("access attempt expiration"),
    gettext_noop("access attempt expirations"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
)
