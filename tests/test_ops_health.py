"""``python -m bot check`` and the health summary the bot logs at start."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import signal
import sqlite3
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiosqlite
import pytest

from bot import ops
from bot.exits import EXIT_ATTENTION, EXIT_DAMAGED_GAMES, EXIT_DATABASE, EXIT_OK, Failure
from bot.settings import Settings
from bot.start import open_service
from tests.damage_support import damage_a_page_of, run_sql, running_games
from tests.ops_support import (
    assert_one_line_failure,
    damage_games_table,
    free_port,
    make_database,
    make_future_schema,
    run_bot,
    run_bot_against,
    sqlite_file,
)
from tests.service.conftest import new_game, play_out
from wizard.service import GameService, ServiceConfig
from wizard.service.health import trial_copy, unloadable_games
from wizard.store import LATEST, health
from wizard.store import db as store_db
from wizard.store.health import check


def _set_aside(path: Path, game_id: int, reason: str) -> None:
    """Mark a game damaged the way the store does today."""
    conn = sqlite3.connect(path)
    try:
        conn.execute(
            "UPDATE games SET status = 'broken', broken_reason = ? WHERE id = ?",
            (reason, game_id),
        )
        conn.commit()
    finally:
        conn.close()


def test_a_healthy_database_reports_everything_and_exits_0(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db, games=3)
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_OK, result.stderr
    out = result.stdout
    assert f"schema version: {LATEST}" in out
    assert "integrity: ok" in out
    assert "games: 3 lobby" in out
    assert "damaged games: 0" in out
    assert "write-ahead log" in out
    assert out.strip().endswith("healthy")


def test_check_counts_the_open_hands_whose_tokens_the_file_keeps(tmp_path: Path) -> None:
    """Operator QA: the file keeps, for 15 minutes, the Discord tokens of the private hands
    open (so that a restarted bot goes on editing them), and check said nothing of them:
    what a backup taken now would hold. Tokens past their time are not counted."""
    db = tmp_path / "wizard.db"
    make_database(db, games=1)
    now = time.time()
    conn = sqlite3.connect(db)
    try:
        conn.executemany(
            "INSERT INTO open_hands VALUES (1, ?, 100, 'secret', 'en-US', ?)",
            [(1, now + 600), (2, now - 60)],
        )
        conn.commit()
    finally:
        conn.close()
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_OK, result.stderr
    until = time.strftime("%H:%M UTC", time.gmtime(now + 600))
    line = f"open hands: 1 (their Discord tokens are kept in this file until {until})"
    assert line in result.stdout.splitlines(), result.stdout
    assert "secret" not in result.stdout


def test_damaged_games_are_listed_with_their_reasons_and_exit_5(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db, games=3)
    _set_aside(db, 2, "log shorter than the recorded version (12 < 15)")
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DAMAGED_GAMES, result.stderr
    assert "damaged games: 1" in result.stdout
    assert "game 2: log shorter than the recorded version (12 < 15)" in result.stdout
    assert "games: 1 broken, 2 lobby" in result.stdout
    assert "NOT healthy" in result.stdout


def test_a_reason_that_is_not_valid_text_is_still_reported(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db, games=1)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE games SET status = 'broken', broken_reason = CAST(X'6261649F' AS TEXT)")
    conn.commit()
    conn.close()
    health = check(db)
    assert len(health.damaged) == 1
    assert health.damaged[0][1].startswith("bad")


def test_a_future_schema_is_unhealthy(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db)
    make_future_schema(db)
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DATABASE
    assert "newer than this bot's" in result.stdout


def test_a_file_that_is_no_database_exits_3_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    db.write_text("hello " * 1000, encoding="utf-8")
    assert_one_line_failure(run_bot("check", "--db", str(db), cwd=tmp_path), EXIT_DATABASE)


def test_a_missing_database_is_not_created(tmp_path: Path) -> None:
    db = tmp_path / "nothing.db"
    assert_one_line_failure(run_bot("check", "--db", str(db), cwd=tmp_path), EXIT_DATABASE)
    assert not db.exists()


def test_a_damaged_file_fails_the_integrity_check(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db, games=40)
    damage_games_table(db)
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DATABASE
    assert "Traceback" not in result.stderr


def test_a_bad_page_the_check_cannot_step_over_is_reported_not_a_dead_end(
    tmp_path: Path,
) -> None:
    """Operator QA: on a file with a bad page SQLite's quick_check itself fails ("database
    disk image is malformed"), and check printed only "cannot use the database", though the
    bot's log sent the operator to check for what it found; backup then gave no way to keep
    the file as it is. Both now report the finding."""
    db = tmp_path / "wizard.db"
    asyncio.run(running_games(db, games=8, moves=45, seed=60, guild=200))
    damage_a_page_of(db, "actions")
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DATABASE, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "integrity: 1 problem found by SQLite's check:" in lines, result.stdout
    assert "  database disk image is malformed" in lines
    assert "games: 8 active" in lines
    assert lines[-1].startswith("NOT healthy: SQLite finds the file damaged"), lines[-1]
    assert "python -m bot restore" in lines[-1]
    copied = run_bot("backup", "--db", str(db), str(tmp_path / "copy.db"), cwd=tmp_path)
    line = assert_one_line_failure(copied, EXIT_DATABASE)
    assert "fails SQLite's integrity check: database disk image is malformed" in line, line
    assert "To keep it as it is all the same, stop the bot, then copy" in line, line
    assert not (tmp_path / "copy.db").exists()


def test_a_file_failing_its_check_does_not_count_damaged_games(tmp_path: Path) -> None:
    """Games of a file that fails its check are not tried: no "0" that reads as "none"."""
    failing = health.Health(
        path=tmp_path / "wizard.db",
        schema_version=LATEST,
        integrity=("row 7 missing from index games_by_channel",),
        games_by_status={"lobby": 2},
        damaged=(),
        database_bytes=8192,
        wal_bytes=0,
    )
    lines = failing.lines()
    assert "damaged games: 0" not in lines
    assert "damaged games: not counted (the file fails its check)" in lines
    assert lines[-1].startswith("NOT healthy")
    # One problem a line, under a line that counts them.
    at = lines.index("integrity: 1 problem found by SQLite's check:")
    assert lines[at + 1] == "  row 7 missing from index games_by_channel"


def test_an_older_schema_is_healthy_and_said_to_be_updated_at_start() -> None:
    # Operator QA: an old database read "healthy" with no word that the bot will migrate it.
    older = health.Health(
        path=Path("wizard.db"),
        schema_version=LATEST - 1,
        integrity=("ok",),
        games_by_status={},
        damaged=(),
        database_bytes=8192,
        wal_bytes=0,
    )
    lines = older.lines()
    assert (
        f"schema version: {LATEST - 1} (older than this bot's {LATEST}: the bot updates it"
        " when it starts)"
    ) in lines
    assert lines[-1] == "healthy"


def test_twenty_integrity_problems_may_be_more() -> None:
    report = ("*** in database main ***\n" + "\n".join(f"Page {p}: never used" for p in range(20)),)
    failing = health.Health(
        path=Path("wizard.db"),
        schema_version=LATEST,
        integrity=report,
        games_by_status={},
        damaged=(),
        database_bytes=8192,
        wal_bytes=0,
    )
    lines = failing.lines()
    assert "integrity: 20 problems found by SQLite's check (SQLite lists at most 20):" in lines
    assert "  Page 19: never used" in lines and not any("***" in line for line in lines)


def test_the_bot_logs_the_summary_at_start(tmp_path: Path) -> None:
    make_database(tmp_path / "wizard.db", games=2)
    # Discord out of reach: the bot opens the database, logs, then stops with status 4.
    result = run_bot_against(f"http://127.0.0.1:{free_port()}/api/v10", tmp_path)
    assert result.returncode == 4, result.stderr
    assert f"health: schema version: {LATEST}" in result.stderr
    assert "health: games: 2 lobby" in result.stderr
    assert "health: integrity: ok" in result.stderr
    # Operator QA: "damaged games: 1" at start, where check found five (games not yet used
    # are not tried at start): the count says so, and where the whole count is.
    # With the file named (QA operator: advice without --db acts on DATABASE_PATH's file).
    assert (
        "health: damaged games: 0 marked so far (a game is tried when it is first used;"
        f" python -m bot check --db {(tmp_path / 'wizard.db').absolute()} tries every one)"
    ) in result.stderr


async def test_start_up_runs_quick_check_once(tmp_path: Path, monkeypatch: Any) -> None:
    """The store checks the file when it opens; the start-up summary reuses that result."""
    db = tmp_path / "wizard.db"
    await asyncio.to_thread(make_database, db, games=2)  # it runs a loop of its own
    statements: list[str] = []
    real_connect, real_open_readonly = store_db.connect, health.open_readonly

    async def traced_connect(path: Path | str, **kwargs: Any) -> aiosqlite.Connection:
        conn = await real_connect(path, **kwargs)
        await conn.set_trace_callback(statements.append)
        return conn

    def traced_open_readonly(path: Path) -> sqlite3.Connection:
        conn = real_open_readonly(path)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr(store_db, "connect", traced_connect)
    monkeypatch.setattr(health, "open_readonly", traced_open_readonly)
    service, _ = await open_service(Settings(database_path=db, shard_count=1))
    integrity = service.store.integrity
    await service.close()
    checks = [s for s in statements if "quick_check" in s.lower()]
    assert len(checks) == 1, checks
    assert integrity == ("ok",)
    assert any("GROUP BY status" in s for s in statements)  # the summary did run


async def _start_on(db: Path, caplog: pytest.LogCaptureFixture) -> list[str]:
    """Open the service on ``db`` as the bot starts; the warnings of the ``bot`` log."""
    caplog.set_level(logging.INFO, logger="bot")
    service, _ = await open_service(Settings(database_path=db, shard_count=1))
    await service.close()
    return [r.getMessage() for r in caplog.records if r.name == "bot" and r.levelno >= 30]


async def test_starting_on_a_file_that_held_no_tables_warns_and_migrates_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "wrong.db"
    sqlite_file(db)
    warnings = await _start_on(db, caplog)
    found = [w for w in warnings if "existed empty: the bot created its tables in it" in w]
    assert len(found) == 1, warnings
    assert str(db) in found[0] and "DATABASE_PATH" in found[0]
    assert check(db).schema_version == LATEST  # migrated all the same


async def test_starting_on_another_program_s_database_is_refused_and_writes_nothing(
    tmp_path: Path,
) -> None:
    # Operator QA: the bot created its tables in another program's file (with a warning),
    # where demo, backup and restore refuse such a file.
    db = tmp_path / "places.sqlite"
    sqlite_file(db, "moz_places", "moz_bookmarks")
    before = db.read_bytes()
    with pytest.raises(Failure) as refused:
        await open_service(Settings(database_path=db, shard_count=1))
    assert refused.value.status == EXIT_DATABASE
    assert refused.value.line() == (
        f"{db} holds another program's database (tables: moz_bookmarks, moz_places), not the"
        " bot's. Is DATABASE_PATH right? The bot makes its own database in a new file."
    )
    assert db.read_bytes() == before


@pytest.mark.parametrize("case", ["missing", "empty", "the bot's"])
async def test_starting_on_a_new_or_the_bots_own_file_does_not_warn(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    # A missing or empty file is a first start (the bot makes an empty one itself before
    # its tables); only a file with content and none of the bot's tables is a likely slip.
    db = tmp_path / "wizard.db"
    if case == "empty":
        db.touch()
    elif case == "the bot's":
        await asyncio.to_thread(make_database, db, games=1)
    warnings = await _start_on(db, caplog)
    assert not [w for w in warnings if "existed but" in w], warnings


def _report(**fields: Any) -> health.Health:
    """A health report of a sound file of this version with nothing damaged, but ``fields``."""
    base = health.Health(
        path=Path("wizard.db"),
        schema_version=LATEST,
        integrity=("ok",),
        games_by_status={"active": 3},
        damaged=(),
        database_bytes=8192,
        wal_bytes=0,
    )
    return dataclasses.replace(base, **fields)


def test_a_write_ahead_log_past_its_limit_is_said_why() -> None:
    """QA: a write-ahead log another program kept from shrinking (a reader holding a
    transaction open) read as a size alone, "healthy". Still healthy (nothing is damaged or
    lost), but the report says what keeps it large."""
    big = _report(wal_bytes=461_452_392)
    lines = big.lines()
    at = lines.index("size: database 8.0 KiB, write-ahead log 440.1 MiB")
    assert lines[at + 1].startswith("  the write-ahead log is past its 64.0 MiB limit")
    assert "read transaction" in lines[at + 1]
    assert lines[-1] == "healthy, but the write-ahead log cannot shrink: see above"
    small = dataclasses.replace(big, wal_bytes=4096).lines()
    assert not any("past its" in line for line in small)
    assert small[-1] == "healthy"


def test_check_exits_6_while_the_write_ahead_log_cannot_shrink(tmp_path: Path) -> None:
    """QA operator: check exited 0 ("healthy") beside a write-ahead log of 591 MiB that a
    reader kept from shrinking; a monitor reading exit codes saw nothing. It keeps growing
    until the disk is full, so check says so with a status of its own."""
    db = tmp_path / "wizard.db"
    make_database(db, games=2)
    reader = sqlite3.connect(db, isolation_level=None)
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM games").fetchone()  # holds its snapshot
        writer.execute("CREATE TABLE pad (blob BLOB)")
        block = b"x" * (1 << 20)
        for _ in range(70):  # past the 64 MiB limit; no checkpoint can pass the reader
            writer.execute("INSERT INTO pad VALUES (?)", (block,))
        writer.execute("DROP TABLE pad")
        assert store_db.wal_path(db).stat().st_size > store_db.JOURNAL_SIZE_LIMIT
        result = run_bot("check", "--db", str(db), cwd=tmp_path)
    finally:
        reader.close()
        writer.close()
    assert result.returncode == EXIT_ATTENTION, result.stdout + result.stderr
    assert "the write-ahead log is past its 64.0 MiB limit" in result.stdout
    assert result.stdout.strip().endswith(
        "healthy, but the write-ahead log cannot shrink: see above"
    )


def _stopped_wal_database(folder: Path) -> Path:
    """A sound WAL database with no -wal beside it, as the bot leaves one when it stops."""
    db = folder / "wizard.db"
    make_database(db, games=2)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        conn.close()
    assert sorted(p.name for p in folder.iterdir()) == [db.name]
    return db


class _CannotOpen:
    """What SQLite gives for a WAL database on a read-only file system (EROFS), seen with a
    read-only bind mount: a connection whose first query fails, as no -shm index can be
    made beside the file."""

    def execute(self, *args: object) -> None:
        error = sqlite3.OperationalError("unable to open database file")
        error.sqlite_errorname = "SQLITE_CANTOPEN"
        raise error

    def close(self) -> None:
        pass


def _on_a_read_only_mount(monkeypatch: pytest.MonkeyPatch, folder: Path | None) -> None:
    """SQLite opens files as on a read-only file system, where only an immutable file can be
    read; ``folder`` is what the file system check finds read-only."""
    connect = health._connect

    def read_only_mount(uri: str) -> Any:
        return connect(uri) if "immutable=1" in uri else _CannotOpen()

    monkeypatch.setattr(health, "_connect", read_only_mount)
    monkeypatch.setattr(health, "_read_only_file_system", lambda place: place == folder)


def test_a_wal_database_on_a_read_only_file_system_is_read_as_immutable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA: a copy of wizard.db on a read-only mount was "not a usable database (unable to
    open database file)" for restore and check: the immutable retry was made only for
    SQLITE_READONLY_DIRECTORY (a folder this user may not write, EACCES)."""
    from bot import ops

    folder = tmp_path / "mount"
    folder.mkdir()
    db = _stopped_wal_database(folder)
    _on_a_read_only_mount(monkeypatch, folder)
    conn = health.open_readonly(db)
    try:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)
    finally:
        conn.close()
    assert ops.check_command(db) == EXIT_OK
    assert "healthy" in capsys.readouterr().out
    restored = tmp_path / "restored" / "wizard.db"
    assert ops.restore_command(restored, db) == EXIT_OK
    conn = sqlite3.connect(restored)
    try:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)
    finally:
        conn.close()


