"""The Content-Security-Policy in Chromium: a visitor, a player, the administrator and a
developer go through the site's main pages — home, rules, leagues, a league, a finished
elimination's bracket, log-in, the lobby, people, a profile, the language switcher, a live
table with its socket, the admin's log-in, index, a changelist and a change form, and the API's
Swagger UI — and the browser reports no violation of the policy (no blocked script, style,
image or socket) and no script error, while each page does its work.

Violations are heard twice: each page's ``securitypolicyviolation`` events (reported to the
test through a binding the policy cannot block), and Chromium's console, where it logs every
refusal.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest

from tests.browser import positions

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Policy-pass-3"

#: Run in ``manage.py shell``: an administrator, a league of four, and a finished elimination
#: between them (its bracket: two rounds).
SEED = """
import json
import engine
from accounts.models import User
from leagues.models import League, Membership
from leagues.tournaments import services as ts
tag = "{tag}"
admin = User.objects.create_superuser("cspadmin" + tag, "cspadmin" + tag + "@example.com",
                                      "{password}")
league = League.objects.create(
    name="Policy League " + tag, slug="policy-" + tag,
    rules=engine.Rules(payoff_size=5, match_target=5).to_dict(),
)
users = []
for i in range(4):
    user = User.objects.create_user(f"csp{{i}}{{tag}}", password="{password}")
    Membership.objects.create(league=league, user=user, status="active")
    users.append(user)
cup = ts.tournament_create(league=league, name="Cup", slug="cup", format="elimination",
                           match_target=5)
ts.tournament_open_registration(tournament=cup)
for user in users:
    ts.tournament_register(tournament=cup, user=user)
ts.tournament_start(tournament=cup)
ts.tournament_autoplay(tournament=cup)
print(json.dumps({{"league": league.slug, "league_name": league.name,
                  "player": users[0].username, "admin": admin.username,
                  "admin_id": admin.pk}}))
"""

WATCH = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportViolation(
    `${event.effectiveDirective} blocked ${event.blockedURI || "inline"} ` +
    `at ${event.sourceFile}:${event.lineNumber}`
  );
});
"""


@pytest.fixture(scope="module")
def seeded(daphne_server: Any) -> dict[str, Any]:
    return dict(daphne_server.shell(SEED.format(tag=secrets.token_hex(3), password=PASSWORD)))


class Watched:
    """A page whose violations and script errors are gathered, whatever it navigates to."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.set_default_timeout(10_000)
        self.problems: list[str] = []
        self.context.expose_function("reportViolation", self._heard)
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))

    def _heard(self, text: str) -> None:
        self.problems.append(f"{self.page.url}: {text}")

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.problems.append(f"{self.page.url}: console: {message.text}")

    def visit(self, url: str) -> Any:
        response = self.page.goto(url)
        assert response is not None and response.ok, url
        assert "default-src 'self'" in response.headers["content-security-policy"], url
        return self.page

    def assert_clean(self) -> None:
        # Violations are reported as they happen: an idle page has said all it will.
        self.page.wait_for_load_state("networkidle")
        assert self.problems == []

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def watched(browser: Any) -> Any:
    watched = Watched(browser)
    yield watched
    watched.close()


def test_a_visitor_and_a_player_meet_no_violation(watched, live_server_url, seeded, daphne_server):
    from playwright.sync_api import expect

    base = live_server_url
    league = f"{base}/leagues/{seeded['league']}/"

    page = watched.visit(f"{base}/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.locator("html")).to_have_class(re.compile(r"\bjs\b"))  # static/js/has-js.js
    watched.visit(f"{base}/rules/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    watched.visit(f"{base}/leagues/")
    expect(page.get_by_role("link", name=seeded["league_name"])).to_be_visible()
    watched.visit(league)
    expect(page.get_by_role("heading", name="Standings")).to_be_visible()
    # The bracket's rounds stand side by side (their count once came in a style attribute).
    watched.visit(f"{league}tournaments/cup/")
    rounds = page.locator(".bracket-round")
    expect(rounds).to_have_count(2)
    first, final = rounds.nth(0).bounding_box(), rounds.nth(1).bounding_box()
    assert final["x"] >= first["x"] + first["width"] and final["y"] == first["y"]
    watched.assert_clean()

    positions.log_in(page, base, seeded["player"], PASSWORD)
    watched.visit(f"{base}/play/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    watched.visit(f"{base}/play/people/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    watched.visit(f"{base}/accounts/u/{seeded['player']}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(seeded["player"])
    # The language switcher posts its form (form-action 'self') and the page comes back.
    page.locator("[data-language-switcher] summary").click()
    page.get_by_role("button", name="Español").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.locator("[data-language-switcher] summary").click()
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    # A live table: its script draws the cards and its socket opens (connect-src).
    game = positions.seat_player(
        daphne_server, positions.first_deal(), password=PASSWORD, username=seeded["player"]
    )["games"][0]
    positions.open_table(page, base, game)
    expect(page.locator("[data-part=hand] .pc-card").first).to_be_visible()
    watched.assert_clean()


def test_the_admin_meets_no_violation(watched, live_server_url, seeded):
    from playwright.sync_api import expect

    base = live_server_url
    page = watched.visit(f"{base}/admin/login/")
    page.get_by_label("Username").fill(seeded["admin"])
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()

    watched.visit(f"{base}/admin/accounts/user/")
    rows = page.locator("#result_list tbody tr")
    expect(rows.first).to_be_visible()
    # The changelist's script works: ticking a row counts it.
    rows.first.locator("input.action-select").check()
    expect(page.locator(".action-counter")).to_contain_text("1 of")
    watched.visit(f"{base}/admin/accounts/user/{seeded['admin_id']}/change/")
    expect(page.locator("#user_form")).to_be_visible()
    watched.assert_clean()


def test_the_api_docs_meet_no_violation(watched, live_server_url):
    from playwright.sync_api import expect

    page = watched.visit(f"{live_server_url}/api/docs/")
    expect(page.locator(".opblock").first).to_be_visible()
    assert page.locator(".opblock").count() > 10
    watched.assert_clean()
