"""Results in words in a real browser: matches ended by a resignation at 0 to 0, a third
timeout in a row, a player who never came to the table, and an abort (made through the real
services in ``manage.py shell``) say who did what, never a bare "Bruno won the match": at the
table, for the loser, the winner and a spectator; in the replay (its header, and its last
move's line); in the history, at a phone's width and a desktop's, in English and Burmese.
``static/js/results.js`` itself is asked for every end from every seat."""

from __future__ import annotations

import re
import secrets
import textwrap
from typing import Any

import pytest

from tests.browser import positions
from tests.browser.test_leagues import SHOTS

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Words-pass-42"

#: The league's clock: a turn limit and a grace long enough that the server never acts first.
LIMIT = 600
GRACE = 60


def ended_script(tag: str) -> str:
    """ann and ben, and four matches between them ended through the services: ann resigns
    one at once, the seat to move times out a third time in a row in another, ben never comes
    to the third and forfeits it, ann aborts the fourth. Prints their games and who lost."""
    return textwrap.dedent(
        f"""
        import json
        from datetime import timedelta
        import engine
        from django.utils import timezone
        from accounts.models import User
        from games import services
        from games.clocks.attendance import presence_join
        from games.clocks.timeouts import disconnect_forfeit, turn_timeout
        from games.models import Game, Match
        from leagues.models import League, Membership
        from leagues.services import ranked_match_create

        ann, ben = (
            User.objects.create_user(username=n + "{tag}", password="{PASSWORD}")
            for n in ("ann", "ben")
        )
        league = League.objects.create(
            name="Words {tag}", slug="words-{tag}", turn_time_limit={LIMIT},
            disconnect_grace={GRACE},
        )
        for person in (ann, ben):
            Membership.objects.create(league=league, user=person)
        rules = engine.Rules(payoff_size=5, match_target=10)

        resigned = services.match_create_between(user0=ann, user1=ben, rules=rules)
        services.game_resign(game_id=resigned.games.get().pk, user=ann, scope="match")

        timed = ranked_match_create(league=league, user0=ann, user1=ben)
        game = timed.games.get()
        loser = game.to_move
        Match.objects.filter(pk=timed.pk).update(**{{f"timeouts{{loser}}": 2}})
        Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        assert turn_timeout(game_id=game.pk).forfeited

        away = ranked_match_create(league=league, user0=ann, user1=ben)
        Match.objects.filter(pk=away.pk).update(
            created_at=timezone.now() - timedelta(seconds={GRACE} + 5)
        )
        presence_join(game_id=away.games.get().pk, match_id=away.pk, seat=0, channel="ann")
        assert disconnect_forfeit(match_id=away.pk) == 1

        aborted = services.match_create_between(user0=ann, user1=ben, rules=rules)
        services.game_abort(game_id=aborted.games.get().pk, user=ann)

        print(json.dumps({{
            "resigned": resigned.games.get().pk,
            "timeout": timed.games.get().pk, "timeout_loser": loser,
            "abandoned": away.games.get().pk,
            "aborted": aborted.games.get().pk,
        }}))
        """
    )


@pytest.fixture(scope="module")
def ended(daphne_server) -> dict[str, Any]:
    tag = secrets.token_hex(3)
    made = daphne_server.shell(ended_script(tag))
    return {**made, "names": [f"ann{tag}", f"ben{tag}"]}


#: What each end reads at the table: (to the loser, to the winner, to anyone else, the words
#: of the server's pages too).
WORDS = {
    "resigned": (
        "You resigned: {winner} wins the match.",
        "{loser} resigned: you win the match!",
        "{loser} resigned: {winner} wins the match.",
    ),
    "timeout": (
        "You ran out of time 3 turns in a row: {winner} wins the match.",
        "{loser} ran out of time 3 turns in a row: you win the match!",
        "{loser} ran out of time 3 turns in a row: {winner} wins the match.",
    ),
    "abandoned": (
        "You were away longer than the grace period: {winner} wins the match.",
        "{loser} was away longer than the grace period: you win the match!",
        "{loser} was away longer than the grace period: {winner} wins the match.",
    ),
}
CALLED_OFF = "The match was called off before both players had moved: no result, no points."


def said(ended: dict[str, Any], end: str) -> tuple[int, tuple[str, str, str]]:
    """The losing seat of that end, and its words to the loser, the winner and anyone else."""
    loser = {"resigned": 0, "timeout": ended["timeout_loser"], "abandoned": 1}[end]
    names = {"loser": ended["names"][loser], "winner": ended["names"][1 - loser]}
    to_loser, to_winner, to_anyone = (text.format(**names) for text in WORDS[end])
    return loser, (to_loser, to_winner, to_anyone)


