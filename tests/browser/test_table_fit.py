"""The whole table on one screen, whatever the state: at 1280x800, 1920x1080, 375x812, 360x640
and 812x375, a player's table at the first deal, with side stacks 30 cards tall and at the end
of a game shows every part inside the viewport, uncovered, with no page scroll; on a phone
what a player taps is at least 40 px square with its rank legible. At 375x812 and 1280x800
axe finds no serious or critical violation, the side panel (a drawer on the phone) and the
shortcuts' help open. Screenshots of each go to test-results/ (table-<position>-<size>.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import positions
from tests.browser.a11y import assert_no_serious_violations
from tests.browser.fit import assert_table_fits

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Fit-pass-42"
SHOTS = Path(__file__).resolve().parents[2] / "test-results"
VIEWPORTS = {
    "1280x800": (1280, 800),
    "1920x1080": (1920, 1080),
    "375x812": (375, 812),
    "360x640": (360, 640),
    "812x375": (812, 375),
}
PHONES = {"375x812", "360x640", "812x375"}
#: Where axe reads the table too (a phone and a laptop).
AXE_SIZES = {"375x812", "1280x800"}
#: The smallest a place a player taps may be on a phone (CSS px).
TAP = 40


@pytest.fixture(scope="module")
def seated(daphne_server) -> dict[str, Any]:
    """One player at every position, each a match of its own (the game-over one played to its
    end through the services); ``games`` by position."""
    builds = positions.POSITIONS
    seat = positions.seat_player(
        daphne_server, *(build() for build in builds.values()), password=PASSWORD
    )
    games = dict(zip(builds, seat["games"], strict=True))
    positions.finish_with(daphne_server, games["game-over"], "p-c3")
    return {"username": seat["username"], "games": games}


@pytest.fixture(scope="module")
def signed_in(browser, live_server_url, seated) -> dict[str, Any]:
    """The player signed in once: their cookies, for a context of any size."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{live_server_url}/accounts/login/")
    page.get_by_label("Username").fill(seated["username"])
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server_url}/")
    state = context.storage_state()
    context.close()
    return state


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_whole_table_fits_the_screen_in_every_position(
    browser, live_server_url, seated, signed_in, size: str
) -> None:
    from playwright.sync_api import expect

    width, height = VIEWPORTS[size]
    phone = size in PHONES
    context = browser.new_context(
        viewport={"width": width, "height": height},
        storage_state=signed_in,
        has_touch=phone,
        reduced_motion="reduce",
    )
    try:
        page = context.new_page()
        for position, game in seated["games"].items():
            page.goto(f"{live_server_url}/play/games/{game}/")
            expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
            over = position == "game-over"
            expect(page.locator("[data-part=result]")).to_be_visible(visible=over)
            if not over:
                expect(page.locator("[data-part=status]")).to_have_attribute("data-turn", "you")
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"table-{position}-{size}.png"))
            assert_table_fits(page, tap=TAP if phone and not over else 0)
            if size in AXE_SIZES:
                assert_no_serious_violations(page, context=f"the table, {position}, {size}")
        if size in AXE_SIZES:
            panel = page.locator("[data-part=panel]")
            if phone:  # the log and the buttons wait in a drawer
                expect(panel).to_be_hidden()
                page.get_by_role("button", name="Moves and options").click()
            expect(panel.get_by_role("heading", name="Moves")).to_be_visible()
            assert_no_serious_violations(page, context=f"the side panel, {size}")
            panel.get_by_role("button", name="Keyboard shortcuts").click()
            expect(page.get_by_role("dialog")).to_contain_text("Pick the top of your pay-off pile")
            assert_no_serious_violations(page, context=f"the shortcuts, {size}")
    finally:
        context.close()


def test_the_dark_theme_reads_well_at_the_table_and_on_the_home_page(
    browser, live_server_url, seated, signed_in
) -> None:
    """With the system's dark theme the pages' surfaces turn dark (the felt and the cards keep
    theirs) and axe still finds no serious contrast or other violation."""
    from playwright.sync_api import expect

    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, storage_state=signed_in, color_scheme="dark"
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server_url}/")
        background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(17, 22, 20)", background
        assert_no_serious_violations(page, context="the home page, dark")
        page.goto(f"{live_server_url}/play/games/{seated['games']['first-deal']}/")
        expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
        assert_no_serious_violations(page, context="the table, dark")
        page.screenshot(path=str(SHOTS / "table-dark-1280x800.png"))
    finally:
        context.close()
