"""Reconnection at the live table (issue 10): the game socket drops mid-game, the page says it
is reconnecting (attempt and countdown), a move made meanwhile — or one whose answer was lost
with the connection — is sent again with the same id once the socket is back, the server
applies it exactly once, and the page ends at the server's version with the banner gone.

Each test opens its own match against the random bot at the first deal of seed 1 (your turn,
an Ace and two 2s in hand: plays to the center), seated with the engine
(tests/browser/positions.py).
Playwright's clock holds the page's timers while the socket is down, so the reconnection waits
for the test (no sleeps); the drop is ``Socket.drop()``, which loses the connection and every
frame still on its way, as a network drop would. ``block(page, path)`` makes the page's next
connections to ``path`` fail (sent to a closed port), so a reconnection fails in turn.

At the table the banner speaks of the game socket alone: a drop of the per-user ``/ws/me/``
(notify.js) shows nothing while the game plays on. And the waits grow: the second attempt comes
later after its failure than the first came after the drop, and the banner's countdown says so.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser import positions
from tests.browser.test_table import (
    BOT_TIMEOUT,
    SHOTS,
    a_discard,
    expect_bot_answered,
    hand_card,
    legal_moves,
    my_place,
    version,
    wait_for_my_turn,
)

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Reconnect-pass-42"
TESTS = ("down", "lost answer", "banner", "backoff", "throttled")


@pytest.fixture(scope="module")
def seats(daphne_server) -> dict[str, Any]:
    """One player's matches against the random bot, one a test, each at the first deal of seed
    1 (their turn, AH, 2S and 2D in hand): the game id by the test's name for it."""
    deal = positions.first_deal(1)
    seated = positions.seat_player(daphne_server, *(deal for _ in TESTS), password=PASSWORD)
    return {"username": seated["username"], **dict(zip(TESTS, seated["games"], strict=True))}


@pytest.fixture(scope="module")
def cookies(browser, live_server_url, seats) -> list[dict[str, Any]]:
    return positions.signed_in(browser, live_server_url, seats["username"], PASSWORD)


WAITING = re.compile(r"^Connection lost\. Reconnecting… \(attempt 1, next try in \d+ s\)$")


def waiting(attempt: int) -> re.Pattern[str]:
    """The banner while attempt ``attempt`` waits for its timer; group 1 is the countdown."""
    return re.compile(
        rf"^Connection lost\. Reconnecting… \(attempt {attempt}, next try in (\d+) s\)$"
    )


def server_game(server, game_id: int, move_id: str) -> dict:
    """The game's version on the server, and how many Move rows carry ``move_id``, read in one
    statement: one snapshot, never a version from before a move and its row from after."""
    [(version, rows)] = server.query(
        "SELECT version, (SELECT count(*) FROM games_move"
        " WHERE game_id = games_game.id AND client_move_id = %s)"
        " FROM games_game WHERE id = %s",
        move_id,
        game_id,
    )
    return {"version": version, "rows": rows}


def a_center_move(page) -> str | None:
    """A play to a center stack (the turn goes on, so the version stays put after it)."""
    return next((m for m in legal_moves(page) if m.rsplit("-", 1)[1].startswith("c")), None)


def play(page, move: str) -> None:
    source, target = move.rsplit("-", 1)
    if source.startswith("h:"):
        hand_card(page, move).click()
    else:  # the pay-off pile or a side stack
        page.locator(f'[data-area=bottom] [data-source="{source}"]').click()
    my_place(page, target).click()


def pause_timers(page) -> None:
    """From now on the page's timers (the socket's retry among them) wait for resume()."""
    page.clock.pause_at(page.evaluate("() => Date.now()") + 50)


def block(page, path: str) -> None:
    """From now on the page's new WebSockets to ``path`` go to a path the server refuses (its
    unknown-path route, same origin, so the Content-Security-Policy lets it be tried): they
    fail before they open (a close, no open), as a connection refused would. ``unblock`` ends
    it."""
    page.evaluate(
        """(path) => {
          if (!window.blockedSockets) {
            window.blockedSockets = new Set();
            const Real = window.WebSocket;
            const nowhere = `ws://${location.host}/ws/nowhere/`;
            window.WebSocket = class extends Real {
              constructor(url, protocols) {
                const blocked = [...window.blockedSockets].some((p) => String(url).includes(p));
                super(blocked ? nowhere : url, protocols);
              }
            };
          }
          window.blockedSockets.add(path);
        }""",
        path,
    )


def unblock(page, path: str) -> None:
    page.evaluate("(path) => window.blockedSockets.delete(path)", path)


