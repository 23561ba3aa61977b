"""The game's channel changes under it: the bot loses Send Messages there for a while, or the
channel is deleted. The operator is told once (one warning naming the game and the cause, not
one per retry), the game is not lost, and the table catches up when Discord takes it again."""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from tests.bot.conftest import Sim, buttons, simulation, warnings_about
from tests.bot.simtools import no_answer
from tests.bot.test_game_faults import table_is_current
from wizard.service import GameStatus
from wizard.state import Phase

pytestmark = pytest.mark.usefixtures("fast_settle")


def deny_bot(sim: Sim, permissions: discord.Permissions) -> None:
    """A moderator takes ``permissions`` from the bot in the game's channel."""
    me = sim.bot.user
    assert me is not None
    overwrite = Overwrite(
        target_id=me.id, type=OverwriteType.MEMBER, allow=0, deny=permissions.value
    )
    sim.env.backend.set_overwrite(sim.channel.id, overwrite)


async def test_lost_send_messages_is_one_warning_and_the_table_catches_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=2)
        rng = random.Random(2)
        await sim.play(info.id, rng, until=lambda i: i.table is not None and i.table.round >= 2)
        caplog.clear()

        deny_bot(sim, discord.Permissions(send_messages=True))
        # Moves go on (their clicks are answered: interactions need no permission) until a
        # round ends: the next table is a new message, which Discord refuses.
        await sim.play(info.id, rng, until=lambda i: i.table is not None and i.table.round >= 3)
        for _ in range(10):  # nobody fixes it for a few minutes: the bot keeps retrying
            await sim.env.advance_time(sim.config.retry_after + 1)
        said = warnings_about(caplog, info.id)
        assert len(said) == 1, said
        assert "403" in said[0] and "Missing Permissions" in said[0]

        sim.env.backend.delete_overwrite(sim.channel.id, sim.bot.user.id)  # type: ignore[union-attr]
        caplog.clear()
        await sim.env.advance_time(sim.config.retry_after + 1)
        await table_is_current(sim, info.id)
        back = [r.getMessage() for r in caplog.records if f"game {info.id}" in r.getMessage()]
        assert any("again" in line for line in back), back

        end = await sim.play(info.id, rng)
        assert end.status is GameStatus.FINISHED
        await sim.final_standings(info.id)
        assert not sim.env.errors


async def test_a_deleted_channel_is_one_warning_and_then_quiet(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        # A turn timer: computers play for the players, who cannot reach the game any more.
        info = await sim.lobby(ann, [bob], computers=1, turn_timer=30, bidding="hidden")
        await sim.open_hand(ann)
        caplog.clear()
        requests = len(sim.env.http_requests)

        sim.env.backend.delete_channel(sim.channel.id)
        for _ in range(2):  # two turn timeouts: computers play for both
            await sim.env.advance_time(31)
        said = warnings_about(caplog, info.id)
        assert len(said) == 1, said
        assert "channel" in said[0]
        # Nothing more is sent into the void than the request that found the channel gone
        # (and the open hand's, which lives on its interaction token).
        gone = [
            r for r in sim.env.http_requests[requests:] if f"/channels/{sim.channel.id}/" in r.path
        ]
        assert len(gone) <= 2, [(r.method, r.path) for r in gone]
        assert not sim.env.errors


async def test_a_deleted_table_is_posted_again_at_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """QA: a moderator deleted the table while the game waited for an open bid (made with the
    table's buttons) and no turn timer ran: nothing ever came back, and the channel refused
    every new game. The deletion (Discord's MESSAGE_DELETE) brings the table back at once."""
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1, turn_timer=0)
        await sim.cog.surfaces.idle()
        old = sim.table_of(info)
        sim.env.backend.delete_message(sim.channel.id, old.id)
        await sim.env.settle()
        await sim.cog.surfaces.idle()
        now = await sim.service.get_game(info.id)
        table = sim.table_of(now)
        assert table.id != old.id
        assert now.table is not None and now.table.phase is Phase.BID
        [bidder] = await sim.to_act(info.id)
        await sim.click_table(bidder, "0")  # the game goes on from the new table
        assert (await sim.service.get_game(info.id)).version > now.version
        assert any("table message was deleted" in r.getMessage() for r in caplog.records)
        assert not sim.env.errors


