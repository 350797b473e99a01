"""Results in words on the pages the server renders (``games.selectors.results``): a match that
ends otherwise than at its target says who resigned, ran out of time, left or called it off, in
the player's history and in the replay, never a bare "Bob won the match" at 0 to 0; a replay
says how its game ended, and the match when that game ended it. The league's results: tests/leagues/
test_results.py; the live table's words: tests/browser/test_results_words.py."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import Game
from games.selectors import game_result, match_result_words
from games.services import game_abort, game_resign
from tests.games import clocks
from tests.games.clocks import forfeit_away, forfeit_on_time, game_of, ranked_league, ranked_match
from tests.games.helpers import SMALL, current_game

pytestmark = pytest.mark.django_db
fake_clock = clocks.fake_clock
_presence_knobs = clocks._presence_knobs

NAMES = ("Alice", "Bob")


def history_row(client, username: str, match) -> str:
    """The text of the match's line in ``username``'s history, spaces squeezed."""
    html = client.get(reverse("games:history", args=[username])).content.decode()
    row = re.search(rf'<tr data-match="{match.pk}".*?</tr>', html, re.DOTALL)
    assert row is not None
    return squeeze(row.group(0))


def replay_header(client, game: Game) -> str:
    html = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    found = re.search(r'<p class="muted" data-part="result">(.*?)</p>', html, re.DOTALL)
    assert found is not None
    return squeeze(found.group(1))


def replay_facts(client, game: Game) -> dict:
    html = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    found = re.search(r'<script id="replay-result" type="application/json">(.*?)</script>', html)
    assert found is not None
    return json.loads(found.group(1))


def squeeze(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_a_match_resigned_at_0_0_says_who_resigned(client, alice, bob) -> None:
    match = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game_resign(game_id=current_game(match).pk, user=alice, scope="match")
    words = "Alice resigned: Bob wins the match."

    row = history_row(client, "alice", match)
    assert "lost" in row and words in row
    assert words in history_row(client, "bob", match)
    header = replay_header(client, current_game(match))
    assert header == words  # no score to read as a win on points
    assert "won the match" not in header and "scoring" not in header


def test_a_match_forfeited_on_time_says_who_ran_out_of_time(
    client, alice, bob, seeds, fake_clock
) -> None:
    match = ranked_match(ranked_league(), alice, bob, starter=0, seeds=seeds)
    loser = forfeit_on_time(match, fake_clock)
    words = f"{NAMES[loser]} ran out of time 3 turns in a row: {NAMES[1 - loser]} wins the match."

    assert words in history_row(client, "alice", match)
    header = replay_header(client, game_of(match))
    assert header == words and "scoring" not in header
    facts = replay_facts(client, game_of(match))
    assert facts["outcome"] == {"winner": 1 - loser, "points": 0, "reason": "timeout"}
    assert facts["match"]["over"] and facts["match"]["next_game"] is None
    assert (facts["match"]["reason"], facts["timeouts"]) == ("timeout", 3)


def test_a_match_forfeited_for_absence_says_who_left(client, alice, bob, fake_clock) -> None:
    match = ranked_match(ranked_league(), alice, bob)
    forfeit_away(match, fake_clock, present=0)  # bob never came
    words = "Bob was away longer than the grace period: Alice wins the match."

    row = history_row(client, "alice", match)
    assert "won" in row and words in row
    assert replay_header(client, game_of(match)) == words


def test_an_aborted_match_says_it_was_called_off(client, alice) -> None:
    match = services.match_create(user=alice, bot="greedy", rules=SMALL)
    game_abort(game_id=current_game(match).pk, user=alice)
    words = "The match was called off before both players had moved: no result, no points."

    row = history_row(client, "alice", match)
    assert "aborted" in row and words in row
    assert replay_header(client, current_game(match)) == words


def test_a_match_won_at_its_target_is_told_by_its_score(client, alice, bob) -> None:
    """Two resigned games bring Alice to the target: the history's scores say it all; each
    replay says how its game ended, the last one the match too."""
    match = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game_resign(game_id=current_game(match).pk, user=bob, scope="game")
    game_resign(game_id=current_game(match).pk, user=bob, scope="game")
    first, last = Game.objects.filter(match=match).order_by("number")

    row = history_row(client, "alice", match)
    assert "won" in row and "10\u20130" in row and "wins the match" not in row
    assert replay_header(client, first) == (
        "Bob resigned: 5 points to Alice. Match score now 10\u20130."
    )
    assert replay_header(client, last) == (
        "Bob resigned: 5 points to Alice. Alice won the match 10\u20130."
    )
    assert replay_facts(client, first)["match"]["next_game"] == last.pk


def test_a_game_resigned_in_a_match_that_goes_on(client, alice, bob) -> None:
    match = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game = current_game(match)
    game_resign(game_id=game.pk, user=alice, scope="game")
    game.refresh_from_db()

    assert replay_header(client, game) == (
        "Alice resigned: 5 points to Bob. Match score now 0\u20135."
    )
    assert history_row(client, "alice", match).count("resigned") == 0  # in progress


def test_the_words_are_in_the_readers_language_with_latin_digits(alice, bob, fake_clock) -> None:
    match = ranked_match(ranked_league(), alice, bob)
    forfeit_on_time(match, fake_clock)
    match.refresh_from_db()
    with translation.override("bn"):
        words = match_result_words(match)
        result = game_result(game_of(match))
    assert "3" in words and "৩" not in words  # Latin digits (docs/i18n.md)
    assert result.words == words and result.match_words == ""
