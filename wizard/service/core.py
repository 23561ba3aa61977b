"""The game service: the only writer of games, one lock per game, clocks and computer turns."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import logging
import multiprocessing
import secrets
import sqlite3
import time
from collections import OrderedDict
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Coroutine, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import aiosqlite
from pydantic import ValidationError

from wizard.ai import LEVELS, ComputerPlayer, decide
from wizard.errors import IllegalActionError, OptionsError
from wizard.errors import NotYourTurnError as EngineNotYourTurnError
from wizard.options import MAX_PLAYERS, MIN_PLAYERS, Bidding, Options, check_setup
from wizard.record import dumps
from wizard.rules import num_rounds, to_act, winners
from wizard.service.boards import BoardQueries
from wizard.service.clock import Clock, SystemClock
from wizard.service.errors import (
    AlreadySeatedError,
    ChannelBusyError,
    GameNotFoundError,
    GameStatusError,
    IllegalMoveError,
    InvalidOptionsError,
    InvalidSettingsError,
    LobbyFullError,
    NotAwayError,
    NotEnoughPlayersError,
    NotHostError,
    NotSeatedError,
    SeatNotFoundError,
    ServiceError,
    StaleVersionError,
    StorageError,
)
from wizard.service.events import (
    Actor,
    Event,
    GameCancelled,
    GameOver,
    GameStarted,
    GameStatus,
    GameUpdate,
    PlayerTimedOut,
    RatingChange,
    SeatHandedToComputer,
    SeatTakenBack,
    Standing,
)
from wizard.service.game import (
    SnapshotError,
    dealt_event,
    decode_action,
    encode_action,
    fold,
    initial_state,
    load_snapshot,
    snapshot_differences,
    standings,
    state_differences,
    step,
    turn_event,
)
from wizard.service.live import LiveGame, computer_controlled
from wizard.service.moves import MakeBid, Move, NameTrump, PlayCard, PlayHiddenCard
from wizard.service.results import default_rating, ordinal, record_results
from wizard.service.settings import (
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    GuildSettings,
    ServiceConfig,
)
from wizard.service.types import (
    GameInfo,
    GameSummary,
    LeaderboardEntry,
    LeaderboardOrder,
    LeaderboardPage,
    PlayerStats,
    RecoveryReport,
    SeatView,
)
from wizard.state import Action, Bid, ChooseTrump, GameState, Phase, Play
from wizard.store import repo
from wizard.store.db import (
    DEFAULT_PATH,
    ConflictError,
    Statements,
    Store,
    WriteItem,
    run_statements,
)
from wizard.store.models import ACTION_LOG, GameRow, PlayerRow, ResultRow, SeatRow, parse
from wizard.view import PlayerView, TableView, own_hand_hidden, view

log = logging.getLogger(__name__)

T = TypeVar("T")
Listener = Callable[[GameUpdate], Awaitable[None]]
"""Receives the updates the service makes by itself (computer moves, timeouts, expiry)."""
GuildFilter = Callable[[int], bool]
"""Whether this process handles a server (its shard): recovery and clocks skip the others."""

ENDED_CACHE = 128
"""Finished and cancelled games kept in memory (the others are replayed when asked for)."""
RECOVERY_CHUNK = 100
"""Logs of games read per query at recovery."""
CHECK_CHUNK = 25
"""Logs of games read per query by the background check (small: a click on a game not yet
checked reads its own log on the same connection, after the query in progress)."""
GC_THRESHOLDS = (150, 5, 10_000)
"""Thresholds of the cyclic collector with ``ServiceConfig.tune_gc`` (see :func:`tune_gc`)."""
COMPUTER_NAMES = ("Merlin", "Morgana", "Nimue", "Taliesin", "Circe", "Prospero", "Medea")
_UNSET: Any = object()


class _Broken(Exception):
    """A stored game that cannot be trusted; the message is the logged reason."""


class _Replayed(NamedTuple):
    """A game's whole log, validated and replayed."""

    state: GameState
    actions: list[Action]
    versions: list[int]
    request_ids: dict[str, int]


