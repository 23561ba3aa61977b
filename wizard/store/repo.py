"""Repositories: the SQL of the service, in one place. Writers take the write connection
inside a transaction (a :data:`~wizard.store.db.WriteItem`); readers take the store."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import aiosqlite

from wizard.store.db import ConflictError, Store
from wizard.store.models import GameRow, PlayerRow, ResultRow, SeatRow, SettingsRow, parse

GAME_COLUMNS = GameRow.columns()
ACTION_COLUMNS = "game_id, seq, seat, kind, arg, actor, user_id, request_id, version, created_at"
SEAT_COLUMNS = SeatRow.columns()
PLAYER_COLUMNS = PlayerRow.columns()
RESULT_COLUMNS = ResultRow.columns()

# --- games ------------------------------------------------------------------------------------


async def insert_game(conn: aiosqlite.Connection, **columns: Any) -> int:
    """A new game row with these columns; returns its id."""
    cursor = await conn.execute(
        f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
        tuple(columns.values()),
    )
    game_id = cursor.lastrowid
    await cursor.close()
    assert game_id is not None
    return game_id


async def update_game(
    conn: aiosqlite.Connection, game_id: int, expected_version: int | None, **fields: Any
) -> None:
    """Set columns of a game; with ``expected_version``, only if the row is at that version."""
    names = sorted(fields)
    sql = f"UPDATE games SET {', '.join(f'{n} = ?' for n in names)} WHERE id = ?"
    params: list[Any] = [fields[n] for n in names]
    params.append(game_id)
    if expected_version is not None:
        sql += " AND version = ?"
        params.append(expected_version)
    cursor = await conn.execute(sql, params)
    changed = cursor.rowcount
    await cursor.close()
    if changed != 1:
        raise ConflictError(f"game {game_id} is not at version {expected_version}")


async def count_open_in_channel(conn: aiosqlite.Connection, channel_id: int) -> list[int]:
    """Ids of the lobbies and running games of a channel (checked inside the write)."""
    rows = await conn.execute_fetchall(
        "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active') ORDER BY id",
        (channel_id,),
    )
    return [int(r[0]) for r in rows]


async def fetch_game(store: Store, game_id: int) -> sqlite3.Row | None:
    """A raw game row (validated by the caller, which decides what a bad row means)."""
    return await store.fetchone(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))


async def fetch_seats(store: Store, game_id: int) -> list[sqlite3.Row]:
    """A game's raw seat rows, by seat."""
    return await store.fetchall(
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
    )


LOG_COLUMNS = "game_id, seq, seat, kind, arg, request_id, version"


async def fetch_log(store: Store, game_id: int) -> list[sqlite3.Row]:
    """The log of one game, in order (validated by the caller)."""
    return await store.fetchall(
        f"SELECT {LOG_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
    )


async def fetch_clocks(store: Store) -> list[sqlite3.Row]:
    """What start-up needs of every lobby and running game to arm its clocks: numbers only
    (a damaged text column of one game must not stop the others from loading)."""
    return await store.fetchall(
        "SELECT id, guild_id, deadline, computer_turn, status = 'active' AS active FROM games"
        " WHERE status IN ('lobby', 'active') ORDER BY id"
    )


async def fetch_short_logs(store: Store) -> list[sqlite3.Row]:
    """Running games whose log holds fewer actions than their row says were acknowledged."""
    return await store.fetchall(
        "SELECT g.id, g.seq, (SELECT COUNT(*) FROM actions AS a WHERE a.game_id = g.id) AS n"
        " FROM games AS g WHERE g.status = 'active' AND n < g.seq"
    )


async def fetch_damaged(store: Store) -> list[sqlite3.Row]:
    """Quarantined games: id and reason."""
    return await store.fetchall(
        "SELECT id, CAST(broken_reason AS BLOB) AS reason FROM games WHERE status = 'broken'"
        " ORDER BY id"
    )


async def mark_broken(conn: aiosqlite.Connection, game_id: int, reason: str) -> None:
    """Quarantine a game: it is refused to its players and listed for the operator."""
    await conn.execute(
        "UPDATE games SET status = 'broken', broken_reason = ?, deadline = NULL,"
        " computer_turn = 0 WHERE id = ?",
        (reason, game_id),
    )


