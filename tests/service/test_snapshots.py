"""Snapshots: running games load from them at start, and their logs are checked afterwards
(in the background, or first thing before any change); the log always wins."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import sqlite3
from pathlib import Path

import pytest

from wizard.options import Bidding, Options
from wizard.rules import to_act
from wizard.service import (
    GameService,
    GameStatus,
    GameStatusError,
    MakeBid,
    ServiceConfig,
    StaleVersionError,
    VirtualClock,
)
from wizard.service.core import GC_THRESHOLDS
from wizard.service.game import (
    SnapshotError,
    SnapshotWriter,
    decode_action,
    fold,
    initial_state,
    load_snapshot,
    snapshot,
    step,
)
from wizard.service.moves import PlayHiddenCard
from wizard.state import Play
from wizard.store.db import Statements, Store
from wizard.view import view

from .conftest import human_move, new_game, play_out

CONFIG = ServiceConfig(computer_delay=0)


def _sql(path: Path, sql: str, params: tuple[object, ...] = ()) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def _snapshot_of(path: Path, game_id: int) -> str | None:
    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT snapshot FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else row[0]
    finally:
        conn.close()


def _log_state(path: Path, svc: GameService, game_id: int) -> object:
    """The state the database log of a game replays to."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT kind, seat, arg FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    finally:
        conn.close()
    live = svc._games.get(game_id) or svc._ended[game_id]
    names = [s.name for s in live.seats]
    return fold(names, live.options, live.seed, [decode_action(k, s, a) for k, s, a in rows])


async def _running_games(path: Path, count: int, moves: int = 30) -> list[int]:
    svc = await GameService.open(path, config=CONFIG)
    try:
        ids = []
        for k in range(count):
            game_id = await new_game(svc, 3, 0, seed=70 + k, channel=k)
            await svc.start(game_id, 1)
            rng = random.Random(k)
            for _ in range(moves):
                await human_move(svc, game_id, [1, 2, 3], rng)
            ids.append(game_id)
        return ids
    finally:
        await svc.close()


async def _no_background_check(self: GameService) -> None:
    """Stands in for the background check: only the checks before changes run."""


# --- the format -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        Options(),
        Options(bidding=Bidding.HIDDEN),
        Options(bidding=Bidding.SECRET),
        Options(single_suit=True),
        Options(clairvoyance=True, canadian=True, uneven_bids=True),
    ],
    ids=["classic", "hidden", "secret", "single-suit", "variants"],
)
def test_every_state_of_a_game_comes_back_from_its_snapshot(options: Options) -> None:
    players = ["Ann", "Bob", "Cy", "Di"]
    state = initial_state(players, options, 5)
    write = SnapshotWriter()
    rng = random.Random(1)
    seq = 0
    largest = 0
    while True:
        text = write(state, seq)
        largest = max(largest, len(text))
        assert load_snapshot(text, players, options, 5) == (seq, state)
        seats = to_act(state)
        if not seats:
            break
        legal = view(state, seats[0]).legal
        action = rng.choice(legal) if legal else None
        if action is None:  # clairvoyance: the seat plays its one unseen card
            action = Play(seats[0], state.hands[seats[0]][0])
        state, _ = step(state, action)
        seq += 1
    assert largest < 3000  # a whole late-game state in under 3 KB


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: "not json",
        lambda d: json.dumps(snapshot_compact()),  # the older, compact format
        lambda d: json.dumps({k: v for k, v in d.items() if k != "history"}),
        lambda d: json.dumps({**d, "hands": ["!", "", ""]}),
        lambda d: json.dumps({**d, "scores": [0, 0]}),
        lambda d: json.dumps({**d, "turn": 7}),
        lambda d: json.dumps({**d, "phase": "nap"}),
        lambda d: json.dumps({**d, "bids": ["1", None, None]}),
        lambda d: json.dumps({**d, "history": [[1, 0]]}),
    ],
)
def test_a_damaged_snapshot_is_refused(damage: object) -> None:
    players = ["A", "B", "C"]
    state = initial_state(players, Options(), 3)
    data = json.loads(SnapshotWriter()(state, 0))
    with pytest.raises(SnapshotError):
        load_snapshot(damage(data), players, Options(), 3)  # type: ignore[operator]


