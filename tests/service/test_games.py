"""Whole games through the service, from lobby to results, ratings and the record."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from wizard.options import Bidding, Options
from wizard.record import load, replay
from wizard.rules import legal_actions, num_rounds
from wizard.service import (
    BidMade,
    BidsRevealed,
    CardPlayed,
    GameOver,
    GameService,
    GameStarted,
    GameStatus,
    LeaderboardOrder,
    RoundDealt,
    RoundScored,
    TrickWon,
    TurnChanged,
)
from wizard.service.game import initial_state, move_rounds, step
from wizard.state import ChooseTrump, Phase

from .conftest import GUILD, action_log, new_game, play_out


async def _whole_game(
    service: GameService,
    db_path: Path,
    *,
    humans: int,
    computers: int,
    options: Options,
    seed: int,
) -> None:
    game_id = await new_game(service, humans, computers, options=options, seed=seed)
    lobby = await service.get_game(game_id)
    assert lobby.status is GameStatus.LOBBY
    assert [s.is_computer for s in lobby.seats] == [False] * humans + [True] * computers

    started = await service.start(game_id, 1)
    assert isinstance(started.events[0], GameStarted)
    assert isinstance(started.events[1], RoundDealt) and started.events[1].round == 1
    assert isinstance(started.events[-1], TurnChanged)

    updates = [
        started,
        *await play_out(service, game_id, list(range(1, humans + 1)), random.Random(seed)),
    ]
    versions = [u.version for u in updates]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)

    events = [e for u in updates for e in u.events]
    n = humans + computers
    rounds = num_rounds(replay(load(await service.game_record(game_id))))
    assert sum(isinstance(e, RoundScored) for e in events) == rounds
    assert sum(isinstance(e, RoundDealt) for e in events) == rounds
    assert sum(isinstance(e, CardPlayed) for e in events) == n * rounds * (rounds + 1) // 2
    assert sum(isinstance(e, TrickWon) for e in events) == rounds * (rounds + 1) // 2
    assert sum(isinstance(e, BidMade) for e in events) == n * rounds
    if options.bidding is Bidding.HIDDEN:
        assert sum(isinstance(e, BidsRevealed) for e in events) == rounds
        assert all(e.bid is None for e in events if isinstance(e, BidMade))
    over = events[-1]
    assert isinstance(over, GameOver)
    assert not any(isinstance(e, TurnChanged) for e in updates[-1].events)

    info = await service.get_game(game_id)
    assert info.status is GameStatus.FINISHED
    assert info.table is not None and info.table.phase is Phase.GAME_OVER
    assert info.standings == over.standings

    # The record replays, with full validation, to the standings the service reported.
    state = replay(load(await service.game_record(game_id)))
    assert state.phase is Phase.GAME_OVER
    by_seat = {s.seat: s.score for s in over.standings}
    assert state.scores == tuple(by_seat[i] for i in range(n))
    assert set(over.winners) == {s.seat for s in over.standings if s.place == 1}

    # The log is gap-free and holds player actions only; results and ratings are stored.
    log = action_log(db_path, game_id)
    assert [row[0] for row in log] == list(range(1, len(log) + 1))
    assert {row[2] for row in log} <= {"bid", "trump", "play"}
    conn = sqlite3.connect(db_path)
    try:
        results = conn.execute(
            "SELECT seat, score, place FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
    finally:
        conn.close()
    assert [(r[0], r[1]) for r in results] == list(enumerate(state.scores))
    assert {c.user_id for c in over.ratings} == set(range(1, humans + 1))
    for uid in range(1, humans + 1):
        stats = await service.player_card(GUILD, uid)
        assert stats is not None
        mine = next(s for s in over.standings if s.user_id == uid)
        assert stats.games == 1
        assert stats.wins == (1 if mine.place == 1 else 0)
        assert stats.total_score == mine.score == stats.best_score
        assert stats.best_game_id == game_id
        assert stats.bids == rounds
        exact = sum(1 for r in state.history if r.bids[mine.seat] == r.tricks[mine.seat])
        assert stats.exact_bids == exact
        change = next(c for c in over.ratings if c.user_id == uid)
        assert change.before == 0.0 and change.after == stats.rating


async def test_three_seats_one_human_two_computers(service: GameService, db_path: Path) -> None:
    await _whole_game(service, db_path, humans=1, computers=2, options=Options(), seed=11)


async def test_six_seats_three_humans_three_computers(service: GameService, db_path: Path) -> None:
    options = Options(uneven_bids=True, magic_twos=True)
    await _whole_game(service, db_path, humans=3, computers=3, options=options, seed=12)


async def test_hidden_bids_and_clairvoyance(service: GameService, db_path: Path) -> None:
    options = Options(bidding=Bidding.HIDDEN, clairvoyance=True)
    await _whole_game(service, db_path, humans=2, computers=2, options=options, seed=13)


async def test_single_suit_secret_bids(service: GameService, db_path: Path) -> None:
    options = Options(bidding=Bidding.SECRET, single_suit=True)
    game_id = await new_game(service, 3, 0, options=options, seed=14)
    await service.start(game_id, 1)
    updates = await play_out(service, game_id, [1, 2, 3], random.Random(14))
    assert isinstance(updates[-1].events[-1], GameOver)
    # Secret bids are never in a public event before the round is scored (R7.3).
    assert all(e.bid is None for u in updates for e in u.events if isinstance(e, BidMade))


async def test_leaderboard_orders_and_pages(service: GameService) -> None:
    for k in range(3):
        game_id = await new_game(service, 3, 0, channel=5000 + k, seed=100 + k)
        await service.start(game_id, 1)
        await play_out(service, game_id, [1, 2, 3], random.Random(k))
    await service.update_settings(GUILD, rated_min_games=1)
    board = await service.board(GUILD, order="rating", per_page=2)
    assert board.total == 3 and board.pages == 2 and len(board.lines) == 2
    second = await service.board(GUILD, order=LeaderboardOrder.RATING, per_page=2, page=2)
    assert [line.rank for line in second.lines] == [3]
    ratings = [line.rating for line in board.lines + second.lines]
    assert ratings == sorted(ratings, reverse=True)
    wins = await service.board(GUILD, order="wins")
    assert [line.wins for line in wins.lines] == sorted(
        (line.wins for line in wins.lines), reverse=True
    )
    avg = await service.board(GUILD, order="average")
    means = [line.average for line in avg.lines]
    assert means == sorted(means, reverse=True)
    assert all(line.games == 3 for line in avg.lines)
    assert sum(line.wins for line in avg.lines) >= 3  # ties share a win


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, Options()), (5, Options(bidding=Bidding.SECRET)), (4, Options(single_suit=True))],
)
def test_the_round_of_each_logged_move_is_the_one_it_was_made_in(
    players: int, options: Options
) -> None:
    """``move_rounds`` tells from the log alone the round of every move (which seats a
    computer moved for in a round, who named its trump): the engine's round at each one."""
    rng = random.Random(players)
    state = initial_state([f"p{i}" for i in range(players)], options, seed=players)
    actions, rounds = [], []
    while state.phase is not Phase.GAME_OVER:
        action = rng.choice(legal_actions(state))
        actions.append(action)
        rounds.append(state.round)
        state, _ = step(state, action)
    assert any(isinstance(a, ChooseTrump) for a in actions) is not options.single_suit
    assert move_rounds(actions, players) == rounds
