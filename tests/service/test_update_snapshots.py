"""An update carries the game as it is right after the change, the mover's own view and the
server's settings, so that a front end renders it without reading them again (issue 12)."""

from __future__ import annotations

import random

from wizard.cards import Theme
from wizard.service import GameService, GameStatus

from .conftest import GUILD, human_move, new_game


async def test_every_update_carries_the_game_as_get_game_answers_it(
    service: GameService,
) -> None:
    await service.update_settings(GUILD, language="de", theme=Theme.STANDARD)
    game_id = await new_game(service, 3, 1, seed=5)
    started = await service.start(game_id, 1)
    assert started.info == await service.get_game(game_id)
    assert started.settings == await service.get_settings(GUILD)
    assert started.view is None  # starting is no move of a seat
    rng = random.Random(3)
    moves = 0
    while True:
        for update in await service.run_computer_turns(game_id):
            assert update.view is None  # a computer's view is nobody's to see
            assert update.info is not None and update.info.version == update.version
        update = await human_move(service, game_id, [1, 2, 3], rng)
        assert update is not None
        moves += 1
        info = await service.get_game(game_id)
        assert update.info == info
        assert update.settings is not None and update.settings.language == "de"
        assert update.view is not None and update.seat is not None
        assert update.view.seat == update.seat
        mover = info.seats[update.seat].user_id
        assert mover is not None
        assert update.view == await service.seat_view(game_id, mover)
        if info.status is not GameStatus.ACTIVE or moves >= 40:
            break


async def test_a_duplicate_carries_no_snapshot_of_its_passed_moment(service: GameService) -> None:
    game_id = await new_game(service, 3, 0, seed=9)
    await service.start(game_id, 1)
    sv = await service.seat_view(game_id, 1)
    while not sv.view.my_turn:
        await human_move(service, game_id, [2, 3], random.Random(1))
        sv = await service.seat_view(game_id, 1)
    first = await service.act(game_id, 1, sv.view.legal[0], sv.version, request_id="r1")
    again = await service.act(game_id, 1, sv.view.legal[0], sv.version, request_id="r1")
    assert first.info is not None and first.view is not None and first.settings is not None
    assert again.duplicate
    assert (again.info, again.view, again.settings) == (None, None, None)


async def test_a_cancellation_carries_the_cancelled_game(service: GameService) -> None:
    game_id = await new_game(service, 3, 0)
    live = await service._get(game_id)
    async with live.lock:
        update = await service._cancel_locked(live, "host")
    assert update.info is not None and update.info.status is GameStatus.CANCELLED
    assert update.info == await service.get_game(game_id)
