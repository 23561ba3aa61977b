"""Exit statuses of ``python -m bot`` and ``python -m bot demo``: one line, a hint, no traceback.

Real processes against real files: a database from a newer version, one in a read-only
folder, a file that is no database; and Discord out of reach or refusing the token.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from bot.exits import (
    EXIT_ATTENTION,
    EXIT_DATABASE,
    EXIT_NETWORK,
    EXIT_OK,
    EXIT_REFUSED,
    database_failure,
    network_failure,
)
from tests.ops_support import (
    FAKE_TOKEN,
    PROCESS_TIMEOUT,
    assert_one_line_failure,
    bot_against,
    clean_env,
    database_held,
    failure_after_log,
    free_port,
    log_left_at,
    make_database,
    make_future_schema,
    run_bot,
    run_bot_against,
    run_bot_on_a_small_disk,
)
from wizard.store import MigrationError
from wizard.store.migrations import LATEST


def _future(folder: Path) -> Path:
    db = folder / "future.db"
    make_database(db)
    make_future_schema(db)
    return db


def _not_a_database(folder: Path) -> Path:
    db = folder / "notes.db"
    db.write_text("These are my notes, not a database. " * 50, encoding="utf-8")
    return db


@contextlib.contextmanager
def read_only(tmp_path: Path, part: str) -> Iterator[tuple[Path, list[str]]]:
    """A database whose ``part`` ("folder" or "file") its process may not write to, and the
    command prefix that runs a child so. Root may write anywhere: as root that part is
    mounted read-only in a mount namespace of the child's own (a real read-only file
    system); otherwise its permissions forbid writing. SQLite opens a file it may not write
    read-only without a word, so the file alone is a case of its own."""
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "wizard.db"
    make_database(db)
    locked = folder if part == "folder" else db
    prefix: list[str] = []
    if os.geteuid() == 0:
        script = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"'
        prefix = ["unshare", "-m", "sh", "-c", script, str(locked)]
        probe = subprocess.run(
            [*prefix, "sh", "-c", f'[ ! -w "{locked}" ]'],
            capture_output=True,
            timeout=PROCESS_TIMEOUT,
            check=False,
        )
        if probe.returncode != 0:
            pytest.skip(f"cannot mount a read-only {part} here")
    else:
        locked.chmod(0o555 if part == "folder" else 0o444)
    try:
        yield db, prefix
    finally:
        locked.chmod(0o755 if part == "folder" else 0o644)


CASES: dict[str, Callable[[Path], Path]] = {
    "future schema": _future,
    "not a database": _not_a_database,
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_demo_on_an_unusable_database_exits_3_in_one_line(tmp_path: Path, case: str) -> None:
    db = CASES[case](tmp_path)
    before = db.read_bytes()
    result = run_bot("demo", "--db", str(db), cwd=tmp_path)
    line = assert_one_line_failure(result, EXIT_DATABASE)
    assert str(db) in line
    assert "restore" in line.lower()  # the hint
    assert db.read_bytes() == before  # nothing was written to it


@pytest.mark.parametrize("case", sorted(CASES))
def test_bot_on_an_unusable_database_exits_3_in_one_line(tmp_path: Path, case: str) -> None:
    db = CASES[case](tmp_path)
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(db))
    result = run_bot(cwd=tmp_path, env=env)
    line = assert_one_line_failure(result, EXIT_DATABASE)
    assert str(db) in line
    assert FAKE_TOKEN not in result.stdout + result.stderr


def test_a_file_that_is_no_database_asks_first_whether_the_path_is_right(
    tmp_path: Path,
) -> None:
    # Operator QA: a text file or a -shm named by mistake read only as damage to restore.
    db = _not_a_database(tmp_path)
    line = assert_one_line_failure(run_bot("check", "--db", str(db), cwd=tmp_path), 3)
    assert "Is DATABASE_PATH (or --db) right? If it is, the file is damaged" in line, line


def test_future_schema_says_a_newer_version_wrote_it(tmp_path: Path) -> None:
    db = _future(tmp_path)
    line = assert_one_line_failure(run_bot("demo", "--db", str(db), cwd=tmp_path), 3)
    assert "newer version" in line
    # Operator QA: "schema version(s) [14]", a Python list, and not the version it knows.
    assert f"has schema version {LATEST + 1}, " in line, line
    assert f"this version of the bot knows versions up to {LATEST}" in line, line


def _on_database(
    command: str, db: Path, cwd: Path, prefix: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` (``run``: the bot, with a token) or ``python -m bot COMMAND`` on the
    database ``db``, in ``cwd``, run by the command prefix ``prefix`` if given."""
    args = [command, "--db", str(db)] if command != "run" else []
    return subprocess.run(
        [*prefix, sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(db)),
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT,
        check=False,
    )


