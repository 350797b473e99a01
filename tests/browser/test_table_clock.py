"""The turn clock and the disconnect grace at a real ranked table: two players of a league with
a 10 s turn limit (made with ``manage shell``, the first turn's deadline set 6 s ahead so the
test waits less) open their table; the clock runs down for the seat to move and turns to the
warning colour under 10 s; the other player closes the page and the one left reads "Opponent
disconnected — N s to return", counting down; the turn's time runs out and the server (the
waiting player's socket timer, not a test's sleep) ends it; a third timeout in a row (the real
``manage.py sweep``) forfeits the match, and the table says why.
"""

from __future__ import annotations

import re
import secrets
import textwrap

import pytest

from tests.browser import positions
from tests.browser.test_leagues import SHOTS

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Clock-pass-42"
LIMIT = 10  # the league's turn limit (its smallest allowed value)
FIRST_TURN = 6  # seconds the first turn is given instead: the test waits this long for the server
GRACE = 60


def test_the_running_clock_and_an_opponent_who_left(browser, live_server_url, manage):
    from playwright.sync_api import expect

    base = live_server_url
    tag = secrets.token_hex(3)
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        ann, ben = (context.new_page() for context in contexts)
        for page in (ann, ben):
            page.set_default_timeout(10_000)
        manage(
            "shell",
            "-v",
            "0",
            "-c",
            textwrap.dedent(
                f"""
                from accounts.models import User
                for n in ("ann", "ben"):
                    User.objects.create_user(username=n + "{tag}", password="{PASSWORD}")
                """
            ),
        )
        positions.log_in(ann, base, f"ann{tag}", PASSWORD)
        positions.log_in(ben, base, f"ben{tag}", PASSWORD)
        out = manage("shell", "-v", "0", "-c", match_script(tag)).stdout.split()
        game_id, to_move = int(out[0]), int(out[1])
        for page in (ann, ben):
            page.goto(f"{base}/play/games/{game_id}/")

        clock = ann.locator("[data-part=clock]")
        expect(clock).to_be_visible()
        mover = "Your time" if to_move == 0 else f"ben{tag}'s time"
        expect(clock).to_have_text(re.compile(rf"^{re.escape(mover)}: 0:(0\d|10)$"))
        first = int(clock.get_attribute("data-seconds"))
        ann.wait_for_function(
            "(s) => Number(document.querySelector('[data-part=clock]').dataset.seconds) < s",
            arg=first,
        )
        expect(clock).to_have_attribute("data-warn", "true")
        expect(ben.locator("[data-part=clock]")).to_be_visible()

        contexts[1].close()  # ben leaves the table
        note = ann.locator("[data-part=presence]")
        expect(note).to_have_text(re.compile(r"^Opponent disconnected — \d+ s to return$"))
        left = int(re.search(r"(\d+) s", note.inner_text()).group(1))
        assert GRACE - 5 <= left <= GRACE
        SHOTS.mkdir(exist_ok=True)
        ann.screenshot(path=str(SHOTS / "table-clock-opponent-away.png"))

        # The turn's time runs out (FIRST_TURN seconds after the match began): ann's socket's
        # timer has the server end it (a discard).
        timeouts = ann.locator("[data-part=timeouts]")
        expect(timeouts).to_contain_text("Timed out in a row", timeout=(LIMIT + 10) * 1000)
        assert ann.evaluate("() => window.spiteTable.state.version") >= 1
        ann.screenshot(path=str(SHOTS / "table-clock-timed-out.png"))

        # Two timeouts already for the seat to move, its time over: the real sweep command
        # (or ann's timer, whichever comes first) makes it the third, which forfeits.
        seat = int(manage("shell", "-v", "0", "-c", overdue_script(game_id)).stdout.split()[0])
        manage("sweep")
        ann.reload()
        words = (
            f"You ran out of time 3 turns in a row: ben{tag} wins the match."
            if seat == 0
            else f"ben{tag} ran out of time 3 turns in a row: you win the match!"
        )
        expect(ann.locator("[data-part=result-reason]")).to_have_text(words)
        expect(clock).to_be_hidden()
        ann.screenshot(path=str(SHOTS / "table-clock-forfeited.png"))
    finally:
        for context in contexts:
            context.close()


def match_script(tag: str) -> str:
    """The league (10 s a turn) and a ranked match of the two players, whose first turn ends
    ``FIRST_TURN`` seconds from now (the players' sockets read the deadline when they open)."""
    return textwrap.dedent(
        f"""
        from datetime import timedelta
        from django.utils import timezone
        from accounts.models import User
        from games.models import Game
        from leagues.models import League, Membership
        from leagues.services import ranked_match_create

        people = [User.objects.get(username=n + "{tag}") for n in ("ann", "ben")]
        league = League.objects.create(
            name="Clock {tag}", slug="clock-{tag}", turn_time_limit={LIMIT},
            disconnect_grace={GRACE},
        )
        for person in people:
            Membership.objects.create(league=league, user=person)
        match = ranked_match_create(league=league, user0=people[0], user1=people[1])
        game = match.games.get()
        deadline = timezone.now() + timedelta(seconds={FIRST_TURN})
        Game.objects.filter(pk=game.pk).update(turn_deadline=deadline)
        print(game.pk, game.to_move)
        """
    )


def overdue_script(game_id: int) -> str:
    """The seat to move has timed out twice in a row and its time is over; prints the seat."""
    return textwrap.dedent(
        f"""
        from datetime import timedelta
        from django.utils import timezone
        from games.models import Game, Match

        game = Game.objects.get(pk={game_id})
        seat = game.to_move
        Match.objects.filter(pk=game.match_id).update(**{{f"timeouts{{seat}}": 2}})
        Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        print(seat)
        """
    )
