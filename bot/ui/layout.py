"""The layout of button sets: Discord's limits and the button colours."""

from __future__ import annotations

from typing import Final

import discord

MAX_BUTTONS: Final = 25
"""Discord allows 5 rows of 5 buttons in a message."""
ROW_WIDTH: Final = 5
MAX_ROWS: Final = 5

GREY: Final = discord.ButtonStyle.secondary
BLUE: Final = discord.ButtonStyle.primary
GREEN: Final = discord.ButtonStyle.success
RED: Final = discord.ButtonStyle.danger
