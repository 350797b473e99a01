"""Tournament pairings: round robin, single elimination and Swiss (leagues.tournaments)."""

import ast
import itertools
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.tournaments import (
    Entrant,
    Pairing,
    Result,
    bracket_order,
    bracket_size,
    elimination_bracket,
    elimination_first_round,
    elimination_next_round,
    elimination_winners,
    forfeits_for_withdrawn,
    round_robin_schedule,
    seeding,
    swiss_pairings,
)

PACKAGE = Path(__file__).resolve().parents[3] / "leagues" / "tournaments"
FORBIDDEN = {"django", "channels", "rest_framework", "spite", "accounts", "games", "lobby"}
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def entrants(n: int, base: int = 1500) -> list[Entrant]:
    """n players, ids 1..n, id 1 rated highest (so seed s is player s)."""
    return [Entrant(i, base - 10 * i) for i in range(1, n + 1)]


# ---------------------------------------------------------------------------------- the package


def test_the_package_imports_no_django_nor_the_site() -> None:
    # The pure modules; services.py and selectors.py beside them are the Django side.
    files = [PACKAGE / name for name in ("__init__.py", "pairing.py", "standings.py")]
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        roots: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots.add(node.module.split(".")[0])
        assert not roots & FORBIDDEN, f"{path.name} imports {sorted(roots & FORBIDDEN)}"
    code = (
        "import sys, leagues.tournaments\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r})\n"
        "sys.exit(1 if bad else 0)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=PACKAGE.parents[1], capture_output=True, timeout=60
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_results_validate_and_score() -> None:
    assert Result(1, 2, 1).points(1) == 1.0 and Result(1, 2, 1).points(2) == 0.0
    assert Result(1, 2, None).points(1) == 0.5 and Result(1, 2, None).is_draw
    double = Result(1, 2, None, forfeit=True)
    assert double.is_double_forfeit and not double.is_draw
    assert double.points(1) == double.points(2) == 0.0
    assert Result.bye(3).points(3) == 1.0 and Result.bye(3).opponent(3) is None
    with pytest.raises(ValueError):
        Result(1, 2, 3)
    with pytest.raises(ValueError):
        Result(1, 1, 1)
    with pytest.raises(ValueError):
        Result(1, None, None)
    with pytest.raises(ValueError):
        Result(1, 2, 1).points(3)
    with pytest.raises(ValueError):
        Pairing(4, 4)


def test_seeding_by_explicit_order_then_rating_then_id() -> None:
    field = [
        Entrant(1, 1500),
        Entrant(2, 1700),
        Entrant(3, 1500),
        Entrant(4, 1200, seed_order=2),
        Entrant(5, 1000, seed_order=1),
    ]
    assert seeding(field) == [5, 4, 2, 1, 3]
    with pytest.raises(ValueError):
        seeding([Entrant(1, 1500), Entrant(1, 1600)])


# ---------------------------------------------------------------------------------- round robin


def longest_run(seats: list[int]) -> int:
    return max(len(list(group)) for _, group in itertools.groupby(seats))


@given(st.lists(st.integers(-10_000, 10_000), min_size=2, max_size=12, unique=True))
@SETTINGS
def test_round_robin_every_pair_exactly_once(ids: list[int]) -> None:
    n = len(ids)
    schedule = round_robin_schedule(ids)
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    pairs = Counter(frozenset(p.players) for rnd in schedule for p in rnd if p.second is not None)
    assert set(pairs) == {frozenset(pair) for pair in itertools.combinations(ids, 2)}
    assert set(pairs.values()) == {1}
    byes: Counter[int] = Counter()
    seats: dict[int, list[int]] = {i: [] for i in ids}
    for rnd in schedule:
        in_round = [x for p in rnd for x in p.players]
        assert sorted(in_round) == sorted(ids)  # everyone exactly once: a game or the bye
        round_byes = [p.first for p in rnd if p.second is None]
        assert len(round_byes) == n % 2
        assert all(p.second is not None for p in rnd[: len(rnd) - len(round_byes)])  # byes last
        byes.update(round_byes)
        for p in rnd:
            if p.second is not None:
                seats[p.first].append(1)
                seats[p.second].append(0)
    assert byes == (Counter(ids) if n % 2 else Counter())
    for player, history in seats.items():
        firsts, seconds = history.count(1), history.count(0)
        assert abs(firsts - seconds) <= (0 if n % 2 else 1), player
        assert longest_run(history) <= 2, player


def test_round_robin_small_fields_and_duplicates() -> None:
    assert round_robin_schedule([]) == [] and round_robin_schedule([7]) == []
    assert round_robin_schedule([7, 9]) == [[Pairing(7, 9)]]
    with pytest.raises(ValueError):
        round_robin_schedule([1, 2, 1])


def test_round_robin_withdrawn_player_forfeits_the_rest() -> None:
    schedule = round_robin_schedule([1, 2, 3, 4, 5])
    # player 5 withdraws after two rounds: their games in the later rounds are forfeits
    later = [p for rnd in schedule[2:] for p in rnd]
    forfeits = forfeits_for_withdrawn(later, {5})
    games_of_5 = [p for p in later if 5 in p.players and p.second is not None]
    assert len(forfeits) == len(games_of_5)
    for r in forfeits:
        assert r.forfeit and r.winner == r.opponent(5) and r.winner is not None
    both = forfeits_for_withdrawn([Pairing(4, 5), Pairing(1, 2), Pairing(3, None)], {4, 5})
    assert both == [Result(4, 5, None, forfeit=True)]


# ---------------------------------------------------------------------------------- elimination


def test_bracket_order_is_the_standard_one() -> None:
    assert bracket_order(1) == [1]
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16)[:8] == [1, 16, 8, 9, 4, 13, 5, 12]
    with pytest.raises(ValueError):
        bracket_order(6)


