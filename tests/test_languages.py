"""Every page a player reaches speaks their language (issue 24): each page is rendered in English
and in vi, es, it, bn and my, and a text a reader meets on the page — a text node outside
<script>, <style>, <code> and <kbd>, or a title, placeholder, aria-label, alt or a button's
value — fails when it reads exactly as in the English render, or (in vi, bn and my, whose words
are not plain ASCII) when it holds one of the English render's words: "hết hạn sau 29 minutes".
Names players chose (read from the database), CLDR's country names, digits, punctuation and the
loanwords of ``SAME_IN_EVERY_LANGUAGE`` and ``SAME_IN_LANGUAGE``, each with its reason, aside.
Every failure is reported at once, with its page, language and text.

The pages are not listed by hand: every named URL pattern of the site is walked, its arguments
filled from the demo data (``load_demo``, as `make run` loads it) and a few objects made here (a
live and a finished match, a replay, a running tournament, a challenge, a join request), as a
player and as a visitor; a pattern the walk does not render is in ``NOT_RENDERED`` saying why.
Beside them: a few forms sent back with their errors, the error pages (400, 403, 404, 500), the
CSRF failure, the API's refusals (unauthenticated, an unknown path, a validation error) and the
admin's index for a league moderator. Each page is rendered once per language; no browser.
"""

from __future__ import annotations

import io
import json
import re
import zoneinfo
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import pytest
from babel import Locale
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

import engine
from accounts.models import User
from api.models import ApiToken
from api.services import api_token_create
from core.error_pages import server_error_page
from games.services import matches as match_services
from games.services import play as play_services
from leagues.models import League, Membership, Season, Tournament, TournamentMatch
from leagues.seasons import season_close, season_open
from leagues.services import ranked_match_create
from leagues.tournaments import services as ts
from lobby import services as lobby_services
from lobby.selectors import seeks_open

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]

#: Words a page may show the same in every language, each with its reason. Names players chose
#: (usernames, display names, league, tournament and season names) are allowed too: the test
#: reads them from the database.
SAME_IN_EVERY_LANGUAGE = {
    "Spite & Malice": "the game's and the site's name",
    "Elo": "a rating system's name (a person's)",
    "Glicko-2": "the rating system's name",
    "Glicko": "the rating system's family name",
    "Buchholz": "a tie-break named after a person",
    "Sonneborn-Berger": "a tie-break named after two people",
    "SB": "Sonneborn-Berger, the tie-break's international abbreviation",
    "API": "the acronym developers say in every language",
    "JSON": "a data format's name",
    "HTTP": "the protocol's name",
    "Bearer": "the Authorization header's scheme, typed as it is",
    "Authorization": "the HTTP header's name, typed as it is",
    "<key>": "the header's placeholder for the token, shown as the header is typed",
    "WebSocket": "the protocol's name",
    "OpenAPI": "the format's name",
    "Swagger": "a tool's name",
    "Django": "the framework's name (the admin's title)",
    "GitHub": "a site's name",
    "UTC": "the time zone's international abbreviation",
    "English": "the language switcher names each language in its own words",
    "Tiếng Việt": "the language switcher names each language in its own words",
    "Español": "the language switcher names each language in its own words",
    "Italiano": "the language switcher names each language in its own words",
    "বাংলা": "the language switcher names each language in its own words",
    "မြန်မာ": "the language switcher names each language in its own words",
    "EN": "the switcher's short language codes",
    "VI": "the switcher's short language codes",
    "ES": "the switcher's short language codes",
    "IT": "the switcher's short language codes",
    "BN": "the switcher's short language codes",
    "MY": "the switcher's short language codes",
    "K": "the King's card letter, printed on card faces",
    "Q": "the Queen's card letter, printed on card faces",
    "J": "the Jack's card letter, printed on card faces",
    "A": "the Ace's card letter, printed on card faces",
    "example.com": "the demo players' e-mail domain",
    "JavaScript": "a programming language's name",
    "IP": "the acronym (an IP address) every language uses",
    "Home": "a key's name, printed on the keyboard",
    "End": "a key's name, printed on the keyboard",
}
#: Per language: a word that is that language's own word too, with its reason.
SAME_IN_LANGUAGE: dict[str, dict[str, str]] = {
    "vi": {
        "bot": "Vietnamese players say bot",
        "admin": "Vietnamese says admin (the admin's title: Trang web admin Django)",
        "e-mail": "Vietnamese writes e-mail (or email)",
        "email": "Vietnamese writes e-mail (or email)",
        "token": "Vietnamese developers say token",
        "cookie": "Vietnamese says cookie",
        "endpoint": "Vietnamese developers say endpoint",
        "salted hash": "the English term, glossed in parentheses after the Vietnamese",
        "user agent": "the English term, glossed in parentheses after the Vietnamese",
        "script": "Vietnamese developers say script",
        "laptop": "Vietnamese says laptop",
        "H2H": "Vietnamese sports pages write head-to-head as H2H (the abbr's title says it)",
    },
    "es": {
        "bot": "Spanish says bot",
        "bots": "Spanish says bots",
        "Final": "the Spanish word",
        "provisional": "the Spanish word (a rating still uncertain)",
    },
    "it": {
        "bot": "Italian says bot",
        "account": "Italian says account",
        "password": "Italian says password",
        "Password": "Italian says password",
        "Email": "Italian writes Email",
        "Standard": "Italian word",
        "slug": "Italian admins say slug",
    },
    "bn": {},
    "my": {
        "endpoint": "Burmese developers say endpoint",
        "spam": "Burmese says spam (the mail folder's name)",
        "hash": "Burmese developers say hash",
        "salt": "Burmese developers say salt (of a hash)",
        "cache": "Burmese developers say cache",
        "user agent": "the English term, glossed in parentheses after the Burmese",
        "key": "an API key, as Burmese developers say it",
    },
}