@pytest.mark.parametrize("log", [False, True], ids=["writable file system", "a -wal beside"])
def test_a_wal_database_is_read_as_immutable_only_where_nobody_can_write_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, log: bool
) -> None:
    """SQLITE_CANTOPEN has other causes: on a writable file system a writer could change
    the file under a reader that takes no locks; and an immutable read would miss what a
    -wal beside it holds."""
    db = _stopped_wal_database(tmp_path)
    if log:
        store_db.wal_path(db).write_bytes(b"")
    _on_a_read_only_mount(monkeypatch, tmp_path if log else None)
    with pytest.raises(sqlite3.OperationalError) as raised:
        health.open_readonly(db)
    assert raised.value.sqlite_errorname == "SQLITE_CANTOPEN"


async def _finished_games(path: Path, games: int) -> list[int]:
    """``games`` games of one person and two computers, played to their end."""
    svc = await GameService.open(path, config=ServiceConfig(computer_delay=0))
    try:
        ids = []
        for k in range(games):
            game_id = await new_game(svc, 1, 2, seed=70 + k, channel=k)
            await svc.start(game_id, 1)
            await play_out(svc, game_id, [1], random.Random(k))
            ids.append(game_id)
        return ids
    finally:
        await svc.close()


def test_check_tries_the_finished_games_too(tmp_path: Path) -> None:
    """Operator QA: a finished game whose log was edited by hand could not be shown any more
    (/wizard history: "This game's stored data is damaged"), while check said "healthy": it
    tried only lobbies and running games."""
    db = tmp_path / "wizard.db"
    first, second = asyncio.run(_finished_games(db, 2))
    conn = sqlite3.connect(db)
    conn.execute("UPDATE actions SET arg = 'R1' WHERE game_id = ? AND seq = 5", (second,))
    conn.commit()
    conn.close()
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DAMAGED_GAMES, result.stdout + result.stderr
    out = result.stdout
    assert "games: 2 finished" in out and "damaged games: 1" in out, out
    assert f"  game {second}: cannot be shown: " in out, out
    assert f"game {first}:" not in out
    # A finished game is not set aside: its players only see no record or scorepad of it,
    # and restoring a backup (losing every game since) is no advice for that.
    assert "its record and scorepad cannot be shown" in out, out
    verdict = out.splitlines()[-1]
    assert verdict == (
        "NOT healthy: 1 finished game(s) cannot be shown, listed above: their results stay on "
        "the boards, only their record and scorepad are lost; every game plays on"
    ), verdict


