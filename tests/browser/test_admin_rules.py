"""A league's rules in the admin, in Chromium (issue 25, point 1): a moderator who is not staff
picks a preset and sees the knobs fill in (static/js/presets.js), changes a knob and sees
"Custom" chosen, is refused a deal the deck cannot hold with the engine's reason, and saves.
(The form without a browser, per role and in other languages: tests/leagues/test_admin_rules.py.)"""

from __future__ import annotations

import json
import secrets

import pytest

from tests.browser import positions

pytestmark = pytest.mark.browser

PASSWORD = "rules-pass-1"


def setup_script(tag: str) -> str:
    """A league under the house rules and its moderator, who is not staff. Prints its id."""
    return f"""
import json
from accounts.models import User
from leagues.models import League, Membership

league = League.objects.create(slug="r{tag}", name="Rules {tag}")
mod = User.objects.create_user("rmod{tag}", password="{PASSWORD}")
Membership.objects.create(league=league, user=mod, role="moderator")
print(json.dumps({{"league": league.pk}}))
"""


def test_a_moderator_sets_the_rules_with_a_preset_and_the_knobs(
    page, live_server_url, manage
) -> None:
    from playwright.sync_api import expect

    base, tag = live_server_url, secrets.token_hex(3)
    out = manage("shell", "-v", "0", "-c", setup_script(tag)).stdout
    league = json.loads(out.strip().splitlines()[-1])["league"]
    positions.log_in(page, base, f"rmod{tag}", PASSWORD)
    url = f"{base}/admin/leagues/league/{league}/change/"
    page.goto(url)

    payoff = page.get_by_label("Pay-off pile:")
    target = page.get_by_label("Points to win the match:")
    custom = page.locator("input[name=preset][value=custom]")
    expect(page.locator("input[name=preset][value=full]")).to_be_checked()  # the house rules
    page.get_by_label("Standard: ").check()
    expect(payoff).to_have_value("10")
    expect(target).to_have_value("20")

    page.get_by_label("Hand:").fill("6")
    expect(custom).to_be_checked()
    page.get_by_label("Decks:").fill("1")
    payoff.fill("30")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".errorlist.nonfield")).to_contain_text(
        "The deck is too small: it has 52 cards"
    )

    page.get_by_label("Decks:").fill("3")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".messagelist .success")).to_be_visible()
    expect(custom).to_be_checked()
    expect(payoff).to_have_value("30")
    expect(page.get_by_label("Decks:")).to_have_value("3")
