"""R1: the cards, suits, codes and display themes."""

from __future__ import annotations

from collections import Counter

import pytest

from wizard.cards import (
    CARDS,
    JESTER,
    STANDARD_DECK,
    SUITS,
    WIZARD,
    Card,
    Suit,
    Theme,
    card_label,
    parse_cards,
    suit_label,
)
from wizard.rules import trick_winner


def test_R1_1_deck_has_60_cards_four_suits_of_13_four_wizards_four_jesters() -> None:
    counts = Counter(c.code for c in STANDARD_DECK)
    assert len(STANDARD_DECK) == 60
    assert counts["Z"] == 4
    assert counts["N"] == 4
    for suit in "BRGY":
        assert [counts[f"{suit}{rank}"] for rank in range(1, 14)] == [1] * 13
    assert sum(counts.values()) == 60
    assert len(counts) == 54


def test_R1_1_ranks_run_from_1_lowest_to_13_highest() -> None:
    # Within one suit the higher number wins the trick (R5.6): 1 is lowest, 13 highest.
    low, mid, high = Card.parse("G1"), Card.parse("G7"), Card.parse("G13")
    assert trick_winner([low, mid, high]) == 2
    assert trick_winner([high, low, mid]) == 0
    assert {Card.parse(f"G{r}").rank for r in range(1, 14)} == set(range(1, 14))


def test_R1_2_the_four_suits_and_their_letters() -> None:
    assert [s.value for s in SUITS] == ["B", "R", "G", "Y"]
    assert Suit.HUMANS.value == "B"
    assert Suit.DWARVES.value == "R"
    assert Suit.ELVES.value == "G"
    assert Suit.GIANTS.value == "Y"
    assert [Suit.parse(x) for x in "BRGY"] == list(SUITS)
    with pytest.raises(ValueError, match="unknown suit"):
        Suit.parse("X")


def test_R1_3_wizard_and_jester_have_no_suit() -> None:
    assert WIZARD.suit is None and WIZARD.rank is None and WIZARD.is_wizard
    assert JESTER.suit is None and JESTER.rank is None and JESTER.is_jester
    assert not WIZARD.is_jester and not JESTER.is_wizard


@pytest.mark.parametrize("other", ["B13", "Y13", "R1", "N"])
def test_R1_3_wizard_beats_every_other_card(other: str) -> None:
    trick = [Card.parse(other), WIZARD]
    # even against the highest trump
    assert trick_winner(trick, Suit.parse(other[0]) if other != "N" else None) == 1


@pytest.mark.parametrize("other", ["B1", "Y13", "R1"])
def test_R1_3_jester_loses_to_every_other_card(other: str) -> None:
    # the Jester leads, a suited card follows: the suited card wins (no suit, no trump needed)
    assert trick_winner([JESTER, Card.parse(other)]) == 1
    # and a Jester following a card of another suit never wins either
    assert trick_winner([Card.parse(other), JESTER], None) == 0


def test_R1_4_every_card_code_parses_and_round_trips() -> None:
    codes = [f"{s}{r}" for s in "BRGY" for r in range(1, 14)] + ["Z", "N"]
    cards = [Card.parse(code) for code in codes]
    assert [c.code for c in cards] == codes
    assert [str(c) for c in cards] == codes
    assert len(set(cards)) == 54
    assert set(cards) == set(CARDS)
    b7 = Card.parse("B7")
    assert (b7.suit, b7.rank) == (Suit.HUMANS, 7)
    assert Card.of(Suit.GIANTS, 13) == Card.parse("Y13")
    assert parse_cards("B7 Z N") == (Card.parse("B7"), WIZARD, JESTER)


@pytest.mark.parametrize("bad", ["B0", "B14", "X1", "b7", "", "ZZ", "W", "JE", "B 7", "N1"])
def test_R1_4_unknown_card_codes_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="unknown card code"):
        Card.parse(bad)


def test_R1_4_wizards_are_interchangeable_and_so_are_jesters() -> None:
    assert Card.parse("Z") == WIZARD and Card.parse("Z") is Card.parse("Z")
    assert Card.parse("N") == JESTER and Card.parse("N") is Card.parse("N")
    assert STANDARD_DECK.count(WIZARD) == 4 and STANDARD_DECK.count(JESTER) == 4


@pytest.mark.parametrize(
    ("code", "label"),
    [
        ("B1", "2♠"),
        ("B9", "10♠"),
        ("B10", "J♠"),
        ("B11", "Q♠"),
        ("B12", "K♠"),
        ("B13", "A♠"),
        ("R1", "2♥"),
        ("R7", "8♥"),
        ("G13", "A♦"),
        ("G5", "6♦"),
        ("Y12", "K♣"),
        ("Y1", "2♣"),
        ("Z", "W"),
        ("N", "JE"),
    ],
)
def test_R1_5_standard_deck_theme_labels(code: str, label: str) -> None:
    card = Card.parse(code)
    assert card_label(card, Theme.STANDARD) == label
    assert card_label(card, Theme.CLASSIC) == code
    assert card_label(card) == code


def test_R1_5_themes_only_change_the_look() -> None:
    # Every card keeps a distinct label in both themes (a relabelling, nothing merged).
    for theme in Theme:
        labels = [card_label(c, theme) for c in CARDS]
        assert len(set(labels)) == 54
    assert [suit_label(s, Theme.STANDARD) for s in SUITS] == ["♠", "♥", "♦", "♣"]
    assert [suit_label(s) for s in SUITS] == ["B", "R", "G", "Y"]
    # The rank order is the same: 2 < 3 < … < 10 < J < Q < K < A maps onto 1…13.
    order = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert [card_label(Card.of(Suit.ELVES, r), Theme.STANDARD)[:-1] for r in range(1, 14)] == order
