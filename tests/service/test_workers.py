"""Computer-player workers are supervised: they die with their parent, and every decision
has a deadline after which the heuristic decides and the stuck worker is replaced."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from wizard.ai import decide
from wizard.rules import apply, deal_next_round, legal_actions, new_game, to_act
from wizard.service import workers
from wizard.service.workers import ThinkerPool
from wizard.state import Phase
from wizard.view import PlayerView, view

CHILD = Path(__file__).with_name("workers_child.py")
ROOT = Path(__file__).resolve().parents[2]
BOUND = 60.0  # generous: only a broken pool ever waits this long
LONG = 120.0  # a deadline no healthy decision reaches, however loaded the machine


def small_views(seed: int, rounds: int = 1) -> list[PlayerView]:
    """Every decision point of rounds 1 to ``rounds`` of a seeded three-player game.

    A "normal" decision in round 1 takes about a millisecond, so its search never meets
    its own 0.4 s limit (which would change its answer) even on a loaded machine.
    """
    state = new_game(["a", "b", "c"], seed=seed)
    out = []
    while True:
        if state.phase is Phase.ROUND_OVER:
            if state.round >= rounds:
                return out
            state = deal_next_round(state)
            continue
        seat = to_act(state)[0]
        seen = view(state, seat)
        if seen.legal:
            out.append(seen)
        state = apply(state, legal_actions(state, seat)[0])


def gone(pid: int) -> bool:
    """True once ``pid`` has exited (a zombie awaiting its reaper counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True  # reaped: gone before the open, or between the open and the read
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def children_of(parent: int) -> list[int]:
    """The pids of the live processes whose parent is ``parent``."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # exited meanwhile
            if int(fields[1]) == parent and fields[0] not in ("Z", "X"):
                out.append(int(entry.name))
    return sorted(out)


def wait_gone(pids: list[int]) -> list[int]:
    """Poll until every pid is gone or ``BOUND`` passed; the pids still alive."""
    end = time.monotonic() + BOUND
    while time.monotonic() < end:
        alive = [p for p in pids if not gone(p)]
        if not alive:
            return []
        time.sleep(0.1)
    return [p for p in pids if not gone(p)]


async def wait_gone_async(pids: list[int]) -> list[int]:
    """:func:`wait_gone` without blocking the event loop."""
    return await asyncio.to_thread(wait_gone, pids)


@pytest.fixture
async def pool() -> AsyncIterator[ThinkerPool]:
    p = ThinkerPool(1, deadline=LONG)
    try:
        yield p
    finally:
        await p.close()


# --- the workers die with their parent --------------------------------------------------------


def kill_parent_and_wait(mode: str, *, stop_one: bool) -> tuple[list[int], list[int]]:
    """Start a parent of workers, SIGKILL it; its children's pids, and those still alive."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen(
        [sys.executable, str(CHILD), mode], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
    )
    try:
        assert parent.stdout is not None
        line = parent.stdout.readline()
        assert line.startswith("PIDS "), line
        workers = [int(p) for p in line.split()[1:]]
        assert len(workers) == 2
        # Every child: the workers, and multiprocessing's resource tracker, which exits
        # once the last holder of its pipe (the parent and each worker) is gone.
        pids = children_of(parent.pid)
        assert set(workers) <= set(pids)
        if stop_one:
            os.kill(workers[0], signal.SIGSTOP)  # a stopped worker can watch nothing itself
        parent.kill()
        parent.wait()
        alive = wait_gone(pids)
    finally:
        parent.kill()
        parent.wait()
    for pid in alive:  # leave nothing behind, whatever happened
        os.kill(pid, signal.SIGKILL)
    return pids, alive


def test_workers_exit_when_their_parent_is_killed() -> None:
    _, alive = kill_parent_and_wait("pool", stop_one=False)
    assert alive == [], "workers outlived their SIGKILLed parent"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal: Linux")
def test_a_stopped_worker_exits_too_when_its_parent_is_killed() -> None:
    _, alive = kill_parent_and_wait("pool", stop_one=True)
    assert alive == [], "a stopped worker outlived its SIGKILLed parent"


# --- deadlines: a stopped worker -------------------------------------------------------------


