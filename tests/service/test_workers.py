"""Computer-player workers are supervised: they die with their parent, and every decision
has a deadline after which the heuristic decides and the stuck worker is replaced."""

from __future__ import annotations

import asyncio
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
from wizard.service.workers import ThinkerPool
from wizard.state import Phase
from wizard.view import PlayerView, view

CHILD = Path(__file__).with_name("workers_child.py")
ROOT = Path(__file__).resolve().parents[2]
BOUND = 60.0  # generous: only a broken pool ever waits this long
LONG = 120.0  # a deadline no healthy decision reaches, however loaded the machine


def small_views(seed: int, rounds: int = 3) -> list[PlayerView]:
    """Every decision point of rounds 1 to ``rounds`` of a seeded three-player game."""
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
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


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
    """Start a parent of workers, SIGKILL it; the worker pids, and those still alive."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen(
        [sys.executable, str(CHILD), mode], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
    )
    try:
        assert parent.stdout is not None
        line = parent.stdout.readline()
        assert line.startswith("PIDS "), line
        pids = [int(p) for p in line.split()[1:]]
        assert len(pids) == 2
        if stop_one:
            os.kill(pids[0], signal.SIGSTOP)  # a stopped worker can watch nothing itself
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
