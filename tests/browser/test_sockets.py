"""socket.js in a browser: the per-user socket (notify.js) reconnects by itself after a drop,
and on the people lobby asks for the seeks again on the new connection (its onOpen hook);
while it is down, any page shows socket.js's reconnect banner. The game socket's reconnection
is in test_table.py and test_table_reconnect.py."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser import positions
from tests.browser.test_people import PASSWORD, Frames

pytestmark = pytest.mark.browser


def test_the_per_user_socket_reconnects_and_watches_the_seeks_again(page: Any, live_server_url):
    from playwright.sync_api import expect

    frames = Frames(page)
    positions.sign_up(page, live_server_url, "ps", PASSWORD, email=True)
    page.goto(f"{live_server_url}/play/people/")
    notify = page.locator("[data-notify]")
    expect(notify).to_have_attribute("data-state", "open")
    page.wait_for_function("() => window.spiteNotify.frames >= 3")  # challenges, games, seeks
    challenges, seeks = len(frames.of("/ws/me/", "challenges")), len(frames.of("/ws/me/", "seeks"))
    assert seeks == 1  # only this page watches the seeks (the home page before it did not)

    seen = page.evaluate("() => window.spiteNotify.frames")
    page.evaluate("() => { window.oldSocket = window.spiteNotify.socket.ws; oldSocket.close(); }")
    expect(notify).to_have_attribute("data-state", "closed")
    page.wait_for_function(
        """() => { const s = window.spiteNotify.socket.ws;
                   return s && s !== window.oldSocket && s.readyState === WebSocket.OPEN; }"""
    )
    expect(notify).to_have_attribute("data-state", "open")
    # the new connection's challenges and games, then the seeks it asked for again; "online"
    # frames from players of other tests may come between, so wait for the seeks frame itself
    page.wait_for_function("(seen) => window.spiteNotify.frames >= seen + 3", arg=seen)
    deadline = time.monotonic() + 15
    while len(frames.of("/ws/me/", "seeks")) <= seeks and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # lets Playwright deliver the frames it has received
    assert len(frames.of("/ws/me/", "challenges")) == challenges + 1
    assert len(frames.of("/ws/me/", "seeks")) == seeks + 1


def test_any_page_says_it_is_reconnecting_until_the_socket_is_back(page: Any, live_server_url):
    """The home page places no banner: socket.js adds one while /ws/me/ is down. Playwright's
    clock holds the retry's timer, so the banner stays until the test lets the retry run."""
    from playwright.sync_api import expect

    page.clock.install()
    positions.sign_up(page, live_server_url, "pb", PASSWORD, email=True)
    notify = page.locator("[data-notify]")
    expect(notify).to_have_attribute("data-state", "open")
    banner = page.locator("[data-socket-banner]")
    expect(banner).to_have_count(0)  # nothing until a socket drops

    page.clock.pause_at(page.evaluate("() => Date.now()") + 50)
    page.evaluate("() => window.spiteNotify.socket.drop()")
    expect(banner).to_be_visible()
    expect(banner).to_have_class("socket-banner socket-banner-page")
    expect(banner.locator("[data-socket-text]")).to_have_text(
        re.compile(r"^Connection lost\. Reconnecting… \(attempt 1, next try in [12] s\)$")
    )
    expect(banner.get_by_role("button", name="Retry now")).to_be_visible()
    expect(notify).to_have_attribute("data-state", "closed")

    page.clock.resume()
    expect(notify).to_have_attribute("data-state", "open")
    expect(banner).to_be_hidden()


def test_a_page_signed_out_elsewhere_says_so_and_stops_reconnecting(page: Any, live_server_url):
    """A log out in another tab closes this tab's /ws/me/ with 4401 (core/credentials.py): the
    banner says "You were signed out", without a retry button, and no reconnection follows."""
    from playwright.sync_api import expect

    positions.sign_up(page, live_server_url, "so", PASSWORD, email=True)
    notify = page.locator("[data-notify]")
    expect(notify).to_have_attribute("data-state", "open")
    page.evaluate("() => { window.firstSocket = window.spiteNotify.socket.ws; }")

    other = page.context.new_page()
    other.goto(f"{live_server_url}/")
    other.get_by_role("button", name="Log out").click()
    other.wait_for_load_state()

    banner = page.locator("[data-socket-banner]")
    expect(banner.locator("[data-socket-text]")).to_have_text(
        "You were signed out. Reload the page to go on."
    )
    expect(banner.get_by_role("button", name="Retry now")).to_be_hidden()
    expect(notify).to_have_attribute("data-state", "closed")
    page.wait_for_timeout(1500)  # longer than the first retry's wait: none comes
    assert page.evaluate("() => window.spiteNotify.socket.ws === null")
    assert page.evaluate("() => window.spiteNotify.socket.status") == "gone"


def test_a_match_start_told_twice_goes_to_the_table_once(page: Any, live_server_url):
    """A match's start comes on its doorbell and again with the lists (a start the socket may
    have missed): the second word must not start a second navigation, which would abort the
    first (CI saw the accepting player's page fail with net::ERR_ABORTED)."""
    from playwright.sync_api import expect

    positions.sign_up(page, live_server_url, "tw", PASSWORD, email=True)
    expect(page.locator("[data-notify]")).to_have_attribute("data-state", "open")
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(f"{request.url} {request.failure}"))
    with page.expect_navigation(url=f"{live_server_url}/rules/"):
        page.evaluate(
            """() => { const start = { type: "challenge_accepted", url: "/rules/" };
                       window.spiteNotify.receive(start); window.spiteNotify.receive(start); }"""
        )
    assert failed == []