async def test_a_stopped_worker_makes_the_decision_fall_back_and_is_replaced(
    pool: ThinkerPool, caplog: pytest.LogCaptureFixture
) -> None:
    seen, following = small_views(3)[2:4]
    (stuck,) = await pool.start()
    os.kill(stuck, signal.SIGSTOP)
    with caplog.at_level(logging.WARNING, logger="wizard.service.workers"):
        action = await pool.decide("normal", 5, seen, context="game 9 seat 1", deadline=0.3)
    assert action in seen.legal
    assert action == decide(pool.fallback_level, 5, seen)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "game 9 seat 1" in warnings[0], warnings
    assert stuck not in pool.pids
    assert await wait_gone_async([stuck]) == [], "the stopped worker was not killed"
    (fresh,) = await pool.start()
    assert fresh != stuck
    assert await pool.decide("normal", 6, following) == decide("normal", 6, following)


async def test_one_stopped_worker_does_not_hold_up_another_decision() -> None:
    pool = ThinkerPool(2, deadline=LONG)
    try:
        pids = await pool.start()
        assert len(pids) == 2
        os.kill(pids[0], signal.SIGSTOP)
        views = small_views(4)[:2]
        tasks = [asyncio.create_task(pool.decide("normal", 11, v)) for v in views]
        # Each takes an idle worker: one the stopped one, one the healthy one. The healthy
        # one answers while the other decision is still waiting on the stopped worker.
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        assert len(done) == 1 and len(pending) == 1
        finished = tasks.index(done.pop())
        assert tasks[finished].result() == decide("normal", 11, views[finished])
        assert pool.busy == 1
    finally:
        await pool.close()  # the pending decision falls back now
    waiting = tasks[1 - finished]
    assert await waiting == decide(pool.fallback_level, 11, views[1 - finished])
    assert await wait_gone_async(list(pids)) == []


async def test_decisions_wait_for_a_busy_worker_within_their_deadline() -> None:
    pool = ThinkerPool(1, deadline=LONG)
    try:
        (stuck,) = await pool.start()
        os.kill(stuck, signal.SIGSTOP)
        views = small_views(5)[:2]
        held = asyncio.create_task(pool.decide("normal", 1, views[0]))
        while pool.busy == 0:
            await asyncio.sleep(0.01)
        # The only worker holds a decision: this one waits for it, and falls back at its
        # own deadline without touching the stuck worker's.
        waited = await pool.decide("normal", 2, views[1], deadline=0.3)
        assert waited == decide(pool.fallback_level, 2, views[1])
        assert pool.pids == (stuck,) and not held.done()
    finally:
        await pool.close()
    assert await held == decide(pool.fallback_level, 1, views[0])


async def test_a_decision_waits_for_the_worker_still_starting() -> None:
    """QA (crash): on a loaded machine the first decision after a restart fell back to the
    easy level: the one worker was still starting, and its start counted against the
    decision's deadline. A decision waits for a starting worker (which has START_TIMEOUT),
    and its own deadline runs once the worker is ready."""
    seen = small_views(7)[0]
    pool = ThinkerPool(1, deadline=1.0)
    try:
        task = asyncio.create_task(pool.decide("normal", 3, seen))
        while not pool.pids:
            await asyncio.sleep(0.001)
        [pid] = pool.pids
        os.kill(pid, signal.SIGSTOP)  # still starting: a loaded machine, say
        await asyncio.sleep(1.5)  # past the decision's deadline
        assert pool.busy == 0 and not task.done()  # not handed to it: it never said ready
        os.kill(pid, signal.SIGCONT)
        assert await task == decide("normal", 3, seen)
    finally:
        await pool.close()


# --- crashes and closing -----------------------------------------------------------------------


async def test_a_killed_worker_is_replaced(pool: ThinkerPool) -> None:
    seen = small_views(6)[3]
    (first,) = await pool.start()
    os.kill(first, signal.SIGKILL)
    assert await wait_gone_async([first]) == []
    while first in pool.pids:  # the pool notices the end of its pipe
        await asyncio.sleep(0.01)
    (second,) = await pool.start()
    assert second != first
    assert await pool.decide("normal", 3, seen) == decide("normal", 3, seen)


