"""What every room of the service shares: its state, settings, the write path and the checks.

:class:`ServiceBase` holds the games in memory and the store. The rooms stand on it in the
order they use each other: ``loading``, then ``play``, ``lobby`` (which hands seats to
computers through play), ``turns`` (which moves and cancels through both), ``hints`` and
``seats``; ``queries`` stands on ``loading``. The facade
:class:`wizard.service.core.GameService` joins them with ``boards``.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import logging
import sqlite3
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

import aiosqlite
from pydantic import ValidationError

from wizard.errors import OptionsError
from wizard.names import clean_name
from wizard.options import MAX_PLAYERS, Options, check_setup, conflicts
from wizard.service.clock import Clock, SystemClock, TimerHandle
from wizard.service.errors import (
    BusyError,
    GameDamagedError,
    GameStatusError,
    InvalidOptionsError,
    InvalidSettingsError,
    NotHostError,
    NotSeatedError,
    ServiceError,
    StaleVersionError,
    StorageError,
)
from wizard.service.events import Event, GameStatus, GameUpdate
from wizard.service.game import LiveGame, computer_controlled
from wizard.service.settings import (
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    GuildSettings,
    ServiceConfig,
    StoredSettings,
    read_settings,
)
from wizard.service.types import OpenHand
from wizard.store import repo
from wizard.store.db import (
    ConflictError,
    LockTimeout,
    Statements,
    Store,
    WriteItem,
    is_damage,
    run_statements,
)
from wizard.store.models import SeatRow, describe

log = logging.getLogger("wizard.service")

T = TypeVar("T")
Listener = Callable[[GameUpdate], Awaitable[None]]
"""Receives the updates the service makes by itself (computer moves, timeouts, expiry)."""
GuildFilter = Callable[[int], bool]
"""Whether this process handles a server (its shard): start-up and clocks skip the others."""

ENDED_CACHE = 128
"""Finished and cancelled games kept in memory (the others are replayed when asked for)."""
NAME_LENGTH = 32
UNSET: Any = object()


class ServiceBase:
    """The state and the shared machinery of the game service (see the module docstring)."""

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
        self._home_languages: dict[int, str] = {}
        """The language each server speaks on Discord, as the front end last said."""
        self._told_ignored: dict[int, tuple[str, ...]] = {}
        """The stored settings of each server that the operator was told are left out."""
        self._ended: OrderedDict[int, LiveGame] = OrderedDict()
        self._listeners: list[Listener] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._running = False
        self._closed = False
        self._wakes: dict[int, float] = {}
        """Games not loaded yet whose clocks are due at a time: id → when."""
        self._wake_timers: dict[int, TimerHandle] = {}
        self._step_failures: dict[int, int] = {}
        """Games whose background step (a computer's move, a timeout) failed: how many times
        in a row (the pause before the next try grows)."""
        self._write_fault: str | None = None
        """The error of writes failing now (the operator was told once), until one succeeds."""
        self.recovered: tuple[int, ...] = ()
        """The lobbies and running games the last :meth:`recover` found, those it found
        damaged, and finished games the channel is owed the end of (``owed_ends``): the front
        end brings their messages up to date once it is connected."""

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

    async def _update(self, live: LiveGame, events: Iterable[Event], **extra: Any) -> GameUpdate:
        """The update of a change just made to ``live``: its events, with the game and the
        server's settings as they are now."""
        info = live.info()  # before the await: the game may move on meanwhile
        settings = await self.get_settings(live.guild_id)
        return GameUpdate(
            live.id, live.version, live.status, tuple(events), **extra, info=info, settings=settings
        )

    async def _notify(self, update: GameUpdate) -> None:
        for listener in list(self._listeners):
            try:
                await listener(update)
            except Exception:
                log.exception("listener failed on game %s", update.game_id)

    # --- settings -------------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (defaults until it changes one, in the server's own language;
        the defaults for now, not kept, while its row cannot be read)."""
        cached = self._settings.get(guild_id)
        if cached is not None:
            return cached
        try:
            stored = await self._stored_settings(guild_id)
        except StorageError:
            return self._default_settings(guild_id)
        self._settings[guild_id] = stored.settings
        return stored.settings

    def _default_settings(self, guild_id: int) -> GuildSettings:
        home = self._home_languages.get(guild_id)
        return GuildSettings() if home is None else GuildSettings(language=home)

    async def _stored_settings(self, guild_id: int) -> StoredSettings:
        """A server's settings as stored (each good one kept when others are not: the operator
        is told which were left out); :class:`StorageError` if the row cannot be read."""
        try:
            row = await self._store.fetchone(
                "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        except sqlite3.DatabaseError as e:
            log.error("guild %s: its settings could not be read: %s", guild_id, e)
            raise StorageError(reason="read_failed") from e
        defaults = self._default_settings(guild_id)
        if row is None:
            return StoredSettings(defaults, (), {})
        stored = read_settings(row["settings"], defaults)
        if stored.ignored and self._told_ignored.get(guild_id) != stored.ignored:
            self._told_ignored[guild_id] = stored.ignored  # once, not at every read
            log.warning(
                "guild %s: stored settings left out (unknown or not valid; the others are"
                " kept): %s. Each is read as its default until a manager saves it again with"
                " /wizard settings",
                guild_id,
                ", ".join(stored.ignored),
            )
        return stored

    def home_language(self, guild_id: int) -> str | None:
        """The language last heard for a server (:meth:`set_home_language`), if any."""
        return self._home_languages.get(guild_id)

    def set_home_language(self, guild_id: int, language: str) -> None:
        """The language a server speaks on Discord (its preferred locale): the language of its
        public messages until it saves settings. One without a catalogue is ignored."""
        if language in GuildSettings.LANGUAGES and self._home_languages.get(guild_id) != language:
            self._home_languages[guild_id] = language
            self._settings.pop(guild_id, None)  # its defaults may be cached in the old language

    async def update_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of a server's settings; :class:`InvalidSettingsError` if out of range."""
        if "turn_seconds" in changes:  # refused as a new game's timer is: with its range
            check_turn_seconds(changes["turn_seconds"])
        # Read from the row, not the cache: never write defaults taken after a failed read
        # over what the server saved.
        current = await self._stored_settings(guild_id)
        data = current.settings.model_dump()
        data.update(changes)
        try:
            settings = GuildSettings.model_validate(data)
        except ValidationError as e:
            raise InvalidSettingsError(None, setting="settings", detail=describe(e)) from None
        put = (
            "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings,"
            " updated_at = excluded.updated_at"
        )
        # What a newer version saved stays for it.
        row = json.dumps({**current.unknown, **settings.model_dump(mode="json")})
        params = (guild_id, row, self.clock.now())
        await self._shielded(self._write(Statements(((put, params),))))
        self._settings[guild_id] = settings
        self._told_ignored.pop(guild_id, None)  # saved whole: damage found later is news
        return settings

    async def keep_open_hand(self, hand: OpenHand) -> None:
        """Remember a player's newest private hand message in a game (replacing the one
        before), so that a process that starts after this one stopped, or crashed, goes on
        editing it (``open_hands``). Hands whose token ran out are deleted meanwhile, and when
        the service opens. Nothing is written once the service is closing (the bot is
        stopping). :class:`StorageError` if it could not be written."""
        if self._closed:
            return
        statements = (
            (repo.FORGET_RUN_OUT_HANDS, (self.clock.now(),)),
            (
                "INSERT OR REPLACE INTO open_hands (game_id, user_id, message_id, token,"
                " language, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    hand.game_id,
                    hand.user_id,
                    hand.message_id,
                    hand.token,
                    hand.language,
                    hand.expires_at,
                ),
            ),
        )
        await self._shielded(self._write(Statements(statements)))

    async def open_hands(self, game_id: int) -> list[OpenHand]:
        """The newest private hand of each player of a game that its token may still edit
        (see ``keep_open_hand``); :class:`StorageError` if they could not be read."""
        try:
            rows = await self._store.fetchall(
                "SELECT game_id, user_id, message_id, token, language, expires_at"
                " FROM open_hands WHERE game_id = ? AND expires_at > ? ORDER BY user_id",
                (game_id, self.clock.now()),
            )
        except sqlite3.DatabaseError as e:
            log.error("game %s: its open hands could not be read: %s", game_id, e)
            raise StorageError(reason="read_failed") from e
        hands = []
        for row in rows:
            hand = _open_hand(dict(row))
            if hand is None:
                log.warning(
                    "game %s: an open hand's row is not valid and is left out (user %r)",
                    game_id,
                    row["user_id"],
                )
            else:
                hands.append(hand)
        return hands

    async def _forget_run_out_hands(self) -> None:
        """Delete the open hands whose token ran out (or whose time is not even a number):
        when the service opens, so that no token stays in the file long past its time."""
        try:
            await self._write(Statements(((repo.FORGET_RUN_OUT_HANDS, (self.clock.now(),)),)))
        except ServiceError as e:  # the operator was told of the failed write
            log.warning("open hands past their time not deleted (%s)", e.code)

    # --- the write path -------------------------------------------------------------------

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
        """Commit ``item``; a refusal (:class:`BusyError`, :class:`StorageError`) if not."""
        try:
            done = await self._store.write(item)
        except (sqlite3.Error, RuntimeError, LockTimeout) as e:
            raise self._refusal(e) from e
        self._written()
        return done

    def _refusal(self, error: sqlite3.Error | RuntimeError | LockTimeout) -> ServiceError:
        """What a player is told of a write that failed: busy (another process held the
        file), or not saved. The operator is told once, with the traceback, while writes
        fail alike (a full disk fails every one: a log line each would fill it further)."""
        if isinstance(error, LockTimeout):
            return BusyError(seconds=self.config.busy_timeout)
        if self._write_fault != str(error):
            self._write_fault = str(error)
            log.error(
                "writes to the database %s fail: %s. Players are told that their move could "
                "not be saved and to try again; look at the disk (room left, the file's and "
                "its folder's permissions, errors in the system log). Failing writes alike "
                "are logged at DEBUG until one succeeds",
                self._store.path,
                error,
                exc_info=error,
            )
        else:
            log.debug("database write failed again: %s", error)
        return StorageError()

    def _written(self) -> None:
        """A write succeeded: if writes were failing, they no longer are."""
        if self._write_fault is not None:
            log.info("the database takes writes again (they failed with: %s)", self._write_fault)
            self._write_fault = None

    async def _write_game(self, live: LiveGame, item: WriteItem[T]) -> T:
        """Commit a change of ``live`` (its lock held).

        If the file no longer holds the game as ``live`` has it, the game is read again as
        the file has it, and the call refused like a stale click, so that the next one is
        made on the current game; or as damaged, when the file's game cannot be trusted
        (it is then quarantined). That is so when another process moved the row's version
        on, and when a constraint refuses the write (a row already stands where the next
        action goes): retrying that could never succeed.
        """
        damage: sqlite3.DatabaseError | None = None
        try:
            done = await self._store.write(item)
            self._written()
            return done
        except ConflictError as e:
            log.warning("game %s was changed by another process; reloading it: %s", live.id, e)
        except sqlite3.IntegrityError as e:
            log.warning("game %s: the file refused its write (%s); reloading it", live.id, e)
        except (sqlite3.Error, RuntimeError, LockTimeout) as e:
            if not (isinstance(e, sqlite3.DatabaseError) and is_damage(e)):
                raise self._refusal(e) from e
            # A damaged page on the write's way: under the game's own rows (then reading
            # them again quarantines it), or beside them (a neighbour's page, another table):
            # then the game stays as stored, and the click is refused as any failed write.
            damage = e
        expected = live.version
        await self._refresh(live)
        if live.status is GameStatus.BROKEN:
            self._check_status(live, GameStatus.ACTIVE)  # game_damaged
        if damage is not None:
            raise self._refusal(damage) from damage
        raise StaleVersionError(expected, live.version)

    async def _update_game(
        self,
        live: LiveGame,
        now: float | None,
        *,
        seats: list[SeatRow] | None = None,
        also: Callable[[aiosqlite.Connection], Awaitable[None]] | None = None,
        checked: bool = True,
        **fields: Any,
    ) -> None:
        """Write ``fields`` to ``live``'s row (its lock held), with a lobby's new ``seats`` and
        ``also`` in the same transaction, then give ``live`` the same values.

        With ``now``, a change players see: a new version (which makes no player's moves
        stale: only moves change what a hand offers, see :meth:`_check_version`).
        ``checked``: only if the row is at ``live``'s version (a conflict reloads the game
        and refuses as stale). A field the game in memory does not keep (``computer_turn``)
        is only stored.
        """
        if now is not None:
            fields.update(version=live.version + 1, updated_at=now)
        columns = {
            k: v.model_dump_json() if isinstance(v, Options) else v for k, v in fields.items()
        }
        sql = f"UPDATE games SET {', '.join(f'{n} = ?' for n in columns)} WHERE id = ?"
        if checked:
            sql += " AND version = ?"
        params = (*columns.values(), live.id, *([live.version] if checked else []))
        update = Statements(((sql, params),), checked=(0,))

        async def item(conn: aiosqlite.Connection) -> None:
            await run_statements(conn, update)
            if seats is not None:
                await repo.replace_seats(conn, live.id, seats)
            if also is not None:
                await also(conn)

        await self._write_game(live, item)
        if seats is not None:
            live.seats = seats
        for name, value in fields.items():
            if hasattr(live, name):
                setattr(live, name, value)

    # --- checks -----------------------------------------------------------------------------

    def _check_version(self, live: LiveGame, expected: int | None, seat: int) -> None:
        """Refuse a click of ``seat`` on a surface of version ``expected`` that is stale."""
        if expected is None or expected == live.version:
            return
        # Only moves change what a player's surface offers: another seat changing hands
        # does not (its own does), nor, while hidden or secret bids are chosen, others'
        # bids. Any other move since it was shown makes it stale.
        if (
            expected > live.version
            or expected < live.last_non_bid_version
            or expected < live.seat_changed.get(seat, 0)
        ):
            raise StaleVersionError(expected, live.version)

    def _check_status(self, live: LiveGame, wanted: GameStatus, action: str = "play") -> None:
        if live.status is wanted:
            return
        if live.status is GameStatus.BROKEN:
            raise GameDamagedError(live.id, live.broken_reason or "damaged")
        raise GameStatusError(live.status.value, action=action, game_id=live.id)

    def _check_host(self, live: LiveGame, user_id: int, is_manager: bool, action: str) -> None:
        host_id = live.acting_host
        if user_id == host_id or is_manager:
            return
        host = live.seat_of(host_id)
        raise NotHostError(None, host=host.name if host else None, action=action)

    async def _not_seated(self, live: LiveGame, user_id: int) -> NotSeatedError:
        """The refusal of ``user_id``, who holds no seat of ``live``: ``removed`` if the host
        removed them; ``seat_taken`` (with who plays it now) while a person plays the seat
        they left in the running game; else ``not_in_game`` (a seat a computer plays again
        is one the table offers to take, where the host allows it)."""
        if live.status is not GameStatus.ACTIVE:
            return NotSeatedError()
        if await repo.was_removed(self._store, live.id, user_id):
            # Whoever plays their seat now, no way back in is offered (QA).
            return NotSeatedError(reason="removed")
        seat = await repo.last_seat_of(self._store, live.id, user_id)
        if seat is not None and seat < len(live.seats):
            now = live.seats[seat]
            if now.user_id != user_id and not computer_controlled(now):
                return NotSeatedError(reason="seat_taken", name=now.name)
        return NotSeatedError()

    # --- memory -----------------------------------------------------------------------------

    def _forget(self, live: LiveGame) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if self._games.get(live.id) is live:
            del self._games[live.id]
        self._step_failures.pop(live.id, None)
        if live.status in (GameStatus.FINISHED, GameStatus.CANCELLED, GameStatus.BROKEN):
            self._remember_ended(live)

    def _remember_ended(self, live: LiveGame) -> None:
        """Keep the last ended games: their standings and records are asked for right away."""
        self._ended[live.id] = live
        self._ended.move_to_end(live.id)
        while len(self._ended) > ENDED_CACHE:
            self._ended.popitem(last=False)

    # --- timers -----------------------------------------------------------------------------

    def _computer_due(self, live: LiveGame, now: float) -> float | None:
        """When a computer is to move next in ``live``, if one is to act."""
        if live.status is not GameStatus.ACTIVE or live.computer_seat() is None:
            return None
        return now + self.config.computer_delay

    def _arm(self, live: LiveGame, *, not_before: float | None = None) -> None:
        """Set the game's one timer to its earliest due time (deadline or computer move), or
        to ``not_before`` if that is later."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if not self._running or live.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
            return
        dues = [d for d in (live.deadline, live.computer_due) if d is not None]
        if not dues:
            return
        game_id = live.id
        at = min(dues) if not_before is None else max(min(dues), not_before)
        live.timer = self.clock.call_at(at, lambda: self._fire(game_id))

    def _arm_wake(self, game_id: int) -> None:
        """Set the wake-up timer of a game not loaded yet (see ``_wakes``)."""
        old = self._wake_timers.pop(game_id, None)
        if old is not None:
            old.cancel()
        due = self._wakes.get(game_id)
        if self._running and due is not None:
            self._wake_timers[game_id] = self.clock.call_at(due, lambda: self._fire(game_id))

    # --- the rooms above, as seen from here -------------------------------------------------

    if TYPE_CHECKING:

        async def _refresh(self, live: LiveGame) -> None: ...
        def _fire(self, game_id: int) -> None: ...


# --- helpers ------------------------------------------------------------------------------------

S = TypeVar("S", bound=ServiceBase)
P = ParamSpec("P")


def shielded(
    method: Callable[Concatenate[S, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, T]]:
    """Run a change to completion even if its caller is cancelled (see ``_shielded``)."""

    async def run(self: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._shielded(method(self, *args, **kwargs))

    functools.update_wrapper(run, method)
    return run


def _clean_name(name: str) -> str:
    """A player's name as stored and shown: no control, bidi or zero-width characters,
    whitespace folded, at most 32 characters, a longer one cut with "…" (see
    :func:`wizard.names.clean_name`).

    The one place names are cleaned before they are stored. Cleaned again after the cut,
    so that a cut never leaves a dangling joiner or a trailing space."""
    cleaned = clean_name(str(name))
    if len(cleaned) <= NAME_LENGTH:
        return cleaned
    return clean_name(cleaned[: NAME_LENGTH - 1]) + "…"


def unique_name(name: str, seats: list[SeatRow]) -> str:
    """``name``, or ``name (2)``, ``name (3)``… if a seat already has it."""
    used = {s.name for s in seats}
    candidates = itertools.chain([name], (f"{name} ({k})" for k in itertools.count(2)))
    return next(c for c in candidates if c not in used)


def renumber(seats: list[SeatRow]) -> list[SeatRow]:
    """Seats numbered 0…n−1 in their order."""
    return [s if s.seat == i else s.model_copy(update={"seat": i}) for i, s in enumerate(seats)]


def parse_options(options: Options | Mapping[str, Any]) -> Options:
    """Options from a command; :class:`InvalidOptionsError` if malformed."""
    if isinstance(options, Options):
        return options
    try:
        return Options.model_validate(dict(options))
    except ValidationError as e:
        raise InvalidOptionsError(describe(e)) from None


def check_options(options: Options, players: int) -> None:
    """The engine's check of options for a number of players (R7.8); options that clash are
    refused with every conflict (:attr:`InvalidOptionsError.conflicts`)."""
    found = conflicts(options)
    if found:
        raise InvalidOptionsError.from_conflicts(found)
    try:
        check_setup(options, players)
    except OptionsError as e:
        raise InvalidOptionsError.from_engine(e) from None


def check_turn_seconds(seconds: float | None) -> float | None:
    """A turn timer in range, or ``None`` for none."""
    if seconds is None:
        return None
    if not isinstance(seconds, int | float) or not (
        MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS
    ):
        raise InvalidSettingsError(
            None,
            setting="turn_seconds",
            min=int(MIN_TURN_SECONDS),
            max=int(MAX_TURN_SECONDS),
            detail=repr(seconds),
        )
    return float(seconds)


def max_seats(options: Options) -> int:
    """Seats a lobby may have with these options (single suit: 4, R7.7)."""
    return 4 if options.single_suit else MAX_PLAYERS


def _open_hand(row: dict[str, Any]) -> OpenHand | None:
    """The open hand of a row of ``open_hands``, or ``None`` if a value has the wrong type."""
    numbers = (row["game_id"], row["user_id"], row["message_id"])
    texts = (row["token"], row["language"])
    expires = row["expires_at"]
    if not all(type(v) is int for v in numbers) or not all(type(v) is str for v in texts):
        return None
    if type(expires) not in (int, float):
        return None
    return OpenHand(*numbers, *texts, float(expires))
