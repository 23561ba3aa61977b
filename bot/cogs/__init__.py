"""The bot's features: the game cog (lobbies, tables, hands, commands) and its helpers."""

from bot.cogs.config import GameConfig
from bot.cogs.game import GameCog

__all__ = ["GameCog", "GameConfig"]
