"""The replay page in a real browser: play a short game against the random bot, end it by
resigning, open its replay from the result, step with the buttons and the keys, and open a
shared link at a given move."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_table import (
    BOT_TIMEOUT,
    SHOTS,
    a_discard,
    hand_card,
    my_place,
    sign_up,
    start_match,
    version,
    wait_for_my_turn,
)

pytestmark = pytest.mark.browser


def test_replay_a_finished_game_step_by_step_and_share_a_move(page, browser, live_server_url):
    from playwright.sync_api import expect

    username = sign_up(page, live_server_url)
    game_id = start_match(page, live_server_url)
    for _ in range(2):  # two turns each: a few rows in the log
        wait_for_my_turn(page)
        move = a_discard(page)
        before = version(page)
        hand_card(page, move).click()
        my_place(page, "s1").click()
        page.wait_for_function("(v) => window.spiteTable.state.version > v", arg=before)
    wait_for_my_turn(page)
    page.get_by_role("button", name="Resign game").click()
    page.get_by_role("dialog").get_by_role("button", name="Yes, resign").click()
    result = page.locator("[data-part=result]")
    expect(result).to_be_visible(timeout=BOT_TIMEOUT)
    replay_link = result.get_by_role("link", name="Replay this game")
    expect(replay_link).to_be_visible()
    replay_link.click()

    page.wait_for_url(re.compile(rf"/play/games/{game_id}/replay/#ply=0$"))
    total = page.evaluate("() => window.spiteReplay.frames.length - 1")
    assert total >= 4
    position = page.locator("[data-part=position]")
    expect(position).to_contain_text(f"The deal ({total} moves follow)")
    hands = page.locator(".replay-hand")
    assert all(h for h in hands.evaluate_all("(ns) => ns.map((n) => n.dataset.cards)"))  # both
    expect(page.get_by_role("button", name="To the start")).to_be_disabled()

    page.get_by_role("button", name="Forward one move").click()
    expect(position).to_have_text(f"Move 1 of {total}")
    expect(page.locator("[data-part=move]")).to_contain_text(re.compile(r"^1\. .+ played "))
    assert page.url.endswith("#ply=1")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Move 3 of {total}")
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"Move 2 of {total}")
    assert page.url.endswith("#ply=2")
    shared = page.locator("[data-part=share-url]").input_value()
    assert shared.endswith(f"/play/games/{game_id}/replay/#ply=2")
    page.keyboard.press("End")
    expect(position).to_have_text(f"Move {total} of {total}")
    expect(page.get_by_role("button", name="Forward one move")).to_be_disabled()
    page.keyboard.press("Home")
    expect(position).to_contain_text("The deal")
    page.get_by_role("button", name="To the end").click()
    expect(position).to_have_text(f"Move {total} of {total}")
    page.locator("[data-part=log] li[data-index='1'] button").click()
    expect(position).to_have_text(f"Move 1 of {total}")
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("[data-part=copied]")).to_have_text(
        re.compile("Link copied|Select the link")
    )
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "replay-1280.png"), full_page=True)

    # The shared link opens at that move, for anyone (a fresh context: not logged in).
    context = browser.new_context(viewport={"width": 375, "height": 800})
    try:
        other = context.new_page()
        other.goto(shared)
        expect(other.locator("[data-part=position]")).to_have_text(f"Move 2 of {total}")
        other.screenshot(path=str(SHOTS / "replay-375.png"), full_page=True)
    finally:
        context.close()

    # The player's history links the replay; the watch list shows the game in play now.
    page.goto(f"{live_server_url}/play/history/{username}/")
    row = page.locator("tr[data-result=in_progress]")
    expect(row).to_contain_text("Random bot")
    expect(row).to_contain_text("0\u20135")
    expect(row.get_by_role("link", name="replay game 1")).to_have_attribute(
        "href", f"/play/games/{game_id}/replay/"
    )
    page.screenshot(path=str(SHOTS / "history-1280.png"), full_page=True)
    page.goto(f"{live_server_url}/play/watch/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Watch a game")
    expect(page.locator(".watch-game", has_text=username)).to_have_count(1)
    page.screenshot(path=str(SHOTS / "watch-1280.png"), full_page=True)
