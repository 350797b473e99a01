"""Turn plans: the ways to play out the known part of a turn, shared by greedy and expert.

A turn is a run of plays to the center ended by a discard. Until a hidden
card shows up, every step is determined by what the mover sees: their hand,
their side stacks, the center and their pay-off top. ``explore`` walks those
steps depth first and stops at the first surprise, so every plan it returns
is fully known:

- ``INNER``: a state the turn can end in (by a discard, see ``discards``);
- ``CHANCE``: a play that shows a hidden card (the pay-off top was played and
  the card under it turns up, or the hand ran empty and five cards are drawn);
- ``WIN``: the last pay-off card was played;
- ``OVER``: a refill found the stock empty (a tie).

States reached by different orders are merged (same hand ranks, side and
center heights, pay-off size), so the walk is over distinct states, capped
by a node count. When the pay-off top can be played, only that play is
followed: playing it at once never loses an option and shows the next card.

The other helpers estimate reach: which ranks must be played on a center
stack before a card fits (``path``), and how many pay-off cards a player
could play in a row from the cards they hold (``payoff_run``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import KING, QUEEN, RANK
from engine.game import Game
from engine.moves import HAND_TO_CENTER, PAYOFF_TO_CENTER, SIDE_TO_CENTER, Move

INNER, CHANCE, WIN, OVER = range(4)


@dataclass(slots=True)
class Node:
    """A state the DFS reached: the moves from the root, the state, what it is."""

    moves: tuple[Move, ...]
    game: Game
    kind: int
    kings: int  # Kings from hand or side stacks played to the center on the way


def state_key(game: Game, p: int) -> tuple[object, ...]:
    """States that play the same from here on (suits never matter)."""
    return (
        tuple(sorted([RANK[c] for c in game.hands[p]])),
        tuple([len(s) for s in game.sides[p]]),
        tuple([len(c) for c in game.center]),
        len(game.payoffs[p]),
    )


def _source_rank(game: Game, p: int, move: Move) -> int:
    if move.kind == PAYOFF_TO_CENTER:
        return RANK[game.payoffs[p][-1]]
    if move.kind == SIDE_TO_CENTER:
        return RANK[game.sides[p][move.origin_index][-1]]
    assert move.card is not None
    return RANK[move.card]


def center_plays(game: Game) -> list[Move]:
    """The plays to the center of the player to move, one per distinct effect.

    Two plays are the same when they take the same source (the pay-off, the
    same side stack, or a hand card of the same rank) to stacks of equal height.
    Side stacks come first, then hand cards, Kings last.
    """
    p = game.to_move
    seen: set[tuple[int, int, int]] = set()
    out: list[Move] = []
    kings: list[Move] = []
    center = game.center
    for m in game.legal_moves():
        kind = m.kind
        if kind not in (PAYOFF_TO_CENTER, SIDE_TO_CENTER, HAND_TO_CENTER):
            continue
        if kind == HAND_TO_CENTER:
            assert m.card is not None
            origin = RANK[m.card]
        else:
            origin = m.origin_index
        key = (kind, origin, len(center[m.target_index]))
        if key in seen:
            continue
        seen.add(key)
        if _source_rank(game, p, m) == KING and kind != PAYOFF_TO_CENTER:
            kings.append(m)
        else:
            out.append(m)
    out.sort(key=lambda m: (m.kind != PAYOFF_TO_CENTER, m.kind != SIDE_TO_CENTER))
    return out + kings


def discards(game: Game) -> list[Move]:
    """The discards of the player to move, one per distinct effect (hand rank x stack)."""
    p = game.to_move
    hand = game.hands[p]
    sides = game.sides[p]
    targets: list[int] = []
    empty_seen = False
    for j, side in enumerate(sides):
        if not side:
            if empty_seen:
                continue
            empty_seen = True
        targets.append(j)
    out: list[Move] = []
    ranks: set[int] = set()
    table = game._t.h2s
    for card in sorted(hand):
        r = RANK[card]
        if r in ranks:
            continue
        ranks.add(r)
        row = table[card]
        out.extend(row[j] for j in targets)
    return out


def explore(game: Game, cap: int) -> tuple[list[Node], int]:
    """Every distinct known continuation of the turn of ``game.to_move`` (see the module).

    Returns the nodes (INNER states and CHANCE/WIN/OVER leaves, in DFS order)
    and the number of states expanded, at most ``cap`` (states beyond the cap
    are kept as INNER nodes but not expanded).
    """
    p = game.to_move
    nodes: list[Node] = []
    seen: set[tuple[object, ...]] = set()
    expanded = 0
    stack: list[tuple[tuple[Move, ...], Game, int]] = [((), game, 0)]
    while stack:
        moves, g, kings = stack.pop()
        key = state_key(g, p)
        if key in seen:
            continue
        seen.add(key)
        if expanded >= cap:
            nodes.append(Node(moves, g, INNER, kings))
            continue
        expanded += 1
        plays = center_plays(g)
        payoff = [m for m in plays if m.kind == PAYOFF_TO_CENTER]
        if payoff:
            for m in payoff:
                child = g.copy()
                child.push_unchecked(m)
                kind = WIN if child.outcome is not None else CHANCE
                nodes.append(Node((*moves, m), child, kind, kings))
            continue
        nodes.append(Node(moves, g, INNER, kings))
        children: list[tuple[tuple[Move, ...], Game, int]] = []
        for m in plays:
            king = _source_rank(g, p, m) == KING
            emptied = m.kind == HAND_TO_CENTER and len(g.hands[p]) == 1
            child = g.copy()
            child.push_unchecked(m)
            if emptied:
                kind = OVER if child.outcome is not None else CHANCE
                nodes.append(Node((*moves, m), child, kind, kings + king))
                continue
            children.append(((*moves, m), child, kings + king))
        stack.extend(reversed(children))
    return nodes, expanded


def path(height: int, rank: int, limit: int = 8) -> list[int] | None:
    """The ranks to play on a center stack of ``height`` before a card of ``rank`` fits.

    A King fits anywhere (empty list); a stack reaching Queen empties. None when
    more than ``limit`` cards would be needed.

    >>> path(3, 4), path(3, 7), path(11, 2), path(5, 13)
    ([], [4, 5, 6], [12, 1], [])
    """
    if rank == KING:
        return []
    out: list[int] = []
    h = height
    while h + 1 != rank:
        h += 1
        out.append(h)
        if h == QUEEN:
            h = 0
        if len(out) > limit:
            return None
    return out


def cover(needed: Sequence[int], counts: list[int]) -> int:
    """How many of ``needed`` ranks the rank counts (index = rank, 13 = Kings)
    cannot supply, using Kings for ranks lacking. Does not change ``counts``."""
    kings = counts[KING]
    missing = 0
    used: dict[int, int] = {}
    for r in needed:
        have = counts[r] - used.get(r, 0)
        if have > 0:
            used[r] = used.get(r, 0) + 1
        elif kings > 0:
            kings -= 1
        else:
            missing += 1
    return missing


def _take(needed: Sequence[int], counts: list[int]) -> None:
    for r in needed:
        if counts[r] > 0:
            counts[r] -= 1
        else:
            counts[KING] -= 1


def payoff_run(heights: Sequence[int], payoff: Sequence[int], counts: list[int]) -> int:
    """How many pay-off cards (ranks, top first) a player could play in a row.

    ``heights`` are the center heights, ``counts`` the ranks the player holds
    (hand and side-stack tops; index 13 = Kings), used up as they are played.
    A cheap estimate: each pay-off card goes on the stack needing the fewest
    cards. ``counts`` is changed.
    """
    h = list(heights)
    run = 0
    for rank in payoff:
        best = -1
        best_path: list[int] | None = None
        for i, height in enumerate(h):
            need = path(height, rank, 6)
            if need is None or cover(need, counts):
                continue
            if best_path is None or len(need) < len(best_path):
                best, best_path = i, need
                if not need:
                    break
        if best_path is None:
            break
        _take(best_path, counts)
        top = h[best] + 1 if rank == KING else rank
        h[best] = 0 if top >= QUEEN else top
        run += 1
    return run


def missing_for(heights: Sequence[int], rank: int, counts: list[int]) -> int:
    """The fewest cards a player lacks to play a card of ``rank`` on some center stack."""
    best = 99
    for height in heights:
        need = path(height, rank, 10)
        if need is None:
            continue
        best = min(best, cover(need, counts))
        if best == 0:
            break
    return best


def rank_counts(cards: Sequence[str]) -> list[int]:
    """Rank counts of ``cards``, indexed by rank (0 unused, 13 = Kings)."""
    counts = [0] * 14
    for c in cards:
        counts[RANK[c]] += 1
    return counts


def feeding_height(heights: Sequence[int], opponent_top: str | None) -> int:
    """The height no center stack should reach: the one just below the opponent's pay-off top,
    which would then fit (0 when there is none: their top is an Ace or a King, or a stack
    stands there already). ``heights``: what each center stack stands at."""
    if opponent_top is None or RANK[opponent_top] in (1, KING):
        return 0
    wanted = RANK[opponent_top] - 1
    return 0 if wanted in heights else wanted


def feeds(heights: Sequence[int], opponent_top: str | None, move: Move) -> bool:
    """Whether ``move`` (of the player to move) brings a center stack to ``feeding_height``."""
    height = feeding_height(heights, opponent_top)
    return bool(height) and move.target == "center" and heights[move.target_index] + 1 == height
