"""A game whose home is gone is cancelled, not left open: its channel or thread is deleted, or
the bot is removed from the server (Discord's CHANNEL_DELETE, THREAD_DELETE and GUILD_DELETE,
all under the ``guilds`` intent), or the bot finds the channel gone when it next edits the
game's messages (deleted while it was down). The operator is told once per game, with the
game and the channel; the game stays in the database as any cancelled game does, and a
restart does not bring it back as open."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import discord
import pytest
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from bot.cogs.messages import CHANNEL_DELETED, SERVER_LEFT
from bot.features.lobby import cancelled_embed
from bot.i18n import DEFAULT_LANGUAGE, texts
from bot.i18n.catalogues import TRANSLATED
from tests.bot.conftest import Sim, simulation, warnings_about
from tests.bot.test_community_threads import new_in_thread, started_in_thread
from wizard.service import GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")


async def cancelled_for_good(sim: Sim, *game_ids: int) -> None:
    """The games are cancelled, and stay so after a restart (not recovered as open)."""
    for game_id in game_ids:
        assert (await sim.service.get_game(game_id)).status is GameStatus.CANCELLED
    await sim.restart()
    assert not set(game_ids) & set(sim.service.recovered)
    for game_id in game_ids:
        info = await sim.service.get_game(game_id)
        assert info.status is GameStatus.CANCELLED
        assert info.seats  # nothing else of the game is lost


async def test_a_deleted_channel_cancels_its_running_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        await sim.play(
            info.id, random.Random(3), until=lambda i: i.table is not None and i.table.round >= 2
        )
        await sim.open_hand(ann)
        caplog.clear()

        sim.env.backend.delete_channel(sim.channel.id)
        await sim.env.settle()
        await sim.cog.surfaces.idle()

        said = warnings_about(caplog, info.id)
        assert len(said) == 1, said
        assert "cancelled" in said[0] and str(sim.channel.id) in said[0]
        assert not sim.env.errors
        await cancelled_for_good(sim, info.id)


async def test_a_deleted_thread_cancels_its_lobby_and_says_nothing_in_the_channel(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        await sim.service.update_settings(sim.guild.id, threads=True)
        thread, info, _ = await new_in_thread(sim, ann)
        _, kept, _ = await new_in_thread(sim, bob)
        channel_before = [(m.id, m.content) for m in sim.public()]
        caplog.clear()

        sim.env.backend.delete_channel(thread.id)
        await sim.env.settle()
        await sim.cog.surfaces.idle()

        said = warnings_about(caplog, info.id)
        assert len(said) == 1, said
        assert str(thread.id) in said[0]
        # The bot never announced the game in the channel (only Discord's "started a
        # thread" line is there), so it posts nothing there about its end either.
        assert [(m.id, m.content) for m in sim.public()] == channel_before
        assert (await sim.service.get_game(kept.id)).status is GameStatus.LOBBY
        assert not sim.env.errors
        await cancelled_for_good(sim, info.id)


async def test_a_deleted_thread_cancels_its_running_game_and_tells_the_channel(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A game's thread deleted mid-game: the game was cancelled and nobody was told. The
    channel the thread was opened from hears it once (the players' open hands were in the
    thread: they are told too, as far as Discord still lets them be edited)."""
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        home = sim.channel
        thread, info = await started_in_thread(sim)
        before = [m.id for m in home.history()]
        asked = len(sim.env.http_requests)

        sim.env.backend.delete_channel(thread.id)
        await sim.env.settle()
        await sim.cog.surfaces.idle()

        said = [m.content for m in home.history() if m.id not in before]
        assert said == [
            f"🛑 Game {info.id} is cancelled. The game's channel or thread was deleted. No "
            "result is recorded."
        ], said
        hands = [
            r.json["content"]
            for r in sim.env.http_requests[asked:]
            if r.method == "PATCH" and r.path.startswith("/webhooks/") and r.json
        ]
        assert len(hands) == 2, hands
        assert all(hand.endswith("\n🛑 This game was cancelled.") for hand in hands), hands
        assert not sim.env.errors
        sim.channel = home
        await cancelled_for_good(sim, info.id)