@pytest.mark.parametrize("fault", ["503", "no answer"])
async def test_a_round_that_ends_in_an_outage_gets_its_summary_once_discord_is_back(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    fault: str,
) -> None:
    """Every request to the channel fails while round 2 ends (Discord answers 503, or does
    not answer at all): once Discord takes them again the round's table becomes its summary
    (not left showing the round half played), and the next round's table is posted below
    it. The operator reads one warning, with no traceback (QA: a timeout was a traceback at
    each try)."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        rng = random.Random(2)
        await sim.play(info.id, rng, until=lambda i: bool(i.table and i.table.round >= 2))
        await sim.play(info.id, rng, until=lambda i: bool(i.table and i.table.phase is Phase.PLAY))
        round_2 = (await sim.service.get_game(info.id)).table_message_id
        assert round_2 is not None

        messages = f"/channels/{sim.channel.id}/messages*"
        caplog.clear()
        if fault == "503":
            sim.env.inject_error("*", messages, status=503, times=None)
            end = sim.env.backend.faults.clear
        else:
            end = no_answer(monkeypatch, "*", messages, times=None)
        # Round 2's cards are played through the hands, which need no channel message.
        await sim.play(info.id, rng, until=lambda i: i.table is not None and i.table.round >= 3)
        await sim.env.advance_time(sim.config.retry_after + 1)  # still down: tried again
        end()
        await sim.env.advance_time(sim.config.retry_after + 1)
        said = warnings_about(caplog, info.id)
        assert len(said) == 1, said
        assert ("503" if fault == "503" else "TimeoutError") in said[0], said
        assert not any(r.exc_info for r in caplog.records)

        summary = sim.message(round_2).embeds[0]
        assert summary.title is not None and summary.title.startswith("Round 2 of ")
        assert summary.title.endswith(" scored")
        assert not sim.message(round_2).components  # no buttons on a summary
        table = (await sim.service.get_game(info.id)).table_message_id
        assert table is not None and table > round_2  # posted below the summary
        await table_is_current(sim, info.id)
        titles = [m.embeds[0].get("title") for m in sim.raw() if m.embeds]
        assert titles.count(summary.title) == 1  # in the old table only, not posted again

        over = await sim.play(info.id, rng)
        assert over.status is GameStatus.FINISHED
        assert not sim.env.errors


async def test_a_lost_permission_is_told_in_the_hands_until_it_is_back(tmp_path: Path) -> None:
    """QA: with View Channel taken from the bot mid-game, the table stopped following the
    game and nobody was told (the bot could not post its warning in the channel either).
    Answers to clicks need no permission: the open hands say it (redrawn when Discord
    refuses, not one move later), and stop saying it once the table is updated again."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1, bidding="hidden")
        for member in (ann, bob):
            await sim.open_hand(member)
        deny_bot(
            sim,
            discord.Permissions(view_channel=True, send_messages=True, read_message_history=True),
        )
        rng = random.Random(4)
        [first, *_] = await sim.to_act(info.id)
        await sim.act(first, rng.choice)  # the table's edit for it is refused
        await sim.cog.surfaces.idle()
        await sim.env.settle()
        lost = "⚠️ I lost a permission in this channel"
        for member in (ann, bob):
            hand = sim.hand(member)
            assert hand is not None and lost in hand.content, hand
            assert "Your moves count" in hand.content
        fresh = await sim.open_hand(bob)
        assert lost in fresh.content

        sim.env.backend.delete_overwrite(sim.channel.id, sim.bot.user.id)  # type: ignore[union-attr]
        await sim.env.advance_time(sim.config.retry_after + 1)
        await table_is_current(sim, info.id)
        await sim.cog.surfaces.idle()
        await sim.env.settle()
        for member in (ann, bob):
            hand = sim.hand(member)
            assert hand is not None and lost not in hand.content, hand.content
        assert not sim.env.errors


