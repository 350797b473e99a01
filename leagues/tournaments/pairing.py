"""Pairings for tournaments: round robin, single elimination and Swiss.

Pure Python: no Django, no models. Callers pass plain data (player ids as ints, ratings,
results) and get plain data back. Everything is deterministic: the same input gives the same
output, and nothing here draws random numbers. The algorithms and their conventions are in
docs/tournaments.md.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import networkx as nx  # type: ignore[import-untyped]

__all__ = [
    "Bracket",
    "BracketMatch",
    "Entrant",
    "MatchState",
    "Pairing",
    "Result",
    "bracket_order",
    "bracket_size",
    "elimination_bracket",
    "elimination_first_round",
    "elimination_next_round",
    "elimination_winners",
    "forfeits_for_withdrawn",
    "round_robin_schedule",
    "seed_key",
    "seeding",
    "swiss_pairings",
]


# --------------------------------------------------------------------------------------------
# Data


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in a tournament.

    ``seed_order``, when given, is an explicit seed (1 = top) that overrides the rating:
    entrants with one come first, in that order; the rest follow by rating (highest first),
    then by id.
    """

    id: int
    rating: float
    seed_order: int | None = None


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a round: ``first`` takes the first seat (player one).

    ``second=None`` is a bye.
    """

    first: int
    second: int | None = None

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise ValueError(f"a player cannot be paired with themself: {self.first}")

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of one pairing.

    - a game: ``winner`` is ``first`` or ``second``; ``None`` is a draw (a Spite & Malice match
      cannot tie, but the scoring allows it);
    - a forfeit (``forfeit=True``): ``winner`` is the player who showed up; ``winner=None`` is a
      double forfeit, which scores as a loss for both (0 points each);
    - a bye (``second=None``, build it with :meth:`Result.bye`): ``winner`` is ``first``; it
      scores 1 point in Swiss and is a walkover in elimination.
    """

    first: int
    second: int | None
    winner: int | None
    forfeit: bool = False

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise ValueError(f"a player cannot play themself: {self.first}")
        if self.second is None:
            if self.winner != self.first or self.forfeit:
                raise ValueError("a bye is Result(player, None, winner=player), not a forfeit")
        elif self.winner is not None and self.winner not in (self.first, self.second):
            raise ValueError(f"winner {self.winner} did not play in {self.first}-{self.second}")

    @classmethod
    def bye(cls, player: int) -> Result:
        return cls(player, None, player)

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def is_draw(self) -> bool:
        return self.second is not None and self.winner is None and not self.forfeit

    @property
    def is_double_forfeit(self) -> bool:
        return self.forfeit and self.winner is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def opponent(self, player: int) -> int | None:
        """The other player (``None`` for a bye)."""
        if player == self.first:
            return self.second
        if player == self.second:
            return self.first
        raise ValueError(f"player {player} is not in {self}")

    def points(self, player: int) -> float:
        """1 for a win or a bye, ½ for a draw, 0 for a loss or a double forfeit."""
        self.opponent(player)  # checks the player is in this result
        if self.winner == player:
            return 1.0
        return 0.5 if self.is_draw else 0.0


def seed_key(entrant: Entrant) -> tuple[int, int, float, int]:
    """Sort key of the seeding: explicit ``seed_order`` first, then rating (highest first),
    then id (lowest first)."""
    if entrant.seed_order is not None:
        return (0, entrant.seed_order, 0.0, entrant.id)
    return (1, 0, -entrant.rating, entrant.id)


def seeding(entrants: Iterable[Entrant]) -> list[int]:
    """Player ids in seed order: the top seed first."""
    ordered = sorted(entrants, key=seed_key)
    _check_unique([e.id for e in ordered])
    return [e.id for e in ordered]


def _check_unique(ids: Sequence[int]) -> None:
    seen: set[int] = set()
    for player in ids:
        if player in seen:
            raise ValueError(f"player {player} appears twice")
        seen.add(player)


def forfeits_for_withdrawn(pairings: Iterable[Pairing], withdrawn: Collection[int]) -> list[Result]:
    """Forfeit results for the games of ``pairings`` that involve a withdrawn player.

    The opponent wins by forfeit; when both players have withdrawn the game is a double
    forfeit. Byes are left alone. This is how a round robin scores the games a withdrawn
    player no longer plays (its schedule is fixed in advance).
    """
    results = []
    for p in pairings:
        if p.second is None:
            continue
        first_out, second_out = p.first in withdrawn, p.second in withdrawn
        if first_out and second_out:
            results.append(Result(p.first, p.second, None, forfeit=True))
        elif first_out:
            results.append(Result(p.first, p.second, p.second, forfeit=True))
        elif second_out:
            results.append(Result(p.first, p.second, p.first, forfeit=True))
    return results


