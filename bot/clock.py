"""The game service's clock as the bot gives it: time read through ``discord.utils.utcnow``.

In production this is the wall clock, like the service's own ``SystemClock``. Under SimCord
it is the simulated clock: SimCord moves ``discord.utils.utcnow``, ``time.monotonic`` and the
event loop's timers with ``env.advance_time``, but not ``time.time``, so a clock built on
``time.time`` never sees a turn timer or a computer delay come due in a test.

:class:`DiscordClock` is the one a running bot uses; :class:`SimCordClock` also keeps the
timers on SimCord's clock, for the demo, the tests and the benchmarks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from wizard.service.clock import TimerHandle

if TYPE_CHECKING:
    import simcord


class DiscordClock:
    """Unix time and timers for ``wizard.service`` (its ``Clock`` protocol)."""

    def now(self) -> float:
        """Seconds since the epoch, as discord.py sees them."""
        return discord.utils.utcnow().timestamp()

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        """Call ``callback`` on the running loop once ``now() >= when`` (at once if past)."""
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - self.now()), callback)


class _TaskTimer:
    """The handle of a :class:`SimCordClock` timer."""

    def __init__(self, task: asyncio.Future[None]) -> None:
        self._task = task

    def cancel(self) -> None:
        """Do not fire."""
        self._task.cancel()


class SimCordClock(DiscordClock):
    """SimCord's time, with timers that fire only when SimCord's clock is moved
    (``env.advance_time``), never on the real clock.

    With :class:`DiscordClock`, SimCord waits in real time inside a click for a timer due
    within its settle timeout, and fires a longer one on the real clock once that many real
    seconds have passed: what happened would depend on how fast the machine runs, and a
    loaded machine ran out of the timeout. On this clock the settle timeout bounds only real
    work. Give it to the bot and to the service (computer delays, turn timers, pings); set
    :attr:`env` once SimCord runs. Until then, and for a timer armed outside the bot's work
    (a direct service call), SimCord takes no declared wait: such a timer is an ordinary one
    on the real clock.
    """

    def __init__(self) -> None:
        self.env: simcord.Env | None = None
        """The running SimCord whose clock the timers wait for."""

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        """Call ``callback`` once SimCord's clock reaches ``when``."""
        import simcord

        env = self.env

        async def wait() -> None:
            delay = max(0.0, when - self.now())
            if env is None:
                await asyncio.sleep(delay)
            else:
                try:
                    await env.external_wait(
                        asyncio.sleep(delay), reason="bot timer on SimCord's clock"
                    )
                except simcord.SetupError:
                    await asyncio.sleep(delay)
            callback()

        return _TaskTimer(asyncio.ensure_future(wait()))
