"""Search-level computer players think in a worker process, off the event loop."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
from pathlib import Path

import pytest

from tests.service.conftest import new_game
from wizard.service import GameService, ServiceConfig, VirtualClock


async def test_search_players_think_in_a_worker_process(db_path: Path, clock: VirtualClock) -> None:
    svc = await GameService.open(
        db_path, clock=clock, config=ServiceConfig(computer_delay=0.0, ai_processes=1)
    )
    try:
        game = await new_game(svc, 1, 0)
        for _ in range(2):
            await svc.add_computer(game, 1, level="normal")
        await svc.start(game, 1)
        computer_moves = 0
        while computer_moves < 6:
            computer_moves += len(await svc.run_computer_turns(game))
            sv = await svc.seat_view(game, 1)
            if sv.view.my_turn:
                await svc.act(game, 1, sv.view.legal[0], sv.version)
        # A search decision holds the GIL for up to 0.4 s: on the loop, or in a thread,
        # it would hold up every other game's clicks; the worker process keeps them free.
        assert svc._thinkers is not None and svc._thinkers.pids, (
            "normal-level decisions ran in the event loop's process"
        )
        info = await svc.get_game(game)
        assert info.version >= 1 + computer_moves  # every computer move was applied
    finally:
        await svc.close()


async def test_a_stopped_worker_does_not_stall_computer_turns(
    db_path: Path, clock: VirtualClock, caplog: pytest.LogCaptureFixture
) -> None:
    config = ServiceConfig(computer_delay=0.0, ai_processes=1, ai_deadline=0.3)
    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        game = await new_game(svc, 1, 0)
        for _ in range(2):
            await svc.add_computer(game, 1, level="normal")
        await svc.start(game, 1)
        assert svc._thinkers is None  # no process before the first search decision
        moves = 0
        while svc._thinkers is None:
            moves += len(await svc.run_computer_turns(game))
            sv = await svc.seat_view(game, 1)
            if sv.view.my_turn:
                await svc.act(game, 1, sv.view.legal[0], sv.version)
        (pid,) = await svc._thinkers.start()
        os.kill(pid, signal.SIGSTOP)
        caplog.clear()  # the first decisions may have fallen back while the worker started
        with caplog.at_level(logging.WARNING, logger="wizard.service.workers"):
            while not caplog.records:
                moves += len(await svc.run_computer_turns(game))
                sv = await svc.seat_view(game, 1)
                if sv.view.my_turn:
                    await svc.act(game, 1, sv.view.legal[0], sv.version)
        assert f"game {game} seat" in caplog.records[0].getMessage()
        assert pid not in svc._thinkers.pids
        info = await svc.get_game(game)
        assert info.version >= 1 + moves
    finally:
        await svc.close()
    assert not multiprocessing.active_children()
