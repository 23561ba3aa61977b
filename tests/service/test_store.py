"""The database file: pragmas, migrations (and an upgrade from migration 1), group commit."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from wizard.options import Options
from wizard.rules import legal_actions, to_act
from wizard.service import GameService, GameStatus, ServiceConfig
from wizard.service.game import decode_action, encode_action, fold, initial_state, step
from wizard.store import (
    LATEST,
    MIGRATIONS,
    ConflictError,
    DatabaseUnavailable,
    MigrationError,
    Statements,
    Store,
    connect,
    migrate,
)

from .conftest import play_out


async def test_new_database_gets_every_migration_and_pragmas(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        assert db_path.exists()
        rows = await store.fetchall("SELECT version FROM schema_migrations ORDER BY version")
        assert [r[0] for r in rows] == [m.version for m in MIGRATIONS] == list(range(1, LATEST + 1))
        assert (await store.fetchone("PRAGMA journal_mode"))[0] == "wal"  # type: ignore[index]
        assert (await store.fetchone("PRAGMA foreign_keys"))[0] == 1  # type: ignore[index]
        assert (await store.fetchone("PRAGMA busy_timeout"))[0] > 0  # type: ignore[index]
        # Review: under NORMAL a power cut could undo commits players were told of, and
        # the game's row with them, unseen. FULL syncs the WAL before COMMIT returns.
        assert (await store.fetchone("PRAGMA synchronous"))[0] == 2  # type: ignore[index]
    finally:
        await store.close()
    # Opening again applies nothing.
    conn = await connect(db_path)
    try:
        assert await migrate(conn) == []
    finally:
        await conn.close()


async def test_a_migration_is_logged_for_the_operator(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Operator QA: an upgrade migrated the database without a word (and a migration is one
    way: the older version refuses the file afterwards)."""
    with caplog.at_level(logging.INFO, logger="wizard.store.db"):
        store = await Store.open(db_path)
        await store.close()
        assert f"migrated to schema version {LATEST}" in caplog.text
        caplog.clear()
        store = await Store.open(db_path)  # nothing to migrate: nothing said
        await store.close()
    assert "migrated" not in caplog.text


