"""Concurrency: many clicks on one turn, one request delivered twice, many games at once."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from wizard.options import Bidding, Options
from wizard.service import (
    BidsRevealed,
    GameService,
    GameStatus,
    IllegalMoveError,
    MakeBid,
    PlayHiddenCard,
    ServiceConfig,
    ServiceError,
    StaleVersionError,
    VirtualClock,
)

from .conftest import action_log, human_move, new_game, play_out


async def test_fifty_clicks_on_one_turn_apply_once(service: GameService, db_path: Path) -> None:
    game_id = await new_game(service, 3, 0, seed=21)
    await service.start(game_id, 1)
    info = await service.get_game(game_id)
    assert info.table is not None
    seat = info.table.to_act[0]
    sv = await service.seat_view(game_id, seat + 1)
    assert sv.view.legal
    # Fifty clicks on surfaces of the same version, from every player: a bid of 0 is
    # legal for each of them in their turn, so only the version check stops the others.
    calls = [
        service.act(game_id, (seat + k) % 3 + 1, MakeBid(k % 2), sv.version) for k in range(50)
    ]
    results = await asyncio.gather(*calls, return_exceptions=True)
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(applied) == 1
    assert len(refused) == 49
    for error in refused:
        assert isinstance(error, ServiceError), error
        # Either the click lost the race (stale), or it was never this player's turn.
        assert isinstance(error, StaleVersionError | IllegalMoveError), error
        assert error.message
    assert applied[0].version == sv.version + 1
    assert action_log(db_path, game_id) == [(1, seat, "bid", str(applied[0].action.bid))]  # type: ignore[union-attr]


async def test_same_request_twice_is_applied_once(
    service: GameService, db_path: Path, clock: VirtualClock
) -> None:
    game_id = await new_game(service, 3, 0, seed=22)
    update = await service.start(game_id, 1)
    info = await service.get_game(game_id)
    assert info.table is not None
    seat = info.table.to_act[0]
    first, second = await asyncio.gather(
        service.act(game_id, seat + 1, MakeBid(0), update.version, request_id="interaction-1"),
        service.act(game_id, seat + 1, MakeBid(0), update.version, request_id="interaction-1"),
    )
    assert {first.duplicate, second.duplicate} == {False, True}
    assert first.version == second.version
    assert first.events == second.events
    assert len(action_log(db_path, game_id)) == 1
    # And again after a restart of the service (the request ids are in the log). On the same
    # clock: a restart long after the deadline would give the turn a new one (and the answer
    # tells the turn's current deadline).
    await service.close()
    again = await GameService.open(service.store.path, clock=clock)
    try:
        third = await again.act(
            game_id, seat + 1, MakeBid(0), update.version, request_id="interaction-1"
        )
        assert third.duplicate and third.version == first.version and third.events == first.events
    finally:
        await again.close()
    assert len(action_log(db_path, game_id)) == 1


async def test_hidden_bids_do_not_make_other_surfaces_stale(service: GameService) -> None:
    game_id = await new_game(service, 4, 0, seed=23, options=Options(bidding=Bidding.HIDDEN))
    update = await service.start(game_id, 1)
    views = [await service.seat_view(game_id, uid) for uid in (1, 2, 3, 4)]
    if any(not v.view.my_turn for v in views):
        return  # a turned Wizard: the dealer chooses trump first
    # Three bid from surfaces shown at the same version, at once: none of them is stale.
    results = await asyncio.gather(
        *(service.act(game_id, uid, MakeBid(0), update.version) for uid in (1, 2, 3))
    )
    assert sorted(r.version for r in results) == [update.version + k for k in (1, 2, 3)]
    # A second bid by the same player is refused by the rules (R7.2), not as stale.
    try:
        await service.act(game_id, 1, MakeBid(0), update.version)
    except IllegalMoveError as e:
        assert e.rule == "R7.2"
    else:  # pragma: no cover
        raise AssertionError("a second bid was accepted")
    last = await service.act(game_id, 4, MakeBid(0), update.version)
    assert any(isinstance(e, BidsRevealed) for e in last.events)
    # Bidding is over: a surface from before is now stale.
    try:
        await service.act(game_id, 1, MakeBid(0), update.version)
    except StaleVersionError:
        pass
    else:  # pragma: no cover
        raise AssertionError("a stale bid was accepted")


async def _play_games(
    path: Path, seeds: list[int], concurrent: bool
) -> dict[int, list[tuple[int, int, str, str]]]:
    # A deadline no healthy decision reaches: a loaded machine must not hand a computer's
    # move to the fallback player in one run and not the other.
    config = ServiceConfig(computer_delay=0.0, ai_deadline=120.0)
    svc = await GameService.open(path, config=config)
    try:
        ids = []
        for k, seed in enumerate(seeds):
            ids.append(await new_game(svc, 3, 3, channel=9000 + k, seed=seed))
            await svc.start(ids[-1], 1)

        async def one(game_id: int, seed: int) -> None:
            # Computer players are seeded per game and seat; humans by this rng.
            await play_out(svc, game_id, [1, 2, 3], random.Random(seed))

        if concurrent:
            await asyncio.gather(*(one(g, s) for g, s in zip(ids, seeds, strict=True)))
        else:
            for g, s in zip(ids, seeds, strict=True):
                await one(g, s)
        for g in ids:
            assert (await svc.get_game(g)).status is GameStatus.FINISHED
        return {seed: action_log(path, g) for g, seed in zip(ids, seeds, strict=True)}
    finally:
        await svc.close()


async def test_many_games_concurrently_stay_independent(tmp_path: Path) -> None:
    seeds = list(range(300, 308))
    together = await _play_games(tmp_path / "together.db", seeds, concurrent=True)
    apart = await _play_games(tmp_path / "apart.db", seeds, concurrent=False)
    # Interleaving eight games changes nothing in any of them.
    assert together == apart
    for log in together.values():
        assert [row[0] for row in log] == list(range(1, len(log) + 1))


async def test_two_shards_share_one_file(db_path: Path) -> None:
    """Two services on one file (as two bot processes would be), each with its own servers."""
    config = ServiceConfig(computer_delay=0.0)
    even = await GameService.open(db_path, config=config, owns_guild=lambda g: g % 2 == 0)
    odd = await GameService.open(db_path, config=config, owns_guild=lambda g: g % 2 == 1)
    try:
        games = []
        for k, svc in enumerate([even, odd, even, odd]):
            game_id = await new_game(svc, 3, 1, guild=k, channel=k, seed=400 + k)
            await svc.start(game_id, 1)
            games.append((svc, game_id))
        await asyncio.gather(*(play_out(svc, g, [1, 2, 3], random.Random(g)) for svc, g in games))
        for svc, g in games:
            assert (await svc.get_game(g)).status is GameStatus.FINISHED
    finally:
        await even.close()
        await odd.close()
    again = await GameService.open(db_path)
    try:
        assert len({(await again.get_game(g)).status for _, g in games}) == 1
    finally:
        await again.close()


async def test_hidden_bid_surfaces_stay_valid_across_a_restart(db_path: Path) -> None:
    config = ServiceConfig(computer_delay=0.0)
    svc = await GameService.open(db_path, config=config)
    try:
        game_id = await new_game(svc, 4, 0, seed=23, options=Options(bidding=Bidding.HIDDEN))
        shown = await svc.start(game_id, 1)
        views = [await svc.seat_view(game_id, uid) for uid in (1, 2, 3, 4)]
        if any(not v.view.my_turn for v in views):
            return  # a turned Wizard: the dealer chooses trump first
        await svc.act(game_id, 1, MakeBid(0), shown.version)
        await svc.act(game_id, 2, MakeBid(0), shown.version)
    finally:
        await svc.close()
    again = await GameService.open(db_path, config=config)
    try:
        # Surfaces drawn before the restart, at the start of bidding, still bid (R7.2).
        third = await again.act(game_id, 3, MakeBid(0), shown.version)
        assert third.version == shown.version + 3
        last = await again.act(game_id, 4, MakeBid(0), shown.version)
        assert any(isinstance(e, BidsRevealed) for e in last.events)
        with pytest.raises(StaleVersionError):  # bidding is over: now it is stale
            await again.act(game_id, 1, MakeBid(0), shown.version)
    finally:
        await again.close()


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


async def test_reads_made_at_once_see_every_commit_before_them(service: GameService) -> None:
    # Reads share one connection: a statement left open between two awaits made the next
    # read on it see the database as it was before, and a lobby just created was missing.
    infos = await asyncio.gather(
        *(
            service.create_game(guild_id=1, channel_id=9000 + k, host_id=1, host_name="A")
            for k in range(40)
        )
    )
    assert len({info.id for info in infos}) == 40
    for info in infos:
        assert (await service.get_game(info.id)).seats[0].name == "A"
