"""Leaderboards, statistics and history of a server (``/wizard leaderboard|stats|history``)."""