#: Named URL patterns the walk does not render, and why.
NOT_RENDERED = {
    "healthz": "a probe's answer for the load balancer, no text",
    "set_language": "POST only: the switcher's action",
    "javascript-catalog": "JavaScript, the catalog itself",
    "api_schema": "the OpenAPI schema: English for developers, read by tools",
    "api_docs": "Swagger UI over the English schema, for developers",
    "api:unknown": "the API's 404 for an unknown path: checked below as an API error",
    "accounts:logout": "POST only (signs out)",
}
#: Every admin URL but the index, which a moderator's visit below renders: the admin's pages are
#: for staff, and the index shows its chrome (the app and model names, the header, the links).
ADMIN = "admin:"

PUNCTUATION_AND_DIGITS = re.compile(r"^[\W\d_]*$")
#: Not read as words: scripts, styles, code, and the keys of the keyboard (<kbd>: "Esc", "U").
SKIPPED_TAGS = {"script", "style", "code", "template", "kbd"}
READ_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
BUTTON_INPUTS = {"submit", "button", "reset"}


class _Texts(HTMLParser):
    """The texts a reader meets on a page, whitespace folded."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping: list[str] = []

    def _add(self, text: str | None) -> None:
        text = " ".join((text or "").split())
        if text:
            self.texts.append(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skipping or tag in SKIPPED_TAGS:
            if tag not in self.VOID:
                self.skipping.append(tag)
            return
        values = dict(attrs)
        for name in READ_ATTRIBUTES:
            self._add(values.get(name))
        if tag == "input" and (values.get("type") or "").lower() in BUTTON_INPUTS:
            self._add(values.get("value"))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.handle_starttag(tag, attrs)
            self.handle_endtag(tag)
        else:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self._add(data)


#: An API answer's keys whose values are for programs, not read: the refusal's stable code.
CODE_KEYS = {"code", "engine_code"}


def _json_texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield " ".join(value.split())
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in CODE_KEYS:
                yield from _json_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_texts(item)


def texts_of(content: bytes, content_type: str) -> set[str]:
    """The texts of a response a reader meets: an HTML page's, or a JSON answer's strings."""
    if "json" in content_type:
        return {text for text in _json_texts(json.loads(content or b"null")) if text}
    parser = _Texts()
    parser.feed(content.decode())
    parser.close()
    return set(parser.texts)


def _allowed_words(language: str, names: set[str]) -> re.Pattern[str]:
    # A country's name as CLDR writes it in the language ("Italy" in Vietnamese, "Chile"), and
    # a time zone's IANA name ("Asia/Ho_Chi_Minh"), the same in every language.
    countries = set(Locale.parse(language).territories.values())
    words = set(SAME_IN_EVERY_LANGUAGE) | set(SAME_IN_LANGUAGE[language]) | names | countries
    words |= zoneinfo.available_timezones()
    alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def untranslated(english: set[str], other: set[str], allowed: re.Pattern[str]) -> list[str]:
    """Texts of ``other`` that read as in ``english`` and are more than names, loanwords,
    digits and punctuation."""
    return sorted(
        text for text in english & other if not PUNCTUATION_AND_DIGITS.match(allowed.sub("", text))
    )


#: Languages whose words are not spelt in plain ASCII letters: an English word inside a
#: sentence of theirs ("hết hạn sau 29 minutes") is English that remained. Vietnamese syllables
#: of four ASCII letters or more ("trong", "thanh") are not English words of the page.
NOT_ASCII_WORDS = {"vi": 4, "bn": 2, "my": 2}
ASCII_WORD = re.compile(r"(?<![^\W\d_])[A-Za-z]+(?![^\W\d_])")


def english_words(
    english: set[str], other: set[str], language: str, allowed: re.Pattern[str]
) -> list[str]:
    """Texts of ``other`` that are not an English text of the page but hold one of its
    English words (of ``NOT_ASCII_WORDS[language]`` letters or more), names and loanwords aside."""
    shortest = NOT_ASCII_WORDS.get(language)
    if shortest is None:
        return []
    words = {w.lower() for text in english for w in ASCII_WORD.findall(allowed.sub("", text))}
    return sorted(
        text
        for text in other - english
        if any(
            len(word) >= shortest and word.lower() in words
            for word in ASCII_WORD.findall(allowed.sub("", text))
        )
    )


# --- The site, as `make run` loads it, and a little more ---------------------------------------


@pytest.fixture
def site(db) -> dict[str, Any]:
    call_command("load_demo", "--allow-production", stdout=io.StringIO())
    alice = User.objects.get(username="alice")
    bruno = User.objects.get(username="bruno")
    carmen = User.objects.get(username="carmen")
    demo = League.objects.get(slug="demo")
    club = League.objects.get(slug="club")
    live = match_services.match_create_between(
        user0=alice, user1=bruno, rules=engine.Rules(payoff_size=5, match_target=10), ranked=False
    )
    finished = match_services.match_create(
        user=alice, bot="random", rules=engine.Rules(payoff_size=5, match_target=10)
    )
    play_services.game_resign(game_id=finished.current_game.pk, user=alice, scope="match")
    tournament = Tournament.objects.create(
        league=club,
        name="Hanoi 1",
        slug="hanoi-1",
        format=Tournament.Format.SWISS,
        rounds=3,
        status=Tournament.Status.REGISTRATION,
    )
    # A finished ranked match (ratings changed) and a running round robin with a result.
    ranked = ranked_match_create(league=demo, user0=alice, user1=bruno)
    play_services.game_resign(game_id=ranked.current_game.pk, user=bruno, scope="match")
    running = ts.tournament_create(
        league=club, name="Napoli 2", slug="napoli-2", format="round_robin", rounds=None
    )
    ts.tournament_open_registration(tournament=running)
    for username in ("alice", "bruno", "carmen", "dai"):
        ts.tournament_register(tournament=running, user=User.objects.get(username=username))
    ts.tournament_start(tournament=running)
    pairing = TournamentMatch.objects.filter(round__tournament=running).first()
    ts.pairing_result_set(pairing=pairing, winner_id=pairing.first_id, forfeit=True)
    # Club 104's demo season closed (its final table kept) and another open, ranked otherwise
    season_close(season=Season.objects.get(league=club), by=alice)
    season_open(league=club, name="Hanoi 2", by=alice, order=Season.Order.DIFFERENCE)
    challenge = lobby_services.challenge_create(
        challenger=carmen, challenged_username="alice", rules=engine.Rules(payoff_size=5)
    )
    link = lobby_services.link_create(maker=bruno, rules=engine.Rules(payoff_size=5))
    demo.admission = League.Admission.APPROVAL
    demo.save()
    request = Membership.objects.create(
        league=demo, user=carmen, role=Membership.Role.PLAYER, status=Membership.Status.PENDING
    )
    token, key = api_token_create(user=alice, name="laptop")
    seek = next(s for s in seeks_open() if s.owner_id == bruno.pk)
    return {
        "alice": alice,
        "bruno": bruno,
        "kwargs": {
            "username": bruno.username,
            "slug": demo.slug,
            "tslug": tournament.slug,
            "game_id": live.current_game.pk,
            "match_id": live.pk,
            "challenge_id": challenge.pk,
            "seek_id": seek.pk,
            "link_id": link.pk,
            "token": link.token,
            "membership_id": request.pk,
            "token_id": token.pk,
            "uidb64": urlsafe_base64_encode(force_bytes(alice.pk)),
        },
        # More states of some pages: name → the other arguments it is rendered with.
        "variants": {
            "games:match": [{"match_id": finished.pk}, {"match_id": ranked.pk}],
            "games:replay": [{"game_id": finished.current_game.pk}],
            "accounts:profile": [{"username": "alice"}, {"username": "robo"}],
            "games:history": [{"username": "alice"}],
            "leagues:detail": [{"slug": club.slug}],
            "leagues:tournament": [{"slug": club.slug, "tslug": running.slug}],
        },
        "tournament_league": club.slug,
        "key": key,
    }


def _patterns(resolver: URLResolver, namespace: str = "") -> Iterator[tuple[str, URLPattern]]:
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace or ""
            yield from _patterns(pattern, f"{namespace}{inner}:" if inner else namespace)
        elif pattern.name:
            yield f"{namespace}{pattern.name}", pattern


#: The URL arguments the walk fills (the ``site`` fixture's "kwargs").
FILLED = {
    "username", "slug", "tslug", "game_id", "match_id", "challenge_id", "seek_id", "link_id",
    "token", "membership_id", "token_id", "uidb64",
}  # fmt: skip


def _walked(name: str) -> bool:
    """Whether the walk renders the URL pattern ``name`` (the API and the admin have their own
    renders below: their refusals, and a moderator's index)."""
    return name not in NOT_RENDERED and not name.startswith((ADMIN, "api:"))


def _urls(site: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(name, path) of every named URL pattern a player may GET, filled from the demo data."""
    alice = site["alice"]
    for name, pattern in _patterns(get_resolver()):
        if not _walked(name):
            continue
        arguments = {key: site["kwargs"][key] for key in pattern.pattern.regex.groupindex}
        if name == "accounts:password_reset_confirm":
            arguments["token"] = default_token_generator.make_token(alice)
        elif name == "accounts:email_confirm":
            arguments["token"] = "no-such-token"
        elif name.startswith("leagues:tournament"):
            arguments["slug"] = site["tournament_league"]
        yield name, reverse(name, kwargs=arguments)
        for variant in site["variants"].get(name, []):
            yield name, reverse(name, kwargs={**arguments, **variant})


def _get(client: Client, path: str, language: str) -> tuple[bytes, str]:
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language, follow=True)
    return response.content, response.get("Content-Type", "")


def _renders(site: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(page, render(language) -> (content, content type)) of every page a player reaches."""
    visitor = Client()
    player = Client()
    player.force_login(site["alice"])
    login = reverse("accounts:login")
    for name, path in _urls(site):
        for who, client in (("player", player), ("visitor", visitor)):
            first = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
            if first.status_code == 405:
                continue  # POST only: an action, no page
            if first.status_code == 302 and first["Location"].startswith(login):
                continue  # the log-in page, rendered as its own URL
            yield f"{name} {path} ({who})", lambda lang, p=path, c=client: _get(c, p, lang)

    # Forms sent back with their errors (each refused alike in every language).
    def post(client: Client, path: str, data: dict[str, str], lang: str) -> tuple[bytes, str]:
        response = client.post(path, data, HTTP_ACCEPT_LANGUAGE=lang, follow=True)
        return response.content, response["Content-Type"]

    forms = [
        (visitor, "accounts:signup", {"username": "", "email": "x", "password1": "1"}),
        (player, "accounts:profile_edit", {"email": "not-an-address", "display_name": "x" * 99}),
        (player, "accounts:password_change", {"old_password": "x", "new_password1": "1"}),
        (player, "accounts:bot_account", {"note": ""}),
        (player, "api_tokens", {"name": ""}),
        (
            player,
            "lobby:challenge_create",
            {"challenge-username": "nobody", "challenge-preset": "x"},
        ),
    ]
    for client, name, data in forms:
        path = reverse(name)
        yield (
            f"{name} {path} (refused form)",
            lambda lang, c=client, p=path, d=data: post(c, p, d, lang),
        )

    def failed_log_in(lang: str) -> tuple[bytes, str]:
        data = {"username": f"nobody-{lang}", "password": "wrong-password"}
        return post(Client(), reverse("accounts:login"), data, lang)

    yield "accounts:login (wrong password)", failed_log_in

    # The error pages.
    yield "404 unknown page", lambda lang: _get(visitor, "/no-such-page/", lang)
    game_gone = reverse("games:table", kwargs={"game_id": 999999})
    yield "404 no such game", lambda lang: _get(player, game_gone, lang)
    requests = reverse("leagues:requests", kwargs={"slug": "demo"})
    bruno = Client()
    bruno.force_login(site["bruno"])
    yield "403 not a moderator", lambda lang: _get(bruno, requests, lang)

    def bad_request(lang: str) -> tuple[bytes, str]:
        response = visitor.get("/", HTTP_HOST="bad host", HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 400
        return response.content, response["Content-Type"]

    yield "400 bad request", bad_request

    def server_error(lang: str) -> tuple[bytes, str]:
        response = server_error_page(RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE=lang))
        return response.content, response["Content-Type"]

    yield "500 server error", server_error

    def csrf_failure(lang: str) -> tuple[bytes, str]:
        strict = Client(enforce_csrf_checks=True)
        response = strict.post(reverse("accounts:login"), {}, HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 403
        return response.content, response["Content-Type"]

    yield "403 CSRF failure", csrf_failure

    # The API's refusals.
    me = reverse("api:me")
    yield "API unauthenticated", lambda lang: _get(visitor, me, lang)
    yield "API unknown path", lambda lang: _get(visitor, "/api/v1/no-such-thing/", lang)

    def validation_error(lang: str) -> tuple[bytes, str]:
        response = Client().post(
            reverse("api:matches"),
            {"payoff_size": "many", "bot": 7},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {site['key']}",
            HTTP_ACCEPT_LANGUAGE=lang,
        )
        assert response.status_code == 400, response.content
        return response.content, response["Content-Type"]

    yield "API validation error", validation_error

    # The admin's index, for a league moderator (staff, no model permissions).
    moderator = Client()
    User.objects.filter(pk=site["alice"].pk).update(is_staff=True)
    moderator.force_login(site["alice"])
    yield "admin index (moderator)", lambda lang: _get(moderator, reverse("admin:index"), lang)


def test_every_url_pattern_is_walked_or_said_why_not() -> None:
    """The walk fills every argument a site's URL pattern takes, so a new page is rendered by
    the test below from its first day (or listed in ``NOT_RENDERED``, saying why)."""
    names = {name for name, _pattern in _patterns(get_resolver())}
    assert set(NOT_RENDERED) <= names, set(NOT_RENDERED) - names
    unfilled = {
        name: set(pattern.pattern.regex.groupindex) - FILLED
        for name, pattern in _patterns(get_resolver())
        if _walked(name) and set(pattern.pattern.regex.groupindex) - FILLED
    }
    assert not unfilled, unfilled


def test_no_page_shows_english_text_in_another_language(site) -> None:
    assert set(site["kwargs"]) == FILLED
    # Names players chose: usernames, display names, the names of leagues, tournaments, seasons
    # and API tokens.
    names = {
        text
        for model, fields in (
            (User, ("username", "display_name")),
            (League, ("name",)),
            (Tournament, ("name",)),
            (Season, ("name",)),
            (ApiToken, ("name",)),
        )
        for row in model.objects.values_list(*fields)
        for text in row
        if text
    }
    allowed_in = {language: _allowed_words(language, names) for language in LANGUAGES}
    failures = []
    for page, render in _renders(site):
        english = texts_of(*render("en"))
        for language in LANGUAGES:
            texts = texts_of(*render(language))
            allowed = allowed_in[language]
            same = untranslated(english, texts, allowed)
            failures += [f"{page} [{language}]: {text!r}" for text in same]
            mixed = english_words(english, texts, language, allowed)
            failures += [f"{page} [{language}]: English inside {text!r}" for text in mixed]
    assert not failures, "\n" + "\n".join(failures)
