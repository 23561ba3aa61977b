"""The health of a database file, for ``python -m bot check`` and the bot's start-up log.

Plain ``sqlite3`` on a read-only connection: it runs beside a live bot without taking its
write lock, and it never writes the file. (Reading a WAL database makes SQLite create the
log's ``-wal`` and ``-shm`` files beside it if the folder allows; they are the bot's own.)
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from wizard.store.db import JOURNAL_SIZE_LIMIT, WAL_STUCK, bot_command, problem_lines, wal_path
from wizard.store.migrations import LATEST
from wizard.store.repo import HAND_KEPT


def open_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection to an existing file (``sqlite3.OperationalError`` if missing).

    In a folder it may not write (a snapshot), on a read-only file system (a read-only
    mount), or on a full disk, SQLite cannot make the index of the write-ahead log of a WAL
    database beside it. With no log there (on a full disk, none with content), the file
    holds every committed change, and no bot can be writing it through this path (a bot has
    that index whole): it is then read as immutable. (A bot writing the same file through
    another, writable mount would go unseen: what is read is the file as it was.) With a
    log there, the refusal stands. Operator QA: on a full disk, check and backup said "disk
    I/O error", and no backup could be taken off the disk.
    """
    resolved = Path(path).resolve()
    conn = _connect(resolved.as_uri() + "?mode=ro")
    try:
        conn.execute("PRAGMA schema_version").fetchone()
    except sqlite3.Error as error:
        conn.close()
        # Anything else (locked, not a database) is what the caller's first query would meet.
        name = getattr(error, "sqlite_errorname", "")
        # EACCES on the -shm says READONLY_DIRECTORY, EROFS says CANTOPEN (which has other
        # causes too: only a read-only file system counts).
        read_only = name == "SQLITE_CANTOPEN" and _read_only_file_system(resolved.parent)
        # SHMSIZE: the index could not be given its size, the disk being full.
        if name not in ("SQLITE_READONLY_DIRECTORY", "SQLITE_IOERR_SHMSIZE") and not read_only:
            raise
        log = wal_path(resolved)
        # On a full disk, an empty log is one a reader left (it could not size the -shm):
        # a bot has its -shm whole, so that no reader of its file gets here.
        if log.exists() and (name != "SQLITE_IOERR_SHMSIZE" or log.stat().st_size > 0):
            raise
        conn = _connect(resolved.as_uri() + "?mode=ro&immutable=1")
    return conn


def open_untouched(path: Path) -> sqlite3.Connection:
    """A read-only connection to an existing file that leaves nothing beside it: SQLite makes
    an empty -wal and -shm for a reader of a WAL database and, read-only, cannot remove them.
    With no log there (no bot has the file open) the file is read as immutable; with one,
    as :func:`open_readonly` reads it. For a glance (``config``), not a long read: a bot
    starting meanwhile would write under an immutable reader."""
    resolved = Path(path).resolve()
    if wal_path(resolved).exists():
        return open_readonly(resolved)
    return _connect(resolved.as_uri() + "?mode=ro&immutable=1")


