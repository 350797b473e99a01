"""Whole tournaments of each format played by the engine's bots through the services (small
knobs), then their standings, tie-breaks and ratings; withdrawals, no-shows, an admin's
correction with the ratings recomputed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Q

from core.errors import GameError
from games.models import Match
from leagues.models import Entry, Membership, RatingChange, Round, Tournament, TournamentMatch
from leagues.services import league_ratings_recompute
from leagues.tournaments import Entrant, round_robin_standings, swiss_standings
from leagues.tournaments import selectors as tsel
from leagues.tournaments import services as ts
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _inline_bots(settings):
    settings.JOBS_INLINE = False


def field(league, n: int) -> list:
    users = [UserFactory(username=f"p{i}", display_name=f"P{i}") for i in range(1, n + 1)]
    for i, user in enumerate(users):
        join(league, user, rating=1600 - 20 * i)
    return users


def running(league, users, fmt: str, **fields) -> Tournament:
    t = ts.tournament_create(
        league=league, name=f"{fmt} cup", slug=f"{fmt}-cup", format=fmt, **fields
    )
    ts.tournament_open_registration(tournament=t)
    for user in users:
        ts.tournament_register(tournament=t, user=user)
    return ts.tournament_start(tournament=t)


def rated_matches(league) -> int:
    return Match.objects.filter(league=league, ranked=True, status=Match.Status.FINISHED).count()


def snapshot(league) -> dict[int, tuple[float, float, float, int, int]]:
    return {
        m.user_id: (
            round(m.rating, 6),
            round(m.deviation, 6),
            round(m.volatility, 8),
            m.wins,
            m.matches,
        )
        for m in Membership.objects.filter(league=league)
    }


def pure_entrants(t: Tournament) -> list[Entrant]:
    return [Entrant(e.user_id, e.seed_rating) for e in t.entries.all()]


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_a_whole_swiss_of_five_with_a_bye_each_round(league):
    users = field(league, 5)
    t = running(league, users, "swiss", rounds=3)
    assert t.current_round == 1 and t.status == Tournament.Status.RUNNING
    ts.tournament_autoplay(tournament=t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.finished_at is not None
    assert t.round_set.count() == 3
    assert not t.round_set.filter(status=Round.Status.OPEN).exists()
    pairings = TournamentMatch.objects.filter(round__tournament=t)
    assert pairings.filter(source=TournamentMatch.Source.BYE).count() == 3
    byes = list(pairings.filter(source="bye").values_list("first_id", flat=True))
    assert len(set(byes)) == 3  # nobody gets a second bye while avoidable
    pairs = [frozenset((p.first_id, p.second_id)) for p in pairings if p.second_id]
    assert len(pairs) == len(set(pairs)) == 6  # no rematch
    for p in pairings.exclude(source="bye"):
        assert p.source == "played" and p.match.status == Match.Status.FINISHED
        assert p.winner_id == p.match.user_id_at(p.match.winner)
        assert p.match.ranked and p.match.target == 10
    # standings are the pure standings of the recorded results
    history = [ts.result_of(p) for p in pairings]
    expected = swiss_standings(pure_entrants(t), history)
    rows = tsel.tournament_standings(t)
    assert [r.user.pk for r in rows] == [s.id for s in expected]
    assert [(r.points, r.buchholz, r.sonneborn_berger) for r in rows] == [
        (s.points, s.buchholz, s.sonneborn_berger) for s in expected
    ]
    assert sum(r.points for r in rows) == 6 + 3
    # ratings: two RatingChange rows per rated match, and a fresh replay gives the same
    assert rated_matches(league) == 6
    assert RatingChange.objects.filter(match__league=league).count() == 12
    before = snapshot(league)
    assert league_ratings_recompute(league=league) == 6
    assert snapshot(league) == before


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_a_whole_round_robin_of_four_and_its_own_target(league):
    users = field(league, 4)
    t = running(league, users, "round_robin", match_target=6)  # the league's is 10
    ts.tournament_autoplay(tournament=t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert t.round_set.count() == 3
    pairings = list(TournamentMatch.objects.filter(round__tournament=t))
    assert len(pairings) == 6
    assert {frozenset((p.first_id, p.second_id)) for p in pairings} == {
        frozenset((a.pk, b.pk)) for i, a in enumerate(users) for b in users[i + 1 :]
    }
    for p in pairings:
        assert p.match.target == 6 and p.match.rules["match_target"] == 6
        assert max(p.match.scores) >= 6
    expected = round_robin_standings(pure_entrants(t), [ts.result_of(p) for p in pairings])
    rows = tsel.tournament_standings(t)
    assert [r.user.pk for r in rows] == [r.id for r in expected]
    assert [(r.sonneborn_berger, r.head_to_head) for r in rows] == [
        (r.sonneborn_berger, r.head_to_head) for r in expected
    ]
    assert RatingChange.objects.filter(match__league=league).count() == 12


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_a_whole_elimination_of_six_seeded_by_rating_with_byes(league):
    users = field(league, 6)  # p1 rated highest
    t = running(league, users, "elimination", ranked=False, match_target=5)
    first = list(t.round_set.get(number=1).pairings.all())
    assert len(first) == 4
    byes = {p.first_id for p in first if p.second_id is None}
    assert byes == {users[0].pk, users[1].pk}  # the top two seeds
    ts.tournament_autoplay(tournament=t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.round_set.count() == 3
    bracket = tsel.tournament_bracket(t)
    assert bracket.champion is not None
    final = t.round_set.get(number=3).pairings.get()
    assert final.winner_id == bracket.champion
    rows = tsel.tournament_standings(t)
    assert rows[0].user.pk == bracket.champion and rows[0].reached == "champion"
    assert rows[1].reached == "final"
    # not ranked: casual matches, no rating moved
    assert not Match.objects.filter(league=league, ranked=True).exists()
    assert not RatingChange.objects.exists()


def test_registration_rules_and_lifecycle(league, alice, bob, carol):
    join(league, alice)
    join(league, bob, status=Membership.Status.PENDING)
    t = ts.tournament_create(league=league, name="Cup", slug="cup", format="swiss")
    with pytest.raises(GameError):  # still a draft
        ts.tournament_register(tournament=t, user=alice)
    ts.tournament_open_registration(tournament=t)
    with pytest.raises(GameError):
        ts.tournament_open_registration(tournament=t)
    ts.tournament_register(tournament=t, user=alice)
    with pytest.raises(GameError, match="approval"):
        ts.tournament_register(tournament=t, user=bob)
    with pytest.raises(GameError, match="not a member"):
        ts.tournament_register(tournament=t, user=carol)
    with pytest.raises(GameError, match="two entrants"):
        ts.tournament_start(tournament=t)
    ts.tournament_withdraw(tournament=t, user=alice)
    assert not Entry.objects.filter(tournament=t).exists()


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_a_withdrawal_in_a_round_robin_forfeits_the_remaining_games(league):
    users = field(league, 4)
    t = running(league, users, "round_robin", match_target=5)
    ts.tournament_autoplay(tournament=t, rounds=1)
    t.refresh_from_db()
    assert t.current_round == 2
    quitter = users[3]
    ts.tournament_withdraw(tournament=t, user=quitter)
    ts.tournament_autoplay(tournament=t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    later = TournamentMatch.objects.filter(round__tournament=t, round__number__gte=2)
    theirs = [p for p in later if quitter.pk in (p.first_id, p.second_id)]
    assert len(theirs) == 2
    assert all(p.forfeit and p.winner_id != quitter.pk for p in theirs)
    row = next(r for r in tsel.tournament_standings(t) if r.user.pk == quitter.pk)
    assert row.withdrawn


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_swiss_withdrawn_player_is_not_paired_again(league):
    users = field(league, 4)
    t = running(league, users, "swiss", rounds=3, match_target=5)
    ts.tournament_autoplay(tournament=t, rounds=1)
    ts.tournament_withdraw(tournament=t, user=users[0])  # round 2 is paired already
    second = TournamentMatch.objects.get(
        Q(first=users[0]) | Q(second=users[0]), round__tournament=t, round__number=2
    )
    assert second.forfeit and second.winner_id not in (None, users[0].pk)
    ts.tournament_autoplay(tournament=t)
    later = TournamentMatch.objects.filter(round__tournament=t, round__number=3)
    assert later.count() == 2  # three active players: one game and a bye
    assert all(users[0].pk not in (p.first_id, p.second_id) for p in later)


def test_no_shows_forfeit_after_the_time_limit(league):
    users = field(league, 2)
    t = running(league, users, "swiss", rounds=1)
    pairing = TournamentMatch.objects.get(round__tournament=t)
    assert ts.tournament_forfeit_no_shows(tournament=t) == 0  # not late yet
    late = pairing.match.created_at + timedelta(seconds=league.turn_time_limit + 1)
    assert ts.tournament_forfeit_no_shows(tournament=t, now=late) == 1
    pairing.refresh_from_db()
    assert pairing.forfeit and pairing.winner_id is None  # neither moved: double forfeit
    assert pairing.match.status == Match.Status.ABORTED
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert not RatingChange.objects.exists()


def test_a_no_show_against_one_who_moved(league):
    users = field(league, 2)
    t = running(league, users, "swiss", rounds=1)
    pairing = TournamentMatch.objects.get(round__tournament=t)
    match = pairing.match
    game = match.current_game
    import engine
    from games.services import game_play_move

    state = engine.Game.from_dict(game.state)
    mover = state.to_move
    move = engine.bot("greedy", seed=1).choose(state, mover)
    game_play_move(game_id=game.pk, move=move.text, version=game.version, user=match.user_at(mover))
    late = match.created_at + timedelta(seconds=league.turn_time_limit + 1)
    assert ts.tournament_forfeit_no_shows(tournament=t, now=late) == 1
    pairing.refresh_from_db()
    assert pairing.forfeit and pairing.winner_id == match.user_id_at(mover)


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_an_admin_correction_recomputes_the_ratings(league):
    users = field(league, 4)
    t = running(league, users, "swiss", rounds=2, match_target=5)
    ts.tournament_autoplay(tournament=t)
    first = TournamentMatch.objects.filter(round__tournament=t, round__number=1).first()
    loser = first.second_id if first.winner_id == first.first_id else first.first_id
    ts.pairing_result_set(pairing=first, winner_id=loser, correction=True)
    first.refresh_from_db()
    assert first.winner_id == loser and first.source == "admin"
    assert first.match.user_id_at(first.match.winner) == loser
    assert RatingChange.objects.filter(match__league=league).count() == 8
    corrected = snapshot(league)
    league_ratings_recompute(league=league)  # a fresh replay gives the same
    assert snapshot(league) == corrected
    change = RatingChange.objects.get(match=first.match, membership__user_id=loser)
    assert change.score == 1.0
    rows = tsel.tournament_standings(t)
    history = [ts.result_of(p) for p in TournamentMatch.objects.filter(round__tournament=t)]
    assert [r.user.pk for r in rows] == [s.id for s in swiss_standings(pure_entrants(t), history)]
