"""A damaged row of ``players`` (a player's statistics and rating on a server) or of ``results``
stops nothing but itself.

Found by a QA run: a row with a non-positive sigma made the last move of every game of that
player fail with a raw ValidationError, for good, and broke the server's boards for
everyone; a name that was not UTF-8 failed the move as "could not be saved; please try
again", forever. The row is derived data (every finished game is in ``results``): the game
ends, the row is rebuilt from the player's results, and the operator is told.
"""

from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path

import pytest

from tests.service.conftest import GUILD, new_game, play_out
from wizard.service import (
    GameDamagedError,
    GameService,
    GameStatus,
    ServiceConfig,
    VirtualClock,
)
from wizard.service.player_rows import damaged_player_rows

DAMAGE = {
    "sigma": ("sigma = -1", "rating started afresh"),
    "games": ("games = 'many'", "rating kept"),
    "name": ("name = CAST(X'FF00' AS TEXT)", None),
    "mu": ("mu = CAST(X'FF00' AS TEXT)", "rating started afresh"),
}


async def _finish(svc: GameService, channel: int, rng: random.Random) -> int:
    game = await new_game(svc, 2, 1, channel=channel, seed=channel, computer_level="easy")
    await svc.start(game, 1)
    updates = await play_out(svc, game, [1, 2], rng)
    assert updates[-1].status is GameStatus.FINISHED
    return game


def _results_of(db: Path, user_id: int) -> tuple[int, int, int, int, int]:
    conn = sqlite3.connect(db)
    try:
        row = conn.execute(
            "SELECT COUNT(*), SUM(place = 1), SUM(score), SUM(rounds), SUM(exact_bids)"
            " FROM results WHERE user_id = ?",
            (user_id,),
        ).fetchone()
    finally:
        conn.close()
    return tuple(int(v) for v in row)  # type: ignore[return-value]


@pytest.mark.parametrize("case", sorted(DAMAGE))
async def test_a_damaged_player_row_stops_no_game_and_no_board(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    db = tmp_path / "wizard.db"
    config = ServiceConfig(computer_delay=0.0, ai_processes=0)
    svc = await GameService.open(db, clock=VirtualClock(), config=config)
    rng = random.Random(5)
    try:
        for channel in (2001, 2002):
            await _finish(svc, channel, rng)
        before = await svc.player_card(GUILD, 1)
        assert before is not None and before.games == 2
        damage, rating = DAMAGE[case]
        conn = sqlite3.connect(db)
        conn.execute(f"UPDATE players SET {damage} WHERE user_id = 1")
        conn.commit()
        conn.close()
        if case != "name":  # the reader shows an undecodable name as it can
            assert [line.split(":")[0] for line in damaged_player_rows(sqlite3.connect(db))] == [
                f"server {GUILD}, user 1"
            ]

        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="wizard"):
            # The boards and the card still answer, for everyone.
            for order in ("rating", "wins", "average"):
                board = await svc.board(GUILD, order=order, viewer_id=2)
                assert all(line.user_id != 1 for line in board.lines) or case == "name"
            card = await svc.player_card(GUILD, 1)
            assert card is not None and card.games == 2
            # The next game of that player ends, and the row is whole again.
            await _finish(svc, 2003, rng)
        card = await svc.player_card(GUILD, 1)
        assert card is not None
        games, wins, total, bids, exact = _results_of(db, 1)
        assert (card.games, card.wins, card.total_score, card.bids, card.exact_bids) == (
            games,
            wins,
            total,
            bids,
            exact,
        )
        assert games == 3 and card.name == "P1"
        assert damaged_player_rows(sqlite3.connect(db)) == []
        told = [r.getMessage() for r in caplog.records if "player 1 of server" in r.getMessage()]
        if rating is not None:
            assert told and any(rating in m for m in told), told
        other = await svc.player_card(GUILD, 2)
        assert other is not None and other.games == 3
    finally:
        await svc.close()


async def test_a_damaged_result_row_costs_its_own_game_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A result row whose place is no number made the player's card and the game's scorepad
    fail with a raw ValidationError."""
    db = tmp_path / "wizard.db"
    config = ServiceConfig(computer_delay=0.0, ai_processes=0)
    svc = await GameService.open(db, clock=VirtualClock(), config=config)
    rng = random.Random(6)
    try:
        first = await _finish(svc, 2001, rng)
        second = await _finish(svc, 2002, rng)
    finally:
        await svc.close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE results SET place = 'x' WHERE game_id = ? AND seat = 0", (first,))
    conn.commit()
    conn.close()
    svc = await GameService.open(db, clock=VirtualClock(), config=config)
    try:
        with caplog.at_level(logging.WARNING, logger="wizard"):
            card = await svc.player_card(GUILD, 1)
            assert card is not None and [g.game_id for g in card.form] == [second]
            assert [g.id for g in await svc.recent_games(GUILD)] == [second]
            with pytest.raises(GameDamagedError):
                await svc.finished_game(GUILD, first)
            assert (await svc.finished_game(GUILD, second)).id == second
        told = " ".join(r.getMessage() for r in caplog.records)
        assert f"game {first} (finished) is damaged" in told
        assert f"game {first} left out of a player's recent form" in told
    finally:
        await svc.close()