def expect_back(page, at_least: int) -> None:
    """Reconnected: the banner gone, the socket open, no move waiting, at ``at_least``."""
    from playwright.sync_api import expect

    banner = page.locator("[data-socket-banner] [data-socket-text]")
    expect(banner).to_be_hidden()
    expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
    page.wait_for_function(
        "(v) => !window.spiteTable.pending && window.spiteTable.state.version >= v",
        arg=at_least,
        timeout=BOT_TIMEOUT,
    )


def test_a_move_made_while_the_socket_is_down_is_sent_once_on_reconnection(
    page, live_server_url, daphne_server, seats, cookies
):
    from playwright.sync_api import expect

    page.clock.install()  # timers run as usual until paused
    game_id = seats["down"]
    positions.open_table(page, live_server_url, game_id, cookies)
    first = a_center_move(page)
    before = version(page)
    play(page, first)  # mid-game: a move made and answered over the first connection
    page.wait_for_function("(v) => window.spiteTable.state.version === v + 1", arg=before)
    move = a_center_move(page) or next(m for m in legal_moves(page) if m.endswith("-s1"))
    at = version(page)

    pause_timers(page)
    page.evaluate("() => window.spiteTable.socket.drop()")
    banner = page.locator("[data-socket-banner] [data-socket-text]")
    expect(banner).to_be_visible()
    expect(banner).to_have_text(WAITING)
    expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "closed")

    play(page, move)  # while the socket is down: the move waits
    expect(page.locator("[data-part=hint]")).to_have_text(
        "Your move goes as soon as the connection is back."
    )
    move_id = page.evaluate("() => window.spiteTable.pending.id")
    assert server_game(daphne_server, game_id, move_id) == {"version": at, "rows": 0}
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-reconnecting.png"))

    page.clock.resume()  # the retry's timer fires: reconnect, send the move, resync
    expect_back(page, at + 1)
    if move.endswith("-s1"):  # a discard: the bot plays on, then it is this page's turn again
        wait_for_my_turn(page)
    server = server_game(daphne_server, game_id, move_id)
    assert server["rows"] == 1
    assert version(page) == server["version"]


def test_a_move_whose_answer_was_lost_is_resent_and_applied_once(
    page, live_server_url, daphne_server, seats, cookies
):
    from playwright.sync_api import expect

    page.clock.install()
    game_id = seats["lost answer"]
    positions.open_table(page, live_server_url, game_id, cookies)
    move = a_center_move(page)
    at = version(page)

    # The move frame leaves, then the connection is lost before its answer arrives.
    pause_timers(page)
    page.evaluate(
        """() => {
          const socket = window.spiteTable.socket;
          const send = socket.send.bind(socket);
          socket.send = (frame) => {
            const sent = send(frame);
            if (frame.type === "move") { socket.send = send; socket.drop(); }
            return sent;
          };
        }"""
    )
    play(page, move)
    banner = page.locator("[data-socket-banner] [data-socket-text]")
    expect(banner).to_have_text(WAITING)
    expect(page.locator("[data-part=hint]")).to_have_text(
        "Your move goes as soon as the connection is back."
    )
    move_id = page.evaluate("() => window.spiteTable.pending.id")
    assert version(page) == at  # the page never heard the answer
    deadline = time.monotonic() + 20
    server = server_game(daphne_server, game_id, move_id)
    while not server["rows"] and time.monotonic() < deadline:  # the server's own time: poll
        server = server_game(daphne_server, game_id, move_id)
    assert server == {"version": at + 1, "rows": 1}

    page.clock.resume()  # reconnect: the same id again, answered with the state, applied once
    expect_back(page, at + 1)
    assert version(page) == at + 1  # a play to the center: the turn goes on, nothing else moved
    assert server_game(daphne_server, game_id, move_id) == {"version": at + 1, "rows": 1}


