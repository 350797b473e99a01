"""Times read in the reader's time zone (core/timezones.py): the browser's (the ``tz`` cookie),
else the signed-in player's profile zone, else UTC; the API's JSON stays in UTC."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from api.models import ApiToken
from api.services import api_token_create
from core.timezones import activate_for_request, zone_label
from games import services as game_services
from tests.accounts.factories import UserFactory
from tests.games.helpers import SMALL

pytestmark = pytest.mark.django_db

TOKENS = "/accounts/tokens/"
#: 20:00 UTC on 15 January is 02:30 the next day in Yangon (UTC+06:30).
CREATED = dt.datetime(2026, 1, 15, 20, 0, tzinfo=dt.UTC)
IN_UTC = "01/15/2026 8 p.m."
IN_YANGON = "01/16/2026 2:30 a.m."


@pytest.fixture(autouse=True)
def _utc_after() -> None:
    yield
    timezone.deactivate()


@pytest.fixture
def player_with_token():
    player = UserFactory()
    token, _key = api_token_create(user=player, name="laptop")
    ApiToken.objects.filter(pk=token.pk).update(created_at=CREATED)
    return player


def tokens_page(client, player, tz: str | None = None) -> str:
    client.force_login(player)
    if tz is not None:
        client.cookies["tz"] = tz
    response = client.get(TOKENS)
    assert response.status_code == 200
    return response.content.decode()


def updates_of_users(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith('UPDATE "accounts_user"')]


def test_a_page_shows_times_in_the_browsers_zone_and_says_which(client, player_with_token):
    page = tokens_page(client, player_with_token, tz="Asia/Yangon")
    assert IN_YANGON in page and IN_UTC not in page
    assert "Times are shown in Myanmar (Burma) Time (UTC+06:30)." in page


def test_without_a_cookie_a_visitor_reads_utc_and_the_page_says_so(client, player_with_token):
    page = tokens_page(client, player_with_token)
    assert IN_UTC in page
    assert "Times are shown in UTC." in page
    request = RequestFactory().get("/")
    request.COOKIES = {}
    assert activate_for_request(request, None) is None
    assert timezone.get_current_timezone_name() == "UTC"


@pytest.mark.parametrize("cookie", ["Mars/Olympus", "../../etc/passwd", "Asia/Yangon;x", ""])
def test_an_unknown_or_malformed_cookie_is_ignored(client, player_with_token, cookie):
    page = tokens_page(client, player_with_token, tz=cookie)
    assert IN_UTC in page
    player_with_token.refresh_from_db()
    assert player_with_token.time_zone == ""


def test_a_player_without_the_cookie_reads_their_profiles_zone(client, player_with_token):
    player_with_token.time_zone = "Asia/Yangon"
    player_with_token.save(update_fields=["time_zone"])
    assert IN_YANGON in tokens_page(client, player_with_token)


def test_the_cookie_zone_is_kept_in_the_profile_only_when_it_differs(client, player_with_token):
    client.force_login(player_with_token)
    client.cookies["tz"] = "Asia/Yangon"
    with CaptureQueriesContext(connection) as first:
        client.get(TOKENS)
    player_with_token.refresh_from_db()
    assert player_with_token.time_zone == "Asia/Yangon"
    assert len(updates_of_users(first.captured_queries)) == 1

    with CaptureQueriesContext(connection) as again:
        client.get(TOKENS)
    assert updates_of_users(again.captured_queries) == []

    client.cookies["tz"] = "Europe/Rome"
    client.get(TOKENS)
    player_with_token.refresh_from_db()
    assert player_with_token.time_zone == "Europe/Rome"


def test_a_zones_old_name_reads_as_its_new_one(client, player_with_token):
    page = tokens_page(client, player_with_token, tz="Asia/Rangoon")  # Chromium's name
    assert IN_YANGON in page
    assert "Times are shown in Myanmar (Burma) Time (UTC+06:30)." in page
    player_with_token.refresh_from_db()
    assert player_with_token.time_zone == "Asia/Yangon"


def test_the_profile_edit_page_shows_the_zone_times_are_in(client):
    player = UserFactory()
    client.force_login(player)
    client.cookies["tz"] = "Asia/Yangon"
    page = client.get("/accounts/profile/edit/").content.decode()
    assert "Time zone" in page
    assert 'value="Myanmar (Burma) Time (UTC+06:30)"' in page


def test_the_api_answers_in_utc_whatever_the_browsers_zone(client):
    alice, bob = UserFactory(), UserFactory()
    game_services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    client.force_login(alice)
    client.cookies["tz"] = "Asia/Yangon"
    created = client.get("/api/v1/matches/").json()["results"][0]["created_at"]
    assert created.endswith("Z")


def test_a_zone_is_labelled_with_its_offset() -> None:
    assert zone_label(dt.UTC) == "UTC"
    assert zone_label(timezone.get_default_timezone()) == "UTC"
    from zoneinfo import ZoneInfo

    assert zone_label(ZoneInfo("Asia/Kolkata")) == "India Time (UTC+05:30)"
    assert zone_label(ZoneInfo("America/St_Johns")).startswith("Canada (St. John")  # CLDR names it


def test_a_zone_is_named_in_the_readers_language() -> None:
    """Not the IANA identifier a player never uses ("Asia/Ho_Chi_Minh")."""
    from zoneinfo import ZoneInfo

    with translation.override("vi"):
        assert zone_label(ZoneInfo("Asia/Ho_Chi_Minh")) == "Giờ Việt Nam (UTC+07:00)"
    with translation.override("my"):
        assert zone_label(ZoneInfo("Asia/Yangon")) == "မြန်မာ အချိန် (UTC+06:30)"
    assert zone_label(ZoneInfo("Etc/GMT-3")) == "UTC+03:00"  # a zone with no place
