"""Two people play through a challenge while a third watches, in three browser contexts.

Player A challenges B by username from the people lobby; B, on another page, sees the live
notice and accepts; both land on the table; they play a few moves by clicking, each picking a
legal move from the page; the spectator opens the same table and sees every move live. Every
WebSocket frame each context receives is collected, and no ``state`` frame ever shows anyone
a hand that is not their own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.browser import positions

pytestmark = pytest.mark.browser

PASSWORD = "a-long-People-pass-42"
SHOTS = Path(__file__).resolve().parents[2] / "test-results"
TURNS = 4  # turns to play: two each


class Frames:
    """Every text frame a page receives over any WebSocket, parsed, with its socket's path."""

    def __init__(self, page: Any) -> None:
        self.received: list[tuple[str, dict[str, Any]]] = []
        page.on("websocket", self._watch)

    def _watch(self, socket: Any) -> None:
        path = re.sub(r"^wss?://[^/]+", "", socket.url)
        socket.on("framereceived", lambda payload: self._add(path, payload))

    def _add(self, path: str, payload: Any) -> None:
        if isinstance(payload, bytes):
            payload = payload.decode()
        self.received.append((path, json.loads(payload)))

    def of(self, prefix: str, kind: str | None = None) -> list[dict[str, Any]]:
        return [
            frame
            for path, frame in self.received
            if path.startswith(prefix) and (kind is None or frame.get("type") == kind)
        ]


def version(page: Any) -> int:
    return page.evaluate("() => window.spiteTable.state.version")


def play_one_turn(page: Any) -> None:
    """The player to move plays a card to the center when the hand has one, then ends the
    turn with a discard (always legal), both by clicking the card and then its place."""
    from playwright.sync_api import expect

    def legal() -> list[str]:
        return page.evaluate("() => window.spiteTable.view.legal_moves")

    def click_move(move: str) -> None:
        before = version(page)
        source, target = move.rsplit("-", 1)
        page.locator(f'[data-part=hand] [data-source="{source}"]').first.click()
        area = "[data-part=centers]" if target.startswith("c") else "[data-area=bottom]"
        page.locator(f'{area} [data-target="{target}"]').click()
        page.wait_for_function("(v) => window.spiteTable.state.version > v", arg=before)

    center = [m for m in legal() if m.startswith("h:") and "-c" in m]
    if center:
        click_move(center[0])
        expect(page.locator("[data-part=status]")).to_have_attribute("data-turn", "you")
    discard = [m for m in legal() if m.startswith("h:") and "-s" in m]
    assert discard, legal()
    click_move(discard[0])


