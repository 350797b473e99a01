"""The site-wide pages (home, rules), the health check and the WebSocket router."""

import asyncio
import json
import logging
import re
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from spite import views
from tests.sockets import site_headers

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDERS = re.compile(r"TODO|coming soon|not implemented|lorem ipsum|FIXME", re.IGNORECASE)
# An address on another host anywhere a page loads something from: src, href, url(), @import.
EXTERNAL = re.compile(
    r"""(?:src|href|action)\s*=\s*["']?(?:https?:)?//"""
    r"""|url\(\s*["']?(?:https?:)?//|@import"""
)


@pytest.fixture
def player(db):
    return get_user_model().objects.create_user(
        username="carla", email="carla@example.com", password="a-long-test-pass-42"
    )


# --- home ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_home_leads_a_visitor_to_a_quick_game_and_to_sign_up(client: Client) -> None:
    response = client.get(reverse("home"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Spite &amp; Malice" in html
    assert html.index('data-testid="play-now"') < html.index("How a game goes")
    quick = re.search(
        r'<form method="post" action="/play/" class="quick-form">(.*?)</form>', html, re.S
    )
    assert quick and 'name="preset" value="quick"' in quick.group(1)
    assert re.search(r'<option value="random" selected>', quick.group(1))
    assert "No account needed" in html
    assert f'href="{reverse("lobby:people")}"' in html
    assert f'href="{reverse("accounts:signup")}"' in html
    assert f'href="{reverse("accounts:login")}"' in html
    assert f'href="{reverse("rules")}"' in html
    assert 'data-testid="welcome"' not in html


@pytest.mark.django_db
def test_the_homes_words_about_sign_up_match_the_form(client: Client) -> None:
    from accounts.forms import SignUpForm

    html = client.get(reverse("home")).content.decode()
    needs = re.search(r'data-testid="sign-up-needs">(.*?)</p>', html, re.S).group(1)
    form = SignUpForm()
    required = {name for name, field in form.fields.items() if field.required}
    assert required == {"username", "password1", "password2"}
    assert "username and a password are all you need" in needs
    assert "e-mail address is optional" in needs and not form.fields["email"].required


@pytest.mark.django_db
def test_home_greets_a_new_player_as_new_and_a_returning_one_as_back(client, player) -> None:
    from games.presets import QUICK
    from games.services import match_create

    client.force_login(player)
    html = client.get(reverse("home")).content.decode()
    assert 'data-testid="welcome"' in html and "Welcome, carla" in html
    assert "Welcome back" not in html and "Sign up free" not in html
    assert f'href="{reverse("accounts:profile", args=["carla"])}"' in html

    match = match_create(user=player, bot="greedy", rules=QUICK.rules)
    html = client.get(reverse("home")).content.decode()
    assert "Welcome back, carla" in html
    assert re.search(r'<option value="greedy" selected>', html)
    assert 'data-testid="in-progress"' in html
    assert f'href="{reverse("games:table", args=[match.games.get().pk])}"' in html


@pytest.mark.django_db
def test_home_lists_the_challenges_waiting_for_the_player(client, player) -> None:
    from games.presets import QUICK
    from lobby.services import challenge_create

    dora = get_user_model().objects.create_user(username="dora", password="a-long-test-pass-42")
    challenge = challenge_create(challenger=dora, challenged_username="carla", rules=QUICK.rules)
    client.force_login(player)
    html = client.get(reverse("home")).content.decode()
    assert 'data-testid="challenges"' in html
    assert f'action="{reverse("lobby:challenge_accept", args=[challenge.pk])}"' in html
    client.force_login(dora)
    assert 'data-testid="challenges"' not in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_home_tells_a_guest_how_to_keep_their_games(client) -> None:
    client.post(reverse("games:lobby"), {"bot": "random", "preset": "quick"})
    html = client.get(reverse("home")).content.decode()
    assert "You are playing as a guest" in html
    assert 'data-testid="in-progress"' in html
    assert f'href="{reverse("accounts:login")}"' not in html.split('data-testid="sign-up"')[1]


@pytest.mark.django_db
def test_home_uses_the_display_name_when_there_is_one(client, player) -> None:
    player.display_name = "Carla the Bold"
    player.save()
    client.force_login(player)

    html = client.get(reverse("home")).content.decode()

    assert "Welcome, Carla the Bold" in html


# --- rules --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_rules_page_teaches_every_part_of_the_game(client: Client) -> None:
    response = client.get(reverse("rules"))

    assert response.status_code == 200
    html = response.content.decode()
    for section in ("cards", "table", "building", "kings", "turn", "end", "starts", "match"):
        assert f'id="{section}"' in html, section
        assert f'href="#{section}"' in html, section
    for section in ("seeing", "variants"):
        assert f'id="{section}"' in html, section
    for phrase in (
        "104 cards",
        "pay-off pile",
        "side stacks",
        "center stacks",
        "stock",
        "Kings are wild",
        "stands for 4",
        "50 points",
        "a tie",
        "Spectators",
    ):
        assert phrase in html, phrase
    for knob in ("Decks", "Pay-off pile", "Hand", "Side stacks", "An empty hand draws a new hand"):
        assert f'<th scope="row">{knob}' in html, knob


@pytest.mark.django_db
def test_the_rules_variants_table_is_laid_out_as_a_table(client) -> None:
    """Its class is no other element's: as "knobs" it took the lobby's grid of form fields
    (display: grid) and shrank to a column a fifth of the page wide."""
    from django.conf import settings

    html = client.get(reverse("rules")).content.decode()
    table = html[html.index('id="variants"') :]
    (name,) = re.findall(r'<table class="([\w-]+)">', table)[:1]
    css = (settings.BASE_DIR / "static" / "css" / "site.css").read_text()
    rules = re.findall(rf"(?<![\w-])\.{name}\s*{{([^}}]*)}}", css)
    assert not any("display: grid" in rule for rule in rules), name


def test_the_rules_variants_name_each_setting_in_the_readers_words(client, marked) -> None:
    """The Variants table names the settings as the lobby's form does, translated, never by the
    engine's identifiers (payoff_size, king_on_empty)."""
    html = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    table = html[html.index('id="variants"') : html.index("</table>", html.index('id="variants"'))]

    heads = re.findall(r'<th scope="row">(.*?)</th>', table)
    assert heads == [
        "[vi]Decks",
        "[vi]Hand",
        "[vi]Pay-off pile",
        "[vi]Side stacks",
        "[vi]Center stacks",
        "[vi]A King may start an empty center stack",
        "[vi]An empty hand draws a new hand at once",
        "[vi]Points to win the match",
    ]
    assert "_size" not in table and "<code>" not in table


@pytest.mark.django_db
def test_rules_page_draws_its_pictures_inline(client: Client) -> None:
    html = client.get(reverse("rules")).content.decode()

    figures = re.findall(r"<figure.*?</figure>", html, re.DOTALL)
    assert len(figures) >= 3
    for figure in figures:
        assert "<svg" in figure and "<figcaption" in figure
        assert re.search(r'role="img"\s+aria-labelledby="[^"]+"', figure)
    assert "<img" not in html


@pytest.mark.django_db
def test_rules_page_links_back_to_signing_up(client: Client) -> None:
    html = client.get(reverse("rules")).content.decode()

    assert f'href="{reverse("accounts:signup")}"' in html
    assert f'href="{reverse("home")}"' in html


# --- privacy ------------------------------------------------------------------------------

PRIVACY_SECTIONS = ("account", "games", "guests", "logins", "cookies", "email", "logs", "delete")


@pytest.mark.django_db
@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_privacy_page_has_its_sections_in_every_language(client, language) -> None:
    from tests.test_error_pages import texts

    english = texts(client.get("/privacy/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    response = client.get(reverse("privacy"), HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    for section in PRIVACY_SECTIONS:
        assert f'<section id="{section}"' in html and f'href="#{section}"' in html, section
    assert f'href="{reverse("accounts:delete")}"' in html
    for cookie in ("sessionid", "csrftoken", "django_language", "messages"):
        assert f"<code>{cookie}</code>" in html
    if language != "en":
        assert not english & texts(html), sorted(english & texts(html))


@pytest.mark.django_db
def test_privacy_page_says_the_settings_own_durations(client, settings) -> None:
    settings.ACCOUNTS_GUEST_TTL = 3 * 24 * 3600
    settings.AXES_FAILURE_LIMIT = 4
    settings.AXES_COOLOFF_TIME = 0.5
    settings.SESSION_COOKIE_AGE = 2 * 7 * 24 * 3600

    english = client.get("/privacy/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    bengali = client.get("/privacy/", HTTP_ACCEPT_LANGUAGE="bn").content.decode()

    assert "its games 3 days after its last activity" in english
    assert "After 4 failed tries" in english and "refused for 30 minutes" in english
    assert "It lasts 2 weeks from the last time" in english
    assert "3 দিন" in bengali and "30 মিনিট" in bengali and "4বার" in bengali  # Latin digits
    assert "3 days" not in bengali


@pytest.mark.django_db
def test_every_page_links_the_privacy_page_in_its_footer_and_sign_up_under_its_form(
    client,
) -> None:
    for path in ("/", "/rules/", "/play/"):
        html = client.get(path).content.decode()
        footer = html[html.index('<footer class="site-footer">') :]
        header = html[: html.index("</header>")]
        assert f'href="{reverse("privacy")}">Privacy</a>' in footer, path
        assert reverse("privacy") not in header, path

    signup = client.get(reverse("accounts:signup")).content.decode()
    form_end = signup.index("</form>")
    line = signup[form_end : signup.index("</p>", form_end)]
    assert f'<a href="{reverse("privacy")}">Privacy</a>' in line


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["home", "rules", "privacy"])
def test_pages_load_nothing_from_another_host_and_have_no_placeholders(client, name) -> None:
    html = client.get(reverse(name)).content.decode()

    assert not EXTERNAL.search(html)
    assert not PLACEHOLDERS.search(html)
    assert '<link rel="stylesheet" href="/static/css/site.css">' in html
    assert 'href="/static/img/favicon.svg"' in html


def test_stylesheet_and_favicon_fetch_nothing_from_outside() -> None:
    css = (ROOT / "static/css/site.css").read_text()
    svg = (ROOT / "static/img/favicon.svg").read_text()

    assert not EXTERNAL.search(css)
    assert "@font-face" not in css
    assert not PLACEHOLDERS.search(css)
    assert "<svg" in svg and "href" not in svg


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/static/css/site.css", "/static/img/favicon.svg"])
def test_static_files_are_served(client: Client, path: str) -> None:
    response = client.get(path)

    assert response.status_code == 200
    assert b"".join(response.streaming_content)


# --- /healthz -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_healthz_answers_ok_when_the_database_answers(client: Client, settings) -> None:
    settings.REDIS_URL = ""  # no channel layer check (CI runs this suite with Redis too)

    response = client.get(reverse("healthz"))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = json.loads(response.content)
    assert body["status"] == "ok"
    assert body["checks"] == {"database": "ok"}
    assert "no-cache" in response["Cache-Control"]


class _BrokenConnection:
    def cursor(self):
        raise OperationalError("could not connect to server")


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_fails(client, settings, monkeypatch) -> None:
    settings.REDIS_URL = ""
    monkeypatch.setattr(views, "connection", _BrokenConnection())

    response = client.get(reverse("healthz"))

    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["status"] == "error"
    assert body["checks"]["database"] == "error: OperationalError"
    assert "could not connect" not in response.content.decode()  # no internals leak out


@pytest.mark.django_db
def test_healthz_checks_the_channel_layer_when_redis_is_configured(client, settings) -> None:
    # The check itself runs on whatever layer is configured; here the in-memory one.
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

    response = client.get(reverse("healthz"))

    assert response.status_code == 200
    assert json.loads(response.content)["checks"] == {"database": "ok", "channel_layer": "ok"}


class _DownLayer:
    async def new_channel(self):
        raise ConnectionRefusedError("redis is down")


@pytest.mark.django_db
def test_healthz_answers_503_when_the_channel_layer_fails(client, settings, monkeypatch) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    monkeypatch.setattr(views, "get_channel_layer", _DownLayer)

    response = client.get(reverse("healthz"))

    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["checks"] == {"database": "ok", "channel_layer": "error: ConnectionRefusedError"}


class _SilentLayer:
    """Redis that takes the connection and never answers."""

    async def new_channel(self):
        await asyncio.Event().wait()


@pytest.mark.django_db
def test_healthz_answers_503_at_once_when_the_channel_layer_is_silent(
    client, settings, monkeypatch
) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    settings.CHANNEL_LAYER_TIMEOUT = 0.2
    monkeypatch.setattr(views, "get_channel_layer", _SilentLayer)

    response = client.get(reverse("healthz"))

    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["checks"] == {"database": "ok", "channel_layer": "error: TimeoutError"}


@pytest.mark.django_db
def test_healthz_only_answers_get(client: Client) -> None:
    assert client.post(reverse("healthz")).status_code == 405


# --- WebSocket routing --------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/nowhere/", "/ws/games/x/", "/", "/ws/me/extra/"])
async def test_websocket_to_an_unknown_path_is_refused_quietly(path, caplog) -> None:
    """Refused at the handshake (the server answers 403), with nothing raised: no traceback in
    the server's log for every probe of a path the site does not serve."""
    from spite.asgi import application

    communicator = WebsocketCommunicator(application, path, headers=site_headers())
    with caplog.at_level(logging.INFO):
        connected, _code = await communicator.connect()
        await communicator.disconnect()

    assert connected is False
    assert [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info] == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "headers", [[], [(b"origin", b"http://evil.example")]], ids=["no origin", "foreign origin"]
)
async def test_websocket_from_a_foreign_or_missing_origin_is_refused(headers) -> None:
    from spite.asgi import application

    communicator = WebsocketCommunicator(application, "/ws/nowhere/", headers=headers)
    connected, _code = await communicator.connect()
    try:
        assert connected is False
    finally:
        await communicator.disconnect()
