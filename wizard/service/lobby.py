"""Lobbies: create, join, leave, kick, computer seats, options and timer, start and cancel."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import aiosqlite
from pydantic import ValidationError

from wizard.options import MAX_PLAYERS, MIN_PLAYERS, Options
from wizard.rules import num_rounds
from wizard.service.base import (
    UNSET,
    _clean_name,
    check_options,
    check_turn_seconds,
    max_seats,
    parse_options,
    renumber,
    shielded,
    unique_name,
)
from wizard.service.errors import (
    AlreadySeatedError,
    ChannelBusyError,
    GameStatusError,
    InvalidSettingsError,
    LastPersonError,
    LobbyFullError,
    NotEnoughPlayersError,
    NotHostError,
    NotSeatedError,
    SeatNotFoundError,
    ServiceError,
    StorageError,
)
from wizard.service.events import Event, GameCancelled, GameStarted, GameStatus, GameUpdate
from wizard.service.game import GameInfo, LiveGame, dealt_event, initial_state, turn_event
from wizard.service.play import Playing
from wizard.service.settings import GuildSettings
from wizard.store import repo
from wizard.store.models import SeatRow, describe

COMPUTER_NAMES = ("Merlin", "Morgana", "Nimue", "Taliesin", "Circe", "Prospero", "Medea")


class Lobby(Playing):
    """Everything before the first deal, and the end of a game by its host."""

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: Options | Mapping[str, Any] | None = None,
        turn_seconds: float | None = UNSET,
        seed: int | None = None,
        computer_level: str | None = None,
        computers: Sequence[str] = (),
        computer_names: Sequence[str] = (),
        allow_seat_taking: bool = False,
    ) -> GameInfo:
        """Open a lobby with the host in seat 0; server defaults fill what is not given.

        ``seed`` fixes the deals (tests, tournaments); by default it is random.
        ``computer_level`` is the level of the computers the lobby adds (default: the server's).
        ``computers``: the levels of computer players seated after the host at once (a
        rematch's), in the same write, so that nobody can join before them; named by
        ``computer_names`` in the same order (a rematch keeps them), where a name is given
        and no seat has it yet.
        ``allow_seat_taking``: others may take computer seats (as
        :meth:`~wizard.service.seats.Seats.set_seat_taking` allows; a rematch keeps it).

        Refused with :class:`ChannelBusyError` when the channel already has as many open
        games as the server allows (one by default).
        """
        settings = await self.get_settings(guild_id)
        opts = settings.default_options if options is None else parse_options(options)
        check_options(opts, MIN_PLAYERS)
        seconds = settings.turn_seconds if turn_seconds is UNSET else turn_seconds
        seconds = check_turn_seconds(seconds)
        name = _clean_name(host_name)
        now = self.clock.now()
        seed = secrets.randbits(62) if seed is None else seed
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise InvalidSettingsError(None, setting="seed", detail=repr(seed))
        deadline = now + settings.lobby_seconds
        limit = settings.games_per_channel
        if computer_level is not None:
            check_level(computer_level)
        for level in computers:
            check_level(level)
        if 1 + len(computers) > max_seats(opts):
            raise LobbyFullError(limit=max_seats(opts), reason="players")

        async def item(conn: aiosqlite.Connection) -> int:
            # Checked inside the write so that two clicks, or two processes, cannot both pass.
            open_rows = list(await conn.execute_fetchall(repo.OPEN_IN_CHANNEL, (channel_id,)))
            if len(open_rows) >= limit:
                newest, status = open_rows[-1]
                raise ChannelBusyError(
                    game_id=int(newest),
                    status=str(status),  # "lobby" (join it) or "active" (watch it)
                    open=len(open_rows),
                    limit=limit,
                )
            row = {
                "guild_id": guild_id,
                "channel_id": channel_id,
                "host_id": host_id,
                "status": "lobby",
                "options": opts.model_dump_json(),
                "seed": seed,
                "version": 1,
                "turn_seconds": seconds,
                "deadline": deadline,
                "created_at": now,
                "updated_at": now,
                "computer_level": computer_level,
                "allow_seat_taking": allow_seat_taking,
            }
            cursor = await conn.execute(
                f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                tuple(row.values()),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            seats = [SeatRow(game_id=game_id, seat=0, user_id=host_id, name=name)]
            names = [*(_clean_name(n) if n else "" for n in computer_names), *[""] * len(computers)]
            for level, wanted in zip(computers, names, strict=False):
                seats.append(computer_seat(game_id, seats, level, wanted))
            await repo.replace_seats(conn, game_id, seats)
            return game_id

        async def commit() -> GameInfo:
            live = await self._load(await self._write(item))  # the row as stored
            assert live is not None
            self._games[live.id] = live
            self._arm(live)
            return live.info()

        return await self._shielded(commit())

    async def join(self, game_id: int, user_id: int, name: str) -> GameInfo:
        """Take the next free seat of a lobby; in a full one, where the host lets people take
        computer seats, the last computer's. Refused (``removed_from_lobby``) to one the host
        or a manager removed from it."""

        async def change(live: LiveGame) -> list[SeatRow] | None:
            if live.seat_of(user_id) is not None:
                raise AlreadySeatedError()
            if await repo.was_removed(self._store, live.id, user_id):
                raise NotSeatedError(reason="removed_from_lobby")
            limit = max_seats(live.options)
            seats = list(live.seats)
            free = len(seats)
            if free >= limit:
                # Where the host lets people take computer seats, the last computer's.
                computers = [s.seat for s in seats if s.user_id is None]
                if not (live.allow_seat_taking and computers):
                    why = "single_suit" if limit < MAX_PLAYERS else "players"
                    raise LobbyFullError(limit=limit, reason=why)
                free = computers[-1]
                del seats[free]
            seat_name = unique_name(_clean_name(name), seats)
            seats.insert(free, SeatRow(game_id=live.id, seat=free, user_id=user_id, name=seat_name))
            return seats

        # One who is not in it is told, if it started meanwhile, how to watch or play it;
        # one who is keeps the plain answer (review). Read before the lock: it only words
        # the refusal.
        seated = (await self._get(game_id)).seat_of(user_id) is not None
        return await self._lobby_change(game_id, change, action="play" if seated else "join")

    @shielded
    async def leave(
        self, game_id: int, user_id: int, *, may_stop: bool = True, lobby_only: bool = False
    ) -> GameInfo:
        """Leave a lobby, or hand one's seat in a running game to a computer player.

        In a lobby the host's role passes to the next player; a lobby left empty is
        cancelled. In a running game the player can come back with :meth:`take_back`; the
        last person to leave stops it, with no result, unless ``may_stop`` is false: then
        :class:`LastPersonError`, and nothing changes (a front end asks them first).
        ``lobby_only``: a lobby's Leave, which a game started meanwhile refuses
        (:class:`GameStatusError`) rather than hand the seat over unasked.
        """
        live = await self._get(game_id)
        running = live.status is GameStatus.ACTIVE
        if not running:
            try:
                return await self._remove_from_lobby(
                    live, user_id, by_user_id=user_id, is_manager=False
                )
            except GameStatusError:
                if live.status is not GameStatus.ACTIVE or lobby_only:
                    raise
                # Started while the click waited for the game: it leaves the running game.
        elif lobby_only:
            self._check_status(live, GameStatus.LOBBY, "leave")
        return await self._hand_over(live, user_id, user_id, False, kicked=False, may_stop=may_stop)

    @shielded
    async def kick(
        self, game_id: int, by_user_id: int, user_id: int, *, is_manager: bool = False
    ) -> GameInfo:
        """Remove a player (host or server manager): from a lobby, or to a computer for good.
        Removing oneself from a running game is leaving it (one may come back)."""
        live = await self._get(game_id)
        if live.status is GameStatus.ACTIVE:
            kicked = user_id != by_user_id
            return await self._hand_over(live, user_id, by_user_id, is_manager, kicked=kicked)
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
        """Add a computer player to a lobby (host); ``level`` defaults to the lobby's, and
        that to the server's."""
        settings = await self.get_settings((await self._get(game_id)).guild_id)
        if level is not None:
            check_level(level)

        async def change(live: LiveGame) -> list[SeatRow]:
            self._check_host(live, by_user_id, is_manager, "add_computer")
            chosen = level or live.computer_level or settings.computer_level
            limit = max_seats(live.options)
            if len(live.seats) >= limit:
                raise LobbyFullError(limit=limit, reason="players")
            return [*live.seats, computer_seat(live.id, live.seats, chosen)]

        return await self._lobby_change(game_id, change)

    async def remove_seat(
        self, game_id: int, by_user_id: int, seat: int, *, is_manager: bool = False
    ) -> GameInfo:
        """Remove a seat (a computer or a player) from a lobby (host or server manager)."""

        async def change(live: LiveGame) -> list[SeatRow] | None:
            self._check_host(live, by_user_id, is_manager, "remove_seats")
            if not 0 <= seat < len(live.seats):
                raise SeatNotFoundError(reason="seat", seat=seat + 1)
            target = live.seats[seat]
            if target.user_id is not None and target.user_id == live.host_id:
                raise NotHostError(action="remove_host")
            return renumber([s for s in live.seats if s.seat != seat])

        return await self._lobby_change(game_id, change)

    async def remove_computer(
        self, game_id: int, by_user_id: int, *, keep: int, is_manager: bool = False
    ) -> GameInfo:
        """Remove a lobby's last computer player (host or server manager), unless it has
        ``keep`` computers or fewer already: the button carries the count its lobby showed,
        less one, so that a click repeated (or two at once) removes one computer, not two."""

        async def change(live: LiveGame) -> list[SeatRow] | None:
            self._check_host(live, by_user_id, is_manager, "remove_computer")
            computers = [s for s in live.seats if s.user_id is None]
            if len(computers) <= keep:
                return None  # removed already
            return renumber([s for s in live.seats if s.seat != computers[-1].seat])

        return await self._lobby_change(game_id, change)

    async def set_computer_level(
        self,
        game_id: int,
        by_user_id: int,
        level: str,
        *,
        seat: int | None = None,
        is_manager: bool = False,
    ) -> GameInfo:
        """Change the level of a lobby's computer in ``seat`` (host), or with no seat the
        lobby's level: that of the computers added from now on."""
        check_level(level)

        async def change(live: LiveGame) -> list[SeatRow] | None:
            self._check_host(live, by_user_id, is_manager, "change_level")
            if seat is None:
                return None
            if not 0 <= seat < len(live.seats) or live.seats[seat].user_id is not None:
                raise SeatNotFoundError(reason="seat", seat=seat + 1)
            rows = list(live.seats)
            rows[seat] = rows[seat].model_copy(update={"level": level})
            return rows

        lobby_level = level if seat is None else UNSET
        return await self._lobby_change(game_id, change, computer_level=lobby_level)

    async def set_options(
        self,
        game_id: int,
        by_user_id: int,
        options: Options | Mapping[str, Any],
        *,
        is_manager: bool = False,
    ) -> GameInfo:
        """Change a lobby's options (host); refused with :class:`InvalidOptionsError` (R7.8)."""
        opts = parse_options(options)

        async def change(live: LiveGame) -> None:
            self._check_host(live, by_user_id, is_manager, "change_options")
            check_options(opts, max(MIN_PLAYERS, len(live.seats)))

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
        value = check_turn_seconds(seconds)

        async def change(live: LiveGame) -> None:
            self._check_host(live, by_user_id, is_manager, "change_timer")

        return await self._lobby_change(game_id, change, turn_seconds=value)

    @shielded
    async def set_message_ids(
        self,
        game_id: int,
        *,
        lobby_message_id: int | None = UNSET,
        table_message_id: int | None = UNSET,
        ping_message_id: int | None = UNSET,
        announced: int | None = UNSET,
    ) -> None:
        """Remember the Discord messages of a game, and how many of its rounds' summaries the
        channel shows (``announced``, which only grows; ``None`` once its final standings are
        out, for good): a process that starts shows the rest (:meth:`owed_ends`). Does not
        change its version."""
        live = await self._get(game_id, finished_ok=True)
        given = {
            "lobby_message_id": lobby_message_id,
            "table_message_id": table_message_id,
            "ping_message_id": ping_message_id,
            "announced": announced,
        }
        fields: dict[str, Any] = {k: v for k, v in given.items() if v is not UNSET}
        async with live.lock:
            # Only ever on: a round shown late (after a later one) does not owe that one
            # again, and a game owed nothing stays so.
            count = fields.get("announced")
            if count is not None and (live.announced is None or count <= live.announced):
                del fields["announced"]
            if fields:
                await self._update_game(live, None, checked=False, **fields)

    @shielded
    async def start(self, game_id: int, by_user_id: int, *, is_manager: bool = False) -> GameUpdate:
        """Start a lobby of 3 to 6 seats (host): round 1 is dealt at once."""
        live = await self._get(game_id)
        async with live.lock:
            self._check_status(live, GameStatus.LOBBY)
            self._check_host(live, by_user_id, is_manager, "start")
            n = len(live.seats)
            if n < MIN_PLAYERS:
                raise NotEnoughPlayersError(players=n, min=MIN_PLAYERS, max=MAX_PLAYERS)
            check_options(live.options, n)
            state = initial_state([s.name for s in live.seats], live.options, live.seed)
            now = self.clock.now()
            # A lobby without a level of its own follows the server's; the game keeps the
            # level it starts with, as the settings promise (the level of a seat handed to
            # a computer later: a leaver's, a timed-out player's).
            level = live.computer_level
            if level is None:
                level = (await self.get_settings(live.guild_id)).computer_level

            async def holders(conn: aiosqlite.Connection) -> None:
                # Who holds each seat from the first action on (the seats' history).
                await conn.executemany(
                    repo.INSERT_HOLDER,
                    [
                        repo.holder_params(
                            live.id, s.seat, 0, user_id=s.user_id, level=s.level, name=s.name
                        )
                        for s in live.seats
                    ],
                )

            await self._update_game(
                live,
                now,
                also=holders,
                status=GameStatus.ACTIVE,
                started_at=now,
                computer_level=level,
                announced=0,  # the channel is owed every round's summary, then the standings
                deadline=live.turn_deadline(live.seats, state, now),
                computer_turn=live.computer_seat(live.seats, state) is not None,
            )
            live.state = state
            live.last_non_bid_version = live.version
            live.computer_due = self._computer_due(live, now)
            events: tuple[Event, ...] = (
                GameStarted(state.players, state.first_dealer, live.options, num_rounds(state)),
                dealt_event(state),
                turn_event(state, live.deadline),
            )
        self._arm(live)
        return await self._update(live, events)

    @shielded
    async def cancel(
        self, game_id: int, by_user_id: int, *, is_manager: bool = False, lobby_only: bool = False
    ) -> GameInfo:
        """Cancel a lobby or a running game (host, or a server manager: pass ``is_manager``).
        ``lobby_only``: a lobby's Cancel, which a game started meanwhile refuses
        (:class:`GameStatusError`): a front end asks first before a running game is lost."""
        live = await self._get(game_id)
        async with live.lock:
            if lobby_only:
                self._check_status(live, GameStatus.LOBBY, "cancel")
            if live.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
                self._check_status(live, GameStatus.ACTIVE)
            self._check_host(live, by_user_id, is_manager, "cancel")
            by_host = by_user_id == live.acting_host
            await self._cancel_locked(live, "host" if by_host else "manager")
        return live.info()

    async def cancel_games_in(
        self,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        reason: str,
    ) -> list[GameUpdate]:
        """Cancel, for the system (no user asked), every lobby and running game of one
        channel or of one server (give exactly one of ``channel_id`` and ``guild_id``).

        For a home that is gone: the channel or thread was deleted (``"channel_deleted"``),
        the bot was removed from the server (``"server_left"``). Seats, log and record stay
        as for any cancelled game. The updates of the games cancelled, oldest first (each
        with its :class:`GameCancelled`); a game that ended meanwhile, or that another
        process serves, is left as it is, so saying it twice cancels nothing more. Refused
        with :class:`StorageError` (``closing``) once the service is closing.
        """
        if (channel_id is None) == (guild_id is None):
            raise TypeError("cancel_games_in takes one of channel_id and guild_id")
        if self._closed:
            raise StorageError(reason="closing")  # a deletion heard while the bot goes down
        if channel_id is not None:
            rows = await self._store.fetchall(repo.OPEN_IN_CHANNEL, (channel_id,))
        else:
            rows = await self._store.fetchall(repo.OPEN_IN_GUILD, (guild_id,))
        out = []
        for row in rows:
            update = await self._system_cancel(int(row[0]), reason)
            if update is not None:
                out.append(update)
        return out

    @shielded
    async def _system_cancel(self, game_id: int, reason: str) -> GameUpdate | None:
        """Cancel one lobby or running game for ``reason``; ``None`` if it is not open here."""
        try:
            live = await self._get(game_id)
        except ServiceError:
            return None  # ended meanwhile, another process's, or quarantined
        async with live.lock:
            if live.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
                return None
            return await self._cancel_locked(live, reason)

    async def _cancel_locked(self, live: LiveGame, reason: str) -> GameUpdate:
        now = self.clock.now()
        await self._update_game(
            live,
            now,
            status=GameStatus.CANCELLED,
            finished_at=now,
            deadline=None,
            computer_turn=False,
        )
        live.computer_due = None
        self._forget(live)
        return await self._update(live, (GameCancelled(reason),))

    @shielded
    async def _lobby_change(
        self,
        game_id: int,
        change: Callable[[LiveGame], Awaitable[list[SeatRow] | None]],
        /,
        *,
        action: str = "play",
        **fields: Any,
    ) -> GameInfo:
        """A lobby changed (its lock held): ``change`` checks, and returns the new seats if
        they change; the ``fields`` given (not ``UNSET``) are stored with them. Nothing to
        store (no new seats, no field): nothing written, and the version stays. ``action``
        names the change in the refusal of a lobby that is one no more (a join says what a
        latecomer can do)."""
        live = await self._get(game_id)
        async with live.lock:
            self._check_status(live, GameStatus.LOBBY, action)
            seats = await change(live)
            given = {k: v for k, v in fields.items() if v is not UNSET}
            if seats is not None or given:
                await self._update_game(live, self.clock.now(), seats=seats, **given)
        return live.info()

    async def _hand_over(
        self,
        live: LiveGame,
        user_id: int,
        by_user_id: int,
        is_manager: bool,
        *,
        kicked: bool,
        may_stop: bool = True,
    ) -> GameInfo:
        """A running game's seat to a computer: for a while when its player leaves, for good
        when (``kicked``) the host or a manager removes them.

        While the host is away, the first person still playing has the host's say
        (:attr:`LiveGame.acting_host`), and the host has it again on taking the seat back.
        Once no person plays any seat, the game is cancelled (``"abandoned"``) rather than
        run on for computers alone (unless not ``may_stop``: then :class:`LastPersonError`,
        before anything is written).
        """
        async with live.lock:
            self._check_status(live, GameStatus.ACTIVE)
            if kicked:
                self._check_host(live, by_user_id, is_manager, "remove_players")
            row = live.seat_of(user_id)
            if row is None:
                raise SeatNotFoundError(reason="player") if kicked else NotSeatedError()
            if not may_stop and live.playing() == [user_id]:
                raise LastPersonError()
            if not (row.kicked if kicked else row.away):
                await self._set_away(
                    live, row, kicked=kicked, reason="kicked" if kicked else "left"
                )
            playing = live.playing()
            if not playing:
                await self._cancel_locked(live, "abandoned")
                return live.info()
        self._arm(live)
        return live.info()

    @shielded
    async def _remove_from_lobby(
        self, live: LiveGame, user_id: int, *, by_user_id: int, is_manager: bool
    ) -> GameInfo:
        async with live.lock:
            self._check_status(live, GameStatus.LOBBY)
            if by_user_id != user_id:
                self._check_host(live, by_user_id, is_manager, "remove_players")
            row = live.seat_of(user_id)
            if row is None:
                if by_user_id == user_id:
                    raise NotSeatedError(reason="not_in_lobby")
                raise SeatNotFoundError(reason="lobby_player")
            seats = renumber([s for s in live.seats if s.seat != row.seat])
            host = live.host_id
            if user_id == host:
                humans = [s for s in seats if s.user_id is not None]
                if not humans:
                    await self._cancel_locked(live, "empty")
                    return live.info()
                host = humans[0].user_id or host

            async def removal(conn: aiosqlite.Connection) -> None:
                # Removed, not left: they may not join this lobby again.
                await repo.remember_removal(conn, live.id, user_id)

            await self._update_game(
                live,
                self.clock.now(),
                seats=seats,
                host_id=host,
                also=removal if by_user_id != user_id else None,
            )
        return live.info()


def computer_seat(game_id: int, seats: list[SeatRow], level: str, name: str = "") -> SeatRow:
    """The seat of a computer player of ``level`` after ``seats``, named ``name`` if given
    and unused, else after the first computer name they do not use yet."""
    used = {s.name for s in seats}
    if not name or name in used:
        name = next((n for n in COMPUTER_NAMES if n not in used), "Computer")
    return SeatRow(
        game_id=game_id, seat=len(seats), user_id=None, name=unique_name(name, seats), level=level
    )


def check_level(level: str) -> None:
    """Refuse an unknown computer level with :class:`InvalidSettingsError`."""
    try:
        GuildSettings(computer_level=level)
    except ValidationError as e:
        raise InvalidSettingsError(None, setting="computer_level", detail=describe(e)) from None
