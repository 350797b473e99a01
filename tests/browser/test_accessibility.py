"""axe-core finds no serious or critical violation on the home page (a visitor's, a player's),
the play lobby and the people page on a phone (375x812), where layouts are tightest and taps
smallest; the home pages on a laptop (1280x800) too.

The player's pages are checked with something in them: a match in progress against a bot, a
challenge received, another player's seek, that player online and found by a search, a
challenge link of one's own. Those come from two players who sign up in the browser once for
the module; the other player keeps the people page open, so the first sees them online.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import positions
from tests.browser.a11y import assert_no_serious_violations

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Axe-pass-42"
VIEWPORTS = {"phone": {"width": 375, "height": 812}, "laptop": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def players(browser: Any, live_server_url: str) -> Iterator[dict[str, Any]]:
    """Two players: ``me`` (whose pages are checked; its session as ``storage``) with a match
    against a bot in progress, a challenge link and a challenge from ``other``, who has a seek
    open and stays on the people page for the module."""
    from playwright.sync_api import expect

    base = live_server_url
    mine, theirs = browser.new_context(), browser.new_context()
    try:
        me, other = mine.new_page(), theirs.new_page()
        for page in (me, other):
            page.set_default_timeout(10_000)
        my_name = positions.sign_up(me, base, "axa", PASSWORD)
        other_name = positions.sign_up(other, base, "axb", PASSWORD)

        me.get_by_test_id("play-now").get_by_role("button", name="Play now").click()
        expect(me).to_have_url(re.compile(r"/play/games/\d+/$"))
        me.goto(f"{base}/play/people/")
        me.get_by_role("button", name="Make a challenge link").click()
        expect(me.locator("[data-part=links] [data-link]")).to_have_count(1)

        other.goto(f"{base}/play/people/")
        other.locator("form[action$='/seek/']").get_by_role("button", name="Post the seek").click()
        expect(other.locator("[data-part=seeks]")).to_contain_text("Your seek")
        challenge = other.locator("#challenge")
        challenge.get_by_label("Player's username").fill(my_name)
        challenge.get_by_role("button", name="Send the challenge").click()
        expect(other.locator("[data-part=sent] [data-challenge]")).to_have_count(1)
        expect(other.locator("[data-notify]")).to_have_attribute("data-state", "open")

        yield {"storage": mine.storage_state(), "me": my_name, "other": other_name}
    finally:
        mine.close()
        theirs.close()


def notice(page: Any, players: dict[str, Any]) -> Any:
    """The live notice of the other player's challenge, which every page of ``me`` shows."""
    return page.get_by_role("group", name=f"{players['other']} challenges you")


BOTH = pytest.mark.parametrize("sized", list(VIEWPORTS), indirect=True)


@pytest.fixture(params=["phone"])
def sized(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A function that opens a page of the given size, a visitor's or signed in with
    ``storage``; every page it opened is closed after the test."""
    contexts = []

    def open_page(storage: Any = None) -> Any:
        context = browser.new_context(viewport=VIEWPORTS[request.param], storage_state=storage)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    open_page.size = request.param  # type: ignore[attr-defined]
    yield open_page
    for context in contexts:
        context.close()


@BOTH
def test_the_home_page_for_a_visitor(sized, live_server_url) -> None:
    from playwright.sync_api import expect

    page = sized()
    page.goto(f"{live_server_url}/")
    expect(page.get_by_test_id("sign-up")).to_be_visible()
    assert_no_serious_violations(page, context=f"the home page, a visitor, {sized.size}")


@BOTH
def test_the_home_page_for_a_player(sized, live_server_url, players) -> None:
    from playwright.sync_api import expect

    page = sized(players["storage"])
    page.goto(f"{live_server_url}/")
    expect(page.get_by_test_id("challenges")).to_contain_text(players["other"])
    expect(page.get_by_test_id("in-progress")).to_be_visible()
    expect(page.get_by_test_id("welcome")).to_be_visible()
    expect(notice(page, players)).to_be_visible()
    assert_no_serious_violations(page, context=f"the home page, a player, {sized.size}")


def test_the_play_lobby_for_a_visitor(sized, live_server_url) -> None:
    from playwright.sync_api import expect

    page = sized()
    page.goto(f"{live_server_url}/play/")
    expect(page.get_by_test_id("guest-note")).to_be_visible()
    assert_no_serious_violations(page, context=f"the play lobby, a visitor, {sized.size}")


def test_the_play_lobby_for_a_player(sized, live_server_url, players) -> None:
    from playwright.sync_api import expect

    page = sized(players["storage"])
    page.goto(f"{live_server_url}/play/")
    expect(page.get_by_role("heading", name="Your matches in progress")).to_be_visible()
    page.get_by_text("Custom rules").click()  # the knobs open, to be checked too
    expect(page.get_by_label("Pay-off pile")).to_be_visible()
    expect(notice(page, players)).to_be_visible()
    assert_no_serious_violations(page, context=f"the play lobby, a player, {sized.size}")


def test_the_people_page(sized, live_server_url, players) -> None:
    from playwright.sync_api import expect

    page = sized(players["storage"])
    page.goto(f"{live_server_url}/play/people/?q={players['other']}#find")
    expect(page.locator("[data-part=received]")).to_contain_text(players["other"])
    expect(page.locator("[data-part=seeks]")).to_contain_text(players["other"])
    expect(page.locator("[data-part=online]")).to_contain_text(players["other"])
    expect(page.locator("[data-part=found]")).to_contain_text(players["other"])
    expect(page.locator("[data-part=links] [data-link]")).to_have_count(1)
    expect(notice(page, players)).to_be_visible()
    assert_no_serious_violations(page, context=f"the people page, {sized.size}")


def test_the_play_lobby_with_an_error(sized, live_server_url) -> None:
    from playwright.sync_api import expect

    page = sized()
    page.goto(f"{live_server_url}/play/")
    page.get_by_text("Custom rules").click()
    page.get_by_label("Pay-off pile").fill("999")
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".errorlist")).to_contain_text("“Pay-off pile” must be at most 30.")
    assert_no_serious_violations(page, context=f"the play lobby with an error, {sized.size}")


def test_the_people_page_with_a_challenge_refused(sized, live_server_url) -> None:
    from playwright.sync_api import expect

    page = sized()
    positions.sign_up(page, live_server_url, "axc", PASSWORD)
    page.goto(f"{live_server_url}/play/people/")
    challenge = page.locator("#challenge")
    challenge.get_by_label("Player's username").fill(f"nobody{secrets.token_hex(4)}")
    challenge.get_by_role("button", name="Send the challenge").click()
    expect(page.get_by_role("alert")).to_contain_text("No player has that username.")
    assert_no_serious_violations(page, context=f"the people page, a refusal, {sized.size}")
