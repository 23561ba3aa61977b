"""Discord failing a request of the bot: an HTTP error answer, or no answer at all.

discord.py turns Discord's error answers into :class:`discord.HTTPException`. A request that
gets no answer (a timeout, a connection refused or dropped on the way) raises what aiohttp
raises instead (:data:`NO_ANSWER`), and the bot cannot tell whether Discord carried it out.
Both are Discord's trouble of the moment, not the bot's: wherever the bot talks to Discord it
catches :data:`DISCORD_FAILED`, and says what happened with :func:`failure_text`.
"""

from __future__ import annotations

import traceback
from typing import Final, TypeGuard

import aiohttp
import discord

NO_ANSWER: Final = (aiohttp.ClientError, TimeoutError)
"""What a request that got no answer from Discord raises (``asyncio.TimeoutError`` is
``TimeoutError``)."""

DISCORD_FAILED: Final = (discord.HTTPException, *NO_ANSWER)
"""Everything a request to Discord raises when it did not go through."""

DiscordFailure = discord.HTTPException | aiohttp.ClientError | TimeoutError
"""The type of what :data:`DISCORD_FAILED` catches."""

ALREADY_ACKNOWLEDGED: Final = 40060
"""Discord's error code: the interaction was answered already."""


_CLIENT_MODULES: Final = ("discord.", "aiohttp.")


def from_discord(error: BaseException) -> TypeGuard[DiscordFailure]:
    """Whether ``error`` is Discord failing a request: an error answer, or no answer to a
    request made through discord.py (a timeout raised by the bot's own code, the service's
    or a worker's, is none of Discord's: a fault to report with its traceback)."""
    if isinstance(error, discord.HTTPException):
        return True
    return isinstance(error, NO_ANSWER) and any(
        str(frame.f_globals.get("__name__", "")).startswith(_CLIENT_MODULES)
        for frame, _ in traceback.walk_tb(error.__traceback__)
    )


def discords_own(error: BaseException) -> TypeGuard[DiscordFailure]:
    """Whether Discord failed for a reason of its own (an outage, no answer, a rate limit, an
    unknown interaction, message or channel, a missing permission), not because a request of
    ours was malformed (a 400: a bug, reported with its traceback)."""
    if isinstance(error, discord.HTTPException):
        return (
            error.status >= 500
            or error.status in (403, 404, 429)
            or error.code == ALREADY_ACKNOWLEDGED
        )
    return from_discord(error)


def passing(error: DiscordFailure) -> bool:
    """Whether the same request may well go through later: Discord's server errors and rate
    limits, and no answer at all (not a refusal such as a missing permission)."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return True


def failure_text(error: DiscordFailure) -> str:
    """What happened, for the log: ``503 0: Service Unavailable``, or
    ``no answer (TimeoutError)``."""
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.code}: {error.text}"
    detail = str(error)
    return f"no answer ({type(error).__name__}{': ' + detail if detail else ''})"
