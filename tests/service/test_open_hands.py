"""The open hands a front end keeps for the next process: read back while their token may
edit them, one per player and game, and never kept past their time."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from wizard.service import GameService, OpenHand, ServiceConfig, VirtualClock

from .conftest import new_game


async def test_open_hands_are_read_back_until_their_time_runs_out(
    service: GameService, clock: VirtualClock, db_path: Path
) -> None:
    game = await new_game(service, 3, 0)
    now = clock.now()
    await service.keep_open_hand(OpenHand(game, 1, 100, "token-a", "en-US", now + 900))
    await service.keep_open_hand(OpenHand(game, 2, 101, "token-b", "de", now + 60))
    newer = OpenHand(game, 1, 102, "token-c", "en-US", now + 950)
    await service.keep_open_hand(newer)  # the player's newer hand replaces the older
    assert [h.message_id for h in await service.open_hands(game)] == [102, 101]
    assert await service.open_hands(game + 1) == []

    await clock.advance(61)
    assert await service.open_hands(game) == [newer]  # bob's token ran out
    await service.keep_open_hand(OpenHand(game, 3, 103, "token-d", "it", now + 1000))
    conn = sqlite3.connect(db_path)
    try:
        tokens = [row[0] for row in conn.execute("SELECT token FROM open_hands ORDER BY token")]
    finally:
        conn.close()
    assert tokens == ["token-c", "token-d"]  # the run-out token is not kept in the file


async def test_a_damaged_open_hand_is_left_out_and_deleted_at_the_next_start(
    db_path: Path, clock: VirtualClock, caplog: pytest.LogCaptureFixture
) -> None:
    """Review: a row with a value of the wrong type stopped the restore of every game after
    it. It is left out with a warning, and one whose time is no number is deleted when the
    service opens (as are the ones past their time)."""
    svc = await GameService.open(db_path, clock=clock, config=ServiceConfig(computer_delay=0))
    try:
        game = await new_game(svc, 3, 0)
        now = clock.now()
        await svc.keep_open_hand(OpenHand(game, 1, 100, "token-a", "en-US", now + 900))
        await svc.keep_open_hand(OpenHand(game, 2, 101, "token-b", "de", now + 900))
        await svc.keep_open_hand(OpenHand(game, 3, 102, "token-c", "it", now + 30))
    finally:
        await svc.close()
    conn = sqlite3.connect(db_path)
    try:
        conn.execute("UPDATE open_hands SET message_id = 'x' WHERE user_id = 1")
        conn.execute("UPDATE open_hands SET expires_at = 'soon' WHERE user_id = 2")
        conn.commit()
    finally:
        conn.close()
    await clock.advance(60)  # user 3's token runs out
    svc = await GameService.open(db_path, clock=clock, config=ServiceConfig(computer_delay=0))
    try:
        with caplog.at_level(logging.WARNING, logger="wizard.service"):
            assert await svc.open_hands(game) == []
        assert "an open hand's row is not valid and is left out (user 1)" in caplog.text
    finally:
        await svc.close()
    conn = sqlite3.connect(db_path)
    try:
        left = [row[0] for row in conn.execute("SELECT user_id FROM open_hands")]
    finally:
        conn.close()
    assert left == [1]  # its time is a number still to come: only left out