def snapshot_compact() -> dict[str, object]:
    return snapshot(initial_state(["A", "B", "C"], Options(), 3), 0)


# --- recovery and the check of the logs --------------------------------------------------------


async def test_recovery_loads_snapshots_and_checks_every_log(db_path: Path) -> None:
    ids = await _running_games(db_path, 4)
    svc = await GameService.open(db_path, config=CONFIG, recover=False)
    try:
        report = await svc.recover()
        assert sorted(report.loaded) == sorted(report.unverified) == sorted(ids)
        before = {g: (await svc.get_game(g)).table for g in ids}  # served at once
        checked = await svc.verification()
        assert checked.unverified == () and checked.broken == () and checked.mismatches == ()
        assert checked.verified_seconds >= report.seconds
        for g in ids:
            assert (await svc.get_game(g)).table == before[g]
            assert svc._games[g].state == _log_state(db_path, svc, g)
            assert svc._games[g].verified
    finally:
        await svc.close()


async def test_a_tampered_snapshot_is_reported_and_the_game_goes_on_from_its_log(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ids = await _running_games(db_path, 3)
    game_id = ids[1]
    _sql(
        db_path,
        "UPDATE games SET snapshot = json_set(snapshot, '$.scores[0]', 999) WHERE id = ?",
        (game_id,),
    )
    caplog.set_level(logging.WARNING, logger="wizard.service")
    svc = await GameService.open(db_path, config=CONFIG, recover=False)
    try:
        report = await svc.recover()
        assert game_id in report.unverified and report.mismatches == ()
        stale = await svc.seat_view(game_id, 1)  # shown from the snapshot, before the check
        checked = await svc.verification()
        assert [g for g, _ in checked.mismatches] == [game_id]
        assert "scores" in checked.mismatches[0][1]
        info = await svc.get_game(game_id)
        assert info.table is not None and 999 not in info.table.scores
        assert svc._games[game_id].state == _log_state(db_path, svc, game_id)
        # The rebuilt game has a new version: a click made on the snapshot's view is stale.
        assert info.version == stale.version + 1
        with pytest.raises(StaleVersionError):
            await svc.act(game_id, 1, MakeBid(0), stale.version)
        # And it plays on from the log's state.
        assert await human_move(svc, game_id, [1, 2, 3], random.Random(5)) is not None
    finally:
        await svc.close()
    assert any("the game was rebuilt" in r.getMessage() for r in caplog.records)
    # Its next snapshot is the log's state again: a new start finds nothing wrong.
    again = await GameService.open(db_path, config=CONFIG)
    try:
        assert (await again.verification()).mismatches == ()
    finally:
        await again.close()


async def test_a_click_on_an_unchecked_game_checks_its_log_first(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = await _running_games(db_path, 2)
    _sql(
        db_path,
        "UPDATE games SET snapshot = json_set(snapshot, '$.tricks[1]', 7) WHERE id = ?",
        (ids[0],),
    )
    monkeypatch.setattr(GameService, "_verify_all", _no_background_check)
    svc = await GameService.open(db_path, config=CONFIG)
    try:
        assert not svc._games[ids[0]].verified and not svc._games[ids[1]].verified
        # A healthy game: checked, then the click is applied as usual.
        sv = await svc.seat_view(ids[1], 1)
        update = await human_move(svc, ids[1], [1, 2, 3], random.Random(1))
        assert update is not None and update.version == sv.version + 1
        assert svc._games[ids[1]].verified
        assert svc._games[ids[1]].state == _log_state(db_path, svc, ids[1])
        # The tampered one: the check under the lock finds it and rebuilds it before the
        # click is looked at, so the click, made on the snapshot's view, is refused.
        sv = await svc.seat_view(ids[0], 1)
        assert sv.view.tricks[1] == 7
        with pytest.raises(StaleVersionError):
            await svc.act(ids[0], 1, MakeBid(0), sv.version)
        assert svc._games[ids[0]].state == _log_state(db_path, svc, ids[0])
        report = await svc.verification()
        assert [g for g, _ in report.mismatches] == [ids[0]]
    finally:
        await svc.close()


async def test_a_broken_log_found_on_a_click_marks_the_game_broken(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = await _running_games(db_path, 2)
    _sql(db_path, "DELETE FROM actions WHERE game_id = ? AND seq = 2", (ids[0],))
    monkeypatch.setattr(GameService, "_verify_all", _no_background_check)
    svc = await GameService.open(db_path, config=CONFIG)
    try:
        sv = await svc.seat_view(ids[0], 1)
        with pytest.raises(GameStatusError, match="could not be loaded"):
            await svc.act(ids[0], 1, MakeBid(0), sv.version)
        info = await svc.get_game(ids[0])
        assert info.status is GameStatus.BROKEN and "gap" in (info.broken_reason or "")
        report = await svc.verification()
        assert [g for g, _ in report.broken] == [ids[0]] and ids[0] not in report.loaded
    finally:
        await svc.close()
    conn = sqlite3.connect(db_path)
    try:
        status = conn.execute("SELECT status FROM games WHERE id = ?", (ids[0],)).fetchone()[0]
    finally:
        conn.close()
    assert status == "broken"


async def test_clicks_during_the_background_check_are_safe(db_path: Path) -> None:
    ids = await _running_games(db_path, 8, moves=40)
    _sql(
        db_path,
        "UPDATE games SET snapshot = json_set(snapshot, '$.scores[1]', -5) WHERE id = ?",
        (ids[3],),
    )
    svc = await GameService.open(db_path, config=CONFIG)
    try:

        async def play(game_id: int) -> None:
            rng = random.Random(game_id)
            for _ in range(15):
                # StaleVersionError: the game was rebuilt from its log under the click.
                with contextlib.suppress(StaleVersionError):
                    await human_move(svc, game_id, [1, 2, 3], rng, tag="again")

        # Every game is clicked at once, while the background check runs through them.
        await asyncio.gather(*(play(g) for g in ids), svc.verification())
        report = await svc.verification()
        assert [g for g, _ in report.mismatches] == [ids[3]] and report.broken == ()
        for g in ids:
            assert svc._games[g].state == _log_state(db_path, svc, g)
    finally:
        await svc.close()
    again = await GameService.open(db_path, config=CONFIG)
    try:
        report = await again.verification()
        assert report.mismatches == () and report.broken == ()
    finally:
        await again.close()


async def test_a_computer_turn_on_an_unchecked_game_waits_for_the_check(
    db_path: Path, clock: VirtualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = await GameService.open(db_path, clock=clock, config=CONFIG)
    try:
        game_id = await new_game(svc, 1, 2, seed=9)
        await svc.start(game_id, 1)
        for _ in range(6):
            await svc.run_computer_turns(game_id)
            await human_move(svc, game_id, [1], random.Random(2))
        live = svc._games[game_id]
        assert live.state is not None and to_act(live.state)[0] != 0  # a computer's turn
        logged = live.seq
    finally:
        await svc.close()
    # Stop where a computer is due, with a snapshot that disagrees with the log.
    _sql(
        db_path,
        "UPDATE games SET snapshot = json_set(snapshot, '$.scores[2]', 1234) WHERE id = ?",
        (game_id,),
    )
    monkeypatch.setattr(GameService, "_verify_all", _no_background_check)
    svc = await GameService.open(db_path, clock=clock, config=CONFIG)
    try:
        assert not svc._games[game_id].verified
        svc.start_clocks()
        await clock.advance(0.5, svc.wait_idle)  # the computer's turn is due at once
        live = svc._games[game_id]
        assert live.verified and 1234 not in live.state.scores  # type: ignore[union-attr]
        assert live.seq > logged  # it moved, after the check
        assert live.state == _log_state(db_path, svc, game_id)
        updates = await play_out(svc, game_id, [1], random.Random(3))
        assert updates[-1].status is GameStatus.FINISHED
    finally:
        await svc.close()


async def test_legacy_and_unreadable_snapshots_are_replayed_at_once(db_path: Path) -> None:
    ids = await _running_games(db_path, 3)
    legacy = json.loads(_snapshot_of(db_path, ids[0]) or "{}")
    # A snapshot in the older compact format, from before full snapshots, one field off.
    old = {
        "seq": legacy["seq"],
        "round": legacy["round"],
        "phase": legacy["phase"],
        "dealer": legacy["dealer"],
        "turn": legacy["turn"],
        "trump": legacy["trump"],
        "bids": legacy["bids"],
        "tricks": legacy["tricks"],
        "scores": [1, 2, 3],
        "hands": [],
        "trick": "",
    }
    _sql(db_path, "UPDATE games SET snapshot = ? WHERE id = ?", (json.dumps(old), ids[0]))
    _sql(
        db_path,
        "UPDATE games SET snapshot = json_set(snapshot, '$.hands[0]', 12) WHERE id = ?",
        (ids[1],),
    )
    svc = await GameService.open(db_path, config=CONFIG, recover=False)
    try:
        report = await svc.recover()
        assert report.unverified == (ids[2],)
        found = dict(report.mismatches)
        assert set(found) == {ids[0], ids[1]}
        assert "scores" in found[ids[0]]
        assert "cannot be read" in found[ids[1]]
        assert (await svc.verification()).mismatches == report.mismatches
    finally:
        await svc.close()


async def test_ended_games_keep_no_snapshot(db_path: Path) -> None:
    svc = await GameService.open(db_path, config=CONFIG)
    try:
        done = await new_game(svc, 3, 0, seed=4)
        await svc.start(done, 1)
        assert _snapshot_of(db_path, done) is not None
        await play_out(svc, done, [1, 2, 3], random.Random(4))
        cancelled = await new_game(svc, 3, 0, seed=5, channel=9)
        await svc.start(cancelled, 1)
        await svc.cancel(cancelled, 1)
    finally:
        await svc.close()
    assert _snapshot_of(db_path, done) is None
    assert _snapshot_of(db_path, cancelled) is None


async def test_closing_during_the_check_leaves_it_for_the_next_start(db_path: Path) -> None:
    ids = await _running_games(db_path, 3)
    svc = await GameService.open(db_path, config=CONFIG)
    assert (await svc.recover()).loaded == ()  # already loaded
    await svc.close()  # the check had not run: nothing is lost, nothing is half done
    again = await GameService.open(db_path, config=CONFIG)
    try:
        report = await again.verification()
        assert sorted(report.loaded) == sorted(ids) and report.mismatches == ()
    finally:
        await again.close()


# --- requests, the writer, the collector -----------------------------------------------------


async def test_a_repeated_request_gets_the_original_update(
    service: GameService, clock: VirtualClock
) -> None:
    game_id = await new_game(service, 3, 0, seed=12, turn_seconds=60)
    await service.start(game_id, 1)
    sv = next(s for s in [await service.seat_view(game_id, u) for u in (1, 2, 3)] if s.view.my_turn)
    move = PlayHiddenCard() if sv.play_hidden_card else sv.view.legal[0]
    first = await service.act(game_id, sv.seat + 1, move, sv.version, request_id="click-1")
    await clock.advance(20)  # the repeat comes later, after the next player's move
    assert await human_move(service, game_id, [1, 2, 3], random.Random(1)) is not None
    again = await service.act(game_id, sv.seat + 1, move, sv.version, request_id="click-1")
    assert again.duplicate and not first.duplicate
    # The update as it was, its turn deadline included (recomputing it from the log
    # could not tell that deadline any more).
    assert again.events == first.events and again.version == first.version
    assert any(getattr(e, "deadline", None) for e in first.events)


async def test_the_writer_waits_for_another_connection_without_blocking(db_path: Path) -> None:
    store = await Store.open(db_path)
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.002)
                ticks += 1

        running = asyncio.ensure_future(ticker())
        write = asyncio.ensure_future(
            store.write(Statements((("INSERT INTO guild_settings VALUES (1, '{}', 0)", ()),)))
        )
        await asyncio.sleep(0.1)
        assert not write.done() and ticks >= 10  # waiting, and the loop runs on
        other.execute("COMMIT")
        await asyncio.wait_for(write, 5)
        running.cancel()
        rows = await store.fetchall("SELECT guild_id FROM guild_settings")
        assert [r[0] for r in rows] == [1]
    finally:
        other.close()
        await store.close()


async def test_opening_the_service_tunes_the_collector(db_path: Path) -> None:
    import gc

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        svc = await GameService.open(db_path, config=ServiceConfig(tune_gc=False))
        await svc.close()
        assert gc.get_threshold() == (700, 10, 10)
        svc = await GameService.open(db_path)
        await svc.close()
        assert gc.get_threshold() == GC_THRESHOLDS
    finally:
        gc.set_threshold(*before)
