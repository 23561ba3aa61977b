"""Consistent copies of a live database, and putting one back while the bot is stopped.

Both use SQLite's online backup API. A copy of the ``.db`` file alone is not a backup: in
WAL mode the latest committed actions may still be only in the ``-wal`` file beside it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import stat
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from wizard.store.db import (
    beside,
    bot_command,
    closed_folder,
    first_problem,
    log_files,
    log_without_database,
    wal_path,
)
from wizard.store.health import (
    another_programs,
    damaged_games,
    foreign_tables,
    integrity,
    open_readonly,
    schema_version,
)
from wizard.store.migrations import LATEST
from wizard.store.stops import signals_held


class BackupError(Exception):
    """A backup or restore refused; the message says why in one line, ``hint`` what to do,
    and ``cause`` is the system's own words when the copy could not be written."""

    def __init__(self, message: str, hint: str = "", *, cause: str = "") -> None:
        super().__init__(message)
        self.hint = hint
        self.cause = cause


@dataclass(frozen=True, slots=True)
class Copied:
    """What one backup or restore copied."""

    source: Path
    target: Path
    schema_version: int
    bytes: int
    seconds: float
    aside: Path | None = None
    """Where a restore kept the database it replaced."""
    aside_damaged: bool = False
    """That database failed SQLite's quick check."""
    damaged: tuple[tuple[int, str], ...] = ()
    """The games the copy holds set aside as damaged (as the source did), with the reason."""


def backup(source: Path, target: Path, *, overwrite: bool = False, checked: bool = True) -> Copied:
    """Copy the database at ``source`` into a new self-contained file ``target``.

    Safe while the bot runs: the copy is taken in one read transaction, which in WAL mode
    neither waits for nor blocks the bot's writes, so it holds every action committed
    before it began and none after. It is written beside ``target`` first, checked (SQLite's
    whole integrity check; not without ``checked``: a temporary copy to try games on), and
    renamed into place, so that ``target`` is never a half-written file.
    """
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise BackupError(f"no database at {source}", "check DATABASE_PATH or --db")
    _refuse_same(target, source)
    if target.is_dir():
        raise BackupError(
            f"{target} is a folder", f"give the backup a file name, e.g. {target / 'wizard.db'}"
        )
    if target.exists() and not target.is_file():
        # --force replaces an old backup, never a device or a pipe (as root, /dev/full).
        raise BackupError(f"{target} is no regular file", "give the backup a file name")
    log = _log_beside(target)
    if not overwrite and (target.exists() or log):
        shown = target if target.exists() else log[0]
        raise BackupError(f"{shown} already exists", "choose another name, or add --force")
    if target.exists():  # --force replaces an old backup, never a database in use
        _check_unused(target, _IN_USE_BY_BACKUP)
    started = time.perf_counter()
    src = open_readonly(source)
    try:
        _snapshot(src)
        if schema_version(src) is None:
            # restore would refuse such a copy: say so now rather than on the day it is needed
            raise BackupError(
                f"{source} holds no database of this bot", "check DATABASE_PATH or --db"
            )
        with _writing(target):
            target.parent.mkdir(parents=True, exist_ok=True)
            # A name of its own: two backups to one FILE at once (a cron job's and one run
            # by hand) each put a whole copy in place, neither removing the other's.
            handle, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
            os.close(handle)
            partial = Path(name)
            dst = sqlite3.connect(partial, isolation_level=None)
            # No more open than the database (its games, and the open hands' tokens), before
            # anything is written into it; its owner may write it (check tries games on it).
            _same_access(partial, source, owner_writes=True)
        try:
            # Whatever stops the copy (a full disk, Ctrl-C) leaves no part of it behind.
            try:
                src.backup(dst)  # all pages in one step: one consistent snapshot
                # One file that needs no -wal beside it, wherever it is copied to.
                dst.execute("PRAGMA journal_mode = DELETE")
                problems = integrity(dst, quick=False) if checked else ["ok"]
                version = schema_version(dst)
                damaged = damaged_games(dst) if problems == ["ok"] else []
            finally:
                dst.close()
            if problems != ["ok"]:
                found = first_problem(problems)
                raise BackupError(
                    f"the copy of {source} fails SQLite's integrity check: {found}",
                    f"the live database is damaged: run {bot_command('check', source)}. To keep"
                    " it as it"
                    f" is all the same, stop the bot, then copy {source} and, if there is one,"
                    f" {wal_path(source)} beside it",
                )
            with _writing(target):
                # The log of the file replaced goes with it: SQLite would replay it into
                # the backup the next time it is opened.
                for part in _log_beside(target):
                    part.unlink()
                os.replace(partial, target)
        except sqlite3.Error as error:
            _remove_with_journal(partial)
            if error.sqlite_errorcode & 0xFF not in _WRITE_FAILURES:
                raise
            raise BackupError(
                f"cannot write the backup {target} ({error})",
                "free space where it is written, or choose another disk; the database "
                "itself is untouched",
                cause=str(error),
            ) from None
        except BaseException:
            _remove_with_journal(partial)
            raise
    finally:
        src.close()
    return Copied(
        source,
        target,
        version or 0,
        target.stat().st_size,
        time.perf_counter() - started,
        damaged=tuple(damaged),
    )


