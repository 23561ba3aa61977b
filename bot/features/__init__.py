"""The bot's features, each in one place: what its messages say, their buttons, the clicks
on them and how they are published.

- :mod:`~bot.features.lobby`: the lobby (embed, buttons, clicks, the lobby message).
- :mod:`~bot.features.table`: the public table (embed, open-bid buttons, bids made on it,
  the paced table edits).
- :mod:`~bot.features.hand`: a player's private hand (text, move buttons, the clicks on it);
  :class:`bot.cogs.open_hands.OpenHands` keeps open hands in step with the game.
- :mod:`~bot.features.summaries`: round summaries and final standings ("Play again").
- :mod:`~bot.features.pings`: the turn ping.
- :mod:`~bot.features.rules`: ``/wizard rules``.
- :mod:`~bot.features.community`: leaderboards, statistics, history (a package: it is
  bigger than one module should be).
- :mod:`~bot.features.settings`: ``/wizard settings`` and its panel.

A feature is a module while it fits in one (under 600 lines) and a package when it does not,
as in discord.py's examples and python-discord's bot. Shared pieces live in one small place
each: words and card names in :mod:`bot.i18n`, custom ids and the restart-proof button in
:mod:`bot.ui.buttons`, a game's messages and their REST calls in :mod:`bot.cogs.messages`,
answering clicks in time in :mod:`bot.cogs.clicks`, a server's language and card theme in
:mod:`bot.cogs.look`, refusals turned into replies in :mod:`bot.cogs.replies`.
"""
