"""Supervised computer-player workers: start-up, round trip, fallback, and exit with the parent.

Run: ``python bench/workers.py [--processes 2] [--decisions 300]``. Prints figures, asserts
nothing. For the parent's death it starts a parent process with a ``ThinkerPool`` (or, for
comparison, the plain spawn ``ProcessPoolExecutor`` the service used before), SIGKILLs it,
and times how long its workers outlive it (giving up after ``--wait`` seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.machine import machine
from wizard.ai import decide
from wizard.rules import apply, deal_next_round, legal_actions, new_game, to_act
from wizard.service.workers import ThinkerPool
from wizard.state import Phase
from wizard.view import PlayerView, view

ROOT = Path(__file__).resolve().parents[1]

PARENT = """
import asyncio, multiprocessing, sys, time
from concurrent.futures import ProcessPoolExecutor
from wizard.ai import decide
from wizard.rules import deal_next_round, new_game, to_act
from wizard.service.workers import ThinkerPool
from wizard.view import view
n = int(sys.argv[2])
state = deal_next_round(new_game(["a", "b", "c"], seed=1))
seen = view(state, to_act(state)[0])
def report():
    print("PIDS", *[p.pid for p in multiprocessing.active_children()], flush=True)
    time.sleep(3600)
async def main():
    pool = ThinkerPool(n, deadline=120.0)  # kept referenced: a dropped pool closes its pipes
    await pool.start()
    await pool.decide("normal", 1, seen)
    report()
if sys.argv[1] == "pool":
    asyncio.run(main())
else:
    ex = ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"))
    for f in [ex.submit(decide, "normal", k, seen) for k in range(n)]:
        f.result()
    report()
"""


def views(seeds: range, rounds: int) -> list[PlayerView]:
    """The decision points of the first ``rounds`` rounds of seeded three-player games."""
    out = []
    for seed in seeds:
        state = new_game(["a", "b", "c"], seed=seed)
        while not (state.phase is Phase.ROUND_OVER and state.round >= rounds):
            if state.phase is Phase.ROUND_OVER:
                state = deal_next_round(state)
                continue
            seat = to_act(state)[0]
            seen = view(state, seat)
            if seen.legal:
                out.append(seen)
            state = apply(state, legal_actions(state, seat)[0])
    return out


def rss_mib(pid: int) -> float:
    """Resident memory of a process, MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in "ZX"
    except (FileNotFoundError, ProcessLookupError):  # reaped before the open or the read
        return False


def ms(xs: list[float], q: float) -> str:
    """The ``q`` quantile of ``xs`` seconds, in milliseconds."""
    xs = sorted(xs)
    return f"{1000 * xs[min(len(xs) - 1, int(q * len(xs)))]:.1f}"


async def in_pool(processes: int, decisions: int) -> None:
    """Start-up, memory, round trip against in-process, throughput, and one fallback."""
    pool = ThinkerPool(processes, deadline=120.0)
    t = time.perf_counter()
    pids = await pool.start()
    print(f"start {processes} workers until ready: {time.perf_counter() - t:.2f} s")
    print("worker RSS: " + ", ".join(f"{rss_mib(p):.1f} MiB" for p in pids))
    sample = views(range(1, 1000), rounds=1)[:decisions]
    local, remote = [], []
    for k, seen in enumerate(sample):
        t = time.perf_counter()
        decide("normal", k, seen)
        local.append(time.perf_counter() - t)
        t = time.perf_counter()
        await pool.decide("normal", k, seen)
        remote.append(time.perf_counter() - t)
    print(
        f"round-1 'normal' decisions, one at a time ({len(sample)}): in-process p50 "
        f"{ms(local, 0.5)} ms p99 {ms(local, 0.99)} ms; through a worker p50 "
        f"{ms(remote, 0.5)} ms p99 {ms(remote, 0.99)} ms"
    )
    big = views(range(1, 5), rounds=3)
    t = time.perf_counter()
    for k, v in enumerate(big):
        decide("normal", k, v)
    alone = time.perf_counter() - t
    t = time.perf_counter()
    await asyncio.gather(*(pool.decide("normal", k, v) for k, v in enumerate(big)))
    wall = time.perf_counter() - t
    print(
        f"{len(big)} decisions of rounds 1-3: in-process one after another "
        f"{len(big) / alone:.0f}/s; all at once through {processes} workers {len(big) / wall:.0f}/s"
    )
    os.kill(pids[0], signal.SIGSTOP)
    t = time.perf_counter()
    tasks = [pool.decide("normal", k, v, deadline=0.5) for k, v in enumerate(sample[:processes])]
    await asyncio.gather(*tasks)
    took = time.perf_counter() - t
    t = time.perf_counter()
    await pool.start()
    print(
        f"one worker stopped, {processes} decisions with a 0.5 s deadline: all answered in "
        f"{took:.2f} s; replacement ready {time.perf_counter() - t:.2f} s later"
    )
    await pool.close()


def parent_death(mode: str, processes: int, wait: float, stop: bool) -> str:
    """SIGKILL a parent of workers; how long its workers outlived it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, mode, str(processes)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert parent.stdout is not None
        pids = [int(p) for p in parent.stdout.readline().split()[1:]]
        assert len(pids) == processes, pids
        if stop:
            os.kill(pids[0], signal.SIGSTOP)
    finally:
        parent.kill()
        parent.wait()
    t = time.perf_counter()
    while any(alive(p) for p in pids) and time.perf_counter() - t < wait:
        time.sleep(0.05)
    left = [p for p in pids if alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    if left:
        return f"{len(left)} of {len(pids)} workers still alive after {wait:g} s"
    return f"all {len(pids)} workers gone {time.perf_counter() - t:.2f} s after the SIGKILL"


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--wait", type=float, default=20.0)
    args = parser.parse_args()
    print(machine())
    asyncio.run(in_pool(args.processes, args.decisions))
    for mode in ("pool", "executor"):
        for stop in (False, True):
            what = "one worker stopped" if stop else "workers idle"
            print(
                f"parent SIGKILLed, {mode}, {what}: "
                f"{parent_death(mode, args.processes, args.wait, stop)}"
            )


if __name__ == "__main__":
    main()
