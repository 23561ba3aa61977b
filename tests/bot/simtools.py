"""SimCord tools shared by the bot's tests and the benchmark (``bench/bot.py``).

* :func:`rest_kind`: what each REST call of the bot was for, read from SimCord's log
  (``env.http_requests``), so that the REST tests and the benchmark count the same things
  under the same names;
* :class:`VirtualTimers`: a clock for the bot whose timers fire only when the test moves
  SimCord's virtual clock.

They live with the tests because they are about SimCord, which only the tests and the
benchmark use; the benchmark imports this module from the repository root.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Protocol

import simcord

from bot.clock import DiscordClock


class RestKind(StrEnum):
    """A kind of REST call, labelled as the benchmark prints it."""

    RESPONSE = "interaction responses"
    WEBHOOK_EDIT = "hand redraws (webhook edits)"
    """An ephemeral hand edited through its interaction token (or a deferred answer)."""
    FOLLOWUP = "followups (webhook posts)"
    EDIT = "table edits (and round summaries)"
    POST = "posts (new tables, standings, pings)"
    DELETE = "deletes (old pings)"
    OTHER = "other (login, command sync)"


class RestCall(Protocol):
    """What the classifier reads of one entry of SimCord's REST log."""

    @property
    def method(self) -> str: ...
    @property
    def path(self) -> str: ...


def rest_kind(method: str, path: str) -> RestKind:
    """The kind of the REST call ``method path`` (``path`` as SimCord logs it)."""
    if path.startswith("/interactions/"):
        return RestKind.RESPONSE
    if path.startswith("/webhooks/"):
        if method == "PATCH":
            return RestKind.WEBHOOK_EDIT
        if method == "POST":
            return RestKind.FOLLOWUP
    if path.startswith("/channels/"):
        if method == "PATCH":
            return RestKind.EDIT
        if method == "POST":
            return RestKind.POST
        if method == "DELETE":
            return RestKind.DELETE
    return RestKind.OTHER


def rest_kinds(calls: Iterable[RestCall]) -> Counter[RestKind]:
    """How many calls of each kind ``calls`` holds."""
    return Counter(rest_kind(c.method, c.path) for c in calls)


class _TaskTimer:
    """A timer handle for :class:`VirtualTimers`."""

    def __init__(self, task: asyncio.Task[None]) -> None:
        self._task = task

    def cancel(self) -> None:
        """Do not fire."""
        self._task.cancel()


class VirtualTimers:
    """The bot's clock in SimCord (:class:`bot.clock.DiscordClock`'s time), with timers that
    fire only through ``env.advance_time``.

    SimCord waits in real time, within a click, for a bot timer shorter than its settle
    timeout, and fires a longer one on the real clock anyway once that many real seconds
    have passed. A test or a benchmark of edit pacing needs the pace it asks for instead.
    Give it to the bot only (the service keeps its own clock); set :attr:`env` once the
    simulation runs.
    """

    def __init__(self) -> None:
        self.env: simcord.Env | None = None
        self._time = DiscordClock()

    def now(self) -> float:
        """SimCord's virtual time, as Unix time."""
        return self._time.now()

    def call_at(self, when: float, callback: Callable[[], None]) -> _TaskTimer:
        """Call ``callback`` once the virtual clock reaches ``when``."""
        env = self.env
        assert env is not None, "set VirtualTimers.env first"

        async def wait() -> None:
            delay = max(0.0, when - self.now())
            await env.external_wait(asyncio.sleep(delay), reason="bot timer on virtual time")
            callback()

        return _TaskTimer(asyncio.ensure_future(wait()))
