"""Clocks on virtual time: turn timers, hand-over after timeouts, lobby expiry, computer
turns with a visible delay, and all of it resuming after a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from wizard.ai import ComputerPlayer
from wizard.service import (
    Actor,
    GameCancelled,
    GameService,
    GameStatus,
    GameUpdate,
    NotAwayError,
    PlayerTimedOut,
    SeatHandedToComputer,
    SeatTakenBack,
    ServiceConfig,
    StorageError,
    TurnChanged,
    VirtualClock,
)
from wizard.service.clock import TimerHandle
from wizard.service.game import LiveGame

from .conftest import GUILD, new_game


class Recorder:
    """A listener that keeps every background update."""

    def __init__(self) -> None:
        self.updates: list[GameUpdate] = []

    async def __call__(self, update: GameUpdate) -> None:
        self.updates.append(update)

    def events(self, kind: type) -> list[object]:
        return [e for u in self.updates for e in u.events if isinstance(e, kind)]


def clocks_started(svc: GameService) -> Recorder:
    """Start ``svc``'s clocks, with a recorder of the background updates they make."""
    rec = Recorder()
    svc.subscribe(rec)
    svc.start_clocks()
    return rec


@pytest.fixture
async def timed(db_path: Path, clock: VirtualClock) -> AsyncIterator[GameService]:
    svc = await GameService.open(db_path, clock=clock, config=ServiceConfig(computer_delay=2.0))
    try:
        yield svc
    finally:
        await svc.close()


async def _to_act(svc: GameService, game_id: int) -> tuple[int, ...]:
    info = await svc.get_game(game_id)
    assert info.table is not None
    return info.table.to_act


async def test_timeouts_then_hand_over_and_take_back(
    timed: GameService, clock: VirtualClock
) -> None:
    await timed.update_settings(GUILD, max_timeouts=2)
    game_id = await new_game(timed, 3, 0, seed=31, turn_seconds=30)
    rec = clocks_started(timed)
    start = await timed.start(game_id, 1)
    turn = start.events[-1]
    assert isinstance(turn, TurnChanged) and turn.deadline == clock.now() + 30
    first = turn.seats[0]

    await clock.advance(29.0, settle=timed.wait_idle)
    assert rec.updates == []
    await clock.advance(1.5, settle=timed.wait_idle)
    assert len(rec.updates) == 1
    update = rec.updates[0]
    assert update.actor is Actor.TIMEOUT and update.seat == first
    assert PlayerTimedOut(first, 1) in update.events
    info = await timed.get_game(game_id)
    assert info.seats[first].timeouts == 1 and not info.seats[first].away

    # Nobody acts: the players time out in turn until two have been handed over.
    for _ in range(12):
        await clock.advance(31.0, settle=timed.wait_idle)
        if len(rec.events(SeatHandedToComputer)) == 2:
            break
    handed = {e.seat for e in rec.events(SeatHandedToComputer)}  # type: ignore[attr-defined]
    assert len(handed) == 2
    info = await timed.get_game(game_id)
    assert all(info.seats[s].away and info.seats[s].computer_controlled for s in handed)
    # A player takes their seat back: no more timeouts counted, and the turn waits for them.
    seat = min(handed)
    back = await timed.take_back(game_id, seat + 1)
    assert SeatTakenBack(seat) in back.events
    info = await timed.get_game(game_id)
    assert not info.seats[seat].away and info.seats[seat].timeouts == 0
    with pytest.raises(NotAwayError):
        await timed.take_back(game_id, seat + 1)

    # Nobody acts any more: once the last person's seat goes to a computer, nobody plays
    # the game, and it stops rather than computers playing it out alone.
    for _ in range(20):
        await clock.advance(31.0, settle=timed.wait_idle)
        if (await timed.get_game(game_id)).status is not GameStatus.ACTIVE:
            break
    assert (await timed.get_game(game_id)).status is GameStatus.CANCELLED
    assert rec.events(GameCancelled) == [GameCancelled("abandoned")]


async def test_acting_resets_the_timeout_count(timed: GameService, clock: VirtualClock) -> None:
    await timed.update_settings(GUILD, max_timeouts=3)
    game_id = await new_game(timed, 3, 0, seed=32, turn_seconds=20)
    timed.start_clocks()
    await timed.start(game_id, 1)
    seat = (await _to_act(timed, game_id))[0]
    await clock.advance(21.0, settle=timed.wait_idle)
    assert (await timed.get_game(game_id)).seats[seat].timeouts == 1
    # Play on until this seat is to act again, acting for everyone by hand.
    for _ in range(20):
        now = await _to_act(timed, game_id)
        sv = await timed.seat_view(game_id, now[0] + 1)
        await timed.act(game_id, now[0] + 1, sv.view.legal[0], sv.version)
        if now[0] == seat:
            break
    assert (await timed.get_game(game_id)).seats[seat].timeouts == 0


