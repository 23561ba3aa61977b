"""The operator's commands: ``backup``, ``restore`` and ``check`` of the game database."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import shlex
import signal
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.database_checks import file_above, name_too_long, refuse_folder
from bot.exits import (
    EXIT_ATTENTION,
    EXIT_DAMAGED_GAMES,
    EXIT_DATABASE,
    EXIT_OK,
    EXIT_SETTINGS,
    Failure,
    database_failure,
    opening_database,
    report,
)
from wizard.service.health import Unloadable, trial_copy, unloadable_games
from wizard.service.player_rows import damaged_player_rows
from wizard.service.settings import damaged_settings_rows
from wizard.store import DatabaseUnavailable
from wizard.store.backup import BackupError, backup, restore
from wizard.store.db import bot_command, closed_folder, log_without_database
from wizard.store.health import (
    Health,
    check,
    open_readonly,
)
from wizard.store.migrations import LATEST
from wizard.store.stops import caught, put_back, signals_held

log = logging.getLogger("bot")


def backup_command(database: Path, target: Path, *, overwrite: bool = False) -> int:
    """``python -m bot backup FILE``: a consistent copy of the (live) database."""
    closed = closed_folder(target)
    if closed is not None:  # else looking at it raises PermissionError (QA: a traceback)
        return report(
            Failure(
                EXIT_SETTINGS,
                f"cannot write the backup {target}: this user may not enter {closed}",
                "name a file in a folder this user may write, or run the backup as a user "
                "who may enter that one",
            )
        )
    kept = f"{target} is as it was" if target.exists() else f"nothing was written to {target}"
    before = _file_id(target)

    def left() -> str:
        # The copy is renamed into place whole, once checked: a new file there is the backup.
        if _file_id(target) in (before, None):
            return f"no backup was made: {kept}"
        return f"the backup {target} is whole, but its games were not tried: run " + bot_command(
            "check", target
        )

    return _stoppable("backup", lambda: _backup(database, target, overwrite=overwrite), left)


def _target_refusal(target: Path) -> Failure | None:
    """Why a backup cannot be written at ``target`` (its name, or its folder), if it cannot."""
    # Its copy in progress is named ".FILE.XXXXXXXX", and SQLite adds "-journal" to that.
    too_long = name_too_long(target, len("..XXXXXXXX-journal"))
    if too_long is not None:
        return Failure(
            EXIT_SETTINGS, f"cannot write the backup {target}: {too_long}", "name it shorter"
        )
    below = file_above(target)
    if below is not None:
        return Failure(
            EXIT_SETTINGS,
            f"cannot write the backup {target}: {below} is a file, not a folder",
            "name a file in a folder that exists",
        )
    folder = target.parent
    if not folder.exists():
        # A command-line fault, as a cp or sqlite3's .backup would refuse it: a typo in the
        # folder must not become a new folder that this and later backups go astray into.
        return Failure(
            EXIT_SETTINGS,
            f"cannot write the backup {target}: the folder {folder} does not exist",
            f"create it first (mkdir -p {shlex.quote(str(folder))}), or name a file in a "
            "folder that exists",
        )
    return None


def _backup(database: Path, target: Path, *, overwrite: bool) -> int:
    refused = _target_refusal(target)
    if refused is not None:
        return report(refused)
    try:
        refuse_folder(database)
        with opening_database(database):
            copied = backup(database, target, overwrite=overwrite)
    except BackupError as error:
        return report(Failure(EXIT_DATABASE, f"backup refused: {error}", error.hint))
    except Failure as failure:
        return report(failure)
    print(
        f"backed up {copied.source} to {copied.target}: schema version "
        f"{copied.schema_version}, {copied.bytes} bytes, {copied.seconds:.2f} s"
    )
    damaged = copied.damaged
    if copied.schema_version > LATEST:
        # QA: trying them failed on "a newer version" with a temporary path, and "restore a
        # backup" as advice, in the middle of making one.
        print(
            "note: a newer version of the bot wrote this database, so this one cannot try its"
            f" games: that version's {bot_command('check', database)} can"
        )
    else:
        try:
            # A game is set aside only when first used: the copy's open games are tried, as
            # check tries them (on a copy of the copy, which stays as it was made).
            found = _unloadable(copied.target)
            damaged = tuple(sorted(damaged + tuple((g.game, g.reason) for g in found)))
        except (BackupError, DatabaseUnavailable, sqlite3.Error, OSError) as error:
            print(
                f"note: the games of the backup could not be tried: {_untried(error)}, then"
                f" run {bot_command('check', copied.target)}"
            )
    _note_damaged_rows(copied.target, database)
    _note_damaged_games(damaged, database)
    return EXIT_OK


def _note_damaged_games(damaged: Sequence[tuple[int, str]], database: Path) -> None:
    """Say that the backup holds ``damaged`` games (game, reason): a faithful copy, so it is
    made; but one kept as the cure for damage must not hide it."""
    if not damaged:
        return
    n = len(damaged)
    shown = damaged[:_DAMAGED_SHOWN]
    games = "; ".join(f"game {game}: {reason}" for game, reason in shown)
    if n > len(shown):
        games += f"; and {n - len(shown)} more"
    print(
        f"note: the backup holds {n} damaged game{'s' if n > 1 else ''}, as the database "
        f"does: {games}. Run {bot_command('check', database)} for the whole report (it "
        "reads the finished games too)"
    )


def _note_damaged_rows(backup_file: Path, database: Path) -> None:
    """Say that the backup holds damaged player rows or server settings (as ``check`` lists
    them, and a restore of it reports them)."""
    try:
        rows, settings = _damaged_rows(backup_file)
    except (sqlite3.Error, OSError) as error:
        print(
            f"note: the rows of the backup could not be read ({error}): run "
            + bot_command("check", backup_file)
        )
        return
    found = []
    if rows:
        found.append(f"{len(rows)} damaged player row{'s' if len(rows) > 1 else ''}")
    if settings:
        whose = "servers'" if len(settings) > 1 else "server's"
        found.append(f"{len(settings)} {whose} damaged settings")
    if found:
        print(
            f"note: the backup holds {' and '.join(found)}, as the database does. Run "
            f"{bot_command('check', database)} for the whole report"
        )


_DAMAGED_SHOWN = 5
"""Damaged games a backup's note names (``check`` lists them all)."""


