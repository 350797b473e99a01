"""games.hooks: the apps above games hear that a match finished, and decide ranked matches,
through listeners they register; a listener that fails never refuses the move that finished
the match, and its failure is logged."""

from __future__ import annotations

import logging

import pytest

from core.errors import GameError
from games import hooks, services
from games.models import Match
from leagues.models import RatingChange, Round, TournamentMatch
from leagues.tournaments import services as tournaments
from tests.accounts.factories import UserFactory
from tests.games.helpers import SMALL, current_game
from tests.leagues.conftest import join, make_league, play_turns

pytestmark = pytest.mark.django_db


def test_the_leagues_app_fills_in_the_listeners() -> None:
    from leagues import services as leagues

    assert hooks._ranked_terms == [leagues.ranked_terms]
    in_transaction, on_commit = hooks._finished
    assert leagues.match_rate in in_transaction
    assert tournaments.tournament_match_finished in in_transaction
    assert on_commit == [tournaments.tournament_round_close_after]
    assert hooks._aborted == (
        [tournaments.tournament_match_aborted],
        [tournaments.tournament_round_close_after],
    )


def test_with_no_listener_no_match_is_ranked(monkeypatch, alice, bob) -> None:
    monkeypatch.setattr(hooks, "_ranked_terms", [])
    with pytest.raises(GameError) as refused:
        services.match_create_between(user0=alice, user1=bob, rules=SMALL, ranked=True)
    assert refused.value.code == "forbidden"
    assert not Match.objects.exists()


def test_a_failing_listener_is_logged_and_the_match_still_ends(
    monkeypatch, caplog, alice, bob
) -> None:
    league = make_league()
    join(league, alice)
    join(league, bob)
    match = services.match_create_between(
        user0=alice, user1=bob, rules=SMALL, ranked=True, league=league
    )
    heard: list[int] = []

    def broken(match: Match) -> None:
        Match.objects.filter(pk=match.pk).update(target=999)  # rolled back with its savepoint
        raise RuntimeError("the listener broke")

    in_transaction = [broken, *hooks._finished[0]]
    monkeypatch.setattr(hooks, "_finished", (in_transaction, [lambda m: heard.append(m.pk)]))
    play_turns(match)  # enough for the match to be rated
    with caplog.at_level(logging.ERROR, logger="games.hooks"):
        services.game_resign(game_id=current_game(match).pk, user=alice, scope="match")
    match.refresh_from_db()
    assert (match.status, match.winner, match.target) == ("finished", 1, SMALL.match_target)
    assert "failed for the finished match" in caplog.text and "the listener broke" in caplog.text
    assert RatingChange.objects.filter(match=match).count() == 2  # the next listener still ran
    assert heard == []  # the test's transaction never commits: nothing ran after it


def test_an_on_commit_listener_runs_after_the_commit_and_its_failure_is_logged(
    monkeypatch, caplog, django_capture_on_commit_callbacks, alice, bob
) -> None:
    match = services.match_create_between(user0=alice, user1=bob, rules=SMALL)

    def broken(match: Match) -> None:
        raise RuntimeError("pairing the next round broke")

    monkeypatch.setattr(hooks, "_finished", (hooks._finished[0], [broken]))
    with (
        caplog.at_level(logging.ERROR, logger="games.hooks"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        ended = services.game_resign(game_id=current_game(match).pk, user=bob, scope="match")
    assert ended.match.status == "finished"
    assert Match.objects.get(pk=match.pk).status == "finished"
    assert "the match stays finished" in caplog.text


def test_a_tournament_round_that_cannot_be_paired_never_refuses_the_last_move(
    monkeypatch, caplog, django_capture_on_commit_callbacks, settings
) -> None:
    settings.JOBS_INLINE = False
    league = make_league()
    players = [UserFactory(username=f"t{i}") for i in range(4)]
    for user in players:
        join(league, user)
    t = tournaments.tournament_create(league=league, name="Cup", slug="cup", format="swiss")
    tournaments.tournament_open_registration(tournament=t)
    for user in players:
        tournaments.tournament_register(tournament=t, user=user)
    tournaments.tournament_start(tournament=t)
    first = Round.objects.get(tournament=t, number=1)
    pairings = list(first.pairings.select_related("match"))

    def broken(**kwargs: object) -> bool:
        raise RuntimeError("no pairing is possible")

    monkeypatch.setattr(tournaments, "tournament_round_close", broken)
    with (
        caplog.at_level(logging.ERROR, logger="games.hooks"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        for pairing in pairings:
            loser = pairing.match.user0
            services.game_resign(game_id=current_game(pairing.match).pk, user=loser, scope="match")
    assert all(
        p.source == TournamentMatch.Source.PLAYED
        for p in TournamentMatch.objects.filter(round=first)
    )
    assert Match.objects.filter(status="finished").count() == len(pairings)
    assert "no pairing is possible" in caplog.text
    first.refresh_from_db()
    assert first.status == Round.Status.OPEN  # left for an admin to close
