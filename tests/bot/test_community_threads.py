"""Where a game lives: its own thread when the server wants threads (and the fallback when the
bot may not open one), driven through the real ``/wizard new``; the thread is archived once
the game is over or cancelled (:mod:`bot.cogs.homes`)."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.cogs.config import GameConfig
from bot.cogs.homes import retire_home, thread_name
from bot.cogs.look import public_texts, public_theme
from bot.i18n import texts
from tests.bot.conftest import Sim, buttons, message_text, simulation, verb_of
from tests.bot.test_game_faults import table_is_current
from tests.bot.test_game_rest import callback_type
from wizard.cards import Theme
from wizard.service import GameInfo, GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")


async def thread_of(sim: Sim, game_id: int) -> discord.Thread:
    """The game's thread as the bot sees it now (fetched: ``archived`` is current)."""
    info = await sim.service.get_game(game_id)
    channel = await sim.bot.fetch_channel(info.channel_id)
    assert isinstance(channel, discord.Thread)
    return channel


async def new_in_thread(
    sim: Sim, host: simcord.MemberActor, **options: Any
) -> tuple[simcord.ChannelHandle, GameInfo, simcord.ResponseMessage]:
    """``/wizard new`` in the channel of a server that plays in threads: the game's thread,
    the game and its lobby message (in the thread)."""
    before = {t.id for t in sim.channel.threads}
    result = await host.slash(sim.channel, "wizard new", **options)
    assert result.acknowledged and result.ephemeral and result.response is not None
    [thread] = [t for t in sim.channel.threads if t.id not in before]
    info = await sim.service.game_in_channel(thread.id)
    assert info is not None and info.channel_id == thread.id
    assert result.response.content == f"🧵 Game {info.id} is open in <#{thread.id}>."
    assert result.followups == []
    [lobby] = thread.history()
    assert info.lobby_message_id == lobby.id
    assert lobby.embeds[0].title == f"Wizard · game {info.id} · lobby"
    return thread, info, sim.message_in(thread, lobby.id)


async def play_in(sim: Sim, thread: simcord.ChannelHandle, game_id: int) -> GameInfo:
    """Play the game of ``thread`` to its end with random clicks (the Sim's driver reads the
    game's channel, so it is pointed at the thread)."""
    channel = sim.channel
    sim.channel = thread
    try:
        return await sim.play(game_id, random.Random(2))
    finally:
        sim.channel = channel


async def started_in_thread(sim: Sim) -> tuple[simcord.ChannelHandle, GameInfo]:
    """ann's game in its thread, with bob and a computer, started, both hands open, and the
    Sim's driver pointed at the thread (``sim.channel``); the thread and the game."""
    ann, bob = sim.members
    await sim.service.update_settings(sim.guild.id, threads=True)
    thread, info, lobby = await new_in_thread(sim, ann)
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Add computer player")
    await ann.click(lobby, label="Start")
    sim.channel = thread
    for member in (ann, bob):
        await sim.open_hand(member)
    return thread, await sim.service.get_game(info.id)


def into_round_two(info: GameInfo) -> bool:
    return info.table is not None and info.table.round > 1


