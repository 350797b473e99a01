"""Hints at the live table in Chromium: in a casual game against the bot the Hint button makes the
card the expert would play and its place glow, with a line saying why — the very move the
engine's expert chooses for that view (the test asks the engine) — and in a position with a
winning play, that play. Against a person there is no button, and the server refuses the frame.
Screenshots at 1280x800 and 375x812."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.testing import missed_win
from tests.browser import positions
from tests.browser.fit import assert_table_fits
from tests.browser.test_table import PASSWORD, SHOTS, wait_for_my_turn

pytestmark = pytest.mark.browser

#: The site's hint budget (spite/settings.py: GAMES_HINT_WORLDS, GAMES_HINT_STATES).
EXPERT = {"samples": 10, "budget": 6000}


@pytest.fixture(scope="module")
def seated(daphne_server) -> dict[str, Any]:
    return positions.seat_player(
        daphne_server,
        positions.first_deal(1),
        missed_win().to_dict(),
        positions.Seat(state=positions.first_deal(2), opponent="hintbuddy"),
        password=PASSWORD,
    )


@pytest.fixture(scope="module")
def cookies(browser, live_server_url, seated) -> list[dict[str, Any]]:
    return positions.signed_in(browser, live_server_url, seated["username"], PASSWORD)


def glowing(page: Any) -> list[str | None]:
    """The data-key of the place whose card the hint plays, and of the place it goes to."""
    return page.evaluate(
        """() => {
          const key = (s) => {
            const node = document.querySelector(s);
            return node ? node.dataset.key : null;
          };
          return [key(".is-hint-source"), key(".is-hint-target")];
        }"""
    )


def ask_for_a_hint(page: Any) -> None:
    from playwright.sync_api import expect

    wait_for_my_turn(page)
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator(".is-hint-source")).to_have_count(1)


@pytest.mark.parametrize("size", [(1280, 800), (375, 812)], ids=["desktop", "phone"])
def test_the_hint_is_the_experts_move_for_the_players_view(
    browser, live_server_url, seated, cookies, size
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        positions.open_table(page, live_server_url, seated["games"][0], cookies)
        ask_for_a_hint(page)
        view = page.evaluate("() => window.spiteTable.view")
        chosen = engine.bot("expert", 0, **EXPERT).choose(engine.Game.from_view(view, 5), 0)
        source, target = chosen.text.rsplit("-", 1)
        glow = glowing(page)
        assert glow[0] is not None and glow[0].split("#")[0] == source, (glow, chosen)
        assert glow[1] == target, (glow, chosen)
        line = page.locator("[data-part=hint]")
        expect(line).to_contain_text("Hint: play ")
        assert_table_fits(page, tap=40 if size[0] < 600 else 0, extra={"hint": "[data-part=hint]"})
        expect(
            page.get_by_role("button", name="Hint", exact=True)
        ).to_be_disabled()  # asked at this version
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"table-hint-{size[0]}.png"))
    finally:
        context.close()


def test_the_hint_in_a_winning_position_is_the_winning_play(
    page, live_server_url, seated, cookies
) -> None:
    from playwright.sync_api import expect

    positions.open_table(page, live_server_url, seated["games"][1], cookies)
    ask_for_a_hint(page)
    assert glowing(page) == ["p", "c1"]
    expect(page.locator("[data-part=hint]")).to_have_text(
        "Hint: play 3 of hearts to center stack 1. Plays your last pay-off card: you win the game."
    )


def test_against_a_person_there_is_no_hint_and_the_server_refuses_one(
    page, live_server_url, seated, cookies
) -> None:
    from playwright.sync_api import expect

    positions.open_table(page, live_server_url, seated["games"][2], cookies)
    wait_for_my_turn(page)
    expect(page.get_by_role("button", name="Hint", exact=True)).to_be_hidden()
    page.evaluate(
        "() => window.spiteTable.send({type: 'hint', version: window.spiteTable.state.version})"
    )
    expect(page.locator("[data-part=error]")).to_contain_text(
        "Hints are for casual games against a bot"
    )
    expect(page.locator(".is-hint-source")).to_have_count(0)
