"""The layout of button sets: Discord's limits and the button colours."""

from __future__ import annotations

from typing import Final

import discord

MAX_BUTTONS: Final = 25
"""Discord allows 5 rows of 5 buttons in a message."""
ROW_WIDTH: Final = 5
MAX_ROWS: Final = 5


def even_width(count: int) -> int:
    """How many of ``count`` buttons go on a row so that they take as few rows as rows of
    five would, each row as wide as the first and the last taking what is left (demo QA:
    round 5's bids 0…5 left "5" alone on a row below 0…4; now 3 and 3). A last row that is
    no wider than the others leaves room there for the buttons that follow the bids (round
    20's 21 bids: 5, 5, 5, 5 and 1, then "Show my hand").

    >>> [even_width(n) for n in (2, 5, 6, 7, 10, 11, 21)]
    [2, 5, 3, 4, 5, 4, 5]
    """
    rows = -(-count // ROW_WIDTH)
    return -(-count // rows) if rows else ROW_WIDTH


GREY: Final = discord.ButtonStyle.secondary
BLUE: Final = discord.ButtonStyle.primary
GREEN: Final = discord.ButtonStyle.success
RED: Final = discord.ButtonStyle.danger