async def test_lobby_expires(timed: GameService, clock: VirtualClock) -> None:
    await timed.update_settings(GUILD, lobby_seconds=600)
    rec = clocks_started(timed)
    game_id = await new_game(timed, 2, 0)
    await clock.advance(599.0, settle=timed.wait_idle)
    assert (await timed.get_game(game_id)).status is GameStatus.LOBBY
    await clock.advance(2.0, settle=timed.wait_idle)
    assert (await timed.get_game(game_id)).status is GameStatus.CANCELLED
    assert rec.events(GameCancelled) == [GameCancelled("expired")]
    # The channel is free again.
    await new_game(timed, 1, 0)


async def test_computer_turns_wait_the_visible_delay(
    timed: GameService, clock: VirtualClock
) -> None:
    game_id = await new_game(timed, 1, 2, seed=33)
    times: list[float] = []
    rec = Recorder()

    async def listener(update: GameUpdate) -> None:
        times.append(clock.now())
        await rec(update)

    timed.subscribe(listener)
    timed.start_clocks()
    await timed.start(game_id, 1)
    last_change = clock.now()
    for _ in range(40):
        if 0 in await _to_act(timed, game_id):
            sv = await timed.seat_view(game_id, 1)
            await timed.act(game_id, 1, sv.view.legal[0], sv.version)
            last_change = clock.now()
            continue
        seen = len(times)
        await clock.advance(0.5, settle=timed.wait_idle)
        if len(times) > seen:
            # Each computer move comes exactly computer_delay after the change before it.
            assert times[-1] == pytest.approx(last_change + 2.0)
            last_change = times[-1]
    assert len(rec.updates) >= 5
    assert all(u.actor is Actor.COMPUTER for u in rec.updates)


async def test_clocks_and_computer_turns_resume_after_restart(db_path: Path) -> None:
    clock = VirtualClock(start=1_800_000_000.0)
    config = ServiceConfig(computer_delay=2.0)
    svc = await GameService.open(db_path, clock=clock, config=config)
    timed_game = await new_game(svc, 3, 0, seed=34, turn_seconds=60, channel=1)
    computer_game = await new_game(svc, 1, 2, seed=35, channel=2)
    svc.start_clocks()
    await svc.start(timed_game, 1)
    started = await svc.start(computer_game, 1)
    # Make sure a computer is to act in the second game when the process stops.
    if 0 in started.events[-1].seats:  # type: ignore[union-attr]
        sv = await svc.seat_view(computer_game, 1)
        await svc.act(computer_game, 1, sv.view.legal[0], sv.version)
    timed_seat = (await _to_act(svc, timed_game))[0]
    deadline = (await svc.get_game(timed_game)).deadline
    assert deadline == clock.now() + 60
    log_before = (await svc.get_game(computer_game)).version
    await svc.close()  # the process stops; nothing is due yet

    # Back 20 seconds later: the turn keeps the 40 seconds it had left, no more.
    later = VirtualClock(start=clock.now() + 20)
    again = await GameService.open(db_path, clock=later, config=config)
    try:
        rec = Recorder()
        again.subscribe(rec)
        info = await again.get_game(timed_game)
        assert info.deadline == deadline  # the deadline came back from the database
        again.start_clocks()
        await later.advance(2.0, settle=again.wait_idle)
        computer_moves = [u for u in rec.updates if u.game_id == computer_game]
        assert computer_moves and computer_moves[0].actor is Actor.COMPUTER
        assert (await again.get_game(computer_game)).version > log_before
        await later.advance(37.5, settle=again.wait_idle)
        assert not [u for u in rec.updates if u.game_id == timed_game]
        await later.advance(1.0, settle=again.wait_idle)  # past the original deadline
        timeouts = [u for u in rec.updates if u.game_id == timed_game]
        assert timeouts and timeouts[0].actor is Actor.TIMEOUT and timeouts[0].seat == timed_seat
    finally:
        await again.close()


