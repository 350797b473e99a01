"""What a player sees at the table in Chromium, on positions built with the engine: a refused
move clears "Sending…"; a card cannot be picked during the other player's turn; no "your turn
in another game" notice for the next game of the match in front; a score past its target
stands alone; no replay link for an aborted game without moves; "Your turn" in the title and
the icon of a tab in the background; a table back from offline resyncs at once, without
waiting out its backoff (Playwright's clock holds the timers)."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest

from tests.browser import positions

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Behaviour-pass-42"
BOT_TIMEOUT = 20_000  # ms


OPPONENT = f"opp{secrets.token_hex(4)}"


@pytest.fixture(scope="module")
def seats(daphne_server) -> dict[str, int]:
    """One player's matches, a position each (one ``manage.py shell`` for them all): the game
    id by the test's name for it."""
    theirs = positions.first_deal(first_player=1)
    wanted = {
        "refused": positions.Seat(positions.first_deal()),
        "their turn": positions.Seat(theirs, opponent=OPPONENT),
        "next game": positions.Seat(  # the bot started game 1: the player starts game 2
            positions.one_move_from_the_end(), match_target=50, started_by=1
        ),
        "past target": positions.Seat(positions.one_move_from_the_end(), finish="p-c3"),
        "abort": positions.Seat(positions.first_deal()),
        "title": positions.Seat(theirs, opponent=OPPONENT),
        "offline": positions.Seat(theirs, opponent=OPPONENT),
        "shortcuts": positions.Seat(positions.first_deal()),
        "sound": positions.Seat(theirs, opponent=OPPONENT),
        "touch": positions.Seat(positions.first_deal()),
    }
    seated = positions.seat_player(daphne_server, *wanted.values(), password=PASSWORD)
    return {"username": seated["username"], **dict(zip(wanted, seated["games"], strict=True))}


@pytest.fixture(scope="module")
def cookies(browser, live_server_url, seats) -> list[dict[str, Any]]:
    """The player signed in once: their cookies, for every context of the module."""
    return positions.signed_in(browser, live_server_url, seats["username"], PASSWORD)


def test_a_refused_move_leaves_no_sending_behind(page, live_server_url, seats, cookies):
    from playwright.sync_api import expect

    page.context.add_cookies(cookies)
    positions.open_table(page, live_server_url, seats["refused"])
    hand = page.evaluate("() => window.spiteTable.view.players[0].hand")
    card = next(c for c in hand if c[0] not in "AK")  # no empty center stack takes it

    page.locator(f'[data-part=hand] [data-source="h:{card}"]').first.click()
    page.locator('[data-part=centers] [data-target="c1"]').click()
    expect(page.locator("[data-part=error]")).to_contain_text("Refused:")
    hint = page.locator("[data-part=hint]")
    expect(hint).to_have_text(re.compile(r"^Pick a card, then the place it goes"))
    expect(hint).not_to_contain_text("Sending")


def test_no_card_is_picked_during_the_other_players_turn(
    page, live_server_url, daphne_server, seats, cookies
):
    from playwright.sync_api import expect

    page.context.add_cookies(cookies)
    positions.open_table(page, live_server_url, seats["their turn"])
    expect(page.locator("[data-part=status]")).to_have_text(f"{OPPONENT}'s turn")

    card = page.locator("[data-part=hand] [data-source]").first
    expect(card).to_have_attribute("aria-disabled", "true")
    card.click(force=True)  # a player may still tap it
    expect(page.locator("[data-part=announcer]")).to_have_text(
        f"Wait for your turn: {OPPONENT} is playing."
    )
    expect(card).to_have_attribute("aria-pressed", "false")
    expect(page.locator("[data-part=felt] .is-lit")).to_have_count(0)
    page.keyboard.press("1")  # a shortcut waits too
    expect(page.locator("[data-part=felt] [aria-pressed=true]")).to_have_count(0)

    # The opponent ends the turn: the cards answer again.
    positions.play_for(daphne_server, seats["their turn"])
    expect(page.locator("[data-part=status]")).to_have_attribute("data-turn", "you")
    expect(card).not_to_have_attribute("aria-disabled", "true")
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")


