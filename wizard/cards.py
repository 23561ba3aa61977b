"""Cards, suits and decks (R1).

A card is a small ``int`` (so it is cheap to hash, compare and store) with a
readable code: ``B1``…``Y13`` for suited cards, ``Z`` for a Wizard and ``N``
for a Jester (R1.4).

>>> Card.parse("B7").rank, Card.parse("B7").suit
(7, <Suit.HUMANS: 'B'>)
>>> Card.parse("Z").is_wizard
True
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Suit(StrEnum):
    """The four suits of the classic edition (R1.2); the value is the card-code letter."""

    HUMANS = "B"
    DWARVES = "R"
    ELVES = "G"
    GIANTS = "Y"

    @property
    def position(self) -> int:
        """Position of the suit in B, R, G, Y order."""
        return _SUIT_INDEX[self]

    @classmethod
    def parse(cls, letter: str) -> Suit:
        """The suit of a card-code letter; ``ValueError`` for anything else."""
        try:
            return cls(letter)
        except ValueError:
            raise ValueError(f"unknown suit {letter!r}: suits are B, R, G, Y") from None


SUITS: Final = (Suit.HUMANS, Suit.DWARVES, Suit.ELVES, Suit.GIANTS)
_SUIT_INDEX: Final = {s: i for i, s in enumerate(SUITS)}

JESTER_ID: Final = 52
WIZARD_ID: Final = 53
RANKS: Final = range(1, 14)


class Card(int):
    """One card; immutable and interned: use :meth:`parse` or the module constants."""

    __slots__ = ()

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card with this code (R1.4); ``ValueError`` names the bad code."""
        card = _BY_CODE.get(code)
        if card is None:
            raise ValueError(
                f"unknown card code {code!r}: use B1…B13, R1…R13, G1…G13, Y1…Y13, Z or N"
            )
        return card

    @classmethod
    def of(cls, suit: Suit, rank: int) -> Card:
        """The suited card of this suit and rank (1…13)."""
        if rank not in RANKS:
            raise ValueError(f"rank {rank} is not in 1…13")
        return CARDS[suit.position * 13 + rank - 1]

    @property
    def code(self) -> str:
        """The card code of R1.4."""
        return _CODES[self]

    @property
    def suit(self) -> Suit | None:
        """The suit, or ``None`` for a Wizard or a Jester (R1.3)."""
        return SUIT_OF[self]

    @property
    def rank(self) -> int | None:
        """1…13 for a suited card, ``None`` for a Wizard or a Jester."""
        return None if self >= JESTER_ID else int(self) % 13 + 1

    @property
    def is_wizard(self) -> bool:
        """True for a Wizard."""
        return self == WIZARD_ID

    @property
    def is_jester(self) -> bool:
        """True for a Jester."""
        return self == JESTER_ID

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code


def _code(i: int) -> str:
    if i == JESTER_ID:
        return "N"
    if i == WIZARD_ID:
        return "Z"
    return f"{SUITS[i // 13].value}{i % 13 + 1}"


CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(54))
"""Every distinct card, indexed by its integer value."""
_CODES: Final = tuple(_code(i) for i in range(54))
_BY_CODE: Final = {_code(i): CARDS[i] for i in range(54)}
SUIT_OF: Final[tuple[Suit | None, ...]] = tuple(
    SUITS[i // 13] if i < JESTER_ID else None for i in range(54)
)
"""The suit of each card by integer value (``None`` for Wizard and Jester)."""

WIZARD: Final = CARDS[WIZARD_ID]
JESTER: Final = CARDS[JESTER_ID]

STANDARD_DECK: Final[tuple[Card, ...]] = CARDS[:52] + (JESTER,) * 4 + (WIZARD,) * 4
"""The 60-card deck of R1.1."""


def single_suit_deck(suit: Suit) -> tuple[Card, ...]:
    """A player's personal 15-card deck under R7.7: one suit's 1–13, a Wizard and a Jester."""
    start = suit.position * 13
    return (JESTER, *CARDS[start : start + 13], WIZARD)


def parse_cards(codes: str) -> tuple[Card, ...]:
    """Cards from space-separated codes, e.g. ``parse_cards("B7 Z N")``."""
    return tuple(Card.parse(c) for c in codes.split())


class Theme(StrEnum):
    """How cards look (R1.5): the classic codes, or the look of a standard deck."""

    CLASSIC = "classic"
    STANDARD = "standard"


_STANDARD_SUITS: Final = {
    Suit.HUMANS: "♠",
    Suit.DWARVES: "♥",
    Suit.ELVES: "♦",
    Suit.GIANTS: "♣",
}
_STANDARD_RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def suit_label(suit: Suit, theme: Theme = Theme.CLASSIC) -> str:
    """The suit as shown in ``theme``: ``B`` or ``♠`` (R1.5)."""
    return suit.value if theme is Theme.CLASSIC else _STANDARD_SUITS[suit]


def rank_label(rank: int, theme: Theme = Theme.CLASSIC) -> str:
    """A suited card's rank (1…13) as shown in ``theme`` (R1.5): rank 2 is ``3`` in the
    standard theme, whose ranks run 2…10, J, Q, K, A.

    >>> rank_label(2), rank_label(2, Theme.STANDARD), rank_label(13, Theme.STANDARD)
    ('2', '3', 'A')
    """
    if rank not in RANKS:
        raise ValueError(f"rank {rank} is not in 1…13")
    return str(rank) if theme is Theme.CLASSIC else _STANDARD_RANKS[rank - 1]


def card_label(card: Card, theme: Theme = Theme.CLASSIC) -> str:
    """The card as shown in ``theme`` (R1.5): ``B1`` is ``2♠`` and ``Y13`` is ``A♣``.

    >>> card_label(Card.parse("B1"), Theme.STANDARD), card_label(Card.parse("Z"), Theme.STANDARD)
    ('2♠', 'W')
    """
    if theme is Theme.CLASSIC:
        return card.code
    if card == WIZARD_ID:
        return "W"
    if card == JESTER_ID:
        return "JE"
    suit = SUIT_OF[card]
    assert suit is not None
    return rank_label(card % 13 + 1, theme) + _STANDARD_SUITS[suit]
