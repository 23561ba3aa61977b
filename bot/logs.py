"""The log on stderr: discord.py's format, without what says nothing to an operator."""

from __future__ import annotations

import logging
import sys

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
    if sys.stderr.isatty():
        discord.utils.setup_logging(handler=handler, level=getattr(logging, level))
    else:
        discord.utils.setup_logging(
            handler=handler, formatter=_PLAIN, level=getattr(logging, level)
        )


def _not_about_voice(record: logging.LogRecord) -> bool:
    """Drops discord.py's warnings at every start that voice needs PyNaCl and davey: the
    bot never joins a voice channel."""
    return record.name != "discord.client" or "voice will NOT" not in record.getMessage()
