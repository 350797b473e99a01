"""Undo and rematch at the live table in a real browser, against the random bot (a casual
match): a center play taken back returns the card to the hand (at the first deal of seed 1,
seated with the engine: an Ace in hand); after the match, "Play again" opens the rematch's
table."""

from __future__ import annotations

import re

import pytest

from tests.browser import positions
from tests.browser.test_table import (
    BOT_TIMEOUT,
    PASSWORD,
    SHOTS,
    hand_card,
    legal_moves,
    my_place,
    sign_up,
    start_match,
    version,
    wait_for_my_turn,
)

pytestmark = pytest.mark.browser


def _hand(page) -> list[str]:
    return page.evaluate("() => window.spiteTable.view.players[window.spiteTable.me].hand")


def test_undo_a_center_play_puts_the_card_back_in_the_hand(
    browser, page, live_server_url, daphne_server
):
    from playwright.sync_api import expect

    seated = positions.seat_player(daphne_server, positions.first_deal(1), password=PASSWORD)
    cookies = positions.signed_in(browser, live_server_url, seated["username"], PASSWORD)
    page.context.add_cookies(cookies)
    page.goto(f"{live_server_url}/play/games/{seated['games'][0]}/")
    undo = page.get_by_role("button", name="Undo")
    wait_for_my_turn(page)
    expect(undo).to_be_hidden()  # nothing to take back at the start of a turn
    center = [m for m in legal_moves(page) if m.startswith("h:") and "-c" in m]
    hand_before = _hand(page)
    move = center[0]
    card = move.split("-")[0][2:]
    before = version(page)
    hand_card(page, move).click()
    my_place(page, move.rsplit("-", 1)[1]).click()
    page.wait_for_function("(v) => window.spiteTable.state.version > v", arg=before)
    assert _hand(page).count(card) == hand_before.count(card) - 1

    expect(undo).to_be_visible()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-undo-offered.png"))
    undo.click()
    page.wait_for_function("(v) => window.spiteTable.state.version > v + 1", arg=before)
    assert sorted(_hand(page)) == sorted(hand_before)
    expect(hand_card(page, move)).to_be_visible()
    expect(undo).to_be_hidden()
    log = page.locator("[data-part=log]")
    expect(log.locator(".log-undo")).to_contain_text("took back 1")
    expect(log.locator(".is-undone")).to_have_count(1)
    expect(page.locator("[data-part=status]")).to_have_attribute("data-turn", "you")
    page.screenshot(path=str(SHOTS / "table-undo-done.png"))


def test_abort_the_first_game_then_play_again_after_a_match(page, live_server_url):
    from playwright.sync_api import expect

    sign_up(page, live_server_url)
    first = start_match(page, live_server_url)
    abort = page.get_by_role("button", name="Abort match")
    expect(abort).to_be_visible(timeout=BOT_TIMEOUT)
    abort.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Abort this match?")
    dialog.get_by_role("button", name="Yes, abort").click()
    result = page.locator("[data-part=result]")
    expect(result.get_by_role("heading")).to_have_text("Game 1 aborted", timeout=BOT_TIMEOUT)
    expect(result).to_contain_text("no result")
    expect(result.get_by_role("button", name="Play again")).to_be_hidden()  # not after an abort

    second = start_match(page, live_server_url)
    assert second != first
    page.get_by_role("button", name="Resign match").click()
    page.get_by_role("dialog").get_by_role("button", name="Yes, resign").click()
    again = result.get_by_role("button", name="Play again")
    expect(again).to_be_visible(timeout=BOT_TIMEOUT)
    page.screenshot(path=str(SHOTS / "table-play-again.png"))
    again.click()
    page.wait_for_url(
        lambda url: (
            bool(re.search(r"/play/games/\d+/$", url)) and not url.endswith(f"/games/{second}/")
        )
    )
    expect(page.locator("[data-part=game-number]")).to_have_text("Game 1")
    expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
