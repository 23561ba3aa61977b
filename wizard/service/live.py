"""A game held in memory by the service: its rows, its state, its lock and its timer."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field, fields

from wizard.ai import ComputerPlayer, make_player
from wizard.options import Options
from wizard.service.clock import TimerHandle
from wizard.service.events import GameStatus, GameUpdate, Standing
from wizard.service.types import GameInfo, SeatInfo
from wizard.state import Action, GameState
from wizard.store.models import SeatRow
from wizard.view import table_view

log = logging.getLogger(__name__)

RECENT_UPDATES = 8


@dataclass(eq=False)
class LiveGame:
    """The service's copy of one game; changed only after the database has committed."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: GameStatus
    version: int
    options: Options = field(default_factory=Options)
    seed: int = 0
    turn_seconds: float | None = None
    deadline: float | None = None
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    created_at: float = 0.0
    started_at: float | None = None
    finished_at: float | None = None
    seats: list[SeatRow] = field(default_factory=list)
    computer_level: str | None = None
    """Level of the computers this lobby adds (``None``: the server's default)."""
    allow_seat_taking: bool = False
    """People who are not seated may take over computer seats (the host's choice)."""
    hints_used: frozenset[int] = frozenset()
    """Seats that asked for a hint (stored as bits in ``games.hints_used``)."""
    state: GameState | None = None
    actions: list[Action] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    """The game's version after each logged action (for answering duplicates)."""
    request_ids: dict[str, int] = field(default_factory=dict)
    """Request id → seq of the action it made."""
    last_non_bid_version: int = 0
    """The last version that changed more than a hidden or secret bid (see the stale check)."""
    computer_due: float | None = None
    """When the next computer move is due (memory only: on restart it is due at once)."""
    standings: tuple[Standing, ...] = ()
    broken_reason: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: TimerHandle | None = None
    computers: dict[tuple[int, str], ComputerPlayer] = field(default_factory=dict)
    recent: dict[str, GameUpdate] = field(default_factory=dict)
    """The last few updates made by requests, returned as they were to a repeated request."""

    def remember(self, request_id: str, update: GameUpdate) -> None:
        """Keep ``update`` for a repeat of ``request_id`` (a few per game: repeats come soon)."""
        self.recent[request_id] = update
        if len(self.recent) > RECENT_UPDATES:
            del self.recent[next(iter(self.recent))]

    @property
    def seq(self) -> int:
        """Number of logged actions."""
        return len(self.actions)

    def seat_of(self, user_id: int) -> SeatRow | None:
        """The seat of ``user_id``, if seated."""
        for s in self.seats:
            if s.user_id == user_id:
                return s
        return None

    def computer(self, seat: int, level: str) -> ComputerPlayer:
        """The computer player of a seat at a level (kept, so that its state carries on)."""
        key = (seat, level)
        player = self.computers.get(key)
        if player is None:
            seed = self.computer_seed(seat)
            try:
                player = make_player(level, seed=seed)
            except ValueError:
                # A level stored by another version of the bot: play on rather than stall.
                log.warning("game %s: unknown computer level %r, playing 'random'", self.id, level)
                player = make_player("random", seed=seed)
            self.computers[key] = player
        return player

    def computer_seed(self, seat: int) -> int:
        """The seed of a seat's computer player."""
        # Deterministic per game and seat, so that a test or a bug report can replay it.
        return (self.seed * 7 + seat) % (2**63)

    def info(self) -> GameInfo:
        """The front end's picture of the game."""
        return GameInfo(
            **{name: getattr(self, name) for name in _INFO_FIELDS},
            seats=tuple(SeatInfo(**{k: getattr(s, k) for k in _SEAT_FIELDS}) for s in self.seats),
            table=table_view(self.state) if self.state is not None else None,
            hints_used=tuple(sorted(self.hints_used)),
        )


_LIVE_FIELDS = {f.name for f in fields(LiveGame)} - {"seats", "hints_used"}
_INFO_FIELDS = tuple(f.name for f in fields(GameInfo) if f.name in _LIVE_FIELDS)
"""What :class:`GameInfo` takes from a live game as it is (the same names; a field the game
does not have keeps its default)."""
_SEAT_FIELDS = tuple(f.name for f in fields(SeatInfo) if f.name in SeatRow.model_fields)


def computer_controlled(row: SeatRow) -> bool:
    """Whether a computer makes this seat's moves now."""
    return row.user_id is None or row.away