_WRITE_FAILURES = frozenset(
    (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY)
)
"""Primary result codes of a copy that could not be written (a full disk, a file size limit,
a failing disk): the copy's fault, where the live database is only read."""


def _refuse_same(path: Path, database: Path) -> None:
    """:class:`BackupError` when ``path`` is the database file (or its ``-wal``, ``-shm`` or
    ``-journal``): a backup over it would replace the live file, or be deleted by SQLite as
    a stale journal when the database is next opened (QA operator), and a restore from it
    would wait for ever on its own lock."""
    for part in (database, *(beside(database, end) for end in ("-wal", "-shm", "-journal"))):
        same = path.resolve() == part.resolve() or (
            path.exists() and part.exists() and os.path.samefile(path, part)
        )
        if same:
            raise BackupError(
                f"{path} is the database itself", "give another file, e.g. in a backups folder"
            )


@contextlib.contextmanager
def _writing(target: Path) -> Iterator[None]:
    """Turn a failure to write ``target`` into a :class:`BackupError` naming it, not the
    database it is a copy of."""
    try:
        yield
    except (OSError, sqlite3.OperationalError) as error:
        # The OS's reason alone: its message names the temporary file written first.
        why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise BackupError(
            f"cannot write the backup {target} ({why})",
            "choose a folder this user may write to, on a file system that is not read-only",
            cause=why,
        ) from None


def verify(path: Path) -> int:
    """Check that ``path`` is a whole database this bot can use; returns its schema version.

    Raises :class:`BackupError` when it is damaged, is no database of this bot, or was
    written by a newer version.
    """
    path = Path(path)
    if path.is_dir():
        raise BackupError(f"{path} is a folder", "give the backup file in it")
    if not path.is_file():
        raise BackupError(f"no backup at {path}", "give the path of a file made by backup")
    if not os.access(path, os.R_OK):
        raise BackupError(
            f"cannot read {path}: permission denied",
            "let this user read the file (or run restore as one who may)",
        )
    try:
        conn = open_readonly(path)
        try:
            problems = integrity(conn, quick=False)
            version = schema_version(conn) if problems == ["ok"] else None
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(
            f"{path} is not a usable database ({error})", "choose another backup"
        ) from None
    if problems != ["ok"]:
        raise BackupError(
            f"{path} fails SQLite's integrity check: {first_problem(problems)}",
            "choose another backup",
        )
    if version is None:
        raise BackupError(f"{path} holds no Wizard bot database", "choose another backup")
    if version > LATEST:
        raise BackupError(
            f"{path} has schema version {version}, newer than this bot's {LATEST}",
            "restore it with the newer version of the bot that made it",
        )
    return version


