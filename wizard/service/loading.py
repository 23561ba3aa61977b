"""Loading games from the file: on first use, from their logs; damaged ones quarantined.

Start-up (:meth:`Loading.recover`) reads only what the clocks need (ids, deadlines, whether a
computer is to act), gives a whole new turn to each turn whose time ran out while the bot was
down, and checks that no running game's log is shorter than its row says was
acknowledged; each game is replayed from its log when something first needs it. A game that
cannot be read or replayed is quarantined: marked ``broken`` with the reason, refused to its
players (``game_damaged``), listed by :meth:`Loading.damaged_games`; the others play on.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import time
from typing import Any, NamedTuple

from pydantic import ValidationError

from wizard.errors import IllegalActionError, OptionsError
from wizard.options import Bidding
from wizard.service.base import ServiceBase, log
from wizard.service.errors import GameNotFoundError, ServiceError, StorageError
from wizard.service.events import Actor, GameStatus
from wizard.service.game import (
    LiveGame,
    LoggedMove,
    decode_action,
    fold,
    forfeited_seats,
    move_rounds,
    stored_standings,
    turn_ran_out,
)
from wizard.service.types import RecoveryReport
from wizard.state import Action, GameState, Phase
from wizard.store.db import Statements, is_damage
from wizard.store.models import ACTION_LOG, GameRow, ResultRow, SeatHolderRow, SeatRow, describe
from wizard.store.repo import fetch_holders

_GAME, _SEAT, _RESULT = GameRow.columns(), SeatRow.columns(), ResultRow.columns()
_LOG = (
    "SELECT seq, seat, kind, arg, request_id, version, actor, user_id FROM actions"
    " WHERE game_id = ? ORDER BY seq"
)
"""The log of one game, in order (validated by the replay)."""
_KEPT = frozenset({"lock", "timer", "computers", "recent"})
"""Fields of a game in memory that a reload from the file keeps."""
_FROM_ROW = {f.name for f in dataclasses.fields(LiveGame)} & set(GameRow.model_fields) - {"status"}
"""Fields of a game in memory taken from its row as they are."""


OWED_FOR = 24 * 3600.0
"""Seconds after its end during which a finished game's unshown end is still tried at start."""


class _Broken(Exception):
    """A stored game that cannot be trusted; the message is the operator's reason."""


class _Replayed(NamedTuple):
    """A game's whole log, validated and replayed."""

    state: GameState
    actions: list[Action]
    versions: list[int]
    request_ids: dict[str, int]
    moves: list[LoggedMove]