def test_check_reports_running_games_whose_seat_holders_or_levels_are_damaged(
    tmp_path: Path,
) -> None:
    """QA: a ``seat_holders`` row with user_id 'zz' let the game run to its last card, which
    could never be saved, and a computer level no bot plays ('godlike') was played as
    'random'; check called the file healthy before and after. They are damaged games."""
    db = tmp_path / "wizard.db"
    ids = asyncio.run(running_games(db, games=4))
    run_sql(
        db,
        "INSERT INTO seat_holders (game_id, seat, from_action, user_id, level, name)"
        " VALUES (?, 1, 2, 'zz', NULL, 'Ghost')",
        (ids[0],),
    )
    run_sql(db, "UPDATE seats SET level = 'godlike' WHERE game_id = ? AND seat = 2", (ids[1],))
    run_sql(db, "UPDATE games SET computer_level = 'godlike' WHERE id = ?", (ids[2],))
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DAMAGED_GAMES, result.stdout + result.stderr
    out = result.stdout
    assert "damaged games: 3" in out, out
    assert f"  game {ids[0]}: cannot be loaded: a seat holder row is invalid: user_id" in out
    for game in ids[1:3]:
        line = next(x for x in out.splitlines() if x.startswith(f"  game {game}: "))
        assert line.startswith(f"  game {game}: cannot be loaded: a game or seat row"), line
        assert "unknown computer level 'godlike'" in line, line
    assert f"game {ids[3]}:" not in out
    assert out.splitlines()[-1].startswith("NOT healthy: 3 game(s) damaged"), out


