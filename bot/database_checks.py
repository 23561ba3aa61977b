"""What the bot's start, the demo and ``config`` check of DATABASE_PATH before SQLite opens
it: a path that can hold a database this user may write, and a file that is the bot's own.

Each refusal is a :class:`bot.exits.Failure` (exit status 3) naming the path, what is
wrong and what to do; nothing here writes, except :func:`ensure_openable`, which makes the
file the bot is about to open.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path
from typing import Final

from bot.exits import (
    EXIT_DATABASE,
    PATH_SETTINGS,
    Failure,
    database_failure,
    database_refusal,
    opening_database,
)
from wizard.store.db import closed_folder, log_files, log_without_database, unavailable
from wizard.store.health import (
    another_programs,
    foreign_tables,
    open_untouched,
    recorded_versions,
)
from wizard.store.migrations import MigrationError, refuse_unknown

log = logging.getLogger("bot")


BESIDE_DATABASE: Final = len(".shard-count-9999.lock")
"""The most bytes the bot adds to the database's name for a file beside it (a shard lock)."""


def name_too_long(path: Path, beside: int) -> str | None:
    """Why ``path`` cannot be made on its disk, if a folder's name or its own name (with
    ``beside`` bytes more, for the files made beside it) is longer than the disk allows."""
    place = next((p for p in path.parents if os.path.exists(p)), Path("/"))
    try:
        limit = os.pathconf(place, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    for part in path.parent.parts:
        if len(os.fsencode(part)) > limit:
            return f"the folder name {part[:40]}… is longer than this disk allows ({limit} bytes)"
    size = len(os.fsencode(path.name))
    if size + beside > limit:
        return (
            f"its file name is too long: {size} bytes, where this disk allows {limit}, and the "
            f"files made beside it add up to {beside} more"
        )
    return None


def refuse_folder(path: Path) -> None:
    """Raise the :class:`Failure` of a database path that is a folder (``/data`` for
    ``/data/wizard.db``), that lies below a file (``wizard.db/x.db``), or below a folder
    this user may not enter; or whose name is too long for its disk (operator QA: a
    traceback, and from the bot's start "cannot reach Discord")."""
    too_long = name_too_long(path, BESIDE_DATABASE)
    if too_long is not None:
        raise database_refusal(
            path,
            too_long,
            f"set {PATH_SETTINGS} to a shorter name",
        )
    closed = closed_folder(path)
    if closed is not None:  # else looking at the path raises PermissionError (review)
        raise database_refusal(
            path,
            f"this user may not enter {closed}",
            "run the bot as a user who may, or change that folder's permissions",
        )
    if path.is_dir():
        raise database_refusal(
            path,
            "it is a folder, not a database file",
            f"set {PATH_SETTINGS} to a file in it, e.g. {path / 'wizard.db'}",
        )
    below = file_above(path)
    if below is not None:
        raise database_refusal(
            path,
            f"{below} is a file, not a folder",
            f"set {PATH_SETTINGS} to a file in a folder",
        )


def file_above(path: Path) -> Path | None:
    """The nearest of ``path``'s folders that exists, when it is a file, not a folder
    (``notes.txt`` for ``notes.txt/more/x.db``); else ``None``."""
    below = next((p for p in path.parents if p.exists()), None)
    return below if below is not None and not below.is_dir() else None


def refuse_unwritable(path: Path) -> None:
    """Raise the :class:`Failure` of a database this user could not create or write: the
    file itself, or the nearest folder that exists (where the bot makes the missing ones,
    the file, its -wal and -shm and the shard lock files). Looked up, nothing written."""
    if path.exists():
        if not os.access(path, os.R_OK | os.W_OK):
            raise database_refusal(
                path,
                "this user may not write it",
                "run the bot as the user who owns it, or give this one the right to write it",
            )
        place = path.parent
    else:
        place = next(p for p in path.parents if p.exists())
    refuse_logs_of_others(path)
    if not os.access(place, os.W_OK | os.X_OK):
        raise database_refusal(
            path,
            f"this user may not write in {place}",
            "the bot makes its files there (the database, its -wal and -shm, the shard lock "
            "files): set DATABASE_PATH to a folder this user may write, or change its "
            "permissions (or mount it writable)",
        )


def refuse_logs_of_others(path: Path) -> None:
    """Raise the :class:`Failure` of a -wal or -shm beside ``path`` that this user may not
    write: another account's command left it (operator QA: check run as the operator, not
    as the bot's user; the bot then said "attempt to write a readonly database")."""
    for log in log_files(path):
        if log.exists() and not os.access(log, os.R_OK | os.W_OK):
            raise database_refusal(
                path,
                f"this user may not write {log}, which "
                "another user's command left (check, backup or restore, run as another user "
                "than the bot's)",
                # Not "remove it": a log may hold committed moves (issue 13).
                "give that file to the bot's user (chown), and run those commands as the "
                "bot's user",
            )


def ensure_openable(path: Path) -> None:
    """Raise the :class:`Failure` now when SQLite cannot open ``path`` at all (a folder, a
    folder that cannot be created or written), before the game service tries: its
    connection thread, failing to open, would print a traceback as the program ends."""
    refuse_folder(path)
    refuse_logs_of_others(path)
    with opening_database(path):
        orphan = log_without_database(path)  # before SQLite makes a file to replay it into
        if orphan is not None:
            raise orphan
        path.parent.mkdir(parents=True, exist_ok=True)
        sqlite3.connect(path).close()


def tables_before_start(database: Path) -> tuple[str, ...] | None:
    """The tables of the file at ``database``, read before the bot opens it, when it is a
    file with content but no database of this bot (often none: ``sqlite3 wrong.db``); else
    ``None``. A missing or empty file is ``None``: that is a first start, and the bot makes
    an empty file itself before its tables. So is the bot's own database, and a file that
    cannot be read as one (opening it reports that)."""
    try:
        if not database.is_file() or database.stat().st_size == 0:
            return None
        conn = open_untouched(database)
        try:
            tables = foreign_tables(conn)
            return None if tables is None else tuple(tables)
        finally:
            conn.close()
    except (sqlite3.Error, OSError):
        return None


def refuse_another_program(database: Path, hint: str) -> tuple[str, ...] | None:
    """:func:`tables_before_start`, after raising the :class:`Failure` (with ``hint``) of a
    file that holds another program's tables: the bot and the demo never write into one (as
    restore does not). ``()`` is a database file with no tables, which the bot makes its own."""
    held = tables_before_start(database)
    if held:
        raise Failure(EXIT_DATABASE, another_programs(database, held), hint)
    return held


START_HINT = "is DATABASE_PATH right? The bot makes its own database in a new file"
"""The hint of the bot's refusal of a file that holds another program's database."""


def refuse_unusable(database: Path) -> None:
    """Raise the :class:`Failure` the bot's start would raise for the file at ``database``,
    only reading it (``config``): a log left without its database, another program's
    tables, a file that is no database, a schema of a newer bot. A missing or empty file
    passes: the bot makes its database there."""
    orphan = log_without_database(database)
    if orphan is not None:
        raise database_failure(database, orphan)
    refuse_another_program(database, START_HINT)
    if not database.is_file() or database.stat().st_size == 0:
        return
    with opening_database(database):
        try:
            conn = open_untouched(database)
            try:
                versions = recorded_versions(conn)
            finally:
                conn.close()
            refuse_unknown(versions)
        except (sqlite3.Error, MigrationError) as error:
            raise unavailable(database, error) from error


def warn_unmigrated(database: Path) -> None:
    """Warn that the bot has just made its database in a file that held no tables."""
    log.warning(
        "database %s existed empty: the bot created its tables in it. If DATABASE_PATH "
        "should name the bot's existing database, stop the bot and correct it",
        database,
    )
