"""What changed: the events a front end renders after a call or a background move.

Every event carries public information only (RULES §8.1): it is safe to show in
the channel. Private things (a hand, a hidden bid) are read through
:meth:`GameService.seat_view`, except the acting player's own view, which the update of
their own move carries (:attr:`GameUpdate.view`) for them alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from wizard.cards import Card, Suit
from wizard.options import Options
from wizard.state import Action, Phase
from wizard.view import SeatCard

if TYPE_CHECKING:  # the front end's values are built on the events (types imports this module)
    from wizard.service.game import GameInfo, SeatView
    from wizard.service.settings import GuildSettings


class GameStatus(StrEnum):
    """Where a game is in its life."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    BROKEN = "broken"
    """The stored game could not be read back; ``broken_reason`` says why."""


class Actor(StrEnum):
    """Who made a logged action."""

    PLAYER = "player"
    """The seated user, by a click."""
    COMPUTER = "computer"
    """A computer seat, or a computer holding a seat for a player who left or timed out."""
    TIMEOUT = "timeout"
    """A computer acting for a player whose turn time ran out."""


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The lobby became a game: seat order, first dealer and options are now fixed."""

    players: tuple[str, ...]
    first_dealer: int
    options: Options
    num_rounds: int


@dataclass(frozen=True, slots=True)
class RoundDealt:
    """A new round was dealt (by the service, from the game's seed)."""

    round: int
    num_rounds: int
    dealer: int
    tricks: int
    """Cards per hand, and so tricks, in this round."""
    turned: Card | None
    trump: Suit | None
    """``None`` while the dealer still has to choose (a turned Wizard) or with no trump."""


@dataclass(frozen=True, slots=True)
class TrumpChosen:
    """The dealer named trump after a turned Wizard (R3.3)."""

    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class BidMade:
    """A seat bid; ``bid`` is ``None`` while the others may not see it (R7.2, R7.3)."""

    seat: int
    bid: int | None


@dataclass(frozen=True, slots=True)
class BidsRevealed:
    """Hidden bids are all in and shown together (R7.2)."""

    bids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card went to the current trick."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A trick is complete; ``winner`` leads the next one (R5.1)."""

    round: int
    trick: int
    """1-based number of the trick in its round."""
    winner: int
    cards: tuple[SeatCard, ...]
    tricks: tuple[int, ...]
    """Tricks won so far this round, by seat."""


@dataclass(frozen=True, slots=True)
class RoundScored:
    """A round ended and was scored (R6)."""

    round: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's final place (1 is best; tied totals share a place, R6.3)."""

    seat: int
    name: str
    user_id: int | None
    score: int
    place: int
    exact_bids: int
    rounds: int
    hints_used: bool = False
    """This seat asked for hints during the game (the game is then not rated)."""
    forfeited: bool = False
    """The seat's person left (or was removed) and a computer played it to the end: the
    place and points are the computer's, and the person's game counts as lost."""


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A player's rating before and after the game (ordinal: mu − 3·sigma)."""

    user_id: int
    before: float
    after: float


@dataclass(frozen=True, slots=True)
class GameOver:
    """The last round is scored; results and ratings are already stored."""

    standings: tuple[Standing, ...]
    """By place, best first."""
    winners: tuple[int, ...]
    ratings: tuple[RatingChange, ...]


@dataclass(frozen=True, slots=True)
class TurnChanged:
    """Who must act now; several seats while hidden or secret bids are chosen."""

    phase: Phase
    round: int
    seats: tuple[int, ...]
    deadline: float | None
    """Unix time when the turn timer runs out, or ``None`` without a timer."""


@dataclass(frozen=True, slots=True)
class PlayerTimedOut:
    """The turn timer ran out and a computer acted for the seat."""

    seat: int
    consecutive: int


@dataclass(frozen=True, slots=True)
class SeatHandedToComputer:
    """A computer player holds the seat until its player takes it back (if allowed)."""

    seat: int
    reason: str
    """``"timeouts"``, ``"left"`` or ``"kicked"``."""


@dataclass(frozen=True, slots=True)
class SeatTakenBack:
    """The player plays their own seat again."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatTakenOver:
    """A person who was not seated took over a seat a computer played; the game goes on
    from the same state, the seat now carries their name."""

    seat: int
    user_id: int
    name: str
    previous: str
    """The seat's name before (the computer's, or the player's who left)."""


@dataclass(frozen=True, slots=True)
class HostPassed:
    """The host's say passed to the person of ``seat``, as a seat changed hands (the host's
    went to a computer, or came back, or someone took a seat over)."""

    seat: int


@dataclass(frozen=True, slots=True)
class GameCancelled:
    """The game ended without a result."""

    reason: str
    """``"host"``, ``"manager"``, ``"expired"`` (lobby timed out), ``"empty"`` (everyone
    left the lobby), ``"abandoned"`` (no person plays the running game any more: the last
    one left or was removed), or by the system (``GameService.cancel_games_in``):
    ``"channel_deleted"`` (the game's channel or thread was deleted) or ``"server_left"``
    (the bot was removed from the server)."""


Event = (
    GameStarted
    | RoundDealt
    | TrumpChosen
    | BidMade
    | BidsRevealed
    | CardPlayed
    | TrickWon
    | RoundScored
    | GameOver
    | TurnChanged
    | PlayerTimedOut
    | SeatHandedToComputer
    | SeatTakenBack
    | SeatTakenOver
    | HostPassed
    | GameCancelled
)
"""Anything a front end may have to render."""


@dataclass(frozen=True, slots=True)
class GameUpdate:
    """The result of a change: the new version and the events, in the order they happened."""

    game_id: int
    version: int
    """Pass this back as ``expected_version`` with the next click on the surface."""
    status: GameStatus
    events: tuple[Event, ...]
    seat: int | None = None
    """The seat that acted, if an action was applied."""
    action: Action | None = None
    """The engine action applied, if any."""
    actor: Actor | None = None
    duplicate: bool = False
    """True when this request id was already applied: nothing new happened."""
    info: GameInfo | None = None
    """The public picture of the game right after this change (what ``get_game`` would have
    answered then), so that a front end renders the change without reading the game again.
    ``None`` on a duplicate: its moment has passed, the game may have moved on since."""
    view: SeatView | None = None
    """The acting person's own view right after their move (their hand, their next legal
    moves): private, for the caller of ``act`` alone; ``None`` for computers' and background
    moves and on a duplicate. Other players' views are still read with ``seat_view``."""
    settings: GuildSettings | None = None
    """The server's settings the change was made under (the language and card theme of its
    messages), so that rendering it needs no read of them; ``None`` on a duplicate."""
