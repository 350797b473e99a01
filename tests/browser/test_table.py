"""The live table in a real browser: start a match against the random bot from the lobby, play by
clicking, by dragging and with the keyboard alone, see the bot answer, see a refusal's reason,
resign a game and a match.

The server runs the bot in a thread, with a short pause before each move (the conftest's
``SERVER_ENV``), so every wait on the bot is an ``expect`` with a generous timeout, never a sleep.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path

import pytest

from games.refusals import card_label

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Table-pass-42"
BOT_TIMEOUT = 20_000  # ms: a whole bot turn, even at production's 0.4 s a move
SHOTS = Path(__file__).resolve().parents[2] / "test-results"


def sign_up(page, base: str) -> str:
    username = f"tbl{secrets.token_hex(4)}"
    page.goto(f"{base}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile("e-mail", re.IGNORECASE)).fill(f"{username}@example.com")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base}/")
    return username


def start_match(page, base: str) -> int:
    """From the lobby: the random bot, a pay-off pile of 5, a match to 10. Returns the game id."""
    from playwright.sync_api import expect

    page.goto(f"{base}/play/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Play")
    page.get_by_label("Random bot").check()
    page.get_by_text("Custom rules").click()
    page.get_by_label("Pay-off pile").fill("5")
    page.get_by_label("Points to win the match").fill("10")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/play/games/\d+/$"))
    game_id = int(re.search(r"/play/games/(\d+)/$", page.url).group(1))
    expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
    return game_id


def wait_for_my_turn(page) -> None:
    from playwright.sync_api import expect

    expect(page.locator("[data-part=status]")).to_have_attribute(
        "data-turn", "you", timeout=BOT_TIMEOUT
    )


def legal_moves(page) -> list[str]:
    return page.evaluate("() => window.spiteTable.view.legal_moves")


def version(page) -> int:
    return page.evaluate("() => window.spiteTable.state.version")


def a_discard(page) -> str:
    """A legal discard from the hand onto side stack 1 (always legal on your turn)."""
    moves = [m for m in legal_moves(page) if m.startswith("h:") and m.endswith("-s1")]
    assert moves, legal_moves(page)
    return moves[0]


def hand_card(page, move: str):
    source = move.rsplit("-", 1)[0]
    return page.locator(f'[data-part=hand] [data-source="{source}"]').first


def my_place(page, target: str):
    if target.startswith("c"):
        return page.locator(f'[data-part=centers] [data-target="{target}"]')
    return page.locator(f'[data-area=bottom] [data-target="{target}"]')


def expect_bot_answered(page, after_ply: int) -> None:
    """The bot's moves reach the log, and then it is the player's turn again (or the game ended)."""
    from playwright.sync_api import expect

    bot_entries = page.locator("[data-part=log] .log-entry:not(.is-you)")
    expect(bot_entries.first).to_be_attached(timeout=BOT_TIMEOUT)  # a phone's log is in the drawer
    page.wait_for_function(
        """(ply) => {
          const entries = [...document.querySelectorAll('[data-part=log] .log-entry:not(.is-you)')];
          return entries.some((li) => Number(li.dataset.ply) > ply);
        }""",
        arg=after_ply,
        timeout=BOT_TIMEOUT,
    )
    expect(page.locator("[data-part=status]")).to_have_attribute(
        "data-turn", re.compile("you|over"), timeout=BOT_TIMEOUT
    )


def test_play_by_clicking_and_the_bot_answers(page, live_server_url):
    from playwright.sync_api import expect

    sign_up(page, live_server_url)
    start_match(page, live_server_url)
    wait_for_my_turn(page)
    expect(page.get_by_role("group", name="Match score")).to_contain_text("0/10")

    # A play to the center first, when the hand has one: the table updates, still our turn.
    center = [m for m in legal_moves(page) if m.startswith("h:") and "-c" in m]
    if center:
        before = version(page)
        move = center[0]
        hand_card(page, move).click()
        expect(hand_card(page, move)).to_have_attribute("aria-pressed", "true")
        target = my_place(page, move.rsplit("-", 1)[1])
        expect(target).to_have_class(re.compile(r"\bis-lit\b"))
        target.click()
        page.wait_for_function("(v) => window.spiteTable.state.version > v", arg=before)
        expect(page.locator("[data-part=log] .log-entry.is-you").first).to_be_visible()
        wait_for_my_turn(page)

    # Then end the turn with a discard: exactly the places the view allows light up.
    move = a_discard(page)
    source = move.rsplit("-", 1)[0]
    hand_card(page, move).click()
    allowed = {m.rsplit("-", 1)[1] for m in legal_moves(page) if m.startswith(f"{source}-")}
    lit = set(
        page.locator("[data-part=felt] .is-lit").evaluate_all(
            "(ns) => ns.map((n) => n.dataset.target)"
        )
    )
    assert lit == allowed
    before_ply = page.evaluate("() => window.spiteTable.view.ply")
    my_place(page, "s1").click()

    expect(page.locator("[data-part=log] .log-entry.is-you").first).to_contain_text("side 1")
    expect(page.locator("[data-area=bottom] [data-target=s1]")).to_have_accessible_name(
        re.compile(r"side stack 1, \d+ cards?")
    )
    expect_bot_answered(page, before_ply)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-1280.png"), full_page=True)


def test_play_with_the_keyboard_alone_at_375_px(page, live_server_url):
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 375, "height": 800})
    sign_up(page, live_server_url)
    start_match(page, live_server_url)
    wait_for_my_turn(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375  # no sideways scroll

    move = a_discard(page)
    source, target = move.rsplit("-", 1)
    card = f'[data-part=hand] [data-source="{source}"]'
    place = f'[data-area=bottom] [data-target="{target}"]'

    def focused(selector: str) -> bool:
        return page.evaluate("(s) => document.activeElement.matches(s)", selector)

    def tab_to(selector: str, key: str = "Tab") -> None:
        for _ in range(80):
            page.keyboard.press(key)
            if focused(selector):
                return
        raise AssertionError(f"{key} never reached {selector}")

    page.locator("body").focus()
    tab_to(card)
    page.keyboard.press("Enter")  # pick
    expect(page.locator(card).first).to_have_attribute("aria-pressed", "true")
    expect(page.locator(place)).to_have_class(re.compile(r"\bis-lit\b"))
    page.keyboard.press("Escape")  # cancel
    expect(page.locator(card).first).to_have_attribute("aria-pressed", "false")
    expect(page.locator("[data-part=felt] .is-lit")).to_have_count(0)

    page.keyboard.press("Space")  # pick again (focus stayed on the card)
    expect(page.locator(card).first).to_have_attribute("aria-pressed", "true")
    tab_to(place, "Shift+Tab")
    assert (
        page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"
    )  # a visible focus ring
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-375-picked.png"), full_page=True)
    before_ply = page.evaluate("() => window.spiteTable.view.ply")
    page.keyboard.press("Enter")  # place: ends the turn

    expect(page.locator("[data-part=log] .log-entry.is-you").first).to_contain_text("side")
    expect_bot_answered(page, before_ply)
    # The bot's moves were announced in the live region.
    expect(page.locator("[data-part=announcer]")).not_to_be_empty(timeout=BOT_TIMEOUT)
    page.screenshot(path=str(SHOTS / "table-375.png"), full_page=True)


def test_drag_a_card_and_a_refused_move_shows_the_reason(page, live_server_url):
    from playwright.sync_api import expect

    sign_up(page, live_server_url)
    start_match(page, live_server_url)
    wait_for_my_turn(page)

    # A refused attempt: a hand card onto a center stack the view does not allow.
    moves = set(legal_moves(page))
    hand = page.evaluate("() => window.spiteTable.view.players[window.spiteTable.me].hand")
    refused = next(
        (f"h:{c}-c{n}" for c in hand for n in (1, 2, 3) if f"h:{c}-c{n}" not in moves), None
    )
    if refused is not None:
        source, target = refused.rsplit("-", 1)
        hand_card(page, refused).click()
        expect(my_place(page, target)).not_to_have_class(re.compile(r"\bis-lit\b"))
        my_place(page, target).click()
        error = page.get_by_role("alert").filter(has_text="Refused")
        expect(error).to_be_visible()
        expect(error).to_contain_text(card_label(source[2:]))  # the refusal names the card

    # Drag a card from the hand onto side stack 2 with the pointer.
    move = next(m for m in legal_moves(page) if m.startswith("h:") and m.endswith("-s2"))
    before = version(page)
    expect(hand_card(page, move)).to_be_visible()
    start = hand_card(page, move).bounding_box()
    end = my_place(page, "s2").bounding_box()
    assert start and end
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + 30, start["y"] - 20, steps=4)
    expect(my_place(page, "s2")).to_have_class(re.compile(r"\bis-lit\b"))
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_function("(v) => window.spiteTable.state.version > v", arg=before)
    expect(page.locator("[data-part=log] .log-entry.is-you").first).to_contain_text("side 2")


def test_resign_a_game_then_the_match(page, live_server_url):
    from playwright.sync_api import expect

    sign_up(page, live_server_url)
    first = start_match(page, live_server_url)

    # Resign the game: a confirmation first; "No" keeps playing.
    page.get_by_role("button", name="Resign game").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Resign this game?")
    dialog.get_by_role("button", name="No, play on").click()
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name="Resign game").click()
    page.get_by_role("dialog").get_by_role("button", name="Yes, resign").click()

    result = page.locator("[data-part=result]")
    expect(result).to_be_visible(timeout=BOT_TIMEOUT)
    expect(result.get_by_role("heading")).to_have_text("Random bot won game 1")
    expect(result).to_contain_text("You resigned")
    expect(page.get_by_role("button", name="Resign game")).to_be_hidden()
    next_link = result.get_by_role("link", name="Next game")
    expect(next_link).to_be_visible(timeout=BOT_TIMEOUT)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-game-over-1280.png"))
    next_link.click()

    page.wait_for_url(re.compile(r"/play/games/\d+/$"))
    assert not page.url.endswith(f"/games/{first}/")
    expect(page.locator("[data-part=game-number]")).to_have_text("Game 2")
    expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")

    # Resign the match: the bot wins it; the way back is the lobby.
    page.get_by_role("button", name="Resign match").click()
    expect(page.get_by_role("dialog")).to_contain_text("Resign the whole match?")
    page.get_by_role("dialog").get_by_role("button", name="Yes, resign").click()
    expect(result).to_be_visible(timeout=BOT_TIMEOUT)
    expect(result).to_contain_text("You resigned: Random bot wins the match.")
    expect(result).not_to_contain_text("won the match")
    expect(result.get_by_role("link", name="Next game")).to_be_hidden()
    page.set_viewport_size({"width": 375, "height": 800})
    page.screenshot(path=str(SHOTS / "table-match-over-375.png"))
    result.get_by_role("link", name="Back to the lobby").click()
    page.wait_for_url(re.compile(r"/play/$"))


def test_a_spectator_watches_live_and_a_dropped_socket_reconnects(page, browser, live_server_url):
    from playwright.sync_api import expect

    sign_up(page, live_server_url)
    game_id = start_match(page, live_server_url)
    wait_for_my_turn(page)

    watcher = browser.new_context(viewport={"width": 375, "height": 800})
    try:
        spectator = watcher.new_page()
        spectator.goto(f"{live_server_url}/play/games/{game_id}/")
        expect(spectator.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
        expect(spectator.locator("[data-part=hint]")).to_have_text("You are watching this game.")
        expect(spectator.locator("[data-part=hand]")).to_be_hidden()
        expect(spectator.get_by_role("button", name="Resign game")).to_be_hidden()
        expect(spectator.locator("[data-part=felt] button")).to_have_count(0)  # nothing to press

        # The socket drops: the page reconnects by itself, says so, and asks for the state.
        # (spiteTable.socket is socket.js's Socket; .ws is the WebSocket it holds now.)
        page.evaluate(
            "() => { window.oldSocket = window.spiteTable.socket.ws; oldSocket.close(); }"
        )
        page.wait_for_function(
            """() => { const s = window.spiteTable.socket.ws;
                       return s && s !== window.oldSocket && s.readyState === WebSocket.OPEN; }"""
        )
        expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")

        # The player moves after the reconnection; the spectator sees it and the bot's answer.
        move = a_discard(page)
        before_ply = page.evaluate("() => window.spiteTable.view.ply")
        hand_card(page, move).click()
        my_place(page, "s1").click()
        seen = spectator.locator(f'[data-part=log] .log-entry[data-ply="{before_ply}"]')
        expect(seen).to_contain_text("side 1", timeout=BOT_TIMEOUT)
        expect_bot_answered(page, before_ply)
        spectator.wait_for_function(
            "(ply) => window.spiteTable.view.ply > ply + 1", arg=before_ply, timeout=BOT_TIMEOUT
        )
    finally:
        watcher.close()
