"""The open hands a front end keeps for the next process: read back while their token may
edit them, one per player and game, and never kept past their time."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from wizard.service import GameService, OpenHand, VirtualClock

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