def test_the_next_game_of_the_match_in_front_brings_no_notice(
    page, live_server_url, seats, cookies
):
    from playwright.sync_api import expect

    game = seats["next game"]
    page.context.add_cookies(cookies)
    positions.open_table(page, live_server_url, game)
    page.evaluate(
        """() => { window.meFrames = [];
        document.addEventListener("spite:me", (e) => window.meFrames.push(e.detail)); }"""
    )
    page.locator('[data-area=bottom] [data-source="p"]').click()  # the last pay-off card
    page.locator('[data-part=centers] [data-target="c3"]').click()
    expect(page.locator("[data-part=next-game]")).to_be_visible(timeout=BOT_TIMEOUT)
    # The next game is the player's to play at some point: its your_turn reaches /ws/me/.
    page.wait_for_function(
        "(game) => window.meFrames.some((f) => f.type === 'your_turn' && f.game !== game)",
        arg=game,
        timeout=BOT_TIMEOUT,
    )
    expect(page.locator("[data-notify] [data-turn]")).to_have_count(0)


def test_a_score_past_the_target_stands_alone(page, live_server_url, seats, cookies):
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 375, "height": 812})
    page.context.add_cookies(cookies)
    positions.open_table(page, live_server_url, seats["past target"])
    mine = page.locator("[data-part=score-0]")
    expect(mine.locator("[data-part=score-value]")).to_have_text("6")  # not "6/1"
    expect(page.locator("[data-part=score-1] [data-part=score-value]")).to_have_text("0/1")
    for box in ("score-0", "score-1"):
        assert page.evaluate(
            "(part) => { const n = document.querySelector(`[data-part=${part}]`); "
            "return n.scrollWidth <= n.clientWidth; }",
            box,
        ), f"{box} overflows"


def test_an_aborted_game_without_moves_offers_no_replay(page, live_server_url, seats, cookies):
    from playwright.sync_api import expect

    page.context.add_cookies(cookies)
    positions.open_table(page, live_server_url, seats["abort"])
    page.get_by_role("button", name="Abort match").click()
    page.get_by_role("dialog").get_by_role("button", name="Yes, abort").click()
    result = page.locator("[data-part=result]")
    expect(result).to_be_visible()
    expect(result.get_by_role("heading")).to_have_text("Game 1 aborted")
    expect(result.get_by_role("link", name="Replay this game")).to_be_hidden()
    expect(result.get_by_role("link", name="Back to the lobby")).to_be_visible()


def test_your_turn_shows_in_the_title_and_icon_of_a_tab_in_the_background(
    browser, live_server_url, daphne_server, seats, cookies
):
    from playwright.sync_api import expect

    context = browser.new_context()
    context.add_cookies(cookies)
    try:
        table = context.new_page()
        positions.open_table(table, live_server_url, seats["title"])
        assert not table.title().startswith("Your turn")
        icon = table.locator('link[rel="icon"]')
        expect(icon).to_have_attribute("href", re.compile(r"favicon\.svg$"))

        other = context.new_page()  # the player reads another page meanwhile
        other.goto(f"{live_server_url}/rules/")
        other.bring_to_front()
        positions.play_for(daphne_server, seats["title"])

        expect(table).to_have_title(re.compile(r"^Your turn · Game 1"))
        expect(icon).to_have_attribute("href", re.compile(r"favicon-turn\.svg$"))
    finally:
        context.close()


def test_back_online_the_table_resyncs_at_once_and_says_so_while_offline(
    browser, live_server_url, daphne_server, seats, cookies
):
    """Playwright's clock holds every timer of the page, so the backoff's retry never runs by
    itself: only the browser's "online" event (or "Retry now") can bring the table back."""
    from playwright.sync_api import expect

    context = browser.new_context()
    context.add_cookies(cookies)
    try:
        page = context.new_page()
        page.clock.install()
        positions.open_table(page, live_server_url, seats["offline"])
        before = page.evaluate("() => window.spiteTable.state.version")

        context.set_offline(True)
        expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "closed")
        banner = page.locator("[data-socket-banner]")
        expect(banner).to_contain_text("Connection lost. Reconnecting…")
        expect(banner.get_by_role("button", name="Retry now")).to_be_visible()
        positions.play_for(daphne_server, seats["offline"])  # the opponent moves meanwhile

        context.set_offline(False)
        expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
        page.wait_for_function("(v) => window.spiteTable.state.version > v", arg=before)
        expect(page.locator("[data-part=status]")).to_have_attribute("data-turn", "you")
        expect(banner).to_be_hidden()
    finally:
        context.close()


