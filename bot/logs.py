"""The log on stderr: discord.py's format, without what says nothing to an operator."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable

_PLAIN = logging.Formatter(
    "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{"
)


def start_logging(level: str) -> None:
    """Log to stderr at ``level`` (a name such as ``"INFO"``): discord.py's coloured lines
    on a terminal, plain ones anywhere else (a file, ``docker logs``, a log collector),
    where discord.py would colour them whenever it guesses Docker."""
    import discord

    handler = logging.StreamHandler()
    handler.addFilter(_not_about_voice)
    handler.addFilter(GatewayRetries())
    if sys.stderr.isatty():
        discord.utils.setup_logging(handler=handler, level=getattr(logging, level))
    else:
        discord.utils.setup_logging(
            handler=handler, formatter=_PLAIN, level=getattr(logging, level)
        )
    # aiosqlite's debug lines are every statement with its parameters, the interaction
    # tokens of open hands among them (operator QA): a debug log is shared to get help.
    logging.getLogger("aiosqlite").setLevel(max(logging.INFO, getattr(logging, level)))


def _not_about_voice(record: logging.LogRecord) -> bool:
    """Drops discord.py's warnings at every start that voice needs PyNaCl and davey: the
    bot never joins a voice channel."""
    return record.name != "discord.client" or "voice will NOT" not in record.getMessage()


class GatewayRetries:
    """discord.py's "Failed to connect for shard_id" (its gateway websocket cannot be
    opened: it retries every 5 s, for ever, with the whole traceback each time) told in one
    line, at once and then once ``every`` seconds per shard, with the number of tries."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, every: float = 60.0) -> None:
        self._clock = clock
        self._every = every
        self._tries: dict[object, int] = {}
        self._told: dict[object, float] = {}

    def __call__(self, record: logging.LogRecord) -> bool:
        if record.name != "discord.shard" or not str(record.msg).startswith(
            "Failed to connect for shard_id"
        ):
            return True
        shard = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
        tries = self._tries[shard] = self._tries.get(shard, 0) + 1
        now = self._clock()
        told = self._told.get(shard)
        if told is not None and now - told < self._every:
            return False
        self._told[shard] = now
        error = record.exc_info[1] if record.exc_info else None
        cause = " ".join(f"{type(error).__name__}: {error}".split()) if error else "no reason given"
        record.msg = (
            "shard %s cannot connect to Discord's gateway (%s); retrying every 5 s, attempt %d"
            " failed. Is a firewall or proxy blocking websockets to gateway.discord.gg?"
        )
        record.args = (shard, cause, tries)
        record.exc_info = record.exc_text = None
        return True
