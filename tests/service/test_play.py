"""Play details: clairvoyance, computers in threads and with bugs, cancelled callers."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from pathlib import Path

import pytest

from wizard.options import Options
from wizard.service import (
    CardPlayed,
    GameService,
    GameStatus,
    PlayHiddenCard,
    ServiceConfig,
    VirtualClock,
)
from wizard.service import game as game_module
from wizard.state import Action, Bid, Phase
from wizard.view import PlayerView

from .conftest import GUILD, action_log, human_move, new_game, play_out


async def test_clairvoyance_play_my_unseen_card(service: GameService) -> None:
    game_id = await new_game(service, 3, 0, seed=61, options=Options(clairvoyance=True))
    await service.start(game_id, 1)
    for _ in range(10):
        table = (await service.get_game(game_id)).table
        assert table is not None
        if table.phase is Phase.PLAY:
            break
        seat = table.to_act[0]
        sv = await service.seat_view(game_id, seat + 1)
        assert sv.view.hand is None  # R7.4: not their own card...
        assert all(h is not None for i, h in enumerate(sv.view.hands) if i != seat)  # ...others'
        await service.act(game_id, seat + 1, sv.view.legal[0], sv.version)
    assert table.phase is Phase.PLAY and table.round == 1
    seat = table.to_act[0]
    sv = await service.seat_view(game_id, seat + 1)
    assert sv.play_hidden_card and sv.view.legal == ()
    other = await service.seat_view(game_id, (seat + 1) % 3 + 1)
    card = other.view.hands[seat]
    assert card is not None and len(card) == 1
    update = await service.act(game_id, seat + 1, PlayHiddenCard(), sv.version)
    assert CardPlayed(seat, card[0]) in update.events


async def test_computers_with_clairvoyance_play_their_unseen_card(service: GameService) -> None:
    game_id = await new_game(service, 1, 2, seed=62, options=Options(clairvoyance=True))
    await service.start(game_id, 1)
    updates = await play_out(service, game_id, [1], random.Random(62))
    assert updates[-1].status is GameStatus.FINISHED


async def test_expensive_levels_run_off_the_event_loop(db_path: Path) -> None:
    config = ServiceConfig(computer_delay=0, inline_levels=frozenset())
    svc = await GameService.open(db_path, config=config, clock=VirtualClock())
    try:
        game_id = await new_game(svc, 1, 2, seed=63)
        await svc.start(game_id, 1)
        updates = await play_out(svc, game_id, [1], random.Random(63))
        assert updates[-1].status is GameStatus.FINISHED
    finally:
        await svc.close()


async def test_a_computer_that_breaks_the_rules_does_not_stall_the_game(
    service: GameService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    class Cheater:
        def choose(self, view: PlayerView) -> Action:
            return Bid(view.seat, 99)

    monkeypatch.setattr(game_module, "make_player", lambda level, seed=0: Cheater())
    # An in-process level: the default (normal) decides in a worker, which the patch misses.
    await service.update_settings(GUILD, computer_level="easy")
    game_id = await new_game(service, 1, 2, seed=64)
    await service.start(game_id, 1)
    caplog.set_level(logging.ERROR, logger="wizard.service")
    updates = await play_out(service, game_id, [1], random.Random(64))
    assert updates[-1].status is GameStatus.FINISHED
    assert any("illegal" in r.getMessage() for r in caplog.records)


async def test_a_cancelled_caller_never_splits_memory_from_the_database(
    service: GameService, db_path: Path
) -> None:
    game_id = await new_game(service, 3, 0, seed=65)
    base = (await service.start(game_id, 1)).version
    rng = random.Random(65)
    for k in range(40):
        task = asyncio.ensure_future(human_move(service, game_id, [1, 2, 3], rng, tag=f"c{k}"))
        for _ in range(k % 5):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await service.wait_idle()
        info = await service.get_game(game_id)
        log = action_log(db_path, game_id)
        # Whatever was committed is in memory too, and nothing else.
        assert len(log) == info.version - base
    assert await human_move(service, game_id, [1, 2, 3], rng) is not None


async def test_an_unknown_stored_level_is_damage_not_played_as_random(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # QA: 'godlike' was played as 'random' with a warning only, shown raw on the table, and
    # check called the file healthy. No version of the bot stored a level it does not play
    # (levels were only ever added): the game is set aside like any other damaged row.
    svc = await GameService.open(db_path, config=ServiceConfig(computer_delay=0))
    game_id = await new_game(svc, 1, 2, seed=66)
    await svc.start(game_id, 1)
    await svc.close()
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE seats SET level = 'grandmaster' WHERE user_id IS NULL")
    conn.commit()
    conn.close()
    caplog.set_level(logging.WARNING, logger="wizard.service")
    svc = await GameService.open(db_path, config=ServiceConfig(computer_delay=0))
    try:
        info = await svc.get_game(game_id)
        assert info.status is GameStatus.BROKEN
        assert "unknown computer level 'grandmaster'" in (info.broken_reason or "")
        assert any(
            r.levelno == logging.ERROR and "quarantined" in r.getMessage() for r in caplog.records
        )
    finally:
        await svc.close()
