"""Which language the site speaks to someone: their profile's language, else the language the
footer's switcher remembered (a cookie), else the browser's Accept-Language, else English.

Pages choose through ``UserLanguageMiddleware``, sockets through ``language_for_scope``: one
rule for both, so a refusal on the table's socket reads in the page's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any, ClassVar

from babel import Locale, UnknownLocaleError
from babel.dates import format_timedelta
from babel.lists import format_list
from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.functional import lazy
from django.utils.translation.trans_real import (
    get_supported_language_variant,
    parse_accept_lang_header,
)
from django.views import i18n as django_i18n
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language
from django_countries import countries

from core.outages import database_outage, unavailable_response


def supported_language(code: str | None) -> str | None:
    """``code`` as one of settings.LANGUAGES (``es-AR`` → ``es``), or None."""
    if not code:
        return None
    try:
        return str(get_supported_language_variant(code))
    except LookupError:
        return None


def cldr_locale() -> Locale:
    """The active language as Babel's locale (English if Babel does not know it)."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    try:
        return Locale.parse(language, sep="-")
    except (ValueError, UnknownLocaleError):
        return Locale.parse("en")


def country_name(code: str) -> str:
    """A country's name in the active language, from CLDR (Babel): django-countries has no
    Bengali or Burmese names. Falls back to django-countries' English name."""
    name = cldr_locale().territories.get(code.upper())
    return str(name or countries.name(code) or code)


#: CLDR writes Burmese in the literary register; the site speaks polite colloquial Burmese
#: (docs/i18n.md): "ပြီးခဲ့သည့် 6 မိနစ်" reads "ပြီးခဲ့တဲ့ 6 မိနစ်", "A နှင့် B" "A နဲ့ B".
BURMESE_COLLOQUIAL = (("သည့်", "တဲ့"), ("နှင့်", "နဲ့"))


def _in_site_register(text: str) -> str:
    """CLDR's ``text`` in the register the site speaks in the active language."""
    if translation.get_language() == "my":
        for literary, colloquial in BURMESE_COLLOQUIAL:
            text = text.replace(literary, colloquial)
    return text


def time_ago(moment: datetime, *, now: datetime) -> str:
    """How long before ``now`` ``moment`` was, in the active language, from CLDR (Babel):
    "2 minutes ago", "hace 2 minutos", "2 মিনিট আগে"; never less than a second (a clock
    running a little ahead elsewhere is no future)."""
    seconds = max((now - moment).total_seconds(), 1.0)
    ago = format_timedelta(timedelta(seconds=-seconds), add_direction=True, locale=cldr_locale())
    return _in_site_register(str(ago))


def spoken_list(items: Iterable[str]) -> str:
    """Items as a sentence lists them in the active language, from CLDR (Babel):
    "7, Queen, and empty", "7, Reina y vacía", "7၊ Queen နဲ့ ဗလာ"."""
    return _in_site_register(str(format_list([str(item) for item in items], locale=cldr_locale())))


def list_comma() -> str:
    """What separates the items of a list in the active language, from CLDR: ", ", and "၊ "
    in Burmese (for a template that lists links, which ``spoken_list`` cannot join)."""
    middle = str(cldr_locale().list_patterns["standard"]["middle"])
    return middle.replace("{0}", "").replace("{1}", "")


def duration_text(seconds: float) -> str:
    """A duration in words in the active language, rounded to its largest unit as CLDR says
    it (Babel): "2 weeks", "15 minutes", "15 মিনিট" (Latin digits in every language)."""
    return _in_site_register(
        str(format_timedelta(timedelta(seconds=seconds), locale=cldr_locale()))
    )


#: ``duration_text`` done when the text is read (a refusal's message, built before the
#: language it is read in is known; ``core.errors.lazy_format``).
lazy_duration = lazy(duration_text, str)


def preferred_language(user: Any, *, cookie: str | None, accept_language: str) -> str:
    if getattr(user, "is_authenticated", False):
        chosen = supported_language(getattr(user, "language", ""))
        if chosen:
            return chosen
    chosen = supported_language(cookie)
    if chosen:
        return chosen
    for code, _quality in parse_accept_lang_header(accept_language or ""):
        if code == "*":
            break
        chosen = supported_language(code)
        if chosen:
            return chosen
    return str(settings.LANGUAGE_CODE)


def _header(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> str:
    for key, value in headers:
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def language_for_scope(scope: dict[str, Any]) -> str:
    """The language of a socket's handshake (after the auth middleware has set ``user``)."""
    cookies = scope.get("cookies") or {}
    return preferred_language(
        scope.get("user"),
        cookie=cookies.get(settings.LANGUAGE_COOKIE_NAME),
        accept_language=_header(scope.get("headers") or (), b"accept-language"),
    )


def activate_for_request(request: HttpRequest, user: Any) -> str:
    """Activate ``preferred_language`` for ``request`` made by ``user``, and note it on the
    request (``LANGUAGE_CODE``, as LocaleMiddleware does). Returns the language."""
    language = preferred_language(
        user,
        cookie=request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME),
        accept_language=request.META.get("HTTP_ACCEPT_LANGUAGE", ""),
    )
    translation.activate(language)
    request.LANGUAGE_CODE = language  # type: ignore[attr-defined]
    return language


class UserLanguageMiddleware:
    """After authentication: activates ``preferred_language`` for the request (LocaleMiddleware,
    earlier in the chain, knows no profiles; it still adds Content-Language and Vary)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:  # the user (and the session) come from the database on first use
            activate_for_request(request, getattr(request, "user", None))
        except DatabaseError as exc:
            if not database_outage(exc):
                raise
            return unavailable_response(request)
        return self.get_response(request)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The footer's switcher: Django's own view (the cookie, the safe redirect back), and for a
    signed-in player the profile's language too, which outranks the cookie."""
    response = django_set_language(request)
    language = supported_language(request.POST.get("language"))
    user = getattr(request, "user", None)
    if language and user is not None and user.is_authenticated and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return response


class JavaScriptCatalog(django_i18n.JavaScriptCatalog):
    """Django's JavaScript catalog (``/jsi18n/``, on every page), built once per language per
    process: Django reads and merges the catalogs anew for each request, some 150 ms of a
    server's CPU per page shown, yet they change only when the site is deployed (and a process
    restarted)."""

    built: ClassVar[dict[str, tuple[bytes, str]]] = {}

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        language = translation.get_language()
        if language not in self.built:
            response = super().get(request, *args, **kwargs)
            self.built[language] = (response.content, response["Content-Type"])
        content, content_type = self.built[language]
        return HttpResponse(content, content_type=content_type)
