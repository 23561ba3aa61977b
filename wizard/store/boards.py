"""The SQL of the community queries: ranks off the page, computer players' places and
lines, a player's recent games and favourite options. Read-only; the indexes they rely on
are named beside each query (migrations 4 and 5)."""

from __future__ import annotations

from typing import Any, Final

from wizard.store.db import Store

HUMAN_AFTER_TIES: Final = 2**63 - 1
"""A user id greater than any real one: a computer line counts as behind every player with
the same sort key (its tie-break), so that a tie never pushes a person down."""

# Each query counts the players of a server strictly ahead of a sort key under one order of
# ``repo.LEADERBOARD_ORDER``: where a computer line stands among them (ranks are counted by
# ``SHOWN_AHEAD_SQL`` below). The leading ``>=`` on the first sort column makes it a range of
# that order's index (migration 4), which holds every column the rest of the test reads: the
# count walks index entries, never table rows. Parameters: guild, min games, then the key.
AHEAD_SQL: Final[dict[str, str]] = {
    # rating DESC, games DESC, user_id; key: rating, games, user id
    "rating": (
        "SELECT COUNT(*) FROM players WHERE guild_id = ?1 AND games >= ?2 AND rating >= ?3"
        " AND (rating > ?3 OR games > ?4 OR (games = ?4 AND user_id < ?5))"
    ),
    # wins DESC, rating DESC, user_id; key: wins, rating, user id
    "wins": (
        "SELECT COUNT(*) FROM players WHERE guild_id = ?1 AND games >= ?2 AND wins >= ?3"
        " AND (wins > ?3 OR rating > ?4 OR (rating = ?4 AND user_id < ?5))"
    ),
    # average DESC, games DESC, user_id; key: total score, games, user id. The average is
    # computed by SQLite on both sides, in the index's own expression, so equal averages
    # compare equal (no round trip of a float through Python).
    "average": (
        "SELECT COUNT(*) FROM players WHERE guild_id = ?1 AND games >= ?2"
        " AND CAST(total_score AS REAL) / games >= CAST(?3 AS REAL) / ?4"
        " AND (CAST(total_score AS REAL) / games > CAST(?3 AS REAL) / ?4"
        " OR games > ?4 OR (games = ?4 AND user_id < ?5))"
    ),
}


# Each query counts the players of a server who show a greater figure than a given one on
# one board (the rank of that figure is one more): the service turns the figure into the
# bound where the shown figure changes (``wizard.service.boards``, which alone rounds), so
# that the count is a range of the order's index (migration 4), read from the index alone.
# Parameters: guild, min games, then the bound.
SHOWN_AHEAD_SQL: Final[dict[str, str]] = {
    # bound: the halfway rating above the figure, and whether that rating itself shows more
    "rating": (
        "SELECT COUNT(*) FROM players WHERE guild_id = ?1 AND games >= ?2 AND rating >= ?3"
        " AND (rating > ?3 OR ?4)"
    ),
    # bound: the figure (wins are shown as they are)
    "wins": "SELECT COUNT(*) FROM players WHERE guild_id = ?1 AND games >= ?2 AND wins > ?3",
    # bound: the halfway average above the figure as a float (for the index range), then
    # exactly in integers: total · ?4 + ?5 > ?6 · games, i.e. total / games > ?6 / ?4 (?5 = 0)
    # or ≥ (?5 = 1, when the halfway average itself shows more).
    "average": (
        "SELECT COUNT(*) FROM players WHERE guild_id = ?1 AND games >= ?2"
        " AND CAST(total_score AS REAL) / games >= ?3"
        " AND total_score * ?4 + ?5 > ?6 * games"
    ),
}


async def count(
    store: Store, query: str, guild_id: int, *, min_games: int, params: tuple[Any, ...]
) -> int:
    """Run one of the counts above (:data:`AHEAD_SQL`, :data:`SHOWN_AHEAD_SQL`) for the
    players of a server with at least ``min_games`` games; ``params``: the key or bound."""
    row = await store.fetchone(query, (guild_id, min_games, *params))
    return int(row[0]) if row else 0


COMPUTERS_SQL: Final = (
    "SELECT guild_id, level, games, wins, total_score, best_score, best_game_id, bids,"
    " exact_bids FROM computer_stats WHERE guild_id = ? AND games >= ? ORDER BY level"
)
"""The computer levels of a server with at least a number of games (migration 5's
``computer_stats``, a handful of rows per server); parameters: guild, min games."""


# CROSS JOIN pins the order of every part of both queries: the player's rows first
# (results_by_user, seat_holders_by_user), then each game by its key. Left to itself (no
# ANALYZE), SQLite walked the server's whole history and probed each game for the player:
# 25 ms on a server of 60,000 games.
_TAKEN_OVER: Final = (
    " FROM seat_holders AS h CROSS JOIN games AS g ON g.id = h.game_id"
    " WHERE h.user_id = ?2 AND g.guild_id = ?1 AND g.status = 'finished'"
    " AND NOT EXISTS (SELECT 1 FROM results AS x WHERE x.game_id = h.game_id"
    " AND x.user_id = ?2)"
)
"""The finished games of a server in which the player held a seat that someone else then
took over (no result of theirs; seat_holders_by_user, then each game by its key)."""
FORM_SQL: Final = (
    "SELECT r.game_id, r.seat, r.place, r.score, g.finished_at,"
    " (SELECT COUNT(*) FROM results AS x WHERE x.game_id = r.game_id) AS seats,"
    " coalesce((SELECT s.away FROM seats AS s"
    " WHERE s.game_id = r.game_id AND s.seat = r.seat), 0) AS forfeited"
    " FROM results AS r CROSS JOIN games AS g ON g.id = r.game_id"
    " WHERE r.user_id = ?2 AND g.guild_id = ?1 AND g.status = 'finished'"
    " UNION ALL"
    " SELECT h.game_id, MAX(h.seat),"
    " (SELECT COUNT(*) FROM results AS x WHERE x.game_id = h.game_id),"
    " (SELECT MIN(x.score) FROM results AS x WHERE x.game_id = h.game_id), g.finished_at,"
    " (SELECT COUNT(*) FROM results AS x WHERE x.game_id = h.game_id), 1"
    + _TAKEN_OVER
    + " GROUP BY h.game_id ORDER BY 5 DESC, 1 DESC LIMIT ?3"
)
"""A player's last finished games on a server, newest first: game id, seat, place, score,
finishing time, number of seats and whether the player forfeited (left, and a computer
played the seat to the end; or someone else took it over: last place, the table's lowest
score) (the player's results, sorted: a few thousand rows for the keenest player);
parameters: guild, user, limit."""
OPTION_COUNTS_SQL: Final = (
    "SELECT options, COUNT(*) AS games, MAX(finished_at) AS last FROM ("
    " SELECT g.options, g.finished_at"
    " FROM results AS r CROSS JOIN games AS g ON g.id = r.game_id"
    " WHERE r.user_id = ?2 AND g.guild_id = ?1 AND g.status = 'finished'"
    " UNION ALL"
    " SELECT g.options, g.finished_at" + _TAKEN_OVER + " GROUP BY h.game_id"
    ") GROUP BY options"
)
"""How often a player played each stored options text on a server, with the newest finishing
time of each (ties of the favourite go to the most recent); parameters: guild, user."""