def restore_command(database: Path, source: Path) -> int:
    """``python -m bot restore FILE``: put a checked backup back while the bot is stopped."""
    before = _file_id(database)

    def left() -> str:
        # The database is set aside and the copy put in place at once (never one of the
        # two alone), so it is either the one from before or the restored one.
        if _file_id(database) == before:
            return f"the database {database} is as it was"
        return f"{database} was restored from {source} but not checked: run " + bot_command(
            "check", database
        )

    return _stoppable("restore", lambda: _restore(database, source), left)


def _file_id(path: Path) -> tuple[int, int] | None:
    """Which file is at ``path`` (device and inode), if any."""
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _restore(database: Path, source: Path) -> int:
    try:
        refuse_folder(database)
        existed = database.exists()
        with opening_database(database):
            copied = restore(source, database)
    except BackupError as error:
        return report(Failure(EXIT_DATABASE, f"restore refused: {error}", error.hint))
    except Failure as failure:
        return report(failure)
    print(
        f"restored {copied.target} from {copied.source}: schema version "
        f"{copied.schema_version}, {copied.bytes} bytes"
    )
    if copied.schema_version < LATEST:
        print(
            f"note: the backup's schema version {copied.schema_version} is older than this "
            f"bot's {LATEST}: the bot brings it up to date when it starts, and older versions "
            "of the bot cannot read it then"
        )
    if not existed:
        # A fresh machine's first database, or a typo: either way, the operator should know.
        print(
            f"note: no database was there, so {copied.target} is a new file; if the bot's "
            "database is elsewhere, restore again with its path (DATABASE_PATH or --db)"
        )
    if copied.aside_damaged:
        print(f"the damaged database it replaced was kept as {copied.aside}")
    elif copied.aside is not None:
        print(
            f"the database it replaced was kept as {copied.aside}, with every action since "
            "the backup: delete it once the restored database serves"
        )
    # What check would say of it: a backup taken after the damage holds it too.
    checked = _full_health(database)
    if isinstance(checked, Failure):
        print(f"wizard bot: restored, but not checked: {checked.line()}", file=sys.stderr)
    elif not checked.healthy:
        print("\n".join(checked.lines()))
        return EXIT_DAMAGED_GAMES
    elif checked.attention:  # restored, but the disk is almost full, say
        print("\n".join(checked.lines()))
    return EXIT_OK


def check_command(database: Path) -> int:
    """``python -m bot check``: the health report; 0 healthy, 3 unsound file, 5 damaged games,
    6 the operator must act (a write-ahead log that cannot shrink, an almost full disk, no
    room to try the games)."""
    return _stoppable("check", lambda: _check(database), lambda: "nothing was changed")


def _check(database: Path) -> int:
    try:
        refuse_folder(database)
    except Failure as failure:
        return report(failure)
    orphan = log_without_database(database)
    if orphan is not None:
        return report(database_failure(database, orphan))
    if not database.is_file():
        return report(
            Failure(EXIT_DATABASE, f"no database at {database}", "check DATABASE_PATH or --db")
        )
    health = _full_health(database)
    if isinstance(health, Failure):
        return report(health)
    print("\n".join(health.lines()))
    if not health.sound:
        return EXIT_DATABASE
    if not health.healthy:
        return EXIT_DAMAGED_GAMES
    return EXIT_ATTENTION if health.attention else EXIT_OK


