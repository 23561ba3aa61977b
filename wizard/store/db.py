"""The database file: connections with the right pragmas, and the group-committing writer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

import aiosqlite

from wizard.store.migrations import LATEST, migrate

log = logging.getLogger(__name__)

DEFAULT_PATH = Path("data/wizard.db")
BUSY_TIMEOUT_MS = 10_000
WRITE_CACHE_KIB = 64 * 1024
"""Page cache of the write connection (SQLite's default is 2 MiB). The pages each action
touches (its game's row and the end of its log) stay in the process rather than being read
back from the operating system's cache, which a host may trim at any time: reads from the
disk inside a commit made the slowest commits (up to tens of milliseconds)."""

T = TypeVar("T")


async def connect(
    path: str | Path,
    *,
    readonly: bool = False,
    autocheckpoint: bool = True,
    any_thread: bool = False,
) -> aiosqlite.Connection:
    """Open ``path`` (creating its folder) in WAL mode with foreign keys and a busy timeout.

    ``any_thread``: the underlying ``sqlite3`` connection may also be used from the event
    loop's thread (by the writer, which never uses it from two threads at once).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: the store writes BEGIN/COMMIT itself, so that a transaction
    # spans exactly the statements it should and never opens implicitly.
    conn = await aiosqlite.connect(path, isolation_level=None, check_same_thread=not any_thread)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA foreign_keys = ON")
        if not readonly:
            await conn.execute("PRAGMA journal_mode = WAL")
        # In WAL mode, synchronous=NORMAL syncs at checkpoints rather than at every commit.
        # A committed transaction is in the WAL file once COMMIT returns, so a crash of the
        # process (even SIGKILL) never loses it; only an OS crash or power loss can lose
        # the last few commits. That trade buys a commit in tens of microseconds instead of
        # a disk flush each.
        await conn.execute("PRAGMA synchronous = NORMAL")
        if not autocheckpoint:
            # The writer must not pay for checkpoints inside COMMIT (a checkpoint syncs the
            # database file: tens of milliseconds on a slow disk, for one unlucky click);
            # the store runs them on a connection of their own instead.
            await conn.execute("PRAGMA wal_autocheckpoint = 0")
        if readonly:
            await conn.execute("PRAGMA query_only = ON")
    except BaseException:
        await conn.close()
        raise
    return conn


class ConflictError(Exception):
    """A checked statement did not change exactly one row: a game row was not at the
    version its writer expected (another writer touched it)."""


@dataclass(frozen=True, slots=True)
class Statements:
    """A write made of plain statements, which the writer may merge with others.

    Writes of the same shape (the same statements in the same order) that are committed
    together run as one ``executemany`` per statement: a thousand actions cost a handful
    of round trips to the database thread instead of thousands. Only writes that do not
    depend on each other may be queued together; the service guarantees that by having at
    most one write per game in flight (its lock).
    """

    statements: tuple[tuple[str, tuple[Any, ...]], ...]
    checked: tuple[int, ...] = ()
    """Statements that must change exactly one row each (an optimistic version check)."""

    @property
    def shape(self) -> tuple[str, ...]:
        """The SQL of the statements, in order."""
        return tuple(sql for sql, _ in self.statements)


WriteItem = Callable[[aiosqlite.Connection], Awaitable[T]] | Statements
"""A unit of writing: statements, or a function of the write connection run inside the
open transaction (for writes that read, or need an id from an insert)."""


class _Busy(Exception):
    """``BEGIN`` found the database locked by another connection; nothing was done."""


def _begin(conn: sqlite3.Connection) -> None:
    """Start a write transaction, or :class:`_Busy` at once if another connection writes."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        if e.sqlite_errorcode == sqlite3.SQLITE_BUSY:
            raise _Busy() from e
        raise


async def _begin_async(conn: aiosqlite.Connection) -> None:
    """:func:`_begin` through aiosqlite's thread."""
    try:
        await conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        if e.sqlite_errorcode == sqlite3.SQLITE_BUSY:
            raise _Busy() from e
        raise


async def _unlocked(attempt: Callable[[], Awaitable[T]]) -> T:
    """``attempt()``, tried again while it meets :class:`_Busy` (another process writing to
    the file), for up to the busy timeout. The write connection has no busy timeout of its
    own: waiting for the lock never blocks the event loop or the database thread."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + BUSY_TIMEOUT_MS / 1000
    pause = 0.001
    while True:
        try:
            return await attempt()
        except _Busy as e:
            if loop.time() >= give_up:
                raise sqlite3.OperationalError("database is locked") from e
            await asyncio.sleep(pause)
            pause = min(2 * pause, 0.05)


def _commit_sync(conn: sqlite3.Connection, items: list[Statements]) -> None:
    """One transaction of statement writes, run whole in one call (:class:`_Busy` if the
    database is locked: nothing was done)."""
    _begin(conn)
    try:
        shapes: dict[tuple[str, ...], list[Statements]] = {}
        for item in items:
            shapes.setdefault(item.shape, []).append(item)
        for shape, group in shapes.items():
            for k, sql in enumerate(shape):
                cursor = conn.executemany(sql, [it.statements[k][1] for it in group])
                if k in group[0].checked and cursor.rowcount != len(group):
                    raise ConflictError(f"{sql!r}: {cursor.rowcount} rows of {len(group)}")
        conn.execute("COMMIT")
    except BaseException:
        conn.rollback()
        raise


def _thread_runner(
    conn: aiosqlite.Connection,
) -> Callable[[Callable[[sqlite3.Connection], None]], Awaitable[None]] | None:
    """A way to run a function on the connection's own thread in one round trip, if this
    aiosqlite has one.

    Each public aiosqlite call is a round trip to the connection's thread, and each round
    trip can wait for the GIL for up to the interpreter's switch interval (5 ms) when the
    event loop is busy; a commit made of BEGIN, the statements and COMMIT pays that several
    times. aiosqlite (pinned ~=0.22) runs every call through ``Connection._execute(fn)``;
    using it directly makes a whole group commit one round trip, which halves the median
    and the tail of ``act`` under load (see bench/service.py). Without it (another
    aiosqlite), the writer falls back to the public calls, which are equally correct.
    """
    execute = getattr(conn, "_execute", None)
    if not callable(execute) or not hasattr(type(conn), "_conn"):
        return None

    async def run(fn: Callable[[sqlite3.Connection], None]) -> None:
        await execute(lambda: fn(conn._conn))

    return run


def _same_thread_connection(conn: aiosqlite.Connection) -> sqlite3.Connection | None:
    """The ``sqlite3`` connection under ``conn`` if the event loop's thread may use it
    (opened with ``any_thread``, and an aiosqlite that exposes it), else ``None``."""
    if not hasattr(type(conn), "_conn"):
        return None
    raw = conn._conn
    return raw if isinstance(raw, sqlite3.Connection) else None


async def run_statements(conn: aiosqlite.Connection, item: Statements) -> None:
    """Run one :class:`Statements` write on ``conn`` (inside a transaction)."""
    for k, (sql, params) in enumerate(item.statements):
        cursor = await conn.execute(sql, params)
        if k in item.checked and cursor.rowcount != 1:
            raise ConflictError(f"{sql!r} changed {cursor.rowcount} rows, not 1")


class _Pending(Generic[T]):
    __slots__ = ("future", "item")

    def __init__(self, item: WriteItem[T] | None) -> None:
        self.item = item
        self.future: asyncio.Future[T] = asyncio.get_running_loop().create_future()


class Writer:
    """The one writer of a process: queued writes committed together (group commit).

    Every :meth:`write` returns only after its transaction has committed. Writes queued
    while the writer is busy (committing, or letting the event loop run the callers that
    queue them) are batched into the next transaction, so a busy server pays one
    BEGIN/COMMIT for many actions. If a batch fails, it is rolled back and each write is
    retried alone, so one bad write fails only its own caller.

    Batches of :class:`Statements` (every action) are committed in one call: ``on_loop``,
    on the event loop's own thread; else on the database thread (``one_trip``, see
    :func:`_thread_runner`) or through aiosqlite's public calls. On the loop, a commit
    costs about a tenth of a millisecond (WAL with ``synchronous = NORMAL`` appends to the
    WAL file and never waits for the disk to flush), less than handing the batch to the
    database thread and back: each hand-off waits for that thread to wake and for the GIL,
    which made most of the tail of an action's latency on a busy machine. Waits for the
    database lock (another process writing) never block: BEGIN fails at once and is
    retried after an ``asyncio.sleep``. What remains is that a stalled disk write would
    stall the loop for as long.
    """

    def __init__(
        self,
        conn: aiosqlite.Connection,
        *,
        batch_limit: int = 256,
        one_trip: bool = True,
        on_loop: bool = False,
    ) -> None:
        self._conn = conn
        self._on_loop = _same_thread_connection(conn) if on_loop else None
        self._one_trip = _thread_runner(conn) if one_trip else None
        self._queue: asyncio.Queue[_Pending[Any]] = asyncio.Queue()
        self._batch_limit = batch_limit
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.writes = 0

    def start(self) -> None:
        """Start the background task that commits queued writes."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="wizard-store-writer")

    async def write(self, item: WriteItem[T]) -> T:
        """Run ``item`` in a transaction and return its result once committed."""
        if self._task is None or self._task.done():
            raise RuntimeError("the store is closed")
        pending: _Pending[T] = _Pending(item)
        self._queue.put_nowait(pending)
        return await pending.future

    async def close(self) -> None:
        """Commit what is queued, then stop."""
        if self._task is None:
            return
        self._queue.put_nowait(_Pending(None))
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < self._batch_limit and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            stop = any(p.item is None for p in batch)
            batch = [p for p in batch if p.item is not None]
            statements = batch and all(isinstance(p.item, Statements) for p in batch)
            if statements and self._on_loop is not None:
                await self._commit_in_one_trip(batch, self._commit_on_loop)
            elif statements and self._one_trip is not None:
                await self._commit_in_one_trip(batch, self._one_trip)
            elif len(batch) == 1:
                await self._commit_alone(batch[0])
            elif batch:
                await self._commit(batch)
            if stop:
                return

    async def _commit_on_loop(self, fn: Callable[[sqlite3.Connection], None]) -> None:
        assert self._on_loop is not None
        fn(self._on_loop)

    async def _commit_in_one_trip(
        self,
        batch: list[_Pending[Any]],
        run: Callable[[Callable[[sqlite3.Connection], None]], Awaitable[None]],
    ) -> None:
        items = [p.item for p in batch if isinstance(p.item, Statements)]
        try:
            await _unlocked(lambda: run(lambda conn: _commit_sync(conn, items)))
        except asyncio.CancelledError:
            for p in batch:
                if not p.future.done():
                    p.future.cancel()
            raise
        except Exception as e:
            if len(batch) == 1:
                if not batch[0].future.done():
                    batch[0].future.set_exception(e)
                return
            for p in batch:  # find the write that spoiled the batch
                await self._commit_alone(p)
            return
        self.batches += 1
        self.writes += len(batch)
        for p in batch:
            if not p.future.done():
                p.future.set_result(None)

    async def _commit(self, batch: list[_Pending[Any]]) -> None:
        conn = self._conn
        results: dict[int, Any] = {}
        try:
            await _unlocked(lambda: _begin_async(conn))
            try:
                await self._run_batch(batch, results)
                await conn.execute("COMMIT")
            except BaseException:
                await _rollback(conn)
                raise
        except asyncio.CancelledError:
            for p in batch:
                if not p.future.done():
                    p.future.cancel()
            raise
        except Exception:
            # One write spoiled the batch: find it by committing each alone.
            for p in batch:
                await self._commit_alone(p)
            return
        self.batches += 1
        self.writes += len(batch)
        for i, p in enumerate(batch):
            if not p.future.done():
                p.future.set_result(results.get(i))

    async def _run_batch(self, batch: list[_Pending[Any]], results: dict[int, Any]) -> None:
        conn = self._conn
        shapes: dict[tuple[str, ...], list[Statements]] = {}
        for i, p in enumerate(batch):
            item = p.item
            if isinstance(item, Statements):
                shapes.setdefault(item.shape, []).append(item)
            else:
                assert item is not None
                results[i] = await item(conn)
        for shape, items in shapes.items():
            if len(items) == 1:
                await run_statements(conn, items[0])
                continue
            for k, sql in enumerate(shape):
                cursor = await conn.executemany(sql, [it.statements[k][1] for it in items])
                if k in items[0].checked and cursor.rowcount != len(items):
                    raise ConflictError(f"{sql!r}: {cursor.rowcount} rows of {len(items)}")

    async def _commit_alone(self, p: _Pending[Any]) -> None:
        conn = self._conn
        item = p.item
        assert item is not None
        try:
            await _unlocked(lambda: _begin_async(conn))
            try:
                if isinstance(item, Statements):
                    await run_statements(conn, item)
                    result = None
                else:
                    result = await item(conn)
                await conn.execute("COMMIT")
            except BaseException:
                await _rollback(conn)
                raise
        except Exception as e:
            if not p.future.done():
                p.future.set_exception(e)
            return
        self.batches += 1
        self.writes += 1
        if not p.future.done():
            p.future.set_result(result)


async def _rollback(conn: aiosqlite.Connection) -> None:
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.Error as e:  # no transaction left to roll back (it failed to begin)
        log.debug("rollback: %s", e)


CHECKPOINT_SECONDS = 1.0


class Store:
    """The database of one process: a write connection behind a :class:`Writer`, a read one,
    and one that moves the WAL into the database file in the background (checkpoints)."""

    def __init__(
        self,
        path: Path,
        write: aiosqlite.Connection,
        read: aiosqlite.Connection,
        checkpoint: aiosqlite.Connection,
        writer: Writer,
    ) -> None:
        self.path = path
        self._write_conn = write
        self._read_conn = read
        self._checkpoint_conn = checkpoint
        self.writer = writer
        self._checkpointer: asyncio.Task[None] | None = None
        self.checkpoints = 0

    def _start_checkpoints(self) -> None:
        self._checkpointer = asyncio.create_task(self._checkpoints(), name="wizard-checkpoints")

    async def _checkpoints(self) -> None:
        done = 0
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            if self.writer.writes == done:
                continue
            done = self.writer.writes
            try:
                # PASSIVE never waits for, nor blocks, the writer or the readers.
                await self._checkpoint_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                self.checkpoints += 1
            except sqlite3.Error as e:
                log.warning("checkpoint failed (will retry): %s", e)

    @classmethod
    async def open(
        cls,
        path: str | Path = DEFAULT_PATH,
        *,
        target_version: int | None = None,
        batch_limit: int = 256,
        one_trip: bool = True,
        on_loop: bool = True,
    ) -> Store:
        """Open (creating if needed) and migrate the database file at ``path``.

        ``on_loop``, ``one_trip``: where batches of statements are committed (see
        :class:`Writer`).
        """
        path = Path(path)
        write = await connect(path, autocheckpoint=False, any_thread=on_loop)
        opened = [write]
        try:
            await migrate(write, LATEST if target_version is None else target_version)
            # From now on the writer waits for the lock itself, without blocking (see
            # Writer); migrations above waited in SQLite, so that two processes starting
            # at once migrate the file once.
            await write.execute("PRAGMA busy_timeout = 0")
            await write.execute(f"PRAGMA cache_size = -{WRITE_CACHE_KIB}")
            read = await connect(path, readonly=True)
            opened.append(read)
            checkpoint = await connect(path)
        except BaseException:
            for conn in opened:
                await conn.close()
            raise
        writer = Writer(write, batch_limit=batch_limit, one_trip=one_trip, on_loop=on_loop)
        writer.start()
        store = cls(path, write, read, checkpoint, writer)
        store._start_checkpoints()
        return store

    async def write(self, item: WriteItem[T]) -> T:
        """Run ``item`` in a committed transaction (see :class:`Writer`)."""
        return await self.writer.write(item)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Rows of a read-only query; sees every committed write and nothing uncommitted."""
        return list(await self._read_conn.execute_fetchall(sql, tuple(params)))

    async def fetch_tuples(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of a read-only query as plain tuples (cheaper than rows, for bulk reads)."""
        cursor = await self._read_conn.execute(sql, tuple(params))
        try:
            cursor.row_factory = None
            return cast(list[tuple[Any, ...]], list(await cursor.fetchall()))
        finally:
            await cursor.close()

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        """The first row of a read-only query, or ``None``."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def close(self) -> None:
        """Commit what is queued and close the connections."""
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None
        await self.writer.close()
        await self._checkpoint_conn.close()
        await self._read_conn.close()
        await self._write_conn.close()
