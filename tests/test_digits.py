"""One set of digits: every language writes Latin digits 0-9, Bengali and Burmese too
(docs/i18n.md, "Digits"). In Bengali and Burmese no text a person reads holds a Bengali digit
(U+09E6 to U+09EF) or a Myanmar one (U+1040 to U+1049): the catalogs, the pages, the engine's
refusals, a socket's and the API's refusals, the e-mails, durations and Babel's words. And the
formats: Bengali dates day first, Vietnamese counts grouped (ratings not), Burmese lists with
its comma "၊"."""

# ruff: noqa: F811  (the games tests' fixtures, imported below, are the tests' arguments)
from __future__ import annotations

import json
import re
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import polib
import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import mail
from django.template import Context, Template
from django.urls import reverse
from django.utils import formats, translation
from rest_framework.test import APIClient

import engine
from accounts.mails import mail_send
from api.models import ApiToken
from api.services import api_token_create
from core.i18n import duration_text, spoken_list, time_ago
from games import services as games
from games.refusals import refusal_message
from leagues import services as leagues
from leagues.charts import day_text
from leagues.models import League
from tests.accounts.factories import UserFactory
from tests.games.conftest import (  # noqa: F401  (fixtures, re-used)
    _fast_password_hashing,
    _own_spectator_keys,
    alice,
    bob,
    human_starts,
    seeds,
)
from tests.games.helpers import current_game
from tests.games.test_refusals import REFUSALS
from tests.leagues.conftest import join, make_league, resign_match
from tests.sockets import open_socket, session_cookie

#: The digits the site never writes: Bengali and Myanmar.
NATIVE = re.compile("[\u09e6-\u09ef\u1040-\u1049]")
LANGUAGES = ["bn", "my"]
ROOT = Path(__file__).resolve().parent.parent


def native(text: str) -> list[str]:
    """The native digits in ``text``, each with a little of its sentence."""
    return [text[max(0, m.start() - 30) : m.end() + 30] for m in NATIVE.finditer(text)]


# --- the catalogs ------------------------------------------------------------------------------


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogs_write_latin_digits(language: str, domain: str) -> None:
    catalog = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"))
    found = {
        entry.msgid: native(text)
        for entry in catalog
        if not entry.obsolete
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        if NATIVE.search(text)
    }
    assert found == {}


# --- durations, relative times, Babel ----------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_durations_relative_times_dates_and_lists_are_in_latin_digits(language: str) -> None:
    now = datetime(2026, 11, 29, 14, 5, tzinfo=UTC)
    with translation.override(language):
        said = [
            duration_text(15 * 60),
            duration_text(3 * 86400),
            time_ago(now - timedelta(minutes=25), now=now),
            day_text(now),
            spoken_list(["7", "10", "2"]),
        ]
    assert [native(text) for text in said] == [[]] * len(said)
    assert said[0].startswith("15") and "3" in said[1] and "25" in said[2] and "2026" in said[3]


# --- the engine's refusals ---------------------------------------------------------------------


def _sample_refusals() -> list[tuple[engine.IllegalMove, bool]]:
    """Each engine code with sample params: the refusals the engine raised (tests/games/
    test_refusals.py), and a wrong rank on a stack at each rank, which names the next rank."""
    refusals = list(REFUSALS.values())
    for top in range(13):
        params = {"card": "7D", "stack": "c2", "stands_for": top}
        refusals.append((engine.IllegalMove("wrong_rank", "no", **params), top % 2 == 0))
    refusals.append(
        (engine.IllegalMove("no_such_stack", "no", stack="s12", count=4), True)
    )  # two-digit numbers
    return refusals


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_refusal_writes_latin_digits(language: str) -> None:
    with translation.override(language):
        texts = [str(refusal_message(exc, king_on_empty=king)) for exc, king in _sample_refusals()]
    assert {text: native(text) for text in texts if NATIVE.search(text)} == {}
    assert any("12" in text for text in texts)  # the numbers are there, in Latin digits


