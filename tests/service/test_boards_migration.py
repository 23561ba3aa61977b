"""Migration 5 (computer players' statistics): an upgrade fills them from the games already
finished, and the trigger keeps them with every game that ends afterwards."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from wizard.service import GameService, ServiceConfig, VirtualClock
from wizard.store import LATEST

from .conftest import CHANNEL, GUILD, downgrade, new_game, play_out


def computer_rows(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT guild_id, level, games, wins, total_score, best_score, best_game_id, bids,"
            " exact_bids FROM computer_stats ORDER BY guild_id, level"
        ).fetchall()
    finally:
        conn.close()


def from_results(path: Path) -> list[tuple[object, ...]]:
    """What ``computer_stats`` should hold, summed in Python from results and seats."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT g.guild_id, s.level, r.game_id, r.score, r.place, r.rounds, r.exact_bids"
            " FROM results r JOIN games g ON g.id = r.game_id"
            " JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
            " WHERE r.user_id IS NULL ORDER BY r.game_id"
        ).fetchall()
    finally:
        conn.close()
    sums: dict[tuple[int, str], list[int | None]] = {}
    for guild, level, game, score, place, rounds, exact in rows:
        s = sums.setdefault((guild, level), [0, 0, 0, None, None, 0, 0])
        s[0] = (s[0] or 0) + 1
        s[1] = (s[1] or 0) + (place == 1)
        s[2] = (s[2] or 0) + score
        if s[3] is None or score > s[3]:
            s[3], s[4] = score, game
        s[5] = (s[5] or 0) + rounds
        s[6] = (s[6] or 0) + exact
    return [(g, lvl, *v) for (g, lvl), v in sorted(sums.items())]


async def _play(svc: GameService, clock: VirtualClock, k: int, computers: int) -> None:
    humans = 3 - min(computers, 1)
    game_id = await new_game(svc, humans, computers, channel=CHANNEL + k, seed=50 + k)
    await svc.start(game_id, 1)
    await play_out(svc, game_id, list(range(1, humans + 1)), random.Random(k))
    await clock.advance(30)


async def test_upgrade_from_migration_4_fills_computer_statistics(db_path: Path) -> None:
    clock = VirtualClock()
    svc = await GameService.open(db_path, clock=clock, config=ServiceConfig(computer_delay=0.0))
    try:
        for k, level in enumerate(("easy", "random", "easy", "random")):
            await svc.update_settings(GUILD, computer_level=level)
            await _play(svc, clock, k, computers=1 + k % 2)
        await _play(svc, clock, 9, computers=0)
    finally:
        await svc.close()
    downgrade(db_path, 4)
    conn = sqlite3.connect(db_path)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()
    assert "computer_stats" not in tables

    svc = await GameService.open(db_path, clock=clock, config=ServiceConfig(computer_delay=0.0))
    try:
        versions = await svc.store.fetchall("SELECT version FROM schema_migrations")
        assert [r[0] for r in versions] == list(range(1, LATEST + 1))
        filled = computer_rows(db_path)
        assert filled == from_results(db_path)
        assert {r[1] for r in filled} == {"easy", "random"}
        assert sum(int(r[2]) for r in filled) == 6  # type: ignore[call-overload]
        # Games that end from now on are added by the trigger, in the same transaction.
        await svc.update_settings(GUILD, computer_level="easy")
        await _play(svc, clock, 10, computers=2)
        after = computer_rows(db_path)
        assert after == from_results(db_path)
        assert sum(int(r[2]) for r in after) == 8  # type: ignore[call-overload]
        await svc.update_settings(GUILD, computers_on_boards=True, rated_min_games=1)
        board = await svc.board(GUILD, order="wins", per_page=25)
        assert {line.level: line.games for line in board.lines if line.is_computer} == {
            str(r[1]): r[2] for r in after
        }
    finally:
        await svc.close()
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        conn.close()
