"""Helpers for the service tests: real database files under tmp_path, virtual time."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from wizard.service import (
    GameService,
    GameStatus,
    GameUpdate,
    PlayHiddenCard,
    ServiceConfig,
    TableView,
    VirtualClock,
)

GUILD = 1000
CHANNEL = 2000


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A database file in a folder that does not exist yet (the store creates it)."""
    return tmp_path / "data" / "wizard.db"


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
async def service(db_path: Path, clock: VirtualClock) -> AsyncIterator[GameService]:
    svc = await GameService.open(db_path, clock=clock, config=ServiceConfig(computer_delay=0.0))
    try:
        yield svc
    finally:
        await svc.close()


async def new_game(
    svc: GameService,
    humans: int,
    computers: int,
    *,
    channel: int = CHANNEL,
    guild: int = GUILD,
    seed: int = 7,
    **kwargs: object,
) -> int:
    """A lobby with ``humans`` users (ids 1, 2, …; user 1 hosts) and ``computers`` computers."""
    info = await svc.create_game(
        guild_id=guild,
        channel_id=channel,
        host_id=1,
        host_name="P1",
        seed=seed,
        **kwargs,  # type: ignore[arg-type]
    )
    for uid in range(2, humans + 1):
        await svc.join(info.id, uid, f"P{uid}")
    for _ in range(computers):
        await svc.add_computer(info.id, 1)
    return info.id


async def human_move(
    svc: GameService, game_id: int, user_ids: list[int], rng: random.Random, tag: str = ""
) -> GameUpdate | None:
    """One random legal move by the first of ``user_ids`` whose turn it is."""
    for uid in user_ids:
        sv = await svc.seat_view(game_id, uid)
        if not sv.view.my_turn or sv.away:
            continue
        move = PlayHiddenCard() if sv.play_hidden_card else rng.choice(sv.view.legal)
        return await svc.act(
            game_id, uid, move, sv.version, request_id=f"{tag}{game_id}:{sv.version}:{uid}"
        )
    return None


async def play_out(
    svc: GameService, game_id: int, user_ids: list[int], rng: random.Random
) -> list[GameUpdate]:
    """Play a started game to its end: humans at random, computers through the service."""
    updates: list[GameUpdate] = []
    while True:
        updates += await svc.run_computer_turns(game_id)
        if updates and updates[-1].status is not GameStatus.ACTIVE:
            return updates
        update = await human_move(svc, game_id, user_ids, rng)
        assert update is not None, "nobody could move"
        updates.append(update)
        if update.status is not GameStatus.ACTIVE:
            return updates


async def table_of(service: GameService, game_id: int) -> TableView:
    """The public table of a started game, as ``get_game`` gives it."""
    table = (await service.get_game(game_id)).table
    assert table is not None
    return table


def table_rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the service's tables, read with a plain sqlite3 connection."""
    conn = sqlite3.connect(path)
    try:
        out = {}
        for table in ("games", "seats", "actions", "results", "players", "guild_settings"):
            out[table] = conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
        return out
    finally:
        conn.close()


def action_log(path: Path, game_id: int) -> list[tuple[int, int, str, str]]:
    """(seq, seat, kind, arg) of a game's log."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT seq, seat, kind, arg FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    finally:
        conn.close()


def downgrade(path: Path, version: int) -> None:
    """Turn a database of today's schema, with its rows, into one of migration ``version``
    (3, 4 or 5) as that code left it: today's service cannot write an old schema any more."""
    conn = sqlite3.connect(path)
    try:
        conn.executescript(
            "ALTER TABLE games DROP COLUMN announced; DROP TABLE open_hands;"
            " DROP TABLE lobby_removals; ALTER TABLE games DROP COLUMN ping_message_id;"
            " DROP TABLE seat_holders; ALTER TABLE games DROP COLUMN allow_seat_taking;"
            " ALTER TABLE games DROP COLUMN hints_used;"
            " ALTER TABLE games DROP COLUMN computer_level;"
            " ALTER TABLE games DROP COLUMN seq; ALTER TABLE games DROP COLUMN computer_turn;"
            " ALTER TABLE games ADD COLUMN snapshot TEXT;"
        )
        if version <= 4:
            conn.executescript(
                "DROP TRIGGER computer_stats_after_result; DROP TABLE computer_stats;"
            )
        if version <= 3:
            conn.executescript(
                "DROP INDEX players_rating_board; DROP INDEX players_wins_board;"
                " DROP INDEX players_average_board; DROP INDEX players_by_games;"
                " DROP INDEX games_finished;"
                " CREATE INDEX players_by_rating ON players (guild_id, rating DESC);"
                " CREATE INDEX players_by_wins ON players (guild_id, wins DESC);"
            )
        conn.execute("DELETE FROM schema_migrations WHERE version > ?", (version,))
        conn.commit()
    finally:
        conn.close()