# --------------------------------------------------------------------------------------------
# Round robin


def round_robin_schedule(ids: Sequence[int]) -> list[list[Pairing]]:
    """Every pair of ``ids`` exactly once, by the circle method in Berger order.

    n players (n even) play n - 1 rounds; n odd play n rounds, with one bye a round (everyone
    gets exactly one). Each player plays at most once a round. First seats are balanced: with
    n odd everyone is first exactly as often as second, with n even the counts differ by one,
    and no player takes the same seat more than twice in a row. Byes close each round's list.
    Pass ``ids`` in seed order (see :func:`seeding`); fewer than two players give no rounds.
    """
    players = list(ids)
    _check_unique(players)
    if len(players) < 2:
        return []
    slots: list[int | None] = list(players)
    if len(slots) % 2:
        # The bye is the fixed point of the circle: every real player then sits in the top row
        # and in the bottom row equally often, so first seats balance exactly.
        slots.insert(0, None)
    n = len(slots)
    rotating = slots[1:]
    circle: list[list[tuple[int | None, int | None]]] = []
    for _ in range(n - 1):
        row = [slots[0], *rotating]
        circle.append([(row[i], row[n - 1 - i]) for i in range(n // 2)])
        rotating = rotating[-1:] + rotating[:-1]
    # Berger order: visiting the circle's rounds in steps of n/2 (coprime with n - 1) moves each
    # player between the top and bottom rows, so first seats alternate.
    schedule = []
    for k in range(n - 1):
        games: list[Pairing] = []
        byes: list[Pairing] = []
        for i, (a, b) in enumerate(circle[(k * (n // 2)) % (n - 1)]):
            if i == 0 and k % 2 == 1:
                a, b = b, a  # the fixed player alternates seats
            if a is None or b is None:
                player = b if a is None else a
                assert player is not None
                byes.append(Pairing(player, None))
            else:
                games.append(Pairing(a, b))
        schedule.append(games + byes)
    return schedule


# --------------------------------------------------------------------------------------------
# Single elimination

MatchState = Literal["tbd", "pending", "played", "walkover", "bye", "empty"]


class _Unknown(enum.Enum):
    TOKEN = 0


_UNKNOWN: Final = _Unknown.TOKEN
_Slot = int | None | _Unknown


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match of the bracket, for drawing it.

    ``state``:

    - ``tbd``: a player is not known yet (an earlier match is unfinished);
    - ``pending``: both players known, no result yet;
    - ``played``: decided over the board;
    - ``walkover``: decided by a forfeit or a withdrawal (``winner=None``: nobody advances);
    - ``bye``: one slot is empty, the other player advances;
    - ``empty``: both slots are empty (after a double forfeit), nobody advances.

    ``first``/``second`` are ``None`` for an empty slot and for a player not yet known;
    ``winner`` is ``None`` until decided, and for ``empty`` and a double walkover.
    """

    first: int | None
    second: int | None
    winner: int | None
    state: MatchState


@dataclass(frozen=True, slots=True)
class Bracket:
    """A single-elimination bracket: ``size`` slots (a power of two), ``seeds[i]`` the id of
    seed i + 1, ``rounds[0]`` the first round (``size // 2`` matches, in bracket order) up to
    the final, and the ``champion`` once the final is decided."""

    size: int
    seeds: tuple[int, ...]
    rounds: tuple[tuple[BracketMatch, ...], ...]
    champion: int | None


def bracket_size(n: int) -> int:
    """The smallest power of two that holds ``n`` players."""
    if n < 1:
        raise ValueError("a bracket needs at least one player")
    return 1 << (n - 1).bit_length()


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in slot order, for a bracket of ``size`` (a power of two).

    Slots 2k and 2k + 1 meet in the first round; seed s meets seed size + 1 - s; the top two
    seeds are in opposite halves, the top four in different quarters, and so on. For 8:
    ``[1, 8, 4, 5, 2, 7, 3, 6]``.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket size is a power of two, not {size}")
    order = [1]
    while len(order) < size:
        m = 2 * len(order) + 1
        order = [x for s in order for x in (s, m - s)]
    return order


def elimination_first_round(entrants: Sequence[Entrant]) -> list[Pairing]:
    """The first round of a single-elimination bracket, in bracket order.

    Seeded by :func:`seed_key` (rating): seed s meets seed P + 1 - s, where P is the next
    power of two; the seeds above the field (P + 1 - s > n) are byes, so the byes go to the top
    seeds. The better seed takes the first seat. Returns P / 2 pairings, byes included
    (``Pairing(seed, None)``), so that positions line up with :func:`elimination_next_round`.
    """
    ids = seeding(entrants)
    if len(ids) < 2:
        raise ValueError("an elimination needs at least two players")
    size = bracket_size(len(ids))
    slots = [ids[s - 1] if s <= len(ids) else None for s in bracket_order(size)]
    pairings = []
    for k in range(0, size, 2):
        top = slots[k]
        assert top is not None  # the better seed of a first-round pair is always a player
        pairings.append(Pairing(top, slots[k + 1]))
    return pairings


def _index(results: Iterable[Result]) -> dict[frozenset[int], Result]:
    """Results of games (byes left out) by their unordered pair of players."""
    index: dict[frozenset[int], Result] = {}
    for r in results:
        if r.second is None:
            continue
        key = frozenset((r.first, r.second))
        if key in index:
            raise ValueError(f"two results for {r.first}-{r.second}")
        if r.is_draw:
            raise ValueError(f"an elimination game needs a winner: {r.first}-{r.second}")
        index[key] = r
    return index


def _decide(
    a: int | None,
    b: int | None,
    index: dict[frozenset[int], Result],
    withdrawn: Collection[int],
) -> tuple[MatchState, _Slot]:
    """The state and winner (``_UNKNOWN`` while pending) of the paired match a-b."""
    if a is None and b is None:
        return "empty", None
    if a is None or b is None:
        return "bye", b if a is None else a
    result = index.get(frozenset((a, b)))
    if result is not None:
        return ("walkover" if result.forfeit else "played"), result.winner
    a_out, b_out = a in withdrawn, b in withdrawn
    if a_out or b_out:
        return "walkover", None if a_out and b_out else (b if a_out else a)
    return "pending", _UNKNOWN


def _seat(
    a: _Slot, b: _Slot, index: dict[frozenset[int], Result], withdrawn: Collection[int]
) -> tuple[_Slot, _Slot]:
    """Two advancing players as paired in the next round: a withdrawn player is not paired
    (their slot is left empty) unless this match has a result already."""
    if isinstance(a, int) and isinstance(b, int) and frozenset((a, b)) in index:
        return a, b
    if a is _UNKNOWN or b is _UNKNOWN:
        return a, b  # decided once both are known
    return (None if a in withdrawn else a), (None if b in withdrawn else b)


def elimination_winners(
    round_pairings: Sequence[Pairing | None],
    results: Iterable[Result],
    withdrawn: Collection[int] = frozenset(),
) -> list[int | None]:
    """Who advances from each match of a round (``None``: nobody, after a double forfeit or
    from an empty match).

    A bye advances its player. A game without a result is a walkover for the other player
    when one has withdrawn (nobody advances when both have); otherwise the round is not
    finished and this raises ``ValueError``. ``results`` may hold other rounds' results too:
    a pair meets at most once in an elimination.
    """
    index = _index(results)
    winners: list[int | None] = []
    for p in round_pairings:
        if p is None:
            winners.append(None)
            continue
        _, winner = _decide(p.first, p.second, index, withdrawn)
        if winner is _UNKNOWN:
            raise ValueError(f"no result yet for {p.first}-{p.second}")
        winners.append(winner)
    return winners


def elimination_next_round(
    previous_round: Sequence[Pairing | None],
    results: Iterable[Result],
    withdrawn: Collection[int] = frozenset(),
) -> list[Pairing | None]:
    """The next round: the winners of matches 2k and 2k + 1 meet, in bracket order, the
    winner from the upper match in the first seat.

    A withdrawn player is not paired: their opponent gets a bye (``Pairing(x, None)``). When
    nobody advances from either match (double forfeits) the match is ``None``, kept so that
    positions stay in bracket order.
    """
    if len(previous_round) < 2 or len(previous_round) & (len(previous_round) - 1):
        raise ValueError("the previous round must have a power of two matches, at least two")
    results = list(results)
    index = _index(results)
    winners = elimination_winners(previous_round, results, withdrawn)
    pairings: list[Pairing | None] = []
    for k in range(0, len(winners), 2):
        a, b = _seat(winners[k], winners[k + 1], index, withdrawn)
        assert not isinstance(a, _Unknown) and not isinstance(b, _Unknown)
        if a is None and b is None:
            pairings.append(None)
        elif a is None or b is None:
            player = b if a is None else a
            assert player is not None
            pairings.append(Pairing(player, None))
        else:
            pairings.append(Pairing(a, b))
    return pairings


def elimination_bracket(
    entrants: Sequence[Entrant],
    rounds_results: Sequence[Iterable[Result]] = (),
    withdrawn: Collection[int] = frozenset(),
) -> Bracket:
    """The whole bracket for drawing: every round from the first to the final, each match
    with its players (where known), winner and state (see :class:`BracketMatch`).

    ``rounds_results[r]`` holds round r's results (later rounds may be missing). It agrees with
    :func:`elimination_first_round` and :func:`elimination_next_round` given the same
    ``withdrawn``. A result for a pair the bracket never made raises ``ValueError``.
    """
    first_round = elimination_first_round(entrants)
    index = _index(r for round_results in rounds_results for r in round_results)
    size = 2 * len(first_round)
    slots: list[_Slot] = [x for p in first_round for x in (p.first, p.second)]
    used: set[frozenset[int]] = set()
    rounds = []
    for r in range(size.bit_length() - 1):
        matches = []
        winners: list[_Slot] = []
        for k in range(0, len(slots), 2):
            a, b = slots[k], slots[k + 1]
            if r > 0:
                a, b = _seat(a, b, index, withdrawn)
            if isinstance(a, _Unknown) or isinstance(b, _Unknown):
                matches.append(
                    BracketMatch(
                        None if isinstance(a, _Unknown) else a,
                        None if isinstance(b, _Unknown) else b,
                        None,
                        "tbd",
                    )
                )
                winners.append(_UNKNOWN)
                continue
            state, winner = _decide(a, b, index, withdrawn)
            if a is not None and b is not None:
                used.add(frozenset((a, b)))
            matches.append(BracketMatch(a, b, None if winner is _UNKNOWN else winner, state))
            winners.append(winner)
        rounds.append(tuple(matches))
        slots = winners
    unknown = set(index) - used
    if unknown:
        pair = sorted(min(unknown, key=sorted))
        raise ValueError(f"a result for {pair[0]}-{pair[1]}, a pair the bracket never made")
    champion = slots[0]
    return Bracket(
        size=size,
        seeds=tuple(seeding(entrants)),
        rounds=tuple(rounds),
        champion=champion if isinstance(champion, int) else None,
    )


# --------------------------------------------------------------------------------------------
# Swiss


@dataclass(slots=True)
class _Record:
    half_points: int = 0  # points x 2, so that weights stay integers
    byes: int = 0
    seat_balance: int = 0  # first seats minus second seats
    last_seat: int = 0  # +1 first, -1 second, 0 no game yet


def _swiss_records(
    ids: Collection[int], history: Iterable[Result]
) -> tuple[dict[int, _Record], Counter[frozenset[int]]]:
    records = {player: _Record() for player in ids}
    met: Counter[frozenset[int]] = Counter()
    for r in history:
        for player in r.players:
            if player not in records:
                raise ValueError(f"player {player} in the history is not an entrant")
            records[player].half_points += round(2 * r.points(player))
        if r.second is None:
            records[r.first].byes += 1
            continue
        met[frozenset((r.first, r.second))] += 1
        records[r.first].seat_balance += 1
        records[r.first].last_seat = 1
        records[r.second].seat_balance -= 1
        records[r.second].last_seat = -1
    return records, met


def swiss_pairings(
    entrants: Sequence[Entrant],
    history: Iterable[Result],
    withdrawn: Collection[int] = frozenset(),
) -> list[Pairing]:
    """The next Swiss round for the active (not withdrawn) entrants, given every earlier
    result (``history``: all rounds, byes included).

    Players are ranked by score, then by :func:`seed_key`. The pairs and the bye are one
    maximum-weight perfect matching (networkx's ``max_weight_matching``, ``maxcardinality``)
    on the complete graph of active players, plus a bye node when their number is odd. Edge
    weights are integers built so that the matching minimises, in strict order of priority:

    1. rematches (each earlier meeting of the pair counts): a rematch happens only when no
       pairing without one exists, and then as few as possible;
    2. second byes: the bye goes to a player without one whenever possible;
    3. the bye's rank: it goes to the lowest-ranked player who can take it without forcing
       a rematch or a second bye;
    4. score differences (sum of their squares): players meet their own score group,
       floating as few as possible, as short a way as possible;
    5. a Dutch-style shape: within a score group of g players, position i meets i + g/2
       (top half against bottom half), and a floater meets the nearest rank.

    The first seat goes to the player who has had it less often, then to the one who was
    second in their last game, then alternately by board to the higher-ranked player.
    Boards are listed in rank order, the bye last.
    """
    ids = [e.id for e in entrants]
    _check_unique(ids)
    unknown = set(withdrawn) - set(ids)
    if unknown:
        raise ValueError(f"withdrawn players who are not entrants: {sorted(unknown)}")
    records, met = _swiss_records(ids, history)
    active = sorted(
        (e for e in entrants if e.id not in withdrawn),
        key=lambda e: (-records[e.id].half_points, seed_key(e)),
    )
    n = len(active)
    if n == 0:
        return []
    if n == 1:
        return [Pairing(active[0].id, None)]
    players = [e.id for e in active]
    bye_node = n if n % 2 else None

    # Position in the score group and the group's size, for the Dutch-style shape.
    position: list[int] = []
    group_size: Counter[int] = Counter(records[p].half_points for p in players)
    for i, player in enumerate(players):
        same = i > 0 and records[players[i - 1]].half_points == records[player].half_points
        position.append(position[-1] + 1 if same else 0)

    edges: list[tuple[int, int, tuple[int, int, int, int, int]]] = []
    for i in range(n):
        pi = records[players[i]]
        for j in range(i + 1, n):
            pj = records[players[j]]
            rematches = met[frozenset((players[i], players[j]))]
            diff = pi.half_points - pj.half_points
            if diff == 0:
                shape = abs(position[j] - position[i] - group_size[pi.half_points] // 2)
            else:
                shape = j - i
            edges.append((i, j, (rematches, 0, 0, diff * diff, shape)))
        if bye_node is not None:
            edges.append((i, bye_node, (0, pi.byes, n - 1 - i, 0, 0)))

    weights = _lexicographic_weights([cost for _, _, cost in edges], (n + 1) // 2)
    graph = nx.Graph()
    graph.add_nodes_from(range(n + (bye_node is not None)))
    for (u, v, _), w in zip(edges, weights, strict=True):
        graph.add_edge(u, v, weight=w)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():
        raise AssertionError("a complete graph on an even number of nodes has a perfect matching")

    games = []
    bye: Pairing | None = None
    for u, v in matching:
        i, j = min(u, v), max(u, v)
        if j == bye_node:
            bye = Pairing(players[i], None)
        else:
            games.append((i, j))
    games.sort()
    pairings = []
    for board, (i, j) in enumerate(games):
        a, b = records[players[i]], records[players[j]]
        if a.seat_balance != b.seat_balance:
            higher_first = a.seat_balance < b.seat_balance
        elif a.last_seat != b.last_seat:
            higher_first = a.last_seat < b.last_seat
        else:
            higher_first = board % 2 == 0
        pairings.append(
            Pairing(players[i], players[j]) if higher_first else Pairing(players[j], players[i])
        )
    if bye is not None:
        pairings.append(bye)
    return pairings


def _lexicographic_weights(costs: Sequence[tuple[int, ...]], edges_in_matching: int) -> list[int]:
    """Positive integer weights whose maximum-weight perfect matching minimises the costs
    lexicographically (first component first).

    Every perfect matching has the same number of edges, so maximising the sum of
    ``big - cost`` minimises the sum of ``cost``; each component is scaled above the largest
    total the components after it can reach in a matching.
    """
    if not costs:
        return []
    tiers = len(costs[0])
    scale = [1] * tiers
    for t in range(tiers - 2, -1, -1):
        largest = max(c[t + 1] for c in costs)
        scale[t] = scale[t + 1] * (edges_in_matching * largest + 1)
    flat = [sum(c[t] * scale[t] for t in range(tiers)) for c in costs]
    big = max(flat) + 1
    return [big - f for f in flat]