def test_a_challenge_played_out_while_a_third_player_watches(browser, live_server_url):
    from playwright.sync_api import expect

    base = live_server_url
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(3)]
    try:
        a, b, s = (context.new_page() for context in contexts)
        for page in (a, b, s):
            page.set_default_timeout(10_000)
        frames = {"a": Frames(a), "b": Frames(b), "s": Frames(s)}

        name_a = positions.sign_up(a, base, "pa", PASSWORD, email=True)
        name_b = positions.sign_up(b, base, "pb", PASSWORD, email=True)
        positions.sign_up(s, base, "ps", PASSWORD, email=True)
        # B stays on the home page, its notification socket open.
        expect(b.locator("[data-notify]")).to_have_attribute("data-state", "open")

        # A challenges B by username, with short knobs.
        a.goto(f"{base}/play/people/")
        expect(a.get_by_role("heading", level=1)).to_have_text("Play a person")
        challenge = a.locator("#challenge")
        challenge.get_by_label("Player's username").fill(name_b)
        challenge.get_by_text("Custom rules").click()
        challenge.get_by_label("Pay-off pile").fill("5")
        challenge.get_by_label("Points to win the match").fill("10")
        challenge.get_by_role("button", name="Send the challenge").click()
        expect(a.locator(".messages")).to_contain_text(f"Challenge sent to {name_b}")
        expect(a.locator("[data-part=sent] [data-challenge]")).to_have_count(1)
        SHOTS.mkdir(exist_ok=True)
        a.screenshot(path=str(SHOTS / "people-lobby.png"), full_page=True)

        # B is told live, wherever B is, and accepts from the notice.
        notice = b.get_by_role("group", name=f"{name_a} challenges you")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("Pay-off pile of 5, first to 10 points")
        expect(b.locator("[data-notify] [aria-live]")).to_contain_text(f"{name_a} challenges you")
        b.screenshot(path=str(SHOTS / "people-notice.png"))
        notice.get_by_role("button", name=f"Accept {name_a}'s challenge").click()

        # Both land on the same table: A (the challenger) in seat 0, B in seat 1.
        table = re.compile(r"/play/games/(\d+)/$")
        b.wait_for_url(table)
        a.wait_for_url(table)
        assert a.url == b.url
        for page, seat in ((a, 0), (b, 1)):
            expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
            assert page.evaluate("() => window.spiteTable.me") == seat

        # The spectator opens the same table.
        s.goto(a.url)
        expect(s.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
        expect(s.locator("[data-part=hand]")).to_be_hidden()

        for _ in range(TURNS):
            mover = next(
                page
                for page in (a, b)
                if page.locator("[data-part=status]").get_attribute("data-turn") == "you"
            )
            play_one_turn(mover)
            now = version(mover)
            for page in (a, b, s):  # everyone sees it, live
                page.wait_for_function("(v) => window.spiteTable.state.version >= v", arg=now)
            waiting = b if mover is a else a
            expect(waiting.locator("[data-part=status]")).to_have_attribute("data-turn", "you")

        final = version(a)
        assert final >= TURNS
        expect(s.locator("[data-part=log] .log-entry")).to_have_count(final)
        s.screenshot(path=str(SHOTS / "people-spectator.png"), full_page=True)
        a.screenshot(path=str(SHOTS / "people-table-a.png"), full_page=True)

        # Every state frame each context received shows only its own hand.
        game_path = "/ws/games/"
        for key, seat in (("a", 0), ("b", 1), ("s", None)):
            states = frames[key].of(game_path, "state")
            assert states, key
            assert max(frame["version"] for frame in states) == final, key
            for frame in states:
                players = frame["view"]["players"]
                assert frame["you"] == seat, key
                if seat is None:
                    assert [p["hand"] for p in players] == [None, None], frame
                else:
                    assert players[1 - seat]["hand"] is None, frame
                    assert isinstance(players[seat]["hand"], list), frame

        # The per-user sockets carried the challenge and its start, and no game state.
        b_notices = frames["b"].of("/ws/me/")
        assert any(
            f["type"] == "challenge"
            and f["state"] == "received"
            and f["from"]["username"] == name_a
            for f in b_notices
        )
        for key in ("a", "b"):
            # Live, then again on the table page's socket (said again while the match is new).
            started = [f for f in frames[key].of("/ws/me/") if f["type"] == "challenge_accepted"]
            assert started and {f["url"] for f in started} == {urlparse(a.url).path}
            assert not frames[key].of("/ws/me/", "state")
        assert not frames["s"].of("/ws/me/", "challenge")
    finally:
        for context in contexts:
            context.close()


def test_a_seek_appears_live_and_taking_it_starts_the_match(browser, live_server_url):
    """B watches the people lobby on a phone; A posts a seek; it appears in B's list without a
    reload; B takes it and both go to the table (A from whatever page A is on)."""
    from playwright.sync_api import expect

    base = live_server_url
    phone = browser.new_context(viewport={"width": 375, "height": 800})
    desk = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        b, a = phone.new_page(), desk.new_page()
        name_a = positions.sign_up(a, base, "sa", PASSWORD, email=True)
        positions.sign_up(b, base, "sb", PASSWORD, email=True)

        b.goto(f"{base}/play/people/")
        expect(b.locator("[data-notify]")).to_have_attribute("data-state", "open")
        assert b.evaluate("() => document.documentElement.scrollWidth") <= 375

        a.goto(f"{base}/play/people/")
        a.locator("form[action$='/seek/']").get_by_role("button", name="Post the seek").click()
        expect(a.locator(".messages")).to_contain_text("Your seek is posted")
        expect(a.locator("[data-part=seeks]")).to_contain_text("Your seek")
        a.goto(f"{base}/rules/")  # A waits elsewhere: the notice finds A there

        seek = b.locator("[data-part=seeks] li", has_text=name_a)
        expect(seek).to_contain_text("Quick: pay-off pile of 5, one game")  # live, no reload
        expect(b.locator("[data-part=seeks-status]")).to_have_text(
            re.compile(f"New seek by {name_a}")
        )
        SHOTS.mkdir(exist_ok=True)
        b.screenshot(path=str(SHOTS / "people-375.png"), full_page=True)
        seek.get_by_role("button", name=re.compile("Take")).click()

        table = re.compile(r"/play/games/(\d+)/$")
        b.wait_for_url(table)
        a.wait_for_url(table)
        assert a.url == b.url
        assert a.evaluate("() => window.spiteTable.me") == 0  # the seek's owner is player one
    finally:
        phone.close()
        desk.close()