async def test_the_note_of_a_deleted_thread_needs_send_messages(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Without Send Messages in the channel the note is logged, not sent, and nothing else
    changes: the game is cancelled as before."""
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        home = sim.channel
        thread, info = await started_in_thread(sim)
        me = sim.bot.user
        assert me is not None
        deny = discord.Permissions(send_messages=True).value
        overwrite = Overwrite(target_id=me.id, type=OverwriteType.MEMBER, allow=0, deny=deny)
        sim.env.backend.set_overwrite(home.id, overwrite)
        before = [m.id for m in home.history()]
        caplog.clear()

        sim.env.backend.delete_channel(thread.id)
        await sim.env.settle()
        await sim.cog.surfaces.idle()

        assert [m.id for m in home.history()] == before
        lines = [r.getMessage() for r in caplog.records]
        assert any(f"game {info.id}: the channel was not told" in line for line in lines), lines
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
        sim.channel = home
        await cancelled_for_good(sim, info.id)


async def test_a_deleted_channel_cancels_the_games_of_its_threads(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        await sim.service.update_settings(sim.guild.id, threads=True)
        home = sim.channel
        _, first, _ = await new_in_thread(sim, ann)
        _, second, _ = await new_in_thread(sim, bob)
        _, running = await started_in_thread(sim)
        sim.channel = home
        asked = len(sim.env.http_requests)

        sim.env.backend.delete_channel(sim.channel.id)
        await sim.env.settle()
        await sim.cog.surfaces.idle()

        # Nowhere left to tell of the running game: nothing is tried.
        posts = [r.path for r in sim.env.http_requests[asked:] if r.method == "POST"]
        assert posts == []
        assert not sim.env.errors
        await cancelled_for_good(sim, first.id, second.id, running.id)


async def test_removed_from_the_server_cancels_its_games_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        running = await sim.lobby(ann, [bob], computers=1, turn_timer=30)
        other_channel = sim.guild.create_text_channel("more-wizard")
        home = sim.channel
        sim.channel = other_channel
        lobby = await sim.new_game(bob)
        sim.channel = home
        elsewhere_guild = sim.env.create_guild("Another server")
        elsewhere_channel = elsewhere_guild.create_text_channel("wizard")
        cy = elsewhere_guild.add_member(sim.env.create_user("cy"))
        opened = await cy.slash(elsewhere_channel, "wizard new")
        assert opened.response is not None and not opened.ephemeral
        elsewhere = await sim.service.game_in_channel(elsewhere_channel.id)
        assert elsewhere is not None
        caplog.clear()

        sim.env.backend.remove_guild(sim.guild.id)
        await sim.env.settle()
        await sim.cog.surfaces.idle()
        await sim.env.advance_time(31)  # the turn timer would have fired: nothing is open

        for game_id in (running.id, lobby.id):
            said = warnings_about(caplog, game_id)
            assert len(said) == 1, said
            assert "server" in said[0] and str(sim.guild.id) in said[0]
        assert (await sim.service.get_game(elsewhere.id)).status is GameStatus.LOBBY
        assert not sim.env.errors
        await cancelled_for_good(sim, running.id, lobby.id)


async def test_a_channel_deleted_while_the_bot_was_down(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        # The service stops first (the bot is going down): the deletion it hears then
        # cannot be acted on, and nothing raises.
        await sim.service.close()
        sim.env.backend.delete_channel(sim.channel.id)
        await sim.env.settle()
        caplog.clear()

        # The new process brings its recovered games up to date: the table's channel is
        # gone (Discord: Unknown Channel), so the game is cancelled.
        await sim.restart()
        await sim.env.settle()
        await sim.cog.surfaces.idle()

        said = warnings_about(caplog, info.id)
        assert len(said) == 1, said
        assert "cancelled" in said[0] and str(sim.channel.id) in said[0]
        # The table's message is not taken for deleted alone (nothing is posted again).
        lines = [r.getMessage() for r in caplog.records]
        assert not [line for line in lines if "posting it again" in line], lines
        assert not sim.env.errors
        await cancelled_for_good(sim, info.id)


@pytest.mark.parametrize("reason", [CHANNEL_DELETED, SERVER_LEFT])
def test_the_reason_is_said_in_every_language(reason: str) -> None:
    def said(language: str, why: str = reason) -> str:
        return cancelled_embed(7, why, t=texts(language)).description or ""

    english = said(DEFAULT_LANGUAGE)
    assert english != said(DEFAULT_LANGUAGE, "no such reason")  # not the generic sentence
    for language in TRANSLATED:
        assert said(language) != english, language
        assert said(language) != said(language, "no such reason"), language


async def test_a_server_outage_cancels_nothing(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        # Discord's GUILD_DELETE with "unavailable": the server is down for a while, the bot
        # is still in it (discord.py: on_guild_unavailable, not on_guild_remove).
        sim.env.backend.emit("GUILD_DELETE", {"id": str(sim.guild.id), "unavailable": True})
        await sim.env.settle()
        await sim.cog.surfaces.idle()
        assert sim.bot.get_guild(sim.guild.id).unavailable  # type: ignore[union-attr]
        assert (await sim.service.get_game(info.id)).status is GameStatus.ACTIVE
        assert not sim.env.errors


async def test_removed_from_the_server_while_the_bot_was_down(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1, turn_timer=30)
        await sim.service.close()
        sim.env.backend.remove_guild(sim.guild.id)
        await sim.env.settle()
        caplog.clear()

        # Discord's READY no longer lists the server: its games are cancelled at once,
        # before any edit is tried in a server the bot cannot reach (which Discord refuses
        # with Missing Access, not Unknown Channel, and the bot would retry for ever).
        await sim.restart()
        await sim.env.settle()
        await sim.cog.surfaces.idle()

        said = warnings_about(caplog, info.id)
        assert len(said) == 1, said
        assert "server" in said[0] and str(sim.guild.id) in said[0]
        assert not sim.env.errors
        await cancelled_for_good(sim, info.id)
