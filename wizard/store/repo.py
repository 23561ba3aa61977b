"""The SQL that more than one place runs (rooms of the service, benchmarks, tests); a query
with one caller stands beside it. Writers take the write connection inside a transaction
(a :data:`~wizard.store.db.WriteItem`); readers take the store."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import aiosqlite

from wizard.store.db import Store
from wizard.store.models import GameRow, PlayerRow, SeatRow

GAME_COLUMNS = GameRow.columns()
ACTION_COLUMNS = "game_id, seq, seat, kind, arg, actor, user_id, request_id, version, created_at"
PLAYER_COLUMNS = PlayerRow.columns()
OPEN_IN_CHANNEL = (
    "SELECT id, status FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')"
    " ORDER BY id"
)
"""Ids and statuses of a channel's lobbies and running games, oldest first; parameters:
channel."""
OPEN_IN_GUILD = (
    "SELECT id FROM games WHERE guild_id = ? AND status IN ('lobby', 'active') ORDER BY id"
)
"""Ids of a server's lobbies and running games, oldest first; parameters: guild."""
HAND_KEPT = "typeof(expires_at) IN ('integer', 'real') AND expires_at > ?"
"""An ``open_hands`` row whose token may still edit its message; parameters: now."""
FORGET_RUN_OUT_HANDS = f"DELETE FROM open_hands WHERE NOT ({HAND_KEPT})"
"""Deletes the open hands whose token ran out (or whose time is not even a number);
parameters: now."""

# --- seats ------------------------------------------------------------------------------------


async def replace_seats(conn: aiosqlite.Connection, game_id: int, seats: Sequence[SeatRow]) -> None:
    """Rewrite the seats of a lobby (seat numbers stay contiguous as people come and go)."""
    await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    await conn.executemany(
        SeatRow.insert("INSERT INTO seats"),
        [s.params() for s in seats],
    )


UPDATE_SEAT = (
    "UPDATE seats SET user_id = ?3, name = ?4, level = ?5, away = ?6, kicked = ?7,"
    " timeouts = ?8 WHERE game_id = ?1 AND seat = ?2"
)
"""Store a seat as it is now (its person, name and control state); parameters:
``SeatRow.params()``."""


# --- actions ----------------------------------------------------------------------------------

INSERT_ACTION = f"INSERT INTO actions ({ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
"""Append one action to a game's log (the primary key refuses a repeated seq)."""
UPDATE_GAME_AFTER_ACTION = (
    "UPDATE games SET version = ?, seq = ?, deadline = ?, computer_turn = ?, updated_at = ?,"
    " status = ?, finished_at = ? WHERE id = ? AND version = ?"
)
"""The game row after an action, only if it is still at the version the action was made on."""


# --- results and players ----------------------------------------------------------------------