@pytest.mark.parametrize("part", ["folder", "file"])
@pytest.mark.parametrize("command", ["demo", "run"])
def test_a_database_the_bot_cannot_write_exits_3(tmp_path: Path, command: str, part: str) -> None:
    with read_only(tmp_path, part) as (db, prefix):
        line = assert_one_line_failure(_on_database(command, db, tmp_path, prefix), EXIT_DATABASE)
        assert str(db) in line
        assert "read-only" in line


def test_a_first_start_on_a_full_disk_says_the_disk_is_full(tmp_path: Path) -> None:
    """The disk filled up while the new database got its tables, and the bot said "cannot
    rollback - no transaction is active": SQLite had rolled back by itself, and the second
    rollback's error hid the first one's. (A full disk is SQLite's "disk is full"; a limit of
    the file size, which a test can set, is a write error, whose hint names a full disk too.)"""
    db = tmp_path / "wizard.db"
    # Room for the file's header and the shared-memory index (32 KiB), not for the tables.
    result = run_bot_on_a_small_disk(40_000, "demo", "--db", str(db), cwd=tmp_path)
    line = assert_one_line_failure(result, EXIT_DATABASE)
    assert "rollback" not in line and "full" in line, line


def test_discord_out_of_reach_exits_4(tmp_path: Path) -> None:
    # Nothing listens on the port: the connection is refused at once.
    result = run_bot_against(f"http://127.0.0.1:{free_port()}/api/v10", tmp_path)
    last = failure_after_log(result, EXIT_NETWORK)
    assert last.startswith("wizard bot: cannot reach Discord"), last