class GameService(BoardQueries):
    """Lobbies, play, clocks, results and queries of Wizard games, stored in SQLite.

    Every change goes through one method call that takes the game's lock, checks,
    writes and commits, and only then changes the in-memory game and returns what
    changed. Refusals are :class:`~wizard.service.errors.ServiceError` subclasses raised
    before anything is written.
    """

    def __init__(
        self,
        store: Store,
        *,
        config: ServiceConfig | None = None,
        clock: Clock | None = None,
        owns_guild: GuildFilter | None = None,
    ) -> None:
        self._store = store
        self.config = config or ServiceConfig()
        self.clock: Clock = clock or SystemClock()
        self._owns: GuildFilter = owns_guild or (lambda _guild: True)
        self._games: dict[int, LiveGame] = {}
        self._loading: dict[int, asyncio.Future[LiveGame | None]] = {}
        self._settings: dict[int, GuildSettings] = {}
        self._ended: OrderedDict[int, LiveGame] = OrderedDict()
        self._listeners: list[Listener] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._running = False
        self._closed = False
        self._ai_pool: ProcessPoolExecutor | None = None
        self._unverified: dict[int, LiveGame] = {}
        """Games loaded from snapshots whose logs are not checked yet, in recovery order."""
        self._verifier: asyncio.Task[None] | None = None
        self._recovery = RecoveryReport()
        """The report of the last recovery, completed as the background check goes on."""
        self._recovery_started = 0.0

    # --- life cycle -------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path = DEFAULT_PATH,
        *,
        config: ServiceConfig | None = None,
        clock: Clock | None = None,
        owns_guild: GuildFilter | None = None,
        recover: bool = True,
    ) -> GameService:
        """Open (create, migrate) the database and, by default, recover unfinished games.

        Clocks and computer turns run only after :meth:`start_clocks`, so that listeners can be
        subscribed first.
        """
        config = config or ServiceConfig()
        if config.tune_gc:
            tune_gc()
        store = await Store.open(
            path,
            batch_limit=config.batch_limit,
            one_trip=config.one_trip_commits,
            on_loop=config.commit_on_loop,
        )
        service = cls(store, config=config, clock=clock, owns_guild=owns_guild)
        if recover:
            await service.recover()
        return service

    @property
    def store(self) -> Store:
        """The database (for tests and tools; the front end never needs it)."""
        return self._store

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with each background update; returns the unsubscribe function.

        Background updates are the ones nobody called for: computer moves, turn
        timeouts, hand-overs after timeouts and lobby expiry. The result of a call
        (``act``, ``start``, ...) goes to its caller only.
        """
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def start_clocks(self) -> None:
        """Run the clocks: lobby expiry, turn timers and computer turns (with their delay)."""
        self._running = True
        now = self.clock.now()
        for live in list(self._games.values()):
            if live.status is GameStatus.ACTIVE and live.computer_due is None:
                live.computer_due = self._computer_due(live, now)
            self._arm(live)

    async def stop_clocks(self) -> None:
        """Stop the clocks and wait for the work they started."""
        self._running = False
        for live in self._games.values():
            if live.timer is not None:
                live.timer.cancel()
                live.timer = None
        await self.wait_idle()

    async def wait_idle(self) -> None:
        """Wait until no background work (computer moves, timeouts) is running."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop the clocks, commit what is queued and close the database."""
        if self._closed:
            return
        if self._verifier is not None:
            # Only a check: the games it has not reached are checked at the next start.
            self._verifier.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._verifier
            self._verifier = None
        await self.stop_clocks()
        self._closed = True
        if self._ai_pool is not None:
            self._ai_pool.shutdown(wait=False, cancel_futures=True)
            self._ai_pool = None
        await self._store.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- settings -------------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults until it changes one)."""
        cached = self._settings.get(guild_id)
        if cached is not None:
            return cached
        row = await repo.fetch_settings(self._store, guild_id)
        settings = GuildSettings()
        if row is not None:
            try:
                settings = GuildSettings.model_validate(row.settings)
            except ValidationError as e:
                log.warning("guild %s: stored settings ignored: %s", guild_id, e)
        self._settings[guild_id] = settings
        return settings

    async def update_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's settings; :class:`InvalidSettingsError` if out of range."""
        current = await self.get_settings(guild_id)
        data = current.model_dump()
        data.update(changes)
        try:
            settings = GuildSettings.model_validate(data)
        except ValidationError as e:
            raise InvalidSettingsError(_describe(e)) from None
        return await self.set_settings(guild_id, settings)

    async def set_settings(self, guild_id: int, settings: GuildSettings) -> GuildSettings:
        """Replace a server's settings."""
        text = settings.model_dump_json()
        now = self.clock.now()

        async def item(conn: aiosqlite.Connection) -> None:
            await repo.put_settings(conn, guild_id, text, now)

        await self._shielded(self._write(item))
        self._settings[guild_id] = settings
        return settings

    # --- lobby --------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: Options | Mapping[str, Any] | None = None,
        turn_seconds: float | None = _UNSET,
        seed: int | None = None,
    ) -> GameInfo:
        """Open a lobby with the host in seat 0; server defaults fill what is not given.

        ``seed`` fixes the deals (tests, tournaments); by default it is random.

        Refused with :class:`ChannelBusyError` when the channel already has as many open
        games as the server allows (one by default).
        """
        settings = await self.get_settings(guild_id)
        opts = settings.default_options if options is None else _options(options)
        _check_options(opts, MIN_PLAYERS)
        seconds = settings.turn_seconds if turn_seconds is _UNSET else turn_seconds
        seconds = _check_turn_seconds(seconds)
        name = _clean_name(host_name)
        now = self.clock.now()
        seed = secrets.randbits(62) if seed is None else seed
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise InvalidSettingsError(
                f"A game seed is a whole number from 0 to 2^63 − 1, not {seed!r}"
            )
        deadline = now + settings.lobby_seconds
        limit = settings.games_per_channel

        async def item(conn: aiosqlite.Connection) -> int:
            # Checked inside the write so that two clicks, or two processes, cannot both pass.
            open_ids = await repo.count_open_in_channel(conn, channel_id)
            if len(open_ids) >= limit:
                raise ChannelBusyError(
                    open_ids[-1],
                    "There is already a game in this channel"
                    if limit == 1
                    else f"This channel already has {len(open_ids)} open games",
                )
            game_id = await repo.insert_game(
                conn,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                options_json=opts.model_dump_json(),
                seed=seed,
                turn_seconds=seconds,
                deadline=deadline,
                now=now,
            )
            host = _seat(game_id, 0, host_id, name)
            await repo.replace_seats(conn, game_id, [host])
            return game_id

        async def commit() -> GameInfo:
            game_id = await self._write(item)
            live = LiveGame(
                id=game_id,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                status=GameStatus.LOBBY,
                options=opts,
                seed=seed,
                version=1,
                turn_seconds=seconds,
                deadline=deadline,
                lobby_message_id=None,
                table_message_id=None,
                created_at=now,
                started_at=None,
                finished_at=None,
                seats=[_seat(game_id, 0, host_id, name)],
                last_non_bid_version=1,
            )
            self._games[game_id] = live
            self._arm(live)
            return live.info()

        return await self._shielded(commit())

    async def join(self, game_id: int, user_id: int, name: str) -> GameInfo:
        """Take the next free seat of a lobby."""

        async def change(live: LiveGame) -> list[SeatRow] | None:
            if live.seat_of(user_id) is not None:
                raise AlreadySeatedError()
            limit = _max_seats(live.options)
            if len(live.seats) >= limit:
                why = " (single suit is for 3 or 4 players, R7.7)" if limit < MAX_PLAYERS else ""
                raise LobbyFullError(f"This game is full: {limit} players{why}")
            seat_name = _unique_name(_clean_name(name), live.seats)
            return [*live.seats, _seat(live.id, len(live.seats), user_id, seat_name)]

        return await self._lobby_change(game_id, change)

    async def leave(self, game_id: int, user_id: int) -> GameInfo:
        """Leave a lobby, or hand one's seat in a running game to a computer player.

        In a lobby the host's role passes to the next player; a lobby left empty is
        cancelled. In a running game the player can come back with :meth:`take_back`.
        """
        return await self._shielded(self._leave_now(game_id, user_id))

    async def _leave_now(self, game_id: int, user_id: int) -> GameInfo:
        """The body of :meth:`leave`, run shielded from cancellation."""
        live = await self._get(game_id)
        if live.status is GameStatus.ACTIVE:
            async with self._hold(live):
                self._check_status(live, GameStatus.ACTIVE)
                row = live.seat_of(user_id)
                if row is None:
                    raise NotSeatedError()
                if not row.away:
                    await self._set_away(live, row, kicked=False, reason="left")
            self._arm(live)
            return live.info()
        return await self._remove_from_lobby(live, user_id, by_user_id=user_id, is_manager=False)

    async def kick(
        self, game_id: int, by_user_id: int, user_id: int, *, is_manager: bool = False
    ) -> GameInfo:
        """Remove a player (host or server manager): from a lobby, or to a computer for good."""
        return await self._shielded(
            self._kick_now(game_id, by_user_id, user_id, is_manager=is_manager)
        )

    async def _kick_now(
        self, game_id: int, by_user_id: int, user_id: int, *, is_manager: bool = False
    ) -> GameInfo:
        """The body of :meth:`kick`, run shielded from cancellation."""
        live = await self._get(game_id)
        if live.status is GameStatus.ACTIVE:
            async with self._hold(live):
                self._check_status(live, GameStatus.ACTIVE)
                self._check_host(live, by_user_id, is_manager, "remove players")
                row = live.seat_of(user_id)
                if row is None:
                    raise SeatNotFoundError("That player is not in this game")
                if not row.kicked:
                    await self._set_away(live, row, kicked=True, reason="kicked")
            self._arm(live)
            return live.info()
        return await self._remove_from_lobby(
            live, user_id, by_user_id=by_user_id, is_manager=is_manager
        )

    async def add_computer(
        self,
        game_id: int,
        by_user_id: int,
        *,
        level: str | None = None,
        is_manager: bool = False,
    ) -> GameInfo:
        """Add a computer player to a lobby (host); ``level`` defaults to the server's."""
        settings = await self._settings_of(game_id)
        chosen = level or settings.computer_level
        try:
            GuildSettings(computer_level=chosen)
        except ValidationError as e:
            raise InvalidSettingsError(_describe(e)) from None

        async def change(live: LiveGame) -> list[SeatRow]:
            self._check_host(live, by_user_id, is_manager, "add computer players")
            limit = _max_seats(live.options)
            if len(live.seats) >= limit:
                raise LobbyFullError(f"This game is full: {limit} players")
            used = {s.name for s in live.seats}
            name = next((n for n in COMPUTER_NAMES if n not in used), "Computer")
            row = _seat(live.id, len(live.seats), None, _unique_name(name, live.seats), chosen)
            return [*live.seats, row]

        return await self._lobby_change(game_id, change)

    async def remove_seat(
        self, game_id: int, by_user_id: int, seat: int, *, is_manager: bool = False
    ) -> GameInfo:
        """Remove a seat (a computer or a player) from a lobby (host or server manager)."""

        async def change(live: LiveGame) -> list[SeatRow] | None:
            self._check_host(live, by_user_id, is_manager, "remove seats")
            if not 0 <= seat < len(live.seats):
                raise SeatNotFoundError(f"There is no seat {seat + 1} in this lobby")
            target = live.seats[seat]
            if target.user_id is not None and target.user_id == live.host_id:
                raise NotHostError("The host cannot be removed; the host can leave or cancel")
            return _renumber([s for s in live.seats if s.seat != seat])

        return await self._lobby_change(game_id, change)

    async def set_options(
        self,
        game_id: int,
        by_user_id: int,
        options: Options | Mapping[str, Any],
        *,
        is_manager: bool = False,
    ) -> GameInfo:
        """Change a lobby's options (host); refused with :class:`InvalidOptionsError` (R7.8)."""
        opts = _options(options)

        async def change(live: LiveGame) -> None:
            self._check_host(live, by_user_id, is_manager, "change the options")
            _check_options(opts, max(MIN_PLAYERS, len(live.seats)))

        return await self._lobby_change(game_id, change, options=opts)

    async def set_turn_timer(
        self,
        game_id: int,
        by_user_id: int,
        seconds: float | None,
        *,
        is_manager: bool = False,
    ) -> GameInfo:
        """Set a lobby's per-turn time limit in seconds, or ``None`` for none (host)."""
        value = _check_turn_seconds(seconds)

        async def change(live: LiveGame) -> None:
            self._check_host(live, by_user_id, is_manager, "change the turn timer")

        return await self._lobby_change(game_id, change, turn_seconds=value)

    async def set_message_ids(
        self,
        game_id: int,
        *,
        lobby_message_id: int | None = _UNSET,
        table_message_id: int | None = _UNSET,
    ) -> None:
        """Remember the Discord messages of a game (does not change its version)."""
        await self._shielded(
            self._set_message_ids_now(
                game_id, lobby_message_id=lobby_message_id, table_message_id=table_message_id
            )
        )

    async def _set_message_ids_now(
        self,
        game_id: int,
        *,
        lobby_message_id: int | None = _UNSET,
        table_message_id: int | None = _UNSET,
    ) -> None:
        """The body of :meth:`set_message_ids`, run shielded from cancellation."""
        live = await self._get(game_id, finished_ok=True)
        async with self._hold(live):
            fields: dict[str, Any] = {}
            if lobby_message_id is not _UNSET:
                fields["lobby_message_id"] = lobby_message_id
            if table_message_id is not _UNSET:
                fields["table_message_id"] = table_message_id
            if not fields:
                return

            async def item(conn: aiosqlite.Connection) -> None:
                await repo.update_game(conn, game_id, None, **fields)

            await self._write(item)
            if "lobby_message_id" in fields:
                live.lobby_message_id = fields["lobby_message_id"]
            if "table_message_id" in fields:
                live.table_message_id = fields["table_message_id"]

    async def start(self, game_id: int, by_user_id: int, *, is_manager: bool = False) -> GameUpdate:
        """Start a lobby of 3 to 6 seats (host): round 1 is dealt at once."""
        live = await self._get(game_id)
        return await self._shielded(self._start(live, by_user_id, is_manager))

    async def _start(self, live: LiveGame, by_user_id: int, is_manager: bool) -> GameUpdate:
        async with self._hold(live):
            self._check_status(live, GameStatus.LOBBY)
            self._check_host(live, by_user_id, is_manager, "start the game")
            n = len(live.seats)
            if n < MIN_PLAYERS:
                raise NotEnoughPlayersError(
                    f"Wizard needs 3 to 6 players (R2.1); this game has {n}: "
                    "invite someone or add a computer player"
                )
            _check_options(live.options, n)
            state = initial_state([s.name for s in live.seats], live.options, live.seed)
            now = self.clock.now()
            version = live.version + 1
            deadline = self._turn_deadline(live, live.seats, state, now)
            snap = live.snapshots(state, 0) if self.config.snapshot else None

            async def item(conn: aiosqlite.Connection) -> None:
                await repo.update_game(
                    conn,
                    live.id,
                    live.version,
                    status="active",
                    version=version,
                    started_at=now,
                    updated_at=now,
                    deadline=deadline,
                    snapshot=snap,
                )

            await self._write(item)
            live.status = GameStatus.ACTIVE
            live.state = state
            live.version = live.last_non_bid_version = version
            live.started_at = now
            live.deadline = deadline
            live.computer_due = self._computer_due(live, now)
            events: tuple[Event, ...] = (
                GameStarted(state.players, state.first_dealer, live.options, num_rounds(state)),
                dealt_event(state),
                turn_event(state, deadline),
            )
        self._arm(live)
        return GameUpdate(live.id, version, live.status, events)

    async def cancel(self, game_id: int, by_user_id: int, *, is_manager: bool = False) -> GameInfo:
        """Cancel a lobby or a running game (host, or a server manager: pass ``is_manager``)."""
        return await self._shielded(self._cancel_now(game_id, by_user_id, is_manager=is_manager))

    async def _cancel_now(
        self, game_id: int, by_user_id: int, *, is_manager: bool = False
    ) -> GameInfo:
        """The body of :meth:`cancel`, run shielded from cancellation."""
        live = await self._get(game_id)
        async with self._hold(live):
            if live.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
                self._check_status(live, GameStatus.ACTIVE)
            if by_user_id != live.host_id and not is_manager:
                raise NotHostError("Only the host or a server manager can cancel this game")
            await self._cancel_locked(live, "host" if by_user_id == live.host_id else "manager")
        return live.info()

    async def _cancel_locked(self, live: LiveGame, reason: str) -> GameUpdate:
        now = self.clock.now()
        version = live.version + 1

        async def item(conn: aiosqlite.Connection) -> None:
            await repo.update_game(
                conn,
                live.id,
                live.version,
                status="cancelled",
                version=version,
                updated_at=now,
                finished_at=now,
                deadline=None,
                snapshot=None,  # an ended game is never loaded from a snapshot
            )

        await self._write(item)
        live.status = GameStatus.CANCELLED
        live.version = live.last_non_bid_version = version
        live.finished_at = now
        live.deadline = None
        live.computer_due = None
        self._forget(live)
        return GameUpdate(live.id, version, live.status, (GameCancelled(reason),))

    # --- play ---------------------------------------------------------------------------------

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: Move | Action,
        expected_version: int | None,
        *,
        request_id: str | None = None,
    ) -> GameUpdate:
        """Make a bid, a trump choice or a play for the user's seat; committed when it returns.

        ``expected_version`` is the version the clicked surface showed: a click on an
        older one is refused with :class:`StaleVersionError` (except while hidden or
        secret bids are being chosen, when other players' bids do not make a surface
        stale). ``None`` skips the check. The same ``request_id`` (e.g. the Discord
        interaction id) is applied once: a repeat returns the original update with
        ``duplicate=True``.
        """
        live = await self._get(game_id, finished_ok=request_id is not None)
        return await self._shielded(self._act(live, user_id, action, expected_version, request_id))

    async def _act(
        self,
        live: LiveGame,
        user_id: int,
        move: Move | Action,
        expected_version: int | None,
        request_id: str | None,
    ) -> GameUpdate:
        async with self._hold(live):
            row = live.seat_of(user_id)
            if row is None:
                raise NotSeatedError()
            if request_id is not None:
                seq = live.request_ids.get(request_id)
                if seq is not None:
                    return self._replayed_update(live, request_id, seq)
            self._check_status(live, GameStatus.ACTIVE)
            if row.kicked:
                raise NotSeatedError("You were removed from this game")
            self._check_version(live, expected_version)
            state = live.state
            assert state is not None
            action = _resolve(move, row.seat, state)
            update = await self._apply(
                live,
                seat=row.seat,
                action=action,
                actor=Actor.PLAYER,
                user_id=user_id,
                request_id=request_id,
            )
            if request_id is not None:
                live.remember(request_id, update)
        self._arm(live)
        return update

    async def take_back(self, game_id: int, user_id: int) -> GameUpdate:
        """Play one's own seat again after a computer held it (not after a kick)."""
        live = await self._get(game_id)
        return await self._shielded(self._take_back(live, user_id))

    async def _take_back(self, live: LiveGame, user_id: int) -> GameUpdate:
        async with self._hold(live):
            self._check_status(live, GameStatus.ACTIVE)
            row = live.seat_of(user_id)
            if row is None:
                raise NotSeatedError()
            if row.kicked:
                raise NotSeatedError("You were removed from this game")
            if not row.away:
                raise NotAwayError("You are already playing your seat")
            new = row.model_copy(update={"away": False, "timeouts": 0})
            update = await self._change_seat(live, new, (SeatTakenBack(row.seat),))
        self._arm(live)
        return update

    async def run_computer_turns(
        self, game_id: int, *, max_moves: int | None = None
    ) -> list[GameUpdate]:
        """Make every computer move that is due now, at once (no delay); the updates in order.

        For front ends that drive computer turns themselves, and for tests. With
        :meth:`start_clocks` the clocks do this with ``config.computer_delay`` between moves
        and send each update to the listeners instead.
        """
        live = await self._get(game_id, finished_ok=True)
        await self._check_before_use(live)
        out: list[GameUpdate] = []
        for _ in itertools.count() if max_moves is None else range(max_moves):
            if live.status is not GameStatus.ACTIVE or live.state is None:
                break
            seat = self._computer_seat(live)
            if seat is None:
                break
            version = live.version
            update = await self._shielded(self._auto_move(live, seat, Actor.COMPUTER))
            if update is not None:
                out.append(update)
            elif live.version == version:
                break  # nothing moved and nothing will: do not spin
        self._arm(live)
        return out

    async def run_due(self) -> list[GameUpdate]:
        """Do everything due by now in this process's games (timeouts, computer moves,
        lobby expiry) and return the updates, without the listeners; for manual driving."""
        out: list[GameUpdate] = []
        for live in list(self._games.values()):
            while True:
                updates = await self._due_step(live)
                if not updates:
                    break
                out.extend(updates)
            self._arm(live)
        return out

    # --- queries ------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameInfo:
        """A game in any state (finished ones with their standings)."""
        live = await self._get(game_id, finished_ok=True)
        return live.info()

    async def game_in_channel(self, channel_id: int) -> GameInfo | None:
        """The newest lobby or running game of a channel, if any."""
        games = await self.games_in_channel(channel_id)
        return games[-1] if games else None

    async def games_in_channel(self, channel_id: int) -> list[GameInfo]:
        """Every lobby and running game of a channel, oldest first."""
        rows = await self._store.fetchall(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')"
            " ORDER BY id",
            (channel_id,),
        )
        out = []
        for r in rows:
            try:
                out.append((await self._get(int(r[0]))).info())
            except GameNotFoundError:
                continue
        return out

    async def seat_view(self, game_id: int, user_id: int) -> SeatView:
        """What one player may see (their hand, their legal moves) and the current version."""
        live = await self._get(game_id, finished_ok=True)
        row = live.seat_of(user_id)
        if row is None:
            raise NotSeatedError()
        if live.state is None:
            raise GameStatusError(live.status.value, "The game has not started yet")
        state = live.state
        hidden = own_hand_hidden(state) and state.phase is Phase.PLAY and state.turn == row.seat
        return SeatView(live.id, live.version, row.seat, view(state, row.seat), hidden, row.away)

    async def table(self, game_id: int) -> TableView:
        """The public table of a started game."""
        info = await self.get_game(game_id)
        if info.table is None:
            raise GameStatusError(info.status.value, "The game has not started yet")
        return info.table

    async def game_record(self, game_id: int) -> str:
        """The game record (RULES §9) of a finished or cancelled game, as JSON text."""
        live = await self._get(game_id, finished_ok=True)
        if live.status in (GameStatus.LOBBY, GameStatus.ACTIVE):
            raise GameStatusError(
                live.status.value, "The record is available once the game is over"
            )
        if live.state is None:
            raise GameStatusError(live.status.value, "This game was never played")
        return dumps(live.state)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A player's rating and statistics on a server, or ``None`` before their first game."""
        row = await repo.fetch_player(self._store, guild_id, user_id)
        return None if row is None else _stats(row)

    async def leaderboard(
        self,
        guild_id: int,
        *,
        order: LeaderboardOrder | str = LeaderboardOrder.RATING,
        page: int = 1,
        per_page: int = 10,
        min_games: int = 1,
    ) -> LeaderboardPage:
        """One page (from 1) of a server's players by rating, wins or average score."""
        try:
            key = LeaderboardOrder(order)
        except ValueError:
            raise InvalidSettingsError(
                f"Unknown leaderboard order {order!r}: use rating, wins or average"
            ) from None
        if not 1 <= per_page <= 100:
            raise InvalidSettingsError("A leaderboard page has 1 to 100 lines")
        page = max(1, page)
        total, rows = await repo.fetch_leaderboard(
            self._store,
            guild_id,
            order=key.value,
            limit=per_page,
            offset=(page - 1) * per_page,
            min_games=max(1, min_games),
        )
        start = (page - 1) * per_page
        entries = tuple(LeaderboardEntry(start + i + 1, _stats(r)) for i, r in enumerate(rows))
        return LeaderboardPage(guild_id, key, page, per_page, total, entries)

    async def recent_games(
        self, guild_id: int, *, limit: int = 10, before: int | None = None
    ) -> list[GameSummary]:
        """A server's finished games, newest first; ``before`` (a game id from an earlier
        page) lists the games that finished before that one."""
        # No ``owns_guild`` check: finished games are never loaded or armed, so any process
        # may read them (like the leaderboard), and a history read changes nothing.
        if not 1 <= limit <= 100:
            raise InvalidSettingsError("A history page has 1 to 100 games")
        cursor: tuple[float, int] | None = None
        if before is not None:
            row = await repo.fetch_finished_at(self._store, guild_id, before)
            if row is None or not isinstance(row[0], int | float):
                raise GameNotFoundError(before, "That game is not in this server's history")
            cursor = (float(row[0]), int(row[1]))
        raws = await repo.fetch_recent_games(self._store, guild_id, limit=limit, before=cursor)
        results = _group(await repo.fetch_results_of(self._store, [int(r["id"]) for r in raws]))
        out = []
        for raw in raws:
            try:
                game = parse(GameRow, raw)
                rows = [parse(ResultRow, r) for r in results.get(game.id, [])]
            except ValidationError as e:
                # A damaged row costs its own line of the history, not the whole page.
                log.warning("game %s left out of the history: %s", raw["id"], _describe(e))
                continue
            if not rows or game.finished_at is None:
                log.warning("game %s left out of the history: no results stored", game.id)
                continue
            out.append(
                GameSummary(
                    id=game.id,
                    guild_id=game.guild_id,
                    channel_id=game.channel_id,
                    options=game.options,
                    rounds=max(r.rounds for r in rows),
                    started_at=game.started_at,
                    finished_at=game.finished_at,
                    standings=tuple(
                        Standing(
                            r.seat, r.name, r.user_id, r.score, r.place, r.exact_bids, r.rounds
                        )
                        for r in sorted(rows, key=lambda r: (r.place, r.seat))
                    ),
                )
            )
        return out

    # --- recovery -----------------------------------------------------------------------------

    async def recover(self) -> RecoveryReport:
        """Load every lobby and running game of this process's servers; arm their clocks.

        A running game is loaded from its snapshot (its whole state, stored with each
        action) and its log is checked afterwards: in the background, game by game between
        other work, or first thing when something is about to change the game, whichever
        comes first (:meth:`verification` waits for the lot). Games without a usable
        snapshot are replayed from their logs here and now.

        A game whose rows do not validate or whose log does not replay is marked broken
        (with the reason, logged) and the others load regardless. A game whose log
        replays to a state other than its snapshot is reported, and the log wins: the game
        is rebuilt from it (with a new version, so that what was shown from the snapshot
        is stale).
        """
        t0 = time.perf_counter()
        raws = await repo.fetch_games(self._store, "status IN ('lobby', 'active')")
        mine = []
        skipped = 0
        for raw in raws:
            guild = raw["guild_id"]
            if isinstance(guild, int) and not self._owns(guild):
                skipped += 1
                continue
            if raw["id"] in self._games:
                continue
            mine.append(raw)
        built: dict[int, LiveGame] = {}
        broken: list[tuple[int, str]] = []
        mismatches: list[tuple[int, str]] = []
        # Loading makes many objects at once; the cyclic collector would scan the growing
        # heap again and again for nothing: the states are acyclic and freed by reference
        # counting.
        collecting = gc.isenabled()
        gc.disable()
        try:
            seats = _group(await repo.fetch_seats(self._store, [int(r["id"]) for r in mine]))
            to_replay: dict[int, tuple[LiveGame, GameRow]] = {}
            for raw in mine:
                game_id = int(raw["id"])
                try:
                    live, row = self._skeleton(raw, seats.get(game_id, []))
                except _Broken as b:
                    broken.append((game_id, str(b)))
                    await self._mark_broken(game_id, str(b))
                    continue
                built[game_id] = live
                if not self._from_snapshot(live, row):
                    to_replay[game_id] = (live, row)
            async with contextlib.aclosing(self._logs_in_chunks(list(to_replay))) as chunks:
                async for chunk, logs in chunks:
                    for game_id in chunk:
                        live, row = to_replay[game_id]
                        try:
                            replayed = self._replay(live, logs.get(game_id, []))
                        except _Broken as b:
                            del built[game_id]
                            broken.append((game_id, str(b)))
                            await self._mark_broken(game_id, str(b))
                            continue
                        if replayed is None:
                            continue  # a lobby
                        self._install(live, replayed)
                        self._resume_hidden_bids(live)
                        if row.snapshot is None:
                            continue
                        diff = snapshot_differences(row.snapshot, replayed.state, live.seq)
                        if diff:
                            mismatches.append((game_id, "; ".join(diff)))
                            _log_mismatch(game_id, "; ".join(diff))
            loaded: list[int] = []
            unverified: list[int] = []
            for game_id, live in built.items():
                if self._games.setdefault(game_id, live) is not live:
                    continue  # loaded meanwhile by a request for it
                loaded.append(game_id)
                if not live.verified:
                    self._unverified[game_id] = live
                    unverified.append(game_id)
        finally:
            if collecting:
                gc.enable()
        if self._running:
            now = self.clock.now()
            for game_id in loaded:
                live = self._games[game_id]
                live.computer_due = self._computer_due(live, now)
                self._arm(live)
        if self.config.tune_gc and loaded:
            # What was just loaded lives as long as its game: never scan it again.
            gc.freeze()
        report = RecoveryReport(
            loaded=tuple(loaded),
            broken=tuple(broken),
            mismatches=tuple(mismatches),
            seconds=time.perf_counter() - t0,
            skipped=skipped,
            unverified=tuple(unverified),
        )
        self._recovery = report
        self._recovery_started = t0
        if self._unverified and (self._verifier is None or self._verifier.done()):
            self._verifier = asyncio.ensure_future(self._verify_all())
        elif not self._unverified:
            self._recovery = replace(report, verified_seconds=report.seconds)
        return report

    async def verification(self) -> RecoveryReport:
        """Wait until the log of every game that recovery loaded from a snapshot has been
        checked; the last recovery's report, completed with what the checks found (games
        broken or rebuilt from their logs since, ``unverified`` empty)."""
        while self._verifier is not None and not self._verifier.done():
            await asyncio.wait({self._verifier})
        return self._recovery

    # --- internals: loading ---------------------------------------------------------------

    async def _logs_in_chunks(
        self, ids: list[int], size: int = RECOVERY_CHUNK
    ) -> AsyncGenerator[tuple[list[int], dict[int, list[tuple[Any, ...]]]], None]:
        """The logs of ``ids``, ``size`` games at a time: the next chunk is read on the
        database thread while the caller works on this one."""
        chunks = [ids[i : i + size] for i in range(0, len(ids), size)]
        pending = asyncio.ensure_future(repo.fetch_logs(self._store, chunks[0])) if chunks else None
        try:
            for k, chunk in enumerate(chunks):
                assert pending is not None
                rows = await pending
                pending = (
                    asyncio.ensure_future(repo.fetch_logs(self._store, chunks[k + 1]))
                    if k + 1 < len(chunks)
                    else None
                )
                yield chunk, _group_tuples(rows)
        finally:
            if pending is not None:
                pending.cancel()

    async def _get(self, game_id: int, *, finished_ok: bool = False) -> LiveGame:
        live = self._games.get(game_id)
        if live is not None:
            return live
        if self._closed:
            raise StorageError("The game service is shutting down")
        ended = self._ended.get(game_id)
        if ended is not None:
            if not finished_ok:
                self._check_status(ended, GameStatus.ACTIVE)
            return ended
        pending = self._loading.get(game_id)
        if pending is None:
            future: asyncio.Future[LiveGame | None] = asyncio.get_running_loop().create_future()
            self._loading[game_id] = future
            try:
                loaded = await self._load(game_id)
                future.set_result(loaded)
            except BaseException as e:
                future.set_exception(e)
                future.exception()  # retrieved: waiters re-raise it
                raise
            finally:
                del self._loading[game_id]
        else:
            loaded = await pending
        if loaded is None:
            raise GameNotFoundError(game_id)
        if loaded.status in (GameStatus.LOBBY, GameStatus.ACTIVE):
            if not self._owns(loaded.guild_id):
                raise GameNotFoundError(game_id, "That game is handled by another bot process")
            live = self._games.setdefault(game_id, loaded)
            if self._running and live is loaded:
                live.computer_due = self._computer_due(live, self.clock.now())
                self._arm(live)
            return live
        if loaded.status in (GameStatus.FINISHED, GameStatus.CANCELLED):
            self._remember_ended(loaded)
        if not finished_ok:
            self._check_status(loaded, GameStatus.ACTIVE)
        return loaded

    async def _load(self, game_id: int) -> LiveGame | None:
        """One game, replayed from its log (a game asked for that recovery did not load)."""
        raws = await repo.fetch_games(self._store, "id = ?", (game_id,))
        if not raws:
            return None
        raw = raws[0]
        seats = await repo.fetch_seats(self._store, [game_id])
        actions = await repo.fetch_logs(self._store, [game_id])
        status = raw["status"]
        try:
            live, row = self._skeleton(raw, seats)
            replayed = self._replay(live, actions)
        except _Broken as b:
            if status in ("lobby", "active"):
                await self._mark_broken(game_id, str(b))
            return _broken_stub(raw, str(b))
        if replayed is not None:
            self._install(live, replayed)
            self._resume_hidden_bids(live)
            if row.snapshot is not None:
                diff = snapshot_differences(row.snapshot, replayed.state, live.seq)
                if diff:
                    _log_mismatch(game_id, "; ".join(diff))
        if live.status is GameStatus.FINISHED:
            results = await repo.fetch_results(self._store, game_id)
            live.standings = tuple(
                sorted(
                    (
                        Standing(
                            r.seat, r.name, r.user_id, r.score, r.place, r.exact_bids, r.rounds
                        )
                        for r in results
                    ),
                    key=lambda s: (s.place, s.seat),
                )
            )
        return live

    def _skeleton(self, raw: sqlite3.Row, seat_raws: list[sqlite3.Row]) -> tuple[LiveGame, GameRow]:
        """A game from its row and seats, without its state yet, and the validated row;
        :class:`_Broken` with the reason if they cannot be trusted."""
        try:
            row = parse(GameRow, raw)
        except ValidationError as e:
            raise _Broken(f"the game row is invalid: {_describe(e)}") from None
        try:
            seats = [parse(SeatRow, r) for r in seat_raws]
        except ValidationError as e:
            raise _Broken(f"a seat row is invalid: {_describe(e)}") from None
        if [s.seat for s in seats] != list(range(len(seats))) or not seats:
            raise _Broken(f"the seats are not numbered 0…n−1: {[s.seat for s in seats]}")
        status = GameStatus(row.status)
        if status is GameStatus.BROKEN:
            raise _Broken(row.broken_reason or "marked broken")
        live = LiveGame(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            status=status,
            options=row.options,
            seed=row.seed,
            version=row.version,
            turn_seconds=row.turn_seconds,
            deadline=row.deadline,
            lobby_message_id=row.lobby_message_id,
            table_message_id=row.table_message_id,
            created_at=row.created_at,
            started_at=row.started_at,
            finished_at=row.finished_at,
            seats=seats,
            last_non_bid_version=row.version,
        )
        return live, row

    def _from_snapshot(self, live: LiveGame, row: GameRow) -> bool:
        """Load a running game's state from its snapshot, its log unchecked; False if it has
        no usable one (it is then replayed, and the replay says what was wrong with it)."""
        if live.status is not GameStatus.ACTIVE or row.snapshot is None or live.started_at is None:
            return False
        try:
            seq, state = load_snapshot(
                row.snapshot, [s.name for s in live.seats], live.options, live.seed
            )
        except SnapshotError:
            return False
        if state.phase is Phase.GAME_OVER:
            return False
        live.state = state
        live.snapshot_seq = seq
        live.verified = False
        self._resume_hidden_bids(live)
        return True

    @staticmethod
    def _resume_hidden_bids(live: LiveGame) -> None:
        """After a restart, let surfaces drawn before it while hidden or secret bids were being
        chosen stay valid: the others' bids since then change nothing they offer. Each bid
        moved the version by one, so the last other change was ``version - bids made``."""
        state = live.state
        if state is None or live.options.bidding is Bidding.OPEN or state.phase is not Phase.BID:
            return
        made = sum(bid is not None for bid in state.bids)
        live.last_non_bid_version = max(live.version - made, 0)

    def _replay(self, live: LiveGame, action_raws: list[tuple[Any, ...]]) -> _Replayed | None:
        """A game's whole log, validated and replayed (``None`` for a game that never
        started); :class:`_Broken` with the reason if it cannot be trusted."""
        try:
            rows = ACTION_LOG.validate_python(action_raws)
        except ValidationError as e:
            raise _Broken(f"an action row is invalid: {_describe(e)}") from None
        if [a.seq for a in rows] != list(range(1, len(rows) + 1)):
            raise _Broken("the action log has a gap or a repeat")
        if live.started_at is None:
            if rows:
                raise _Broken("a game that never started has actions")
            return None
        try:
            actions = [decode_action(a.kind, a.seat, a.arg) for a in rows]
        except ValueError as e:
            raise _Broken(f"an action cannot be read: {e}") from None
        try:
            state = fold([s.name for s in live.seats], live.options, live.seed, actions)
        except (IllegalActionError, OptionsError) as e:
            raise _Broken(f"the log does not replay: {e}") from None
        if live.status is GameStatus.ACTIVE and state.phase is Phase.GAME_OVER:
            raise _Broken("the log ends the game but the game is not marked finished")
        if live.status is GameStatus.FINISHED and state.phase is not Phase.GAME_OVER:
            raise _Broken("the game is marked finished but its log does not end it")
        return _Replayed(
            state,
            actions,
            [a.version for a in rows],
            {a.request_id: a.seq for a in rows if a.request_id is not None},
        )

    @staticmethod
    def _install(live: LiveGame, replayed: _Replayed) -> None:
        live.state = replayed.state
        live.actions = replayed.actions
        live.versions = replayed.versions
        live.request_ids = replayed.request_ids

    async def _mark_broken(self, game_id: int, reason: str) -> None:
        log.error("game %s is broken and will not be loaded: %s", game_id, reason)

        async def item(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE games SET status = 'broken', broken_reason = ?, deadline = NULL"
                " WHERE id = ?",
                (reason, game_id),
            )

        try:
            await self._store.write(item)
        except sqlite3.Error as e:
            log.error("game %s could not be marked broken: %s", game_id, e)
        self._games.pop(game_id, None)

    # --- internals: checking the games loaded from snapshots ----------------------------------

    @contextlib.asynccontextmanager
    async def _hold(self, live: LiveGame) -> AsyncIterator[None]:
        """The game's lock, to change it: a game loaded from its snapshot has its log
        checked first, so that no change is ever made to a state the log does not make."""
        async with live.lock:
            if not live.verified:
                try:
                    rows = await repo.fetch_logs(self._store, [live.id])
                except sqlite3.Error as e:
                    log.exception("game %s: its log could not be read", live.id)
                    raise StorageError() from e
                await self._check_log(live, rows)
            yield

    async def _check_before_use(self, live: LiveGame) -> None:
        """Check the log of a game loaded from its snapshot now, if that is not done yet."""
        if not live.verified:
            async with self._hold(live):
                pass

    async def _verify_all(self) -> None:
        """Check the logs of the games recovery loaded from snapshots, one game at a time
        under its lock, letting other work run between games."""
        try:
            await self._check_unverified()
        except Exception:
            # Each game left is still checked before its next change.
            log.exception("the background check of the logs stopped")
            return
        self._recovery = replace(
            self._recovery,
            unverified=(),
            verified_seconds=time.perf_counter() - self._recovery_started,
        )

    async def _check_unverified(self) -> None:
        while self._unverified:
            unchecked = list(self._unverified)
            async with contextlib.aclosing(self._logs_in_chunks(unchecked, CHECK_CHUNK)) as chunks:
                async for chunk, logs in chunks:
                    for game_id in chunk:
                        live = self._unverified.get(game_id)
                        if live is None:
                            continue  # checked already, before a change
                        try:
                            async with live.lock:
                                # Unchecked under its lock means unchanged since it was
                                # loaded: the log read above is still the whole log.
                                if not live.verified:
                                    await self._check_log(live, logs.get(game_id, []))
                        except Exception:
                            log.exception("game %s: its log could not be checked", game_id)
                        finally:
                            # Checked or not (it then is before its next change), never twice.
                            self._unverified.pop(game_id, None)
                        await asyncio.sleep(0)

    async def _check_log(self, live: LiveGame, action_raws: list[tuple[Any, ...]]) -> None:
        """Replay the log of a game loaded from its snapshot (its lock held) and compare: the
        log wins. A broken log marks the game broken; a different state replaces the
        snapshot's and the game gets a new version."""
        self._unverified.pop(live.id, None)
        try:
            replayed = self._replay(live, action_raws)
        except _Broken as b:
            reason = str(b)
            live.verified = True
            live.status = GameStatus.BROKEN
            live.broken_reason = reason
            await self._mark_broken(live.id, reason)
            self._forget(live)
            report = self._recovery
            self._recovery = replace(
                report,
                loaded=tuple(g for g in report.loaded if g != live.id),
                broken=(*report.broken, (live.id, reason)),
            )
            return
        assert replayed is not None and live.state is not None  # only started games load so
        diff = state_differences(live.state, replayed.state)
        if live.snapshot_seq != len(replayed.actions):
            diff.insert(0, f"seq: snapshot {live.snapshot_seq}, log {len(replayed.actions)}")
        if not diff:
            # Keep the loaded state (equal, and older: less for the cyclic collector).
            replayed = replayed._replace(state=live.state)
        self._install(live, replayed)
        live.verified = True
        if not diff:
            return
        detail = "; ".join(diff)
        _log_mismatch(live.id, detail, rebuilt=True)
        self._recovery = replace(
            self._recovery, mismatches=(*self._recovery.mismatches, (live.id, detail))
        )
        # Whatever was shown from the snapshot is stale: a click made on it is refused.
        now = self.clock.now()
        version = live.version + 1

        async def item(conn: aiosqlite.Connection) -> None:
            await repo.update_game(conn, live.id, live.version, version=version, updated_at=now)

        await self._write(item)
        live.version = live.last_non_bid_version = version
        live.computer_due = self._computer_due(live, now)
        self._arm(live)

    # --- internals: changing a game ---------------------------------------------------------

    async def _shielded(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run a change to completion even if the caller is cancelled mid-way.

        Otherwise a cancelled caller could leave a committed write whose in-memory
        update never happened, and the game would disagree with its database.
        """
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return await asyncio.shield(task)

    async def _write(self, item: WriteItem[T]) -> T:
        try:
            return await self._store.write(item)
        except ServiceError:
            raise
        except ConflictError as e:
            log.error("write conflict: %s", e)
            raise StorageError("This game was changed elsewhere; please try again") from None
        except (sqlite3.Error, RuntimeError) as e:
            log.exception("database write failed")
            raise StorageError() from e

    async def _lobby_change(
        self,
        game_id: int,
        change: Callable[[LiveGame], Awaitable[list[SeatRow] | None]],
        *,
        options: Options | None = None,
        turn_seconds: float | None = _UNSET,
    ) -> GameInfo:
        return await self._shielded(
            self._lobby_change_now(game_id, change, options=options, turn_seconds=turn_seconds)
        )

    async def _lobby_change_now(
        self,
        game_id: int,
        change: Callable[[LiveGame], Awaitable[list[SeatRow] | None]],
        *,
        options: Options | None = None,
        turn_seconds: float | None = _UNSET,
    ) -> GameInfo:
        live = await self._get(game_id)
        async with self._hold(live):
            self._check_status(live, GameStatus.LOBBY)
            seats = await change(live)
            now = self.clock.now()
            version = live.version + 1
            fields: dict[str, Any] = {"version": version, "updated_at": now}
            if options is not None:
                fields["options"] = options.model_dump_json()
            if turn_seconds is not _UNSET:
                fields["turn_seconds"] = turn_seconds

            async def item(conn: aiosqlite.Connection) -> None:
                await repo.update_game(conn, live.id, live.version, **fields)
                if seats is not None:
                    await repo.replace_seats(conn, live.id, seats)

            await self._write(item)
            live.version = live.last_non_bid_version = version
            if seats is not None:
                live.seats = seats
            if options is not None:
                live.options = options
            if turn_seconds is not _UNSET:
                live.turn_seconds = turn_seconds
        return live.info()

    async def _remove_from_lobby(
        self, live: LiveGame, user_id: int, *, by_user_id: int, is_manager: bool
    ) -> GameInfo:
        return await self._shielded(
            self._remove_from_lobby_now(live, user_id, by_user_id=by_user_id, is_manager=is_manager)
        )

    async def _remove_from_lobby_now(
        self, live: LiveGame, user_id: int, *, by_user_id: int, is_manager: bool
    ) -> GameInfo:
        async with self._hold(live):
            self._check_status(live, GameStatus.LOBBY)
            if by_user_id != user_id:
                self._check_host(live, by_user_id, is_manager, "remove players")
            row = live.seat_of(user_id)
            if row is None:
                if by_user_id == user_id:
                    raise NotSeatedError("You are not in this lobby")
                raise SeatNotFoundError("That player is not in this lobby")
            seats = _renumber([s for s in live.seats if s.seat != row.seat])
            host = live.host_id
            if user_id == host:
                humans = [s for s in seats if s.user_id is not None]
                if not humans:
                    await self._cancel_locked(live, "empty")
                    return live.info()
                host = humans[0].user_id or host
            now = self.clock.now()
            version = live.version + 1

            async def item(conn: aiosqlite.Connection) -> None:
                await repo.update_game(
                    conn, live.id, live.version, version=version, updated_at=now, host_id=host
                )
                await repo.replace_seats(conn, live.id, seats)

            await self._write(item)
            live.version = live.last_non_bid_version = version
            live.seats = seats
            live.host_id = host
        return live.info()

    async def _set_away(self, live: LiveGame, row: SeatRow, *, kicked: bool, reason: str) -> None:
        settings = await self.get_settings(live.guild_id)
        new = row.model_copy(
            update={
                "away": True,
                "kicked": kicked or row.kicked,
                "level": row.level or settings.computer_level,
            }
        )
        events: tuple[Event, ...] = ()
        if not row.away:
            events = (SeatHandedToComputer(row.seat, reason),)
        await self._change_seat(live, new, events)

    async def _change_seat(
        self, live: LiveGame, new: SeatRow, events: tuple[Event, ...]
    ) -> GameUpdate:
        """Store a seat's control change (lock held) and re-time the turn."""
        state = live.state
        assert state is not None
        seats = [new if s.seat == new.seat else s for s in live.seats]
        now = self.clock.now()
        version = live.version + 1
        deadline = self._turn_deadline(live, seats, state, now, keep=True)

        async def item(conn: aiosqlite.Connection) -> None:
            await repo.update_game(
                conn, live.id, live.version, version=version, updated_at=now, deadline=deadline
            )
            await repo.update_seat(conn, new)

        await self._write(item)
        live.seats = seats
        live.version = live.last_non_bid_version = version
        live.deadline = deadline
        live.computer_due = self._computer_due(live, now)
        return GameUpdate(live.id, version, live.status, (*events, turn_event(state, deadline)))

    async def _apply(
        self,
        live: LiveGame,
        *,
        seat: int,
        action: Action,
        actor: Actor,
        user_id: int | None,
        request_id: str | None,
    ) -> GameUpdate:
        """Apply, log and commit one action (the game's lock is held)."""
        before = live.state
        assert before is not None
        try:
            state, step_events = step(before, action)
        except IllegalActionError as e:
            raise IllegalMoveError.from_engine(e) from None
        now = self.clock.now()
        seq = live.seq + 1
        version = live.version + 1
        over = state.phase is Phase.GAME_OVER
        seats = live.seats
        row = seats[seat]
        changed: SeatRow | None = None
        pre: list[Event] = []
        post: list[Event] = []
        if actor is Actor.PLAYER and (row.timeouts or row.away):
            changed = row.model_copy(update={"timeouts": 0, "away": False})
            if row.away:
                pre.append(SeatTakenBack(seat))
        elif actor is Actor.TIMEOUT:
            settings = await self.get_settings(live.guild_id)
            count = row.timeouts + 1
            away = count >= settings.max_timeouts
            changed = row.model_copy(
                update={
                    "timeouts": count,
                    "away": away,
                    "level": row.level or settings.computer_level,
                }
            )
            post.append(PlayerTimedOut(seat, count))
            if away:
                post.append(SeatHandedToComputer(seat, "timeouts"))
        if changed is not None:
            seats = [changed if s.seat == seat else s for s in seats]
        simultaneous = (
            isinstance(action, Bid)
            and live.options.bidding is not Bidding.OPEN
            and state.phase is Phase.BID
            and state.round == before.round
        )
        deadline = None if over else self._turn_deadline(live, seats, state, now, keep=simultaneous)
        # A finished game is never loaded from a snapshot: its row drops the last one.
        snap = live.snapshots(state, seq) if self.config.snapshot and not over else None
        kind, arg = encode_action(action)
        action_row = (live.id, seq, seat, kind, arg, actor.value, user_id, request_id, version, now)
        final: tuple[Standing, ...] = ()
        if over:
            final = standings(state, [s.user_id for s in seats])
        game_id, guild_id = live.id, live.guild_id
        statements = [
            (repo.INSERT_ACTION, action_row),
            (
                repo.UPDATE_GAME_AFTER_ACTION,
                (
                    version,
                    deadline,
                    now,
                    snap,
                    "finished" if over else "active",
                    now if over else None,
                    game_id,
                    live.version,
                ),
            ),
        ]
        if changed is not None:
            statements.append((repo.UPDATE_SEAT, repo.seat_params(changed)))
        write = Statements(tuple(statements), checked=(1,))
        item: WriteItem[tuple[RatingChange, ...] | None]
        if over:

            async def item(conn: aiosqlite.Connection) -> tuple[RatingChange, ...] | None:
                await run_statements(conn, write)
                return await record_results(
                    conn,
                    game_id=game_id,
                    guild_id=guild_id,
                    seats=seats,
                    standings=final,
                    now=now,
                )

        else:
            item = write  # merged with other games' actions by the writer
        ratings = await self._write(item)
        # Committed: now, and only now, the in-memory game moves on.
        live.state = state
        live.actions.append(action)
        live.versions.append(version)
        if request_id is not None:
            live.request_ids[request_id] = seq
        live.version = version
        if not simultaneous:
            live.last_non_bid_version = version
        live.deadline = deadline
        live.seats = seats
        events: list[Event] = [*pre, *step_events, *post]
        if over:
            live.status = GameStatus.FINISHED
            live.finished_at = now
            live.standings = final
            live.computer_due = None
            events.append(GameOver(final, winners(state) or (), ratings or ()))
            self._forget(live)
        else:
            live.computer_due = self._computer_due(live, now)
            events.append(turn_event(state, deadline))
        return GameUpdate(live.id, version, live.status, tuple(events), seat, action, actor)

    def _replayed_update(self, live: LiveGame, request_id: str, seq: int) -> GameUpdate:
        """The update an already applied request made, marked ``duplicate``.

        The one returned then, as it was, while the game keeps it in memory (its last few
        requests: repeats come within seconds). After a restart, or for an older request,
        it is recomputed from the log: the same version, seat, action and game events,
        but two things the database does not keep cannot be told again. The turn's
        deadline (``TurnChanged.deadline``) is the current one if the request made the
        last action, else ``None``; and a game-ending request's rating changes
        (``GameOver.ratings``) are empty, since the players' rows hold today's ratings,
        not the ones before that game. Keeping them would take storing them: a deadline
        column in ``actions`` and the rating before and after in ``results`` (a migration).
        """
        recent = live.recent.get(request_id)
        if recent is not None:
            return replace(recent, duplicate=True)
        names = [s.name for s in live.seats]
        before = fold(names, live.options, live.seed, live.actions[: seq - 1])
        action = live.actions[seq - 1]
        after, step_events = step(before, action)
        events: list[Event] = list(step_events)
        if after.phase is Phase.GAME_OVER:
            events.append(GameOver(live.standings, winners(after) or (), ()))
        else:
            events.append(turn_event(after, live.deadline if seq == live.seq else None))
        seat = action.seat  # type: ignore[union-attr]
        return GameUpdate(
            live.id,
            live.versions[seq - 1],
            live.status,
            tuple(events),
            seat,
            action,
            Actor.PLAYER,
            duplicate=True,
        )

    def _check_version(self, live: LiveGame, expected: int | None) -> None:
        if expected is None or expected == live.version:
            return
        # While hidden or secret bids are chosen, others' bids do not change what a
        # player's surface offers; anything else since it was shown makes it stale.
        if expected > live.version or expected < live.last_non_bid_version:
            raise StaleVersionError(expected, live.version)

    def _check_status(self, live: LiveGame, wanted: GameStatus) -> None:
        if live.status is wanted:
            return
        status = live.status
        if status is GameStatus.LOBBY:
            message = "The game has not started yet"
        elif status is GameStatus.ACTIVE:
            message = "The game has already started"
        elif status is GameStatus.FINISHED:
            message = "This game is over"
        elif status is GameStatus.CANCELLED:
            message = "This game was cancelled"
        else:
            message = "This game could not be loaded and has been stopped"
        raise GameStatusError(status.value, message)

    def _check_host(self, live: LiveGame, user_id: int, is_manager: bool, what: str) -> None:
        if user_id == live.host_id or is_manager:
            return
        host = live.seat_of(live.host_id)
        who = host.name if host is not None else "the host"
        raise NotHostError(f"Only the host ({who}) can {what}")

    def _forget(self, live: LiveGame) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if self._games.get(live.id) is live:
            del self._games[live.id]
        if live.status in (GameStatus.FINISHED, GameStatus.CANCELLED):
            self._remember_ended(live)

    def _remember_ended(self, live: LiveGame) -> None:
        """Keep the last ended games: their standings and records are asked for right away."""
        self._ended[live.id] = live
        self._ended.move_to_end(live.id)
        while len(self._ended) > ENDED_CACHE:
            self._ended.popitem(last=False)

    async def _settings_of(self, game_id: int) -> GuildSettings:
        live = await self._get(game_id)
        return await self.get_settings(live.guild_id)

    # --- internals: clocks and computer players -------------------------------------------------

    def _turn_deadline(
        self,
        live: LiveGame,
        seats: list[SeatRow],
        state: GameState,
        now: float,
        *,
        keep: bool = False,
    ) -> float | None:
        """The turn timer: set when a new turn starts, kept through simultaneous bids."""
        if live.turn_seconds is None or state.phase is Phase.GAME_OVER:
            return None
        if not any(not computer_controlled(seats[s]) for s in to_act(state)):
            return None
        if keep and live.deadline is not None:
            return live.deadline
        return now + live.turn_seconds

    def _computer_due(self, live: LiveGame, now: float) -> float | None:
        if live.status is not GameStatus.ACTIVE or self._computer_seat(live) is None:
            return None
        return now + self.config.computer_delay

    def _computer_seat(self, live: LiveGame) -> int | None:
        state = live.state
        if state is None:
            return None
        for s in to_act(state):
            if computer_controlled(live.seats[s]):
                return s
        return None

    def _arm(self, live: LiveGame) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if not self._running or live.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
            return
        dues = [d for d in (live.deadline, live.computer_due) if d is not None]
        if not dues:
            return
        game_id = live.id
        live.timer = self.clock.call_at(min(dues), lambda: self._fire(game_id))

    def _fire(self, game_id: int) -> None:
        live = self._games.get(game_id)
        if live is None or not self._running:
            return
        live.timer = None
        task = asyncio.ensure_future(self._scheduled(live))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _scheduled(self, live: LiveGame) -> None:
        try:
            for update in await self._due_step(live):
                await self._notify(update)
        except Exception:
            log.exception("game %s: background step failed", live.id)
        finally:
            if self._games.get(live.id) is live:
                self._arm(live)

    async def _due_step(self, live: LiveGame) -> list[GameUpdate]:
        """One round of what is due now: lobby expiry, a computer move, or timeouts."""
        await self._check_before_use(live)
        now = self.clock.now()
        if live.status is GameStatus.LOBBY:
            if live.deadline is not None and live.deadline <= now:
                async with self._hold(live):
                    if live.status is GameStatus.LOBBY and live.deadline <= now:
                        return [await self._shielded(self._cancel_locked(live, "expired"))]
            return []
        if live.status is not GameStatus.ACTIVE:
            return []
        if live.computer_due is not None and live.computer_due <= now:
            seat = self._computer_seat(live)
            if seat is None:
                live.computer_due = None
                return []
            version = live.version
            update = await self._shielded(self._auto_move(live, seat, Actor.COMPUTER))
            if update is None and live.version == version:
                # The computer could not move and nothing changed: try again later rather
                # than at once, so that a stuck seat never spins the event loop.
                live.computer_due = self.clock.now() + max(1.0, self.config.computer_delay)
            return [update] if update is not None else []
        if live.deadline is not None and live.deadline <= now:
            out = []
            state = live.state
            version = live.version
            assert state is not None
            for seat in to_act(state):
                if computer_controlled(live.seats[seat]):
                    continue
                update = await self._shielded(self._auto_move(live, seat, Actor.TIMEOUT))
                if update is not None:
                    out.append(update)
            if not out and live.version == version:
                live.deadline = now + (live.turn_seconds or 60.0)  # same guard as above
            return out
        return []

    async def _think(
        self, live: LiveGame, seat: int, level: str, player: ComputerPlayer, seat_view: PlayerView
    ) -> Action:
        """An expensive computer decision, off the event loop: in a worker process if any."""
        if self.config.ai_processes > 0 and level in LEVELS:
            if self._ai_pool is None:
                # spawn, not fork: this process runs the database thread, and forking a
                # process with threads can deadlock the child.
                self._ai_pool = ProcessPoolExecutor(
                    self.config.ai_processes, mp_context=multiprocessing.get_context("spawn")
                )
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(
                    self._ai_pool, decide, level, live.computer_seed(seat), seat_view
                )
            except BrokenProcessPool:
                log.error("the computer-player process died; thinking in a thread from now on")
                self._ai_pool = None
                self.config = replace(self.config, ai_processes=0)
        return await asyncio.to_thread(player.choose, seat_view)

    async def _auto_move(self, live: LiveGame, seat: int, actor: Actor) -> GameUpdate | None:
        """A computer move for ``seat``: its own (computer seat) or for a timed-out player.

        The choice is made outside the lock (in a thread for expensive levels), then
        applied through the same path as a click if the game has not moved meanwhile.
        """
        state, version = live.state, live.version
        if state is None or seat not in to_act(state):
            return None
        row = live.seats[seat]
        settings = await self.get_settings(live.guild_id)
        level = row.level or settings.computer_level
        player = live.computer(seat, level)
        seat_view = view(state, seat)
        if seat_view.legal:
            if level in self.config.inline_levels:
                action = player.choose(seat_view)
            else:
                action = await self._think(live, seat, level, player, seat_view)
        elif state.phase is Phase.PLAY and state.turn == seat and state.hands[seat]:
            # Clairvoyance (R7.4): the seat cannot see its single card; it plays it blind.
            action = Play(seat, state.hands[seat][0])
        else:
            return None
        async with self._hold(live):
            if (
                live.version != version
                or live.state is not state  # rebuilt from its log by the check
                or live.status is not GameStatus.ACTIVE
            ):
                return None  # moved on while choosing: the caller looks again
            row = live.seats[seat]
            if actor is Actor.COMPUTER and not computer_controlled(row):
                return None
            if actor is Actor.TIMEOUT and (
                computer_controlled(row)
                or live.deadline is None
                or live.deadline > self.clock.now()
            ):
                return None
            try:
                return await self._apply(
                    live, seat=seat, action=action, actor=actor, user_id=None, request_id=None
                )
            except IllegalMoveError as e:
                # A computer player broke a rule: a bug there, not a reason to stall the game.
                log.error("game %s: computer %s chose an illegal %r: %s", live.id, level, action, e)
                return await self._apply(
                    live,
                    seat=seat,
                    action=_first_legal(state, seat),
                    actor=actor,
                    user_id=None,
                    request_id=None,
                )

    async def _notify(self, update: GameUpdate) -> None:
        for listener in list(self._listeners):
            try:
                await listener(update)
            except Exception:
                log.exception("listener failed on game %s", update.game_id)


# --- helpers ----------------------------------------------------------------------------------


def tune_gc() -> None:
    """Set the cyclic garbage collector of this process for a game service.

    Each action makes a new immutable game state that lives until the game's next action,
    so it outlives the young collections and is scanned again by each of them; the states
    hold tuples of cards, which stay tracked (cards are ``int`` subclasses, which CPython
    tracks). With the default thresholds (700, 10, 10) a middle-generation collection
    scanned some 20,000 objects, 10 ms and more, about once a second at 1000 actions per
    second, and a full one scanned every game (100 ms and more) every few seconds: most of
    the tail of ``act`` latency. The service makes almost no cyclic garbage (states are
    freed by reference counting), so young collections are made short and frequent (150
    allocations, 5 of them per middle one: well under a millisecond each) and full
    collections rare (at most once every 10,000 middle ones, minutes apart under load).
    Process-wide, like the collector itself: ``ServiceConfig(tune_gc=False)`` leaves it
    alone.
    """
    gc.set_threshold(*GC_THRESHOLDS)


def _resolve(move: Move | Action, seat: int, state: GameState) -> Action:
    """The engine action of a move by ``seat``."""
    if isinstance(move, PlayCard):
        return Play(seat, move.card)
    if isinstance(move, MakeBid):
        return Bid(seat, move.bid)
    if isinstance(move, NameTrump):
        return ChooseTrump(seat, move.suit)
    if isinstance(move, PlayHiddenCard):
        if not own_hand_hidden(state) or state.phase is not Phase.PLAY:
            raise IllegalMoveError("R7.4", "You can see your cards: choose one to play")
        if state.turn != seat:
            raise IllegalMoveError.from_engine(_engine_not_your_turn(state, seat))
        return Play(seat, state.hands[seat][0])
    if isinstance(move, Play | Bid | ChooseTrump):
        if move.seat != seat:
            raise NotSeatedError("That move is for another seat")
        return move
    raise IllegalMoveError("R2.1", f"not a move: {move!r}")


def _engine_not_your_turn(state: GameState, seat: int) -> IllegalActionError:
    turn = state.turn if state.turn is not None else 0
    return EngineNotYourTurnError(
        "R5.1", f"it is {state.players[turn]}'s turn to play, not {state.players[seat]}'s"
    )


def _first_legal(state: GameState, seat: int) -> Action:
    v = view(state, seat)
    if v.legal:
        return v.legal[0]
    return Play(seat, state.hands[seat][0])


def _options(options: Options | Mapping[str, Any]) -> Options:
    if isinstance(options, Options):
        return options
    try:
        return Options.model_validate(dict(options))
    except ValidationError as e:
        raise InvalidOptionsError(_describe(e)) from None


def _check_options(options: Options, players: int) -> None:
    try:
        check_setup(options, players)
    except OptionsError as e:
        raise InvalidOptionsError(e.message, e.rule) from None


def _check_turn_seconds(seconds: float | None) -> float | None:
    if seconds is None:
        return None
    if not isinstance(seconds, int | float) or not (
        MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS
    ):
        raise InvalidSettingsError(
            f"A turn timer is {MIN_TURN_SECONDS:g} seconds to {MAX_TURN_SECONDS / 3600:g} hours,"
            f" not {seconds!r}"
        )
    return float(seconds)


def _max_seats(options: Options) -> int:
    return 4 if options.single_suit else MAX_PLAYERS


def _clean_name(name: str) -> str:
    cleaned = " ".join(str(name).split())[:32]
    return cleaned or "Player"


def _unique_name(name: str, seats: list[SeatRow]) -> str:
    used = {s.name for s in seats}
    if name not in used:
        return name
    for k in itertools.count(2):
        candidate = f"{name} ({k})"
        if candidate not in used:
            return candidate
    raise AssertionError("unreachable")


def _seat(
    game_id: int, seat: int, user_id: int | None, name: str, level: str | None = None
) -> SeatRow:
    return SeatRow(
        game_id=game_id,
        seat=seat,
        user_id=user_id,
        name=name,
        level=level,
        away=False,
        kicked=False,
        timeouts=0,
    )


def _renumber(seats: list[SeatRow]) -> list[SeatRow]:
    return [s if s.seat == i else s.model_copy(update={"seat": i}) for i, s in enumerate(seats)]


def _group(rows: list[sqlite3.Row]) -> dict[int, list[sqlite3.Row]]:
    out: dict[int, list[sqlite3.Row]] = {}
    for key, group in itertools.groupby(rows, key=lambda r: r["game_id"]):
        out[int(key)] = list(group)
    return out


def _group_tuples(rows: list[tuple[Any, ...]]) -> dict[int, list[tuple[Any, ...]]]:
    out: dict[int, list[tuple[Any, ...]]] = {}
    for key, group in itertools.groupby(rows, key=lambda r: r[0]):
        if isinstance(key, int):
            out[key] = list(group)
    return out


def _log_mismatch(game_id: int, detail: str, *, rebuilt: bool = False) -> None:
    log.warning(
        "game %s: log replays to a state other than its snapshot (the log wins%s): %s",
        game_id,
        "; the game was rebuilt from it" if rebuilt else "",
        detail,
    )


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"])
        parts.append(f"{where}: {item['msg']}" if where else item["msg"])
    return "; ".join(parts)


def _stats(row: PlayerRow) -> PlayerStats:
    return PlayerStats(
        guild_id=row.guild_id,
        user_id=row.user_id,
        name=row.name,
        rating=row.rating,
        mu=row.mu,
        sigma=row.sigma,
        games=row.games,
        wins=row.wins,
        total_score=row.total_score,
        best_score=row.best_score,
        best_game_id=row.best_game_id,
        bids=row.bids,
        exact_bids=row.exact_bids,
    )


def _broken_stub(raw: sqlite3.Row, reason: str) -> LiveGame:
    """Enough of an unreadable game to answer queries with its broken status."""

    def value(key: str, kind: type[Any], default: Any) -> Any:
        try:
            v = raw[key]
        except (IndexError, KeyError):
            return default
        return v if isinstance(v, kind) else default

    return LiveGame(
        id=int(raw["id"]),
        guild_id=value("guild_id", int, 0),
        channel_id=value("channel_id", int, 0),
        host_id=value("host_id", int, 0),
        status=GameStatus.BROKEN,
        options=Options(),
        seed=0,
        version=value("version", int, 0),
        turn_seconds=None,
        deadline=None,
        lobby_message_id=value("lobby_message_id", int, None),
        table_message_id=value("table_message_id", int, None),
        created_at=value("created_at", float, 0.0),
        started_at=None,
        finished_at=None,
        seats=[],
        broken_reason=reason,
    )


__all__ = [
    "COMPUTER_NAMES",
    "GameService",
    "GuildFilter",
    "Listener",
    "default_rating",
    "ordinal",
    "tune_gc",
]
