"""The game as immutable values: phases, actions and the state they fold into."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from wizard.cards import Card, Suit
from wizard.options import Options


class Phase(StrEnum):
    """What the game waits for."""

    ROUND_OVER = "round_over"
    """Between rounds: the deal of the next round is due (also before round 1)."""
    CHOOSE_TRUMP = "choose_trump"
    """A Wizard was turned up: the dealer chooses trump (R3.3)."""
    BID = "bid"
    """Players bid (R4)."""
    PLAY = "play"
    """Players play tricks (R5)."""
    GAME_OVER = "game_over"
    """The last round is scored (R6.3)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the hands dealt for the next round and the turned card (R2.3, R3.1)."""

    hands: tuple[tuple[Card, ...], ...]
    turned: Card | None


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """The dealer names trump after a turned Wizard (R3.3)."""

    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class Bid:
    """A seat bids a number of tricks (R4.1)."""

    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class Play:
    """A seat plays a card to the current trick (R5)."""

    seat: int
    card: Card


Action = Deal | ChooseTrump | Bid | Play
"""Everything that moves a game on."""


class RoundResult(NamedTuple):
    """A scored round, kept in the state's history (it is also a record round)."""

    round: int
    dealer: int
    dealt: tuple[tuple[Card, ...], ...]
    turned: Card | None
    trump: Suit | None
    bids: tuple[int, ...]
    plays: tuple[Card, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


class GameState(NamedTuple):
    """A whole game at one moment. Immutable: :func:`wizard.rules.apply` returns a new one.

    A ``NamedTuple`` rather than a frozen dataclass because the engine builds one
    per action and tuple construction is about nine times cheaper.
    """

    players: tuple[str, ...]
    options: Options
    seed: int | None
    first_dealer: int
    phase: Phase
    round: int
    """Current round, 1-based; 0 before the first deal."""
    dealer: int
    turn: int | None
    """The seat to act, or ``None`` when several may (hidden/secret bids) or nobody."""
    dealt: tuple[tuple[Card, ...], ...]
    """The hands as dealt this round."""
    hands: tuple[tuple[Card, ...], ...]
    """The cards still held, each hand sorted."""
    turned: Card | None
    trump: Suit | None
    bids: tuple[int | None, ...]
    played: tuple[tuple[Card, ...], ...]
    """The completed tricks of this round, in order."""
    leader: int
    """The seat that led (or will lead) the current trick."""
    trick: tuple[Card, ...]
    """Cards of the current trick, starting with the leader's."""
    follow: Suit | None
    """The suit to follow of the current trick (R5.2), once one is set."""
    last_leader: int
    """The seat that led the previous trick of this round."""
    tricks: tuple[int, ...]
    """Tricks won this round, by seat."""
    scores: tuple[int, ...]
    """Running totals (R6.3)."""
    history: tuple[RoundResult, ...]
    """Every scored round."""

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.players)

    @property
    def plays(self) -> tuple[Card, ...]:
        """Every card played this round, in order."""
        return (*(c for t in self.played for c in t), *self.trick)

    @property
    def last_trick(self) -> tuple[Card, ...]:
        """The cards of the previous trick of this round, if any."""
        return self.played[-1] if self.played else ()

    @property
    def last_winner(self) -> int | None:
        """The seat that won the previous trick of this round, if any."""
        # The winner of a trick leads the next one (R5.1), so ``leader`` is that winner.
        return self.leader if self.played else None
