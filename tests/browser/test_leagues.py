"""Ranked play in the demo league, in two browser contexts: alice and bruno (from load_demo)
open the league, press Play ranked, see who waits, get paired and land on one table. Leaving
the queue page leaves the queue. Then the standings and profiles show the league's ratings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser import positions

pytestmark = pytest.mark.browser

PASSWORD = "spite-demo-1"  # accounts/demo.py
SHOTS = Path(__file__).resolve().parents[2] / "test-results"


def test_two_demo_players_queue_get_paired_and_land_on_one_table(
    browser, live_server_url, manage, daphne_server
):
    from playwright.sync_api import expect

    manage("load_demo")
    base = live_server_url
    SHOTS.mkdir(exist_ok=True)
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        alice, bruno = (context.new_page() for context in contexts)
        for page in (alice, bruno):
            page.set_default_timeout(10_000)
        positions.log_in(alice, base, "alice", PASSWORD)
        positions.log_in(bruno, base, "bruno", PASSWORD)

        # alice finds the demo league from the nav and opens its queue ...
        alice.get_by_role("navigation").get_by_role("link", name="Leagues").click()
        alice.get_by_role("link", name="Club 52").click()
        expect(alice.get_by_role("heading", name="Standings")).to_be_visible()
        alice.screenshot(path=str(SHOTS / "leagues-demo-page.png"), full_page=True)
        alice.get_by_role("link", name="Play ranked").click()
        expect(alice.locator('[data-part="waiting"]')).to_have_text("1")
        # one whole sentence, its count inside (issue 24: no sentence built from fragments)
        expect(alice.locator('[data-part="count"]')).to_have_text(
            "1 player waiting in this league's queue (you included)."
        )
        expect(alice.locator("[data-queue]")).to_have_attribute("data-state", "waiting")
        alice.screenshot(path=str(SHOTS / "leagues-queue-waiting.png"), full_page=True)
        # ... and leaves it: cancelling (leaving the page) takes her out of the queue
        alice.get_by_role("link", name="Cancel: leave the queue").click()
        expect(alice).to_have_url(f"{base}/leagues/demo/")

        bruno.goto(f"{base}/leagues/demo/queue/")
        expect(bruno.locator('[data-part="waiting"]')).to_have_text("1")  # alice is gone
        expect(bruno.locator('[data-part="window"]')).to_be_visible()

        alice.get_by_role("link", name="Play ranked").click()
        table = re.compile(rf"{re.escape(base)}/play/games/\d+/$")
        expect(alice).to_have_url(table)
        expect(bruno).to_have_url(table)
        assert alice.url == bruno.url  # one table for both
        expect(alice.locator("body")).to_contain_text("Bruno")
        # the table's header says the match is ranked, and in which league (a link to it)
        for page in (alice, bruno):
            badge = page.get_by_role("link", name="Ranked in Club 52")
            expect(badge).to_have_attribute("href", "/leagues/demo/")
            expect(page.locator('[data-part="match-kind"]')).to_have_attribute(
                "data-ranked", "true"
            )
        alice.screenshot(path=str(SHOTS / "leagues-paired-table.png"), full_page=True)

        # the match is live in the league
        alice.goto(f"{base}/leagues/demo/")
        live = alice.locator("section", has=alice.get_by_role("heading", name="Live matches"))
        expect(live.get_by_role("link", name="Play your match").first).to_be_visible()  # hers

        # each plays three turns (what a match needs to be rated, docs/leagues.md), then bruno
        # resigns the match at the table: it is rated at once
        game_id = int(bruno.url.rstrip("/").rsplit("/", 1)[1])
        positions.play_for(daphne_server, game_id, times=6)
        bruno.get_by_role("button", name="Resign match").click()
        bruno.get_by_role("dialog").get_by_role("button", name="Yes, resign").click()
        expect(bruno.locator("body")).to_contain_text("You resigned: Alice wins the match.")
        alice.goto(f"{base}/leagues/demo/")
        rows = alice.locator("table.standings tbody tr")
        expect(rows.first).to_have_attribute("data-username", "alice")
        ratings = [int(r.split("?")[0]) for r in rows.locator("td.rating").all_inner_texts()]
        assert ratings[0] > 1500 > ratings[1]
        recent = alice.locator("section", has=alice.get_by_role("heading", name="Recent results"))
        expect(recent.get_by_role("link", name="replay the last game").first).to_be_visible()
        alice.screenshot(path=str(SHOTS / "leagues-standings-after.png"), full_page=True)
        bruno.goto(f"{base}/accounts/u/alice/")
        card = bruno.locator('.rating-card[data-league="demo"]')
        expect(card.locator("svg.rating-chart")).to_be_visible()
        expect(card.locator(".rating-figure")).to_contain_text(str(ratings[0]))
        bruno.screenshot(path=str(SHOTS / "leagues-profile.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()


def test_the_league_page_fits_a_phone_with_its_challenge_column(browser, live_server_url, manage):
    """At 375 px the standings (with the column of ranked-challenge buttons, whose header is a
    screen-reader text) scroll inside their box: the page itself is never wider than the
    phone."""
    from playwright.sync_api import expect

    manage("load_demo")
    context = browser.new_context(viewport={"width": 375, "height": 812})
    try:
        page = context.new_page()
        positions.log_in(page, live_server_url, "bruno", PASSWORD)
        page.goto(f"{live_server_url}/leagues/demo/")
        expect(page.get_by_role("button", name=re.compile("Challenge Alice"))).to_be_attached()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    finally:
        context.close()
