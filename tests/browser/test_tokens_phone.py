"""The API tokens page on a phone: once a token is made, its key (one long word) wraps inside
its box and the page never scrolls sideways at 375 px, in English and in Burmese."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import positions

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Token-pass-42"


@pytest.fixture(scope="module")
def cookies(daphne_server, browser, live_server_url) -> list[dict[str, Any]]:
    """A new player, signed in once."""
    seat = positions.seat_player(daphne_server, password=PASSWORD)
    return positions.signed_in(browser, live_server_url, seat["username"], PASSWORD)


@pytest.mark.parametrize("language", ["en", "my"])
def test_a_new_key_wraps_and_the_page_does_not_scroll_sideways(
    browser, live_server_url, cookies, language
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 375, "height": 812}, has_touch=True)
    try:
        context.add_cookies(
            [*cookies, {"name": "django_language", "value": language, "url": live_server_url}]
        )
        page = context.new_page()
        page.goto(f"{live_server_url}/accounts/tokens/")
        page.locator("input[name=name]").fill("phone")
        page.locator("main form.form button[type=submit]").click()
        key = page.locator("#new-token-key")
        expect(key).to_be_visible()
        assert len(key.inner_text()) > 30
        # A key may hold a "-" (a place to break a line) or not: the one without, the worst.
        box = page.evaluate(
            """() => {
              const key = document.querySelector('#new-token-key');
              key.textContent = key.textContent.replaceAll('-', 'x');
              return [document.documentElement.scrollWidth, key.getBoundingClientRect().right];
            }"""
        )
        assert box[0] <= 375, f"the page scrolls sideways: {box[0]} px wide"
        assert box[1] <= 375, f"the key runs out to {box[1]} px"
    finally:
        context.close()