def test_at_the_table_the_banner_speaks_of_the_game_socket_alone(
    page, live_server_url, seats, cookies
):
    """/ws/me/ down for good (each reconnection fails): no banner, the game plays on; then the
    game socket down: the banner."""
    from playwright.sync_api import expect

    positions.open_table(page, live_server_url, seats["banner"], cookies)
    wait_for_my_turn(page)
    notify = page.locator("[data-notify]")
    expect(notify).to_have_attribute("data-state", "open")
    banner = page.locator("[data-socket-banner] [data-socket-text]")

    block(page, "/ws/me/")
    page.evaluate("() => window.spiteNotify.socket.drop()")
    expect(notify).to_have_attribute("data-state", "closed")
    # Reconnecting (so any other page would show the banner), yet the table's banner is quiet.
    assert page.evaluate("() => window.spiteNotify.socket.reconnecting")
    expect(banner).to_be_hidden()

    move = a_discard(page)  # the game plays on over its own socket
    before_ply = page.evaluate("() => window.spiteTable.view.ply")
    hand_card(page, move).click()
    my_place(page, "s1").click()
    expect_bot_answered(page, before_ply)
    page.wait_for_function("() => window.spiteNotify.socket.retries >= 2")  # a retry failed too
    assert page.evaluate("() => window.spiteNotify.socket.reconnecting")
    expect(banner).to_be_hidden()
    expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")

    block(page, "/ws/games/")  # now the game socket: the banner says so, and goes when it is back
    page.evaluate("() => window.spiteTable.socket.drop()")
    expect(banner).to_be_visible()
    expect(banner).to_have_text(re.compile(r"^Connection lost\. Reconnecting… \(attempt \d+"))
    expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "closed")
    unblock(page, "/ws/games/")
    expect(banner).to_be_hidden(timeout=BOT_TIMEOUT)  # its backoff: a few seconds at most
    expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
    assert page.evaluate("() => window.spiteNotify.socket.reconnecting")  # still down, unsaid


def test_the_second_attempt_waits_longer_than_the_first(page, live_server_url, seats, cookies):
    """The table's backoff: 0.5 s, then 1 s, then 2 s…, each times 0.75 to 1.25. On
    Playwright's clock the first attempt has started 625 ms after the drop; the second has not
    625 ms after the first failed, and starts by 1250 ms; the third's countdown says 2 s or
    more where the first's said 1 s."""
    from playwright.sync_api import expect

    page.clock.install()
    positions.open_table(page, live_server_url, seats["backoff"], cookies)
    wait_for_my_turn(page)
    banner = page.locator("[data-socket-banner] [data-socket-text]")

    block(page, "/ws/games/")  # every reconnection fails
    pause_timers(page)
    page.evaluate("() => window.spiteTable.socket.drop()")
    expect(banner).to_have_text(waiting(1))
    assert waiting(1).match(banner.inner_text()).group(1) == "1"

    page.clock.run_for(625)  # the first wait's longest: attempt 1 starts, fails
    expect(banner).to_have_text(waiting(2))
    page.clock.run_for(625)  # as long again: the second wait (750 ms or more) is not over
    assert waiting(2).match(banner.inner_text()), banner.inner_text()
    assert page.locator("[data-socket-banner]").get_attribute("data-attempt") == "2"

    page.clock.run_for(625)  # 1250 ms, the second wait's longest: attempt 2 starts, fails
    expect(banner).to_have_text(waiting(3))
    assert int(waiting(3).match(banner.inner_text()).group(1)) >= 2

    unblock(page, "/ws/games/")
    page.clock.run_for(2500)  # the third wait's longest: attempt 3 connects
    page.clock.resume()
    expect_back(page, 0)


def test_a_throttled_move_is_sent_again_after_retry_after(
    page, live_server_url, daphne_server, seats, cookies
):
    """The server refuses a move ``throttled`` (with the move's id, as every refusal of a move
    has it): the table says so, keeps the move, and sends it again with the same id once
    ``retry_after`` has passed; the server applies it once. The refusal is played to the page
    in place of the first send, so the test holds the page's clock while it waits."""
    from playwright.sync_api import expect

    page.clock.install()
    game_id = seats["throttled"]
    positions.open_table(page, live_server_url, game_id, cookies)
    move = a_center_move(page)
    at = version(page)

    pause_timers(page)
    page.evaluate(
        """() => {
          const table = window.spiteTable;
          const socket = table.socket;
          const send = socket.send.bind(socket);
          window.movesSent = [];
          socket.send = (frame) => {
            if (frame.type !== "move") return send(frame);
            window.movesSent.push(frame.id);
            if (window.movesSent.length > 1) return send(frame);
            Promise.resolve().then(() => table.receive({
              type: "error", code: "throttled", id: frame.id,
              message: "Too many messages: wait a moment.", params: {retry_after: 2.0},
            }));
            return true;
          };
        }"""
    )
    play(page, move)
    expect(page.locator("[data-part=error]")).to_have_text(
        "Too many moves at once: your move goes again in 2 s."
    )
    move_id = page.evaluate("() => window.spiteTable.pending.id")
    assert server_game(daphne_server, game_id, move_id) == {"version": at, "rows": 0}

    page.clock.run_for(2100)  # retry_after passes: the same id goes again
    page.wait_for_function(
        "(v) => !window.spiteTable.pending && window.spiteTable.state.version >= v",
        arg=at + 1,
        timeout=BOT_TIMEOUT,
    )
    assert page.evaluate("() => window.movesSent") == [move_id, move_id]
    assert server_game(daphne_server, game_id, move_id) == {"version": at + 1, "rows": 1}