async def test_a_newer_database_is_refused(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.close()
    raw = sqlite3.connect(db_path)
    raw.execute("INSERT INTO schema_migrations VALUES (999, 'from the future', 0)")
    raw.commit()
    raw.close()
    with pytest.raises(DatabaseUnavailable, match="newer version") as info:
        await Store.open(db_path)
    assert isinstance(info.value.__cause__, MigrationError) and info.value.hint


def _actions_of_a_started_game(seed: int, count: int) -> list[tuple[int, str, str]]:
    state = initial_state(["Ann", "Bo", "Cy"], Options(), seed)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        action = rng.choice(legal_actions(state))
        state, _ = step(state, action)
        kind, arg = encode_action(action)
        out.append((action.seat, kind, arg))  # type: ignore[union-attr]
    return out


async def test_upgrade_from_migration_1(db_path: Path) -> None:
    old = await Store.open(db_path, target_version=1)
    await old.close()
    raw = sqlite3.connect(db_path)
    assert [r[0] for r in raw.execute("SELECT version FROM schema_migrations")] == [1]
    assert "seq" not in [r[1] for r in raw.execute("PRAGMA table_info(games)")]
    # A running game written by the code of migration 1.
    raw.execute(
        "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, seed, version,"
        " created_at, updated_at, started_at) VALUES (5, 1, 2, 11, 'active', ?, 77, 30, 0, 0, 0)",
        (Options().model_dump_json(),),
    )
    for seat, (uid, name) in enumerate([(11, "Ann"), (12, "Bo"), (13, "Cy")]):
        raw.execute(
            "INSERT INTO seats (game_id, seat, user_id, name) VALUES (5, ?, ?, ?)",
            (seat, uid, name),
        )
    log = _actions_of_a_started_game(77, 28)
    for seq, (seat, kind, arg) in enumerate(log, start=1):
        raw.execute(
            "INSERT INTO actions VALUES (5, ?, ?, ?, ?, 'player', NULL, NULL, ?, 0)",
            (seq, seat, kind, arg, seq + 2),
        )
    raw.commit()
    raw.close()

    svc = await GameService.open(db_path, config=ServiceConfig(computer_delay=0))
    try:
        rows = await svc.store.fetchall("SELECT version FROM schema_migrations ORDER BY version")
        assert [r[0] for r in rows] == list(range(1, LATEST + 1))
        info = await svc.get_game(5)
        assert info.status is GameStatus.ACTIVE and info.version == 30
        expected = fold(
            ["Ann", "Bo", "Cy"], Options(), 77, [decode_action(k, s, a) for s, k, a in log]
        )
        assert info.table is not None
        assert (info.table.round, info.table.phase, info.table.to_act, info.table.scores) == (
            expected.round,
            expected.phase,
            to_act(expected),
            expected.scores,
        )
        # The game goes on and ends with results and ratings in the tables of migration 2.
        await play_out(svc, 5, [11, 12, 13], random.Random(5))
        assert (await svc.get_game(5)).status is GameStatus.FINISHED
        assert (await svc.player_card(1, 11)) is not None
    finally:
        await svc.close()


async def test_one_bad_write_fails_alone_in_a_batch(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        await store.write(
            lambda conn: conn.execute("INSERT INTO guild_settings VALUES (1, '{}', 0)")  # type: ignore[arg-type,return-value]
        )

        def insert(guild: int):  # type: ignore[no-untyped-def]
            async def item(conn: aiosqlite.Connection) -> int:
                await conn.execute("INSERT INTO guild_settings VALUES (?, '{}', 0)", (guild,))
                return guild

            return item

        # Ten writes queued at once commit in one batch; the duplicate key spoils it, and
        # the writer retries each alone, so only that one fails.
        results = await asyncio.gather(
            *(store.write(insert(g)) for g in [2, 3, 1, 4, 5, 6, 7, 8, 9, 10]),
            return_exceptions=True,
        )
        assert [isinstance(r, sqlite3.IntegrityError) for r in results] == [
            False,
            False,
            True,
            False,
            False,
            False,
            False,
            False,
            False,
            False,
        ]
        rows = await store.fetchall("SELECT guild_id FROM guild_settings ORDER BY guild_id")
        assert [r[0] for r in rows] == list(range(1, 11))
    finally:
        await store.close()


async def test_group_commit_batches_concurrent_writes(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:

        def insert(guild: int):  # type: ignore[no-untyped-def]
            async def item(conn: aiosqlite.Connection) -> None:
                await conn.execute("INSERT INTO guild_settings VALUES (?, '{}', 0)", (guild,))

            return item

        await asyncio.gather(*(store.write(insert(g)) for g in range(200)))
        assert store.writer.writes == 200
        assert store.writer.batches < 200
    finally:
        await store.close()


async def test_a_stale_checked_statement_fails_only_its_write(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        for guild in (1, 2, 3):
            await store.write(
                Statements((("INSERT INTO guild_settings VALUES (?, '{}', 0)", (guild,)),))
            )

        def bump(guild: int, expected: float) -> Statements:
            return Statements(
                (
                    (
                        "UPDATE guild_settings SET updated_at = updated_at + 1 WHERE guild_id = ?"
                        " AND updated_at = ?",
                        (guild, expected),
                    ),
                ),
                checked=(0,),
            )

        # Three writes of the same shape queued together; the second expects a stale value.
        results = await asyncio.gather(
            store.write(bump(1, 0)),
            store.write(bump(2, 5)),
            store.write(bump(3, 0)),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], ConflictError)
        rows = await store.fetchall("SELECT guild_id, updated_at FROM guild_settings ORDER BY 1")
        assert [tuple(r) for r in rows] == [(1, 1.0), (2, 0.0), (3, 1.0)]
    finally:
        await store.close()


async def test_concurrent_games_play_to_their_ends(db_path: Path) -> None:
    config = ServiceConfig(computer_delay=0)
    svc = await GameService.open(db_path, config=config)
    try:
        ids = []
        for k in range(3):
            game_id = await _started(svc, channel=k, seed=k)
            ids.append(game_id)
        await asyncio.gather(*(play_out(svc, g, [1, 2], random.Random(g)) for g in ids))
        for g in ids:
            assert (await svc.get_game(g)).status is GameStatus.FINISHED
    finally:
        await svc.close()


async def _started(svc: GameService, *, channel: int, seed: int) -> int:
    info = await svc.create_game(
        guild_id=1, channel_id=channel, host_id=1, host_name="A", seed=seed
    )
    await svc.join(info.id, 2, "B")
    await svc.add_computer(info.id, 1)
    await svc.start(info.id, 1)
    return info.id


async def test_the_writer_waits_for_another_connection_without_blocking(db_path: Path) -> None:
    store = await Store.open(db_path)
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.002)
                ticks += 1

        running = asyncio.ensure_future(ticker())
        write = asyncio.ensure_future(
            store.write(Statements((("INSERT INTO guild_settings VALUES (1, '{}', 0)", ()),)))
        )
        # The loop runs on while the write waits: counted in ticks, not in seconds, so a
        # slow machine only makes this take longer.
        while ticks < 10:
            await asyncio.sleep(0.01)
        assert not write.done()
        other.execute("COMMIT")
        await asyncio.wait_for(write, 60)  # it follows the commit; only a hang waits 60 s
        running.cancel()
        rows = await store.fetchall("SELECT guild_id FROM guild_settings")
        assert [r[0] for r in rows] == [1]
    finally:
        other.close()
        await store.close()


async def test_a_write_ahead_log_that_cannot_shrink_is_told_to_the_operator(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """QA: another program holding a read transaction open on the database (a sqlite3 shell,
    a database browser) kept SQLite from folding the write-ahead log back into the file: it
    grew by 7 MiB a second at full load, past its limit, and nobody was told. The writer
    looks at its size now and then: one warning past the limit, a note when it is back."""
    caplog.set_level(logging.INFO, logger="wizard.store.db")
    store = await Store.open(db_path)
    limit = 256 * 1024  # bytes: a small limit, reached in a few writes

    async def small_log(conn: aiosqlite.Connection) -> None:
        await conn.execute(f"PRAGMA journal_size_limit = {limit}")
        await conn.execute("PRAGMA wal_autocheckpoint = 10")

    await store.write(small_log)
    store.writer.wal_limit = limit
    store.writer.wal_look_every = 0.0  # seconds between looks: each commit
    reader = sqlite3.connect(db_path)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM guild_settings").fetchall()  # holds a snapshot
        blob = "x" * 4000

        async def row(guild: int) -> None:
            await store.write(
                Statements((("INSERT INTO guild_settings VALUES (?, ?, 0)", (guild, blob)),))
            )

        for guild in range(200):
            await row(guild)
        warned = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warned) == 1, [r.getMessage() for r in warned]
        assert "write-ahead log" in warned[0].getMessage()
        assert "read transaction" in warned[0].getMessage()

        reader.execute("COMMIT")  # the other program lets go: SQLite's next checkpoint
        for guild in range(1000, 1003):  # completes, and the write after it resets the log
            await row(guild)
        back = [r.getMessage() for r in caplog.records if "back under" in r.getMessage()]
        assert len(back) == 1, [r.getMessage() for r in caplog.records]
        assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1
    finally:
        reader.close()
        await store.close()


@pytest.mark.parametrize("stops", [1, 2])
def test_a_stop_while_the_file_opens_closes_it_quietly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stops: int
) -> None:
    """A stop (Ctrl-C, SIGTERM) while SQLite opens the database: aiosqlite's thread, once the
    file was open, answered an event loop already closed, with an "Event loop is closed"
    traceback on the operator's terminal and the file left open (seen at a bot's stop
    during its start). The opening is let finish and closed before the stop goes on, also
    when a second stop comes meanwhile (Ctrl-C twice, or SIGTERM then Ctrl-C: review)."""
    opening, go = threading.Event(), threading.Event()
    closed: list[bool] = []
    real_connect = sqlite3.connect

    class Watched(sqlite3.Connection):
        def close(self) -> None:
            closed.append(True)
            super().close()

    def slow_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        opening.set()
        go.wait()
        return real_connect(*args, factory=Watched, **kwargs)

    failures: list[Any] = []
    monkeypatch.setattr(sqlite3, "connect", slow_connect)
    monkeypatch.setattr(threading, "excepthook", failures.append)
    before = set(threading.enumerate())

    async def stopped_while_opening() -> None:
        task = asyncio.create_task(connect(tmp_path / "w.db"))
        await asyncio.to_thread(opening.wait)
        for _ in range(stops):
            task.cancel()
            await asyncio.sleep(0.01)
        # The opening ends soon after the stop: on this loop, which asyncio.run closes
        # as soon as the stopped task is done, unless the stop waits for the opening.
        asyncio.get_running_loop().call_later(0.05, go.set)
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(stopped_while_opening())
    go.set()
    for thread in set(threading.enumerate()) - before:
        thread.join(timeout=120)  # a hang guard: aiosqlite's thread ends once it is stopped
    assert [f.exc_value for f in failures] == []
    assert closed == [True]