def test_a_discard_by_keyboard_shortcuts(page, live_server_url, seats, cookies):
    from playwright.sync_api import expect

    page.context.add_cookies(cookies)
    positions.open_table(page, live_server_url, seats["shortcuts"])
    first = page.locator("[data-part=hand] [data-source]").first
    card = first.get_attribute("data-source").removeprefix("h:")

    page.keyboard.press("?")
    expect(page.get_by_role("dialog")).to_contain_text("Pick a card of your hand")
    page.keyboard.press("Escape")
    page.keyboard.press("1")  # the first card of the hand
    expect(first).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    expect(first).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("1")
    page.keyboard.press("q")  # onto side stack 1: the turn ends
    side = page.locator('[data-area=bottom] [data-pile="s1"] .pc-card')
    expect(side.last).to_have_attribute("data-card", card)
    expect(page.locator("[data-part=status]")).not_to_have_attribute("data-turn", "you")


def test_the_sound_setting_is_remembered_and_sounds_when_the_turn_comes(
    browser, live_server_url, daphne_server, seats, cookies
):
    """Web Audio is replaced by a recorder before the page loads: the test counts the tones."""
    from playwright.sync_api import expect

    context = browser.new_context()
    context.add_init_script(
        """window.tones = [];
        window.AudioContext = class { constructor() { this.currentTime = 0;
          this.destination = {}; }
          createOscillator() { return { frequency: {}, connect: (g) => g,
            start: () => {}, stop: () => {} }; }
          createGain() { return { gain: { setValueAtTime() {},
            exponentialRampToValueAtTime() {} }, connect: () => ({}) }; } };
        const original = window.AudioContext.prototype.createOscillator;
        window.AudioContext.prototype.createOscillator = function () {
          window.tones.push(Date.now()); return original.call(this); };"""
    )
    try:
        context.add_cookies(cookies)
        page = context.new_page()
        positions.open_table(page, live_server_url, seats["sound"])
        sound = page.get_by_label("Sound on your turn and on the opponent's moves")
        expect(sound).not_to_be_checked()  # off unless asked for
        sound.check()
        page.reload()
        expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
        expect(sound).to_be_checked()  # remembered
        assert page.evaluate("() => window.tones.length") == 0

        positions.play_for(daphne_server, seats["sound"])  # the opponent ends the turn
        expect(page.locator("[data-part=status]")).to_have_attribute("data-turn", "you")
        page.wait_for_function("() => window.tones.length >= 3")  # their move, then your turn
    finally:
        context.close()


def test_on_a_touch_screen_a_move_can_wait_for_confirmation(
    browser, live_server_url, seats, cookies
):
    from playwright.sync_api import expect

    context = browser.new_context(
        viewport={"width": 375, "height": 812}, has_touch=True, is_mobile=True
    )
    try:
        context.add_cookies(cookies)
        page = context.new_page()
        positions.open_table(page, live_server_url, seats["touch"])
        page.get_by_role("button", name="Moves and options").click()
        page.get_by_label("Confirm each move before it is sent").check()
        page.keyboard.press("Escape")  # the drawer closes
        first = page.locator("[data-part=hand] [data-source]").first
        card = first.get_attribute("data-source").removeprefix("h:")
        before = page.evaluate("() => window.spiteTable.state.version")

        first.tap()
        page.locator('[data-area=bottom] [data-target="s1"]').tap()
        confirm = page.locator("[data-part=move-confirm]")
        expect(confirm).to_be_visible()
        expect(confirm).to_contain_text("to side stack 1?")
        confirm.get_by_role("button", name="Cancel").tap()
        expect(confirm).to_be_hidden()
        assert page.evaluate("() => window.spiteTable.state.version") == before  # nothing sent

        first.tap()
        page.locator('[data-area=bottom] [data-target="s1"]').tap()
        confirm.get_by_role("button", name="Play it").tap()
        side = page.locator('[data-area=bottom] [data-pile="s1"] .pc-card')
        expect(side.last).to_have_attribute("data-card", card)
    finally:
        context.close()