async def test_a_turn_that_ran_out_while_down_starts_afresh(db_path: Path) -> None:
    """The person never had the time: after the restart they get a whole turn, not a
    timeout at once; the new deadline is stored, so a second restart keeps it."""
    clock = VirtualClock(start=1_800_000_000.0)
    config = ServiceConfig(computer_delay=2.0)
    svc = await GameService.open(db_path, clock=clock, config=config)
    game_id = await new_game(svc, 3, 0, seed=37, turn_seconds=60)
    svc.start_clocks()
    await svc.start(game_id, 1)
    seat = (await _to_act(svc, game_id))[0]
    version = (await svc.get_game(game_id)).version
    await svc.close()

    # Down for an hour: the turn's 60 seconds ran out meanwhile.
    later = VirtualClock(start=clock.now() + 3600)
    again = await GameService.open(db_path, clock=later, config=config)
    try:
        fresh = later.now() + 60
        info = await again.get_game(game_id)
        assert info.deadline == fresh  # a whole turn from the restart
        assert info.version == version  # nothing happened: the buttons shown still work
        rec = clocks_started(again)
        await later.advance(30.0, settle=again.wait_idle)
        assert rec.updates == []
    finally:
        await again.close()

    # Down again for 10 seconds, before the new deadline: it keeps its remaining time.
    third_clock = VirtualClock(start=later.now() + 10)
    third = await GameService.open(db_path, clock=third_clock, config=config)
    try:
        assert (await third.get_game(game_id)).deadline == fresh
        rec = clocks_started(third)
        await third_clock.advance(19.5, settle=third.wait_idle)
        assert rec.updates == []
        await third_clock.advance(1.0, settle=third.wait_idle)
        assert rec.updates and rec.updates[0].actor is Actor.TIMEOUT
        assert rec.updates[0].seat == seat
    finally:
        await third.close()


async def test_a_fresh_turn_after_a_restart_can_be_played(db_path: Path) -> None:
    """The person whose time ran out while the bot was down plays with the buttons they had."""
    clock = VirtualClock(start=1_800_000_000.0)
    svc = await GameService.open(db_path, clock=clock)
    game_id = await new_game(svc, 3, 0, seed=38, turn_seconds=30)
    await svc.start(game_id, 1)
    seat = (await _to_act(svc, game_id))[0]
    sv = await svc.seat_view(game_id, seat + 1)
    await svc.close()

    later = VirtualClock(start=clock.now() + 600)
    again = await GameService.open(db_path, clock=later)
    try:
        again.start_clocks()
        await later.advance(0.0, settle=again.wait_idle)
        update = await again.act(game_id, seat + 1, sv.view.legal[0], sv.version)
        assert update.actor is Actor.PLAYER
        assert (await again.get_game(game_id)).seats[seat].timeouts == 0
    finally:
        await again.close()


