"""Migration 4 (leaderboard and history indexes): a clean upgrade, the plans it is for, and
pages that agree with a plain sort (bench/leaderboard.py has the figures at 100,000 games)."""

from __future__ import annotations

import random
import sqlite3
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

from wizard.service import GameService, LeaderboardOrder, ServiceConfig, VirtualClock
from wizard.store import LATEST, Store, boards, repo

from .conftest import CHANNEL, GUILD, downgrade, new_game, play_out

NEW_INDEXES = {
    "players_rating_board",
    "players_wins_board",
    "players_average_board",
    "players_by_games",
    "games_finished",
}


def _indexes(path: Path) -> set[str]:
    raw = sqlite3.connect(path)
    try:
        return {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    finally:
        raw.close()


async def _boards(svc: GameService) -> list[object]:
    """Every page of every board and the history, as comparable values."""
    out: list[object] = []
    for order in LeaderboardOrder:
        for min_games in (1, 2, 3):
            await svc.update_settings(GUILD, rated_min_games=min_games)
            page = 1
            while True:
                board = await svc.board(GUILD, order=order, per_page=2, page=page)
                out.append(board)
                if page >= board.pages:
                    break
                page += 1
    out.append(await svc.recent_games(GUILD))
    return out


async def test_upgrade_from_migration_3_keeps_boards_and_history(db_path: Path) -> None:
    clock = VirtualClock()
    svc = await GameService.open(db_path, clock=clock, config=ServiceConfig(computer_delay=0.0))
    try:
        for k in range(4):
            game_id = await new_game(svc, 3, k % 2, channel=CHANNEL + k, seed=40 + k)
            await svc.start(game_id, 1)
            await play_out(svc, game_id, [1, 2, 3], random.Random(k))
            await clock.advance(30)
        before = await _boards(svc)
    finally:
        await svc.close()
    downgrade(db_path, 3)
    old = _indexes(db_path)
    assert {"players_by_rating", "players_by_wins"} <= old
    assert not NEW_INDEXES & old

    svc = await GameService.open(db_path, clock=clock)
    try:
        rows = await svc.store.fetchall("SELECT version FROM schema_migrations ORDER BY version")
        assert [r[0] for r in rows] == list(range(1, LATEST + 1))
        assert await _boards(svc) == before
        assert len(before[-1]) == 4  # type: ignore[arg-type]
    finally:
        await svc.close()
    new = _indexes(db_path)
    assert new >= NEW_INDEXES
    assert not {"players_by_rating", "players_by_wins"} & new
    raw = sqlite3.connect(db_path)
    try:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        raw.close()


def _plan(raw: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> str:
    return " / ".join(r[3] for r in raw.execute(f"EXPLAIN QUERY PLAN {sql}", params))


async def test_the_queries_use_the_new_indexes(db_path: Path) -> None:
    # Without ANALYZE (the bot never runs it) SQLite plans from the schema alone, so these
    # plans are the ones a database of any size gets. An ORDER BY that drifts from its
    # index's expression, or a history query that stops naming the partial index's
    # condition, falls back to sorting a whole server: these checks catch that.
    store = await Store.open(db_path)
    await store.close()
    raw = sqlite3.connect(db_path)
    try:
        for order, index in (
            ("rating", "players_rating_board"),
            ("wins", "players_wins_board"),
            ("average", "players_average_board"),
        ):
            plan = _plan(raw, repo.leaderboard_sql(order), (GUILD, 1, 10, 100))
            assert f"COVERING INDEX {index}" in plan, plan
            assert "PRIMARY KEY (guild_id=? AND user_id=?)" in plan, plan
            # A rank off the page counts a range of the same index, from the index alone.
            bound = {"rating": (1.5, 0), "wins": (3,), "average": (70.65, 20, 0, 1413)}[order]
            plan = _plan(raw, boards.SHOWN_AHEAD_SQL[order], (GUILD, 1, *bound))
            assert f"COVERING INDEX {index}" in plan and ">?" in plan, plan
        assert "COVERING INDEX players_by_games" in _plan(raw, repo.LEADERBOARD_COUNT, (GUILD, 1))
        for cursor in (False, True):
            params = (GUILD, 5.0, 3, 10) if cursor else (GUILD, 10)
            plan = _plan(raw, repo.recent_games_sql(cursor=cursor), params)
            assert "INDEX games_finished" in plan and "TEMP B-TREE" not in plan, plan
    finally:
        raw.close()


async def test_every_page_agrees_with_a_plain_sort(service: GameService, db_path: Path) -> None:
    # Many ties (few distinct ratings, wins and averages), so that every tie-breaker counts.
    rng = random.Random(6)
    players = []
    for uid in range(1, 241):
        games = rng.randint(1, 6)
        wins = rng.randint(0, games)
        # Near and at the halves, so that some show the same figure without being equal.
        total = rng.choice((-20, 0, 60, 120)) * games + rng.choice((0, 0, 1, -1))
        rating = rng.choice((-3.0, 0.0, 0.5, 1.5, 2.4, 4.25))
        players.append((uid, games, wins, total, rating))
    raw = sqlite3.connect(db_path)
    try:
        for guild in (GUILD, GUILD + 1):  # another server's players must not leak in
            raw.executemany(
                "INSERT INTO players (guild_id, user_id, name, mu, sigma, rating, games, wins,"
                " total_score, best_score, best_game_id, bids, exact_bids, updated_at)"
                " VALUES (?, ?, ?, 25.0, 5.0, ?, ?, ?, ?, NULL, NULL, 0, 0, 0)",
                [(guild, u, f"U{u}", r + guild - GUILD, g, w, t) for u, g, w, t, r in players],
            )
        raw.commit()
    finally:
        raw.close()
    keys = {
        "rating": lambda p: (-p[4], -p[1], p[0]),
        "wins": lambda p: (-p[2], -p[4], p[0]),
        "average": lambda p: (-(p[3] / p[1]), -p[1], p[0]),
    }
    # The figures as the board writes them: whole ratings and averages to one decimal, each
    # rounded half to even (worked out here in decimals, not by the service's functions).
    shown = {
        "rating": lambda p: Decimal(p[4]).quantize(Decimal(1), ROUND_HALF_EVEN),
        "wins": lambda p: Decimal(p[2]),
        "average": lambda p: (Decimal(p[3]) / p[1]).quantize(Decimal("0.1"), ROUND_HALF_EVEN),
    }
    for order, key in keys.items():
        for rated_min_games in (1, 4):
            await service.update_settings(GUILD, rated_min_games=rated_min_games)
            min_games = 1 if order == "wins" else rated_min_games  # a count cannot be lucky
            ranked = [p for p in sorted(players, key=key) if p[1] >= min_games]
            expected = [p[0] for p in ranked]
            # Lines that show the same figure share the first one's rank.
            figures = [shown[order](p) for p in ranked]
            shared = [1 + sum(o > f for o in figures) for f in figures]
            got: list[int | None] = []
            ranks: list[int] = []
            page = 1
            while True:
                board = await service.board(GUILD, order=order, page=page, per_page=7)
                assert board.total == len(expected) and board.min_games == min_games
                got += [line.user_id for line in board.lines]
                ranks += [line.rank for line in board.lines]
                if page >= board.pages:
                    break
                page += 1
            assert got == expected, (order, min_games)
            assert ranks == shared, (order, min_games)
            beyond = await service.board(GUILD, order=order, page=page + 1, per_page=7)
            assert beyond.page == page  # a page past the end is the last one