async def test_games_stay_in_the_channel_without_threads(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        result = await ann.slash(sim.channel, "wizard new")
        assert result.response is not None and not result.ephemeral
        assert result.response.embeds[0].title == "Wizard · game 1 · lobby"
        assert result.followups == []
        assert sim.channel.threads == []
        info = await sim.service.game_in_channel(sim.channel.id)
        assert info is not None and info.lobby_message_id == result.response.id


async def test_a_game_in_its_own_thread(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        await sim.service.update_settings(sim.guild.id, threads=True)
        thread, info, lobby = await new_in_thread(sim, ann)
        assert thread.name == "Wizard · ann's game"
        await bob.click(lobby, label="Join")
        await ann.click(lobby, label="Add computer player")
        started = await ann.click(lobby, label="Start")
        assert started.acknowledged and not started.ephemeral
        assert not (await thread_of(sim, info.id)).archived
        # A second game opens its own thread: the channel is not "busy" with the first.
        other, second, _ = await new_in_thread(sim, bob)
        assert other.id != thread.id and second.id != info.id
        done = await play_in(sim, thread, info.id)
        assert done.status is GameStatus.FINISHED
        await sim.cog.surfaces.idle()
        # The channel keeps one line per game, Discord's "started a thread"; the game's
        # messages (lobby turned table, summaries, final standings) are in its thread.
        lines = sim.channel.history()
        assert [m.type for m in lines] == [discord.MessageType.thread_created] * 2
        assert not any(m.embeds for m in lines)
        final = [m for m in thread.history() if m.content.startswith(f"🏁 **Game {info.id}")]
        assert len(final) == 1 and "Congratulations" in final[0].content
        # Once over, the game's thread archives itself an hour after its last message (QA:
        # archived at once, its "Play again" could not be pressed on Discord); the other
        # game's thread keeps its day.
        over = await thread_of(sim, info.id)
        assert not over.archived and over.auto_archive_duration == 60
        other_thread = await thread_of(sim, second.id)
        assert not other_thread.archived and other_thread.auto_archive_duration == 1440
        # Its Play again opens the rematch there, which keeps a day again (review: the
        # rematch's lobby would have gone grey an hour after the last game).
        [final] = [m for m in thread.history() if m.content.startswith(f"🏁 **Game {info.id}")]
        rematch = await bob.click(sim.message_in(thread, final.id), label="Play again")
        assert rematch.acknowledged and not rematch.ephemeral
        again = await thread_of(sim, info.id)
        assert not again.archived and again.auto_archive_duration == 1440


async def test_a_cancelled_game_retires_its_thread(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        await sim.service.update_settings(sim.guild.id, threads=True)
        # Cancelled with the lobby's button.
        thread, first, lobby = await new_in_thread(sim, ann)
        await ann.click(lobby, label="Cancel")
        assert "cancelled" in message_text(sim.message_in(thread, lobby.id)).lower()
        assert (await thread_of(sim, first.id)).archived
        # Cancelled with /wizard cancel inside the thread.
        thread, second, lobby = await new_in_thread(sim, bob)
        cancelled = await bob.slash(thread, "wizard cancel")
        assert cancelled.ephemeral and cancelled.response is not None
        assert cancelled.response.content == f"🛑 Game {second.id} is cancelled."
        await sim.cog.surfaces.idle()
        assert "cancelled" in message_text(sim.message_in(thread, lobby.id)).lower()
        assert (await thread_of(sim, second.id)).archived
        # Everyone leaving empties the lobby: cancelled too.
        _, third, lobby = await new_in_thread(sim, ann)
        await ann.click(lobby, label="Leave")
        assert (await sim.service.get_game(third.id)).status is GameStatus.CANCELLED
        assert (await thread_of(sim, third.id)).archived


async def test_a_refused_game_opens_no_thread(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        await sim.service.update_settings(sim.guild.id, threads=True)
        refused = await ann.slash(sim.channel, "wizard new", bidding="hidden", uneven_bids=True)
        assert refused.ephemeral and refused.response is not None
        assert refused.response.content.startswith("⚠️")
        assert "Uneven bids need open bidding" in refused.response.content
        timer = await ann.slash(sim.channel, "wizard new", turn_timer=5)
        assert timer.ephemeral and timer.response is not None
        assert timer.response.content == (
            "⚠️ That turn timer is not possible. It can be from 10 seconds to 24 hours; 0 means"
            " no limit."
        )
        assert sim.channel.threads == []
        assert sim.channel.history() == []
        assert await sim.service.game_in_channel(sim.channel.id) is None


async def test_without_the_permission_the_game_stays_in_the_channel(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        await sim.service.update_settings(sim.guild.id, threads=True)
        me = sim.bot.get_guild(sim.guild.id).me  # type: ignore[union-attr]
        closed = sim.guild.create_text_channel(
            "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
        )
        result = await ann.slash(closed, "wizard new")
        assert result.response is not None and not result.ephemeral
        assert result.response.embeds[0].title == "Wizard · game 1 · lobby"
        [note] = result.followups
        assert note.ephemeral and "Create Public Threads" in note.content
        assert closed.threads == []
        info = await sim.service.game_in_channel(closed.id)
        assert info is not None and info.lobby_message_id == result.response.id
        # Discord refusing the thread (an error on its side): the same fallback.
        sim.env.inject_error("POST", "/channels/*/threads", status=500)
        result = await ann.slash(sim.channel, "wizard new")
        assert result.response is not None and not result.ephemeral
        [note] = result.followups
        assert "Discord did not open a thread" in note.content
        assert sim.channel.threads == []
        assert await sim.service.game_in_channel(sim.channel.id) is not None


async def test_a_lobby_everyone_sees_stays_open_when_the_hosts_note_fails(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Faults QA: the lobby was posted, then the host's private note (why there is no
    thread) failed, and the lobby was cancelled as if nobody had seen it: bob's Join on it
    read "This game was cancelled". Only the note is lost; the operator is told so."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        await sim.service.update_settings(sim.guild.id, threads=True)
        me = sim.bot.get_guild(sim.guild.id).me  # type: ignore[union-attr]
        closed = sim.guild.create_text_channel(
            "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
        )
        sim.env.inject_error("POST", "/webhooks/*", status=500, times=1)
        result = await ann.slash(closed, "wizard new")
        assert result.response is not None and not result.ephemeral
        info = await sim.service.game_in_channel(closed.id)
        assert info is not None and info.status is GameStatus.LOBBY
        assert info.lobby_message_id == result.response.id
        joined = await bob.click(sim.message_in(closed, result.response.id), label="Join")
        assert joined.acknowledged and not joined.ephemeral
        info = await sim.service.get_game(info.id)
        assert [s.user_id for s in info.seats] == [ann.id, bob.id]
        assert any(
            "its lobby is open, but the host's answer was not shown" in r.getMessage()
            for r in caplog.records
        )


async def test_a_game_opened_inside_a_thread_stays_there(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        await sim.service.update_settings(sim.guild.id, threads=True)
        parent = sim.bot.get_channel(sim.channel.id)
        assert isinstance(parent, discord.TextChannel)
        made = await parent.create_thread(name="talk", type=discord.ChannelType.public_thread)
        [thread] = sim.channel.threads
        assert thread.id == made.id
        # Members cannot open threads in SimCord: make it ann's thread, in SimCord's store and
        # in the bot's cache, as if she had opened it.
        sim.env.backend.channels[made.id].owner_id = ann.id
        cached = sim.bot.get_channel(made.id)
        assert isinstance(cached, discord.Thread)
        cached.owner_id = ann.id
        # A thread is already a home: no thread of a thread, the lobby is the answer.
        result = await ann.slash(thread, "wizard new")
        assert result.response is not None and not result.ephemeral
        assert result.followups == []
        info = await sim.service.game_in_channel(thread.id)
        assert info is not None and info.lobby_message_id == result.response.id
        assert [t.id for t in sim.channel.threads] == [thread.id]
        # The thread was not opened for the game: it stays open when the game ends.
        await sim.member(info.host_id).slash(thread, "wizard cancel")
        await sim.cog.surfaces.idle()
        assert (await sim.service.get_game(info.id)).status is GameStatus.CANCELLED
        assert not (await thread_of(sim, info.id)).archived


async def test_helpers(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1) as sim:
        guild = sim.guild.id
        assert (await public_texts(sim.service, guild)).language == "en"
        assert await public_theme(sim.service, guild) is Theme.CLASSIC
        await sim.service.update_settings(guild, language="de", theme="standard")
        assert (await public_texts(sim.service, guild)).language == "de"
        assert await public_theme(sim.service, guild) is Theme.STANDARD
        assert (await public_texts(sim.service, None)).language == "en"
        assert len(thread_name(texts("en"), "x" * 200)) == 100
        assert thread_name(texts("en"), "ann", 7) == "Wizard · game 7 · ann"
        await retire_home(sim.bot, sim.channel.id)  # a channel is left alone
        channel = await sim.bot.fetch_channel(sim.channel.id)
        assert isinstance(channel, discord.TextChannel)


async def test_a_slow_game_in_a_thread_is_deferred_then_answered(tmp_path: Path) -> None:
    config = GameConfig(ping_delay=None, edit_interval=0.0, defer_after=0.05)
    async with simulation(tmp_path, members=1, config=config) as sim:
        [ann] = sim.members
        await sim.service.update_settings(sim.guild.id, threads=True)
        create = sim.service.create_game

        async def slow_create(**kwargs: Any) -> Any:
            await asyncio.sleep(0.3)
            return await create(**kwargs)

        sim.service.create_game = slow_create  # type: ignore[method-assign]
        opened = await ann.slash(sim.channel, "wizard new")
        assert callback_type(sim, opened) == 5  # deferred: "thinking…", in private
        [thread] = sim.channel.threads
        assert opened.response is not None and opened.response.ephemeral
        assert opened.response.content == f"🧵 Game 1 is open in <#{thread.id}>."
        [lobby] = thread.history()
        assert lobby.embeds[0].title == "Wizard · game 1 · lobby"
        info = await sim.service.game_in_channel(thread.id)
        assert info is not None and info.lobby_message_id == lobby.id


async def test_a_thread_game_whose_table_the_bot_may_not_post_goes_on_in_the_hands(
    tmp_path: Path,
) -> None:
    """QA: with Send Messages in Threads taken from the bot, round 2's table was never posted;
    the hands named permissions that were all there, told the bidder to bid "with the
    buttons on the table", which had none, and the turn timer ran on. The hands name the
    thread's permission and take the bids; the channel is told where the thread's is not."""
    from simcord.backend.models import Overwrite
    from simcord.enums import OverwriteType

    async with simulation(tmp_path, members=2) as sim:
        parent = sim.channel
        thread, info = await started_in_thread(sim)
        me = sim.bot.user
        assert me is not None
        deny = discord.Permissions(send_messages_in_threads=True).value
        sim.env.backend.set_overwrite(
            parent.id, Overwrite(target_id=me.id, type=OverwriteType.MEMBER, allow=0, deny=deny)
        )
        info = await sim.play(info.id, random.Random(3), until=into_round_two)
        await sim.cog.surfaces.idle()
        await sim.env.settle()
        [told] = [m.content for m in parent.history() if m.content.startswith("⚠️")]
        assert f"update the Wizard table in <#{thread.id}>" in told, told
        assert "**Send Messages in Threads**" in told
        [bidder] = await sim.to_act(info.id)
        hand = sim.hand(bidder)
        assert hand is not None
        assert "⚠️ I lost a permission in this game's thread" in hand.content, hand.content
        assert "**Send Messages in Threads**" in hand.content
        assert "bid with the buttons on the table" not in hand.content
        assert "**Your turn:** how many of the 2 tricks will you win?" in hand.content
        bids = [b["label"] for b in buttons(hand) if verb_of(b) == "bid"]
        assert bids == ["0", "1", "2"], bids
        made = await bidder.click(hand, label="1")
        assert made.acknowledged
        after = await sim.service.get_game(info.id)
        assert after.table is not None and after.table.bids[after.seat_of(bidder.id)] == 1
        assert not sim.env.errors


async def test_a_thread_discord_archived_while_the_game_waited_is_opened_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """QA: a thread archives itself after a day without messages, while a game may wait
    longer (a turn timer of up to a day, or none); Discord then refuses every edit of the
    table (50083), which stayed on the old turn for ever. The bot opens the thread again."""
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        thread, info = await started_in_thread(sim)
        archived = sim.env.backend.channels[thread.id].thread_metadata
        assert archived is not None
        archived.archived = True
        sim.env.inject_error("*", f"/channels/{thread.id}/messages*", status=400, code=50083)
        await sim.play(info.id, random.Random(1), until=into_round_two)
        await sim.cog.surfaces.idle()
        await sim.env.settle()
        assert not (await thread_of(sim, info.id)).archived
        await table_is_current(sim, info.id)
        assert any("opened it again" in r.getMessage() for r in caplog.records)
        assert not sim.env.errors


async def test_a_command_in_the_channel_points_to_the_games_in_its_threads(tmp_path: Path) -> None:
    """QA: /wizard cancel in the channel of a game played in its thread said "There is no
    open Wizard game in this channel", as if there were none at all."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        await sim.service.update_settings(sim.guild.id, threads=True)
        thread, info, _ = await new_in_thread(sim, ann)
        answer = await ann.slash(sim.channel, "wizard cancel")
        assert answer.ephemeral and answer.response is not None
        assert answer.response.content == (
            "ℹ️ There is no open Wizard game in this channel itself: its games are played in "
            f"their own threads (<#{thread.id}>). Use the command in the game's thread."
        )
        kicked = await ann.slash(sim.channel, "wizard kick", player=bob)
        assert kicked.response is not None and f"<#{thread.id}>" in kicked.response.content
        assert (await sim.service.get_game(info.id)).status is GameStatus.LOBBY


async def test_an_archived_thread_the_bot_may_not_open_again_is_a_lost_permission(
    tmp_path: Path,
) -> None:
    """Review: when Discord refused to open the thread again (a moderator locked it), the
    game stalled with nobody told, and the unarchive was tried at every move. It is handled
    as a lost permission: the channel is told, the hands take the bids."""
    async with simulation(tmp_path, members=2) as sim:
        parent = sim.channel
        thread, info = await started_in_thread(sim)
        sim.env.inject_error(
            "*", f"/channels/{thread.id}/messages*", status=400, code=50083, times=None
        )
        sim.env.inject_error("PATCH", f"/channels/{thread.id}", status=403, code=50001, times=None)
        info = await sim.play(info.id, random.Random(3), until=into_round_two)
        await sim.cog.surfaces.idle()
        await sim.env.settle()
        [told] = [m.content for m in parent.history() if m.content.startswith("⚠️")]
        assert f"<#{thread.id}>" in told and f"in <#{parent.id}>" in told, told
        [bidder] = await sim.to_act(info.id)
        hand = sim.hand(bidder)
        assert hand is not None and "this game's thread" in hand.content, hand.content
        assert [b["label"] for b in buttons(hand) if verb_of(b) == "bid"] == ["0", "1", "2"]
        assert not sim.env.errors
