"""Taking a computer's seat in a running game (issue 11): the host's permission, the same
state going on under the new person's name, refusals, racing takes, the seats' history
across takes and restarts, and the migration from a version 7 database."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from wizard.cards import Card
from wizard.options import Options
from wizard.service import (
    AlreadySeatedError,
    GameOver,
    GameService,
    GameStatus,
    NotAwayError,
    NotHostError,
    NotSeatedError,
    SeatHeldError,
    SeatTakenOver,
    SeatTakingOffError,
    ServiceConfig,
    ServiceError,
    VirtualClock,
)
from wizard.service.boards import shown_average
from wizard.service.game import decode_action, fold
from wizard.service.results import default_rating, ordinal
from wizard.state import Phase
from wizard.store import LATEST

from .conftest import CHANNEL, action_log, human_move, new_game, play_out, table_of

STRANGER = 99


async def to_computer_turn_mid_round(svc: GameService, game_id: int, seat: int) -> None:
    """Play (humans at random, computers one move at a time) until ``seat``, a computer,
    is to play a card in round 2 after at least one card of that round was played."""
    rng = random.Random(5)
    humans = [s.user_id for s in (await svc.get_game(game_id)).seats if s.user_id is not None]
    for _ in range(500):
        table = await table_of(svc, game_id)
        played = len(table.trick) + sum(1 for _ in table.last_trick)
        if table.round >= 2 and table.phase is Phase.PLAY and table.turn == seat and played:
            return
        info = await svc.get_game(game_id)
        if any(info.seats[s].computer_controlled for s in table.to_act):
            await svc.run_computer_turns(game_id, max_moves=1)
        else:
            assert await human_move(svc, game_id, humans, rng) is not None
    raise AssertionError("the computer's turn in round 2 never came")


async def started(svc: GameService, *, allow: bool, seed: int = 7) -> int:
    """Users 1 and 2 and one computer (seat 2); the host allows seat taking or not."""
    game_id = await new_game(svc, 2, 1, seed=seed)
    if allow:
        info = await svc.set_seat_taking(game_id, 1, True)
        assert info.allow_seat_taking
    await svc.start(game_id, 1)
    return game_id


def hand_of(path: Path, game_id: int, seat: int) -> tuple[Card, ...]:
    """The hand of a seat, recomputed from the stored log (what a computer holds is seen by
    nobody through the service's API)."""
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM seats WHERE game_id = ?", (game_id,))]
        options_json, seed = conn.execute(
            "SELECT options, seed FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    finally:
        conn.close()
    actions = [decode_action(k, s, a) for _, s, k, a in action_log(path, game_id)]
    return fold(names, Options.model_validate_json(options_json), seed, actions).hands[seat]


def computer_moved_since(path: Path, game_id: int, seat: int, after: int) -> bool:
    """Whether ``seat`` made an action after the first ``after`` of the log."""
    return any(seq > after and s == seat for seq, s, _, _ in action_log(path, game_id))


async def test_taking_a_computer_seat_mid_round_keeps_the_state(service: GameService) -> None:
    game_id = await started(service, allow=True)
    await to_computer_turn_mid_round(service, game_id, 2)
    before = await table_of(service, game_id)
    hand = hand_of(service.store.path, game_id, 2)
    info = await service.get_game(game_id)
    assert info.seats_open_to(STRANGER) == (2,)
    assert info.seats_open_to(1) == ()

    update = await service.take_seat(game_id, STRANGER, seat=2, name="  New\u200bcomer ")
    assert update.version == info.version + 1
    taken = [e for e in update.events if isinstance(e, SeatTakenOver)]
    assert taken == [SeatTakenOver(2, STRANGER, "Newcomer", "Merlin")]

    after = await table_of(service, game_id)
    assert after.players == ("P1", "P2", "Newcomer")
    for field in ("round", "phase", "turn", "bids", "tricks", "scores", "trick", "hand_sizes"):
        assert getattr(after, field) == getattr(before, field), field
    seat_view = await service.seat_view(game_id, STRANGER)
    assert seat_view.seat == 2 and not seat_view.away
    assert seat_view.view.hand == hand
    assert seat_view.view.my_turn

    # The computer no longer plays it; the new person does.
    assert await service.run_computer_turns(game_id) == []
    move = seat_view.view.legal[0]
    done = await service.act(game_id, STRANGER, move, seat_view.version)
    assert done.seat == 2 and done.action == move
    row = sqlite3.connect(service.store.path).execute(
        "SELECT user_id, actor FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
        (game_id,),
    )
    assert row.fetchone() == (STRANGER, "player")


async def test_refused_when_not_allowed_seated_or_held(service: GameService) -> None:
    game_id = await started(service, allow=False)
    with pytest.raises(SeatTakingOffError) as off:
        await service.take_seat(game_id, STRANGER, seat=2, name="X")
    assert off.value.code == "seat_taking_off"
    assert "not allowed" in off.value.message
    assert (await service.get_game(game_id)).seats_open_to(STRANGER) == ()

    with pytest.raises(NotHostError):
        await service.set_seat_taking(game_id, 2, True)
    info = await service.set_seat_taking(game_id, 1, True)  # also in a running game
    assert info.allow_seat_taking

    with pytest.raises(AlreadySeatedError):
        await service.take_seat(game_id, 2, seat=2, name="P2 again")
    with pytest.raises(SeatHeldError) as held:
        await service.take_seat(game_id, STRANGER, seat=1, name="X")
    assert held.value.code == "seat_held"
    assert held.value.params == {"seat": 2, "name": "P2"}
    with pytest.raises(ServiceError) as missing:
        await service.take_seat(game_id, STRANGER, seat=5, name="X")
    assert missing.value.code == "seat_not_found"
    # The owner's take-back is the same call without a seat; a seat they play is refused.
    with pytest.raises(NotAwayError):
        await service.take_seat(game_id, 1)
    # Nothing of a refusal was written.
    assert (await service.get_game(game_id)).seats[2].user_id is None


async def test_the_seat_of_a_player_who_left(service: GameService) -> None:
    game_id = await started(service, allow=True)
    await service.leave(game_id, 2)
    info = await service.get_game(game_id)
    assert info.seats_open_to(2) == (1,)
    assert info.seats_open_to(STRANGER) == (1, 2)
    await service.take_seat(game_id, STRANGER, seat=1, name="Helper")
    info = await service.get_game(game_id)
    assert info.seats[1].user_id == STRANGER and info.seats[1].name == "Helper"
    assert not info.seats[1].away
    assert info.seat_of(2) is None  # the seat is the new person's now


async def test_a_seat_left_and_taken_back_before_a_move_never_changed_hands(
    service: GameService,
) -> None:
    # Player QA (pt): the history said "bob → bob from round 2". The computer's holding,
    # which made no move, gives way to bob's at the same action: nobody else played it.
    game_id = await started(service, allow=False)
    rng = random.Random(2)

    async def move_until(bobs_turn: bool) -> int:
        moves = 0
        while (1 in (table := await table_of(service, game_id)).to_act) is not bobs_turn:
            info = await service.get_game(game_id)
            if any(info.seats[s].computer_controlled for s in table.to_act):
                await service.run_computer_turns(game_id, max_moves=1)
            else:
                assert await human_move(service, game_id, [1, 2], rng) is not None
            moves += 1
        return moves

    await move_until(bobs_turn=False)
    await service.leave(game_id, 2)
    assert await move_until(bobs_turn=True)  # others moved while a computer held bob's seat
    await service.take_back(game_id, 2)
    holders = await service.seat_history(game_id)
    assert [(h.seat, h.from_action, h.user_id) for h in holders] == [
        (0, 0, 1),
        (1, 0, 2),
        (2, 0, None),
    ]


async def test_one_whose_seat_someone_took_is_told_who(service: GameService) -> None:
    # QA: the leaver's open hand said only "You are not playing in this game", and their
    # "Take my seat back" that no such seat exists. Both name who plays it now.
    game_id = await started(service, allow=True)
    rng = random.Random(4)
    for _ in range(3):
        await service.run_computer_turns(game_id)
        assert await human_move(service, game_id, [1, 2], rng) is not None
    await service.leave(game_id, 2)
    await service.take_seat(game_id, STRANGER, seat=1, name="Helper")
    for ask in (service.seat_view, service.take_back):
        with pytest.raises(NotSeatedError) as refused:
            await ask(game_id, 2)
        assert refused.value.params == {"reason": "seat_taken", "name": "Helper"}
    # Someone who never played in it is refused as before.
    with pytest.raises(NotSeatedError) as refused:
        await service.seat_view(game_id, 12345)
    assert refused.value.params == {"reason": "not_in_game"}
    # Once the taker leaves too, a computer plays the seat: no "Helper plays it now" (review),
    # and the leaver may take it as anyone may.
    await service.leave(game_id, STRANGER)
    for ask in (service.seat_view, service.take_back):
        with pytest.raises(NotSeatedError) as refused:
            await ask(game_id, 2)
        assert refused.value.params == {"reason": "not_in_game"}
    await service.take_seat(game_id, 2, seat=1)
    assert (await service.get_game(game_id)).seat_of(2) is not None


async def test_one_whose_seat_someone_took_takes_no_other_seat(service: GameService) -> None:
    """QA: a player left a seat they were losing, someone took it over, and they took the
    leading computer's seat instead: they ended with its place and points, and no forfeit.
    One person plays one seat of a game: once they made a move for a seat, it is the only
    one they may take again."""
    game_id = await started(service, allow=True)
    rng = random.Random(4)
    for _ in range(3):
        await service.run_computer_turns(game_id)
        assert await human_move(service, game_id, [1, 2], rng) is not None
    await service.leave(game_id, 2)
    await service.take_seat(game_id, STRANGER, seat=1, name="Helper")
    assert await service.seats_open_to(game_id, 2) == ()
    assert await service.seats_open_to(game_id, 12345) == (2,)  # never seated: any computer's
    with pytest.raises(NotSeatedError) as refused:
        await service.take_seat(game_id, 2, seat=2, name="Back")
    assert refused.value.params == {"reason": "seat_taken", "name": "Helper"}
    # Once the taker leaves too, a computer plays both: the leaver may take theirs, only.
    await service.leave(game_id, STRANGER)
    assert await service.seats_open_to(game_id, 2) == (1,)
    with pytest.raises(NotSeatedError) as refused:
        await service.take_seat(game_id, 2, seat=2, name="Back")
    assert refused.value.params == {"reason": "own_seat_only", "seat": 2}
    info = await service.get_game(game_id)
    assert info.seats[2].user_id is None  # nothing of a refusal was written
    await service.take_seat(game_id, 2, seat=1, name="Back")
    assert (await service.get_game(game_id)).seat_of(2) == 1


async def test_one_removed_from_the_lobby_cannot_take_a_seat_once_it_starts(
    service: GameService,
) -> None:
    # QA: the host removed Marco from the lobby ("cannot join it again"), and once the game
    # started Marco took a computer's seat with the table's "Take a seat".
    game_id = await new_game(service, 2, 2)
    await service.set_seat_taking(game_id, 1, True)
    await service.kick(game_id, 1, 2)
    await service.start(game_id, 1)
    assert (await service.get_game(game_id)).seats[1].user_id is None  # a computer's
    with pytest.raises(NotSeatedError) as refused:
        await service.take_seat(game_id, 2, seat=1, name="P2")
    assert refused.value.params["reason"] == "removed"
    assert (await service.get_game(game_id)).seats[1].user_id is None  # nothing written
    await service.take_seat(game_id, STRANGER, seat=1, name="X")  # others still may


async def test_one_removed_from_the_running_game_cannot_take_a_seat_again(
    service: GameService,
) -> None:
    """QA: the host removed player 2 with /wizard kick; once someone else took 2's seat
    over, 2 held no seat, and so took the computer's seat with "Take a seat"."""
    game_id = await started(service, allow=True)
    await service.kick(game_id, 1, 2)
    await service.take_seat(game_id, STRANGER, seat=1, name="X")
    for seat in (2, 1):  # the computer's seat, and the seat 2 had once X leaves it
        if seat == 1:
            await service.leave(game_id, STRANGER)
        with pytest.raises(NotSeatedError) as refused:
            await service.take_seat(game_id, 2, seat=seat, name="P2")
        assert refused.value.params["reason"] == "removed"
    assert 2 not in [s.user_id for s in (await service.get_game(game_id)).seats]


async def test_take_back_is_the_same_call(service: GameService) -> None:
    game_id = await started(service, allow=False)
    await service.leave(game_id, 2)
    update = await service.take_back(game_id, 2)  # the old name still works
    assert update.status is GameStatus.ACTIVE
    assert not (await service.get_game(game_id)).seats[1].away
    await service.leave(game_id, 2)
    await service.take_seat(game_id, 2, seat=1)
    assert not (await service.get_game(game_id)).seats[1].away


async def test_racing_takes_of_one_seat_one_wins(service: GameService) -> None:
    game_id = await started(service, allow=True)
    takers = range(100, 110)
    results = await asyncio.gather(
        *(service.take_seat(game_id, uid, seat=2, name=f"T{uid}") for uid in takers),
        return_exceptions=True,
    )
    won = [uid for uid, r in zip(takers, results, strict=True) if not isinstance(r, Exception)]
    lost = [r for r in results if isinstance(r, Exception)]
    assert len(won) == 1
    assert all(isinstance(e, SeatHeldError) for e in lost), lost
    assert (await service.get_game(game_id)).seats[2].user_id == won[0]
    # One person racing for two seats gets one.
    await service.leave(game_id, 2)
    results = await asyncio.gather(
        service.take_seat(game_id, 200, seat=1, name="A"),
        service.take_seat(game_id, 200, seat=2, name="A"),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) <= 1
    assert [s.seat for s in (await service.get_game(game_id)).seats if s.user_id == 200] in (
        [1],
        [],
    )


async def test_history_shows_holders_across_takes_and_restarts(
    db_path: Path, clock: VirtualClock
) -> None:
    config = ServiceConfig(computer_delay=0.0)
    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        game_id = await started(svc, allow=True)
        await to_computer_turn_mid_round(svc, game_id, 2)
        taken_at = len(action_log(db_path, game_id))
        await svc.take_seat(game_id, STRANGER, seat=2, name="Newcomer")
        table = await table_of(svc, game_id)
    finally:
        await svc.close()

    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        assert await table_of(svc, game_id) == table  # the same state and names after a restart
        info = await svc.get_game(game_id)
        assert info.allow_seat_taking
        assert info.seats[2].user_id == STRANGER
        sv = await svc.seat_view(game_id, STRANGER)
        assert sv.view.my_turn
        holders = await svc.seat_history(game_id)
        assert [(h.seat, h.from_action, h.user_id, h.level, h.name) for h in holders] == [
            (0, 0, 1, None, "P1"),
            (1, 0, 2, None, "P2"),
            (2, 0, None, "normal", "Merlin"),
            (2, taken_at, STRANGER, None, "Newcomer"),
        ]
        # A hand-over to a computer and a take-back are recorded too.
        await svc.leave(game_id, 2)
        left_at = len(action_log(db_path, game_id))
        rng = random.Random(3)
        while not any(
            seq > left_at and seat == 1 for seq, seat, _, _ in action_log(db_path, game_id)
        ):
            await svc.run_computer_turns(game_id)
            await human_move(svc, game_id, [1, STRANGER], rng)
        await svc.run_computer_turns(game_id)
        back_at = len(action_log(db_path, game_id))
        await svc.take_back(game_id, 2)
        holders = await svc.seat_history(game_id)
        seat1 = [(h.from_action, h.user_id, h.level) for h in holders if h.seat == 1]
        assert seat1 == [(0, 2, None), (left_at, None, "normal"), (back_at, 2, None)]
        updates = await play_out(svc, game_id, [1, 2, STRANGER], random.Random(1))
        assert updates[-1].status is GameStatus.FINISHED
        over = next(e for e in updates[-1].events if isinstance(e, GameOver))
        # The person who took the seat over is not rated for it; the others are.
        assert sorted(r.user_id for r in over.ratings) == [1, 2]
        stats = await svc.player_card(info.guild_id, STRANGER)
        assert stats is not None and stats.games == 1
        assert stats.rating == pytest.approx(ordinal(*default_rating()))
        finished = await svc.finished_game(info.guild_id, game_id)
        assert finished.players[2] == "Newcomer"
        assert finished.user_ids[2] == STRANGER
        assert finished.holders == holders
        assert await svc.seat_history(game_id) == holders  # history kept after the end
    finally:
        await svc.close()


def as_version_7(path: Path) -> None:
    """Undo migrations 11 to 8 in a database file: the schema and rows as version 7 left
    them."""
    conn = sqlite3.connect(path)
    try:
        conn.executescript(
            "ALTER TABLE games DROP COLUMN announced;"
            " DROP TABLE open_hands;"
            " DROP TABLE lobby_removals;"
            " ALTER TABLE games DROP COLUMN ping_message_id;"
            " DROP TABLE seat_holders;"
            " ALTER TABLE games DROP COLUMN allow_seat_taking;"
            " ALTER TABLE games DROP COLUMN hints_used;"
            " DELETE FROM schema_migrations WHERE version >= 8;"
        )
        conn.commit()
    finally:
        conn.close()


async def test_migration_from_version_7(db_path: Path, clock: VirtualClock) -> None:
    assert LATEST == 13
    config = ServiceConfig(computer_delay=0.0)
    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        running = await started(svc, allow=False)
        await svc.run_computer_turns(running)
        lobby = await new_game(svc, 1, 0, channel=7)
    finally:
        await svc.close()
    as_version_7(db_path)

    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        info = await svc.get_game(running)
        assert not info.allow_seat_taking and info.hints_used == ()
        holders = await svc.seat_history(running)
        assert [(h.seat, h.from_action, h.user_id, h.level) for h in holders] == [
            (0, 0, 1, None),
            (1, 0, 2, None),
            (2, 0, None, "normal"),
        ]
        assert await svc.seat_history(lobby) == ()
        await svc.set_seat_taking(running, 1, True)
        await svc.take_seat(running, STRANGER, seat=2, name="Late")
        assert (await svc.get_game(running)).seats[2].name == "Late"
    finally:
        await svc.close()


async def test_a_hand_over_after_timeouts_is_in_the_history(
    service: GameService, clock: VirtualClock
) -> None:
    await service.update_settings(1000, max_timeouts=1)
    game_id = await new_game(service, 3, 0, seed=31, turn_seconds=30)
    await service.start(game_id, 1)
    table = await table_of(service, game_id)
    late = table.to_act[0]
    await clock.advance(31.0)
    updates = await service.run_due()
    assert updates
    info = await service.get_game(game_id)
    assert info.seats[late].away
    log = action_log(service.store.path, game_id)
    timed_out = next(seq for seq, seat, _, _ in log if seat == late)
    holders = [h for h in await service.seat_history(game_id) if h.seat == late]
    # The timeout's own move was made for the player; the computer holds the seat after it.
    assert [(h.from_action, h.user_id, h.level) for h in holders] == [
        (0, late + 1, None),
        (timed_out, None, "normal"),
    ]
    assert info.seats_open_to(late + 1) == (late,)


async def damage_the_row_then_play(
    service: GameService, db_path: Path, *, seed: int, rng: random.Random
) -> int:
    """Damage user 2's statistics row, then play a game of users 1 and 2 to its end (which
    rebuilds the row from their results); the game's id."""
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE players SET games = 'many' WHERE user_id = 2")
    conn.commit()
    conn.close()
    game_id = await new_game(service, 2, 1, channel=CHANNEL + 1, seed=seed)
    await service.start(game_id, 1)
    await play_out(service, game_id, [1, 2], rng)
    return game_id


async def test_a_player_who_left_for_good_forfeits_the_game(
    service: GameService, db_path: Path
) -> None:
    # User 2 leaves in round 1 and never comes back: the computer's play of the seat is not
    # theirs. The game counts as played and lost: rated last, no win, none of the seat's
    # bids, and the lowest final score at the table (else leaving early could earn a
    # rating). QA found the score counted as 0: one who left a game they were losing went
    # to the top of the average board.
    game_id = await new_game(service, 3, 0, seed=11)
    await service.start(game_id, 1)
    rng = random.Random(4)
    for _ in range(6):
        assert await human_move(service, game_id, [1, 2, 3], rng) is not None
    await service.leave(game_id, 2)
    updates = await play_out(service, game_id, [1, 3], rng)
    over = next(e for e in updates[-1].events if isinstance(e, GameOver))
    change = {r.user_id: r for r in over.ratings}
    assert change[2].after < change[2].before  # rated as finishing last
    assert all(change[u].after > change[u].before for u in (1, 3))  # both beat the leaver
    info = await service.get_game(game_id)
    card = await service.player_card(info.guild_id, 2)
    assert card is not None
    lowest = min(s.score for s in over.standings)
    # "Best" counts the same score as the average, so it is never below it (QA read
    # "average -135 · best -160" when the best skipped a forfeited game).
    assert (card.games, card.wins, card.total_score, card.best_score) == (1, 0, lowest, lowest)
    assert (card.bids, card.exact_bids) == (0, 0)
    for stayed in (1, 3):
        other = await service.player_card(info.guild_id, stayed)
        assert other is not None
        assert shown_average(other.total_score, other.games) >= shown_average(
            card.total_score, card.games
        )
    board = await service.board(info.guild_id, order="average", viewer_id=2)
    assert [line.user_id for line in board.lines][-1:] in ([2], [])

    # A damaged row is rebuilt from the results by the same rule (it counted the computer's
    # score and bids as the leaver's).
    second = await damage_the_row_then_play(service, db_path, seed=12, rng=rng)
    ended = await service.player_card(info.guild_id, 2)
    assert ended is not None
    mine = [s for s in (await service.get_game(second)).standings if s.user_id == 2]
    assert (ended.games, ended.total_score, ended.best_score) == (
        2,
        lowest + mine[0].score,
        max(lowest, mine[0].score),
    )


async def test_a_player_whose_seat_someone_took_over_still_forfeits(
    service: GameService, db_path: Path
) -> None:
    # QA: user 2 left a game they were losing, a stranger took the seat over, and the loss
    # vanished: user 2 had no game at all, while the stranger was charged with (or credited
    # for) every round of the seat. The leaver forfeits, as when a computer finishes the
    # seat; the stranger's bids are only those they made.
    game_id = await started(service, allow=True, seed=21)
    rng = random.Random(6)
    for _ in range(8):
        await service.run_computer_turns(game_id)
        assert await human_move(service, game_id, [1, 2], rng) is not None
    await service.leave(game_id, 2)
    taken_round = (await table_of(service, game_id)).round
    await service.take_seat(game_id, STRANGER, seat=1, name="Newcomer")
    updates = await play_out(service, game_id, [1, STRANGER], rng)
    over = next(e for e in updates[-1].events if isinstance(e, GameOver))
    change = {r.user_id: r for r in over.ratings}
    assert change[2].after < change[2].before  # rated as finishing below everyone
    assert STRANGER not in change  # who took the seat over is not rated for it
    info = await service.get_game(game_id)
    leaver = await service.player_card(info.guild_id, 2)
    assert leaver is not None
    lowest = min(s.score for s in over.standings)
    assert (leaver.games, leaver.wins, leaver.total_score) == (1, 0, lowest)
    assert (leaver.bids, leaver.exact_bids) == (0, 0)
    # QA: the card counted the game but had no recent form and no favourite options (they
    # read only the results, which hold the seat's last person): shown as not played to the
    # end, as when a computer finishes the seat.
    [form] = leaver.form
    assert (form.game_id, form.seat, form.forfeited) == (game_id, 1, True)
    assert (form.place, form.seats, form.score) == (3, 3, lowest)
    assert leaver.favourite is not None and leaver.favourite.games == 1
    stranger = await service.player_card(info.guild_id, STRANGER)
    assert stranger is not None and stranger.games == 1
    rounds = len((await table_of(service, game_id)).history)
    # Their bids: the rounds from the one they took over in (or the next, if its bid was made).
    assert stranger.bids <= rounds - taken_round + 1, (stranger.bids, rounds, taken_round)
    assert stranger.bids >= rounds - taken_round

    # A damaged row of the leaver is rebuilt with that forfeit (from the seat's holders).
    await damage_the_row_then_play(service, db_path, seed=22, rng=random.Random(2))
    rebuilt = await service.player_card(info.guild_id, 2)
    assert rebuilt is not None and rebuilt.games == 2


async def test_a_seat_view_knows_which_bids_its_player_did_not_make(
    db_path: Path, clock: VirtualClock
) -> None:
    """QA: a hand said "you bid 2" of a bid the computer made while its player was away,
    and "your bid" to one who took a seat over of the bid made before them. The seat view
    names the rounds whose bid of the seat its player did not make, after a restart too."""
    config = ServiceConfig(computer_delay=0.0)
    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        game_id = await started(svc, allow=True)
        await to_computer_turn_mid_round(svc, game_id, 2)  # round 2: Merlin bid rounds 1, 2
        await svc.take_seat(game_id, STRANGER, seat=2, name="Newcomer")
        assert (await svc.seat_view(game_id, STRANGER)).bids_not_theirs == {1, 2}
        assert (await svc.seat_view(game_id, 1)).bids_not_theirs == frozenset()
        # P2 leaves in round 2; a computer bids round 3 for them; they take the seat back.
        await svc.leave(game_id, 2)
        rng = random.Random(3)
        while (await table_of(svc, game_id)).round < 3 or None in (
            await table_of(svc, game_id)
        ).bids:
            if not await svc.run_computer_turns(game_id, max_moves=1):
                assert await human_move(svc, game_id, [1, STRANGER], rng) is not None
        await svc.take_back(game_id, 2)
        assert (await svc.seat_view(game_id, 2)).bids_not_theirs == {3}
    finally:
        await svc.close()
    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        assert (await svc.seat_view(game_id, 2)).bids_not_theirs == {3}
        assert (await svc.seat_view(game_id, STRANGER)).bids_not_theirs == {1, 2}
    finally:
        await svc.close()


async def test_a_seat_view_knows_whether_someone_else_moved_in_the_last_scored_round(
    service: GameService,
) -> None:
    """QA: right after leaving in round 2, a hand read "Round 1, your seat: bid 0" of a round
    its player had bid and played alone, as if a computer had bid for them. The seat view
    says whether anyone else moved for the seat in the round the hand's first line tells."""
    game_id = await started(service, allow=False)
    rng = random.Random(5)
    while (table := await table_of(service, game_id)).round < 2 or table.phase is not Phase.BID:
        if not await service.run_computer_turns(game_id, max_moves=1):
            assert await human_move(service, game_id, [1, 2], rng) is not None
    assert not (await service.seat_view(game_id, 2)).last_round_helped
    await service.leave(game_id, 2)
    assert not (await service.seat_view(game_id, 2)).last_round_helped
    while len((await table_of(service, game_id)).history) < 2:
        if not await service.run_computer_turns(game_id, max_moves=1):
            assert await human_move(service, game_id, [1], rng) is not None
    assert (await service.seat_view(game_id, 2)).last_round_helped  # the computer's round 2
    assert not (await service.seat_view(game_id, 1)).last_round_helped


async def test_the_people_of_a_game_are_everyone_who_held_a_seat(service: GameService) -> None:
    """A rematch is for everyone who held a seat, whether or not they hold one at the end;
    not for one the host removed. The host who left before anyone moved, and whose seat was
    then taken over, is among them too (review): that holding left no row of its own."""
    game_id = await started(service, allow=True)  # 1 hosts, 2 plays, a computer
    await service.leave(game_id, 1)  # before any move
    await service.take_seat(game_id, STRANGER, seat=0, name="X")
    await service.kick(game_id, STRANGER, 2)  # X has the host's say now
    await service.take_seat(game_id, 3, seat=1, name="Y")
    people = await service.players_of(game_id)
    assert people == {STRANGER: False, 3: False, 1: False, 2: True}


async def test_one_removed_is_told_so_whoever_plays_their_seat(service: GameService) -> None:
    """QA: once someone took over the seat of a player the host removed, their "Show my
    hand" said "Someone else took over your seat … take another seat there if it offers
    one", an invitation they would be refused."""
    game_id = await started(service, allow=True)
    await service.kick(game_id, 1, 2)
    await service.take_seat(game_id, STRANGER, seat=1, name="X")
    with pytest.raises(NotSeatedError) as refused:
        await service.seat_view(game_id, 2)
    assert refused.value.params["reason"] == "removed"