def restore(backup_file: Path, target: Path) -> Copied:
    """Replace the database at ``target`` with the checked copy ``backup_file``.

    Only while nothing else has ``target`` open (the bot stopped): it refuses if another
    connection holds the file. The pages are written through the backup API into a new
    file beside ``target`` first, so that a failure (a full disk) leaves ``target`` as it
    was; only then is the database there set aside and the new file put in its place.
    """
    backup_file, target = Path(backup_file), Path(target)
    if target.is_symlink():  # the database is the file it points to (on another disk, say)
        target = target.resolve()
    started = time.perf_counter()
    closed = closed_folder(backup_file)
    if closed is not None:  # else looking at it raises PermissionError, told of the database
        raise BackupError(
            f"cannot read the backup {backup_file}: this user may not enter {closed}",
            "run restore as a user who may, or change that folder's permissions",
        )
    _refuse_same(backup_file, target)
    version = verify(backup_file)
    damaged = False
    if target.exists():
        folder = target.parent
        if not os.access(folder, os.W_OK | os.X_OK):
            # SQLite, opening the database to see whether it is in use, would say "disk I/O
            # error" (it cannot make the -shm), pointing at a disk that is fine (QA).
            raise BackupError(
                f"cannot restore over {target}: this user may not write in {folder}, where "
                "the restored file is written and the database set aside",
                "run restore as the user the bot runs as, or one who may write there; the "
                "database there is untouched",
            )
        _check_unused(target)
        damaged = not _sound(target)
        if not damaged:
            _refuse_foreign(target)
    elif (orphan := log_without_database(target)) is not None:
        # Whether a bot still has it open cannot be told without the database file.
        raise BackupError(orphan.message, orphan.hint)
    restoring = target.with_name(f".{target.name}.restoring")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)  # a new machine's first database
        _remove_with_journal(restoring)
        _copy_into(backup_file, restoring)
        if target.exists():  # the database keeps its owner and mode (not the umask's)
            _same_access(restoring, target)
    except (OSError, sqlite3.Error) as error:
        _remove_with_journal(restoring)
        if _not_allowed(error):
            hint = (
                f"check that this user may write in {target.parent} (and that its file system "
                "is not read-only), then restore again"
            )
        else:
            hint = (
                "free space on that disk (room for one more copy of the backup), then restore again"
            )
        left = "the database there is untouched" if target.exists() else "nothing was written"
        raise BackupError(
            f"cannot write the restored database beside {target} ({error})", f"{hint}; {left}"
        ) from None
    except BaseException:  # Ctrl-C: the database there is untouched, and no copy is left
        _remove_with_journal(restoring)
        raise
    aside = None
    # Setting the database aside and putting the copy in its place is never cut in two
    # (no database at all in between): Ctrl-C, SIGTERM or SIGHUP waits until both are done.
    with signals_held():
        if target.exists():
            # Never written over: a damaged database (the usual reason to restore) may still
            # hold what can be salvaged, and a sound one every action since the backup.
            try:
                _check_unused(target)  # again: the bot may have started meanwhile
            except BaseException:
                _remove_with_journal(restoring)
                raise
            aside = set_aside(target, "damaged" if damaged else "replaced")
        os.replace(restoring, target)
    return Copied(
        backup_file,
        target,
        version,
        target.stat().st_size,
        time.perf_counter() - started,
        aside,
        damaged,
    )


def _refuse_foreign(path: Path) -> None:
    """:class:`BackupError` if ``path`` holds another program's database (tables, none of
    them this bot's): most likely a mistyped path, and no file to set aside and replace."""
    conn = open_readonly(path)
    try:
        tables = foreign_tables(conn) or []
    finally:
        conn.close()
    if tables:
        raise BackupError(
            another_programs(path, tables), "is DATABASE_PATH (or --db) right? Nothing was written"
        )


def _same_access(path: Path, like: Path, *, owner_writes: bool = False) -> None:
    """Give ``path`` the permissions of ``like`` (``owner_writes``: and let its owner write
    it), and its owner, where this user may (root restoring a database the bot's own user
    runs on)."""
    st = like.stat()
    mode = stat.S_IMODE(st.st_mode)
    os.chmod(path, mode | stat.S_IRUSR | stat.S_IWUSR if owner_writes else mode)
    if (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
        with contextlib.suppress(PermissionError):
            os.chown(path, st.st_uid, st.st_gid)


def _not_allowed(error: OSError | sqlite3.Error) -> bool:
    """Whether writing failed for want of permission (or on a read-only file system), not
    for want of room."""
    if isinstance(error, OSError):
        return error.errno in (errno.EACCES, errno.EPERM, errno.EROFS)
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM)


def _remove_with_journal(path: Path) -> None:
    """Delete ``path`` and the rollback journal SQLite may have left beside it."""
    for part in (path, beside(path, "-journal")):
        part.unlink(missing_ok=True)


def _sound(path: Path) -> bool:
    """``path`` passes SQLite's quick check (a locked file counts as sound: it is in use,
    which the restore refuses anyway)."""
    try:
        conn = open_readonly(path)
        try:
            return integrity(conn) == ["ok"]
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return True
    except sqlite3.DatabaseError:
        return False


_IN_USE_BY_RESTORE: Final = (
    "stop the bot (every shard process), and litestream replicate if it runs, before restoring"
)
_IN_USE_BY_BACKUP: Final = (
    "a backup is a file of its own: give another name (to put a backup back in place, stop "
    "the bot and use restore)"
)