@pytest.mark.parametrize("n", range(2, 34))
def test_elimination_first_round_byes_to_the_top_seeds(n: int) -> None:
    field = entrants(n)  # player s is seed s
    size = bracket_size(n)
    assert size >= n > size // 2 and size & (size - 1) == 0
    first = elimination_first_round(field)
    assert len(first) == size // 2
    assert sorted(x for p in first for x in p.players) == list(range(1, n + 1))
    byes = sorted(p.first for p in first if p.second is None)
    assert byes == list(range(1, size - n + 1))  # exactly the top seeds
    for p in first:
        if p.second is not None:
            assert p.first + p.second == size + 1 and p.first < p.second  # 1 v N, better first
    # seeds 1 and 2 in opposite halves, the top four in different quarters
    slots = [x for p in first for x in (p.first, p.second)]
    half = size // 2
    assert 1 in slots[:half] and 2 in slots[half:]
    if size >= 4:
        quarters = [slots[q * size // 4 : (q + 1) * size // 4] for q in range(4)]
        assert all(sum(s in quarter for s in (1, 2, 3, 4)) <= 1 for quarter in quarters)


def play_out(
    field: list[Entrant], winner_of: "random.Random | None" = None
) -> tuple[list[list[Pairing | None]], list[list[Result]]]:
    """Rounds and results until the final: the better seed wins unless a Random is given."""
    rank = {pid: i for i, pid in enumerate(seeding(field))}
    rounds: list[list[Pairing | None]] = [list(elimination_first_round(field))]
    results: list[list[Result]] = []
    while True:
        round_results = []
        for p in rounds[-1]:
            if p is None or p.second is None:
                continue
            if winner_of is None:
                w = min(p.players, key=rank.__getitem__)
            else:
                w = winner_of.choice(p.players)
            round_results.append(Result(p.first, p.second, w))
        results.append(round_results)
        if len(rounds[-1]) == 1:
            return rounds, results
        rounds.append(elimination_next_round(rounds[-1], round_results))


@pytest.mark.parametrize("n", range(2, 34))
def test_elimination_favourites_win_gives_the_textbook_bracket(n: int) -> None:
    field = entrants(n)
    rounds, results = play_out(field)
    size = bracket_size(n)
    assert len(rounds) == size.bit_length() - 1  # log2(size) rounds
    final = rounds[-1][0]
    assert final is not None and final.players == (1, 2)
    if n >= 4:
        semis = rounds[-2]
        assert [p.players for p in semis if p is not None] == [(1, 4), (2, 3)]
    bracket = elimination_bracket(field, results)
    assert bracket.champion == 1 and bracket.size == size
    assert bracket.seeds == tuple(range(1, n + 1))
    assert [len(r) for r in bracket.rounds] == [size >> (k + 1) for k in range(len(rounds))]
    for drawn, paired in zip(bracket.rounds, rounds, strict=True):
        assert [(m.first, m.second) for m in drawn] == [
            (p.first, p.second) if p is not None else (None, None) for p in paired
        ]
        assert all(m.state in ("played", "bye") and m.winner is not None for m in drawn)


@given(st.integers(2, 40), st.randoms(use_true_random=False))
@SETTINGS
def test_elimination_winners_advance_in_bracket_order(n: int, rng: random.Random) -> None:
    field = entrants(n)
    rounds, results = play_out(field, rng)
    for k in range(1, len(rounds)):
        previous = rounds[k - 1]
        winners = elimination_winners(previous, results[k - 1])
        # each advancing player is a winner of that round, in order, upper match first
        assert [x for p in rounds[k] if p is not None for x in p.players] == winners
        for j, p in enumerate(rounds[k]):
            assert p is not None
            assert (p.first, p.second) == (winners[2 * j], winners[2 * j + 1])
    champion = elimination_winners(rounds[-1], results[-1])
    assert len(champion) == 1
    bracket = elimination_bracket(field, results)
    assert bracket.champion == champion[0]
    alive = set(range(1, n + 1))
    for rnd, rnd_results in zip(rounds, results, strict=True):
        assert all(x in alive for p in rnd if p is not None for x in p.players)
        for r in rnd_results:
            assert r.winner is not None
            alive.discard(r.opponent(r.winner))  # the loser is out
    assert alive == {champion[0]}


def test_elimination_bracket_in_progress_shows_tbd_and_pending() -> None:
    field = entrants(6)  # size 8: seeds 1 and 2 have byes
    first = elimination_first_round(field)
    assert first == [Pairing(1, None), Pairing(4, 5), Pairing(2, None), Pairing(3, 6)]
    bracket = elimination_bracket(field, [[Result(4, 5, 5)]])
    r0, r1, r2 = bracket.rounds
    assert [m.state for m in r0] == ["bye", "played", "bye", "pending"]
    assert r0[1].winner == 5 and r0[3].winner is None
    assert (r1[0].first, r1[0].second, r1[0].state) == (1, 5, "pending")
    assert (r1[1].first, r1[1].second, r1[1].state) == (2, None, "tbd")
    assert r2[0].state == "tbd" and bracket.champion is None
    with pytest.raises(ValueError, match="no result yet"):
        elimination_next_round(first, [Result(4, 5, 5)])
    with pytest.raises(ValueError, match="never made"):
        elimination_bracket(field, [[Result(1, 2, 1)]])


def test_elimination_withdrawals_and_double_forfeits() -> None:
    field = entrants(8)
    first = elimination_first_round(field)  # 1-8, 4-5, 2-7, 3-6
    # 8 withdraws before playing: a walkover for 1. 4-5 is a double forfeit. 2 and 3 win.
    results = [Result(4, 5, None, forfeit=True), Result(2, 7, 2), Result(3, 6, 3)]
    assert elimination_winners(first, results, {8}) == [1, None, 2, 3]
    second = elimination_next_round(first, results, {8})
    assert second == [Pairing(1, None), Pairing(2, 3)]
    # 2 wins, then withdraws before the final: 1 is champion without playing
    third = elimination_next_round(second, [Result(2, 3, 2)], {8, 2})
    assert third == [Pairing(1, None)]
    bracket = elimination_bracket(field, [results, [Result(2, 3, 2)]], {8, 2})
    assert [m.state for m in bracket.rounds[0]] == ["walkover", "walkover", "played", "played"]
    assert bracket.rounds[0][1].winner is None
    assert [m.state for m in bracket.rounds[1]] == ["bye", "played"]
    assert bracket.rounds[2][0] == bracket.rounds[2][0].__class__(1, None, 1, "bye")
    assert bracket.champion == 1
    # a withdrawal after the final does not undo it
    done = elimination_bracket(field, [results, [Result(2, 3, 2)], [Result(1, 2, 2)]], {8})
    assert done.champion == 2
    late = elimination_bracket(field, [results, [Result(2, 3, 2)], [Result(1, 2, 2)]], {8, 2})
    assert late.champion == 2 and late.rounds[2][0].state == "played"
    # two empty matches side by side leave an empty match (None) in the next round
    quarter = [Result(1, 8, None, forfeit=True), Result(4, 5, None, forfeit=True)]
    assert elimination_next_round(first, [*quarter, *results[1:]])[0] is None
    empty = elimination_bracket(field, [[*quarter, *results[1:]], [Result(2, 3, 3)]])
    assert empty.rounds[1][0].state == "empty" and empty.champion == 3


def test_elimination_rejects_draws_and_tiny_fields() -> None:
    first = elimination_first_round(entrants(2))
    with pytest.raises(ValueError, match="needs a winner"):
        elimination_winners(first, [Result(1, 2, None)])
    with pytest.raises(ValueError):
        elimination_first_round(entrants(1))
    with pytest.raises(ValueError, match="power of two"):
        elimination_next_round(first, [Result(1, 2, 1)])


# ---------------------------------------------------------------------------------- Swiss


def ranking(field: Sequence[Entrant], history: Sequence[Result], active: set[int]) -> list[int]:
    """The Swiss ranking, computed independently: score, then rating, then id."""
    score: Counter[int] = Counter()
    for r in history:
        for x in r.players:
            score[x] += int(2 * r.points(x))
    order = sorted(field, key=lambda e: (-score[e.id], -e.rating, e.id))
    return [e.id for e in order if e.id in active]


def perfect_matchings(nodes: list[int | None]) -> Iterator[list[tuple[int | None, int | None]]]:
    if not nodes:
        yield []
        return
    head, rest = nodes[0], nodes[1:]
    for k, other in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(head, other), *tail]


def swiss_cost(
    pairs: Sequence[tuple[int | None, int | None]],
    met: Counter[frozenset[int]],
    byes: Counter[int],
    rank: dict[int, int],
) -> tuple[int, int, int]:
    """(rematches, second byes, -rank of the bye): the first priorities of the pairing."""
    rematches = second_byes = 0
    bye_rank = 0
    for a, b in pairs:
        if a is None or b is None:
            player = b if a is None else a
            assert player is not None
            second_byes += byes[player]
            bye_rank = -rank[player]
        else:
            rematches += met[frozenset((a, b))]
    return rematches, second_byes, bye_rank


def check_swiss_round(
    field: Sequence[Entrant],
    history: Sequence[Result],
    withdrawn: set[int],
    pairings: list[Pairing],
) -> None:
    ids = {e.id for e in field}
    active = ids - withdrawn
    seen = [x for p in pairings for x in p.players]
    assert sorted(seen) == sorted(active)  # every active player exactly once
    bye_list = [p for p in pairings if p.second is None]
    assert len(bye_list) == len(active) % 2
    assert all(p.second is not None for p in pairings[: len(pairings) - len(bye_list)])
    met = Counter(frozenset(r.players) for r in history if r.second is not None)
    byes = Counter(r.first for r in history if r.second is None)
    order = ranking(field, history, active)
    rank = {pid: i for i, pid in enumerate(order)}
    nodes: list[int | None] = list(order)
    if len(nodes) % 2:
        nodes.append(None)
    ours = swiss_cost([(p.first, p.second) for p in pairings], met, byes, rank)
    best = min(swiss_cost(m, met, byes, rank) for m in perfect_matchings(nodes))
    assert ours == best
    rematch_free_exists = best[0] == 0
    if rematch_free_exists:
        assert all(met[frozenset(p.players)] == 0 for p in pairings if p.second is not None)
    if bye_list and best[:2] == (0, 0):
        # the bye: the lowest-ranked player without one who leaves a rematch-free pairing
        candidates = [
            pid
            for pid in order
            if byes[pid] == 0
            and any(
                swiss_cost(m, met, byes, rank)[:2] == (0, 0)
                for m in perfect_matchings([x for x in order if x != pid])
            )
        ]
        assert bye_list[0].first == candidates[-1]


def random_result(p: Pairing, rng: random.Random) -> Result:
    if p.second is None:
        return Result.bye(p.first)
    roll = rng.random()
    if roll < 0.05:
        return Result(p.first, p.second, None)  # a draw (the scoring allows them)
    if roll < 0.08:
        return Result(p.first, p.second, None, forfeit=True)
    if roll < 0.15:
        return Result(p.first, p.second, rng.choice(p.players), forfeit=True)
    return Result(p.first, p.second, rng.choice(p.players))


@given(
    n=st.integers(2, 9),
    data=st.data(),
    rng=st.randoms(use_true_random=False),
)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_swiss_pairs_everyone_without_avoidable_rematches(
    n: int, data: st.DataObject, rng: random.Random
) -> None:
    ratings = data.draw(st.lists(st.sampled_from([1200, 1400, 1500, 1600]), min_size=n, max_size=n))
    field = [Entrant(i + 1, r) for i, r in enumerate(ratings)]
    rounds = data.draw(st.integers(1, n - 1 if n > 2 else 2))
    history: list[Result] = []
    withdrawn: set[int] = set()
    for _ in range(rounds):
        if rng.random() < 0.15 and len(withdrawn) < n - 1:
            withdrawn.add(rng.choice(sorted({e.id for e in field} - withdrawn)))
        pairings = swiss_pairings(field, history, withdrawn)
        check_swiss_round(field, history, withdrawn, pairings)
        assert swiss_pairings(list(reversed(field)), history, withdrawn) == pairings
        history.extend(random_result(p, rng) for p in pairings)


def test_swiss_first_round_is_top_half_against_bottom_half() -> None:
    field = entrants(8)
    assert swiss_pairings(field, []) == [
        Pairing(1, 5),
        Pairing(6, 2),
        Pairing(3, 7),
        Pairing(8, 4),
    ]
    # odd field: the lowest-rated gets the bye, the rest fold
    assert swiss_pairings(entrants(7), []) == [
        Pairing(1, 4),
        Pairing(5, 2),
        Pairing(3, 6),
        Pairing(7, None),
    ]


def test_swiss_second_round_pairs_score_groups_and_balances_seats() -> None:
    field = entrants(8)
    first = swiss_pairings(field, [])
    history = [Result(p.first, p.second, min(p.players)) for p in first if p.second]
    # winners 1-4 on 1 point, losers 5-8 on 0: each group folds; a player first in round
    # one is second now when paired with someone who was second
    second = swiss_pairings(field, history)
    assert {frozenset(p.players) for p in second} == {
        frozenset(s) for s in ({1, 3}, {2, 4}, {5, 7}, {6, 8})
    }
    firsts = {p.first for p in first}
    for p in second:
        assert p.first not in firsts or p.second in firsts


def test_swiss_bye_goes_to_the_lowest_ranked_without_a_bye() -> None:
    field = entrants(5)
    history = [Result(1, 3, 1), Result(2, 4, 2), Result.bye(5)]
    # ranking: 1, 2, 5 (1 point), then 3, 4 (0): 4 is lowest without a bye
    pairings = swiss_pairings(field, history)
    assert pairings[-1] == Pairing(4, None)
    history += [
        Result(x.first, x.second, min(x.players)) if x.second else Result.bye(4) for x in pairings
    ]
    third = swiss_pairings(field, history)
    assert third[-1].second is None and third[-1].first not in (4, 5)


def test_swiss_rematches_only_when_unavoidable() -> None:
    field = entrants(4)
    history = [
        Result(1, 2, 1),
        Result(3, 4, 3),
        Result(1, 3, 1),
        Result(2, 4, 2),
        Result(1, 4, 1),
        Result(2, 3, 2),
    ]
    pairings = swiss_pairings(field, history)  # everyone has met everyone: two rematches
    assert len(pairings) == 2
    assert {frozenset(p.players) for p in pairings} == {frozenset({1, 2}), frozenset({3, 4})}
    # 3, 2, 1 and 0 points: the rematches that keep score differences smallest
    three = entrants(3)
    past = [Result(1, 2, 1), Result.bye(3), Result(1, 3, 1), Result.bye(2), Result(2, 3, 2)]
    past.append(Result.bye(1))
    again = swiss_pairings(three, past)  # all met and all had a bye
    assert len(again) == 2 and again[-1].second is None


def test_swiss_withdrawn_players_are_not_paired() -> None:
    field = entrants(6)
    history = [Result(1, 4, 1), Result(5, 2, 2), Result(3, 6, 3)]
    pairings = swiss_pairings(field, history, {2, 6})
    assert sorted(x for p in pairings for x in p.players) == [1, 3, 4, 5]
    assert swiss_pairings(field, history, {1, 2, 3, 4, 5, 6}) == []
    assert swiss_pairings(field, history, {1, 2, 3, 4, 5}) == [Pairing(6, None)]
    with pytest.raises(ValueError, match="not entrants"):
        swiss_pairings(field, history, {99})
    with pytest.raises(ValueError, match="not an entrant"):
        swiss_pairings(field, [Result(1, 99, 1)])


def test_swiss_large_field_has_no_rematches_and_is_quick() -> None:
    rng = random.Random(8)
    field = [Entrant(i, rng.randint(1000, 2200)) for i in range(1, 41)]
    history: list[Result] = []
    for _ in range(7):
        pairings = swiss_pairings(field, history, {40})
        assert len(pairings) == 20 and pairings[-1].second is None
        met = {frozenset(r.players) for r in history}
        assert not any(frozenset(p.players) in met for p in pairings)
        history.extend(random_result(p, rng) for p in pairings)
    assert Counter(r.first for r in history if r.second is None).most_common(1)[0][1] == 1
