"""The table in Bengali and Burmese writes Latin digits (docs/i18n.md, "Digits"), in Chromium,
whose Intl writes Bengali digits for Bengali unless told otherwise (and, in some browsers,
Myanmar digits for Burmese): the page's text holds no native digit, and the counts the
JavaScript formats (a side stack 30 cards tall) read "30"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser import positions

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Digit-pass-42"
NATIVE = re.compile("[\u09e6-\u09ef\u1040-\u1049]")


@pytest.fixture(scope="module")
def seated(daphne_server, browser, live_server_url) -> dict[str, Any]:
    """A player at a table whose side stacks are 30, 8, 4 and 2 cards tall, signed in once."""
    seat = positions.seat_player(daphne_server, positions.tall_stacks(), password=PASSWORD)
    cookies = positions.signed_in(browser, live_server_url, seat["username"], PASSWORD)
    return {"game": seat["games"][0], "cookies": cookies}


@pytest.mark.parametrize("language", ["bn", "my"])
def test_the_tables_numbers_are_latin_digits(page, live_server_url, seated, language) -> None:
    from playwright.sync_api import expect

    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server_url}]
    )
    positions.open_table(page, live_server_url, seated["game"], seated["cookies"])
    expect(page.locator("html")).to_have_attribute("lang", language)

    counts = page.locator(".pile-count").all_inner_texts()
    assert "30" in counts and "8" in counts, counts  # formatted by the table's JavaScript
    text = page.evaluate("() => document.body.innerText")
    assert re.search("[0-9]", text)
    assert NATIVE.findall(text) == [], [
        text[max(0, m.start() - 20) : m.end() + 20] for m in NATIVE.finditer(text)
    ]
