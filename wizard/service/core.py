"""The facade of the game service: :class:`GameService`, the rooms joined, opened and closed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from wizard.service.base import GuildFilter, Listener
from wizard.service.boards import BoardQueries
from wizard.service.clock import Clock
from wizard.service.queries import Queries
from wizard.service.seats import Seats
from wizard.service.settings import ServiceConfig
from wizard.store.db import DEFAULT_PATH, Store, unavailable
from wizard.store.shards import ShardClaim


class GameService(Seats, Queries, BoardQueries):
    """Lobbies, play, clocks, results and queries of Wizard games, stored in SQLite.

    Every change goes through one method call that takes the game's lock, checks,
    writes and commits, and only then changes the in-memory game and returns what
    changed. Refusals are :class:`~wizard.service.errors.ServiceError` subclasses raised
    before anything is written.
    """

    _claim: ShardClaim | None = None

    @classmethod
    async def open(
        cls,
        path: str | Path = DEFAULT_PATH,
        *,
        config: ServiceConfig | None = None,
        clock: Clock | None = None,
        owns_guild: GuildFilter | None = None,
        recover: bool = True,
        shards: tuple[int, ...] = (),
        shard_count: int = 1,
    ) -> GameService:
        """Open (create, migrate, ``quick_check``) the database and, by default, get this
        process's games ready (:meth:`recover`: clocks armed, games loaded on first use).

        Raises :class:`wizard.store.DatabaseUnavailable` if the file cannot be used, having
        closed everything it opened, or if another live process serves one of ``shards``
        (the shard ids this process serves, when sharded, of ``shard_count``), or counts
        shards otherwise. Clocks and computer turns run only after
        :meth:`start_clocks`, so that listeners can be subscribed first.
        """
        config = config or ServiceConfig()
        claim = ShardClaim(Path(path), shards, shard_count)
        try:
            store = await Store.open(path, busy_timeout=config.busy_timeout)
        except BaseException:
            claim.release()
            raise
        service = cls(store, config=config, clock=clock, owns_guild=owns_guild)
        service._claim = claim
        try:
            if recover:
                await service.recover()
        except BaseException as e:
            await service.close()
            if isinstance(e, sqlite3.DatabaseError):  # damaged beyond reading the clocks' columns
                raise unavailable(Path(path), e) from e
            raise
        return service

    async def close(self) -> None:
        """Stop the clocks, commit what is queued and close the database."""
        if self._closed:
            return
        try:
            await self.stop_clocks()
        finally:
            self._closed = True
            await self._close_workers()
            try:
                await self._store.close()
            finally:
                if self._claim is not None:
                    self._claim.release()


__all__ = ["GameService", "GuildFilter", "Listener"]