async def test_a_stale_table_bid_while_the_table_is_lost_answers_with_the_hand(
    tmp_path: Path,
) -> None:
    """Review: while the bot may not update the table, its bid buttons stay as they were; a
    press said "the table shows the bids as they are now", which it did not. The presser
    gets their hand, which takes the bids meanwhile."""
    from tests.bot.conftest import buttons, post_buttons, verb_of

    async with simulation(tmp_path, members=2, test_buttons=True) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        old = f"wiz:{info.id}:bid:0:{info.version}"
        stale = await post_buttons(sim, ann, old)
        deny_bot(
            sim,
            discord.Permissions(view_channel=True, send_messages=True, read_message_history=True),
        )
        rng = random.Random(4)
        info = await sim.play(info.id, rng, until=lambda i: i.version > info.version + 1)
        await sim.cog.surfaces.idle()
        await sim.env.settle()
        assert sim.cog.surfaces.get(info.id).permission_lost
        answer = await bob.click(stale, custom_id=old)
        assert answer.ephemeral and answer.response is not None
        text = answer.response.content
        assert "the table shows the game as it is now" not in text, text
        assert "⚠️ I lost a permission in this channel" in text, text
        if bob.id in [m.id for m in await sim.to_act(info.id)]:
            assert any(verb_of(b) == "bid" for b in buttons(answer.response))
        assert not sim.env.errors