async def test_a_worker_killed_mid_decision_makes_it_fall_back_at_once(
    pool: ThinkerPool, caplog: pytest.LogCaptureFixture
) -> None:
    seen = small_views(7)[1]
    (pid,) = await pool.start()
    os.kill(pid, signal.SIGSTOP)  # holds the request unanswered until it is killed
    with caplog.at_level(logging.WARNING, logger="wizard.service.workers"):
        pending = asyncio.create_task(pool.decide("normal", 4, seen, context="game 3"))
        while pool.busy == 0:
            await asyncio.sleep(0.01)
        os.kill(pid, signal.SIGKILL)
        # The deadline is LONG: only the worker's death can end this decision soon.
        assert await pending == decide(pool.fallback_level, 4, seen)
    (message,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "game 3" in message and "exited" in message
    (replacement,) = await pool.start()
    assert replacement != pid


async def test_close_stops_every_worker_and_is_idempotent() -> None:
    pool = ThinkerPool(2, deadline=LONG)
    pids = await pool.start()
    assert len(pids) == 2
    os.kill(pids[1], signal.SIGSTOP)  # a stopped worker ignores SIGTERM: close kills it
    seen = small_views(8)[0]
    assert await pool.decide("normal", 9, seen) == decide("normal", 9, seen)
    await pool.close()
    await pool.close()
    assert pool.pids == ()
    assert not [p for p in multiprocessing.active_children() if p.pid in pids]
    assert await wait_gone_async(list(pids)) == []
    assert await pool.decide("normal", 9, seen) == decide(pool.fallback_level, 9, seen)


async def test_answers_match_in_process_decisions(pool: ThinkerPool) -> None:
    views = [v for seed in (9, 10) for v in small_views(seed)]
    answers = [await pool.decide("normal", k, v) for k, v in enumerate(views)]
    assert answers == [decide("normal", k, v) for k, v in enumerate(views)]


async def test_bad_requests_are_refused_before_any_worker_starts(pool: ThinkerPool) -> None:
    seen = small_views(10)[0]
    with pytest.raises(ValueError, match="level"):
        await pool.decide("genius", 1, seen)
    assert pool.pids == ()


async def test_a_cancelled_decision_leaves_its_worker_to_serve_the_next(pool: ThinkerPool) -> None:
    first, second = small_views(11)[:2]
    (pid,) = await pool.start()
    os.kill(pid, signal.SIGSTOP)
    task = asyncio.create_task(pool.decide("normal", 1, first))
    while pool.busy == 0:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    os.kill(pid, signal.SIGCONT)  # it answers the cancelled decision, then is free again
    assert await pool.decide("normal", 2, second) == decide("normal", 2, second)
    assert pool.pids == (pid,)


async def test_a_failing_computer_player_falls_back(caplog: pytest.LogCaptureFixture) -> None:
    seen = small_views(12)[0]
    broken = dataclasses.replace(seen, hands=tuple(None for _ in seen.hands))
    pool = ThinkerPool(1, deadline=LONG, fallback_level="random")
    try:
        with caplog.at_level(logging.WARNING, logger="wizard.service.workers"):
            action = await pool.decide("normal", 1, broken, context="game 4")
        assert action == decide("random", 1, broken)
        (message,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert "game 4" in message and "Error" in message
        assert await pool.decide("normal", 2, seen) == decide("normal", 2, seen)  # still works
    finally:
        await pool.close()


async def test_workers_that_die_while_starting_are_not_restarted_at_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from tests.service import workers_child

    monkeypatch.setattr(workers, "_serve", workers_child.exit_at_once)
    seen = small_views(13)[0]
    pool = ThinkerPool(1, deadline=LONG)
    try:
        with caplog.at_level(logging.WARNING, logger="wizard.service.workers"):
            # The deadline is LONG: only the worker's death ends these decisions soon.
            assert await pool.decide("normal", 1, seen) == decide("easy", 1, seen)
            assert pool.pids == ()  # backing off: no new worker for this decision
            assert await pool.decide("normal", 1, seen) == decide("easy", 1, seen)
        messages = [r.getMessage() for r in caplog.records]
        assert any("failed while starting" in m for m in messages), messages
        assert any("no worker process is running" in m for m in messages), messages
    finally:
        await pool.close()
    assert not multiprocessing.active_children()
