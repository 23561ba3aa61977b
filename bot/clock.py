"""The game service's clock as the bot gives it: time read through ``discord.utils.utcnow``.

In production this is the wall clock, like the service's own ``SystemClock``. Under SimCord
it is the simulated clock: SimCord moves ``discord.utils.utcnow``, ``time.monotonic`` and the
event loop's timers with ``env.advance_time``, but not ``time.time``, so a clock built on
``time.time`` never sees a turn timer or a computer delay come due in a test.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import discord


class DiscordClock:
    """Unix time and timers for ``wizard.service`` (its ``Clock`` protocol)."""

    def now(self) -> float:
        """Seconds since the epoch, as discord.py sees them."""
        return discord.utils.utcnow().timestamp()

    def call_at(self, when: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        """Call ``callback`` on the running loop once ``now() >= when`` (at once if past)."""
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - self.now()), callback)
