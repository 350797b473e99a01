"""The site in six languages: which language a person gets (profile, else the switcher's cookie,
else Accept-Language, else English), the header's switcher for visitors and players, and every
page a player or a visitor can reach, rendered in every language with the right ``lang``.

The page list is not written by hand: the test crawls the site's own links from the home page,
as a visitor and as a demo player with a live match, a finished match and a tournament, so a
new page is covered as soon as something links to it.
"""

from __future__ import annotations

import datetime
import io
import re
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlsplit

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

import engine
from accounts.models import User
from core.i18n import language_for_scope, preferred_language
from games.services import matches as match_services
from games.services import play as play_services
from leagues.models import League, Tournament

LANGUAGES = [code for code, _name in settings.LANGUAGES]
BENGALI = re.compile(r"[\u0980-\u09ff]")
BURMESE = re.compile(r"[\u1000-\u109f]")
HTML_LANG = re.compile(r'<html lang="([^"]+)"')
#: Not the site's pages: they act (POST only, or sign out), answer JSON, or are for developers
#: in English from third-party templates (the admin, drf-spectacular's Swagger UI at /api/docs/,
#: which documents the English OpenAPI schema).
NOT_PAGES = re.compile(
    r"^/(admin|api/v1|api/schema|api/docs|static|jsi18n|language|healthz)(/|$)|/logout/"
)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


def _links(html: str) -> set[str]:
    parser = _Links()
    parser.feed(html)
    found = set()
    for href in parser.hrefs:
        url, _fragment = urldefrag(href)
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path.startswith("/"):
            continue
        if not NOT_PAGES.search(parts.path):
            found.add(parts.path + (f"?{parts.query}" if parts.query else ""))
    return found


def _crawl(client: Client, limit: int = 120) -> dict[str, str]:
    """The site's own pages reachable by links from the home page: path → English HTML."""
    pages: dict[str, str] = {}
    queue = ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
    while queue and len(pages) < limit:
        path = queue.pop(0)
        if path in pages:
            continue
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue
        html = response.content.decode()
        pages[path] = html
        # Pages of a list (?page=2, filters) are the same template: one of each path is enough.
        queue.extend(
            link for link in sorted(_links(html)) if link.split("?")[0] not in _bare(pages)
        )
    return pages


def _bare(pages: dict[str, str]) -> set[str]:
    return {path.split("?")[0] for path in pages}


@pytest.fixture
def site(db):
    """The demo data, alice's live ranked match against bruno, her finished casual match
    against a bot (a replay) and a Swiss tournament in the Club."""
    call_command("load_demo", "--allow-production", stdout=io.StringIO())
    alice = User.objects.get(username="alice")
    bruno = User.objects.get(username="bruno")
    demo = League.objects.get(slug="demo")
    match_services.match_create_between(
        user0=alice, user1=bruno, rules=engine.Rules(payoff_size=5, match_target=10), ranked=False
    )
    finished = match_services.match_create(
        user=alice, bot="random", rules=engine.Rules(payoff_size=5, match_target=10)
    )
    play_services.game_resign(game_id=finished.current_game.pk, user=alice, scope="match")
    Tournament.objects.create(
        league=League.objects.get(slug="club"),
        name="Autumn Swiss",
        slug="autumn",
        format=Tournament.Format.SWISS,
        rounds=3,
        status=Tournament.Status.REGISTRATION,
    )
    return {"alice": alice, "bruno": bruno, "demo": demo}


def _pages_for(client: Client) -> dict[str, str]:
    pages = _crawl(client)
    assert len(pages) >= 4, sorted(pages)
    return pages


def _check_every_language(client: Client, pages: dict[str, str]) -> None:
    for path in pages:
        for language in LANGUAGES:
            response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, (path, language)
            html = response.content.decode()
            assert HTML_LANG.search(html).group(1) == language, (path, language)
            with translation.override(language):
                play = translation.gettext("Play")
                footer = translation.gettext(
                    "Spite & Malice online — server-authoritative, live, replayable."
                )
            assert f">{play}</a>" in html, (path, language)
            assert footer in html, (path, language)
            if language != "en":
                assert "server-authoritative, live, replayable" not in html, (path, language)


def test_every_page_a_visitor_reaches_renders_in_every_language(site, client) -> None:
    pages = _pages_for(client)

    assert {"/", "/rules/", "/accounts/login/", "/accounts/signup/"} <= set(pages)
    _check_every_language(client, pages)


