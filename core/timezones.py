"""Which time zone a person reads times in: the browser's (the ``tz`` cookie that
``static/js/has-js.js`` writes on every page), else the signed-in player's profile zone (which
the cookie keeps up to date, for e-mails), else UTC.

Pages activate it through ``TimeZoneMiddleware``; Django then shows every aware datetime in a
template in that zone. The REST API answers in UTC and socket frames carry ISO 8601 times
with their offset: data for programs (docs/i18n.md, "Time zones").
"""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, tzinfo
from typing import Any

from babel.dates import get_timezone_location
from django.contrib.auth import get_user_model
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from rest_framework.views import APIView

from core.i18n import cldr_locale
from core.outages import database_outage, unavailable_response

#: The cookie the browser's zone comes in (an IANA name such as ``Asia/Yangon``).
COOKIE_NAME = "tz"


#: Old names that browsers (ICU) still give for zones since renamed; a player reads the new one.
RENAMED = {
    "Asia/Rangoon": "Asia/Yangon",
    "Asia/Saigon": "Asia/Ho_Chi_Minh",
    "Asia/Calcutta": "Asia/Kolkata",
    "Asia/Dacca": "Asia/Dhaka",
    "Asia/Katmandu": "Asia/Kathmandu",
    "Europe/Kiev": "Europe/Kyiv",
    "Atlantic/Faeroe": "Atlantic/Faroe",
    "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
}


@functools.cache
def _known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_named(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone an IANA name names (by its current name), or None for an empty, unknown or
    malformed name."""
    name = RENAMED.get(name or "", name)
    if not name or name not in _known_zones():
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return None


def zone_label(zone: tzinfo | None = None) -> str:
    """A zone as a reader recognises it, in the active language (CLDR's names, through Babel),
    with its offset now: "Myanmar (Burma) Time (UTC+06:30)", "Giờ Việt Nam (UTC+07:00)",
    "UTC". The active zone when none is given."""
    zone = zone or timezone.get_current_timezone()
    name = str(getattr(zone, "key", None) or zone)
    offset = datetime.now(zone).utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    hours, minutes = divmod(abs(minutes), 60)
    utc = f"UTC{sign}{hours:02d}:{minutes:02d}" if offset else "UTC"
    if name == "UTC" or name.startswith("Etc/"):  # no place: the offset says it all
        return utc
    try:
        place = str(get_timezone_location(name, locale=cldr_locale()))
    except LookupError:  # a zone CLDR does not name
        place = name
    return f"{place} ({utc})"


def user_zone(user: Any) -> zoneinfo.ZoneInfo | None:
    """A signed-in account's profile zone, or None."""
    return zone_named(getattr(user, "time_zone", "") or "")


@contextmanager
def override_for(user: Any) -> Iterator[None]:
    """Times rendered inside read in ``user``'s profile zone (an e-mail to them), else in the
    zone already active."""
    with timezone.override(user_zone(user) or timezone.get_current_timezone()):
        yield


def activate_for_request(request: HttpRequest, user: Any) -> zoneinfo.ZoneInfo | None:
    """Activate the request's zone (the cookie's, else the profile's, else UTC) and return it
    (None for UTC). A valid cookie zone that differs from a signed-in player's profile zone
    is saved to the profile: one column, only then."""
    zone = zone_named(request.COOKIES.get(COOKIE_NAME))
    signed_in = bool(getattr(user, "is_authenticated", False))
    if zone is not None and signed_in and getattr(user, "time_zone", None) != zone.key:
        get_user_model().objects.filter(pk=user.pk).update(time_zone=zone.key)
        user.time_zone = zone.key
    if zone is None and signed_in:
        zone = user_zone(user)
    if zone is None:
        timezone.deactivate()
    else:
        timezone.activate(zone)
    return zone


class TimeZoneMiddleware:
    """After authentication: activates the reader's zone for the request (``activate_for_request``).
    The REST API's views answer in UTC: their JSON is for programs, whatever browser asks."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            activate_for_request(request, getattr(request, "user", None))
        except DatabaseError as exc:
            if not database_outage(exc):
                raise
            return unavailable_response(request)
        try:
            return self.get_response(request)
        finally:  # the thread serves someone else next
            timezone.deactivate()

    def process_view(self, request: HttpRequest, view: Callable[..., Any], *args: Any) -> None:
        view_class = getattr(view, "cls", None)
        if isinstance(view_class, type) and issubclass(view_class, APIView):
            timezone.deactivate()
