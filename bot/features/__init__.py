"""The bot's features, one module each: what a surface says, its buttons and (in the
cogs) how it is published. Shared pieces live in ``bot.vocabulary``, ``bot.ui`` and ``bot.cogs``."""
