"""Standings for Swiss and round-robin tournaments, with their tie-breaks.

Pure Python, like :mod:`leagues.tournaments.pairing`; conventions in docs/tournaments.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from leagues.tournaments.pairing import Entrant, Result, seed_key

__all__ = ["RoundRobinRow", "StandingRow", "round_robin_standings", "swiss_standings"]


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of a Swiss table. ``rank`` is 1-based and unique (ties are broken down to
    the seeding, then the id)."""

    id: int
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    losses: int
    draws: int
    byes: int
    rank: int


@dataclass(frozen=True, slots=True)
class RoundRobinRow:
    """One line of a round-robin table. ``head_to_head`` is the points scored in games
    against the players tied on points and Sonneborn-Berger (0 when nobody is tied)."""

    id: int
    points: float
    sonneborn_berger: float
    head_to_head: float
    wins: int
    losses: int
    draws: int
    games: int
    rank: int


@dataclass(slots=True)
class _Tally:
    points: float = 0.0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    games: list[Result] = field(default_factory=list)  # byes left out


def _tally(entrants: Sequence[Entrant], results: Iterable[Result]) -> dict[int, _Tally]:
    tallies: dict[int, _Tally] = {}
    for e in entrants:
        if e.id in tallies:
            raise ValueError(f"player {e.id} appears twice")
        tallies[e.id] = _Tally()
    for r in results:
        for player in r.players:
            if player not in tallies:
                raise ValueError(f"player {player} in the results is not an entrant")
            t = tallies[player]
            t.points += r.points(player)
            if r.second is None:
                t.byes += 1
                continue
            t.games.append(r)
            if r.winner == player:
                t.wins += 1
            elif r.is_draw:
                t.draws += 1
            else:
                t.losses += 1  # a loss, or a double forfeit
    return tallies


def _sonneborn_berger(player: int, tally: _Tally, tallies: dict[int, _Tally]) -> float:
    """Points of the opponents beaten, plus half the points of those drawn."""
    total = 0.0
    for r in tally.games:
        opponent = r.opponent(player)
        assert opponent is not None
        total += r.points(player) * tallies[opponent].points
    return total


def swiss_standings(entrants: Sequence[Entrant], history: Iterable[Result]) -> list[StandingRow]:
    """The Swiss table, best first: by points, then Buchholz, then Sonneborn-Berger, then
    the seeding (rating), then id.

    Points: 1 for a win or a bye, ½ for a draw, 0 for a loss or a double forfeit.
    Buchholz: the sum of the final points of every opponent met (a bye adds nothing).
    Sonneborn-Berger: the sum of the final points of the opponents beaten, plus half of those
    drawn (a bye adds nothing). Forfeits count as games with their result. Withdrawn players
    stay in the table with the points they scored.
    """
    tallies = _tally(entrants, history)
    buchholz: dict[int, float] = {}
    sonneborn_berger: dict[int, float] = {}
    for player, t in tallies.items():
        opponents = (r.opponent(player) for r in t.games)
        buchholz[player] = sum(tallies[o].points for o in opponents if o is not None)
        sonneborn_berger[player] = _sonneborn_berger(player, t, tallies)
    order = sorted(
        entrants,
        key=lambda e: (
            -tallies[e.id].points,
            -buchholz[e.id],
            -sonneborn_berger[e.id],
            seed_key(e),
        ),
    )
    return [
        StandingRow(
            id=e.id,
            points=tallies[e.id].points,
            buchholz=buchholz[e.id],
            sonneborn_berger=sonneborn_berger[e.id],
            wins=tallies[e.id].wins,
            losses=tallies[e.id].losses,
            draws=tallies[e.id].draws,
            byes=tallies[e.id].byes,
            rank=rank,
        )
        for rank, e in enumerate(order, start=1)
    ]


def round_robin_standings(
    entrants: Sequence[Entrant], results: Iterable[Result]
) -> list[RoundRobinRow]:
    """The round-robin table, best first: by points, then Sonneborn-Berger, then head to head
    (points scored against the others tied on both), then the seeding (rating), then id.

    Byes are rest rounds: a bye result, if given, is ignored (it scores nothing). Score a
    withdrawn player's remaining games with
    :func:`~leagues.tournaments.pairing.forfeits_for_withdrawn`.
    """
    tallies = _tally(entrants, (r for r in results if r.second is not None))
    sonneborn_berger = {p: _sonneborn_berger(p, t, tallies) for p, t in tallies.items()}
    groups: dict[tuple[float, float], set[int]] = defaultdict(set)
    for player, t in tallies.items():
        groups[(t.points, sonneborn_berger[player])].add(player)
    head_to_head: dict[int, float] = {}
    for player, t in tallies.items():
        tied = groups[(t.points, sonneborn_berger[player])]
        head_to_head[player] = sum(r.points(player) for r in t.games if r.opponent(player) in tied)
    order = sorted(
        entrants,
        key=lambda e: (
            -tallies[e.id].points,
            -sonneborn_berger[e.id],
            -head_to_head[e.id],
            seed_key(e),
        ),
    )
    return [
        RoundRobinRow(
            id=e.id,
            points=tallies[e.id].points,
            sonneborn_berger=sonneborn_berger[e.id],
            head_to_head=head_to_head[e.id],
            wins=tallies[e.id].wins,
            losses=tallies[e.id].losses,
            draws=tallies[e.id].draws,
            games=len(tallies[e.id].games),
            rank=rank,
        )
        for rank, e in enumerate(order, start=1)
    ]
