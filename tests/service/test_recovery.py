"""Recovery at start: broken games are marked and skipped, snapshots are checked, shards
are respected."""

from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path

import pytest

from wizard.service import (
    GameNotFoundError,
    GameService,
    GameStatus,
    GameStatusError,
    MakeBid,
    ServiceConfig,
)

from .conftest import human_move, new_game


async def _three_running_games(path: Path, *, snapshots: bool = True) -> list[int]:
    svc = await GameService.open(path, config=ServiceConfig(computer_delay=0, snapshot=snapshots))
    try:
        ids = []
        for k in range(3):
            game_id = await new_game(svc, 3, 0, seed=40 + k, channel=k, guild=100 + k)
            await svc.start(game_id, 1)
            rng = random.Random(k)
            for _ in range(10):
                await human_move(svc, game_id, [1, 2, 3], rng)
            ids.append(game_id)
        return ids
    finally:
        await svc.close()


def _sql(path: Path, sql: str, params: tuple[object, ...] = ()) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


@pytest.mark.parametrize("snapshots", [True, False], ids=["from-snapshots", "replayed"])
@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ("UPDATE games SET options = 'not json' WHERE id = ?", "game row is invalid"),
        ("UPDATE actions SET arg = 'Q99' WHERE game_id = ? AND seq = 4", "cannot be read"),
        ("DELETE FROM actions WHERE game_id = ? AND seq = 3", "gap"),
        (
            "UPDATE actions SET arg = '5' WHERE game_id = ? AND kind = 'bid' AND seq = 1",
            "does not replay",
        ),
        ("UPDATE seats SET name = '' WHERE game_id = ? AND seat = 1", "seat row is invalid"),
    ],
)
async def test_a_corrupt_game_is_marked_broken_and_the_others_load(
    db_path: Path, caplog: pytest.LogCaptureFixture, damage: str, reason: str, snapshots: bool
) -> None:
    ids = await _three_running_games(db_path, snapshots=snapshots)
    _sql(db_path, damage, (ids[1],))
    caplog.set_level(logging.ERROR, logger="wizard.service")
    svc = await GameService.open(db_path, recover=False)
    try:
        first = await svc.recover()
        # Games loaded from their snapshots have their logs checked in the background:
        # a damaged log is found there (and before any change to its game).
        report = await svc.verification()
        if not snapshots or "row" in reason:
            assert first.broken == report.broken  # found at once
        if not snapshots:
            assert first.unverified == () and report.mismatches == ()
        assert sorted(report.loaded) == [ids[0], ids[2]]
        assert [g for g, _ in report.broken] == [ids[1]]
        assert reason in report.broken[0][1]
        again = await svc.recover()  # idempotent: nothing new to load or mark
        assert again.loaded == () and again.broken == ()
        info = await svc.get_game(ids[1])
        assert info.status is GameStatus.BROKEN
        assert info.broken_reason is not None and reason in info.broken_reason
        with pytest.raises(GameStatusError, match="could not be loaded"):
            await svc.act(ids[1], 1, MakeBid(0), None)
        # The healthy games play on.
        assert await human_move(svc, ids[0], [1, 2, 3], random.Random(9)) is not None
    finally:
        await svc.close()
    assert any(reason in r.getMessage() for r in caplog.records)
    conn = sqlite3.connect(db_path)
    try:
        status, stored = conn.execute(
            "SELECT status, broken_reason FROM games WHERE id = ?", (ids[1],)
        ).fetchone()
    finally:
        conn.close()
    assert status == "broken" and reason in stored


async def test_snapshot_mismatch_is_reported_and_the_log_wins(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ids = await _three_running_games(db_path)
    _sql(
        db_path,
        "UPDATE games SET snapshot = json_set(snapshot, '$.scores[0]', 999) WHERE id = ?",
        (ids[2],),
    )
    caplog.set_level(logging.WARNING, logger="wizard.service")
    svc = await GameService.open(db_path, recover=False)
    try:
        first = await svc.recover()
        assert sorted(first.unverified) == sorted(ids)  # loaded from their snapshots
        report = await svc.verification()  # the background check found the difference
        assert sorted(report.loaded) == sorted(ids)
        assert [g for g, _ in report.mismatches] == [ids[2]]
        assert "scores" in report.mismatches[0][1]
        info = await svc.get_game(ids[2])
        assert info.table is not None and info.table.scores[0] != 999
    finally:
        await svc.close()
    assert any("snapshot" in r.getMessage() for r in caplog.records)


async def test_recovery_and_lookups_respect_the_shard_filter(db_path: Path) -> None:
    ids = await _three_running_games(db_path)  # guilds 100, 101, 102
    svc = await GameService.open(db_path, recover=False, owns_guild=lambda g: g % 2 == 0)
    try:
        report = await svc.recover()
        assert sorted(report.loaded) == [ids[0], ids[2]]
        assert report.skipped == 1
        with pytest.raises(GameNotFoundError, match="another bot process"):
            await svc.act(ids[1], 1, MakeBid(0), None)
    finally:
        await svc.close()
