"""Card codes and ranks: engine/cards.py."""

from collections import Counter

from engine.cards import CARDS, RANK, full_deck, is_card, rank_letter, rank_phrase, sort_cards


def test_codes_ranks_and_suits() -> None:
    assert len(CARDS) == 52 and len(set(CARDS)) == 52
    assert RANK["AS"] == 1 and RANK["TD"] == 10 and RANK["QH"] == 12 and RANK["KC"] == 13
    assert is_card("7D") and not is_card("7X") and not is_card("10D") and not is_card(7)
    assert [rank_letter(r) for r in (1, 10, 11, 12, 13)] == ["A", "T", "J", "Q", "K"]
    assert rank_phrase(1) == "an Ace" and rank_phrase(8) == "an 8" and rank_phrase(11) == "a Jack"


def test_two_decks_hold_two_copies_of_every_code() -> None:
    deck = full_deck(2)
    assert len(deck) == 104
    assert set(Counter(deck).values()) == {2}


def test_canonical_order_is_by_rank_then_suit() -> None:
    assert sort_cards(["KS", "2C", "AD", "AS", "TH"]) == ["AS", "AD", "2C", "TH", "KS"]