# --- a socket's and the API's refusals, end to end ---------------------------------------------


def _past_the_abort_limit(user, other) -> League:
    """``user`` has aborted the most ranked matches the limit allows (they name a count and
    two durations)."""
    league = make_league(bots_ranked=True)
    join(league, user)
    join(league, other)
    for _ in range(settings.LEAGUES_ABORT_LIMIT):
        match = leagues.ranked_match_create(league=league, user0=user, user1=other)
        games.game_abort(game_id=match.games.get().pk, user=user)
    return league


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_an_api_refusal_with_numbers_writes_latin_digits(language: str, alice, bob) -> None:
    league = _past_the_abort_limit(alice, bob)
    alice.language = language
    alice.save(update_fields=["language"])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=alice, name='cli')[1]}")
    response = api.post("/api/v1/matches/", {"bot": "greedy", "league": league.slug}, format="json")
    assert response.status_code == 403
    message = response.json()["message"]
    assert native(message) == [] and str(settings.LEAGUES_ABORT_LIMIT) in message


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_socket_refusal_with_numbers_writes_latin_digits(language: str, alice, bob):
    league = await sync_to_async(_past_the_abort_limit)(alice, bob)
    alice.language = language
    await sync_to_async(alice.save)(update_fields=["language"])
    cookie = await sync_to_async(session_cookie)(alice)
    socket = await open_socket(f"/ws/leagues/{league.slug}/queue/", cookie)
    try:
        error = await socket.receive_json_from(timeout=5)
    finally:
        await socket.disconnect()
    assert error["type"] == "error" and error["code"] == "forbidden"
    message = error["message"]
    assert native(message) == [] and str(settings.LEAGUES_ABORT_LIMIT) in message


# --- pages -------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_with_numbers_write_latin_digits(language: str, client, alice, bob, human_starts):
    league = make_league()
    join(league, alice)
    join(league, bob)
    resign_match(leagues.ranked_match_create(league=league, user0=alice, user1=bob), bob)
    game = current_game(human_starts(alice))
    games.game_play_move(
        game_id=game.pk,
        user=alice,
        move=next(m.text for m in engine.Game.from_dict(game.state).legal_moves()),
        version=game.version,
    )  # a move to show in the watch page's tile ("… ago")
    api_token_create(user=alice, name="laptop")
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)
    pages = [
        reverse("rules"),
        reverse("privacy"),
        reverse("games:table", args=[game.pk]),
        reverse("games:watch"),
        reverse("games:history", args=["alice"]),
        reverse("leagues:detail", args=[league.slug]),
        reverse("accounts:profile", args=["alice"]),
        reverse("lobby:people"),
        reverse("api_tokens"),
    ]
    found = {}
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert re.search(r">[^<]*[0-9][^<]*<", html), url  # it shows numbers
        if NATIVE.search(html):
            found[url] = native(html)
    assert found == {}


# --- e-mails -----------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_mails_write_latin_digits(language: str, client) -> None:
    """The mails' numbers are the site's address, the links' and the names' digits."""
    user = UserFactory(username="player42", email="p42@example.com", language=language)
    site = "http://127.0.0.1:8000"
    mail_send(
        to="new7@example.com",
        template="email_confirm",
        user=user,
        context={"user": user, "site": site, "url": site + "/accounts/email/confirm/a1b2/"},
    )
    mail_send(
        to=user.email,
        template="email_changing",
        user=user,
        context={"user": user, "site": site, "email": "new7@example.com"},
    )
    mail_send(
        to="p42@example.com",
        template="email_taken",
        user=user,
        context={"site": site, "reset": site + "/accounts/password/reset/"},
    )
    client.post(reverse("accounts:password_reset"), {"email": user.email})
    assert len(mail.outbox) == 4
    for sent in mail.outbox:
        assert native(sent.subject + sent.body) == [], sent.body
        assert "127.0.0.1" in sent.body or "testserver" in sent.body
    assert "player42" in mail.outbox[0].body


