"""The Content-Security-Policy (docs/deploy.md, "Content-Security-Policy"): every HTML answer
of the site carries the strict policy — the site's pages, the error pages, the admin and the
API's Swagger UI — and no template holds what that policy blocks (an inline script, an event
handler attribute, a ``style`` attribute or element). tests/browser/test_csp.py shows the
pages working under it in Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.test_i18n import _links, site  # noqa: F401  (site: the demo data, a fixture)

ROOT = Path(__file__).resolve().parents[1]
HEADER = "Content-Security-Policy"

#: The policy, directive by directive (connect-src gets the socket's own origin too).
POLICY = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    "img-src": {"'self'", "data:"},
    "font-src": {"'self'"},
    "connect-src": {"'self'", "ws://testserver"},
    "object-src": {"'none'"},
    "base-uri": {"'self'"},
    "form-action": {"'self'"},
    "frame-ancestors": {"'none'"},
}


def _policy(response) -> dict[str, set[str]]:
    assert HEADER in response, f"{response.request['PATH_INFO']}: no {HEADER}"
    directives = {}
    for part in response[HEADER].split(";"):
        name, *sources = part.split()
        directives[name] = set(sources)
    return directives


def _html_answers(client: Client, start: list[str], limit: int = 150) -> dict[str, object]:
    """Every HTML answer reachable by links from ``start``: path → response (any status)."""
    seen: dict[str, object] = {}
    queue = list(start)
    while queue and len(seen) < limit:
        path = queue.pop(0)
        if path in seen or path.split("?")[0] in {p.split("?")[0] for p in seen}:
            continue
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
        if "text/html" not in response.get("Content-Type", ""):
            continue
        seen[path] = response
        queue.extend(sorted(_links(response.content.decode())))
    return seen


def _check(answers: dict[str, object]) -> None:
    for path, response in answers.items():
        assert _policy(response) == POLICY, path


def test_every_page_a_visitor_reaches_carries_the_policy(site, client) -> None:  # noqa: F811
    answers = _html_answers(
        client,
        ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"],
    )

    assert {"/", "/rules/", "/leagues/", "/leagues/demo/"} <= set(answers)
    _check(answers)


def test_every_page_a_player_reaches_carries_the_policy(site, client) -> None:  # noqa: F811
    client.force_login(site["alice"])
    answers = _html_answers(client, ["/"])

    assert {"/play/", "/play/people/", "/accounts/tokens/"} <= set(answers)
    assert any(re.fullmatch(r"/play/games/\d+/", path) for path in answers), sorted(answers)
    _check(answers)


def test_the_admin_the_api_docs_and_the_error_pages_carry_the_policy(site, client) -> None:  # noqa: F811
    admin_login = client.get("/admin/login/")
    bad_form = Client(enforce_csrf_checks=True).post(reverse("accounts:login"), {})
    missing = client.get("/no-such-page/")
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "a-Long-pass-41"))
    pages = [
        admin_login,
        bad_form,
        missing,
        client.get("/admin/"),
        client.get("/admin/accounts/user/"),
        client.get(f"/admin/accounts/user/{site['alice'].pk}/change/"),
        client.get(reverse("api_docs")),
    ]

    assert [page.status_code for page in pages] == [200, 403, 404, 200, 200, 200, 200]
    for page in pages:
        assert _policy(page) == POLICY, page.request["PATH_INFO"]


@pytest.mark.django_db
def test_over_https_the_socket_source_is_wss(client) -> None:
    assert _policy(client.get("/", secure=True))["connect-src"] == {"'self'", "wss://testserver"}


@pytest.mark.django_db
def test_the_swagger_ui_runs_its_set_up_from_a_file(client) -> None:
    """drf-spectacular's SpectacularSwaggerView writes its set-up into the page (an inline
    script the policy blocks); the split view loads it from ``?script``, and the Swagger UI's
    own files are served by the site (drf-spectacular-sidecar), not a CDN."""
    html = client.get(reverse("api_docs")).content.decode()

    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.DOTALL)
    assert scripts and all("src=" in attrs and not body.strip() for attrs, body in scripts)
    assert "<style" not in html and " style=" not in html
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert all(source.startswith("/") for source in sources), sources
    script = client.get(f"{reverse('api_docs')}?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


# --- the templates ----------------------------------------------------------------------------

#: What the policy blocks in a page: a script element without src (a JSON data block, which
#: never runs, is made by the json_script filter, not written in a template), an event handler
#: attribute, a javascript: URL, a style attribute or element.
BLOCKED = {
    "inline script": re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE),
    "event handler attribute": re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE),
    "javascript: URL": re.compile(r"javascript:", re.IGNORECASE),
    "style attribute": re.compile(r"<[^>]*\sstyle\s*=", re.IGNORECASE),
    "style element": re.compile(r"<style\b", re.IGNORECASE),
}


def _templates() -> list[Path]:
    folders = [ROOT / "templates", *(ROOT / app / "templates" for app in _apps())]
    return sorted(path for folder in folders for path in folder.rglob("*.html"))


def _apps() -> list[str]:
    return [app for app in settings.INSTALLED_APPS if (ROOT / app).is_dir()]


def test_no_template_holds_what_the_policy_blocks() -> None:
    templates = _templates()
    assert len(templates) > 50
    found = [
        f"{path.relative_to(ROOT)}:{text[: match.start()].count(chr(10)) + 1}: {what}"
        for path in templates
        for text in [path.read_text()]
        for what, pattern in BLOCKED.items()
        for match in pattern.finditer(text)
    ]

    assert found == []
