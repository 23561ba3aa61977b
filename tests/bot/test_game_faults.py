"""Discord refuses table edits (server errors, a lost permission, a deleted table): no game
state is lost, the next update repairs or re-posts the table, a lost permission is reported in
the channel once, and the game finishes correctly."""

from __future__ import annotations

import random
from pathlib import Path

import discord
import pytest

from bot.features.table import table_embed_of
from bot.i18n import texts
from tests.bot.conftest import Sim, simulation
from wizard.cards import Theme
from wizard.service import GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")


async def table_is_current(sim: Sim, game_id: int) -> None:
    """The table message shows the game as the service has it now."""
    info = await sim.service.get_game(game_id)
    assert info.table_message_id is not None
    shown = sim.message(info.table_message_id).embeds[0].to_dict()
    assert shown == table_embed_of(info, t=texts("en"), theme=Theme.CLASSIC).to_dict()


async def one_move(sim: Sim, game_id: int, rng: random.Random) -> None:
    mover, *_ = await sim.to_act(game_id)  # several while hidden bids are chosen
    await sim.act(mover, rng.choice)


async def test_table_edits_refused_then_repaired(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=4)
        game = info.id
        rng = random.Random(3)
        await one_move(sim, game, rng)
        await table_is_current(sim, game)
        channel = sim.channel.id

        # A server error (503: discord.py does not retry it) on the next table edit.
        sim.env.inject_error("PATCH", f"/channels/{channel}/messages/*", status=503, times=1)
        before = (await sim.service.get_game(game)).version
        await one_move(sim, game, rng)
        assert (await sim.service.get_game(game)).version > before  # the move counted
        assert sim.cog.surfaces.stats.failures == 1
        await one_move(sim, game, rng)
        await table_is_current(sim, game)  # repaired by the next update

        # The bot loses a permission for a while: reported once, then the table catches up.
        sim.env.inject_error(
            "PATCH",
            f"/channels/{channel}/messages/*",
            status=403,
            code=50013,
            message="Missing Permissions",
            times=2,
        )
        await one_move(sim, game, rng)
        await one_move(sim, game, rng)
        reports = [m for m in sim.public() if m.content.startswith("⚠️ I lost a permission")]
        assert len(reports) == 1
        # Discord's English reason is for the operator's log, not the channel.
        assert "Missing Permissions" not in reports[0].content
        await one_move(sim, game, rng)
        await table_is_current(sim, game)

        # The table message disappears (deleted by someone, or Unknown Message).
        old = (await sim.service.get_game(game)).table_message_id
        sim.env.inject_error(
            "PATCH", f"/channels/{channel}/messages/*", status=404, code=10008, times=1
        )
        await one_move(sim, game, rng)
        new = (await sim.service.get_game(game)).table_message_id
        assert new is not None and new != old
        await table_is_current(sim, game)

        # And again, if a moderator deletes it for real.
        moderators = sim.guild.create_role(
            "Moderators", permissions=discord.Permissions(manage_messages=True)
        )
        moderator = sim.guild.add_member(sim.env.create_user("mod"), roles=[moderators])
        await moderator.delete(sim.message(new))
        await one_move(sim, game, rng)
        newest = (await sim.service.get_game(game)).table_message_id
        assert newest not in (None, new, old)
        await table_is_current(sim, game)

        end = await sim.play(game, rng)
        assert end.status is GameStatus.FINISHED
        await sim.final_standings(game)


async def test_a_failed_edit_is_retried_by_the_clock(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        # Hidden bids: the first move is made in a hand, so the table is edited by the bot
        # (an open bid's click edits the table in its own response).
        info = await sim.lobby(ann, [bob, cy], bidding="hidden")
        rng = random.Random(4)
        sim.env.inject_error("PATCH", f"/channels/{sim.channel.id}/messages/*", status=503)
        await one_move(sim, info.id, rng)
        assert sim.cog.surfaces.stats.failures == 1
        # Nobody moves now; the retry timer repairs the table anyway.
        await sim.env.advance_time(sim.config.retry_after + 1)
        await table_is_current(sim, info.id)