# --- formats -----------------------------------------------------------------------------------


def test_a_bengali_date_with_its_time_is_day_first() -> None:
    moment = datetime(2026, 11, 29, 14, 5, tzinfo=UTC)
    with translation.override("bn"):
        long = formats.date_format(moment, "DATETIME_FORMAT")
        short = formats.date_format(moment, "SHORT_DATETIME_FORMAT")
    for text in (long, short):
        assert re.match(r"29 \S+, 2026 2:05 \S+$", text), text  # not "11/29/2026 2:05 …"
        assert not re.search(r"[A-Za-z]", text), text  # the month and অপরাহ্ন in Bengali


@pytest.mark.django_db
def test_the_tokens_page_shows_a_bengali_date_day_first(client, alice) -> None:
    api_token_create(user=alice, name="laptop")
    ApiToken.objects.update(created_at=datetime(2026, 11, 29, 14, 5, tzinfo=UTC))
    alice.language = "bn"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    html = client.get(reverse("api_tokens")).content.decode()
    assert re.search(r"<td>29 [^<]+, 2026 2:05 [^<]+</td>", html)


def test_vietnamese_counts_are_grouped_and_ratings_are_not() -> None:
    template = Template("{% load l10n %}{{ count }} / {{ rating|unlocalize }}")
    with translation.override("vi"):
        shown = template.render(Context({"count": 12345, "rating": 1500}))
    assert shown == "12.345 / 1500"
    with translation.override("en"):
        assert template.render(Context({"count": 12345, "rating": 1500})) == "12,345 / 1500"


@pytest.mark.django_db
def test_the_standings_show_ratings_ungrouped_in_vietnamese(client, alice, bob) -> None:
    league = make_league()
    join(league, alice, rating=1612.4)
    join(league, bob)
    html = client.get(
        reverse("leagues:detail", args=[league.slug]), HTTP_ACCEPT_LANGUAGE="vi"
    ).content.decode()
    assert ">1612<" in html and "1.612" not in html


def test_a_burmese_list_is_joined_with_its_comma() -> None:
    with translation.override("my"):
        said = spoken_list(["7", "Queen", "empty"])
    assert said.startswith("7၊ Queen") and ", " not in said


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
@pytest.mark.parametrize("language", ["bn", "my", "vi"])
def test_the_javascripts_numbers_are_latin_and_burmese_lists_use_its_comma(
    tmp_path: Path, language: str
) -> None:
    script = tmp_path / "check.mjs"
    script.write_text(
        "globalThis.window = {};\n"
        f"globalThis.document = {{ documentElement: {{ lang: {json.dumps(language)} }} }};\n"
        "const cards = await import(process.argv[2]);\n"
        "console.log(JSON.stringify({\n"
        "  number: cards.formatNumber(12345),\n"
        "  clock: cards.formatDuration(605),\n"
        "  list: cards.formatList(['7♦', 'K♥', '10♠']),\n"
        "  native: new Intl.NumberFormat(document.documentElement.lang).format(12345),\n"
        "}));\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        ["node", str(script), (ROOT / "static" / "js" / "cards.js").as_uri()],
        check=True,
        capture_output=True,
        text=True,
    )
    out = json.loads(result.stdout)
    assert out["number"] == {"bn": "12,345", "my": "12,345", "vi": "12.345"}[language]
    assert out["clock"] == "10:05"
    if language == "my":
        assert out["list"] == "7♦၊ K♥၊ 10♠"
    if language != "vi":
        assert NATIVE.search(out["native"])  # what Intl writes without numberingSystem


def test_a_burmese_list_of_links_is_joined_with_its_comma() -> None:
    template = Template("{% load players %}a{% list_comma %}b")
    with translation.override("my"):
        assert template.render(Context()) == "a၊ b"
    with translation.override("en"):
        assert template.render(Context()) == "a, b"