def _read_only_file_system(folder: Path) -> bool:
    """Whether ``folder`` is on a file system mounted read-only."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _connect(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    # A damaged row must be reported, not stop the report: undecodable text is shown as "?".
    conn.text_factory = lambda raw: raw.decode("utf-8", "replace")
    conn.execute("PRAGMA busy_timeout = 5000")
    return conn


def schema_version(conn: sqlite3.Connection) -> int | None:
    """The newest schema version recorded in the file; ``None`` for a file without one.

    Reads the migrations table and ``PRAGMA user_version`` alike, whichever the runner
    records, so that a file written by a newer bot is recognised by either.
    """
    (user_version,) = conn.execute("PRAGMA user_version").fetchone()
    recorded = None
    if _has_migrations(conn):
        (recorded,) = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
    versions = [v for v in (recorded, user_version or None) if v is not None]
    return max(versions) if versions else None


def recorded_versions(conn: sqlite3.Connection) -> set[int]:
    """The schema versions the migrations table records (none in a file without one)."""
    if not _has_migrations(conn):
        return set()
    return {int(v) for (v,) in conn.execute("SELECT version FROM schema_migrations")}


def _has_migrations(conn: sqlite3.Connection) -> bool:
    return bool(
        conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        ).fetchall()
    )


def table_names(conn: sqlite3.Connection) -> list[str]:
    """The file's tables, SQLite's own (``sqlite_…``) left out, by name."""
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%'"
        " ESCAPE '\\' ORDER BY name"
    ).fetchall()
    return [str(name) for (name,) in rows]


def few_names(names: Sequence[str], shown: int = 5) -> str:
    """The first ``shown`` names, comma-separated, with "…" when there are more."""
    return ", ".join(names[:shown]) + (", …" if len(names) > shown else "")


def foreign_tables(conn: sqlite3.Connection) -> list[str] | None:
    """The tables of a file that holds no database of this bot (no schema version: often
    another program's, or none); ``None`` for the bot's own."""
    return None if schema_version(conn) is not None else table_names(conn)


def another_programs(path: Path, tables: Sequence[str]) -> str:
    """Why ``path`` is refused: it holds another program's ``tables``, none of this bot's
    (most likely a mistyped path)."""
    return f"{path} holds another program's database (tables: {few_names(tables)}), not the bot's"


def damaged_games(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    """Games set aside as damaged, with the reason recorded for each, oldest first.

    The one query that knows how the store marks a damaged game (today ``status =
    'broken'`` with ``broken_reason``).
    """
    rows = conn.execute(
        "SELECT id, COALESCE(broken_reason, '(no reason recorded)') FROM games"
        " WHERE status = 'broken' ORDER BY id"
    ).fetchall()
    return [(int(game), str(reason)) for game, reason in rows]


def games_by_status(conn: sqlite3.Connection) -> dict[str, int]:
    """How many games are in each status."""
    rows = conn.execute("SELECT status, COUNT(*) FROM games GROUP BY status ORDER BY status")
    return {str(status): int(count) for status, count in rows}


def integrity(conn: sqlite3.Connection, *, quick: bool = True) -> list[str]:
    """SQLite's own check of the file: ``["ok"]``, or the problems it found (at most 20)."""
    pragma = "quick_check" if quick else "integrity_check"
    try:
        return [str(row[0]) for row in conn.execute(f"PRAGMA {pragma}(20)")]
    except sqlite3.OperationalError:
        raise  # busy, locked, unreadable: no finding about the file itself
    except sqlite3.DatabaseError as error:
        # Damage the check cannot step over ("database disk image is malformed") is its
        # finding: the report goes on and says so, as the bot's start logs it.
        return [str(error)]


@dataclass(frozen=True, slots=True)
class Health:
    """What ``python -m bot check`` reports about one database file."""

    path: Path
    schema_version: int | None
    integrity: tuple[str, ...]
    games_by_status: dict[str, int]
    damaged: tuple[tuple[int, str], ...]
    database_bytes: int
    wal_bytes: int
    damaged_rows: tuple[str, ...] = ()
    """Rows of server-wide tables that fail validation (``python -m bot check`` only)."""
    damaged_settings: tuple[str, ...] = ()
    """Servers' stored settings that fail validation (``python -m bot check`` only)."""
    tables: tuple[str, ...] = ()
    """Every table of the file: what it holds instead, when it is no database of this bot."""
    unloadable: frozenset[int] = frozenset()
    """Games of ``damaged`` that the file does not mark damaged yet, found by loading them
    (``python -m bot check`` only): the bot sets each aside when a player first uses it."""
    free_bytes: int | None = None
    """Free space of the file system that holds the database (``None``: not known)."""
    unshowable: frozenset[int] = frozenset()
    """Finished games of ``damaged`` whose log cannot be read (``python -m bot check`` only):
    not set aside, but their record and scorepad cannot be shown."""
    untried: str = ""
    """Why the games could not be tried (``check``: no room for its copy, say), if so."""
    games_tried: bool = False
    """Every open game was loaded to find ``unloadable`` (``check``; not the bot's start)."""
    open_hands: int | None = None
    """Private hands whose Discord token the file keeps for a restarted bot, still valid
    (``None``: a schema without them): what a backup taken now holds of such secrets."""
    hands_until: float | None = None
    """When the last of those tokens runs out (Unix time)."""

    @property
    def sound(self) -> bool:
        """The file itself is fine: it passes the check and this code knows its schema."""
        known = self.schema_version is not None and self.schema_version <= LATEST
        return known and self.integrity == ("ok",)

    @property
    def healthy(self) -> bool:
        """Sound, and no game is set aside as damaged, no row damaged."""
        return (
            self.sound and not self.damaged and not self.damaged_rows and not self.damaged_settings
        )

    @property
    def wal_stuck(self) -> bool:
        """The write-ahead log is past its limit: something keeps it from shrinking, and it
        grows until the disk is full."""
        return self.wal_bytes > JOURNAL_SIZE_LIMIT

    @property
    def disk_low(self) -> bool:
        """Less room is left on the database's disk than its write-ahead log may take: once
        it is full, every move fails to be saved."""
        return self.free_bytes is not None and self.free_bytes < JOURNAL_SIZE_LIMIT

    @property
    def attention(self) -> tuple[str, ...]:
        """What the operator must act on though nothing is damaged (``check`` exits 6)."""
        concerns = (
            (self.wal_stuck, "the write-ahead log cannot shrink"),
            (self.disk_low, "its disk is almost full"),
            (bool(self.untried), "the games could not be tried"),
        )
        return tuple(text for there, text in concerns if there)

    def lines(self) -> list[str]:
        """The report, one fact a line, for a terminal or a log."""
        version = "none" if self.schema_version is None else str(self.schema_version)
        if self.schema_version is not None and self.schema_version > LATEST:
            version += f" (newer than this bot's {LATEST}: written by a newer version)"
        elif self.schema_version is not None and self.schema_version < LATEST:
            version += f" (older than this bot's {LATEST}: the bot updates it when it starts)"
        statuses = ", ".join(f"{n} {s}" for s, n in self.games_by_status.items()) or "none"
        lines = [
            f"database: {self.path}",
            f"schema version: {version}",
            "integrity: " + self._integrity(),
            f"games: {statuses}",
            "damaged games: " + self._damaged_count(),
        ]
        if self.integrity != ("ok",):
            lines[-2:-2] = [f"  {line}" for line in problem_lines(self.integrity)]
        for game, reason in self.damaged:
            how = ""
            if game in self.unloadable:
                how = "cannot be loaded: "
            elif game in self.unshowable:
                how = "cannot be shown: "
            lines.append(f"  game {game}: {how}{reason}")
        if self.unloadable:  # said once, not on each game's line
            lines.append(
                "  (a game that cannot be loaded is set aside when a player first uses it)"
            )
        if self.unshowable:
            lines.append(
                "  (a finished game that cannot be shown keeps its results on the boards; "
                "its record and scorepad cannot be shown)"
            )
        if self.damaged_rows:
            lines.append(f"damaged player rows: {len(self.damaged_rows)}")
            lines += _listed(self.damaged_rows)
        if self.damaged_settings:
            lines.append(f"damaged server settings: {len(self.damaged_settings)}")
            lines += _listed(self.damaged_settings)
        if self.open_hands is not None:
            hands = f"open hands: {self.open_hands}"
            if self.hands_until is not None:
                until = time.strftime("%H:%M UTC", time.gmtime(self.hands_until))
                hands += f" (their Discord tokens are kept in this file until {until})"
            lines.append(hands)
        size = (
            f"size: database {_size(self.database_bytes)}, write-ahead log {_size(self.wal_bytes)}"
        )
        if self.free_bytes is not None:
            size += f", free on its disk {_size(self.free_bytes)}"
        lines.append(size)
        if self.wal_stuck:
            lines.append(
                f"  the write-ahead log is past its {_size(JOURNAL_SIZE_LIMIT)} limit: {WAL_STUCK}"
            )
        if self.disk_low:
            lines.append(
                f"  its disk has less than {_size(JOURNAL_SIZE_LIMIT)} free: moves fail once it "
                "is full (free space there)"
            )
        if not self.healthy:
            # What else needs the operator is said too (QA: a stuck log went unseen).
            more = f"; and {' and '.join(self.attention)}: see above" if self.attention else ""
            lines.append(f"NOT healthy: {self.verdict()}{more}")
        elif self.attention:
            lines.append(f"healthy, but {' and '.join(self.attention)}: see above")
        else:
            lines.append("healthy")
        return lines

    def _integrity(self) -> str:
        if self.integrity == ("ok",):
            return "ok"
        n = len(problem_lines(self.integrity))
        # SQLite stops at 20 problems: there may be more.
        most = " (SQLite lists at most 20)" if n >= 20 else ""
        found = "1 problem" if n == 1 else f"{n} problems"
        return f"{found} found by SQLite's check{most}:"

    def _damaged_count(self) -> str:
        if self.schema_version is None:  # not sent back to check by check (operator QA)
            return "none (no database of this bot)"
        if self.schema_version > LATEST:
            return "not counted (a newer version of the bot wrote the file)"
        if self.integrity == ("ok",):
            if self.games_tried:
                return str(len(self.damaged))
            if self.untried:
                return (
                    f"{len(self.damaged)} marked so far (the games were not tried: {self.untried})"
                )
            # QA: the start's "1" read as the whole count where check found five.
            return (
                f"{len(self.damaged)} marked so far (a game is tried when it is first used;"
                f" {bot_command('check', self.path)} tries every one)"
            )
        # The games of a file that fails its check are not tried, and its marks may be wrong.
        marked = f"{len(self.damaged)} marked, the others " if self.damaged else ""
        return marked + "not counted (the file fails its check)"

    def verdict(self) -> str:
        """What is wrong, and what to do about it, in one line (empty when healthy)."""
        restore = bot_command("restore", self.path, "BACKUP") + ", with the bot stopped"
        if self.schema_version is None:
            # An empty file (a `touch`, a failed copy) or another program's database: most
            # likely the wrong path, so that question comes first.
            if self.tables:
                # Neither the bot nor restore writes over another program's database.
                return (
                    f"the file holds tables ({few_names(self.tables)}) but no database of "
                    "this bot: is DATABASE_PATH (or --db) right? Give the bot a path of its "
                    "own, where it creates its database on its first start"
                )
            return (
                "the file holds no tables, so no database of this bot: is DATABASE_PATH (or "
                "--db) right? The bot creates its database on its first start; or restore a "
                f"backup: {restore}"
            )
        if self.schema_version > LATEST:
            return (
                "a newer version of the bot wrote it. Run that version, or restore a "
                f"backup made by this one: {restore}"
            )
        if self.integrity != ("ok",):
            return f"SQLite finds the file damaged. Restore a backup: {restore}"
        # Each kind of damage found gets its advice, once, however many games or rows.
        stopped = len(self.damaged) - len(self.unshowable)
        games = (
            f"{stopped} game(s) damaged, listed above; their players are told when "
            "they use them, every other game plays on. A backup from before the damage has "
            f"them whole, without what was played since: {restore}"
        )
        # Review: restoring (and losing every game since) for one scorepad is no advice.
        ended = (
            f"{len(self.unshowable)} finished game(s) cannot be shown, listed above: their "
            "results stay on the boards, only their record and scorepad are lost"
        )
        rows = (
            f"{len(self.damaged_rows)} player row(s) damaged, listed above: each is left off "
            "the boards and rebuilt from the player's results when their next game ends"
        )
        n = len(self.damaged_settings)
        whose = "1 server's" if n == 1 else f"{n} servers'"
        settings = (
            f"{whose} settings damaged, listed above: each damaged setting is read as its "
            "default (the others as saved) until a manager saves it again with /wizard settings"
        )
        kinds = ((games, stopped), (ended, self.unshowable), (rows, self.damaged_rows))
        found = [text for text, there in (*kinds, (settings, n)) if there]
        if not found:
            return ""
        return ". ".join(found) + ("" if stopped else "; every game plays on")


def check(path: Path, *, checked: Sequence[str] | None = None) -> Health:
    """Examine the database at ``path`` without changing it; ``checked`` is the result of a
    quick check already run on it (``Store.integrity``), so that it is not run twice.

    Raises ``sqlite3.Error`` when the file cannot be opened or read as a database at all.
    """
    path = Path(path)
    conn = open_readonly(path)
    try:
        result = integrity(conn) if checked is None else list(checked)
        version = schema_version(conn)
        tables = table_names(conn)
        # Another program's file may have a "games" table of its own: only ours is read.
        has_games = version is not None and "games" in tables
        statuses = games_by_status(conn) if has_games else {}
        damaged = damaged_games(conn) if has_games else []
        hands, until = open_hands(conn) if "open_hands" in tables else (None, None)
    finally:
        conn.close()
    # A linked database's log and disk are its target's (review: a symlinked DATABASE_PATH
    # read a log of 0 B and another disk's free space).
    real = path.resolve()
    wal = wal_path(real)
    return Health(
        path=path,
        schema_version=version,
        integrity=tuple(result),
        games_by_status=statuses,
        damaged=tuple(damaged),
        database_bytes=real.stat().st_size,
        wal_bytes=wal.stat().st_size if wal.exists() else 0,
        tables=tuple(tables),
        open_hands=hands,
        hands_until=until,
        free_bytes=_free_bytes(real.parent),
    )


def _free_bytes(folder: Path) -> int | None:
    """Free space for this user on the file system of ``folder``; ``None`` if it cannot be
    read, or if nothing can be written there (a read-only mount: no bot writes its file)."""
    if _read_only_file_system(folder):
        return None
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def open_hands(conn: sqlite3.Connection) -> tuple[int, float | None]:
    """How many open hands' tokens the file keeps that are still valid, and when the last
    runs out (tokens past their time are deleted when the bot starts)."""
    row = conn.execute(
        f"SELECT COUNT(*), MAX(expires_at) FROM open_hands WHERE {HAND_KEPT}", (time.time(),)
    ).fetchone()
    return int(row[0]), None if row[1] is None else float(row[1])


LISTED: Final = 20
"""Rows of one kind listed by name in the report; the count says how many there are."""


def _listed(rows: tuple[str, ...]) -> list[str]:
    """The first :data:`LISTED` rows, indented, and how many more there are."""
    more = [f"  … and {len(rows) - LISTED} more"] if len(rows) > LISTED else []
    return [f"  {row}" for row in rows[:LISTED]] + more


def _size(n: int) -> str:
    """``1536`` → ``"1.5 KiB"``.

    >>> _size(0), _size(1536), _size(3 * 1024 * 1024)
    ('0 B', '1.5 KiB', '3.0 MiB')
    """
    if n < 1024:
        return f"{n} B"
    value = float(n)
    for unit in ("KiB", "MiB", "GiB"):
        value /= 1024
        if value < 1024 or unit == "GiB":
            break
    return f"{value:.1f} {unit}"
