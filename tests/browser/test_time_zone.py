"""The site shows times in the browser's time zone: every page's script keeps the zone in the
``tz`` cookie, and the next page's times are in it (core/timezones.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import positions
from tests.browser.conftest import DEFAULT_TIMEOUT_MS

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Browser-pass-42"
ZONE = "Asia/Yangon"  # UTC+06:30 all year

#: The token's creation, set on the server: 20:00 UTC on 15 January is 02:30 on the 16th there.
DATE_THE_TOKEN = """
import datetime, json
from api.models import ApiToken
n = ApiToken.objects.filter(user__username={username!r}).update(
    created_at=datetime.datetime(2026, 1, 15, 20, 0, tzinfo=datetime.UTC)
)
print(json.dumps(n))
"""


@pytest.fixture
def yangon_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(timezone_id=ZONE, locale="en-US")
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


def test_times_are_shown_in_the_browsers_zone(yangon_page, live_server_url, daphne_server):
    from playwright.sync_api import expect

    page, base = yangon_page, live_server_url
    page.goto(f"{base}/")
    # Chromium may name the zone by its old name (Asia/Rangoon): the cookie holds the browser's.
    browser_zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    assert browser_zone in {"Asia/Yangon", "Asia/Rangoon"}
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["tz"]["value"] == browser_zone
    assert cookies["tz"]["sameSite"] == "Lax" and cookies["tz"]["path"] == "/"

    username = positions.sign_up(page, base, "tz", PASSWORD)

    page.goto(f"{base}/accounts/tokens/")
    page.get_by_label("Name").fill("laptop")
    page.get_by_role("button", name="Create a token").click()
    assert daphne_server.shell(DATE_THE_TOKEN.format(username=username)) == 1

    page.goto(f"{base}/accounts/tokens/")
    row = page.get_by_role("row", name=re.compile("laptop"))
    expect(row).to_contain_text("01/16/2026 2:30 a.m.")
    expect(page.get_by_test_id("time-zone")).to_have_text(
        "Times are shown in Myanmar (Burma) Time (UTC+06:30)."
    )

    page.goto(f"{base}/accounts/profile/edit/")
    expect(page.get_by_label("Time zone")).to_have_value("Myanmar (Burma) Time (UTC+06:30)")