def _stoppable(command: str, run: Callable[[], int], left: Callable[[], str]) -> int:
    """``run`` the operator's ``command``; stopped by Ctrl-C, or by SIGTERM (``docker stop``,
    a job's time limit) or SIGHUP (the terminal closed, an SSH session dropped) as Ctrl-C
    stops it, with :class:`KeyboardInterrupt`, so that whatever it was writing is removed,
    it says in one line what it ``left``. The exit status is then the one a shell reports
    for a command the signal ended (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP)."""
    received: list[int] = []

    def stop(signum: int, frame: object) -> None:
        if received:
            return  # a second SIGTERM (`timeout` sends two) must not cut the clean-up short
        received.append(signum)
        raise KeyboardInterrupt

    before = caught(stop, signal.SIGTERM, signal.SIGHUP)
    try:
        return run()
    except KeyboardInterrupt:
        how = signal.Signals(received[0]).name if received else "Ctrl-C"
        # After a hang-up the terminal may be gone: the status still says what happened.
        with contextlib.suppress(OSError):
            print(
                f"wizard bot: {command} stopped by {how} before its end: {left()}.",
                file=sys.stderr,
            )
        return 128 + (received[0] if received else signal.SIGINT)
    finally:
        put_back(before)


def _full_health(database: Path) -> Health | Failure:
    """The health report of ``check``: the file, and (if it is sound) the players' rows and
    every game loaded on a copy; a :class:`Failure` if the file cannot be read."""
    try:
        health = check(database)
        if not health.sound:
            return health
        rows, settings = _damaged_rows(database)
        health = dataclasses.replace(health, damaged_rows=rows, damaged_settings=settings)
    except (sqlite3.Error, OSError) as error:
        return database_failure(database, error)
    try:
        return _with_unloadable(health)
    except (BackupError, DatabaseUnavailable, sqlite3.Error, OSError) as error:
        # What the file showed is reported all the same (review: damage found was hidden
        # behind it).
        return dataclasses.replace(health, untried=f"{_untried(error)}, then run check again")


def _untried(error: Exception) -> str:
    """Why the games could not be tried on a temporary copy (:func:`_unloadable`), with
    what to do: the copy's fault is not a backup's the operator asked for (QA: "cannot
    write the backup /tmp/…/copy.db")."""
    cause = error.cause if isinstance(error, BackupError) and error.cause else str(error)
    return (
        f"cannot try them on a temporary copy in {tempfile.gettempdir()} ({cause}): free space "
        "there, or choose another folder with TMPDIR"
    )


def _damaged_rows(database: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The players' rows and the servers' settings that fail validation."""
    conn = open_readonly(database)
    try:
        return tuple(damaged_player_rows(conn)), tuple(damaged_settings_rows(conn))
    finally:
        conn.close()


FINISHED_GAME_SECONDS = 0.009
"""About how long ``check`` takes to read one finished game (measured: 8-9 ms)."""


def _with_unloadable(health: Health) -> Health:
    """``health`` with the games the bot could not load added to the damaged ones: a game
    is loaded only when first used, so the file alone does not show them."""
    finished = health.games_by_status.get("finished", 0)
    if finished * FINISHED_GAME_SECONDS >= 5:  # QA: 28 s of silence for 3,000 games
        minutes = finished * FINISHED_GAME_SECONDS / 60
        took = f"about {minutes:.0f} min" if minutes >= 1 else "under a minute"
        print(f"reading {finished} finished games ({took}; Ctrl-C stops it)", file=sys.stderr)
    found = _unloadable(health.path, finished=True)
    return dataclasses.replace(
        health,
        damaged=tuple(sorted(health.damaged + tuple((g.game, g.reason) for g in found))),
        unloadable=frozenset(g.game for g in found if not g.finished),
        unshowable=frozenset(g.game for g in found if g.finished),
        games_tried=True,
    )


def _unloadable(database: Path, *, finished: bool = False) -> list[Unloadable]:
    """The open games (and with ``finished`` the finished ones) of ``database`` that cannot
    be loaded, tried on a temporary copy."""
    # What the service logs while it sets games of the copy aside is not about the file.
    quiet = logging.getLogger("wizard")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        with tempfile.TemporaryDirectory(prefix="wizard-check-") as folder:
            # The copy stops at once, leaving nothing (QA: a stop held back during it waited
            # seconds, minutes for a large file, and a supervisor's SIGKILL left the copy).
            copy = trial_copy(database, Path(folder))
            # A stop (Ctrl-C, SIGTERM, SIGHUP) waits until the open games are tried
            # (seconds), and the finished game being tried (the loop ends there): cut short,
            # the loop would close under database threads still at work, whose tracebacks
            # follow the one line, and a thread left waiting would keep the process from
            # ending.
            with signals_held() as came:
                return asyncio.run(unloadable_games(copy, finished=finished, stop=came))
    finally:
        quiet.setLevel(level)


async def log_health(database: Path, checked: Sequence[str] | None = None) -> Health | None:
    """Log the health report of the open database at start (warnings if not healthy, or if
    it needs the operator's attention);
    ``checked``: the store's own quick check at open, reused rather than run again."""
    try:
        health = await asyncio.to_thread(check, database, checked=checked)
    except (sqlite3.Error, OSError) as error:
        log.warning("health check of %s failed: %s", database, error)
        return None
    # An almost full disk, or a stuck write-ahead log, is worth a warning too.
    level = logging.INFO if health.healthy and not health.attention else logging.WARNING
    for line in health.lines():
        log.log(level, "health: %s", line)
    return health