def test_every_page_a_player_reaches_renders_in_every_language(site, client) -> None:
    client.force_login(site["alice"])
    pages = _pages_for(client)

    bare = _bare(pages)
    for expected in (
        "/play/",
        "/play/people/",
        "/leagues/demo/",
        "/leagues/club/tournaments/autumn/",
        "/accounts/profile/edit/",
        "/accounts/tokens/",
    ):
        assert expected in bare, sorted(bare)
    assert any(re.fullmatch(r"/play/games/\d+/", path) for path in bare), sorted(bare)
    assert any(re.fullmatch(r"/play/games/\d+/replay/", path) for path in bare), sorted(bare)
    _check_every_language(client, pages)


# --- Which language ------------------------------------------------------------------------


class _Person:
    def __init__(self, language: str = "", authenticated: bool = True) -> None:
        self.language = language
        self.is_authenticated = authenticated


@pytest.mark.parametrize(
    ("user", "cookie", "accept", "expected"),
    [
        (_Person("vi"), "es", "it", "vi"),  # the profile first
        (_Person(""), "es", "it", "es"),  # then the switcher's cookie
        (_Person("", authenticated=False), None, "bn-BD,bn;q=0.9,en;q=0.5", "bn"),
        (None, None, "fr-FR, my;q=0.8", "my"),  # the first language the site speaks
        (None, None, "es-AR", "es"),  # a regional variant finds its language
        (None, "xx", "fr, de", "en"),  # nothing the site speaks: English
        (None, None, "", "en"),
        (_Person("zz"), None, "it", "it"),  # a profile value no longer offered is skipped
    ],
)
def test_the_language_comes_from_the_profile_then_the_cookie_then_the_browser(
    user, cookie, accept, expected
) -> None:
    assert preferred_language(user, cookie=cookie, accept_language=accept) == expected


def test_a_socket_handshake_is_read_with_the_same_rule() -> None:
    scope = {
        "user": _Person(""),
        "cookies": {settings.LANGUAGE_COOKIE_NAME: "my"},
        "headers": [(b"accept-language", b"vi")],
    }
    assert language_for_scope(scope) == "my"
    scope["cookies"] = {}
    assert language_for_scope(scope) == "vi"
    assert language_for_scope({"headers": []}) == "en"


@pytest.mark.django_db
def test_a_page_follows_accept_language_and_says_so(client) -> None:
    response = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9")

    assert HTML_LANG.search(response.content.decode()).group(1) == "it"
    assert response["Content-Language"] == "it"
    assert "Accept-Language" in response["Vary"]


@pytest.mark.django_db
def test_a_players_profile_language_wins_over_the_browser(client) -> None:
    player = User.objects.create_user("linh", password="x-long-pass-1", language="vi")
    client.force_login(player)

    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="es").content.decode()

    assert HTML_LANG.search(html).group(1) == "vi"


# --- The header's switcher -----------------------------------------------------------------


@pytest.mark.django_db
def test_the_header_offers_every_language_in_its_own_name_one_button_each(client) -> None:
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="it").content.decode()

    header = html[html.index('class="site-header"') : html.index("</header>")]
    switcher = header[header.index('class="language-switcher') :]
    for code, name in settings.LANGUAGES:
        assert f'name="language" value="{code}" lang="{code}"' in switcher
        assert name in switcher
    assert 'value="it" lang="it" aria-current="true"' in switcher  # the one in use, marked
    assert f'action="{reverse("set_language")}"' in switcher
    assert "<select" not in switcher  # no separate "Change" button to press


@pytest.mark.django_db
def test_a_visitor_switches_language_and_stays_on_the_page(client) -> None:
    response = client.post(
        reverse("set_language"), {"language": "bn", "next": "/rules/"}, HTTP_ACCEPT_LANGUAGE="es"
    )

    assert response.status_code == 302
    assert response["Location"] == "/rules/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "bn"
    html = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert HTML_LANG.search(html).group(1) == "bn"


@pytest.mark.django_db
def test_a_player_switching_language_keeps_it_in_the_profile(client) -> None:
    player = User.objects.create_user("pablo", password="x-long-pass-1", language="es")
    client.force_login(player)

    client.post(reverse("set_language"), {"language": "my", "next": "/"})

    player.refresh_from_db()
    assert player.language == "my"


@pytest.mark.django_db
def test_the_switcher_refuses_an_unknown_language_and_a_foreign_next(client) -> None:
    player = User.objects.create_user("ines", password="x-long-pass-1", language="it")
    client.force_login(player)

    response = client.post(
        reverse("set_language"), {"language": "xx", "next": "https://evil.example/"}
    )

    assert response.status_code == 302
    assert "evil.example" not in response["Location"]
    player.refresh_from_db()
    assert player.language == "it"
    assert client.get(reverse("set_language")).status_code == 405


# --- Scripts and formats -------------------------------------------------------------------


