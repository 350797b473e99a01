"""The site's own error pages (core/error_pages.py): 400, 403, 404, 500 and the CSRF failure,
each in the site's layout and the visitor's language, with a way back and the right status,
with DEBUG on and off. A missing game under DEBUG shows the site's 404 with the view's message,
not Django's debug page; the 500 page needs no database and no context processor, and says
nothing of the error.

"Nothing in English" is checked on every text the page shows (the page's own, the header's,
the footer's): none of the English page's texts may appear on a translated one.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied
from django.test import Client, RequestFactory
from django.urls import path
from django.utils import translation
from django.utils.html import escape

from accounts.models import User
from core.outages import server_error
from leagues.models import League
from spite import urls as site_urls
from tests.test_outages import database_away

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _name in settings.LANGUAGES]
SECRET = "secret-detail-4321 /srv/spite/.env"
#: Texts that stay the same in every language: the site's name, and what the test made.
SAME_EVERYWHERE = {"Spite & Malice", "·", "mo"}


# --- a URLconf: the site's, and views that fail as a test needs -------------------------------


def _bad_request(request):
    raise BadRequest(SECRET)


def _denied(request):
    raise PermissionDenied


def _bug(request):
    raise ValueError(SECRET)


urlpatterns = [
    *site_urls.urlpatterns,
    path("test-errors/bad-request/", _bad_request),
    path("test-errors/denied/", _denied),
    path("test-errors/bug/", _bug),
]
handler400 = site_urls.handler400
handler403 = site_urls.handler403
handler404 = site_urls.handler404
handler500 = site_urls.handler500


@pytest.fixture
def failing_views(settings):
    settings.ROOT_URLCONF = __name__


@pytest.fixture(params=[False, True], ids=["debug-off", "debug-on"])
def debug(request, settings) -> bool:
    settings.DEBUG = request.param
    return request.param


def _failing_context_processor(request):
    raise RuntimeError(SECRET)


# --- reading a page ---------------------------------------------------------------------------


class _Texts(HTMLParser):
    """The texts a person reads: text nodes (not in code, script or style, nor in an element
    marked with a language of its own, as the switcher names each language in its own) and the
    read attributes."""

    SKIPPED = {"code", "script", "style"}
    VOID = {"meta", "link", "input", "br", "img"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, bool]] = []  # (tag, in another language)
        self.texts: set[str] = set()

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            own_language = tag != "html" and any(name == "lang" for name, _ in attrs)
            self.open.append((tag, own_language))
        for name, value in attrs:
            if name in {"aria-label", "title", "alt", "placeholder"} and value:
                self.texts.add(value.strip())

    def handle_endtag(self, tag):
        if any(open_tag == tag for open_tag, _ in self.open):
            while self.open and self.open.pop()[0] != tag:
                pass

    def handle_data(self, data):
        skipped = any(tag in self.SKIPPED or other for tag, other in self.open)
        if not skipped and any(c.isalpha() for c in data):
            self.texts.add(" ".join(data.split()))


def texts(html: str) -> set[str]:
    parser = _Texts()
    parser.feed(html)
    return parser.texts - SAME_EVERYWHERE


def ways_back(html: str) -> str:
    start = html.index('<ul class="actions ways-back"')
    return html[start : html.index("</ul>", start)]


def check_page(
    responses: dict[str, object], status: int, *, login: bool = True, message: str = ""
) -> None:
    """Each language's answer: the status, <html lang>, the site's footer, the ways back, the
    view's message in that language, and none of the English page's texts."""
    english = texts(responses["en"].content.decode())
    for language, response in responses.items():
        assert response.status_code == status, language
        html = response.content.decode()
        assert f'<html lang="{language}">' in html, language
        with translation.override(language):
            footer = translation.gettext(
                "Spite & Malice online — server-authoritative, live, replayable."
            )
            lobby = translation.gettext("Back to the lobby")
            home = translation.gettext("Home page")
            log_in = translation.gettext("Log in")
            said = translation.gettext(message) if message else ""
        assert footer in html and 'class="site-header"' in html, language
        ways = ways_back(html)
        assert f'href="/play/">{lobby}</a>' in ways and f'href="/">{home}</a>' in ways, language
        assert (f">{log_in}</a>" in ways) is login, language
        assert escape(said) in html, language
        assert SECRET not in html and "Traceback" not in html, language
        if language != "en":
            assert not english & texts(html), (language, sorted(english & texts(html)))


def each_language(get) -> dict[str, object]:
    return {language: get(language) for language in LANGUAGES}


# --- 404 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/play/games/999999/", "No such game."),
        ("/play/games/999999/replay/", "No such game."),
        ("/play/matches/999999/", "No such match."),
        ("/play/history/nobody/", "No such player."),
        ("/accounts/u/nobody/", "No player has that username."),
        ("/leagues/nowhere/", "No such league."),
        ("/leagues/nowhere/tournaments/autumn/", "No such tournament."),
    ],
)
def test_what_does_not_exist_is_the_sites_404_with_the_views_words(
    client, debug, path, message
) -> None:
    responses = each_language(lambda lang: client.get(path, HTTP_ACCEPT_LANGUAGE=lang))

    check_page(responses, 404, message=message)
    html = responses["en"].content.decode()
    assert f'data-testid="error-message">{escape(message)}</p>' in html
    assert "This page does not exist" in html
    assert "Django" not in html and "Page not found at" not in html  # not the debug page


def test_a_missing_game_with_debug_on_reads_in_the_players_language(client, settings) -> None:
    settings.DEBUG = True
    player = User.objects.create_user("lan", password="a-long-pass-123", language="vi")
    client.force_login(player)

    response = client.get("/play/games/999999/", HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 404
    html = response.content.decode()
    assert "Không có ván này." in html  # "No such game.", in the profile's language
    assert 'href="/play/"' in ways_back(html) and "Đăng nhập" not in html  # signed in


def test_an_unknown_address_is_the_sites_404_without_debug(client, settings) -> None:
    settings.DEBUG = False
    responses = each_language(lambda lang: client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE=lang))

    check_page(responses, 404)
    assert 'data-testid="error-message"' not in responses["en"].content.decode()


# --- 403 --------------------------------------------------------------------------------------


def test_a_page_a_player_may_not_open_is_the_sites_403_with_the_reason(client, debug) -> None:
    League.objects.create(slug="guild", name="Guild")
    client.force_login(User.objects.create_user("mo", password="a-long-pass-123"))
    message = "Only this league's moderators may see its requests."

    responses = each_language(
        lambda lang: client.get("/leagues/guild/requests/", HTTP_ACCEPT_LANGUAGE=lang)
    )

    check_page(responses, 403, login=False, message=message)
    assert "This page is not open to your account." in responses["en"].content.decode()


def test_a_visitor_refused_is_offered_to_log_in_and_come_back(client, debug, failing_views) -> None:
    responses = each_language(
        lambda lang: client.get("/test-errors/denied/", HTTP_ACCEPT_LANGUAGE=lang)
    )

    check_page(responses, 403)
    assert 'href="/accounts/login/?next=/test-errors/denied/"' in responses["en"].content.decode()


# --- 400 --------------------------------------------------------------------------------------


def test_a_bad_request_is_the_sites_400(client, debug, failing_views) -> None:
    responses = each_language(
        lambda lang: client.get("/test-errors/bad-request/", HTTP_ACCEPT_LANGUAGE=lang)
    )

    check_page(responses, 400)
    assert "The site could not read that request" in responses["en"].content.decode()


# --- 500 --------------------------------------------------------------------------------------


def _raised(request):
    """handler500 as Django calls it: while the exception is being handled."""
    try:
        raise ValueError(SECRET)
    except ValueError:
        return server_error(request)


def test_a_bug_is_the_sites_500_saying_nothing_of_it(failing_views, settings) -> None:
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    responses = each_language(
        lambda lang: client.get("/test-errors/bug/", HTTP_ACCEPT_LANGUAGE=lang)
    )

    check_page(responses, 500, login=False)
    assert "Something went wrong on our side" in responses["en"].content.decode()


def test_the_500_handler_answers_the_same_with_debug_on(debug) -> None:
    """With DEBUG on Django shows developers its own page and never calls handler500; the
    handler itself does not depend on DEBUG."""
    factory = RequestFactory()
    responses = each_language(
        lambda lang: _raised(factory.get("/somewhere/", HTTP_ACCEPT_LANGUAGE=lang))
    )

    check_page(responses, 500, login=False)


def test_the_500_page_needs_no_database_and_no_context_processor(failing_views, settings):
    settings.DEBUG = False
    engine = dict(settings.TEMPLATES[0])
    engine["OPTIONS"] = {
        **engine["OPTIONS"],
        "context_processors": [
            *engine["OPTIONS"]["context_processors"],
            f"{__name__}._failing_context_processor",
        ],
    }
    settings.TEMPLATES = [engine]
    client = Client(raise_request_exception=False)

    with database_away():
        response = client.get("/test-errors/bug/", HTTP_ACCEPT_LANGUAGE="my")

    assert response.status_code == 500
    html = response.content.decode()
    assert '<html lang="my">' in html and SECRET not in html
    with translation.override("my"):
        assert translation.gettext("Something went wrong on our side") in html


def test_the_database_away_is_still_the_503_page(failing_views, settings) -> None:
    """handler500 keeps its outage answer: an outage before any view is the 503 page."""
    from django.db import OperationalError

    request = RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE="it")
    try:
        raise OperationalError("refused")
    except OperationalError:
        response = server_error(request)
    assert response.status_code == 503
    assert "Il tavolo torna tra un attimo" in response.content.decode()


# --- the CSRF failure -------------------------------------------------------------------------


def test_a_form_refused_for_its_csrf_token_says_why_in_plain_words(debug) -> None:
    client = Client(enforce_csrf_checks=True)
    responses = each_language(
        lambda lang: client.post(
            "/accounts/login/",
            {"username": "someone", "password": "whatever-it-is"},
            HTTP_ACCEPT_LANGUAGE=lang,
            HTTP_REFERER="http://testserver/accounts/login/",
        )
    )

    check_page(responses, 403)
    html = responses["en"].content.decode()
    assert "Your browser blocks cookies for this site." in html
    assert "Reload the page and try again." in html
    assert 'href="http://testserver/accounts/login/">Back to the page you were on</a>' in html


def test_the_csrf_page_never_links_back_to_another_site(settings) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/accounts/login/", {"username": "x"}, HTTP_REFERER="https://evil.example/phish"
    )
    assert response.status_code == 403
    assert "evil.example" not in response.content.decode()
