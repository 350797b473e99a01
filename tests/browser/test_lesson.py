"""The lesson in Chromium (learn/): a visitor does every step at the real table by clicking what
glows, hears a kind word for a legal move that is not the point and the engine's reason for an
illegal one, keeps their progress across a reload, and ends in a quick game against the random
bot. At 1280x800 and 375x812, in English and Vietnamese (screenshots of every step, and the
table's fit check). A signed-in player's progress is theirs in another browser."""

from __future__ import annotations

import re
from typing import Any

import pytest

from learn.steps import STEPS
from tests.browser import positions
from tests.browser.fit import assert_table_fits
from tests.browser.test_table import SHOTS

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Lesson-pass-42"
#: The links and buttons the test follows, in English; other languages read them from the
#: site's catalogs.
WORDS = {
    "start": "Start the lesson",
    "go_on": "Go on with the lesson",
    "next": "Next step",
    "finish": "Finish the lesson",
    "play": "Play a quick game against the random bot",
}


def words(language: str) -> dict[str, str]:
    from django.utils import translation
    from django.utils.translation import gettext

    with translation.override(language):
        return {key: gettext(text) for key, text in WORDS.items()}


def play_shown(page: Any) -> None:
    """Click the card the board shows, then its place."""
    from playwright.sync_api import expect

    source = page.locator(".is-hint-source")
    expect(source).to_have_count(1)
    version = page.evaluate("() => window.spiteTable.state.version")
    source.click()
    page.locator(".is-hint-target").click()
    page.wait_for_function(
        "(v) => window.spiteTable.state.version > v && !window.spiteTable.busy", arg=version
    )


def do_step(page: Any, number: int, size: tuple[int, int], language: str) -> None:
    from playwright.sync_api import expect

    step = STEPS[number]
    expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
    if number == 0:
        # a legal move that is not the point: a kind word, and the move is not kept
        page.locator("[data-part=hand] [data-source='h:9S']").click()
        page.locator("[data-area=bottom] [data-target='s1']").click()
        expect(page.locator("[data-part=lesson-word]")).to_have_attribute("data-kind", "nudge")
        assert page.evaluate("() => window.spiteTable.state.version") == 0
        # an illegal one: the engine's reason
        page.locator("[data-part=hand] [data-source='h:9S']").click()
        page.locator("[data-part=centers] [data-target='c2']").click()
        expect(page.locator("[data-part=error]")).to_be_visible()
    for _ in step.shows:
        if page.evaluate("() => window.spiteTable.lessonDone"):
            break
        play_shown(page)
    expect(page.locator("[data-part=lesson-word]")).to_have_attribute("data-kind", "done")
    expect(page.locator("[data-part=lesson-next]")).to_be_visible()
    page.screenshot(path=str(SHOTS / f"lesson-{language}-{size[0]}-{number + 1}.png"))
    assert_table_fits(
        page,
        tap=40 if size[0] < 600 else 0,
        extra={"the lesson": "[data-part=lesson]"},
        omit=("the score",),  # a lesson keeps no score
    )


@pytest.mark.parametrize(
    ("size", "language"),
    [((1280, 800), "en"), ((375, 812), "en"), ((1280, 800), "vi"), ((375, 812), "vi")],
    ids=["desktop-en", "phone-en", "desktop-vi", "phone-vi"],
)
def test_a_visitor_completes_the_lesson_and_plays_the_random_bot(
    browser, live_server_url, size, language
) -> None:
    from playwright.sync_api import expect

    said = words(language)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server_url}])
    SHOTS.mkdir(exist_ok=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server_url}/learn/")
        page.screenshot(path=str(SHOTS / f"lesson-{language}-{size[0]}-index.png"), full_page=True)
        page.get_by_role("link", name=said["start"]).click()
        for number in range(len(STEPS)):
            do_step(page, number, size, language)
            if number == 1:  # the progress survives a reload
                page.goto(f"{live_server_url}/learn/")
                expect(page.locator(".learn-step.is-done")).to_have_count(2)
                page.get_by_role("link", name=said["go_on"]).click()
                continue
            last = number == len(STEPS) - 1
            page.get_by_role("link", name=said["finish" if last else "next"]).click()
        expect(page.locator(".learn-step.is-done")).to_have_count(len(STEPS))
        page.screenshot(path=str(SHOTS / f"lesson-{language}-{size[0]}-end.png"), full_page=True)
        page.get_by_role("button", name=said["play"]).click()
        page.wait_for_url(re.compile(r"/play/games/\d+/$"))
        expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
        assert page.evaluate("() => window.spiteTable.state.match.seats[1].name") == (
            page.evaluate("() => window.spiteTable.name(1)")
        )
        assert page.evaluate("() => window.spiteTable.state.view.rules.payoff_size") == 5
    finally:
        context.close()


def test_a_players_progress_is_theirs_in_another_browser(browser, live_server_url) -> None:
    from playwright.sync_api import expect

    first = browser.new_context()
    try:
        page = first.new_page()
        username = positions.sign_up(page, live_server_url, "ls", PASSWORD, email=True)
        page.goto(f"{live_server_url}/learn/{STEPS[0].slug}/")
        do_step(page, 0, (1280, 800), "en")
    finally:
        first.close()
    cookies = positions.signed_in(browser, live_server_url, username, PASSWORD)
    second = browser.new_context()
    try:
        second.add_cookies(cookies)
        page = second.new_page()
        page.goto(f"{live_server_url}/learn/")
        expect(page.locator(".learn-step.is-done")).to_have_count(1)
        expect(page.get_by_role("link", name="Go on with the lesson")).to_be_visible()
    finally:
        second.close()
