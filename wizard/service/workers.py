"""Supervised worker processes that make expensive computer decisions off the event loop.

A search decision holds the GIL for up to 0.4 s, so it runs in another process. Each
worker is a ``multiprocessing`` process (spawn: the service runs aiosqlite's thread, and
forking a process with threads can deadlock the child) with its own pipe, supervised here:

- a worker exits when its parent dies, however it dies: a watcher thread in the worker
  sees the end of a pipe only the parent holds, or a new parent pid; on Linux the kernel
  also kills it (``PR_SET_PDEATHSIG``), which reaches a worker that is stopped or stuck;
- every decision has a deadline; past it the fallback heuristic decides in-process, and a
  worker still holding the decision is killed and replaced; a worker that dies is
  replaced the same way and its decision falls back at once;
- decisions go to idle workers only, so a hung worker never delays another game's
  decision by more than that decision's own deadline.

Use one pool from one event loop, on the thread that runs the service (POSIX: it waits on
the pipes with ``add_reader``; Linux ties ``PR_SET_PDEATHSIG`` to the thread that started a
worker, so workers are started on the loop's thread, never from a short-lived one)::

    pool = ThinkerPool(2, deadline=2.0)
    action = await pool.decide("hard", seed, view, context=f"game {game_id} seat {seat}")
    await pool.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import itertools
import logging
import multiprocessing
import os
import signal
import sys
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from wizard.ai import decide
from wizard.levels import known_level
from wizard.state import Action
from wizard.view import PlayerView

log = logging.getLogger(__name__)

START_TIMEOUT = 60.0
"""Seconds a new worker may take to start and say it is ready before it is killed."""

START_BACKOFF = 10.0
"""Seconds without starting workers after one died while starting (or could not start)."""

STOP_GRACE = 1.0
"""Seconds :meth:`ThinkerPool.close` gives workers to exit after SIGTERM, before SIGKILL."""

REAP_WAIT = 10.0
"""Seconds to wait for a SIGKILLed worker to be reaped before giving up on it."""

WATCH_INTERVAL = 1.0
"""Seconds between a worker's checks that its parent is still the process that started it."""

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


# --- the worker's side ----------------------------------------------------------------------


def _serve(tasks: Connection, lifeline: Connection, parent: int) -> None:
    """A worker's main loop: answer ``(id, level, seed, view)`` requests until the parent goes."""
    # Ctrl-C in a terminal reaches the whole process group: the parent handles it and
    # closes its workers (or dies, which they notice), so a worker ignores it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent)
    threading.Thread(
        target=_watch, args=(lifeline, parent), name="watch-parent", daemon=True
    ).start()
    try:
        tasks.send(("ready", os.getpid()))
        while True:
            job, level, seed, seen = tasks.recv()
            reply: tuple[int, bool, Action | str]
            try:
                reply = (job, True, decide(level, seed, seen))
            except Exception as e:  # a computer-player bug: the parent falls back and logs it
                reply = (job, False, f"{type(e).__name__}: {e}"[:1000])
            tasks.send(reply)
    except (EOFError, OSError):  # the parent closed our pipe or is gone
        os._exit(0)


def _die_with_parent(parent: int) -> None:
    """Have the kernel SIGKILL this worker when its parent dies (Linux), then check it lives."""
    if sys.platform.startswith("linux"):
        # Best effort: this reaches a worker whose watcher cannot run (stopped, or stuck in
        # C code holding the GIL); the watcher thread covers every other platform.
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(ctypes.c_int(_PR_SET_PDEATHSIG), ctypes.c_ulong(signal.SIGKILL))
    if os.getppid() != parent:  # the parent died before the kernel could be asked
        os._exit(0)


def _watch(lifeline: Connection, parent: int) -> None:
    """End this worker when the parent's end of ``lifeline`` closes or the parent changes."""
    while True:
        try:
            if lifeline.poll(WATCH_INTERVAL):
                lifeline.recv()  # the parent never writes: readable means end of file
        except (EOFError, OSError):
            os._exit(0)
        if os.getppid() != parent:  # a forked copy of the parent may still hold the pipe
            os._exit(0)


