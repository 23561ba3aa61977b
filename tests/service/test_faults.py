"""The issue's faults against real files and processes: WAL growth, lock waits, two processes
on one file, and an open that fails."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from wizard.rules import new_game as engine_game
from wizard.service import (
    BusyError,
    GameService,
    ServiceConfig,
    StaleVersionError,
    VirtualClock,
)
from wizard.service.turns import RETRY_PAUSE
from wizard.store import DatabaseUnavailable
from wizard.store.db import Writer

from .conftest import human_move, new_game

HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("LOCKED", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
print("RELEASED", flush=True)
"""
"""Another process that holds the write lock until it reads a line."""


class LockHolder:
    """Another process that holds the database's write lock (:data:`HOLDER`) once made."""

    def __init__(self, path: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "LOCKED"

    def release(self) -> None:
        """Let go of the lock (the process waits until :meth:`stop`)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("release\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "RELEASED"

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


THREAD_BOUND = 60.0
"""Seconds to wait for aiosqlite's threads to end: they end at once; only a leak waits."""


async def _started_games(svc: GameService, n: int) -> list[int]:
    ids = []
    for k in range(n):
        game_id = await new_game(svc, 3, 0, seed=60 + k, channel=k)
        await svc.start(game_id, 1)
        ids.append(game_id)
    return ids


def _wal_bytes(path: Path) -> int:
    wal = path.with_name(path.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


async def test_the_wal_stays_bounded_under_back_to_back_writes(db_path: Path) -> None:
    # The issue: every action rewrote a ~22 KB snapshot, and checkpoints never reached the
    # end of a WAL that writes kept growing: 114 MB after 40 s. Thousands of actions back
    # to back must leave the WAL near SQLite's autocheckpoint size (about 4 MB).
    svc = await GameService.open(db_path, config=ServiceConfig(computer_delay=0))
    try:
        ids = await _started_games(svc, 8)
        largest = 0

        async def drive(game_id: int) -> None:
            nonlocal largest
            rng = random.Random(game_id)
            for _ in range(300):
                if await human_move(svc, game_id, [1, 2, 3], rng, tag="w") is None:
                    return
                largest = max(largest, _wal_bytes(db_path))

        await asyncio.gather(*(drive(g) for g in ids))
    finally:
        await svc.close()
    assert largest < 16 * 1024 * 1024, f"WAL reached {largest} bytes"


async def test_a_lock_held_elsewhere_refuses_every_click_within_one_timeout(
    db_path: Path,
) -> None:
    # The issue: a batch that failed on the lock was retried write by write, each waiting
    # its own 10 s: refusals at 20, 30, 40 s. Now every click waits one timeout at most.
    timeout = 0.5
    svc = await GameService.open(db_path, config=ServiceConfig(busy_timeout=timeout))
    ids = await _started_games(svc, 40)
    holder = LockHolder(db_path)
    try:
        views = [await svc.seat_view(g, 1) for g in ids]
        t0 = time.monotonic()

        async def click(k: int) -> tuple[BaseException | None, float]:
            game_id, sv = ids[k], views[k]
            seat = sv.view.to_act[0] if sv.view.to_act else 0
            mine = await svc.seat_view(game_id, seat + 1)
            try:
                await svc.act(game_id, seat + 1, mine.view.legal[0], mine.version)
            except BusyError as e:
                return e, time.monotonic() - t0
            return None, time.monotonic() - t0

        results = await asyncio.gather(*(click(k) for k in range(len(ids))))
        assert all(isinstance(e, BusyError) for e, _ in results)
        assert results[0][0] is not None and results[0][0].code == "busy"
        # One timeout each, not one per queued write: write by write, the last refusal would
        # come after len(ids) timeouts (20 s here). The bound is half of that, far above one
        # timeout plus scheduling on a loaded machine, and still below the fault.
        assert max(t for _, t in results) < len(ids) * timeout / 2
        holder.release()
        # Nothing was applied, and the next clicks succeed.
        for game_id in ids[:5]:
            assert await human_move(svc, game_id, [1, 2, 3], random.Random(game_id)) is not None
    finally:
        holder.stop()
        await svc.close()


async def test_the_loser_of_a_version_race_reloads_and_its_next_click_succeeds(
    db_path: Path,
) -> None:
    # The issue: a second process on the same file kept its old copy of the game forever
    # and refused every click with "please try again" (7,598 times).
    first = await GameService.open(db_path)
    second = await GameService.open(db_path)
    try:
        game_id = (await _started_games(first, 1))[0]
        seen = await second.get_game(game_id)  # the second process loads it too
        assert seen.table is not None
        seat = seen.table.to_act[0]
        sv = await second.seat_view(game_id, seat + 1)
        moved = await first.act(game_id, seat + 1, sv.view.legal[0], sv.version)
        with pytest.raises(StaleVersionError) as stale:
            await second.act(game_id, seat + 1, sv.view.legal[-1], sv.version)
        assert stale.value.params["current"] == moved.version
        assert (await second.get_game(game_id)).version == moved.version
        update = await human_move(second, game_id, [1, 2, 3], random.Random(1))
        assert update is not None and update.version == moved.version + 1
    finally:
        await second.close()
        await first.close()


def _aiosqlite_threads() -> int:
    # aiosqlite's connection threads are the non-daemon threads other than the main one.
    return sum(1 for t in threading.enumerate() if t is not threading.main_thread())


async def _threads_end(before: int) -> bool:
    """Whether aiosqlite's threads are back to ``before``: they end just after their
    connection closes, so this polls, up to a bound only a leaked thread reaches."""
    end = time.monotonic() + THREAD_BOUND
    while _aiosqlite_threads() > before:
        if time.monotonic() > end:
            return False
        await asyncio.sleep(0.02)
    return True


async def test_an_open_that_fails_closes_what_it_opened(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The issue: open() raised and left the store open, so `python -m bot demo` hung.
    svc = await GameService.open(db_path)
    await svc.close()
    before = _aiosqlite_threads()

    async def broken(self: GameService) -> None:
        raise RuntimeError("start-up failed")

    monkeypatch.setattr(GameService, "recover", broken)
    with pytest.raises(RuntimeError, match="start-up failed"):
        await GameService.open(db_path)
    assert await _threads_end(before)
    conn = sqlite3.connect(db_path, timeout=0)
    try:
        conn.execute("BEGIN IMMEDIATE")  # nobody holds the file
        conn.execute("ROLLBACK")
    finally:
        conn.close()


@pytest.mark.parametrize("case", ["future", "not a database"])
async def test_start_up_failures_are_one_exception_with_a_hint(tmp_path: Path, case: str) -> None:
    path = tmp_path / "wizard.db"
    if case == "future":
        await (await GameService.open(path)).close()
        conn = sqlite3.connect(path)
        conn.execute("INSERT INTO schema_migrations VALUES (999, 'from the future', 0)")
        conn.commit()
        conn.close()
    else:
        path.write_bytes(b"this is not a database file at all" * 200)
    before = _aiosqlite_threads()
    with pytest.raises(DatabaseUnavailable) as info:
        await GameService.open(path)
    error = info.value
    assert "\n" not in str(error) and error.message and error.hint
    assert await _threads_end(before)


async def test_a_single_write_path_on_the_public_api() -> None:
    # No private attributes of aiosqlite, no process-wide collector settings.
    root = Path(__file__).resolve().parents[2] / "wizard"
    text = "\n".join(
        p.read_text() for p in [*root.glob("store/**/*.py"), *root.glob("service/**/*.py")]
    )
    for forbidden in ("._execute", "._conn", "gc.freeze", "gc.set_threshold", "any_thread"):
        assert forbidden not in text, forbidden


async def test_a_second_live_process_for_the_same_shard_is_refused(db_path: Path) -> None:
    first = await GameService.open(db_path, shards=(0, 1))
    try:
        with pytest.raises(DatabaseUnavailable, match="shard 1 is already served") as info:
            await GameService.open(db_path, shards=(1, 2))
        assert "SHARD_IDS" in info.value.hint
        other = await GameService.open(db_path, shards=(2,))  # other shards share the file
        await other.close()
    finally:
        await first.close()
    again = await GameService.open(db_path, shards=(1,))  # released at close
    await again.close()


async def test_a_second_process_through_a_link_to_the_database_is_refused(
    db_path: Path,
) -> None:
    """QA operator: a second bot reached the same file through a symlinked DATABASE_PATH,
    took locks of its own beside the link, and served the same shard."""
    first = await GameService.open(db_path, shards=(0,))
    link = db_path.parent / "link" / "wizard.db"
    link.parent.mkdir()
    link.symlink_to(db_path)
    try:
        second = await GameService.open(link, shards=(0,))
    except DatabaseUnavailable as refused:
        assert "shard 0 is already served" in str(refused)
    else:
        await second.close()
        pytest.fail("a second process through the link served shard 0")
    finally:
        await first.close()
    assert not list(link.parent.glob("*.lock"))  # the locks are the file's, beside it


async def test_a_process_with_another_shard_count_is_refused(db_path: Path) -> None:
    """QA operator: a process serving every server (no SHARD_COUNT) and one started with
    ``SHARD_COUNT=2 SHARD_IDS=1`` both ran, recovering and timing the same games; so did
    shard 0 of 2 beside shards 2 and 3 of 4, which it contains. Every process on a database
    must count shards alike."""
    everything = await GameService.open(db_path, shards=(0,))  # no SHARD_COUNT: count 1
    try:
        with pytest.raises(DatabaseUnavailable, match="SHARD_COUNT") as info:
            await GameService.open(db_path, shards=(1,), shard_count=2)
        assert info.value.hint == "stop it first"  # it serves every server
    finally:
        await everything.close()
    halves = await GameService.open(db_path, shards=(0, 1), shard_count=2)
    try:
        with pytest.raises(DatabaseUnavailable, match="SHARD_COUNT=2") as info:
            await GameService.open(db_path, shards=(2, 3), shard_count=4)
        assert "start this one with SHARD_COUNT=2" in info.value.hint
        with pytest.raises(DatabaseUnavailable, match="SHARD_COUNT=2"):
            await GameService.open(db_path, shards=(0,))
    finally:
        await halves.close()
    # Once the others stopped, another count may serve the database.
    quarters = await GameService.open(db_path, shards=(2, 3), shard_count=4)
    try:
        other = await GameService.open(db_path, shards=(0, 1), shard_count=4)  # the same count
        await other.close()
    finally:
        await quarters.close()


async def test_a_lock_held_elsewhere_is_one_warning_until_it_is_free_again(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """QA: every refused write logged a warning (two for a background step, retried at
    once): a lock held for a minute filled the log. The operator is told once, and when the
    database takes writes again."""
    caplog.set_level(logging.DEBUG)
    delay = 3.0
    config = ServiceConfig(busy_timeout=0.2, computer_delay=delay)
    svc = await GameService.open(db_path, config=config)
    ids = await _started_games(svc, 3)
    # A game whose computers move in the background: the first bid is a computer's.
    seed = next(s for s in range(100) if engine_game(["a", "b", "c"], seed=s).first_dealer != 2)
    computers = await new_game(svc, 1, 2, seed=seed, channel=99, computer_level="random")
    svc.start_clocks()  # as the bot does: computers move in the background
    started = await svc.start(computers, 1)
    due = time.monotonic() + delay
    info = started.info
    assert info is not None and info.table is not None
    computer_first = info.seats[info.table.to_act[0]].computer_controlled
    holder = LockHolder(db_path)
    try:
        caplog.clear()
        for game_id in ids:
            for _ in range(2):
                with pytest.raises(BusyError):
                    await human_move(svc, game_id, [1, 2, 3], random.Random(game_id))
        background = computer_first and time.monotonic() < due  # locked before it was due
        # The computer's move is refused, and tried again (a generous bound: only a fault
        # that never tries it reaches it).
        # A few seconds at least, to see that it does not spin.
        waited = time.monotonic()
        while background and time.monotonic() - waited < 60:
            if len(_waits(caplog)) >= 2 and time.monotonic() > due + 3 * RETRY_PAUSE:
                break
            await asyncio.sleep(0.05)
        locked_for = time.monotonic() - due
        holder.release()
        assert await human_move(svc, ids[0], [1, 2, 3], random.Random(1)) is not None
        warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warned) == 1, warned
        assert "locked by another process" in warned[0]
        told = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
        assert any("takes writes again" in line for line in told), told
        if background:  # else too loaded a machine to lock it in time: the clicks still count
            # Tried again after a pause, not at once (it spun, hundreds of tries a second).
            assert 2 <= len(_waits(caplog)) <= locked_for / RETRY_PAUSE + 2
    finally:
        holder.stop()
        await svc.close()


def _waits(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if "background step waits" in r.getMessage()]


async def test_a_lasting_write_fault_is_told_once_and_the_game_moves_on_after_it(
    db_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: with every write failing (a full disk), one game of computers logged an
    error with its traceback and a warning every second: 1,200 records in ten minutes, on
    the disk that was full. The operator is told once per outage, each game retries less
    and less often, and when writes succeed again the game moves on and that is told."""
    clock = VirtualClock()
    config = ServiceConfig(computer_delay=1.0, ai_processes=0)
    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        # A game whose first bid is a computer's, made in the background.
        seed = next(s for s in range(100) if engine_game(["a", "b", "c"], seed=s).first_dealer != 2)
        game_id = await new_game(svc, 1, 2, seed=seed, computer_level="easy")
        svc.start_clocks()
        await svc.start(game_id, 1)
        real = Writer.write

        async def full(self: Writer, item: object) -> object:
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(Writer, "write", full)
        caplog.set_level(logging.INFO)
        caplog.clear()
        before = (await svc.get_game(game_id)).version
        await clock.advance(600, settle=svc.wait_idle)  # ten minutes
        loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(loud) <= 2, [r.getMessage() for r in loud]
        assert sum(r.exc_info is not None for r in loud) == 1
        # QA: "database write failed" named neither the file nor what to look at.
        [told] = [r.getMessage() for r in loud if r.exc_info is not None]
        assert str(db_path) in told and "database or disk is full" in told, told
        assert "try again" in told and "disk" in told, told
        assert (await svc.get_game(game_id)).version == before
        monkeypatch.setattr(Writer, "write", real)
        await clock.advance(60, settle=svc.wait_idle)
        assert (await svc.get_game(game_id)).version > before  # moving again
        told = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
        assert any("takes writes again" in line for line in told), told
    finally:
        await svc.close()
