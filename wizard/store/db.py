"""The database file: connections with the right pragmas, and the group-committing writer.

Everything goes through aiosqlite's public calls (``execute``, ``execute_fetchall``);
nothing here changes process-wide settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import math
import os
import shlex
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import aiosqlite

from wizard.store.migrations import MigrationError, migrate

log = logging.getLogger(__name__)

DEFAULT_PATH = Path("data/wizard.db")
BUSY_TIMEOUT = 5.0
"""Seconds a write waits for another process's write lock, counted from the moment the
write was queued, however many writes are queued with or before it; then it fails with
:class:`LockTimeout` (the service's ``busy`` refusal: "try again")."""
JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024
"""Bytes the ``-wal`` file is truncated back to after a checkpoint resets it."""
WAL_AUTOCHECKPOINT = 1000
"""Pages of WAL after which a commit checkpoints (SQLite's default). The writer is the only
writer of the process, so its checkpoint runs between two of its own transactions and can
reach the end of the WAL; the next write then starts the WAL again from its beginning."""
WAL_LOOK_EVERY = 10.0
"""Seconds between two looks of the writer at the size of the ``-wal`` file."""
WAL_STUCK = (
    "SQLite cannot fold it back into the database while another program holds a read "
    "transaction open on it (a sqlite3 shell, a database browser: close it) or while the "
    "database file cannot be written"
)
"""Why a ``-wal`` file stays past its limit, as the writer's warning and ``check`` say it."""


def bot_command(verb: str, database: Path | str, *rest: str) -> str:
    """``python -m bot VERB --db DATABASE …`` for an operator to run, as advice: with the
    file named, so that it acts on this database whatever DATABASE_PATH says (QA: advice
    after ``check --db X`` said ``restore BACKUP``, which restores DATABASE_PATH's file).

    >>> bot_command("restore", "/srv/my games/wizard.db", "BACKUP")
    "python -m bot restore --db '/srv/my games/wizard.db' BACKUP"
    """
    return " ".join(("python -m bot", verb, "--db", shlex.quote(str(database)), *rest))


def closed_folder(path: Path) -> Path | None:
    """The outermost folder above ``path`` that this user may not enter, if any: below it,
    looking at a path (``exists()``, ``is_dir()``) raises PermissionError."""
    return next(
        (f for f in reversed(path.parents) if f.is_dir() and not os.access(f, os.X_OK)), None
    )


BATCH_LIMIT = 256
"""Most writes committed together in one transaction (group commit)."""

T = TypeVar("T")


def beside(path: Path, suffix: str) -> Path:
    """A file SQLite keeps beside the database ``path``: its ``-wal``, ``-shm`` or
    ``-journal`` (``suffix``; ``""`` is the database file itself)."""
    return path.with_name(path.name + suffix)


def log_files(path: Path) -> tuple[Path, Path]:
    """The write-ahead log and its index beside ``path`` (``-wal``, ``-shm``), whether they
    exist or not."""
    return beside(path, "-wal"), beside(path, "-shm")


def wal_path(path: Path) -> Path:
    """The write-ahead log beside ``path``: committed actions not yet in the main file."""
    return beside(path, "-wal")


class DatabaseUnavailable(Exception):
    """The database cannot be opened: ``message`` is the one-line cause, ``hint`` what the
    operator can do about it (a front end prints both and exits with its database status)."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(f"{message} ({hint})")
        self.message = message
        self.hint = hint


def log_without_database(path: Path) -> DatabaseUnavailable | None:
    """The refusal to open, or restore a backup at, ``path`` while its ``-wal`` is there
    without it: the log of a database moved or deleted without its log (or of one a bot
    still has open through the moved file). SQLite would replay that log into any new
    database file at ``path``: pages of another file, as if they were its own."""
    wal = wal_path(path)
    if path.exists() or not wal.exists():
        return None
    return DatabaseUnavailable(
        f"{wal} is there without {path.name}: the log of a database moved or deleted without "
        "it (or of one a bot still has open), which SQLite would replay into a new file there",
        f"stop any bot still running on it; if {path.name} was moved, move its -wal and -shm "
        "with it, else move them aside; then try again",
    )


class ConflictError(Exception):
    """A checked statement did not change exactly one row: a game row was not at the
    version its writer expected (another writer touched it)."""


class LockTimeout(Exception):
    """Another connection held the write lock for longer than the busy timeout; nothing of
    the write was done."""


def unavailable(path: Path, error: BaseException) -> DatabaseUnavailable:
    """The operator's view of an error met while opening ``path``."""
    text = str(error) or type(error).__name__
    if isinstance(error, MigrationError):
        return DatabaseUnavailable(
            f"{path}: {text}", "run the newer version of the bot, or restore a backup"
        )
    if isinstance(error, OSError) and error.errno == errno.EROFS:
        return DatabaseUnavailable(
            f"{path}: cannot write, the file system is read-only ({text})",
            "mount it read-write, or set DATABASE_PATH to a writable place",
        )
    if isinstance(error, OSError) and error.errno in (errno.EACCES, errno.EPERM):
        return DatabaseUnavailable(
            f"{path}: cannot write ({text})", "check the folder's permissions and free space"
        )
    low = text.lower()
    if "locked" in low or "busy" in low:
        return DatabaseUnavailable(
            f"{path}: the database is locked by another process",
            "stop the other process using this file, or wait and start again",
        )
    if "readonly" in low or "read-only" in low or "unable to open" in low:
        return DatabaseUnavailable(
            f"{path}: cannot open for writing ({text})",
            "check the path, the permissions of the file and of its folder, and that the disk"
            " is not read-only",
        )
    if "malformed" in low or "not a database" in low or "corrupt" in low:
        return DatabaseUnavailable(
            f"{path}: the database file is damaged ({text})", "restore a backup"
        )
    return DatabaseUnavailable(f"{path}: {text}", "see the log above for details")


async def connect(path: str | Path, *, readonly: bool = False) -> aiosqlite.Connection:
    """Open ``path`` (creating its folder) in WAL mode with foreign keys and a busy timeout."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: the store writes BEGIN/COMMIT itself, so that a transaction
    # spans exactly the statements it should and never opens implicitly.
    opening = asyncio.ensure_future(aiosqlite.connect(path, isolation_level=None))
    try:
        conn = await asyncio.shield(opening)
    except asyncio.CancelledError:
        # A stop while SQLite opens the file: aiosqlite's thread would answer the event
        # loop once it is closed, with a traceback, and leave the file open. The opening
        # takes milliseconds: let it end, a second stop too, and close what it opened.
        if await _unstoppable(opening) is None:
            await _unstoppable(asyncio.ensure_future(opening.result().close()))
        raise
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        await conn.execute("PRAGMA foreign_keys = ON")
        if readonly:
            await conn.execute("PRAGMA query_only = ON")
        else:
            await _wal(conn)
            await conn.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT}")
            await conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT}")
        # synchronous=FULL: COMMIT returns only once the WAL is on the disk, so nothing a
        # player was told is done can be lost, not even to a power cut (NORMAL would lose
        # the last commits to one, and roll the game's row back with them, unseen). The
        # writer groups commits, so concurrent games share one sync.
        await conn.execute("PRAGMA synchronous = FULL")
    except BaseException:
        await conn.close()
        raise
    return conn


async def _unstoppable(task: asyncio.Future[Any]) -> BaseException | None:
    """Wait for ``task`` to end, whatever stops come meanwhile (they are the caller's);
    what it raised, if anything."""
    while not task.done():
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait({task})
    return asyncio.CancelledError() if task.cancelled() else task.exception()


async def _can_write(conn: aiosqlite.Connection) -> None:
    """Raise SQLite's "readonly" error unless ``conn`` may write. SQLite opens a file it may
    not write (its permissions, a read-only mount of the file alone) read-only without a
    word, and with no migration due nothing is written at open: every move would fail.
    Taking the write lock is not enough to tell (it lives in the ``-shm`` file, in WAL
    mode); changing a page is, and the change is rolled back before anything is written."""
    await conn.execute("BEGIN IMMEDIATE")
    try:
        await conn.execute("CREATE TABLE write_probe (x)")
    finally:
        # A full disk has SQLite roll back by itself: a second rollback's error would hide it.
        if conn.in_transaction:
            await conn.execute("ROLLBACK")


async def _wal(conn: aiosqlite.Connection) -> None:
    """Put the file in WAL mode. SQLite answers a journal-mode change that meets another
    process's lock with "locked" at once, without its busy timeout (two shard processes
    starting on one new file), so this waits for the lock itself, up to the busy timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if not _is_busy(e) or time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)


