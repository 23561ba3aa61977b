"""Child process of the worker tests: a bot-like parent of computer-player workers.

Run: ``python workers_child.py MODE`` with MODE ``pool`` (a :class:`ThinkerPool`) or
``executor`` (a plain spawn ``ProcessPoolExecutor``, as the service used before, to show
the orphans). It makes one decision per worker, prints ``PIDS pid pid``, flushed, then
waits to be killed.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from wizard.ai import decide
from wizard.rules import deal_next_round, new_game, to_act
from wizard.view import PlayerView, view

PROCESSES = 2


def small_view(seed: int) -> PlayerView:
    """The first decision of a seeded three-player game (round 1)."""
    state = deal_next_round(new_game(["a", "b", "c"], seed=seed))
    return view(state, to_act(state)[0])


async def with_pool() -> None:
    from wizard.service.workers import ThinkerPool

    pool = ThinkerPool(PROCESSES, deadline=120.0)
    await pool.start()
    await asyncio.gather(*(pool.decide("normal", k, small_view(k)) for k in range(PROCESSES)))
    report()


def with_executor() -> None:
    pool = ProcessPoolExecutor(PROCESSES, mp_context=multiprocessing.get_context("spawn"))
    futures = [pool.submit(decide, "normal", k, small_view(k)) for k in range(PROCESSES)]
    for f in futures:
        f.result()
    report()


def report() -> None:
    pids = sorted(p.pid for p in multiprocessing.active_children() if p.pid is not None)
    sys.stdout.write("PIDS " + " ".join(map(str, pids)) + "\n")
    sys.stdout.flush()
    while True:  # wait to be killed, like a server would run on
        time.sleep(1)


if __name__ == "__main__":
    if sys.argv[1] == "executor":
        with_executor()
    else:
        asyncio.run(with_pool())


def exit_at_once(*_args: object) -> None:
    """A worker main that dies while starting (the start-up failure tests use it)."""
    os._exit(3)