def test_a_stop_held_back_ends_the_trial_of_the_finished_games(tmp_path: Path) -> None:
    """The finished games are tried one by one (about 8 ms each, minutes for a long
    history): a Ctrl-C or SIGTERM, held back meanwhile, ends the trial at the next game
    rather than waiting for them all."""
    db = tmp_path / "wizard.db"
    [game] = asyncio.run(_finished_games(db, 1))
    conn = sqlite3.connect(db)
    conn.execute("UPDATE actions SET arg = 'R1' WHERE game_id = ? AND seq = 5", (game,))
    conn.commit()
    conn.close()
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    found = asyncio.run(unloadable_games(trial_copy(db, tmp_path / "one"), finished=True))
    assert [(g.game, g.finished) for g in found] == [(game, True)]
    copy = trial_copy(db, tmp_path / "two")
    assert asyncio.run(unloadable_games(copy, finished=True, stop=[signal.SIGTERM])) == []


def test_check_says_when_the_database_s_disk_is_almost_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Operator QA: on a full disk every move failed ("The game could not be saved") while
    check said "healthy" and the bot started without a word. The report gives the free
    space of the database's disk, and below the write-ahead log's limit check exits 6."""
    db = tmp_path / "wizard.db"
    make_database(db, games=1)
    lines = check(db).lines()
    assert any(line.startswith("size: database") and "free on its disk" in line for line in lines)
    assert lines[-1] == "healthy"
    full = SimpleNamespace(total=10 << 30, used=(10 << 30) - (5 << 20), free=5 << 20)
    monkeypatch.setattr(health.shutil, "disk_usage", lambda _: full)
    assert ops.check_command(db) == EXIT_ATTENTION
    out = capsys.readouterr().out.splitlines()
    assert any(line.endswith("free on its disk 5.0 MiB") for line in out), out
    assert (
        "  its disk has less than 64.0 MiB free: moves fail once it is full (free space there)"
        in out
    ), out
    assert out[-1] == "healthy, but its disk is almost full: see above", out


def test_a_linked_database_is_measured_where_it_lives(tmp_path: Path) -> None:
    """Review: through a symlinked DATABASE_PATH the report read the log beside the link
    (0 B, so a stuck log never showed) and the free space of the link's disk."""
    real = tmp_path / "disk" / "wizard.db"
    real.parent.mkdir()
    make_database(real, games=1)
    store_db.wal_path(real).write_bytes(b"\0" * 4096)  # as a bot's log beside the file
    link = tmp_path / "wizard.db"
    link.symlink_to(real)
    assert check(link).wal_bytes == 4096