async def test_an_update_discord_finds_malformed_is_an_error_for_the_operator(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Review: a table edit Discord refused as malformed (a 400: a bug of ours, not an
    outage) was one warning like an outage, then retries at DEBUG: the operator is told it
    is an error."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        caplog.clear()
        # The next round's table is a new message, which Discord refuses once.
        sim.env.inject_error(
            "POST", f"/channels/{sim.channel.id}/messages", status=400, code=50035, times=1
        )
        rng = random.Random(4)
        await sim.play(info.id, rng, until=lambda i: i.table is not None and i.table.round >= 2)
        await sim.cog.surfaces.idle()
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and "400" in errors[0].getMessage(), errors
        await sim.env.advance_time(sim.config.retry_after + 1)
        await table_is_current(sim, info.id)


async def test_a_table_posted_though_no_answer_came_back_is_not_posted_twice(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: the next round's table reached the channel but Discord's answer was lost on
    the way back; the retry posted it again, and the channel showed two live tables, the
    first never updated again. The bot looks for the message it may have made first."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        rng = random.Random(2)
        await sim.play(info.id, rng, until=lambda i: bool(i.table and i.table.phase is Phase.PLAY))
        no_answer(monkeypatch, "POST", f"/channels/{sim.channel.id}/messages", delivered=True)
        await sim.play(info.id, rng, until=lambda i: i.table is not None and i.table.round >= 2)
        await sim.env.advance_time(sim.config.retry_after + 1)
        await sim.cog.surfaces.idle()
        live = [m for m in sim.raw() if m.components]  # tables; summaries have no buttons
        assert len(live) == 1, [m.embeds[0].get("title") for m in live]
        now = await sim.service.get_game(info.id)
        assert now.table_message_id == live[0].id
        await table_is_current(sim, info.id)
        assert not any(r.exc_info for r in caplog.records)


async def test_a_deleted_lobby_gives_the_channel_back_without_read_message_history(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """QA: a moderator deleted an open lobby; the bot, without Read Message History, could
    not look for its message at the next /wizard new, and the channel refused every game
    ("Game 1 is open here: join or watch it") until the lobby expired. Discord's
    MESSAGE_DELETE, which needs no permission, says it is gone."""
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        deny_bot(sim, discord.Permissions(read_message_history=True))
        info = await sim.new_game(ann)
        assert info.lobby_message_id is not None
        sim.env.backend.delete_message(sim.channel.id, info.lobby_message_id)
        await sim.env.settle()
        await sim.cog.surfaces.idle()
        assert (await sim.service.get_game(info.id)).status is GameStatus.CANCELLED
        opened = await bob.slash(sim.channel, "wizard new")
        assert opened.response is not None and not opened.ephemeral, opened.response
        new = await sim.service.game_in_channel(sim.channel.id)
        assert new is not None and new.id != info.id and new.host_id == bob.id
        assert any("lobby message was deleted" in r.getMessage() for r in caplog.records)
        assert not sim.env.errors


async def test_a_deleted_lobby_that_cannot_be_told_is_cancelled_all_the_same(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The channel's note of a deleted lobby needs Send Messages: without it the lobby is
    cancelled as before, the refusal logged, and the channel open for a new game."""
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        info = await sim.new_game(ann)
        assert info.lobby_message_id is not None
        deny_bot(sim, discord.Permissions(send_messages=True))
        sim.env.backend.delete_message(sim.channel.id, info.lobby_message_id)
        await sim.env.settle()
        await sim.cog.surfaces.idle()
        assert (await sim.service.get_game(info.id)).status is GameStatus.CANCELLED
        assert sim.raw() == []
        lines = [r.getMessage() for r in caplog.records]
        assert any(f"game {info.id}: the channel was not told" in line for line in lines), lines
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
        assert await sim.service.game_in_channel(sim.channel.id) is None


def refuse_files_without_attach_files(sim: Sim, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord refuses a post with files (403 Missing Permissions) from a member without
    Attach Files in the channel; SimCord lets it through, so the check is added here."""
    backend = sim.env.backend
    real = type(backend).prepare_message

    def prepare_message(
        self: Any, channel_id: int, author_id: Any = None, content: str = "", **kw: Any
    ) -> Any:
        if kw.get("attachments") and kw.get("webhook_id") is None:
            channel = self.get_channel(channel_id)
            self.require_permissions(channel.guild_id, author_id, channel_id, "attach_files")
        return real(self, channel_id, author_id, content, **kw)

    monkeypatch.setattr(type(backend), "prepare_message", prepare_message)


async def test_without_attach_files_the_standings_come_without_files(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Faults QA: with Attach Files denied in the channel, Discord refused the final standings
    (they carry the record and the scorepad picture) and the bot retried every 20 s for
    ever: no winner, no Play again, and a note asking for permissions of a finished game.
    They now go without the files (the scorepad as text); the operator is told once."""
    caplog.set_level(logging.INFO)
    async with simulation(tmp_path, members=2) as sim:
        refuse_files_without_attach_files(sim, monkeypatch)
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=1)
        rng = random.Random(5)
        last = info.table.num_rounds if info.table is not None else 0
        await sim.play(info.id, rng, until=lambda i: bool(i.table and i.table.round == last))
        deny_bot(sim, discord.Permissions(attach_files=True))
        end = await sim.play(info.id, rng)
        assert end.status is GameStatus.FINISHED
        await sim.cog.surfaces.idle()
        [final] = [m for m in sim.public() if m.content.startswith(f"🏁 **Game {info.id} is over")]
        assert final.attachments == []
        [embed] = final.embeds
        assert embed.image.url is None and embed.footer.text == f"Wizard · game {info.id}"
        assert "Play again" in [b["label"] for b in buttons(final)]
        assert not [m for m in sim.public() if m.content.startswith("⚠️")]  # no permission note
        refused = [
            r.getMessage() for r in caplog.records if "refused a post with files" in r.getMessage()
        ]
        assert len(refused) == 1 and "Missing Permissions" in refused[0], refused
        assert not sim.env.errors


async def test_a_refusal_that_lasts_is_retried_less_often(tmp_path: Path) -> None:
    """Faults QA: with Send Messages taken and nobody moving, the table was retried every
    20 s for ever, 180 refused requests an hour per game (Discord counts refusals against
    the bot's IP). After ``slow_after`` the retries come every ``slow_retry_after``; once
    the permission is back, the table catches up at the next retry. No turn timer: the
    game waits on its people all that hour (with one, computers would take their seats)."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=2, turn_timer=0)
        rng = random.Random(2)
        await sim.play(info.id, rng, until=lambda i: i.table is not None and i.table.round >= 2)
        deny_bot(sim, discord.Permissions(send_messages=True))
        await sim.play(info.id, rng, until=lambda i: i.table is not None and i.table.round >= 3)
        config = sim.config
        for _ in range(int(config.slow_after // config.retry_after) + 1):
            await sim.env.advance_time(config.retry_after)
        before = len(sim.env.http_requests)
        hour = 3600.0
        for _ in range(int(hour // config.retry_after)):
            await sim.env.advance_time(config.retry_after)
        tried = len(sim.env.http_requests) - before
        # A retry is a table post and, at most, the note of the lost permission.
        assert 0 < tried <= 2 * (hour / config.slow_retry_after + 1), tried
        assert (await sim.service.get_game(info.id)).status is GameStatus.ACTIVE
        sim.env.backend.delete_overwrite(sim.channel.id, sim.bot.user.id)  # type: ignore[union-attr]
        await sim.env.advance_time(config.slow_retry_after + 1)
        await sim.cog.surfaces.idle()
        await table_is_current(sim, info.id)
        assert not sim.env.errors
