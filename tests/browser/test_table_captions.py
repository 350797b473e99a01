"""The captions under the table's piles ("Pay-off", "Stock", "needs 5") read whole in every
language on a phone: in Spanish, Italian, Vietnamese, Burmese and Bengali at 375x812 and
360x640 no caption is cut off (its text fits its box across and down), and the whole table
still fits the screen (tests/browser/fit.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import positions
from tests.browser.fit import assert_table_fits

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Caption-pass-42"
LANGUAGES = ["es", "it", "vi", "my", "bn"]
SIZES = {"375x812": (375, 812), "360x640": (360, 640)}

#: Each caption whose text runs past its box (an ellipsis, a clipped line): its text and sizes.
CUT = """() => [...document.querySelectorAll('.slot-caption')]
  .filter((c) => c.scrollWidth > c.clientWidth || c.scrollHeight > c.clientHeight + 1)
  .map((c) => `${c.textContent}: ${c.scrollWidth}x${c.scrollHeight}`
    + ` in ${c.clientWidth}x${c.clientHeight}`)"""


@pytest.fixture(scope="module")
def seated(daphne_server, browser, live_server_url) -> dict[str, Any]:
    """A player at the first deal and at a late position (center stacks at 7, Jack and 3),
    signed in once."""
    seat = positions.seat_player(
        daphne_server, positions.first_deal(), positions.tall_stacks(), password=PASSWORD
    )
    cookies = positions.signed_in(browser, live_server_url, seat["username"], PASSWORD)
    return {"games": seat["games"], "cookies": cookies}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_pile_caption_is_cut_off(browser, live_server_url, seated, language, size) -> None:
    from playwright.sync_api import expect

    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, reduced_motion="reduce"
    )
    try:
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server_url}]
        )
        page = context.new_page()
        for game in seated["games"]:
            positions.open_table(page, live_server_url, game, seated["cookies"])
            expect(page.locator("html")).to_have_attribute("lang", language)
            page.evaluate("() => document.fonts.ready")
            assert page.evaluate(CUT) == [], f"{language} at {size}, game {game}"
            assert_table_fits(page, tap=40)
    finally:
        context.close()
