"""Games whose home is gone: the system cancels every open game of a deleted channel (or
thread), or of a server the bot was removed from, with a reason; nothing else of the games is
lost, and a restart does not bring them back as open."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from wizard.service import (
    GameCancelled,
    GameService,
    GameStatus,
    ServiceConfig,
    StorageError,
    VirtualClock,
)

from .conftest import CHANNEL, GUILD, human_move, new_game


async def _running(service: GameService, **where: int) -> int:
    """A started game of three people with some moves made."""
    game_id = await new_game(service, 3, 0, **where)  # type: ignore[arg-type]
    await service.start(game_id, 1)
    rng = random.Random(5)
    for _ in range(4):
        await human_move(service, game_id, [1, 2, 3], rng)
    return game_id


async def test_a_deleted_channel_cancels_its_lobby_and_its_running_game(
    service: GameService, db_path: Path, clock: VirtualClock
) -> None:
    await service.update_settings(GUILD, games_per_channel=2)
    running = await _running(service)
    lobby = await new_game(service, 2, 1)
    elsewhere = await new_game(service, 1, 0, channel=CHANNEL + 1)
    before = await service.get_game(running)

    updates = await service.cancel_games_in(channel_id=CHANNEL, reason="channel_deleted")

    assert [u.game_id for u in updates] == [running, lobby]
    for update in updates:
        assert update.status is GameStatus.CANCELLED
        assert update.events == (GameCancelled("channel_deleted"),)
        assert update.info is not None and update.info.status is GameStatus.CANCELLED
    assert await service.games_in_channel(CHANNEL) == []
    # Nothing else of the game is lost: seats, log and record stay.
    after = await service.get_game(running)
    assert after.seats == before.seats
    assert after.table is not None and before.table is not None
    assert after.table.round == before.table.round
    assert '"players"' in await service.game_record(running)
    assert len(await service.seat_history(running)) == 3
    assert (await service.get_game(elsewhere)).status is GameStatus.LOBBY
    # Said twice (the event, then a refused edit): nothing more to cancel, nothing raised.
    assert await service.cancel_games_in(channel_id=CHANNEL, reason="channel_deleted") == []

    await service.close()
    again = await GameService.open(db_path, clock=clock, config=ServiceConfig(computer_delay=0))
    try:
        report = await again.recover()
        assert running not in report.loaded and lobby not in report.loaded
        assert elsewhere in report.loaded
        assert (await again.get_game(running)).status is GameStatus.CANCELLED
    finally:
        await again.close()


async def test_a_server_left_cancels_its_open_games_only(service: GameService) -> None:
    mine = await _running(service)
    lobby = await new_game(service, 1, 0, channel=CHANNEL + 1)
    other = await new_game(service, 1, 0, channel=CHANNEL + 2, guild=GUILD + 1)

    updates = await service.cancel_games_in(guild_id=GUILD, reason="server_left")

    assert [u.game_id for u in updates] == [mine, lobby]
    assert all(u.events == (GameCancelled("server_left"),) for u in updates)
    assert (await service.get_game(mine)).status is GameStatus.CANCELLED
    assert (await service.get_game(lobby)).status is GameStatus.CANCELLED
    assert (await service.get_game(other)).status is GameStatus.LOBBY


async def test_a_finished_game_is_left_as_it_is(service: GameService) -> None:
    game_id = await new_game(service, 1, 0)
    await service.cancel(game_id, 1)
    assert await service.cancel_games_in(channel_id=CHANNEL, reason="channel_deleted") == []
    assert await service.cancel_games_in(guild_id=GUILD, reason="server_left") == []


async def test_another_process_s_games_are_not_touched(db_path: Path) -> None:
    owner = await GameService.open(db_path, config=ServiceConfig(computer_delay=0))
    try:
        game_id = await new_game(owner, 1, 0)
    finally:
        await owner.close()
    other = await GameService.open(
        db_path, config=ServiceConfig(computer_delay=0), owns_guild=lambda g: g != GUILD
    )
    try:
        assert await other.cancel_games_in(channel_id=CHANNEL, reason="channel_deleted") == []
    finally:
        await other.close()
    owner = await GameService.open(db_path, config=ServiceConfig(computer_delay=0))
    try:
        assert (await owner.get_game(game_id)).status is GameStatus.LOBBY
    finally:
        await owner.close()


async def test_one_place_is_asked_for(service: GameService) -> None:
    with pytest.raises(TypeError):
        await service.cancel_games_in(reason="channel_deleted")
    with pytest.raises(TypeError):
        await service.cancel_games_in(channel_id=1, guild_id=2, reason="server_left")


async def test_a_closing_service_refuses_with_a_service_error(db_path: Path) -> None:
    svc = await GameService.open(db_path, config=ServiceConfig(computer_delay=0))
    game_id = await new_game(svc, 1, 0)
    await svc.close()
    with pytest.raises(StorageError) as refused:
        await svc.cancel_games_in(channel_id=CHANNEL, reason="channel_deleted")
    assert refused.value.params["reason"] == "closing"
    again = await GameService.open(db_path, config=ServiceConfig(computer_delay=0))
    try:
        assert (await again.get_game(game_id)).status is GameStatus.LOBBY
    finally:
        await again.close()
