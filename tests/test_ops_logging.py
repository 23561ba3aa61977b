"""The bot's log as an operator reads it: in a file or ``docker logs``, not only a terminal."""

from __future__ import annotations

import subprocess
import sys

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