class Loading(ServiceBase):
    """Start-up, loading on first use, and quarantine of damaged games."""

    async def recover(self) -> RecoveryReport:
        """Get this process's lobbies and running games ready: arm their clocks from their
        rows (each is loaded from its log when it is first needed; a turn whose time ran out
        while the bot was down starts afresh) and quarantine every running game whose log is
        shorter than what was acknowledged. Idempotent."""
        t0 = time.perf_counter()
        # Running games whose log is shorter than acknowledged, or cannot be read at all.
        short = await self._short_logs()
        just = {game_id for game_id, _, _ in short}
        # Their tables still show them running: the front end shows them damaged.
        shown = [
            game_id for game_id, guild, _ in short if isinstance(guild, int) and self._owns(guild)
        ]
        for game_id, _, reason in short:
            await self._quarantine(game_id, reason)
        now = self.clock.now()
        mine: list[int] = []
        skipped = 0
        deadlines: dict[int, float] = {}  # of turns and lobbies
        computer_moves: dict[int, float] = {}
        ran_out: list[tuple[int, int | float, float]] = []
        # What the clocks need, numbers only: a damaged text column of one game must not
        # stop the others from loading.
        clocks = await self._store.fetchall(
            "SELECT id, guild_id, deadline, turn_seconds, computer_turn,"
            " status = 'active' AS active FROM games"
            " WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        for row in clocks:
            game_id, guild, deadline = row["id"], row["guild_id"], row["deadline"]
            if not isinstance(game_id, int) or not isinstance(guild, int):
                continue  # found when the game is first used
            if not self._owns(guild):
                skipped += 1
                continue
            mine.append(game_id)
            if game_id in self._games:
                continue
            if isinstance(deadline, int | float):
                deadlines[game_id] = float(deadline)
                turn = row["turn_seconds"]
                # A turn (not a lobby's expiry) that ran out while no process kept its clock,
                # or that lies further ahead than a whole turn (the clock was moved back).
                if (
                    row["active"]
                    and isinstance(turn, int | float)
                    and turn_ran_out(deadline, turn, now)
                    and game_id not in self._wakes
                ):
                    ran_out.append((game_id, deadline, now + float(turn)))
            if row["active"] and row["computer_turn"]:
                computer_moves[game_id] = now + self.config.computer_delay
        if await self._fresh_turns(ran_out):
            deadlines.update((game_id, fresh) for game_id, _, fresh in ran_out)
        for game_id in sorted(deadlines.keys() | computer_moves.keys()):
            dues = (deadlines.get(game_id), computer_moves.get(game_id))
            self._wakes[game_id] = min(due for due in dues if due is not None)
            self._arm_wake(game_id)
        damaged = await self.damaged_games()
        for game_id, reason in damaged:
            if game_id not in just:  # those were logged as they were quarantined
                log.error("game %s is quarantined (damaged): %s", game_id, reason)
        self.recovered = tuple(sorted(mine + shown + await self._owed_finished(now)))
        await self._forget_run_out_hands()
        return RecoveryReport(
            loaded=tuple(mine),
            broken=tuple(damaged),
            seconds=time.perf_counter() - t0,
            skipped=skipped,
        )

    async def _owed_finished(self, now: float) -> list[int]:
        """This process's finished games whose end the channel was not shown: the process
        that finished them stopped first (the front end shows what is owed, ``owed_ends``).
        One that Discord has refused for a day (the bot removed from its server, a lost
        permission) is given up, and the operator told, rather than tried at every start."""
        rows = await self._store.fetchall(
            "SELECT id, guild_id, finished_at FROM games"
            " WHERE status = 'finished' AND announced IS NOT NULL"
        )
        owed: list[int] = []
        old: list[int] = []
        for row in rows:
            game_id, guild, finished = row["id"], row["guild_id"], row["finished_at"]
            if not isinstance(game_id, int) or not isinstance(guild, int) or not self._owns(guild):
                continue
            fresh = isinstance(finished, int | float) and finished > now - OWED_FOR
            (owed if fresh else old).append(game_id)
        if old:
            marks = ", ".join("?" * len(old))
            sql = f"UPDATE games SET announced = NULL WHERE id IN ({marks})"
            try:
                await self._write(Statements(((sql, tuple(old)),)))
            except ServiceError as e:
                log.error("games %s: not marked as shown (%s)", old, e.message)
            else:
                log.warning(
                    "games %s: their end was never shown in Discord in the day after they"
                    " finished (the channel refused it): no longer tried",
                    ", ".join(map(str, old)),
                )
        return owed

    async def _short_logs(self) -> list[tuple[int, object, str]]:
        """Every running game whose log holds fewer actions than its row says were
        acknowledged, or cannot be counted: ``(game, guild, reason)``.

        One query counts them all; if SQLite finds a damaged page on the way (a bad sector
        under a few games' actions), each game is counted alone, so that only the games whose
        actions sit on that page are quarantined and every other game plays on."""

        def short(game: sqlite3.Row, n: object) -> tuple[int, object, str]:
            reason = f"the log holds {n} actions but {game['seq']} were acknowledged"
            return int(game["id"]), game["guild_id"], reason

        count = "SELECT COUNT(*) AS n FROM actions WHERE game_id = ?"
        try:
            rows = await self._store.fetchall(
                f"SELECT g.id, g.guild_id, g.seq, ({count.replace('?', 'g.id')}) AS n"
                " FROM games AS g WHERE g.status = 'active' AND n < g.seq"
            )
            return [short(row, row["n"]) for row in rows]
        except sqlite3.DatabaseError as error:
            if not is_damage(error):
                raise
            log.error("counting the running games' actions met damage (%s): counting each", error)
        found = []
        running = "SELECT id, guild_id, seq FROM games WHERE status = 'active' ORDER BY id"
        for game in await self._store.fetchall(running):
            try:
                # Compared by SQLite, as the query above compares them.
                (row,) = await self._store.fetchall(
                    f"SELECT n, n < ? AS short FROM ({count})", (game["seq"], game["id"])
                )
            except sqlite3.DatabaseError as error:
                if not is_damage(error):
                    raise
                found.append(
                    (int(game["id"]), game["guild_id"], f"its log cannot be read: {error}")
                )
                continue
            if row["short"]:
                found.append(short(game, row["n"]))
        return found

    async def _fresh_turns(self, ran_out: list[tuple[int, int | float, float]]) -> bool:
        """Store a whole new turn for each ``(game, stored deadline, fresh deadline)``: that
        turn's time ran out while no process ran its clock, so its player never had it (or
        the clock was moved back, and it lay further ahead than a whole turn).

        Stored like any deadline, so that a second restart keeps it; the version stays, so
        the buttons shown still work. ``False`` if nothing was stored: then those turns time
        out at once, as their stored deadlines say.
        """
        if not ran_out:
            return False
        try:
            await self._write(
                Statements(
                    tuple(
                        (
                            "UPDATE games SET deadline = ? WHERE id = ? AND status = 'active'"
                            " AND deadline = ?",
                            (fresh, game_id, stored),
                        )
                        for game_id, stored, fresh in ran_out
                    )
                )
            )
        except ServiceError as e:
            log.error(
                "%d turns that ran out while the bot was down time out now: their fresh"
                " deadlines could not be stored (%s)",
                len(ran_out),
                e.message,
            )
            return False
        log.info(
            "%d turns that ran out while the bot was down (or lay further ahead than a whole"
            " turn: the clock was moved back) start afresh",
            len(ran_out),
        )
        return True

    async def damaged_games(self) -> list[tuple[int, str]]:
        """Every quarantined game: id and the reason (for the operator)."""
        rows = await self._store.fetchall(
            "SELECT id, CAST(broken_reason AS BLOB) AS reason FROM games WHERE status = 'broken'"
            " ORDER BY id"
        )
        return [
            (
                int(r["id"]),
                "damaged" if r["reason"] is None else r["reason"].decode(errors="replace"),
            )
            for r in rows
        ]

    async def _get(self, game_id: int, *, finished_ok: bool = False) -> LiveGame:
        live = self._games.get(game_id)
        if live is not None:
            return live
        if self._closed:
            raise StorageError(reason="closing")
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
                raise GameNotFoundError(game_id, reason="other_process")
            live = self._games.setdefault(game_id, loaded)
            if live is loaded:
                woken = self._wakes.pop(game_id, None)
                due = self._computer_due(live, self.clock.now())
                # A computer move armed at start-up keeps its time.
                live.computer_due = due if due is None or woken is None else min(due, woken)
                self._arm(live)
            return live
        self._remember_ended(loaded)  # ended or quarantined: kept, not read again
        if not finished_ok:
            self._check_status(loaded, GameStatus.ACTIVE)
        return loaded

    async def _load(self, game_id: int) -> LiveGame | None:
        """One game from its rows, replayed from its log; a stub of a quarantined one."""
        raw = None
        try:
            raw = await self._store.fetchone(f"SELECT {_GAME} FROM games WHERE id = ?", (game_id,))
            if raw is None:
                return None
            seats = await self._store.fetchall(
                f"SELECT {_SEAT} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
            actions = [tuple(a) for a in await self._store.fetchall(_LOG, (game_id,))]
            holders = await fetch_holders(self._store, game_id)
        except sqlite3.DatabaseError as e:
            if is_damage(e):  # a damaged page under the game's rows
                reason = f"a row cannot be read: {e}"
                stored_status = None if raw is None else raw["status"]
                if raw is not None and stored_status == GameStatus.BROKEN.value:
                    # Told when quarantined, with the reason then found.
                    stored = raw["broken_reason"]
                    return await self._stub(game_id, stored if isinstance(stored, str) else reason)
                if stored_status in (GameStatus.FINISHED.value, GameStatus.CANCELLED.value):
                    # Nothing to stop: reported, and left as it is for a mended file.
                    return await self._unshowable(game_id, stored_status, reason)
                return await self._quarantined(game_id, reason)
            # A fault that may pass (disk I/O, a full disk): the game stays as stored.
            log.error("game %s could not be read: %s", game_id, e)
            raise StorageError(reason="read_failed") from e
        status = raw["status"]
        try:
            live, acknowledged = self._skeleton(raw, seats, holders)
            replayed = self._replay(live, actions, acknowledged)
        except _Broken as b:
            if status in ("lobby", "active"):
                return await self._quarantined(game_id, str(b))
            if status == GameStatus.BROKEN.value:  # told when quarantined, and at each start
                return await self._stub(game_id, str(b))
            return await self._unshowable(game_id, status, str(b))
        if replayed is not None:
            live.state, live.versions, live.request_ids = (
                replayed.state,
                replayed.versions,
                replayed.request_ids,
            )
            for action, move in zip(replayed.actions, replayed.moves, strict=True):
                live.log(action, move)
            self._resume_hidden_bids(live)
        if live.status is GameStatus.FINISHED:
            rows = await self._store.fetchall(
                f"SELECT {_RESULT} FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
            )
            try:
                live.standings = stored_standings(
                    (ResultRow.model_validate(dict(r)) for r in rows), forfeited_seats(live.seats)
                )
            except ValidationError as e:
                why = f"a result row is damaged: {describe(e)}"
                return await self._unshowable(game_id, status, why)
        return live

    async def _refresh(self, live: LiveGame) -> None:
        """Make ``live`` (its lock held) what the file says now: another process wrote it."""
        fresh = await self._load(live.id)
        if fresh is None:
            raise GameNotFoundError(live.id)
        for f in dataclasses.fields(LiveGame):
            if f.name not in _KEPT:
                setattr(live, f.name, getattr(fresh, f.name))
        if live.status in (GameStatus.LOBBY, GameStatus.ACTIVE):
            live.computer_due = self._computer_due(live, self.clock.now())
            self._arm(live)
        else:
            self._forget(live)

    def _skeleton(
        self, raw: sqlite3.Row, seat_raws: list[sqlite3.Row], holder_raws: list[sqlite3.Row]
    ) -> tuple[LiveGame, int]:
        """A game from its row and seats, without its state yet, and the number of actions
        its row says were acknowledged; :class:`_Broken` with the reason if they, or the
        rows of who held its seats when (read at its end and in its history), cannot be
        trusted."""
        try:
            row = GameRow.model_validate(dict(raw))
            seats = [SeatRow.model_validate(dict(r)) for r in seat_raws]
        except ValidationError as e:
            raise _Broken(f"a game or seat row is invalid: {describe(e)}") from None
        if [s.seat for s in seats] != list(range(len(seats))) or not seats:
            raise _Broken(f"the seats are not numbered 0…n−1: {[s.seat for s in seats]}")
        status = GameStatus(row.status)
        if status is GameStatus.BROKEN:
            raise _Broken(row.broken_reason or "marked broken")
        try:
            holders = [SeatHolderRow.model_validate(dict(r)) for r in holder_raws]
        except ValidationError as e:
            raise _Broken(f"a seat holder row is invalid: {describe(e)}") from None
        for h in holders:
            if h.seat >= len(seats):
                raise _Broken(
                    f"a seat holder row names seat {h.seat}, but the game has seats"
                    f" 0…{len(seats) - 1}"
                )
            if h.from_action > row.seq:
                raise _Broken(
                    f"a seat holder row holds seat {h.seat} from action {h.from_action}, but"
                    f" the game has {row.seq} actions"
                )
        same = {name: value for name, value in row if name in _FROM_ROW}
        live = LiveGame(**same, status=status, seats=seats, last_non_bid_version=row.version)
        return live, row.seq

    @staticmethod
    def _resume_hidden_bids(live: LiveGame) -> None:
        """After a reload, let surfaces drawn while hidden or secret bids were being chosen
        stay valid: the others' bids since then change nothing they offer. Each bid moved the
        version by one, so the last other move was at most ``version - bids made`` (a seat that
        changed hands meanwhile moved it too: then this is stricter than it need be)."""
        state = live.state
        if state is None or live.options.bidding is Bidding.OPEN or state.phase is not Phase.BID:
            return
        made = sum(bid is not None for bid in state.bids)
        live.last_non_bid_version = max(live.version - made, 0)

    @staticmethod
    def _replay(
        live: LiveGame, action_raws: list[tuple[Any, ...]], acknowledged: int
    ) -> _Replayed | None:
        """A game's whole log, validated and replayed (``None`` for a game that never
        started); :class:`_Broken` with the reason if it cannot be trusted."""
        try:
            rows = ACTION_LOG.validate_python(action_raws)
        except ValidationError as e:
            raise _Broken(f"an action row is invalid: {describe(e)}") from None
        if [a.seq for a in rows] != list(range(1, len(rows) + 1)):
            raise _Broken("the action log has a gap or a repeat")
        if len(rows) != acknowledged:
            # Never go on from a state older than what players were told was done.
            raise _Broken(f"the log holds {len(rows)} actions but {acknowledged} were acknowledged")
        if live.started_at is None:
            if rows:
                raise _Broken("a game that never started has actions")
            return None
        try:
            actions = [decode_action(a.kind, a.seat, a.arg) for a in rows]
            state = fold([s.name for s in live.seats], live.options, live.seed, actions)
        except ValueError as e:
            raise _Broken(f"an action cannot be read: {e}") from None
        except (IllegalActionError, OptionsError) as e:
            where = "; ".join(getattr(e, "__notes__", ()))  # which action (fold's note)
            raise _Broken(
                f"the log does not replay{f' at {where}' if where else ''}: {e}"
            ) from None
        if live.status is GameStatus.ACTIVE and state.phase is Phase.GAME_OVER:
            raise _Broken("the log ends the game but the game is not marked finished")
        if live.status is GameStatus.FINISHED and state.phase is not Phase.GAME_OVER:
            raise _Broken("the game is marked finished but its log does not end it")
        return _Replayed(
            state,
            actions,
            [a.version for a in rows],
            {a.request_id: a.seq for a in rows if a.request_id is not None},
            [
                LoggedMove(a.seat, Actor(a.actor), a.user_id, number)
                for a, number in zip(rows, move_rounds(actions, len(live.seats)), strict=True)
            ],
        )

    async def _quarantine(self, game_id: int, reason: str) -> None:
        """Mark a game damaged, once, with the reason; it is never loaded again."""
        log.error("game %s is damaged and quarantined: %s", game_id, reason)
        mark = (
            "UPDATE games SET status = 'broken', broken_reason = ?, deadline = NULL,"
            " computer_turn = 0 WHERE id = ?"
        )
        try:
            await self._store.write(Statements(((mark, (reason, game_id)),)))
        except Exception as e:
            log.error("game %s could not be marked damaged: %s", game_id, e)
        self._games.pop(game_id, None)
        self._wakes.pop(game_id, None)

    async def _quarantined(self, game_id: int, reason: str) -> LiveGame:
        await self._quarantine(game_id, reason)
        return await self._stub(game_id, reason)

    async def _unshowable(self, game_id: int, status: str, reason: str) -> LiveGame:
        """An ended game that cannot be read: nothing to stop, but its record and scorepad
        cannot be shown any more; the operator is told (once while the process keeps it
        among its ended games, so again after a restart)."""
        log.error("game %s (%s) is damaged and cannot be shown: %s", game_id, status, reason)
        return await self._stub(game_id, reason)

    async def _stub(self, game_id: int, reason: str) -> LiveGame:
        """Enough of a damaged game to answer queries and refusals (numbers only are read)."""
        try:
            row = await self._store.fetchone(
                "SELECT guild_id, channel_id, host_id, version, lobby_message_id,"
                " table_message_id, ping_message_id FROM games WHERE id = ?",
                (game_id,),
            )
        except sqlite3.DatabaseError:
            row = None

        def number(key: str) -> int:
            value = row[key] if row is not None else 0
            return value if isinstance(value, int) else 0

        def message(key: str) -> int | None:  # where the channel shows the game, if known
            return number(key) or None

        return LiveGame(
            id=game_id,
            guild_id=number("guild_id"),
            channel_id=number("channel_id"),
            host_id=number("host_id"),
            status=GameStatus.BROKEN,
            version=number("version"),
            broken_reason=reason,
            lobby_message_id=message("lobby_message_id"),
            table_message_id=message("table_message_id"),
            ping_message_id=message("ping_message_id"),
        )
