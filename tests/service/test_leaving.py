"""People leaving a running game: while the host is away a person still playing has the
host's say, the host has it again on coming back, and a game nobody plays any more stops
instead of running on for computers alone."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from wizard.options import Bidding, Options
from wizard.service import (
    GameService,
    GameStatus,
    LastPersonError,
    MakeBid,
    NotHostError,
    ServiceConfig,
    StaleVersionError,
)

from .conftest import CHANNEL, human_move, new_game, play_out, table_of


async def test_a_host_who_leaves_a_running_game_hands_the_role_on_until_back(
    service: GameService, db_path: Path
) -> None:
    game_id = await new_game(service, 3, 1)
    await service.start(game_id, 1)
    info = await service.leave(game_id, 1)
    assert info.seats[0].away and info.host_id == 2
    # The one who left can no longer cancel or remove the players still playing.
    with pytest.raises(NotHostError):
        await service.kick(game_id, 1, 3)
    with pytest.raises(NotHostError):
        await service.cancel(game_id, 1)
    # QA: a host who pressed Leave by mistake and took the seat back at once had lost the
    # role for good. Leaving is for a while: coming back, the host is the host again.
    info = (await service.take_back(game_id, 1)).info
    assert info is not None and info.host_id == 1
    with pytest.raises(NotHostError):
        await service.cancel(game_id, 2)
    # As it is after a restart, which reads the game back from the database.
    await service.close()
    again = await GameService.open(db_path, config=ServiceConfig(computer_delay=0.0))
    try:
        assert (await again.get_game(game_id)).host_id == 1
        info = await again.cancel(game_id, 1)
        assert info.status is GameStatus.CANCELLED
    finally:
        await again.close()


async def test_a_host_removed_by_a_manager_hands_the_role_on(service: GameService) -> None:
    game_id = await new_game(service, 3, 0)
    await service.start(game_id, 1)
    info = await service.kick(game_id, 99, 1, is_manager=True)
    assert info.seats[0].kicked and info.host_id == 2
    with pytest.raises(NotHostError):
        await service.kick(game_id, 1, 2)
    # The next host is the next person still playing: not one who left.
    await service.leave(game_id, 3)
    info = await service.leave(game_id, 2)
    assert info.status is GameStatus.CANCELLED


async def test_a_game_everyone_left_stops(service: GameService) -> None:
    game_id = await new_game(service, 2, 2)
    await service.start(game_id, 1)
    info = await service.leave(game_id, 2)
    assert info.status is GameStatus.ACTIVE  # one person still plays
    info = await service.leave(game_id, 1)
    assert info.status is GameStatus.CANCELLED
    assert await service.game_in_channel(CHANNEL) is None  # the channel is free again


async def test_the_last_person_may_be_asked_before_leaving_stops_the_game(
    service: GameService,
) -> None:
    """Leaving as the last person playing stops the game with no result: a front end that
    wants to ask first leaves with ``may_stop=False``, which refuses, changing nothing, when
    the leave would stop the game, and leaves as usual otherwise."""
    game_id = await new_game(service, 2, 2)
    await service.start(game_id, 1)
    info = await service.leave(game_id, 2, may_stop=False)  # one person still plays
    assert info.seats[1].away and info.status is GameStatus.ACTIVE
    before = await service.get_game(game_id)
    with pytest.raises(LastPersonError) as refused:
        await service.leave(game_id, 1, may_stop=False)
    assert refused.value.code == "last_person"
    assert "last person playing" in refused.value.message
    after = await service.get_game(game_id)
    assert after == before  # nothing written: same version, seats and status
    info = await service.leave(game_id, 1, may_stop=True)  # confirmed
    assert info.status is GameStatus.CANCELLED


async def test_removing_the_last_person_stops_the_game(service: GameService) -> None:
    game_id = await new_game(service, 1, 2)
    await service.start(game_id, 1)
    info = await service.kick(game_id, 99, 1, is_manager=True)
    assert info.status is GameStatus.CANCELLED


async def test_the_host_removing_themself_from_a_running_game_leaves_it(
    service: GameService,
) -> None:
    """In a lobby the host cannot be removed; in a running game /wizard kick on oneself
    removed the host for good, with no way back. It is leaving: the seat can be taken back."""
    game_id = await new_game(service, 2, 1)
    await service.start(game_id, 1)
    info = await service.kick(game_id, 1, 1)
    assert info.seats[0].away and not info.seats[0].kicked and info.host_id == 2
    back = (await service.take_back(game_id, 1)).info
    assert back is not None and not back.seats[0].away


@pytest.mark.parametrize("first", ["start", "leave"])
async def test_a_leave_that_races_the_start_is_done_not_refused(
    service: GameService, first: str
) -> None:
    """QA: a player's Leave clicked in the lobby as the host pressed Start was refused ("This
    game has already started") and the player stayed seated, not told how to leave. Whatever
    order the two take, the player is out: of the lobby, or their seat goes to a computer."""
    game = await new_game(service, 3, 0)
    calls = {"start": service.start(game, 1), "leave": service.leave(game, 3)}
    order = [first, "leave" if first == "start" else "start"]
    done = await asyncio.gather(*(calls[name] for name in order), return_exceptions=True)
    assert not [r for r in done if isinstance(r, BaseException)], done
    info = await service.get_game(game)
    assert info.status is GameStatus.ACTIVE
    seats = [s for s in info.seats if s.user_id == 3]
    assert seats == [] or seats[0].computer_controlled, info.seats


async def test_bids_a_computer_made_for_a_person_do_not_count_as_theirs(
    service: GameService, db_path: Path
) -> None:
    """QA (de): clara left for rounds 3–4 and came back; her statistics counted the
    computer's bids of those rounds as hers ("3 of 15 rounds", one of them the computer's
    exact bid). Only the bids a person made count in their bids and exact bids."""
    game_id = await new_game(service, 2, 1, seed=8)
    await service.start(game_id, 1)
    rng = random.Random(8)
    await service.leave(game_id, 2)  # before anyone bids: round 1 is the computer's for her

    async def until_round(n: int) -> None:
        while (await table_of(service, game_id)).round < n:
            await service.run_computer_turns(game_id)
            await human_move(service, game_id, [1], rng)

    await until_round(3)
    await service.take_back(game_id, 2)
    await play_out(service, game_id, [1, 2], rng)
    conn = sqlite3.connect(db_path)
    try:
        bids = conn.execute(
            "SELECT seat, actor, arg FROM actions WHERE game_id = ? AND kind = 'bid' ORDER BY seq",
            (game_id,),
        ).fetchall()
        rounds, exact = conn.execute(
            "SELECT rounds, exact_bids FROM results WHERE game_id = ? AND user_id = 2",
            (game_id,),
        ).fetchone()
        games, made, hit = conn.execute(
            "SELECT games, bids, exact_bids FROM players WHERE user_id = 2"
        ).fetchone()
    finally:
        conn.close()
    hers = [bid for bid in bids if bid[0] == 1]
    own = [bid for bid in hers if bid[1] == "player"]
    assert 0 < len(own) < len(hers)
    assert rounds == len(own) and made == len(own) and games == 1
    assert exact == hit <= rounds


@pytest.mark.parametrize("change", ["leave", "kick", "take_back", "take_over"])
async def test_a_seat_changing_hands_leaves_the_others_moves_valid(
    service: GameService, change: str
) -> None:
    # QA: a player who pressed Leave (or was removed, or came back) turned every other
    # player's open hand stale, and the next click on it was refused as "the game has moved
    # on", though what it offered had not changed: only moves change what a hand offers.
    game_id = await new_game(service, 3, 1, seed=11)
    await service.set_seat_taking(game_id, 1, True)
    await service.start(game_id, 1)
    rng = random.Random(3)
    await service.run_computer_turns(game_id)
    if change == "take_back":
        await service.leave(game_id, 3)
    elif change == "take_over":
        await service.leave(game_id, 3)
        await service.run_computer_turns(game_id)
    while True:  # on to a turn of user 1 or 2
        views = {uid: await service.seat_view(game_id, uid) for uid in (1, 2)}
        turns = [uid for uid, seen in views.items() if seen.view.my_turn]
        if turns:
            break
        await human_move(service, game_id, [3], rng)
        await service.run_computer_turns(game_id)
    mover = turns[0]
    shown = views[mover]
    if change == "leave":
        await service.leave(game_id, 3)
    elif change == "kick":
        await service.kick(game_id, 1, 3)
    elif change == "take_back":
        await service.take_back(game_id, 3)
    else:
        await service.take_seat(game_id, 9, seat=2, name="Newcomer")
    assert (await service.get_game(game_id)).version > shown.version  # the table redraws
    update = await service.act(game_id, mover, rng.choice(shown.view.legal), shown.version)
    assert update.seat == (await service.seat_view(game_id, mover)).seat


async def test_a_seat_s_own_old_surface_is_stale_once_the_seat_changed_hands(
    service: GameService,
) -> None:
    # Review: with the seat changes no longer making every surface stale, a click on the
    # hand the leaver had open before leaving took the seat back and moved (the leave
    # undone by a second tap), and a click on the hand of a seat one held before bid for
    # the seat one holds now, whose cards that hand never showed.
    game_id = await new_game(service, 3, 1, seed=11, options=Options(bidding=Bidding.HIDDEN))
    await service.set_seat_taking(game_id, 1, True)
    await service.start(game_id, 1)
    shown = await service.seat_view(game_id, 3)
    assert shown.seat == 2 and shown.view.my_turn
    bid = MakeBid(shown.view.legal[0].bid)  # type: ignore[union-attr]
    await service.leave(game_id, 3)
    with pytest.raises(StaleVersionError):
        await service.act(game_id, 3, bid, shown.version)
    assert (await service.get_game(game_id)).seats[2].away
    await service.take_seat(game_id, 9, seat=2, name="Nine")
    await service.take_seat(game_id, 3, seat=3, name="Three")  # the computer's seat
    assert (await service.seat_view(game_id, 3)).view.my_turn
    with pytest.raises(StaleVersionError):
        await service.act(game_id, 3, bid, shown.version)
