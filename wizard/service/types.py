"""Read-only values the service hands to a front end: games, seats, views, statistics."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from wizard.options import Options
from wizard.service.events import GameStatus, Standing
from wizard.service.moves import Move
from wizard.state import Phase
from wizard.view import PlayerView, TableView


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat: a user, or a computer player (``user_id`` is ``None``)."""

    seat: int
    user_id: int | None
    name: str
    level: str | None
    """Computer level of a computer seat, or of the computer holding an away player's seat."""
    away: bool
    """A computer plays this user's seat (after timeouts, leaving or a kick)."""
    kicked: bool
    """Away for good: the user may not take the seat back."""
    timeouts: int
    """Consecutive turn timeouts."""

    @property
    def is_computer(self) -> bool:
        """A seat that never had a user."""
        return self.user_id is None

    @property
    def computer_controlled(self) -> bool:
        """Whether a computer makes this seat's moves now."""
        return self.user_id is None or self.away


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game as the front end needs it: lobby or table, seats, timers, message ids."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: GameStatus
    options: Options
    version: int
    seats: tuple[SeatInfo, ...]
    turn_seconds: float | None
    deadline: float | None
    """Unix time of the lobby expiry or of the current turn's time limit."""
    lobby_message_id: int | None
    table_message_id: int | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    table: TableView | None
    """The public table once the game has started."""
    standings: tuple[Standing, ...] = ()
    """Final places of a finished game."""
    broken_reason: str | None = None
    computer_level: str | None = None
    """Level of the computers the lobby adds (``None``: the server's default)."""
    allow_seat_taking: bool = False
    """The host lets people who are not seated take over computer seats (``take_seat``)."""
    hints_used: tuple[int, ...] = ()
    """Seats that asked for a hint; a game with any is not rated."""

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id``, if seated."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def rated(self) -> bool:
        """Whether the game's result changes ratings (not once a hint was used)."""
        return not self.hints_used

    def seats_open_to(self, user_id: int) -> tuple[int, ...]:
        """Seats ``user_id`` may take now with ``take_seat``: their own seat while a
        computer holds it (not after a kick); or, if not seated and the host allows it,
        every seat a computer plays. Empty unless the game is running."""
        if self.status is not GameStatus.ACTIVE:
            return ()
        own = next((s for s in self.seats if s.user_id == user_id), None)
        if own is not None:
            return (own.seat,) if own.away and not own.kicked else ()
        if not self.allow_seat_taking:
            return ()
        return tuple(s.seat for s in self.seats if s.computer_controlled)


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


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player's private view of a game, with the version to put on their buttons."""

    game_id: int
    version: int
    seat: int
    view: PlayerView
    play_hidden_card: bool
    """Clairvoyance (R7.4): it is this seat's turn and its only card is hidden from it;
    offer "play my card" (``PlayHiddenCard``)."""
    away: bool
    """A computer holds the seat; :meth:`GameService.take_back` returns it."""


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
    def average_score(self) -> float:
        """Mean final score per game."""
        return self.total_score / self.games if self.games else 0.0

    @property
    def bid_accuracy(self) -> float:
        """Exact bids / bids."""
        return self.exact_bids / self.bids if self.bids else 0.0


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One line of a leaderboard."""

    rank: int
    stats: PlayerStats


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """A page of a server's leaderboard (pages count from 1)."""

    guild_id: int
    order: LeaderboardOrder
    page: int
    per_page: int
    total: int
    """Players on the whole leaderboard."""
    entries: tuple[LeaderboardEntry, ...]

    @property
    def pages(self) -> int:
        """Number of pages."""
        return max(1, -(-self.total // self.per_page))


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
    notes: tuple[str, ...] = field(default=())
    """Lines for the operator (the database's ``quick_check``)."""
