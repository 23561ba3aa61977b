"""The bot's log as an operator reads it: in a file or ``docker logs``, not only a terminal."""

from __future__ import annotations

import logging
import subprocess
import sys

from bot.logs import GatewayRetries
from tests.ops_support import PROCESS_TIMEOUT, clean_env

_START = """
import logging
from bot.logs import start_logging
start_logging("INFO")
import discord
discord.Client(intents=discord.Intents.default())
logging.getLogger("bot").warning("health: NOT healthy")
"""


def test_the_log_carries_no_voice_warnings_nor_colour_codes_when_not_a_terminal() -> None:
    """Every start logged "PyNaCl is not installed, voice will NOT be supported" (and the
    same of davey): two warnings about a feature the bot never uses, beside the ones that
    matter. And discord.py colours its lines whenever it guesses Docker, so ``docker logs
    wizard > file`` and log collectors got escape codes around every field."""
    result = subprocess.run(
        [sys.executable, "-c", _START],
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert "voice" not in result.stderr, lines
    assert "\x1b[" not in result.stderr, lines
    assert len(lines) == 1, lines
    assert lines[0].endswith("] [WARNING ] bot: health: NOT healthy"), lines


def _failed_connect(shard: int) -> logging.LogRecord:
    """discord.py's record when a shard cannot open its gateway websocket (it retries every
    5 s, for ever, logging the whole traceback each time)."""
    try:
        raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 1)")
    except ConnectionRefusedError:
        info = sys.exc_info()
    return logging.LogRecord(
        "discord.shard",
        logging.ERROR,
        "shard.py",
        485,
        "Failed to connect for shard_id: %s. Retrying...",
        (shard,),
        info,
    )


def test_a_gateway_out_of_reach_is_told_in_a_line_a_minute_not_a_traceback_every_5_s() -> None:
    """Operator QA: with Discord's API answering but its gateway blocked (a firewall that
    stops websockets), discord.py logged about 57 lines of traceback every 5 s, for ever."""
    now = [0.0]
    retries = GatewayRetries(clock=lambda: now[0])
    shown = []
    for _ in range(24):  # two minutes of tries, 5 s apart
        record = _failed_connect(0)
        if retries(record):
            shown.append(record)
        now[0] += 5.0
    assert len(shown) == 2  # the first at once, then one a minute
    first, second = (r.getMessage() for r in shown)
    assert all(r.exc_info is None and r.exc_text is None for r in shown)
    assert first.startswith("shard 0 cannot connect to Discord's gateway"), first
    assert "ConnectionRefusedError" in first and "\n" not in first, first
    assert "firewall" in first, first
    assert "attempt 13 failed" in second, second
    other = logging.LogRecord("discord.client", logging.INFO, "c.py", 1, "hello", (), None)
    assert retries(other) and other.getMessage() == "hello"


_DEBUG = """
import asyncio, aiosqlite
from bot.logs import start_logging
start_logging("DEBUG")
async def main():
    async with aiosqlite.connect(":memory:") as conn:
        await conn.execute("SELECT ?", ("interaction-token-secret",))
        import logging
        logging.getLogger("wizard").debug("the bot's own debug line")
asyncio.run(main())
"""


def test_a_debug_log_shows_no_sql_parameters() -> None:
    """Operator QA: with LOG_LEVEL=DEBUG aiosqlite logged every statement with its
    parameters, among them the interaction tokens of open hands (which let anyone edit
    those messages for 15 minutes): an operator who shared a log to get help shared them.
    The bot's own debug lines stay."""
    result = subprocess.run(
        [sys.executable, "-c", _DEBUG],
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "interaction-token-secret" not in result.stderr, result.stderr
    assert "the bot's own debug line" in result.stderr, result.stderr
