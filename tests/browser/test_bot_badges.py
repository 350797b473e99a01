"""The page scripts mark a bot account as the server's pages do (docs/bot_accounts.md), in two
browser contexts: the demo bot account ``robo`` and a fresh person. robo posts a seek: the
person's lobby lists it live and announces it, the bot badge after robo's name in both. The
person challenges robo, robo declines from its notice: the person's notice says so, with the
badge. (The markup itself is checked without a browser in tests/accounts/test_bot_badges.py.)
"""

from __future__ import annotations

import re

import pytest

from tests.browser import positions
from tests.browser.test_leagues import PASSWORD  # the demo accounts' password
from tests.browser.test_people import PASSWORD as NEW_PASSWORD  # a new player's

pytestmark = pytest.mark.browser


def test_the_lobby_and_the_notices_mark_the_bot_account(browser, live_server_url, manage):
    from playwright.sync_api import expect

    manage("load_demo")
    base = live_server_url
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        robo, person = (context.new_page() for context in contexts)
        for page in (robo, person):
            page.set_default_timeout(10_000)
        positions.log_in(robo, base, "robo", PASSWORD)
        name = positions.sign_up(person, base, "pb", NEW_PASSWORD, email=True)
        person.goto(f"{base}/play/people/")
        expect(person.locator("[data-notify]")).to_have_attribute("data-state", "open")

        # robo posts a seek: listed live and announced, robo's name then the badge.
        robo.goto(f"{base}/play/people/")
        robo.locator("form[action$='/seek/']").get_by_role("button", name="Post the seek").click()
        expect(robo.locator(".messages")).to_contain_text("Your seek is posted")
        seek = person.locator("[data-part=seeks] li", has_text="Robo")
        expect(seek.locator(".lobby-who .badge-bot")).to_have_text("bot")
        status = person.locator("[data-part=seeks-status]")
        expect(status).to_have_text(re.compile(r"^New seek by Robo bot: "))
        expect(status.locator(".badge-bot")).to_have_attribute(
            "title", "A bot account: played by a program"
        )
        robo.locator("[data-part=seeks] li", has_text="Your seek").get_by_role(
            "button", name="Cancel your seek"
        ).click()

        # The person challenges robo; robo declines; the person is told, with the badge.
        challenge = person.locator("#challenge")
        challenge.get_by_label("Player's username").fill("robo")
        challenge.get_by_role("button", name="Send the challenge").click()
        expect(person.locator(".messages")).to_contain_text("Challenge sent to Robo")
        expect(person.locator("[data-notify]")).to_have_attribute("data-state", "open")
        notice = robo.get_by_role("group", name=f"{name} challenges you")
        notice.get_by_role("button", name=f"Decline {name}'s challenge").click()
        told = person.locator("[data-part=notices] .notice-info", has_text="declined")
        expect(told).to_have_text(re.compile(r"^Robo bot declined your challenge\."))
        expect(told.locator(".badge-bot")).to_have_text("bot")
    finally:
        for context in contexts:
            context.close()
