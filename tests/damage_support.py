"""Damaging a database file behind the service's back, as the damage tests of the service and
of the bot do: plain ``sqlite3`` on the file, committed at once."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from tests.service.conftest import human_move, new_game
from wizard.service import GameService, ServiceConfig


def run_sql(path: Path, sql: str, params: tuple[object, ...] = ()) -> None:
    """Run one statement on the database file and commit it."""
    conn = sqlite3.connect(path)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def block_next_action(path: Path, game_id: int) -> None:
    """Put a row where the game's next action goes (as a second writer could): the move
    that should go there can never be saved."""
    conn = sqlite3.connect(path)
    try:
        seq, version = conn.execute(
            "SELECT MAX(seq), MAX(version) FROM actions WHERE game_id = ?", (game_id,)
        ).fetchone()
        conn.execute(
            "INSERT INTO actions (game_id, seq, seat, kind, arg, actor, version, created_at)"
            " VALUES (?, ?, 0, 'play', 'Z', 'player', ?, 0)",
            (game_id, seq + 1, version + 1),
        )
        conn.commit()
    finally:
        conn.close()


def damage_a_page_of(path: Path, table: str) -> int:
    """Overwrite a leaf page of ``table`` in the middle of its b-tree with garbage, as a bad
    sector or a torn write could: SQLite then calls every read of it malformed. The file is
    checkpointed first, so that the page read is the one in the file. Returns the page."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        leaves = [
            page
            for (page,) in conn.execute(
                "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path",
                (table,),
            )
        ]
    finally:
        conn.close()
    assert len(leaves) >= 3, f"{table} has {len(leaves)} leaf pages: too few to damage one"
    page = leaves[len(leaves) // 2]
    with path.open("r+b") as file:
        file.seek((page - 1) * page_size)
        file.write(b"\xa5" * page_size)
    return page


async def running_games(
    path: Path, games: int = 3, moves: int = 10, *, seed: int = 40, guild: int = 100
) -> list[int]:
    """``games`` running games of three people, each ``moves`` moves in, each on a server of
    its own (``seed + k``, ``guild + k``)."""
    svc = await GameService.open(path, config=ServiceConfig(computer_delay=0))
    try:
        ids = []
        for k in range(games):
            game_id = await new_game(svc, 3, 0, seed=seed + k, channel=k, guild=guild + k)
            await svc.start(game_id, 1)
            rng = random.Random(k)
            for _ in range(moves):
                await human_move(svc, game_id, [1, 2, 3], rng)
            ids.append(game_id)
        return ids
    finally:
        await svc.close()
