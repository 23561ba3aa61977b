"""Helpers of the operations tests: real ``python -m bot`` processes and real database files."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bot.settings import ENV_FILE_VARIABLE, ENV_NAMES
from wizard.service import GameService
from wizard.store import LATEST

ROOT = Path(__file__).resolve().parents[1]
FAKE_TOKEN = "MTAxNzQ5ODc2NTQzMjEwOTg3Ng.GhIjKl.FaKeTokenFaKeTokenFaKeToken_12345"
PROCESS_TIMEOUT = 300
"""Only a guard against a hung process: a loaded machine may take tens of seconds to start
one (imports of discord.py and SimCord), and no test depends on how long it takes."""


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a child bot: no inherited settings, no .env, this checkout first."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ENV_NAMES.values() and k != ENV_FILE_VARIABLE
    }
    env["PYTHONPATH"] = str(ROOT)
    env[ENV_FILE_VARIABLE] = ""
    env.update(extra)
    return env


def run_bot(
    *args: str,
    cwd: Path,
    env: dict[str, str] | None = None,
    as_user: Sequence[str] = (),
    **kwargs: Any,
) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` as a child process (run by the command prefix ``as_user``, if
    given); its output as text."""
    return subprocess.run(
        [*as_user, sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean_env() if env is None else env,
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT,
        check=False,
        **kwargs,
    )


def run_bot_on_a_small_disk(
    limit: int, *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """:func:`run_bot` in a child whose files cannot grow past ``limit`` bytes, as on a disk
    that fills up. The child writes no bytecode: a ``.pyc`` cut short at the limit would be
    left in the source tree, and break every later import of its module."""

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {**(clean_env() if env is None else env), "PYTHONDONTWRITEBYTECODE": "1"}
    return run_bot(*args, cwd=cwd, env=env, preexec_fn=small_disk)


def make_database(path: Path, *, games: int = 0, first_channel: int = 2000) -> None:
    """A database of this bot at ``path`` with ``games`` more open lobbies, one per channel
    from ``first_channel`` on."""

    async def build() -> None:
        service = await GameService.open(path)
        try:
            for n in range(games):
                await service.create_game(
                    guild_id=1000, channel_id=first_channel + n, host_id=1, host_name="Ann", seed=n
                )
        finally:
            await service.close()

    asyncio.run(build())


def log_left_at(where: Path) -> None:
    """A ``-wal`` and ``-shm`` at ``where``'s, as a database moved or deleted without them
    leaves them: its last change (every game deleted) is in the log only."""
    db = where.with_name(f"{where.name}.scratch")
    make_database(db, games=1)
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        conn.execute("DELETE FROM games")
        for end in ("-wal", "-shm"):
            where.with_name(where.name + end).write_bytes(db.with_name(db.name + end).read_bytes())
    finally:
        conn.close()
    db.unlink()


def damage_games_table(path: Path) -> None:
    """Damage a closed database: the games table's first page gets a page type that does not
    exist and a cell count too large (what ``quick_check`` reports and nothing can read)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = DELETE")  # everything in the one file
    (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
    conn.close()
    data = bytearray(path.read_bytes())
    start = (root - 1) * 4096
    data[start : start + 8] = b"\x07\xff\xff\xff\xff\xff\xff\xff"
    path.write_bytes(bytes(data))


def make_future_schema(path: Path) -> None:
    """Mark ``path`` as written by a newer bot, in both ways a runner may record it."""
    conn = sqlite3.connect(path)
    try:
        conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 0)",
            (LATEST + 1,),
        )
        conn.execute(f"PRAGMA user_version = {LATEST + 1}")
        conn.commit()
    finally:
        conn.close()


def assert_one_line_failure(result: subprocess.CompletedProcess[str], status: int) -> str:
    """The process exited with ``status`` and said why in one line, with no traceback."""
    assert result.returncode == status, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("wizard bot: "), lines[0]
    return lines[0]


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bot_against(
    base: str, tmp_path: Path, *, env: dict[str, str] | None = None, notice_seconds: float = 0
) -> tuple[list[str], dict[str, str]]:
    """The command and environment of ``python -m bot`` with a valid-looking token and
    Discord's API at ``base``; ``env`` replaces :func:`clean_env`'s environment (the token and
    database are added to it); ``notice_seconds``, if given, replaces the 20 s after which a
    silent Discord is told at login."""
    code = f"import sys, discord.http, bot.cli, bot.start\ndiscord.http.Route.BASE = {base!r}\n"
    if notice_seconds:
        code += f"bot.start.LOGIN_NOTICE_SECONDS = {notice_seconds!r}\n"
    code += "sys.exit(bot.cli.main([]))\n"
    env = {
        **(clean_env() if env is None else env),
        "DISCORD_TOKEN": FAKE_TOKEN,
        "DATABASE_PATH": str(tmp_path / "wizard.db"),
    }
    return [sys.executable, "-c", code], env


def run_bot_against(
    base: str, tmp_path: Path, *, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """:func:`bot_against`, run to its end."""
    command, env = bot_against(base, tmp_path, env=env)
    return subprocess.run(
        command,
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT,
        check=False,
    )


def failure_after_log(result: subprocess.CompletedProcess[str], status: int) -> str:
    """The last line of a bot that exited with ``status`` after logging its start: no
    traceback, and the token nowhere."""
    assert result.returncode == status, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    assert FAKE_TOKEN not in result.stderr
    return result.stderr.strip().splitlines()[-1]


_HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "write":
    conn.execute("BEGIN EXCLUSIVE")
else:
    conn.execute("SELECT COUNT(*) FROM games").fetchone()
print("holding", flush=True)
sys.stdin.read()
"""


@contextlib.contextmanager
def database_held(path: Path, *, write: bool = False) -> Iterator[int]:
    """Another process has the database at ``path`` open while the block runs: idle, no
    transaction (an idle bot); or, with ``write``, in the middle of a write, holding the write
    lock. The block starts once the child says it holds the file (a readiness line, not a
    sleep), and is given its process id; the child lets go and exits when the block ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(path), "write" if write else "open"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "holding", "the holder process failed"
        yield holder.pid
    finally:
        holder.communicate("", timeout=PROCESS_TIMEOUT)


def sqlite_file(path: Path, *tables: str) -> None:
    """A SQLite file at ``path`` with these (empty) tables: none, a file with no tables that
    is no longer empty, as ``sqlite3 wrong.db`` and a dropped table leave one."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE scratch (a)")
    conn.execute("DROP TABLE scratch")
    for table in tables:
        conn.execute(f"CREATE TABLE {table} (a)")
    conn.commit()
    conn.close()
