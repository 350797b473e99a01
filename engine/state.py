"""Reading a game's state data (``Game.from_dict``), with every check of ENGINE.md."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.cards import KING, QUEEN, RANK, is_card
from engine.rng import Rng
from engine.rules import Rules

if TYPE_CHECKING:
    from engine.game import Game


def _int(value: object, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{where} must be an integer of at least {low}, not {value!r}")
    return value


def card_list(value: object, where: str) -> list[str]:
    """A fresh list of card codes, or ValueError naming ``where``."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"{where} must be a list of card codes, not {type(value).__name__}")
    for card in value:
        if not is_card(card):
            raise ValueError(f"{where} holds {card!r}, which is not a card code like 'AS' or 'TD'")
    return list(value)


def stack_lists(value: object, count: int, where: str) -> list[list[str]]:
    """``count`` card lists, or ValueError."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"{where} must be a list of {count} stacks")
    if len(value) != count:
        raise ValueError(f"{where} must hold {count} stacks under these rules, not {len(value)}")
    return [card_list(s, f"{where}[{i}]") for i, s in enumerate(value)]


def check_center(center: list[list[str]], rules: Rules) -> None:
    """ValueError unless every center stack is a valid build of at most 11 cards."""
    for i, stack in enumerate(center):
        if len(stack) >= QUEEN:
            raise ValueError(
                f"center stack {i + 1} holds {len(stack)} cards; a stack that reaches "
                "Queen (12 cards) goes to the stock, so at most 11 may stand"
            )
        for k, card in enumerate(stack):
            rank = RANK[card]
            if rank == k + 1:
                continue
            if rank == KING and (k > 0 or rules.king_on_empty):
                continue
            raise ValueError(
                f"center stack {i + 1} is not a valid build: card {k + 1} is {card}, "
                f"but that place takes rank {k + 1}"
                + (" or a King" if k > 0 or rules.king_on_empty else "")
            )


def check_counts(piles: list[list[str]], rules: Rules) -> None:
    """ValueError if some card code appears more often than the decks hold."""
    counts: Counter[str] = Counter()
    for pile in piles:
        counts.update(pile)
    for card, n in counts.items():
        if n > rules.decks:
            raise ValueError(
                f"{card} appears {n} times, but {rules.decks} deck(s) hold only {rules.decks}"
            )


def parse_state(cls: type[Game], data: Mapping[str, Any]) -> Game:
    """The body of ``Game.from_dict``."""
    from engine.game import Outcome

    if not isinstance(data, Mapping):
        raise ValueError(f"a game state must be a mapping, not {type(data).__name__}")
    rules = Rules.from_dict(data.get("rules"))
    to_move = data.get("to_move")
    if isinstance(to_move, bool) or to_move not in (0, 1):
        raise ValueError(f"'to_move' must be 0 or 1, not {to_move!r}")
    players = data.get("players")
    if not isinstance(players, list | tuple) or len(players) != 2:
        raise ValueError("'players' must be a list of two players")
    hands: list[list[str]] = []
    payoffs: list[list[str]] = []
    sides: list[list[list[str]]] = []
    for p, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise ValueError(f"players[{p}] must be an object with hand, payoff and sides")
        for key in ("hand", "payoff", "sides"):
            if key not in player:
                raise ValueError(f"players[{p}] has no {key!r}")
        hand = card_list(player["hand"], f"players[{p}].hand")
        if len(hand) > rules.hand_size:
            raise ValueError(
                f"players[{p}].hand holds {len(hand)} cards; a full hand is {rules.hand_size}"
            )
        hands.append(hand)
        payoffs.append(card_list(player["payoff"], f"players[{p}].payoff"))
        sides.append(stack_lists(player["sides"], rules.side_stacks, f"players[{p}].sides"))
    center = stack_lists(data.get("center"), rules.center_stacks, "'center'")
    check_center(center, rules)
    stock = card_list(data.get("stock"), "'stock'")
    check_counts([*hands, *payoffs, *sides[0], *sides[1], *center, stock], rules)

    seed = _int(data.get("seed", 0), "'seed'")
    rng_state = data.get("rng")
    rng = Rng(seed) if rng_state is None else Rng.from_state(rng_state)
    ply = _int(data.get("ply", 0), "'ply'")
    raw_outcome = data.get("outcome")
    outcome = None if raw_outcome is None else Outcome.from_dict(raw_outcome)
    if outcome is None:
        for p in (0, 1):
            if not payoffs[p]:
                raise ValueError(f"players[{p}].payoff is empty, but the game is not over")
        if not hands[to_move]:
            raise ValueError(f"players[{to_move}].hand is empty, but that player is to move")
    return cls(
        rules=rules,
        hands=hands,
        payoffs=payoffs,
        sides=sides,
        center=center,
        stock=stock,
        to_move=to_move,
        seed=seed,
        rng=rng,
        ply=ply,
        outcome=outcome,
    )
