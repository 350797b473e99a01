"""socket.js in a browser: the per-user socket (notify.js) reconnects by itself after a drop,
and on the people lobby asks for the seeks again on the new connection (its onOpen hook).
The game socket's reconnection is in test_table.py."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_people import Frames, sign_up

pytestmark = pytest.mark.browser


def test_the_per_user_socket_reconnects_and_watches_the_seeks_again(page: Any, live_server_url):
    from playwright.sync_api import expect

    frames = Frames(page)
    sign_up(page, live_server_url, "ps")
    page.goto(f"{live_server_url}/play/people/")
    notify = page.locator("[data-notify]")
    expect(notify).to_have_attribute("data-state", "open")
    page.wait_for_function("() => window.spiteNotify.frames >= 2")  # challenges, then seeks
    challenges, seeks = len(frames.of("/ws/me/", "challenges")), len(frames.of("/ws/me/", "seeks"))
    assert seeks == 1  # only this page watches the seeks (the home page before it did not)

    page.evaluate("() => { window.oldSocket = window.spiteNotify.socket.ws; oldSocket.close(); }")
    expect(notify).to_have_attribute("data-state", "closed")
    page.wait_for_function(
        """() => { const s = window.spiteNotify.socket.ws;
                   return s && s !== window.oldSocket && s.readyState === WebSocket.OPEN; }"""
    )
    expect(notify).to_have_attribute("data-state", "open")
    page.wait_for_function("() => window.spiteNotify.frames >= 4")
    assert len(frames.of("/ws/me/", "challenges")) == challenges + 1
    assert len(frames.of("/ws/me/", "seeks")) == seeks + 1
