"""Card codes and ranks.

A card is a two-character code, rank then suit: ``"AS"``, ``"TD"``, ``"KC"``.
Suits never matter to the rules; ranks run Ace (1) to King (13).

>>> RANK["7D"], RANK["KS"]
(7, 13)
>>> rank_phrase(8), rank_phrase(6), rank_phrase(1)
('an 8', 'a 6', 'an Ace')
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "SHDC"
ACE = 1
QUEEN = 12
KING = 13

#: Every card code once, in canonical order (by rank, then suit S H D C).
CARDS: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
#: Rank of each card code, Ace 1 … King 13.
RANK: dict[str, int] = {c: RANKS.index(c[0]) + 1 for c in CARDS}
#: Position of each card code in the canonical order.
ORDER: dict[str, int] = {c: i for i, c in enumerate(CARDS)}

_NAMES = {1: "Ace", 10: "10", 11: "Jack", 12: "Queen", 13: "King"}


def is_card(value: object) -> bool:
    """True when ``value`` is a card code."""
    return isinstance(value, str) and value in RANK


def rank_letter(rank: int) -> str:
    """The rank's letter as it appears in card codes: 1 -> "A", 10 -> "T"."""
    return RANKS[rank - 1]


def rank_name(rank: int) -> str:
    """The rank as a player says it: "Ace", "7", "10", "Queen"."""
    return _NAMES.get(rank, str(rank))


def rank_phrase(rank: int) -> str:
    """The rank's name with its article: "an Ace", "a 6", "an 8"."""
    name = rank_name(rank)
    return ("an " if name[0] in "A8" else "a ") + name


def full_deck(decks: int) -> list[str]:
    """All cards of ``decks`` decks, in canonical order."""
    return [c for _ in range(decks) for c in CARDS]


def sort_cards(cards: list[str]) -> list[str]:
    """A new list of the cards in canonical order."""
    return sorted(cards, key=ORDER.__getitem__)