@dataclass(frozen=True, slots=True)
class Statements:
    """A write made of plain statements, run in order in the writer's transaction."""

    statements: tuple[tuple[str, tuple[Any, ...]], ...]
    checked: tuple[int, ...] = ()
    """Statements that must change exactly one row each (an optimistic version check)."""


WriteItem = Callable[[aiosqlite.Connection], Awaitable[T]] | Statements
"""A unit of writing: statements, or a function of the write connection run inside the
open transaction (for writes that read, or need an id from an insert)."""


async def run_statements(conn: aiosqlite.Connection, item: Statements) -> None:
    """Run one :class:`Statements` write on ``conn`` (inside a transaction)."""
    for k, (sql, params) in enumerate(item.statements):
        cursor = await conn.execute(sql, params)
        if k in item.checked and cursor.rowcount != 1:
            raise ConflictError(f"{sql!r} changed {cursor.rowcount} rows, not 1")


def is_damage(error: sqlite3.Error) -> bool:
    """Whether SQLite says the file itself is damaged (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``),
    rather than a fault that may pass: a disk I/O error, a full disk, a lock."""
    name = getattr(error, "sqlite_errorname", None) or ""
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def _is_busy(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(error)


@dataclass(slots=True)
class _Pending(Generic[T]):
    item: WriteItem[T] | None
    """``None``: the writer stops after this batch."""
    due: float
    future: asyncio.Future[T] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Writer:
    """The one writer of a process: queued writes committed together (group commit).

    Every :meth:`write` returns only after its transaction has committed. Writes queued
    while a batch commits go into the next one, so a busy server pays one BEGIN/COMMIT for
    many actions. A batch that fails for its own reason is rolled back and each write is
    tried alone, so one bad write fails only its own caller. A batch that cannot get the
    lock before its oldest write's deadline (``busy_timeout`` after it was queued) fails
    whole with :class:`LockTimeout`: no write ever waits twice.
    """

    def __init__(
        self,
        conn: aiosqlite.Connection,
        *,
        busy_timeout: float = BUSY_TIMEOUT,
        wal: Path | None = None,
    ) -> None:
        self._db = conn
        self._wal = wal
        self.wal_limit = JOURNAL_SIZE_LIMIT
        """Bytes of ``wal`` past which the operator is warned: SQLite's checkpoints cannot
        bring it back (see :meth:`_look_at_wal`)."""
        self.wal_look_every = WAL_LOOK_EVERY
        self._wal_looked = -math.inf
        self._wal_large = False
        self._queue: asyncio.Queue[_Pending[Any]] = asyncio.Queue()
        self._busy_timeout = busy_timeout
        self._locked_out_since: float | None = None
        """When a write first gave up on another process's lock (the operator is told
        once, then when writes go through again); ``None`` while writes go through."""
        self._task: asyncio.Task[None] | None = asyncio.create_task(
            self._run(), name="wizard-store-writer"
        )
        self.batches = 0
        """Transactions committed (with :attr:`writes`: how many writes share a commit)."""
        self.writes = 0

    async def write(self, item: WriteItem[T]) -> T:
        """Run ``item`` in a transaction and return its result once committed."""
        if self._task is None or self._task.done():
            raise RuntimeError("the store is closed")
        pending: _Pending[T] = _Pending(item, time.perf_counter() + self._busy_timeout)
        self._queue.put_nowait(pending)
        return await pending.future

    async def close(self) -> None:
        """Commit what is queued, then stop."""
        if self._task is None:
            return
        self._queue.put_nowait(_Pending(None, 0.0))
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < BATCH_LIMIT and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            stop = any(p.item is None for p in batch)
            batch = [p for p in batch if p.item is not None]
            if batch:
                try:
                    await self._commit(batch)
                except asyncio.CancelledError:
                    for p in batch:
                        if not p.future.done():
                            p.future.cancel()
                    raise
            if stop:
                return

    async def _begin(self, due: float) -> None:
        """``BEGIN IMMEDIATE``, retried without blocking until ``due``; then :class:`LockTimeout`.

        The write connection's own busy timeout is 0, so a wait for another process's lock
        is an ``asyncio.sleep`` here, never a blocked database thread.
        """
        # Wall-clock time: the other process holds its lock in real time, whatever clock
        # the event loop or time.monotonic keep (a test may run them on virtual time).
        pause = 0.001
        start = time.perf_counter()
        refused = False
        while True:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                if self._locked_out_since is not None:
                    log.info(
                        "the database takes writes again, after %.1f s locked by another process",
                        time.perf_counter() - self._locked_out_since,
                    )
                    self._locked_out_since = None
                elif refused and time.perf_counter() - start > 1.0:
                    log.warning(
                        "waited %.1f s for another process's write lock",
                        time.perf_counter() - start,
                    )
                return
            except sqlite3.OperationalError as e:
                if not _is_busy(e):
                    raise
                refused = True
                if time.perf_counter() >= due:
                    if self._locked_out_since is None:
                        self._locked_out_since = start
                        log.warning(
                            "gave up after %.1f s: the database is locked by another process;"
                            " its players are asked to try again (further refusals are logged"
                            " at DEBUG until it takes writes again)",
                            time.perf_counter() - start,
                        )
                    else:
                        log.debug("gave up again: the database is still locked")
                    raise LockTimeout("the database is locked by another connection") from e
            await asyncio.sleep(min(pause, max(0.0, due - time.perf_counter())))
            pause = min(2 * pause, 0.05)

    async def _commit(self, batch: list[_Pending[Any]]) -> None:
        results: dict[int, Any] = {}
        try:
            await self._begin(min(p.due for p in batch))
        except Exception as e:
            for p in batch:
                if not p.future.done():
                    p.future.set_exception(e)
            return
        try:
            await self._run_batch(batch, results)
            await self._db.execute("COMMIT")
        except Exception as e:
            await self._rollback()
            if len(batch) == 1:
                if not batch[0].future.done():
                    batch[0].future.set_exception(e)
                return
            # One write spoiled the batch: find it by committing each alone; a lock lost
            # meanwhile fails the rest at once rather than making each wait again.
            for k, p in enumerate(batch):
                await self._commit([p])
                failed = p.future.done() and not p.future.cancelled() and p.future.exception()
                if isinstance(failed, LockTimeout):
                    for rest in batch[k + 1 :]:
                        if not rest.future.done():
                            rest.future.set_exception(LockTimeout("the database is locked"))
                    return
            return
        except BaseException:
            await self._rollback()
            raise
        self.batches += 1
        self.writes += len(batch)
        for i, p in enumerate(batch):
            if not p.future.done():
                p.future.set_result(results.get(i))
        self._look_at_wal()

    def _look_at_wal(self) -> None:
        """Warn once when the ``-wal`` file has grown past its limit, and say when it is
        back: SQLite folds the log back into the database at its checkpoints, which cannot
        finish while another program holds a read transaction open on the file (a sqlite3
        shell, a database browser) or when the database file cannot be written; the log
        then grows with every write, until the disk is full."""
        now = time.perf_counter()
        if self._wal is None or now - self._wal_looked < self.wal_look_every:
            return
        self._wal_looked = now
        try:
            size = self._wal.stat().st_size
        except OSError:
            return
        if size > self.wal_limit and not self._wal_large:
            self._wal_large = True
            log.warning(
                "the write-ahead log %s is %.1f MiB, past its %.0f MiB limit: %s. Nothing is "
                "lost, but the log grows with every move until then",
                self._wal,
                size / 2**20,
                self.wal_limit / 2**20,
                WAL_STUCK,
            )
        elif size <= self.wal_limit and self._wal_large:
            self._wal_large = False
            log.info("the write-ahead log %s is back under its limit", self._wal)

    async def _run_batch(self, batch: list[_Pending[Any]], results: dict[int, Any]) -> None:
        """Each write of the batch, in the order they were queued, in the one transaction."""
        conn = self._db
        for i, p in enumerate(batch):
            item = p.item
            if isinstance(item, Statements):
                await run_statements(conn, item)
            else:
                assert item is not None
                results[i] = await item(conn)

    async def _rollback(self) -> None:
        try:
            await self._db.execute("ROLLBACK")
        except sqlite3.Error as e:  # no transaction left to roll back
            log.debug("rollback: %s", e)


class Store:
    """The database of one process: a write connection behind a :class:`Writer` and a
    read one."""

    def __init__(
        self,
        path: Path,
        write: aiosqlite.Connection,
        read: aiosqlite.Connection,
        writer: Writer,
        integrity: tuple[str, ...],
    ) -> None:
        self.path = path
        self._write_conn = write
        self._read_conn = read
        self.writer = writer
        self.integrity = integrity
        """The lines of ``PRAGMA quick_check`` at open (``("ok",)``, or what failed). The
        start-up summary reuses them rather than checking twice."""

    @classmethod
    async def open(
        cls,
        path: str | Path = DEFAULT_PATH,
        *,
        target_version: int | None = None,
        busy_timeout: float = BUSY_TIMEOUT,
    ) -> Store:
        """Open (creating if needed) and migrate the database file at ``path``.

        Raises :class:`DatabaseUnavailable` (having closed what it opened) when the file
        cannot be used: newer schema, read-only, locked, or damaged beyond opening.
        """
        path = Path(path)
        orphan = log_without_database(path)
        if orphan is not None:
            raise orphan
        opened: list[aiosqlite.Connection] = []
        try:
            write = await connect(path)
            opened.append(write)
            write.text_factory = text_or_bytes  # as the reader's: a damaged text fails its row only
            # Migrations wait in SQLite, so that two processes starting at once migrate once.
            applied = await migrate(write, target_version)
            if applied:  # the operator sees an upgrade happen (it is one way: see README)
                log.info("database %s migrated to schema version %s", path, applied[-1])
            await _can_write(write)
            integrity = await quick_check(write)
            # From now on the writer waits for the lock itself, without blocking (see Writer).
            await write.execute("PRAGMA busy_timeout = 0")
            read = await connect(path, readonly=True)
            opened.append(read)
            read.text_factory = text_or_bytes
        except BaseException as e:
            for conn in opened:
                await conn.close()
            if isinstance(e, sqlite3.Error | OSError | MigrationError):
                raise unavailable(path, e) from e
            raise
        writer = Writer(write, busy_timeout=busy_timeout, wal=wal_path(path))
        return cls(path, write, read, writer, integrity)

    async def write(self, item: WriteItem[T]) -> T:
        """Run ``item`` in a committed transaction (see :class:`Writer`)."""
        return await self.writer.write(item)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Rows of a read-only query; sees every committed write and nothing uncommitted."""
        # One call: a statement left open between two awaits would hold its read
        # transaction for the other queries of the connection, which would then see the
        # database as it was before the latest commits.
        return list(await self._read_conn.execute_fetchall(sql, tuple(params)))

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        """The first row of a read-only query, or ``None``."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def close(self) -> None:
        """Commit what is queued and close the connections (the last one removes the WAL)."""
        try:
            await self.writer.close()
        finally:
            await self._read_conn.close()
            await self._write_conn.close()


def text_or_bytes(raw: bytes) -> str | bytes:
    """A text column as read: its bytes if they are not UTF-8, so that one damaged value
    fails the validation of its own row (and quarantines its game) rather than the query."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def problem_lines(problems: Sequence[str]) -> list[str]:
    """The lines of SQLite's integrity report, without its "*** in database main ***"
    headings (a row of the report may hold several lines)."""
    return [
        line
        for row in problems
        for line in row.splitlines()
        if line.strip() and not line.startswith("*** in database")
    ]


def first_problem(problems: Sequence[str]) -> str:
    """SQLite's integrity report in one short line, for a refusal: its first problem and
    how many more (``check`` lists them all). A row of the report may hold several lines.

    >>> first_problem(["*** in database main ***\\nOn tree page 3 cell 2: bad", "Page 9: unused"])
    'On tree page 3 cell 2: bad (and 1 more)'
    """
    lines = problem_lines(problems)
    if not lines:
        return "; ".join(problems)
    return lines[0] + (f" (and {len(lines) - 1} more)" if len(lines) > 1 else "")


async def quick_check(conn: aiosqlite.Connection) -> tuple[str, ...]:
    """``PRAGMA quick_check``: ``("ok",)``, or the problems it found (at most 20); logged."""
    try:
        rows = await conn.execute_fetchall("PRAGMA quick_check(20)")
        found = tuple(str(r[0]) for r in rows)
    except sqlite3.DatabaseError as e:
        found = (str(e),)
    if found == ("ok",):
        log.info("database quick_check: ok")
    else:
        log.error(
            "database quick_check FAILED: %s (python -m bot check lists what it found;"
            " restore a backup; damaged games are quarantined as they are found)",
            first_problem(found),
        )
    return found