def _json_ids(ids: Sequence[int]) -> str:
    return "[" + ",".join(str(int(i)) for i in ids) + "]"


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


async def insert_results(conn: aiosqlite.Connection, rows: Sequence[ResultRow]) -> None:
    """The final places of a game."""
    await conn.executemany(
        ResultRow.insert("INSERT INTO results"),
        [r.params() for r in rows],
    )


async def fetch_results(store: Store, game_id: int) -> list[ResultRow]:
    """The final places of a game, by seat."""
    rows = await store.fetchall(
        f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    return [ResultRow.model_validate(dict(r)) for r in rows]


async def players_for_update(
    conn: aiosqlite.Connection, guild_id: int, user_ids: Sequence[int]
) -> dict[int, PlayerRow]:
    """Current rows of these players (inside the write transaction, so no update is lost)."""
    if not user_ids:
        return {}
    rows = await conn.execute_fetchall(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = ?"
        " AND user_id IN (SELECT value FROM json_each(?))",
        (guild_id, _json_ids(user_ids)),
    )
    players = [parse(PlayerRow, r) for r in rows]
    return {p.user_id: p for p in players}


async def upsert_players(conn: aiosqlite.Connection, rows: Sequence[PlayerRow]) -> None:
    """Write players' ratings and statistics."""
    await conn.executemany(
        PlayerRow.insert("INSERT OR REPLACE INTO players"),
        [r.params() for r in rows],
    )


async def fetch_player(store: Store, guild_id: int, user_id: int) -> PlayerRow | None:
    """One player's row on a server."""
    row = await store.fetchone(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return None if row is None else PlayerRow.model_validate(dict(row))


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


async def fetch_finished_at(store: Store, guild_id: int, game_id: int) -> sqlite3.Row | None:
    """``finished_at`` and ``id`` of a finished game of a server (a history page's cursor)."""
    return await store.fetchone(
        "SELECT finished_at, id FROM games WHERE id = ? AND guild_id = ? AND status = 'finished'",
        (game_id, guild_id),
    )


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


async def fetch_recent_games(
    store: Store, guild_id: int, *, limit: int, before: tuple[float, int] | None
) -> list[sqlite3.Row]:
    """Raw rows of a server's finished games, newest first, older than ``before``
    (``finished_at``, ``id``) if given (validated by the caller)."""
    params = (guild_id, limit) if before is None else (guild_id, *before, limit)
    return await store.fetchall(recent_games_sql(cursor=before is not None), params)


async def fetch_results_of(store: Store, game_ids: Sequence[int]) -> list[sqlite3.Row]:
    """Raw ``results`` rows of the given games, by game and seat (validated by the caller)."""
    if not game_ids:
        return []
    return await store.fetchall(
        f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id IN (SELECT value FROM json_each(?))"
        " ORDER BY game_id, seat",
        (_json_ids(game_ids),),
    )


# --- settings ---------------------------------------------------------------------------------


async def fetch_settings(store: Store, guild_id: int) -> SettingsRow | None:
    """A server's stored settings row."""
    row = await store.fetchone(
        "SELECT guild_id, settings, updated_at FROM guild_settings WHERE guild_id = ?",
        (guild_id,),
    )
    return None if row is None else SettingsRow.model_validate(dict(row))


async def put_settings(
    conn: aiosqlite.Connection, guild_id: int, settings_json: str, now: float
) -> None:
    """Store a server's settings."""
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings,"
        " updated_at = excluded.updated_at",
        (guild_id, settings_json, now),
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


async def fetch_seat_extras(store: Store, game_id: int) -> sqlite3.Row | None:
    """A game's ``allow_seat_taking`` and ``hints_used`` columns."""
    return await store.fetchone(
        "SELECT allow_seat_taking, hints_used FROM games WHERE id = ?", (game_id,)
    )


async def fetch_first_holders(conn: aiosqlite.Connection, game_id: int) -> dict[int, int | None]:
    """Seat → the person who held it from the first action (``None``: a computer), inside a
    write transaction."""
    rows = await conn.execute_fetchall(
        "SELECT seat, user_id FROM seat_holders WHERE game_id = ? AND from_action = 0",
        (game_id,),
    )
    return {int(r[0]): r[1] for r in rows}
