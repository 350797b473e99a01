"""Someone to play, in Chromium: a player sees another online on the people page, challenges
them with one click, and both land at the table; a challenge link opened in a second browser
signs that visitor up and seats them. At 1280x800 and on a 375x812 phone."""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Online-pass-42"
SHOTS = Path(__file__).resolve().parents[2] / "test-results"
SIZES = [pytest.param((1280, 800), id="desktop"), pytest.param((375, 812), id="phone")]
TABLE = re.compile(r"/play/games/(\d+)/$")


def fill_sign_up(page: Any, username: str) -> None:
    """Fill in and send the sign-up form the page shows (the e-mail address if it asks)."""
    page.get_by_label("Username").fill(username)
    email = page.get_by_label(re.compile("e-mail", re.IGNORECASE))
    if email.count():
        email.fill(f"{username}@example.com")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def sign_up(page: Any, base: str, prefix: str) -> str:
    username = f"{prefix}{secrets.token_hex(4)}"
    page.goto(f"{base}/accounts/signup/")
    fill_sign_up(page, username)
    page.wait_for_url(f"{base}/")
    return username


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => window.innerWidth")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("size", SIZES)
def test_a_player_online_is_challenged_with_one_click_and_both_sit_down(
    browser, live_server_url, size
):
    from playwright.sync_api import expect

    base = live_server_url
    width, height = size
    contexts = [browser.new_context(viewport={"width": width, "height": height}) for _ in "ab"]
    try:
        a, b = (context.new_page() for context in contexts)
        sign_up(a, base, "oa")
        a.goto(f"{base}/play/people/")
        expect(a.locator("[data-notify]")).to_have_attribute("data-state", "open")

        # B signs up elsewhere and stays on the home page: A's list shows B without a reload.
        name_b = sign_up(b, base, "ob")
        expect(b.locator("[data-notify]")).to_have_attribute("data-state", "open")
        row = a.locator(f'[data-part=online] [data-person="{name_b}"]')
        expect(row).to_be_visible()
        expect(row.get_by_role("combobox", name="Rules")).to_have_value("quick")
        no_sideways_scroll(a)
        SHOTS.mkdir(exist_ok=True)
        a.screenshot(path=str(SHOTS / f"people-online-{width}.png"), full_page=True)

        row.get_by_role("button", name=f"Challenge {name_b}").click()
        expect(a.locator(".messages")).to_contain_text(f"Challenge sent to {name_b}")

        notice = b.get_by_role("group", name=re.compile(r"challenges you$"))
        expect(notice).to_contain_text("Quick: pay-off pile of 5, one game")
        notice.get_by_role("button", name=re.compile(r"^Accept ")).click()
        b.wait_for_url(TABLE)
        a.wait_for_url(TABLE)
        assert a.url == b.url
        for page, seat in ((a, 0), (b, 1)):
            expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
            assert page.evaluate("() => window.spiteTable.me") == seat
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_challenge_link_signs_a_friend_up_and_seats_them(browser, live_server_url, size):
    from playwright.sync_api import expect

    base = live_server_url
    width, height = size
    maker = browser.new_context(viewport={"width": width, "height": height})
    friend = browser.new_context(viewport={"width": width, "height": height})
    try:
        a, f = maker.new_page(), friend.new_page()
        name_a = sign_up(a, base, "la")
        a.goto(f"{base}/play/people/")
        # Players left online by other tests have a Rules list of their own: take the link's.
        by_link = a.get_by_role("region", name="Challenge a friend by link")
        by_link.get_by_label("Rules", exact=True).select_option("quick")
        a.get_by_role("button", name="Make a challenge link").click()
        expect(a.locator(".messages")).to_contain_text("Your challenge link is ready")
        box = a.locator("[data-part=links] [data-link]")
        expect(box).to_have_count(1)
        expect(box.get_by_role("button", name="Copy link")).to_be_visible()  # copy.js ran
        link = box.get_by_role("textbox", name="The link to send").input_value()
        assert re.fullmatch(rf"{re.escape(base)}/play/people/link/[\w-]{{32,}}/", link), link
        no_sideways_scroll(a)

        # A friend, signed out, opens it in another browser: who invites, the rules, sign up.
        f.goto(link)
        expect(f.get_by_role("heading", level=1)).to_have_text(
            f"{name_a} challenges you to a match"
        )
        expect(f.locator("main")).to_contain_text("Quick: pay-off pile of 5, one game")
        no_sideways_scroll(f)
        f.screenshot(path=str(SHOTS / f"people-link-{width}.png"), full_page=True)
        f.get_by_role("link", name="Sign up and play").click()
        fill_sign_up(f, f"lf{secrets.token_hex(4)}")

        # Signed up, the friend is seated at once; the maker's page goes to the same table.
        f.wait_for_url(TABLE)
        a.wait_for_url(TABLE)
        assert a.url == f.url
        expect(f.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
        assert f.evaluate("() => window.spiteTable.me") == 1

        # The link worked once: opened again, it says so.
        again = friend.new_page()
        again.goto(link)
        expect(again.locator("main")).to_contain_text("You accepted this challenge.")
    finally:
        maker.close()
        friend.close()
