"""Exit statuses of ``python -m bot``, and the one place that turns failures into them.

Every failure an operator can meet at start is reported as one line, a cause and a hint,
with no traceback; the README's table lists the statuses.
"""

from __future__ import annotations

import contextlib
import errno
import shutil
import signal
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from wizard.store import DatabaseUnavailable, MigrationError
from wizard.store.db import bot_command
from wizard.store.stops import not_ignored

EXIT_OK = 0
"""A clean stop (Ctrl-C, SIGTERM), or a command that did its work."""
EXIT_REFUSED = 1
"""Discord refused the bot: a bad token, a privileged intent, or another refusal (403)."""
EXIT_SETTINGS = 2
"""The settings or the command line cannot be used (a bad ``.env`` value, no token)."""
EXIT_DATABASE = 3
"""The database cannot be used: newer schema, read-only, locked, damaged, cannot open."""
EXIT_NETWORK = 4
"""Discord could not be reached (no network, DNS, Discord's servers failing, a ban of this
machine's address for too many requests)."""
EXIT_DAMAGED_GAMES = 5
"""``check`` only: the file is sound but some games (set aside, or not loadable) or player
rows are damaged."""
EXIT_ATTENTION = 6
"""``check`` only: nothing is damaged, but the operator must act: the write-ahead log cannot
shrink, the database's disk is almost full, or the games could not be tried (no room for
the temporary copy)."""

DATABASE_ERRORS: tuple[type[BaseException], ...] = (
    DatabaseUnavailable,
    sqlite3.Error,
    OSError,
    MigrationError,
)
"""What opening or using a database may raise. :class:`wizard.store.DatabaseUnavailable`
carries a one-line message and a ``.hint``; the others are what SQLite and the file system
raise outside the store's own checks."""


