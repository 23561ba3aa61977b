"""Search-level computer players think in a worker process, off the event loop."""

from __future__ import annotations

from pathlib import Path

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
        assert svc._ai_pool is not None, "normal-level decisions ran in the event loop's process"
        info = await svc.get_game(game)
        assert info.version >= 1 + computer_moves  # every computer move was applied
    finally:
        await svc.close()
