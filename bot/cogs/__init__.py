"""The bot's game cog and its helpers (the game cog is :mod:`bot.cogs.game`)."""

from bot.cogs.config import GameConfig

__all__ = ["GameConfig"]
