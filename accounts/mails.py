"""The account mails other than Django's password reset (which ``accounts.forms`` sends), and
the signed link that confirms an e-mail address (docs/accounts.md, "E-mail address").

A mail speaks its account's language (its profile's choice), else the language of the page it
was asked from, as the password reset does, and shows times in its account's time zone.
Addresses are confirmed, never just stored: an address typed at sign-up or on the profile
becomes the account's only when the link sent to it is opened, so nobody can claim an address
that is not theirs, and the answer never says whether another account already has it (that
account's address gets a mail saying so instead)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from core.i18n import supported_language
from core.timezones import override_for

#: The salt of the confirmation links' signatures (no other signed value can pass for one).
CONFIRM_SALT = "accounts.email-confirm"


def mail_send(*, to: str, template: str, context: dict[str, Any], user: Any = None) -> None:
    """Send ``accounts/email/<template>_subject.txt`` and ``_body.txt`` to ``to``, in
    ``user``'s language when their profile names one, else in the page's; times in their
    profile's time zone, else the page's."""
    language = supported_language(getattr(user, "language", "")) or translation.get_language()
    with translation.override(language), override_for(user):
        subject = render_to_string(f"accounts/email/{template}_subject.txt", context)
        body = render_to_string(f"accounts/email/{template}_body.txt", context)
    send_mail(" ".join(subject.split()), body, None, [to])


def confirm_token(*, user: Any, email: str) -> str:
    """A signed, timestamped token saying that ``user`` wants ``email``; it holds the address
    the account has now, so it works once (after it, the account's address is another)."""
    payload = {"u": user.pk, "e": email, "o": user.email}
    return signing.dumps(payload, salt=CONFIRM_SALT, compress=True)


def confirm_read(token: str) -> dict[str, Any]:
    """The token's payload; ``signing.SignatureExpired`` past
    ``ACCOUNTS_EMAIL_CONFIRM_MAX_AGE`` seconds, ``signing.BadSignature`` when it was not made
    here (or was changed)."""
    return signing.loads(
        token, salt=CONFIRM_SALT, max_age=float(settings.ACCOUNTS_EMAIL_CONFIRM_MAX_AGE)
    )


def confirm_url(*, site: str, token: str) -> str:
    return site + reverse("accounts:email_confirm", args=[token])
