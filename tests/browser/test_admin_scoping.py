"""The admin in Chromium (issue 23, point 11): a staff moderator of one league sees that
league's memberships only — not the other league that exists beside it — and opens a
Membership's change form with its league shown, not offered (a moderator changes a membership
through the actions only). (Every admin model's choices and crafted POSTs are checked without a
browser in tests/leagues/test_admin_scoping.py.)"""

from __future__ import annotations

import json
import secrets

import pytest

from tests.browser import positions

pytestmark = pytest.mark.browser

PASSWORD = "scoping-pass-1"


def setup_script(tag: str) -> str:
    """Two leagues; a staff moderator of the first; a player in each. Prints the ids."""
    return f"""
import json
from accounts.models import User
from leagues.models import League, Membership

north = League.objects.create(slug="n{tag}", name="North {tag}", rules={{}})
south = League.objects.create(slug="s{tag}", name="South {tag}", rules={{}})
mod = User.objects.create_user("mod{tag}", password="{PASSWORD}", is_staff=True)
Membership.objects.create(league=north, user=mod, role="moderator")
player = User.objects.create_user("p{tag}", password="{PASSWORD}")
member = Membership.objects.create(league=north, user=player)
Membership.objects.create(league=south, user=User.objects.create_user("q{tag}"))
print(json.dumps({{"own": Membership.objects.get(user=mod).pk, "member": member.pk}}))
"""


def test_a_moderator_sees_only_their_league_s_memberships(page, live_server_url, manage) -> None:
    from playwright.sync_api import expect

    base, tag = live_server_url, secrets.token_hex(3)
    out = manage("shell", "-v", "0", "-c", setup_script(tag)).stdout
    ids = json.loads(out.strip().splitlines()[-1])
    positions.log_in(page, base, f"mod{tag}", PASSWORD)

    page.goto(f"{base}/admin/leagues/membership/")
    rows = page.locator("#result_list tbody tr")
    expect(rows).to_have_count(2)  # the league's two members, none of the other league
    expect(page.locator("#result_list")).not_to_contain_text(f"South {tag}")

    for membership in (ids["own"], ids["member"]):
        page.goto(f"{base}/admin/leagues/membership/{membership}/change/")
        expect(page.locator(".field-league .readonly")).to_have_text(f"North {tag}")
        expect(page.locator("select[name=league]")).to_have_count(0)
