"""Read-only values the service hands to a front end besides a game itself (which is
:class:`wizard.service.game.GameInfo`): seat history, hints, statistics, history, start-up."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from wizard.options import Options
from wizard.service.events import Standing
from wizard.service.moves import Move
from wizard.state import Phase


@dataclass(frozen=True, slots=True)
class SeatHolder:
    """Who played a seat from an action on: a person, or a computer at a level."""

    seat: int
    from_action: int
    """0-based index in the game's log of the first action this holder plays (the number
    of actions logged before it took over); it holds the seat until the seat's next holder."""
    user_id: int | None
    """The person, or ``None`` for a computer."""
    level: str | None
    """The computer's level (``None`` for a person)."""
    name: str
    """The seat's name while this holder played it."""

    @property
    def is_computer(self) -> bool:
        """A computer played the seat."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class Hint:
    """What the ``normal`` computer would do in a player's place, for that player only."""

    game_id: int
    version: int
    """The game's version the hint was made for (its turn)."""
    seat: int
    phase: Phase
    move: Move
    """The suggestion, as ``act`` takes it: ``MakeBid``, ``NameTrump``, ``PlayCard``, or
    ``PlayHiddenCard`` when the player cannot see their card (clairvoyance, R7.4)."""
    expected_tricks: float
    """The computer's estimate of the tricks this seat wins in the whole round, those won
    already included: between ``tricks_won`` and ``tricks_won`` + cards in hand."""
    tricks_won: int
    """Tricks this seat has won so far this round."""
    level: str = "normal"


class LeaderboardOrder(StrEnum):
    """How a leaderboard is sorted."""

    RATING = "rating"
    WINS = "wins"
    AVERAGE = "average"


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record on one server."""

    guild_id: int
    user_id: int
    name: str
    rating: float
    """Ordinal of the Plackett–Luce rating: mu − 3·sigma (starts at 0)."""
    mu: float
    sigma: float
    games: int
    wins: int
    total_score: int
    best_score: int | None
    best_game_id: int | None
    bids: int
    exact_bids: int

    @property
    def bid_accuracy(self) -> float:
        """Exact bids / bids."""
        return self.exact_bids / self.bids if self.bids else 0.0


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished game in a server's history: who played, who won, and when."""

    id: int
    guild_id: int
    channel_id: int
    options: Options
    rounds: int
    """Rounds played (all of them: a finished game played its last round)."""
    started_at: float | None
    finished_at: float
    standings: tuple[Standing, ...]
    """Every seat's final place, best first (ties by seat), computer seats included."""

    @property
    def players(self) -> tuple[str, ...]:
        """Names in seat order."""
        return tuple(s.name for s in sorted(self.standings, key=lambda s: s.seat))

    @property
    def winners(self) -> tuple[Standing, ...]:
        """The seats in first place (several on a tie, R6.3)."""
        return tuple(s for s in self.standings if s.place == 1)


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What start-up found."""

    loaded: tuple[int, ...] = ()
    """This process's lobbies and running games: clocks armed, each loaded on first use."""
    broken: tuple[tuple[int, str], ...] = ()
    """Quarantined (damaged) games, with the reason: refused to players, listed here."""
    seconds: float = 0.0
    skipped: int = 0
    """Unfinished games of other shards, left alone."""


@dataclass(frozen=True, slots=True)
class OpenHand:
    """A player's private hand message as a front end left it, kept so that a process that
    starts after this one stopped can go on editing it (see ``GameService.keep_open_hand``)."""

    game_id: int
    user_id: int
    message_id: int
    token: str = field(repr=False)
    """The interaction token that can edit the message, a secret until ``expires_at`` (kept
    out of the repr, so that no log line shows it)."""
    language: str
    """The language of the player's Discord when they opened it (``"en"``, ``"fr"``…), from
    which, and the server's language, a front end finds the one the hand speaks."""
    expires_at: float
    """Clock time after which the token may no longer edit the message."""