# --- the parent's side ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Fallback:
    """Why a decision is made by the fallback heuristic instead of a worker."""

    reason: str


@dataclass(eq=False, slots=True)
class _Job:
    """A decision handed to a worker: its answer, and the timer of its deadline."""

    id: int
    answer: asyncio.Future[Action | _Fallback]
    timer: asyncio.TimerHandle | None = None


@dataclass(eq=False, slots=True)
class _Worker:
    """One worker process, the parent's ends of its pipes, and what it is doing."""

    process: BaseProcess
    tasks: Connection
    lifeline: Connection
    ready: bool = False
    ready_at: float = 0.0
    """When it said it was ready (the event loop's time)."""
    job: _Job | None = None
    start_timer: asyncio.TimerHandle | None = None


class ThinkerPool:
    """Worker processes that make expensive computer decisions off the event loop.

    :meth:`decide` never raises for a worker's failure: a decision a worker does not
    answer by its deadline, or that a dying, failing or closed worker leaves unanswered,
    is made by ``fallback_level`` in-process, with one warning logged. Without a deadline
    hit the answer is ``wizard.ai.decide(level, seed, view)``, as if made in-process.
    """

    def __init__(
        self, processes: int = 1, *, deadline: float = 2.0, fallback_level: str = "easy"
    ) -> None:
        if processes < 1:
            raise ValueError("a thinker pool needs at least one process")
        if not deadline > 0:
            raise ValueError("the deadline of a decision must be positive")
        self.processes = processes
        self.deadline = deadline
        self.fallback_level = known_level(fallback_level)
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._wakeups: list[asyncio.Future[None]] = []
        self._reapers: set[asyncio.Task[None]] = set()
        self._ids = itertools.count(1)
        self._no_start_before = 0.0
        self._closed = False

    @property
    def pids(self) -> tuple[int, ...]:
        """The process ids of the current workers, started or still starting."""
        return tuple(w.process.pid for w in self._workers if w.process.pid is not None)

    @property
    def busy(self) -> int:
        """How many workers hold a decision now."""
        return sum(w.job is not None for w in self._workers)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closed

    async def start(self) -> tuple[int, ...]:
        """Start every worker now and wait until each is ready (or lost); their pids.

        Optional: :meth:`decide` starts the workers on first use. This warms them, so
        the first decisions do not spend their deadline on a worker's start-up.
        """
        self._top_up()
        while not self._closed and any(not w.ready for w in self._workers):
            await self._wait_for_change(None)
        return self.pids

    async def decide(
        self,
        level: str,
        seed: int,
        view: PlayerView,
        *,
        context: str = "",
        deadline: float | None = None,
    ) -> Action:
        """The decision of a ``level`` player for ``view``, made by a worker within the deadline.

        ``context`` (e.g. ``"game 12 seat 2"``) goes into the warning of a fallback;
        ``deadline`` overrides the pool's for this decision. The time spent waiting for
        an idle worker counts towards it; a wait for a worker still starting does not (QA:
        the first decision after a restart fell back on a loaded machine, where a start
        takes seconds): the deadline runs from its start, which has ``START_TIMEOUT``.
        After :meth:`close`, and for decisions pending when it is called, the fallback
        decides.
        """
        known_level(level)
        if not view.legal:
            raise ValueError("a decision needs at least one legal action")
        budget = self.deadline if deadline is None else deadline
        due = asyncio.get_running_loop().time() + budget
        worker = await self._acquire(due, budget)
        if isinstance(worker, _Worker):
            due = max(due, worker.ready_at + budget)  # it started while this waited
        outcome = (
            await self._ask(worker, level, seed, view, due=due, budget=budget)
            if isinstance(worker, _Worker)
            else worker
        )
        if isinstance(outcome, _Fallback):
            log.warning(
                "%s: the %s computer decision was made by the %s fallback: %s",
                context or "a computer decision",
                level,
                self.fallback_level,
                outcome.reason,
            )
            return decide(self.fallback_level, seed, view)
        return outcome

    async def close(self) -> None:
        """Stop every worker (SIGTERM, then SIGKILL after a grace) and wait until they exit.

        Idempotent. Pending decisions fall back to the heuristic; so do later ones.
        """
        if not self._closed:
            self._closed = True
            for worker in list(self._workers):
                self._lose(worker, "the pool was closed", kill=False)
            self._wake()
        while self._reapers:
            await asyncio.gather(*list(self._reapers), return_exceptions=True)

    # --- handing out decisions ----------------------------------------------------------------

    async def _acquire(self, due: float, budget: float) -> _Worker | _Fallback:
        """An idle ready worker, marked busy by the caller at once; or why there is none."""
        while True:
            if self._closed:
                return _Fallback("the pool is closed")
            self._top_up()
            for worker in self._workers:
                if worker.ready and worker.job is None:
                    return worker
            if not self._workers:
                return _Fallback("no worker process is running")
            # Only workers still starting: wait for one (a start that fails or passes
            # START_TIMEOUT loses its worker, which ends this wait too).
            only_starting = not any(w.ready for w in self._workers)
            if not await self._wait_for_change(None if only_starting else due):
                starting = sum(not w.ready for w in self._workers)
                return _Fallback(
                    f"no worker was free within {budget:g} s "
                    f"({self.busy} busy, {starting} starting)"
                )

    async def _ask(
        self, worker: _Worker, level: str, seed: int, view: PlayerView, *, due: float, budget: float
    ) -> Action | _Fallback:
        """Send one decision to ``worker`` and wait for its answer or its fallback."""
        loop = asyncio.get_running_loop()
        job = _Job(next(self._ids), loop.create_future())
        worker.job = job
        try:
            # One request at a time per worker, a few KiB (2.6 KiB at most, measured over
            # whole 3- to 6-player games), and a pipe buffers 64 KiB: this never blocks,
            # even on a stopped worker.
            worker.tasks.send((job.id, level, seed, view))
        except (OSError, ValueError) as e:
            self._lose(worker, f"the worker process could not be reached ({e})")
        else:
            job.timer = loop.call_at(due, self._expire, worker, job, budget)
        return await job.answer

    async def _wait_for_change(self, due: float | None) -> bool:
        """Wait until a worker is ready, idle or lost; False if ``due`` came first."""
        wake = asyncio.get_running_loop().create_future()
        self._wakeups.append(wake)
        try:
            async with asyncio.timeout_at(due):
                await wake
        except TimeoutError:
            return False
        finally:
            with contextlib.suppress(ValueError):
                self._wakeups.remove(wake)
        return True

    def _wake(self) -> None:
        # Every waiter looks again, so a wake-up taken by a waiter that has just timed
        # out is never lost for the others.
        for wake in self._wakeups:
            if not wake.done():
                wake.set_result(None)

    # --- the life of a worker ---------------------------------------------------------------

    def _top_up(self) -> None:
        """Start workers until there are ``processes`` of them (unless closed or backing off)."""
        loop = asyncio.get_running_loop()
        while (
            len(self._workers) < self.processes
            and not self._closed
            and loop.time() >= self._no_start_before
        ):
            try:
                self._workers.append(self._spawn(loop))
            except OSError as e:
                log.warning("could not start a computer-player worker process: %s", e)
                self._no_start_before = loop.time() + START_BACKOFF
                return

    def _spawn(self, loop: asyncio.AbstractEventLoop) -> _Worker:
        """Start one worker process with its task pipe and its lifeline."""
        tasks, child_tasks = self._context.Pipe()
        lifeline_end, lifeline = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_serve,
            args=(child_tasks, lifeline_end, os.getpid()),
            name="wizard-thinker",
            daemon=True,  # also stopped by multiprocessing when the parent exits normally
        )
        try:
            process.start()
        except BaseException:
            tasks.close()
            lifeline.close()
            raise
        finally:
            # The worker holds its own copies now; without ours, its death reads as an
            # end of file on ``tasks``.
            child_tasks.close()
            lifeline_end.close()
        worker = _Worker(process, tasks, lifeline)
        loop.add_reader(tasks.fileno(), self._on_readable, worker)
        worker.start_timer = loop.call_later(START_TIMEOUT, self._check_started, worker)
        return worker

    def _on_readable(self, worker: _Worker) -> None:
        """Read one message of ``worker``: ready, an answer, or the end of file of its death."""
        try:
            message: Any = worker.tasks.recv()
        except (EOFError, OSError):
            self._lose(worker, "the worker process exited")
            return
        except Exception as e:  # an unreadable answer: that worker cannot be trusted
            self._lose(worker, f"the worker sent an unreadable message ({e!r})")
            return
        if message[0] == "ready":
            worker.ready = True
            worker.ready_at = asyncio.get_running_loop().time()
            if worker.start_timer is not None:
                worker.start_timer.cancel()
            self._wake()
            return
        job_id, ok, payload = message
        job = worker.job
        if job is None or job.id != job_id:
            return  # cannot happen: a worker holds one job until it answers or is killed
        worker.job = None
        if job.timer is not None:
            job.timer.cancel()
        if not job.answer.done():  # not when the caller was cancelled meanwhile
            job.answer.set_result(payload if ok else _Fallback(f"the worker failed: {payload}"))
        self._wake()

    def _expire(self, worker: _Worker, job: _Job, budget: float) -> None:
        """A decision's deadline: if its worker still holds it, kill and replace the worker."""
        if worker.job is job:
            pid = worker.process.pid
            self._lose(worker, f"no answer within {budget:g} s; worker {pid} killed and replaced")

    def _check_started(self, worker: _Worker) -> None:
        if not worker.ready:
            self._lose(worker, f"the worker did not start within {START_TIMEOUT:g} s")

    def _lose(self, worker: _Worker, reason: str, *, kill: bool = True) -> None:
        """Drop ``worker``: its decision falls back, its process is stopped and reaped."""
        if worker not in self._workers:
            return
        self._workers.remove(worker)
        loop = asyncio.get_running_loop()
        loop.remove_reader(worker.tasks.fileno())
        worker.tasks.close()
        worker.lifeline.close()  # a worker that can still run its watcher exits now
        if worker.start_timer is not None:
            worker.start_timer.cancel()
        job, worker.job = worker.job, None
        if job is not None:
            if job.timer is not None:
                job.timer.cancel()
            if not job.answer.done():
                job.answer.set_result(_Fallback(reason))
        reaper = loop.create_task(_stop(worker.process, kill=kill))
        self._reapers.add(reaper)
        reaper.add_done_callback(self._reapers.discard)
        if not self._closed:
            if worker.ready:
                self._top_up()  # a worker that had worked is replaced at once
            else:
                # It died or hung while starting: start no other for a while, rather than
                # start one after another that may die the same way.
                log.warning("a computer-player worker failed while starting: %s", reason)
                self._no_start_before = loop.time() + START_BACKOFF
        self._wake()


async def _stop(process: BaseProcess, *, kill: bool) -> None:
    """Stop ``process`` (SIGKILL at once, or SIGTERM and SIGKILL after a grace) and reap it."""
    with contextlib.suppress(ValueError, OSError):  # already reaped, or never started
        if kill:
            process.kill()
        else:
            process.terminate()
            await asyncio.to_thread(process.join, STOP_GRACE)
            if process.exitcode is None:  # a stopped process ignores SIGTERM until continued
                process.kill()
        await asyncio.to_thread(process.join, REAP_WAIT)
        if process.exitcode is None:
            log.error("computer-player worker %s did not exit after SIGKILL", process.pid)
            return
        process.close()