def test_bengali_and_burmese_name_their_noto_faces_first_in_the_stylesheet() -> None:
    css = (settings.BASE_DIR / "static" / "css" / "site.css").read_text()

    for lang, family in (("bn", "Noto Sans Bengali"), ("my", "Noto Sans Myanmar")):
        assert re.search(rf":lang\({lang}\)\s*{{[^}}]*font-family", css), lang
        assert family in css
    assert "@import" not in css and "url(http" not in css


@pytest.mark.parametrize(
    ("language", "number", "date"),
    [
        ("en", "1,234.5", "Nov. 29, 2026"),
        ("es", "1\xa0234,5", "29 de noviembre de 2026"),
        ("it", "1.234,5", "29 novembre 2026"),
        ("vi", "1.234,5", "Ngày 29 tháng 11 năm 2026"),  # grouped: core/formats/vi
    ],
)
def test_numbers_and_dates_follow_the_language(language, number, date) -> None:
    with translation.override(language):
        assert formats.number_format(1234.5, decimal_pos=1, force_grouping=True) == number
        assert formats.date_format(datetime.date(2026, 11, 29)) == date


@pytest.mark.parametrize(("language", "script"), [("bn", BENGALI), ("my", BURMESE)])
def test_bengali_and_burmese_dates_name_the_month_in_their_script(language, script) -> None:
    with translation.override(language):
        date = formats.date_format(datetime.date(2026, 11, 29))
        month = formats.date_format(datetime.date(2026, 11, 29), "F")

    assert "29" in date and "2026" in date and month in date
    assert month and all(script.fullmatch(c) for c in month if not c.isspace()), month


# --- Country names -------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "spain"), [("en", "Spain"), ("bn", "স্পেন"), ("my", "စပိန်"), ("vi", "Tây Ban Nha")]
)
def test_countries_are_named_in_the_pages_language(client, language, spain) -> None:
    player = User.objects.create_user("lucia", password="x-long-pass-1", country="ES")
    client.force_login(player)

    profile = client.get(reverse("accounts:profile", args=["lucia"]), HTTP_ACCEPT_LANGUAGE=language)
    edit = client.get(reverse("accounts:profile_edit"), HTTP_ACCEPT_LANGUAGE=language)

    assert f"</span> {spain}</dd>" in profile.content.decode()
    assert f'<option value="ES" selected>{spain}</option>' in edit.content.decode()


# --- Django's own form texts ---------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["bn", "my"])
def test_sign_up_errors_and_password_rules_read_in_bengali_and_burmese(client, language) -> None:
    """Django's own catalogs lack most of these in Bengali and Burmese; ours have them."""
    html = client.post(
        reverse("accounts:signup"),
        {"username": "", "email": "not-an-address", "password1": "123", "password2": "124"},
        HTTP_ACCEPT_LANGUAGE=language,
    ).content.decode()

    with translation.override(language):
        for text in ("This field is required.", "Enter a valid email address."):
            translated = translation.gettext(text)
            assert translated != text and translated in html, text
    for english in ("This field is required", "Enter a valid email", "password must contain"):
        assert english not in html


# --- Django's time words ------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "minutes"), [("vi", "phút"), ("bn", "মিনিট"), ("my", "မိနစ်")])
def test_a_challenges_expiry_says_its_minutes_in_the_pages_language(
    client, language, minutes
) -> None:
    """Django's |timeuntil words ("29 minutes") come from our catalogs (core/django_texts.py):
    Django has none in Vietnamese, Bengali or Burmese."""
    from lobby.services import challenge_create

    alice = User.objects.create_user("alice", password="a-long-pass-123")
    User.objects.create_user("bob", password="a-long-pass-123")
    challenge_create(challenger=alice, challenged_username="bob", rules=engine.Rules())
    client.force_login(alice)

    html = client.get(reverse("lobby:people"), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert re.search(rf"\d+\xa0{minutes}", html)
    assert "minute" not in html


def test_cldrs_burmese_is_said_in_the_sites_colloquial_register() -> None:
    """Babel's Burmese is literary ("ပြီးခဲ့သည့် 6 မိနစ်", "… နှင့် …"); the site's is not."""
    from core.i18n import duration_text, spoken_list, time_ago

    now = datetime.datetime(2026, 12, 4, 12, 0, tzinfo=datetime.UTC)
    with translation.override("my"):
        said = [
            time_ago(now - datetime.timedelta(minutes=6), now=now),
            spoken_list(["7", "Queen", "empty"]),
            duration_text(900),
        ]
    assert said[0] == "ပြီးခဲ့တဲ့ 6 မိနစ်"
    assert said[1].endswith("Queen နဲ့ empty")
    assert not [text for text in said if "သည့်" in text or "နှင့်" in text], said
