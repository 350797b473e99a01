"""The Watch page in Chromium, at 1280 by 800 and 375 by 812, in English and Bengali: games laid
out with the engine (``engine.testing.position``, written with ``manage shell``, no game played
through) and last moved 1, 2 (no move yet: dealt then) and 4 minutes ago are listed in that
order, each with its relative time, its players (a guest as "Guest", the engine bot by name)
and a picture of its center stacks; a game last moved 11 minutes ago is not listed, yet its
table still opens. Every game on the page, whoever else's, was moved in the last 10 minutes.
Nothing scrolls sideways."""

from __future__ import annotations

import json
import re
import secrets
import textwrap
from datetime import UTC, datetime, timedelta

import pytest

from tests.browser.test_leagues import SHOTS

pytestmark = pytest.mark.browser

VIEWPORTS = [(1280, 800), (375, 812)]
#: A relative time once the first exact check is past (time goes on while the test runs).
MINUTES_AGO = re.compile(r"^\d+ minutes? ago$")


def layout_script(tag: str) -> str:
    """Four casual games with hand-made positions, each last moved some minutes ago; prints
    their ids by name. One transaction: no bot's job can run before the position is set."""
    return textwrap.dedent(
        f"""
        import json
        from datetime import timedelta
        from django.db import transaction
        from django.utils import timezone
        import engine
        from engine.testing import position
        from accounts.models import User
        from games import services
        from games.models import Game, Move

        rules = engine.Rules(payoff_size=5, match_target=10)
        now = timezone.now()
        ids = {{}}
        with transaction.atomic():
            # The server is this worker's, shared with the tests before this one: their games
            # leave the Watch window, so this test's are on its first page (25 a page).
            aged = now - timedelta(hours=1)
            Move.objects.filter(created_at__gt=aged).update(created_at=aged)
            Game.objects.filter(created_at__gt=aged).update(created_at=aged)
            ann, ben = (User.objects.create_user(username=n + "{tag}", display_name=n.title())
                        for n in ("ann", "ben"))
            guest = User.objects.create_user(username="guest-{tag}", is_guest=True)
            layouts = {{
                # name: (seats, center stacks, minutes since the last move, moved at all);
                # 0.92 minutes (55 s) reads "1 minute ago" for the next 34 s
                "fresh": ((ann, ben), [["AS", "2D", "3S", "4D", "5S", "6D", "7D"],
                                       [r + "C" for r in "A23456789TJ"], []], 0.92, True),
                "dealt": ((ben, ann), [[], [], []], 2, False),
                "guest": ((guest, "greedy"), [["AH", "KS"], ["AD"], ["AC", "2C", "3H"]], 4, True),
                "stale": ((ann, ben), [["AH"], [], []], 11, True),
            }}
            for name, (seats, center, minutes, moved) in layouts.items():
                if seats[1] == "greedy":
                    match = services.match_create(user=seats[0], bot="greedy", rules=rules)
                else:
                    match = services.match_create_between(user0=seats[0], user1=seats[1],
                                                          rules=rules)
                game = match.games.get()
                state = position(hands=[["9H", "TH"], ["9S"]], payoffs=[["QH", "8S"], ["QD"]],
                                 center=center, stock=["5C"], rules=rules, to_move=0)
                at = now - timedelta(minutes=minutes)
                version = 1 if moved else 0
                Game.objects.filter(pk=game.pk).update(
                    state=state.to_dict(), version=version, created_at=at
                )
                if moved:
                    Move.objects.create(game=game, ply=0, seat=1, text="h:9D-s1", version=1)
                    Move.objects.filter(game=game).update(created_at=at)
                ids[name] = game.pk
        print(json.dumps(ids))
        """
    )


def test_the_watch_page_lists_only_games_moved_in_recently(browser, live_server_url, manage):
    from playwright.sync_api import expect

    base, tag = live_server_url, secrets.token_hex(3)
    out = manage("shell", "-v", "0", "-c", layout_script(tag)).stdout
    ids = json.loads(out.strip().splitlines()[-1])
    SHOTS.mkdir(exist_ok=True)
    for width, height in VIEWPORTS:
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.goto(f"{base}/play/watch/")
            expect(page.get_by_role("heading", level=1)).to_have_text("Watch a game")
            tiles = page.locator(".watch-game")
            listed = [int(g) for g in tiles.evaluate_all("(ts) => ts.map((t) => t.dataset.game)")]
            mine = [g for g in listed if g in ids.values()]
            assert mine == [ids["fresh"], ids["dealt"], ids["guest"]], (mine, ids)

            # Whoever else's games are listed, each was moved in the last 10 minutes.
            now = datetime.now(UTC)
            for stamp in page.locator(".watch-game time").evaluate_all(
                "(ts) => ts.map((t) => t.getAttribute('datetime'))"
            ):
                assert now - datetime.fromisoformat(stamp) <= timedelta(minutes=10, seconds=30)

            fresh = page.locator(f'.watch-game[data-game="{ids["fresh"]}"]')
            expect(fresh.locator(".watch-players")).to_contain_text("Ann")
            expect(fresh.locator(".watch-players")).to_contain_text("Ben")
            expect(fresh.locator("[data-part=moved]")).to_have_text(
                "1 minute ago" if width == 1280 else MINUTES_AGO
            )
            expect(fresh.get_by_role("img")).to_have_attribute(
                "aria-label", "Center stacks: 7, Jack, and empty"
            )
            expect(fresh.get_by_role("img")).to_be_visible()
            guest = page.locator(f'.watch-game[data-game="{ids["guest"]}"]')
            expect(guest.locator(".watch-players")).to_contain_text("Guest")
            expect(guest.locator(".watch-players")).to_contain_text("Greedy bot")
            expect(guest.locator("[data-part=moved]")).to_have_text(MINUTES_AGO)
            expect(guest.get_by_role("img")).to_have_attribute(
                "aria-label", "Center stacks: a King standing for 2, Ace, and 3"
            )
            dealt = page.locator(f'.watch-game[data-game="{ids["dealt"]}"]')
            expect(dealt.locator("[data-part=moved]")).to_have_text(MINUTES_AGO)
            expect(page.locator(f'.watch-game[data-game="{ids["stale"]}"]')).to_have_count(0)
            assert page.evaluate(
                "() => document.documentElement.scrollWidth <= window.innerWidth"
            ), "the page scrolls sideways"
            page.screenshot(path=str(SHOTS / f"watch-en-{width}.png"), full_page=True)

            # In Bengali: the same games, the time in Bengali (Latin digits).
            context.add_cookies([{"name": "django_language", "value": "bn", "url": base}])
            page.reload()
            expect(page.locator("html")).to_have_attribute("lang", "bn")
            expect(fresh.locator("[data-part=moved]")).to_have_text(re.compile(r"^[12] মিনিট আগে$"))
            expect(fresh.get_by_role("img")).to_have_attribute(
                "aria-label", "মাঝের স্তূপ: 7, গোলাম এবং খালি"
            )
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
            page.screenshot(path=str(SHOTS / f"watch-bn-{width}.png"), full_page=True)
        finally:
            context.close()

    # Off the Watch page, still at its address.
    page = browser.new_page()
    try:
        page.goto(f"{base}/play/games/{ids['stale']}/")
        expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
    finally:
        page.close()