def _log_beside(path: Path) -> list[Path]:
    """The ``-wal`` and ``-shm`` there are beside ``path``: SQLite replays a ``-wal`` into
    whatever database file it next opens at ``path``."""
    return [p for p in log_files(path) if p.exists()]


def _check_unused(path: Path, in_use: str = _IN_USE_BY_RESTORE) -> None:
    """:class:`BackupError` (with the hint ``in_use``) if another process has ``path``
    open; a file SQLite cannot read at all cannot be in use by the bot."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        _lock_exclusively(conn, path, in_use)
    except sqlite3.DatabaseError as error:
        if isinstance(error, sqlite3.OperationalError):
            raise
    finally:
        conn.close()


def _copy_into(backup_file: Path, target: Path) -> None:
    """Write every page of ``backup_file`` into the new file ``target``, in WAL mode."""
    dst = sqlite3.connect(target, isolation_level=None)
    try:
        src = open_readonly(backup_file)
        try:
            _snapshot(src)
            src.backup(dst)
        finally:
            src.close()
        # As the bot keeps its database (a backup is one self-contained file, in rollback
        # mode): in WAL mode every process that has the file open holds a lock, so the next
        # restore sees an idle one too.
        dst.execute("PRAGMA journal_mode = WAL")
    finally:
        dst.close()


def _snapshot(conn: sqlite3.Connection) -> None:
    """Open the read transaction the copy is taken in, waiting at most the busy timeout:
    Python's ``backup`` retries a source another process holds exclusively without end,
    while an open read transaction needs no lock it could wait for."""
    conn.execute("BEGIN")
    conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()


def set_aside(path: Path, why: str) -> Path:
    """Rename ``path`` and its ``-wal`` and ``-shm`` to ``NAME.WHY-TIME``; returns it.

    A name already taken (a restore in the same second) gets ``-2``, ``-3``… after it: a
    database set aside is never written over."""
    suffixes = ("", "-wal", "-shm")
    name = f"{path.name}.{why}-{time.strftime('%Y%m%d-%H%M%S')}"
    aside, n = path.with_name(name), 1
    while any(beside(aside, suffix).exists() for suffix in suffixes):
        n += 1
        aside = path.with_name(f"{name}-{n}")
    for suffix in suffixes:
        part = beside(path, suffix)
        if part.exists():
            os.replace(part, beside(aside, suffix))
    return aside


def _lock_exclusively(conn: sqlite3.Connection, path: Path, in_use: str) -> None:
    """Hold ``path`` alone until ``conn`` closes, or :class:`BackupError` if it is in use.

    In WAL mode every open connection keeps a shared lock, so an idle bot is detected too.
    """
    conn.execute("PRAGMA busy_timeout = 0")
    conn.execute("PRAGMA locking_mode = EXCLUSIVE")
    try:
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("COMMIT")  # the lock stays: locking_mode is EXCLUSIVE
    except sqlite3.OperationalError as error:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        if error.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            holders = ", ".join(holders_of(path)) or "another process"
            raise BackupError(f"{path} is in use by {holders}", in_use) from None
        raise


def holders_of(path: Path) -> list[str]:
    """The processes that have the file ``path`` open, as ``process PID (COMMAND)``, of
    those this user may look into (Linux's /proc; none elsewhere): operator QA, "in use by
    another process" left them to find which (a forgotten sqlite3 shell, a bot, Litestream).
    """
    try:
        wanted = os.stat(path)
        processes = [p for p in Path("/proc").iterdir() if p.name.isdigit()]
    except OSError:
        return []
    found = []
    for process in processes:
        if process.name == str(os.getpid()):
            continue
        try:
            for fd in (process / "fd").iterdir():
                if _same_file(fd, wanted):
                    argv = (process / "cmdline").read_bytes().rstrip(b"\0").split(b"\0")
                    words = [Path(os.fsdecode(argv[0])).name, *map(os.fsdecode, argv[1:])]
                    command = " ".join(" ".join(words).split())  # one line
                    command = command if len(command) <= 60 else command[:59] + "…"
                    found.append(f"process {process.name} ({command})")
                    break
        except OSError:  # gone, or another user's
            continue
    return found


def _same_file(fd: Path, wanted: os.stat_result) -> bool:
    try:
        seen = fd.stat()
    except OSError:
        return False
    return (seen.st_dev, seen.st_ino) == (wanted.st_dev, wanted.st_ino)