class Failure(Exception):
    """A failure to report: one line of cause, a hint, and the exit status."""

    def __init__(self, status: int, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.hint = hint

    def line(self) -> str:
        """The one line printed on stderr."""
        text = _one_line(self.message)
        hint = _one_line(self.hint)
        return f"{text}. {hint[:1].upper()}{hint[1:]}." if hint else f"{text}."


PATH_SETTINGS: Final = "DATABASE_PATH (or --db)"
"""How a hint names where the database's file is set: both, as backup, restore and check
read them; :func:`naming` puts the one another command reads in its place."""


def naming(failure: Failure, setting: str) -> Failure:
    """``failure``, its hint naming ``setting`` where it names :data:`PATH_SETTINGS`:
    ``DATABASE_PATH`` for the bot and ``config``, which take no ``--db``; ``--db`` for the
    demo, which reads no settings (operator QA: "DATABASE_PATH (or --db)" at a start that
    has no --db)."""
    failure.hint = failure.hint.replace(PATH_SETTINGS, setting)
    return failure


def report(failure: Failure) -> int:
    """Print ``failure`` on stderr as ``wizard bot: …``; returns its exit status."""
    print(f"wizard bot: {failure.line()}", file=sys.stderr)
    return failure.status


def database_refusal(path: Path | str, cause: str, hint: str = "") -> Failure:
    """The :class:`Failure` (exit status 3) of the database at ``path``, and why."""
    return Failure(EXIT_DATABASE, f"cannot use the database {path}: {cause}", hint)


def database_failure(path: Path | str, error: BaseException) -> Failure:
    """The :class:`Failure` for ``error`` met while opening the database at ``path``."""
    if isinstance(error, DatabaseUnavailable):
        # The store's own one-line cause, without the path it already names; the hint of
        # what caused it when there is one (the store's own can only say "see the log").
        cause = _one_line(error.message).removeprefix(f"{path}: ")
        origin = error.__cause__
        hint = error.hint if origin is None else _database_hint(origin, path)
        return database_refusal(path, cause, hint)
    cause = _one_line(str(error)) or type(error).__name__
    return database_refusal(path, cause, _database_hint(error, path))


@contextlib.contextmanager
def opening_database(path: Path | str) -> Iterator[None]:
    """Turn what opening the database raises into a :class:`Failure` (exit status 3)."""
    try:
        yield
    except DATABASE_ERRORS as error:
        raise database_failure(path, error) from error


def hang_ups() -> tuple[signal.Signals, ...]:
    """SIGHUP (the terminal closed, an SSH session dropped), to stop on as on SIGTERM,
    unless it is ignored: under ``nohup``, which asks that the process outlive its
    terminal (review: a hang-up stopped a backup run so)."""
    return not_ignored(signal.SIGHUP)


def network_failure(error: BaseException) -> Failure:
    """The :class:`Failure` for Discord being out of reach."""
    if isinstance(error, TimeoutError) and not str(error):
        # QA: a bare "TimeoutError" after minutes of silence said neither what nor how long.
        cause = "Discord did not answer (the connection timed out)"
    else:
        # A 5xx answer's text may be a whole HTML page (QA: 3 KiB of it in the line).
        cause = _shortened(str(error), 300) or type(error).__name__
    return Failure(
        EXIT_NETWORK,
        f"cannot reach Discord: {cause}",
        "check this machine's network and DNS, and https://discordstatus.com; "
        "then start the bot again",
    )


def not_discord(url: str) -> Failure:
    """The :class:`Failure` for an answer at Discord's address that is not Discord's API (a
    Wi-Fi sign-in page, a proxy's): discord.py, reading it as the bot's user, fails."""
    return Failure(
        EXIT_NETWORK,
        f"cannot reach Discord: {url} answered with something that is not Discord's API",
        "something stands between this machine and discord.com (a proxy, a firewall, a "
        "Wi-Fi sign-in page): open that address from this machine to see what answers",
    )


def discord_refusal(status: int, reason: str, body: str) -> Failure:
    """The :class:`Failure` for Discord answering the bot's start with an HTTP error that
    is not the token's (401) nor its servers failing (5xx): ``body`` is what it sent."""
    # A page (a proxy's, Cloudflare's) says nothing in a line that its status does not.
    said = "" if body.lstrip().startswith("<") else f": {_shortened(body)}"
    if status == 429:
        # Cloudflare, in front of Discord, bans an address that sent too many requests (or
        # too many bad ones) for a while: a restart loop only makes the ban last longer.
        return Failure(
            EXIT_NETWORK,
            f"Discord is limiting this machine's requests (429 {reason}{said})",
            "wait an hour before starting the bot again, and do not let a supervisor "
            "restart it in a loop meanwhile: each try extends the ban",
        )
    return Failure(
        EXIT_REFUSED,
        f"Discord refused the bot's request ({status} {reason}{said})",
        "check DISCORD_TOKEN and the bot's application in the Developer Portal, and "
        "whether a proxy or firewall stands between this machine and discord.com",
    )


def _shortened(text: str, limit: int = 120) -> str:
    """``text`` on one line, at most ``limit`` characters (an HTML page is not a cause)."""
    line = _one_line(text)
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _database_hint(error: BaseException, path: Path | str) -> str:
    restore = bot_command("restore", path, "BACKUP")
    if isinstance(error, MigrationError):
        return (
            "run the newer version of the bot that wrote it, or restore a backup made by "
            f"this version: {restore}"
        )
    name = str(getattr(error, "sqlite_errorname", None) or "")
    if name.startswith("SQLITE_NOTADB"):  # a wrong path is likelier than damage
        return (
            f"is {PATH_SETTINGS} right? If it is, the file is damaged: restore a "
            f"backup with the bot stopped, {restore}"
        )
    if name.startswith("SQLITE_CORRUPT") or "decode" in str(error):
        return (
            "the file is damaged or is not a database: restore a backup with the bot "
            f"stopped, {restore}"
        )
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return "another process holds it: stop that process (or wait for it), then try again"
    if name.startswith("SQLITE_FULL"):
        return "the disk is full: free some space, then try again"
    # Not a matter of permissions (QA operator: both were told to check them).
    if isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE):
        return (
            "the process may not open more files: each shard it serves holds a lock file. "
            "Raise the limit (ulimit -n, or LimitNOFILE= in a systemd unit), or serve fewer "
            "shards per process"
        )
    if name.startswith("SQLITE_IOERR") and _disk_full(path):
        # Operator QA: "check the folder's permissions" of a disk with no byte free.
        return f"the disk of {path} is full: free space there, then try again"
    if name.startswith("SQLITE_IOERR"):
        # A folder it may not write into fails so too: permissions come first.
        return (
            f"SQLite failed to read or write {path} or a file beside it: check the folder's "
            "permissions, that the disk is not failing, and that no one deleted or moved its "
            "-wal or -shm while a process used it; then " + bot_command("check", path)
        )
    if isinstance(error, OSError) or name.startswith(
        ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")
    ):
        return (
            f"the bot must be able to create and write {path} and the -wal, -shm and shard "
            f"lock files beside it: check {PATH_SETTINGS}, the folder's permissions, and "
            "that the file system is not read-only or full"
        )
    return f"see {bot_command('check', path)}; if the file is damaged, restore a backup"


def _disk_full(path: Path | str) -> bool:
    """Whether the disk of ``path`` has no room left for SQLite's index of its log (the
    -shm, 32 KiB)."""
    place = next((p for p in (Path(path), *Path(path).parents) if p.exists()), None)
    try:
        return place is not None and shutil.disk_usage(place).free < 64 * 1024
    except OSError:
        return False


def _one_line(text: str) -> str:
    return " ".join(text.split()).rstrip(".")
