"""Queries: a game, a channel's games, a player's view, the table, a record, statistics
and a server's history (leaderboards: :mod:`wizard.service.boards`). Nothing here writes."""

from __future__ import annotations

import itertools
from dataclasses import fields

from pydantic import ValidationError

from wizard.record import dumps
from wizard.service.base import log
from wizard.service.errors import (
    GameNotFoundError,
    GameStatusError,
    InvalidSettingsError,
    NotSeatedError,
)
from wizard.service.events import GameStatus
from wizard.service.game import GameInfo, SeatView, stored_standings
from wizard.service.loading import Loading
from wizard.service.types import GameSummary
from wizard.store import repo
from wizard.store.models import GameRow, ResultRow, describe


class Queries(Loading):
    """Read-only questions about games and players."""

    async def get_game(self, game_id: int) -> GameInfo:
        """A game in any state (finished ones with their standings)."""
        live = await self._get(game_id, finished_ok=True)
        return live.info()

    async def running_game(self, game_id: int, action: str = "play") -> GameInfo:
        """A game that is running: refused as a move of ``action`` would be (a
        :class:`GameStatusError` once it finished or was cancelled) if it is not."""
        live = await self._get(game_id, finished_ok=True)
        self._check_status(live, GameStatus.ACTIVE, action)
        return live.info()

    async def game_in_channel(self, channel_id: int) -> GameInfo | None:
        """The newest lobby or running game of a channel, if any."""
        games = await self.games_in_channel(channel_id)
        return games[-1] if games else None

    async def games_in_channel(self, channel_id: int) -> list[GameInfo]:
        """Every lobby and running game of a channel, oldest first."""
        rows = await self._store.fetchall(repo.OPEN_IN_CHANNEL, (channel_id,))
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
        if live.status is GameStatus.BROKEN:
            self._check_status(live, GameStatus.ACTIVE)  # game_damaged
        row = live.seat_of(user_id)
        if row is None:
            raise await self._not_seated(live, user_id)
        if row.kicked:  # removed for good: the seat's cards are the computer's now (R8.3)
            raise NotSeatedError(reason="kicked")
        if live.state is None:
            raise GameStatusError(live.status.value, action="view", game_id=live.id)
        return live.seat_view(row)

    async def game_record(self, game_id: int) -> str:
        """The game record (RULES §9) of a finished or cancelled game, as JSON text."""
        live = await self._get(game_id, finished_ok=True)
        if live.status in (GameStatus.LOBBY, GameStatus.ACTIVE, GameStatus.BROKEN):
            self._check_status(live, GameStatus.FINISHED, "record")
        if live.state is None:
            raise GameStatusError(live.status.value, action="record", game_id=live.id)
        return dumps(live.state)

    async def recent_games(
        self, guild_id: int, *, limit: int = 10, before: int | None = None
    ) -> list[GameSummary]:
        """A server's finished games, newest first; ``before`` (a game id from an earlier
        page) lists the games that finished before that one."""
        # No ``owns_guild`` check: finished games are never loaded or armed, so any process
        # may read them (like the leaderboard), and a history read changes nothing.
        if not 1 <= limit <= 100:
            raise InvalidSettingsError(None, setting="history_size", min=1, max=100)
        cursor: tuple[float, int] | None = None
        if before is not None:
            row = await self._store.fetchone(
                "SELECT finished_at, id FROM games WHERE id = ? AND guild_id = ?"
                " AND status = 'finished'",
                (before, guild_id),
            )
            if row is None or not isinstance(row[0], int | float):
                raise GameNotFoundError(before, reason="not_in_history")
            cursor = (float(row[0]), int(row[1]))
        params = (guild_id, limit) if cursor is None else (guild_id, *cursor, limit)
        raws = await self._store.fetchall(repo.recent_games_sql(cursor=cursor is not None), params)
        ids = "[" + ",".join(str(int(r["id"])) for r in raws) + "]"
        found = await self._store.fetchall(
            f"SELECT {ResultRow.columns()} FROM results"
            " WHERE game_id IN (SELECT value FROM json_each(?)) ORDER BY game_id, seat",
            (ids,),
        )
        results = {k: list(g) for k, g in itertools.groupby(found, key=lambda r: r["game_id"])}
        forfeited: dict[int, set[int]] = {}
        for r in await self._store.fetchall(_FORFEITED_SEATS, (ids,)):
            forfeited.setdefault(int(r["game_id"]), set()).add(int(r["seat"]))
        out = []
        for raw in raws:
            try:
                game = GameRow.model_validate(dict(raw))
                rows = [ResultRow.model_validate(dict(r)) for r in results.get(game.id, [])]
            except ValidationError as e:
                # A damaged row costs its own line of the history, not the whole page.
                log.warning("game %s left out of the history: %s", raw["id"], describe(e))
                continue
            if not rows or game.finished_at is None:
                log.warning("game %s left out of the history: no results stored", game.id)
                continue
            same = {name: value for name, value in game if name in _SUMMARY_FIELDS}
            rounds = max(r.rounds for r in rows)
            out.append(
                GameSummary(
                    **same,
                    rounds=rounds,
                    standings=stored_standings(rows, forfeited.get(game.id, ())),
                )
            )
        return out


_SUMMARY_FIELDS = {f.name for f in fields(GameSummary)}
_FORFEITED_SEATS = (
    "SELECT game_id, seat FROM seats WHERE game_id IN (SELECT value FROM json_each(?))"
    " AND user_id IS NOT NULL AND away"
)
"""The seats of the games listed (a JSON array) that a computer played to the end for a
person who left."""
"""What a history line takes from its game's row as it is (the same names)."""