async def test_a_fresh_turn_that_cannot_be_stored_times_out_and_the_operator_is_told(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """If the fresh deadline cannot be stored, the clock keeps the stored one (the timeout
    comes at once, as before the fresh turns), nothing else of the start-up is lost, and the
    log says why."""
    clock = VirtualClock(start=1_800_000_000.0)
    svc = await GameService.open(db_path, clock=clock)
    game_id = await new_game(svc, 3, 0, seed=39, turn_seconds=60)
    await svc.start(game_id, 1)
    seat = (await _to_act(svc, game_id))[0]
    await svc.close()

    real_write = GameService._write

    async def refuse_renewals(self: GameService, item: object) -> object:
        if "SET deadline" in repr(item):
            raise StorageError()
        return await real_write(self, item)  # type: ignore[arg-type]

    monkeypatch.setattr(GameService, "_write", refuse_renewals)
    later = VirtualClock(start=clock.now() + 3600)
    again = await GameService.open(db_path, clock=later)
    try:
        assert "fresh deadlines could not be stored" in caplog.text
        rec = clocks_started(again)
        await later.advance(0.0, settle=again.wait_idle)
        assert rec.updates and rec.updates[0].actor is Actor.TIMEOUT
        assert rec.updates[0].seat == seat
    finally:
        await again.close()


async def test_run_due_drives_clocks_by_hand(timed: GameService, clock: VirtualClock) -> None:
    """Without start_clocks, a front end can call run_due itself; nothing fires on its own."""
    await timed.update_settings(GUILD, lobby_seconds=120)
    lobby = await new_game(timed, 1, 0, channel=1)
    game_id = await new_game(timed, 2, 1, seed=36, turn_seconds=15, channel=2)
    await timed.start(game_id, 1)
    assert await timed.run_due() == []
    await clock.advance(200.0)  # no clocks running: nothing happens by itself
    assert (await timed.get_game(lobby)).status is GameStatus.LOBBY
    updates = await timed.run_due()
    kinds = {type(e) for u in updates for e in u.events}
    assert GameCancelled in kinds  # the lobby expired
    assert (await timed.get_game(lobby)).status is GameStatus.CANCELLED
    assert any(u.actor in (Actor.TIMEOUT, Actor.COMPUTER) for u in updates if u.game_id == game_id)


class MovedClock:
    """The system clock's way, on virtual time: timers run on a steady clock (the event
    loop's), ``now`` on a wall clock that an operator or NTP may move (``moved``)."""

    def __init__(self, steady: VirtualClock) -> None:
        self.steady = steady
        self.moved = 0.0

    def now(self) -> float:
        return self.steady.now() + self.moved

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        return self.steady.call_at(self.steady.now() + max(0.0, when - self.now()), callback)


async def test_a_turn_outlasts_no_clock_moved_back_across_a_restart(db_path: Path) -> None:
    """QA (crash): with the system clock moved back an hour across a restart, the stored
    deadline lay an hour ahead and a player who had walked away held the table for it. No
    turn waits more than a whole turn from the restart."""
    clock = VirtualClock(start=1_800_000_000.0)
    svc = await GameService.open(db_path, clock=clock)
    game_id = await new_game(svc, 3, 0, seed=37, turn_seconds=60)
    await svc.start(game_id, 1)
    seat = (await _to_act(svc, game_id))[0]
    await svc.close()

    earlier = VirtualClock(start=clock.now() - 3600)
    again = await GameService.open(db_path, clock=earlier)
    try:
        assert (await again.get_game(game_id)).deadline == earlier.now() + 60
        rec = clocks_started(again)
        await earlier.advance(61.0, settle=again.wait_idle)
        assert rec.updates and rec.updates[0].actor is Actor.TIMEOUT
        assert rec.updates[0].seat == seat
    finally:
        await again.close()


async def test_a_turn_outlasts_no_clock_moved_back_while_running(db_path: Path) -> None:
    """QA (crash): the system clock moved back an hour while a turn ran: its timer came at
    the right time, found the deadline an hour ahead, and waited for it."""
    steady = VirtualClock(start=1_800_000_000.0)
    clock = MovedClock(steady)
    svc = await GameService.open(db_path, clock=clock)
    try:
        game_id = await new_game(svc, 3, 0, seed=37, turn_seconds=60)
        rec = clocks_started(svc)
        await svc.start(game_id, 1)
        seat = (await _to_act(svc, game_id))[0]
        await steady.advance(2.0, settle=svc.wait_idle)
        clock.moved = -3600.0
        await steady.advance(59.0, settle=svc.wait_idle)
        timeouts = [u for u in rec.updates if u.actor is Actor.TIMEOUT]
        assert timeouts and timeouts[0].seat == seat
    finally:
        await svc.close()


async def test_a_timed_out_move_is_made_at_the_games_level(
    timed: GameService, clock: VirtualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """QA: the first move made for a timed-out player used the server's level, although the
    game has its own (``/wizard new computer_level``) and its later moves used that one."""
    levels: list[str] = []
    think = LiveGame.computer

    def computer(live: LiveGame, seat: int, level: str) -> ComputerPlayer:
        levels.append(level)
        return think(live, seat, level)

    monkeypatch.setattr(LiveGame, "computer", computer)
    await timed.update_settings(GUILD, computer_level="random", max_timeouts=2)
    game_id = await new_game(timed, 3, 0, seed=31, turn_seconds=30, computer_level="easy")
    rec = clocks_started(timed)
    await timed.start(game_id, 1)
    await clock.advance(31.0, settle=timed.wait_idle)
    [update] = rec.updates
    assert update.actor is Actor.TIMEOUT
    assert levels == ["easy"]
    info = await timed.get_game(game_id)
    assert info.seats[update.seat].level == "easy"


async def test_a_running_game_keeps_the_level_it_started_with(
    timed: GameService, clock: VirtualClock
) -> None:
    """The settings promise that games already open keep their computer level: a game
    started at the server's level goes on at it after the server changes level."""
    await timed.update_settings(GUILD, computer_level="easy", max_timeouts=2)
    game_id = await new_game(timed, 3, 0, seed=31, turn_seconds=30)
    assert (await timed.get_game(game_id)).computer_level is None  # the lobby follows
    rec = clocks_started(timed)
    await timed.start(game_id, 1)
    assert (await timed.get_game(game_id)).computer_level == "easy"
    await timed.update_settings(GUILD, computer_level="normal")
    await clock.advance(31.0, settle=timed.wait_idle)
    [update] = rec.updates
    assert (await timed.get_game(game_id)).seats[update.seat].level == "easy"