async def fetch_player(store: Store, guild_id: int, user_id: int) -> dict[str, Any] | None:
    """One player's row on a server, as stored (unvalidated: it may be damaged)."""
    row = await store.fetchone(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return None if row is None else dict(row)


_PLAYER_COLUMNS_OF_P = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
LEADERBOARD_ORDER = {
    "rating": "rating DESC, games DESC, user_id",
    "wins": "wins DESC, rating DESC, user_id",
    # Keep identical to the expression of the index players_average_board (migration 4).
    "average": "CAST(total_score AS REAL) / games DESC, games DESC, user_id",
}


def leaderboard_sql(order: str) -> str:
    """The query of one leaderboard page; parameters: guild, min games, limit, offset."""
    sort = LEADERBOARD_ORDER[order]
    # The page's keys are found first on the order's index alone (migration 4: it holds every
    # column the inner query reads), then only those rows are read by primary key: OFFSET
    # skips index entries, not table rows, so the last page of 20,000 players costs about
    # a millisecond. CROSS JOIN pins the join order (the page first): written as
    # ``user_id IN (subquery)``, SQLite walked the order's index over the whole server to
    # avoid sorting the ten rows of the page.
    return (
        f"WITH page (uid) AS ("
        f"SELECT user_id FROM players WHERE guild_id = ?1 AND games >= ?2"
        f" ORDER BY {sort} LIMIT ?3 OFFSET ?4)"
        f" SELECT {_PLAYER_COLUMNS_OF_P} FROM page CROSS JOIN players AS p"
        f" ON p.guild_id = ?1 AND p.user_id = page.uid ORDER BY {sort}"
    )


LEADERBOARD_COUNT = "SELECT COUNT(*) FROM players WHERE guild_id = ? AND games >= ?"
"""Players on a server's leaderboard; parameters: guild, min games."""


# --- history ----------------------------------------------------------------------------------


def recent_games_sql(*, cursor: bool) -> str:
    """The query of a history page; parameters: guild, [finished_at, id of the cursor], limit."""
    # ``status = 'finished'`` literally, so that the partial index games_finished (migration 4)
    # serves the filter and the order: no sort, LIMIT rows read whatever the history's length.
    return (
        f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'finished'"
        " AND finished_at IS NOT NULL"
        + (" AND (finished_at, id) < (?, ?)" if cursor else "")
        + " ORDER BY finished_at DESC, id DESC LIMIT ?"
    )


# --- seat holders, seat taking and hints (migration 8) ----------------------------------------

HOLDER_COLUMNS = "game_id, seat, from_action, user_id, level, name"
INSERT_HOLDER = f"INSERT OR REPLACE INTO seat_holders ({HOLDER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
"""A seat's holder from an action index on (a second change at the same index replaces it)."""
MARK_HINT = "UPDATE games SET hints_used = hints_used | ? WHERE id = ?"
"""Mark a seat (its bit) as having used a hint."""


def holder_params(
    game_id: int, seat: int, from_action: int, *, user_id: int | None, level: str | None, name: str
) -> tuple[Any, ...]:
    """The parameters of :data:`INSERT_HOLDER`."""
    return (game_id, seat, from_action, user_id, None if user_id is not None else level, name)


async def fetch_holders(store: Store, game_id: int) -> list[sqlite3.Row]:
    """Every holder of a game's seats, by seat and action index."""
    return await store.fetchall(
        f"SELECT {HOLDER_COLUMNS} FROM seat_holders WHERE game_id = ? ORDER BY seat, from_action",
        (game_id,),
    )


async def fetch_move_seats(store: Store, game_id: int) -> list[sqlite3.Row]:
    """The seat of every logged move of a game (``seq``, ``seat``), in order."""
    return await store.fetchall(
        "SELECT seq, seat FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
    )


async def last_seat_of(store: Store, game_id: int, user_id: int) -> int | None:
    """The seat ``user_id`` last held in ``game_id`` (a seat they left may be someone else's
    now), or ``None`` if they never held one. A holding that made no move is not kept: the
    next holder from the same action replaces it (``INSERT_HOLDER``), so one who left a seat
    before anyone moved, and whose seat was then taken, is not found."""
    row = await store.fetchone(
        "SELECT seat FROM seat_holders WHERE game_id = ? AND user_id = ?"
        " ORDER BY from_action DESC LIMIT 1",
        (game_id, user_id),
    )
    return None if row is None else int(row["seat"])


async def was_removed(store: Store, game_id: int, user_id: int) -> bool:
    """Whether the host (or a manager) removed ``user_id`` from ``game_id``: from its lobby,
    or from the running game (``lobby_removals`` keeps the name it was given first)."""
    row = await store.fetchone(
        "SELECT 1 FROM lobby_removals WHERE game_id = ? AND user_id = ?", (game_id, user_id)
    )
    return row is not None


async def removed_users(store: Store, game_id: int) -> set[int]:
    """Everyone the host (or a manager) removed from ``game_id``, in its lobby or later."""
    rows = await store.fetchall("SELECT user_id FROM lobby_removals WHERE game_id = ?", (game_id,))
    return {int(r["user_id"]) for r in rows}


async def remember_removal(conn: aiosqlite.Connection, game_id: int, user_id: int) -> None:
    """Keep ``user_id`` out of the lobby and the seats of ``game_id`` (in the caller's
    transaction)."""
    await conn.execute(
        "INSERT OR IGNORE INTO lobby_removals (game_id, user_id) VALUES (?, ?)", (game_id, user_id)
    )


async def fetch_seat_extras(store: Store, game_id: int) -> sqlite3.Row | None:
    """A game's ``allow_seat_taking`` and ``hints_used`` columns."""
    return await store.fetchone(
        "SELECT allow_seat_taking, hints_used FROM games WHERE id = ?", (game_id,)
    )