def _answering(status: int, body: bytes, kind: str) -> type[BaseHTTPRequestHandler]:
    class Answer(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    return Answer


def _bot_against_answer(tmp_path: Path, handler: type[BaseHTTPRequestHandler]) -> Any:
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        return run_bot_against(f"http://127.0.0.1:{server.server_port}/api/v10", tmp_path)
    finally:
        server.shutdown()
        server.server_close()


def test_discord_refusing_the_token_exits_1(tmp_path: Path) -> None:
    refused = _answering(401, b'{"message": "401: Unauthorized", "code": 0}', "application/json")
    result = _bot_against_answer(tmp_path, refused)
    last = failure_after_log(result, EXIT_REFUSED)
    assert "refused the token" in last


def test_discord_banning_this_machine_for_too_many_requests_says_to_wait(
    tmp_path: Path,
) -> None:
    # QA: Cloudflare's ban of an address that restarted the bot in a loop (HTTP 429, a text
    # body) ended in a traceback, with the status of a refused token.
    banned = _answering(429, b"error code: 1015", "text/plain")
    result = _bot_against_answer(tmp_path, banned)
    last = failure_after_log(result, EXIT_NETWORK)
    assert last.startswith("wizard bot: Discord is limiting this machine's requests"), last
    assert "Wait an hour" in last and "restart" in last, last


def test_discord_refusing_the_bot_otherwise_exits_1_in_one_line(tmp_path: Path) -> None:
    page = b"<!DOCTYPE html><html><head><title>Forbidden</title></head>" + b"x" * 3000
    result = _bot_against_answer(tmp_path, _answering(403, page, "text/html"))
    last = failure_after_log(result, EXIT_REFUSED)
    assert last.startswith("wizard bot: Discord refused the bot's request (403 Forbidden)"), last
    assert len(last) < 400, last  # not the whole page


def test_a_page_answering_in_discords_place_exits_4_in_one_line(tmp_path: Path) -> None:
    # QA: a captive portal (or a proxy's sign-in page) answering Discord's address with 200
    # and a page ended the start in a TypeError traceback from inside discord.py.
    page = b"<!DOCTYPE html><html><head><title>Sign in to the Wi-Fi</title></head>" + b"x" * 3000
    result = _bot_against_answer(tmp_path, _answering(200, page, "text/html"))
    last = failure_after_log(result, EXIT_NETWORK)
    assert last.startswith("wizard bot: cannot reach Discord: "), last
    assert "not Discord" in last and "proxy" in last, last
    assert len(last) < 400, last  # not the whole page


def test_a_silent_discord_is_told_while_the_bot_waits(tmp_path: Path) -> None:
    # QA: when Discord's address took the connection and never answered, the bot said
    # nothing for five minutes (aiohttp's limit) after "logging in using static token".
    silent = socket.create_server(("127.0.0.1", 0))  # the kernel accepts; nobody answers
    base = f"http://127.0.0.1:{silent.getsockname()[1]}/api/v10"
    command, env = bot_against(base, tmp_path, notice_seconds=0.5)
    with (
        silent,
        subprocess.Popen(command, cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True) as proc,
    ):
        assert proc.stderr is not None
        try:
            # Read until the notice; without one, until the bot gives up (five minutes).
            heard = next((line for line in proc.stderr if "has not answered" in line), "")
        finally:
            proc.kill()
    assert "WARNING" in heard, heard
    assert "Discord has not answered for 0.5 s" in heard and "5 minutes" in heard, heard
    assert FAKE_TOKEN not in heard


def test_demo_on_a_database_locked_by_another_process_exits_3(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db)
    with database_held(db, write=True):  # another process in the middle of a write
        result = run_bot("demo", "--db", str(db), cwd=tmp_path)
    line = assert_one_line_failure(result, EXIT_DATABASE)
    assert "locked" in line
    assert "another process" in line.lower()


def _undecodable_row(tmp_path: Path) -> BaseException:
    conn = sqlite3.connect(tmp_path / "bad-text.db")
    try:
        conn.execute("CREATE TABLE t (x TEXT)")
        conn.execute("INSERT INTO t VALUES (CAST(X'7B2276223AFF7D' AS TEXT))")
        conn.execute("SELECT x FROM t").fetchall()
    except sqlite3.Error as error:
        return error
    finally:
        conn.close()
    raise AssertionError("the row decoded")


def _ioerr() -> sqlite3.OperationalError:
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorname = "SQLITE_IOERR_SHORT_READ"  # as sqlite3 sets it
    return error


def test_each_cause_gets_its_own_hint(tmp_path: Path) -> None:
    newer = MigrationError(
        "the database has schema version 9, written by a newer version of the bot"
    )
    causes = {
        "newer version": newer,
        "damaged": _undecodable_row(tmp_path),
        "permissions": PermissionError(13, "Permission denied"),
        # QA operator: both were told to check permissions.
        "open files": OSError(errno.EMFILE, "Too many open files"),
        "failed to read or write": _ioerr(),
    }
    for expected, error in causes.items():
        failure = database_failure("w.db", error)
        assert failure.status == EXIT_DATABASE
        assert expected in failure.line(), (expected, failure.line())
        assert "\n" not in failure.line()


def test_a_silent_discord_is_told_as_a_timeout_not_a_bare_exception_name() -> None:
    """QA: an endpoint that never answered gave "cannot reach Discord: TimeoutError"."""
    failure = network_failure(TimeoutError())
    assert failure.line().startswith(
        "cannot reach Discord: Discord did not answer (the connection timed out). Check "
    ), failure.line()


def test_ctrl_c_while_a_command_loads_ends_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Operator QA: Ctrl-C in the first half second of `python -m bot backup` (while Python
    loads what the command needs) ended in a KeyboardInterrupt traceback, where the README
    promises one line. The line says nothing was done; the status is a shell's for SIGINT."""
    from bot.__main__ import launch

    def loading() -> int:
        raise KeyboardInterrupt

    assert launch(loading) == 130
    captured = capsys.readouterr()
    assert captured.err == "wizard bot: stopped (Ctrl-C) before it began: nothing was done\n"
    assert captured.out == ""


@pytest.mark.parametrize("command", ["demo", "run", "check"])
def test_a_log_left_without_its_database_is_not_replayed_into_a_new_one(
    tmp_path: Path, command: str
) -> None:
    """Operator QA: wizard.db moved or deleted without its -wal and -shm; the bot's next
    start made a new database and SQLite replayed the old log's pages into it, which no
    one was told of (check said "no database"). Each now names the log and what to do."""
    db = tmp_path / "wizard.db"
    log_left_at(db)
    line = assert_one_line_failure(_on_database(command, db, tmp_path), EXIT_DATABASE)
    assert f"{db}-wal is there without wizard.db" in line, line
    assert "move its -wal and -shm with it" in line, line
    assert not db.exists()


def _on_a_full_disk(tmp_path: Path) -> tuple[Path, list[str]]:
    """A bot database on a disk with no byte free, and the command prefix that runs a child
    so: a small tmpfs mounted in a mount namespace of the child's own (root only), the
    database copied in, the rest filled up."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small disk needs root")
    source = tmp_path / "source.db"
    make_database(source, games=1)
    disk = tmp_path / "disk"
    disk.mkdir()
    script = (
        'mount -t tmpfs -o size=600k tmpfs "$0" && cp "$1" "$0/wizard.db" && '
        '{ dd if=/dev/zero of="$0/filler" bs=1k 2>/dev/null; true; } && shift && exec "$@"'
    )
    prefix = ["unshare", "-m", "sh", "-c", script, str(disk), str(source)]
    probe = subprocess.run(
        [*prefix, "sh", "-c", f'[ "$(df -k --output=avail "{disk}" | tail -1)" -eq 0 ]'],
        capture_output=True,
        timeout=PROCESS_TIMEOUT,
        check=False,
    )
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a full disk here: {probe.stderr.strip()}")
    return disk / "wizard.db", prefix


def test_a_database_on_a_full_disk_is_checked_backed_up_and_said_to_be_on_a_full_disk(
    tmp_path: Path,
) -> None:
    """Operator QA: on a full disk, check, backup and the demo all said "disk I/O error" and
    to check the folder's permissions: check never reached its free-space line, and no
    backup could be taken off the disk. A reader of a stopped bot's database needs no room
    (it reads the file as it is); a start says the disk is full."""
    db, prefix = _on_a_full_disk(tmp_path)
    check = run_bot("check", "--db", str(db), cwd=tmp_path, as_user=prefix)
    assert "Traceback" not in check.stderr, check.stderr
    assert check.returncode == EXIT_ATTENTION, check.stdout + check.stderr
    assert "free on its disk 0 B" in check.stdout, check.stdout
    copy = tmp_path / "copy.db"
    backup = run_bot("backup", "--db", str(db), str(copy), cwd=tmp_path, as_user=prefix)
    assert backup.returncode == EXIT_OK, backup.stdout + backup.stderr
    assert copy.is_file()
    demo = run_bot("demo", "--db", str(db), cwd=tmp_path, as_user=prefix)
    line = assert_one_line_failure(demo, EXIT_DATABASE)
    assert "disk" in line and "is full" in line and "permissions" not in line, line


def test_a_hint_names_only_the_setting_the_command_reads(tmp_path: Path) -> None:
    """Operator QA: the bot's start, which has no --db, said "set DATABASE_PATH (or --db) to
    a file in it", and the demo, which reads no settings, named DATABASE_PATH. The bot and
    config name DATABASE_PATH, the demo --db; check, backup and restore take both."""
    folder = tmp_path / "data"
    folder.mkdir()
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(folder))
    for args in ((), ("config",)):
        line = assert_one_line_failure(run_bot(*args, cwd=tmp_path, env=env), EXIT_DATABASE)
        assert "Set DATABASE_PATH to a file in it" in line, (args, line)
    demo = run_bot("demo", "--db", str(folder), cwd=tmp_path)
    line = assert_one_line_failure(demo, EXIT_DATABASE)
    assert "Set --db to a file in it" in line, line
    check = run_bot("check", "--db", str(folder), cwd=tmp_path)
    line = assert_one_line_failure(check, EXIT_DATABASE)
    assert "Set DATABASE_PATH (or --db) to a file in it" in line, line
