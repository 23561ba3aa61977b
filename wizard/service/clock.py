"""Time for the service: wall-clock deadlines in production, virtual time in tests."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol


class TimerHandle(Protocol):
    """Something that can be cancelled."""

    def cancel(self) -> None:
        """Do not fire."""
        ...


class Clock(Protocol):
    """Unix time and timers; the service never reads time any other way."""

    def now(self) -> float:
        """Seconds since the epoch (deadlines are stored so they survive restarts)."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        """Call ``callback`` (on the event loop) once ``now() >= when``."""
        ...


class SystemClock:
    """The real clock: ``time.time()`` and the running event loop's timers."""

    def now(self) -> float:
        """Wall-clock Unix time."""
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        """Schedule on the running loop; a deadline in the past fires at once."""
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - time.time()), callback)


@dataclass(slots=True)
class _VirtualTimer:
    when: float
    callback: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


class VirtualClock:
    """A clock that moves only when told to: tests advance it and timers fire in order."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._heap: list[tuple[float, int, _VirtualTimer]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        """The virtual time."""
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        """Fire ``callback`` when :meth:`advance` passes ``when``."""
        timer = _VirtualTimer(when, callback)
        heapq.heappush(self._heap, (when, next(self._counter), timer))
        return timer

    async def advance(
        self, seconds: float, settle: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        """Move time on by ``seconds``, firing due timers in order.

        After each timer, ``settle`` (e.g. ``service.wait_idle``) is awaited so that
        the work it started, and the timers that work arms, happen at the right time.
        """
        target = self._now + seconds
        while True:
            while self._heap and self._heap[0][2].cancelled:
                heapq.heappop(self._heap)  # cancelled timers never fire
            if not self._heap or self._heap[0][0] > target:
                break
            due, _, timer = heapq.heappop(self._heap)
            self._now = max(self._now, due)
            timer.callback()
            await asyncio.sleep(0)
            if settle is not None:
                await settle()
        self._now = target
