"""A click renders from the update the service returned: no re-reads of the service after it
(issue 12, "A bot with rooms")."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.clock import DiscordClock
from bot.cogs.look import known_settings, server_settings
from bot.features.table import bids_on_table
from tests.bot.conftest import (
    Sim,
    buttons,
    is_bid_button,
    is_hand_button,
    message_text,
    simulation,
    verb_of,
    version_of,
)
from wizard.service import GameService, GameStatus

GUILD = 77

READS = ("get_game", "seat_view", "get_settings", "game_in_channel", "games_in_channel")
"""The service's read methods a click could use to render."""


def spy_reads_after_act(
    sim: Sim, monkeypatch: pytest.MonkeyPatch, writer: str = "act"
) -> list[tuple[str, Any]]:
    """Record each read of the service (name and first arguments) made after ``writer``
    (``act``, ``start``) returned its update."""
    service = sim.service
    reads: list[tuple[str, Any]] = []
    acted = False

    def wrap_read(name: str) -> None:
        original: Callable[..., Awaitable[Any]] = getattr(service, name)

        async def read(*args: Any, **kwargs: Any) -> Any:
            if acted:
                reads.append((name, args))
            return await original(*args, **kwargs)

        monkeypatch.setattr(service, name, read)

    for name in READS:
        wrap_read(name)
    act = getattr(service, writer)

    async def spied_act(*args: Any, **kwargs: Any) -> Any:
        nonlocal acted
        update = await act(*args, **kwargs)
        acted = True
        return update

    monkeypatch.setattr(service, writer, spied_act)
    return reads


async def test_a_hidden_bid_click_reads_nothing_after_the_update(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], bidding="hidden")
        await sim.open_hand(bob)
        hand = await sim.open_hand(ann)
        table_before = message_text(sim.table_of(info))
        [zero] = [b for b in buttons(hand) if b.get("label") == "0" and not b.get("disabled")]
        reads = spy_reads_after_act(sim, monkeypatch)

        result = await ann.click(hand, custom_id=zero["custom_id"])

        assert result.acknowledged
        assert reads == []
        # ... and what the click drew is as true as before: ann's hand says she bid, the
        # table shows that she has bid (hidden), bob's hand still offers his bids.
        mine = sim.hand(ann)
        assert mine is not None and "0" in message_text(mine)
        assert not any(b.get("label") == "0" and not b.get("disabled") for b in buttons(mine)), (
            "the hand still offers the bid just made"
        )
        assert message_text(sim.table_of(info)) != table_before
        bobs = sim.hand(bob)
        assert bobs is not None and any(not b.get("disabled") for b in buttons(bobs))


async def test_a_play_click_reads_only_the_other_players_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the bids, a card played: the table and the clicker's hand come from the update;
    the only reads are the other open hands' own views (private: not in the update)."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], bidding="hidden")
        for member in (ann, bob, cy):
            await sim.click_hand(member, "0" if member is not cy else "1")
        info = await sim.service.get_game(info.id)
        assert info.status is GameStatus.ACTIVE and info.table is not None
        seat = info.table.turn
        assert seat is not None
        player = sim.member(info.seats[seat].user_id or 0)
        others = [m for m in sim.members if m is not player]
        for member in others:
            await sim.open_hand(member)
        hand = await sim.open_hand(player)
        playable = [b for b in buttons(hand) if b.get("custom_id", "").split(":")[2] == "play"]
        card = next(b for b in playable if not b.get("disabled"))
        reads = spy_reads_after_act(sim, monkeypatch)

        result = await player.click(hand, custom_id=card["custom_id"])

        assert result.acknowledged
        assert [name for name, _ in reads if name != "seat_view"] == []
        viewers = {args[1] for name, args in reads if name == "seat_view"}
        assert player.id not in viewers
        assert viewers <= {m.id for m in others}


async def test_an_open_bid_on_the_table_reads_nothing_after_the_update(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Open bidding: a bid clicked on the table redraws the table from the update (its
    game and the server's settings); the only reads are other open hands' own views."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.lobby(ann, [bob, cy], bidding="open")
        for member in sim.members:
            await sim.open_hand(member)
        info = await sim.service.get_game(info.id)
        assert info.table is not None and bids_on_table(info.table)
        [bidder] = await sim.to_act(info.id)
        reads = spy_reads_after_act(sim, monkeypatch)

        result = await sim.bid_on_table(bidder, info, lambda enabled: enabled[0])

        assert result.acknowledged and not result.ephemeral
        assert [name for name, _ in reads if name != "seat_view"] == []
        assert bidder.id not in {args[1] for name, args in reads if name == "seat_view"}
        # The table the click drew shows the next bidder's buttons, at the new version.
        after = await sim.service.get_game(info.id)
        table = sim.table_of(after)
        assert any(is_bid_button(b) and version_of(b) == after.version for b in buttons(table))


async def test_start_reads_nothing_after_the_update(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start turns the lobby into the table from the update the service returned (the game
    and the server's settings, e.g. its language), with no read of the game after it."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        await sim.service.update_settings(sim.guild.id, language="de")
        await sim.new_game(ann)
        lobby = sim.message(sim.raw()[-1].id)
        for member in (bob, cy):
            assert (await member.click(lobby, custom_id=_join_id(lobby))).acknowledged
        reads = spy_reads_after_act(sim, monkeypatch, writer="start")

        started = await ann.click(lobby, custom_id=_start_id(lobby))

        assert started.acknowledged and not started.ephemeral
        assert [name for name, _ in reads if name != "seat_view"] == []
        info = await sim.service.game_in_channel(sim.channel.id)
        assert info is not None and info.status is GameStatus.ACTIVE
        table = sim.table_of(info)
        assert table.id == lobby.id
        assert any(is_hand_button(b) for b in buttons(table))
        assert "Runde" in message_text(table)  # drawn in the server's language


def _join_id(lobby: Any) -> str:
    return next(b["custom_id"] for b in buttons(lobby) if verb_of(b) == "join")


def _start_id(lobby: Any) -> str:
    return next(b["custom_id"] for b in buttons(lobby) if verb_of(b) == "start")


async def test_settings_known_for_a_render_are_not_kept_by_what_it_arms(tmp_path: Path) -> None:
    """A timer or task armed while an update is rendered (a ping, a trailing edit) copies the
    render's context: when it fires later it reads the server's settings as they are then."""
    service = await GameService.open(tmp_path / "w.db", clock=DiscordClock())
    try:
        old = await service.get_settings(GUILD)
        seen: list[str] = []
        later: asyncio.Event = asyncio.Event()

        async def armed() -> None:
            await later.wait()
            seen.append((await server_settings(service, GUILD)).language)

        with known_settings(service, GUILD, old):
            seen.append((await server_settings(service, GUILD)).language)
            task = asyncio.ensure_future(armed())
        await service.update_settings(GUILD, language="de")
        later.set()
        await task
        assert seen == ["en", "de"]
    finally:
        await service.close()
