"""Tournament standings and tie-breaks: Swiss (Buchholz, Sonneborn-Berger) and round robin."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.tournaments import (
    Entrant,
    Result,
    forfeits_for_withdrawn,
    round_robin_schedule,
    round_robin_standings,
    swiss_pairings,
    swiss_standings,
)

A, B, C, D = 1, 2, 3, 4
FIELD = [Entrant(A, 1600), Entrant(B, 1500), Entrant(C, 1400), Entrant(D, 1300)]


def test_swiss_four_players_three_rounds_by_hand() -> None:
    history = [
        # round 1
        Result(A, D, A),
        Result(B, C, B),
        # round 2
        Result(B, A, A),
        Result(C, D, C),
        # round 3
        Result(C, A, C),
        Result(B, D, None),  # a draw
    ]
    # points: A 2 (W W L), B 1.5 (W L D), C 2 (L W W), D 0.5 (L L D)
    # Buchholz (opponents' points): A = D + B + C = 0.5 + 1.5 + 2 = 4
    #                               C = B + D + A = 1.5 + 0.5 + 2 = 4
    #                               B = C + A + D = 2 + 2 + 0.5 = 4.5
    #                               D = A + C + B = 2 + 2 + 1.5 = 5.5
    # Sonneborn-Berger (beaten opponents' points + half the drawn ones'):
    #   A = D + B = 0.5 + 1.5 = 2;  C = D + A = 0.5 + 2 = 2.5
    #   B = C + D / 2 = 2 + 0.25 = 2.25;  D = B / 2 = 0.75
    # A and C tie on points and Buchholz: Sonneborn-Berger puts C, rated lower, first.
    rows = swiss_standings(FIELD, history)
    table = [(r.rank, r.id, r.points, r.buchholz, r.sonneborn_berger) for r in rows]
    assert table == [
        (1, C, 2.0, 4.0, 2.5),
        (2, A, 2.0, 4.0, 2.0),
        (3, B, 1.5, 4.5, 2.25),
        (4, D, 0.5, 5.5, 0.75),
    ]
    assert [(r.wins, r.losses, r.draws, r.byes) for r in rows] == [
        (2, 1, 0, 0),
        (2, 1, 0, 0),
        (1, 1, 1, 0),
        (0, 2, 1, 0),
    ]


def test_swiss_a_bye_scores_a_point_and_adds_nothing_to_the_tie_breaks() -> None:
    field = FIELD[:3]
    history = [Result(A, B, A), Result.bye(C), Result(C, A, C), Result.bye(B)]
    # points: A 1, B 1 (the bye), C 2 (a win and the bye)
    # Buchholz: A = B + C = 3; B = A + (bye: nothing) = 1; C = A + (bye: nothing) = 1
    # Sonneborn-Berger: A = B = 1; B = 0; C = A = 1
    rows = swiss_standings(field, history)
    table = [(r.id, r.points, r.buchholz, r.sonneborn_berger, r.byes, r.wins) for r in rows]
    assert table == [(C, 2.0, 1.0, 1.0, 1, 1), (A, 1.0, 3.0, 1.0, 0, 1), (B, 1.0, 1.0, 0.0, 1, 0)]


def test_swiss_forfeits_count_as_results_and_a_double_forfeit_as_two_losses() -> None:
    history = [
        Result(A, B, A, forfeit=True),  # B did not show
        Result(C, D, None, forfeit=True),  # neither did
    ]
    rows = {r.id: r for r in swiss_standings(FIELD, history)}
    assert (rows[A].points, rows[A].wins, rows[A].buchholz) == (1.0, 1, 0.0)
    assert (rows[B].points, rows[B].losses, rows[B].buchholz) == (0.0, 1, 1.0)
    assert (rows[C].points, rows[C].losses) == (0.0, 1)
    assert (rows[D].points, rows[D].losses) == (0.0, 1)
    assert [r.id for r in swiss_standings(FIELD, history)] == [A, B, C, D]


def test_swiss_full_ties_fall_back_to_rating_then_id() -> None:
    field = [Entrant(5, 1500), Entrant(3, 1500), Entrant(9, 1700), Entrant(1, 1400)]
    assert [r.id for r in swiss_standings(field, [])] == [9, 3, 5, 1]
    assert [r.rank for r in swiss_standings(field, [])] == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="not an entrant"):
        swiss_standings(field, [Result(5, 2, 5)])
    with pytest.raises(ValueError, match="twice"):
        swiss_standings([*field, Entrant(5, 1000)], [])


@given(st.integers(2, 16), st.randoms(use_true_random=False))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_swiss_standings_are_consistent(n: int, rng: random.Random) -> None:
    field = [Entrant(i, rng.randint(1000, 2000)) for i in range(1, n + 1)]
    history: list[Result] = []
    rounds = min(n - 1, 5) if n > 2 else 1
    for _ in range(rounds):
        for p in swiss_pairings(field, history):
            if p.second is None:
                history.append(Result.bye(p.first))
            else:
                history.append(Result(p.first, p.second, rng.choice(p.players)))
    rows = swiss_standings(field, history)
    # every game hands out exactly one point, every bye one point
    assert sum(r.points for r in rows) == len(history)
    assert all(r.wins + r.losses + r.draws + r.byes == rounds for r in rows)
    keys = [(-r.points, -r.buchholz, -r.sonneborn_berger) for r in rows]
    assert keys == sorted(keys)
    assert [r.rank for r in rows] == list(range(1, n + 1))
    points = {r.id: r.points for r in rows}
    for r in rows:
        opponents = [g.opponent(r.id) for g in history if r.id in g.players and g.second]
        assert r.buchholz == sum(points[o] for o in opponents if o is not None)
        assert 0 <= r.sonneborn_berger <= r.buchholz


def test_round_robin_standings_points_then_sonneborn_berger_then_head_to_head() -> None:
    field = [Entrant(i, 1600 - 10 * i) for i in range(1, 6)]
    winners = {
        (1, 2): 1,
        (1, 3): 1,
        (1, 4): 1,
        (1, 5): 5,
        (2, 3): 2,
        (2, 4): 4,
        (2, 5): 2,
        (3, 4): 4,
        (3, 5): 3,
        (4, 5): 5,
    }
    results = []
    for rnd in round_robin_schedule([1, 2, 3, 4, 5]):
        for p in rnd:
            if p.second is None:
                results.append(Result.bye(p.first))  # a rest round: ignored
            else:
                pair = (min(p.players), max(p.players))
                results.append(Result(p.first, p.second, winners[pair]))
    # points: 1 = 3; 2, 4, 5 = 2; 3 = 1
    # Sonneborn-Berger: 1 = 2 + 1 + 2 = 5; 5 = 1 (3) + 4 (2) = 5; 4 = 2 + 1 = 3; 2 = 1 + 2 = 3
    # 4 and 2 tie on both: 4 beat 2, so 4 is ahead despite the lower rating
    rows = round_robin_standings(field, results)
    table = [(r.rank, r.id, r.points, r.sonneborn_berger, r.head_to_head) for r in rows]
    assert table == [
        (1, 1, 3.0, 5.0, 0.0),
        (2, 5, 2.0, 5.0, 0.0),
        (3, 4, 2.0, 3.0, 1.0),
        (4, 2, 2.0, 3.0, 0.0),
        (5, 3, 1.0, 2.0, 0.0),
    ]
    assert all(r.games == 4 and r.wins + r.losses == 4 for r in rows)


def test_round_robin_standings_with_a_withdrawal() -> None:
    field = [Entrant(i, 1600 - 10 * i) for i in range(1, 5)]
    schedule = round_robin_schedule([1, 2, 3, 4])
    # round one is played (the first-seated player wins), then player 4 withdraws
    results = [Result(p.first, p.second, p.first) for p in schedule[0] if p.second]
    for rnd in schedule[1:]:
        forfeits = forfeits_for_withdrawn(rnd, {4})
        results.extend(forfeits)
        played = {frozenset(r.players) for r in forfeits}
        results.extend(
            Result(p.first, p.second, min(p.players))
            for p in rnd
            if p.second and frozenset(p.players) not in played
        )
    rows = {r.id: r for r in round_robin_standings(field, results)}
    assert all(rows[i].games == 3 for i in rows)
    assert rows[4].losses >= 2  # the two games after the withdrawal are forfeited
    assert sum(r.points for r in rows.values()) == 6.0
    assert sum(1 for r in results if r.forfeit) == 2