def reader(browser, base: str, language: str, width: int, height: int) -> Any:
    """A new browser context reading the site in ``language`` at that size."""
    context = browser.new_context(viewport={"width": width, "height": height})
    host = base.split("//")[1].split(":")[0]
    context.add_cookies(
        [{"name": "django_language", "value": language, "domain": host, "path": "/"}]
    )
    return context


def test_the_table_says_who_resigned_ran_out_of_time_left_or_aborted(
    browser, live_server_url, ended
) -> None:
    """The loser reads "You …", the winner "… you win the match!", a spectator both names:
    the three of them for a resignation, one each for the other ends (results.js's own test
    says every end from every seat)."""
    from playwright.sync_api import expect

    base = live_server_url
    contexts = [reader(browser, base, "en", 1280, 900) for _ in range(3)]
    try:
        pages = [context.new_page() for context in contexts]  # ann, ben, a spectator
        positions.log_in(pages[0], base, ended["names"][0], PASSWORD)
        positions.log_in(pages[1], base, ended["names"][1], PASSWORD)
        SHOTS.mkdir(exist_ok=True)
        for end, who in (("resigned", "all"), ("timeout", "loser"), ("abandoned", "winner")):
            loser, (to_loser, to_winner, to_anyone) = said(ended, end)
            readers = {loser: to_loser, 1 - loser: to_winner, 2: to_anyone}
            viewers = {"all": [0, 1, 2], "loser": [loser], "winner": [1 - loser]}[who]
            for viewer in viewers:
                page = pages[viewer]
                page.goto(f"{base}/play/games/{ended[end]}/")
                result = page.locator("[data-part=result]")
                expect(result).to_be_visible()
                expect(result.locator("[data-part=result-reason]")).to_have_text(readers[viewer])
                expect(result).not_to_contain_text("won the match")
                if end == "resigned" and viewer < 2:
                    page.screenshot(path=str(SHOTS / f"results-words-table-{viewer}-1280.png"))
        page = pages[2]
        page.goto(f"{base}/play/games/{ended['aborted']}/")
        result = page.locator("[data-part=result]")
        expect(result.get_by_role("heading")).to_have_text("Game 1 aborted")
        expect(result.locator("[data-part=result-reason]")).to_have_text(CALLED_OFF)
    finally:
        for context in contexts:
            context.close()


SIZES = (("en", 1280, 800), ("en", 375, 812), ("my", 375, 812), ("my", 1280, 800))


def test_the_replay_says_how_the_game_and_its_match_ended(browser, live_server_url, ended):
    from playwright.sync_api import expect

    for language, width, height in SIZES:
        context = reader(browser, live_server_url, language, width, height)
        first = (language, width) == SIZES[0][:2]  # every end once; the other sizes, one
        try:
            page = context.new_page()
            for end in WORDS if first else ["resigned"]:
                loser, (_to_loser, _to_winner, words) = said(ended, end)
                page.goto(f"{live_server_url}/play/games/{ended[end]}/replay/")
                header = page.locator("[data-replay] [data-part=result]")
                expect(header).to_contain_text(ended["names"][loser])
                if language == "en":
                    expect(header).to_have_text(words)
                    page.keyboard.press("End")
                    last = page.locator("[data-part=move]")
                    expect(last).to_have_text(re.compile(re.escape(f" {words}") + "$"))
                    expect(page.locator("body")).not_to_contain_text("scoring")
                if end == "resigned":
                    SHOTS.mkdir(exist_ok=True)
                    shot = SHOTS / f"results-words-replay-{language}-{width}.png"
                    page.screenshot(path=str(shot), full_page=True)
            if first:
                page.goto(f"{live_server_url}/play/games/{ended['aborted']}/replay/")
                expect(page.locator("[data-replay] [data-part=result]")).to_have_text(CALLED_OFF)
        finally:
            context.close()


def test_the_history_says_who_resigned_ran_out_of_time_left_or_aborted(
    browser, live_server_url, ended
):
    from playwright.sync_api import expect

    for language, width, height in SIZES:
        context = reader(browser, live_server_url, language, width, height)
        try:
            page = context.new_page()
            page.goto(f"{live_server_url}/play/history/{ended['names'][0]}/")
            expect(page.locator("tr[data-match]")).to_have_count(4)
            how = page.locator("[data-part=how]")
            expect(how).to_have_count(4)
            if language == "en":
                for end in WORDS:
                    words = said(ended, end)[1][2]
                    expect(how.filter(has_text=words)).to_have_count(1)
                expect(how.filter(has_text=CALLED_OFF)).to_have_count(1)
            # the words stay inside the page at a phone's width (the table scrolls, not the page)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            SHOTS.mkdir(exist_ok=True)
            shot = SHOTS / f"results-words-history-{language}-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
        finally:
            context.close()