def test_no_free_space_is_reported_for_a_read_only_file_system(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: a backup checked on read-only media (no free space, by nature) read "its disk
    is almost full: moves fail once it is full", of a file no bot writes."""
    db = tmp_path / "wizard.db"
    make_database(db, games=1)
    monkeypatch.setattr(health, "_read_only_file_system", lambda folder: True)
    report = check(db)
    assert report.free_bytes is None and not report.attention


def test_damage_does_not_hide_what_else_needs_the_operator() -> None:
    """QA operator: with a damaged game and a write-ahead log stuck at 141.6 MiB, the last
    line named only the damaged game: a monitor reading it missed a log growing until the
    disk is full."""
    report = _report(damaged=((4, "bad row"),), wal_bytes=148_478_361, games_tried=True)
    last = report.lines()[-1]
    assert last.startswith("NOT healthy: 1 game(s) damaged"), last
    assert last.endswith("; and the write-ahead log cannot shrink: see above"), last


def test_check_says_before_a_long_read_of_the_finished_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA operator: check read 3,000 finished games in 28 s of silence (minutes for a long
    history); a line on stderr says what it does and how to stop it."""
    monkeypatch.setattr(ops, "_unloadable", lambda *args, **kwargs: [])
    many = _report(games_by_status={"finished": 20_000})
    ops._with_unloadable(many)
    assert capsys.readouterr().err == (
        "reading 20000 finished games (about 3 min; Ctrl-C stops it)\n"
    )
    ops._with_unloadable(dataclasses.replace(many, games_by_status={"finished": 300}))
    assert capsys.readouterr().err == ""
