"""A server's history: ``recent_games`` lists finished games, newest first, page by page."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from wizard.options import Options, rounds_in_game
from wizard.service import (
    GameNotFoundError,
    GameService,
    GameStatus,
    GameSummary,
    InvalidSettingsError,
    VirtualClock,
)

from .conftest import CHANNEL, GUILD, new_game, play_out

OTHER_GUILD = 1001


async def _finish(svc: GameService, game_id: int, humans: int, seed: int) -> None:
    await play_out(svc, game_id, list(range(1, humans + 1)), random.Random(seed))
    assert (await svc.get_game(game_id)).status is GameStatus.FINISHED


async def _three_finished(svc: GameService, clock: VirtualClock) -> tuple[int, int, int]:
    """Games a, b, c (ids in that order) that finish in the order b, a, c."""
    a = await new_game(svc, 2, 1, channel=CHANNEL + 1, seed=21)
    b = await new_game(svc, 3, 0, channel=CHANNEL + 2, seed=22)
    c = await new_game(svc, 1, 3, channel=CHANNEL + 3, seed=23, options=Options(magic_twos=True))
    for game_id in (a, b, c):
        await svc.start(game_id, 1)
    await _finish(svc, b, 3, 1)
    await clock.advance(60)
    await _finish(svc, a, 2, 2)
    await clock.advance(60)
    await _finish(svc, c, 1, 3)
    return a, b, c


async def test_an_empty_history(service: GameService) -> None:
    assert await service.recent_games(GUILD) == []
    # Lobbies, running and cancelled games are not history.
    lobby = await new_game(service, 2, 0, channel=CHANNEL + 1)
    running = await new_game(service, 2, 1, channel=CHANNEL + 2)
    await service.start(running, 1)
    cancelled = await new_game(service, 2, 0, channel=CHANNEL + 3)
    await service.cancel(cancelled, 1)
    assert await service.recent_games(GUILD) == []
    assert (await service.get_game(lobby)).status is GameStatus.LOBBY


async def test_finished_games_newest_first_with_players_and_winners(
    service: GameService, clock: VirtualClock
) -> None:
    a, b, c = await _three_finished(service, clock)
    # A game of another server and one still running are left out.
    other = await new_game(service, 3, 0, guild=OTHER_GUILD, channel=CHANNEL + 9, seed=24)
    await service.start(other, 1)
    await _finish(service, other, 3, 4)
    running = await new_game(service, 2, 1, channel=CHANNEL + 4, seed=25)
    await service.start(running, 1)

    history = await service.recent_games(GUILD)
    assert [g.id for g in history] == [c, a, b]  # by finishing time, not by id
    for summary in history:
        assert isinstance(summary, GameSummary)
        info = await service.get_game(summary.id)
        assert summary.guild_id == GUILD
        assert summary.channel_id == info.channel_id
        assert summary.options == info.options
        assert summary.finished_at == info.finished_at
        assert summary.started_at == info.started_at
        assert summary.standings == info.standings
        assert summary.players == tuple(s.name for s in info.seats)
        assert summary.rounds == rounds_in_game(info.options, len(info.seats))
        assert info.table is not None and summary.rounds == len(info.table.history)
        best = max(s.score for s in summary.standings)
        assert summary.winners
        assert {w.seat for w in summary.winners} == {
            s.seat for s in summary.standings if s.score == best
        }
    # Computer seats are in the standings, without a user id.
    computers = [s for s in history[0].standings if s.user_id is None]
    assert len(computers) == 3
    assert history[0].options.magic_twos
    assert finished_times(history) == sorted(finished_times(history), reverse=True)

    assert [g.id for g in await service.recent_games(OTHER_GUILD)] == [other]


def finished_times(history: list[GameSummary]) -> list[float]:
    return [g.finished_at for g in history]


async def test_pages_follow_on_with_before(service: GameService, clock: VirtualClock) -> None:
    a, b, c = await _three_finished(service, clock)
    first = await service.recent_games(GUILD, limit=2)
    assert [g.id for g in first] == [c, a]
    second = await service.recent_games(GUILD, limit=2, before=first[-1].id)
    assert [g.id for g in second] == [b]
    assert await service.recent_games(GUILD, limit=2, before=b) == []
    assert [g.id for g in await service.recent_games(GUILD, before=c)] == [a, b]


async def test_games_finished_at_the_same_time_are_ordered_by_id(
    service: GameService, clock: VirtualClock, db_path: Path
) -> None:
    a, b, c = await _three_finished(service, clock)
    raw = sqlite3.connect(db_path)
    try:
        raw.execute("UPDATE games SET finished_at = 5.0 WHERE id IN (?, ?, ?)", (a, b, c))
        raw.commit()
    finally:
        raw.close()
    assert [g.id for g in await service.recent_games(GUILD)] == [c, b, a]
    # The cursor is (finished_at, id): a tie neither repeats nor skips a game.
    seen = []
    before = None
    while page := await service.recent_games(GUILD, limit=1, before=before):
        seen.append(page[0].id)
        before = page[0].id
    assert seen == [c, b, a]


async def test_refusals(service: GameService, clock: VirtualClock) -> None:
    a, _b, _c = await _three_finished(service, clock)
    for limit in (0, 101):
        with pytest.raises(InvalidSettingsError):
            await service.recent_games(GUILD, limit=limit)
    assert len(await service.recent_games(GUILD, limit=100)) == 3
    running = await new_game(service, 2, 1, channel=CHANNEL + 4, seed=25)
    await service.start(running, 1)
    # The cursor must be a finished game of this server.
    for before in (999_999, running):
        with pytest.raises(GameNotFoundError):
            await service.recent_games(GUILD, before=before)
    with pytest.raises(GameNotFoundError):
        await service.recent_games(OTHER_GUILD, before=a)


async def test_a_damaged_game_is_left_out(
    service: GameService, clock: VirtualClock, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    a, b, c = await _three_finished(service, clock)
    raw = sqlite3.connect(db_path)
    try:
        raw.execute('UPDATE games SET options = \'{"bidding": "loud"}\' WHERE id = ?', (a,))
        raw.execute("DELETE FROM results WHERE game_id = ?", (b,))
        raw.commit()
    finally:
        raw.close()
    assert [g.id for g in await service.recent_games(GUILD)] == [c]
    assert f"game {a} left out" in caplog.text
    assert f"game {b} left out" in caplog.text