def an_end(reason: str, me: int | None, **changes: Any) -> dict[str, Any]:
    """What a page knows of a game's end (results.js's ``end``): by default Bruno (seat 1) won
    game 1 and with it the match, 0 points, for ``reason``; ``changes`` replace whole parts."""
    game_reason = "payoff_emptied" if reason == "target_reached" else reason
    end = {
        "number": 1,
        "names": ["Alice", "Bruno"],
        "me": me,
        "timeouts": 3,
        "outcome": {"winner": 1, "points": 0, "reason": game_reason},
        "match": {
            "over": True,
            "reason": reason,
            "winner": 1,
            "scores": [0, 0],
            "target": 10,
            "next_game": None,
        },
    }
    return {**end, **changes}


def case_list() -> list[tuple[str, dict[str, Any], str]]:
    """(results.js's function, the end, what it says)."""
    cases = []
    forfeits = {
        "resigned": ("You resigned", "Alice resigned"),
        "timeout": (
            "You ran out of time 3 turns in a row",
            "Alice ran out of time 3 turns in a row",
        ),
        "abandoned": (
            "You were away longer than the grace period",
            "Alice was away longer than the grace period",
        ),
    }
    for reason, (you, she) in forfeits.items():
        for me, words in (
            (0, f"{you}: Bruno wins the match."),
            (1, f"{she}: you win the match!"),
            (None, f"{she}: Bruno wins the match."),
        ):
            cases.append(("gameLine", an_end(reason, me), words))
            cases.append(("matchLine", an_end(reason, me), ""))  # the game's line said it
    aborted = an_end(
        "aborted",
        0,
        outcome={"winner": None, "points": 0, "reason": "aborted"},
        match={"over": True, "reason": "aborted", "winner": None, "scores": [0, 0]},
    )
    called_off = "The match was called off before both players had moved: no result, no points."
    cases += [
        ("gameTitle", aborted, "Game 1 aborted"),
        ("gameLine", aborted, called_off),
        ("matchLine", aborted, ""),
    ]
    won = an_end(
        "target_reached",
        1,
        outcome={"winner": 1, "points": 5, "reason": "payoff_emptied"},
        match={"over": True, "reason": "target_reached", "winner": 1, "scores": [3, 10]},
    )
    cases += [
        ("gameTitle", won, "You won game 1"),
        ("gameLine", won, "You emptied your pay-off pile: 5 points."),
        ("matchLine", won, "You won the match 10\u20133!"),
        (
            "endWords",
            {**won, "me": None},
            "Bruno emptied the pay-off pile: 5 points. Bruno won the match 10\u20133.",
        ),
    ]
    going_on = an_end(
        "",
        0,
        outcome={"winner": 1, "points": 5, "reason": "resigned"},
        match={"over": False, "reason": None, "winner": None, "scores": [0, 5], "target": 10},
    )
    cases += [
        ("gameTitle", going_on, "Bruno won game 1"),
        ("gameLine", going_on, "You resigned: 5 points to Bruno."),
        ("matchLine", going_on, "The match goes on: 0\u20135, first to 10."),
        ("endWords", {**going_on, "me": None}, "Alice resigned: 5 points to Bruno."),
    ]
    # game 1 of a match that Alice resigned later, in game 2: game 1's resignation stays its own
    early = an_end(
        "resigned",
        None,
        outcome={"winner": 1, "points": 5, "reason": "resigned"},
        match={"over": True, "reason": "resigned", "winner": 1, "scores": [5, 0], "next_game": 9},
    )
    cases += [
        ("gameLine", early, "Alice resigned: 5 points to Bruno."),
        ("matchLine", early, "Alice resigned: Bruno wins the match."),
    ]
    return cases


def test_results_js_says_every_end_from_every_seat(page, live_server_url, ended) -> None:
    """The module the table and the replay share, asked directly: each end from the loser's
    seat, the winner's and a spectator's; an abort, a match won at its target, a game that
    leaves the match going on, and an early game of a match resigned later."""
    page.goto(f"{live_server_url}/play/games/{ended['resigned']}/replay/")
    cases = case_list()
    said = page.evaluate(
        """async (cases) => {
          const results = await import("/static/js/results.js");
          return cases.map(([name, end]) => results[name](end));
        }""",
        [[name, end] for name, end, _words in cases],
    )
    assert said == [words for _name, _end, words in cases]
