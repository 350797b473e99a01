"""A league's recent results in words (``leagues.selectors.league_matches_recent`` with
``games.selectors.match_result_note``): a ranked match resigned or forfeited says who resigned,
ran out of time or left beside its score; one won at its target is told by its score; an
aborted one is no result and is not listed. The same lines serve a profile's latest ranked
matches."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.services import game_abort
from tests.games import clocks
from tests.games.clocks import forfeit_away, forfeit_on_time, ranked_league, ranked_match
from tests.leagues.conftest import resign_match, win_by_target

pytestmark = pytest.mark.django_db
fake_clock = clocks.fake_clock
_presence_knobs = clocks._presence_knobs

NAMES = ("Alice", "Bob")


def result_lines(client, path: str) -> dict[int, str]:
    """Each listed match's lines (match id: their texts, spaces squeezed, one after the other
    when a page lists the match twice)."""
    html = client.get(path).content.decode()
    lines: dict[int, str] = {}
    for pk, body in re.findall(r'<li data-match="(\d+)">(.*?)</li>', html, re.DOTALL):
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).strip()
        lines[int(pk)] = f"{lines.get(int(pk), '')} | {text}"
    return lines


def test_the_leagues_results_say_who_resigned_ran_out_of_time_or_left(
    settings, client, alice, bob, fake_clock
) -> None:
    settings.LEAGUES_RATED_PAIR_LIMIT = 10  # one pair plays every kind of ending here
    league = ranked_league("north")
    resigned = resign_match(ranked_match(league, alice, bob), alice)
    timed_out = ranked_match(league, alice, bob)
    loser = forfeit_on_time(timed_out, fake_clock)
    away = ranked_match(league, bob, alice)  # bob in seat 0
    forfeit_away(away, fake_clock, present=0)  # alice never came
    target = win_by_target(ranked_match(league, alice, bob), bob)
    aborted = ranked_match(league, alice, bob)
    game_abort(game_id=aborted.current_game.pk, user=alice)

    lines = result_lines(client, reverse("leagues:detail", args=[league.slug]))

    assert "Alice resigned: Bob wins the match." in lines[resigned.pk]
    assert "0\u20130" in lines[resigned.pk]  # the score stays, with the words beside it
    assert (
        f"{NAMES[loser]} ran out of time 3 turns in a row: {NAMES[1 - loser]} wins the match."
        in lines[timed_out.pk]
    )
    assert "Alice was away longer than the grace period: Bob wins the match." in lines[away.pk]
    assert "10\u20130" in lines[target.pk] and "wins the match" not in lines[target.pk]
    assert aborted.pk not in lines
    # a player's profile says it too: among the latest ranked matches, and the recent ones
    profile = result_lines(client, reverse("accounts:profile", args=["alice"]))
    assert profile[resigned.pk].count("Alice resigned: Bob wins the match.") == 2
