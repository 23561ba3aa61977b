"""The real bot from ``create_bot`` in SimCord's in-memory Discord: a slash command, clicks on
restart-proof buttons routed to the component handler, a restart, errors and sharding."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord
from discord import app_commands

from bot.app import WizardBot, create_bot, intents
from bot.features.lobby import lobby_view
from bot.features.table import table_view
from bot.i18n import texts
from bot.settings import Settings
from bot.ui.buttons import FAILED, OUTDATED, UNAVAILABLE, CustomId, Verb

GAME = 42
VERSION = 7


class RecordingHandler:
    """A stand-in for the game cog: records each click and answers it privately."""

    def __init__(self, *, fail: bool = False) -> None:
        self.clicks: list[tuple[CustomId, int]] = []
        self.fail = fail

    async def on_component(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        self.clicks.append((cid, interaction.user.id))
        if self.fail:
            raise RuntimeError("the service is on fire")
        await interaction.response.send_message(
            f"{cid.verb.value} for game {cid.game} at version {cid.version}", ephemeral=True
        )


def build(handler: RecordingHandler | None, **settings: Any) -> WizardBot:
    """``create_bot`` plus one test-only subcommand that posts a table message with buttons."""
    bot = create_bot(Settings(shard_count=1, **settings), component_handler=handler)

    @app_commands.command(name="post", description="test only: post a table and a lobby")
    async def post(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            "Table", view=table_view(GAME, VERSION, t=texts("en"))
        )
        assert interaction.channel is not None
        await interaction.channel.send("Lobby", view=lobby_view(GAME, VERSION, t=texts("en")))  # type: ignore[union-attr]

    bot.wizard_group.add_command(post)
    return bot


def world(
    env: simcord.Env,
) -> tuple[simcord.ChannelHandle, simcord.MemberActor, simcord.MemberActor]:
    guild = env.create_guild("Wizard server")
    channel = guild.create_text_channel("wizard")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    return channel, ann, bob


async def test_slash_command_button_and_restart() -> None:
    handler = RecordingHandler()
    async with simcord.run(build(handler)) as env:
        channel, ann, bob = world(env)
        assert set(ann.available_commands(channel)) >= {"wizard ping", "wizard post"}

        pong = await ann.slash(channel, "wizard ping")
        assert pong.acknowledged and pong.ephemeral
        assert pong.response is not None
        assert pong.response.content == "Pong! Wizard is up (shard 0 of 1)."
        assert [m.content for m in channel.history(viewer=bob)] == []  # only Ann sees it

        posted = await ann.slash(channel, "wizard post")
        assert posted.response is not None
        table = posted.response.message
        assert [m.content for m in channel.history()] == ["Table", "Lobby"]

        before = len(env.http_requests)
        click = await bob.click(table, label="Show my hand")
        assert handler.clicks == [(CustomId(GAME, Verb.HAND, "", VERSION), bob.id)]
        assert click.acknowledged and click.ephemeral
        assert click.response is not None
        assert click.response.content == f"hand for game {GAME} at version {VERSION}"
        assert [(r.method, r.path.split("/")[1]) for r in env.http_requests[before:]] == [
            ("POST", "interactions")
        ]  # one REST call: the interaction response
        assert "hand for game" not in [m.content for m in channel.history(viewer=ann)]

        lobby = channel.history()[-1]
        joined = await ann.click(lobby, custom_id=f"wiz:{GAME}:join::{VERSION}")
        assert joined.response is not None and joined.response.content.startswith("join")

        # A new process: a fresh bot from create_bot, nothing kept in memory but the handler.
        await env.restart_bot(build(handler))
        again = await ann.click(table, label="Show my hand")
        assert again.acknowledged
        assert handler.clicks[-1] == (CustomId(GAME, Verb.HAND, "", VERSION), ann.id)
        started = await bob.click(lobby, label="Start")
        assert started.acknowledged
        assert handler.clicks[-1] == (CustomId(GAME, Verb.START, "", VERSION), bob.id)
        assert len(handler.clicks) == 4


async def test_click_before_a_handler_is_installed_is_answered() -> None:
    async with simcord.run(build(None)) as env:
        channel, ann, _ = world(env)
        posted = await ann.slash(channel, "wizard post")
        assert posted.response is not None
        click = await ann.click(posted.response.message, label="Show my hand")
        assert click.acknowledged and click.ephemeral
        assert click.response is not None and click.response.content == UNAVAILABLE


async def test_a_failing_handler_is_answered_and_reported() -> None:
    handler = RecordingHandler(fail=True)
    async with simcord.run(build(handler)) as env:
        channel, ann, _ = world(env)
        posted = await ann.slash(channel, "wizard post")
        assert posted.response is not None
        click = await ann.click(posted.response.message, label="Show my hand")
        assert click.acknowledged and click.ephemeral
        assert click.response is not None and click.response.content == FAILED
        errors = env.errors  # reading them acknowledges them, so teardown does not re-raise
        assert [str(e) for e in errors] == ["the service is on fire"]


async def test_outdated_wizard_button_is_answered() -> None:
    async with simcord.run(build(RecordingHandler())) as env:
        channel, ann, _ = world(env)
        bot = env.bot
        assert isinstance(bot, WizardBot)

        @app_commands.command(name="old", description="test only: a button of a removed verb")
        async def old(interaction: discord.Interaction[Any]) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(label="Fold", custom_id=f"wiz:{GAME}:fold::1"))
            await interaction.response.send_message("old", view=view)

        await env.restart_bot(build(RecordingHandler()))
        fresh = env.bot
        assert isinstance(fresh, WizardBot)
        fresh.wizard_group.add_command(old)
        await fresh.tree.sync()
        posted = await ann.slash(channel, "wizard old")
        assert posted.response is not None
        await env.restart_bot(build(RecordingHandler()))  # the old view is gone from memory
        click = await ann.click(posted.response.message, label="Fold")
        assert click.acknowledged and click.ephemeral
        assert click.response is not None and click.response.content == OUTDATED


async def test_this_process_only_serves_its_shards() -> None:
    bot = create_bot(Settings(shard_count=2, shard_ids=(1,)))
    async with simcord.run(bot) as env:
        mine = env.create_guild("mine", shard_id=1)
        other = env.create_guild("other", shard_id=0)
        assert [g.name for g in env.bot.guilds] == ["mine"]
        for guild, served in ((mine, True), (other, False)):
            channel = guild.create_text_channel("c")
            member = guild.add_member(env.create_user("u"))
            result = await member.slash(channel, "wizard ping")
            assert result.acknowledged is served
        assert result.response is None


def test_no_privileged_intent() -> None:
    wanted = intents()
    assert wanted.guilds
    assert not wanted.members
    assert not wanted.presences
    assert not wanted.message_content


@pytest.mark.parametrize("dev_guild", [None, 1234567890123456789])
async def test_commands_sync_globally_or_to_the_development_server(dev_guild: int | None) -> None:
    bot = build(RecordingHandler(), dev_guild_id=dev_guild)
    env = simcord.Env(bot)
    guild = env.create_guild("dev", id=dev_guild) if dev_guild else env.create_guild("any")
    await env.start()
    try:
        puts = [r.path for r in env.http_requests if r.method == "PUT"]
        if dev_guild:
            assert puts == [
                f"/applications/{env.backend.application_id}/guilds/{dev_guild}/commands"
            ]
        else:
            assert puts == [f"/applications/{env.backend.application_id}/commands"]
        channel = guild.create_text_channel("c")
        member = guild.add_member(env.create_user("u"))
        assert (await member.slash(channel, "wizard ping")).acknowledged
    finally:
        await env.shutdown()


async def test_rendered_table_and_hand_pass_discord_validation() -> None:
    import random

    from bot.features.hand import hand_text, hand_view
    from bot.features.table import table_embed
    from wizard.cards import Theme
    from wizard.options import Bidding, Options
    from wizard.rules import apply, legal_actions, new_game
    from wizard.state import Phase
    from wizard.view import public_table, view

    rng = random.Random(1)
    state = new_game(["Ann", "Bob", "Cy"], Options(), seed=12)
    while not (state.phase is Phase.BID and state.round == 20):
        state = apply(state, rng.choice(legal_actions(state)))
    # Open bids are made on the table (21 bids and "Show my hand"); hidden ones in the hand.
    hidden = new_game(["Ann", "Bob", "Cy"], Options(bidding=Bidding.HIDDEN), seed=12)
    while not (hidden.phase is Phase.BID and hidden.round == 20):
        hidden = apply(hidden, rng.choice(legal_actions(hidden)))
    seat = 0
    playing = state
    while not (playing.phase is Phase.PLAY and playing.turn is not None):
        playing = apply(playing, rng.choice(legal_actions(playing)))
    play_seat = playing.turn
    handler = RecordingHandler()
    bot = build(handler)

    @app_commands.command(name="hand", description="test only: table and a hand of 20 cards")
    async def hand(interaction: discord.Interaction[Any]) -> None:
        pv = view(hidden, seat)
        table = public_table(view(state, seat))
        await interaction.response.send_message(
            embed=table_embed(table, theme=Theme.STANDARD, t=texts("en")),
            view=table_view(GAME, 3, t=texts("en"), table=table),
        )
        ui = hand_view(pv, GAME, 3, t=texts("en"))
        assert ui is not None
        await interaction.followup.send(hand_text(pv, t=texts("en")), view=ui, ephemeral=True)
        cards = hand_view(view(playing, play_seat), GAME, 4, t=texts("en"))
        assert cards is not None
        await interaction.followup.send("cards", view=cards, ephemeral=True)

    bot.wizard_group.add_command(hand)
    async with simcord.run(bot) as env:
        channel, ann, bob = world(env)
        shown = await ann.slash(channel, "wizard hand")
        assert shown.acknowledged and not shown.ephemeral
        assert shown.response is not None and shown.response.embeds[0].title is not None
        assert "round 20 of 20" in shown.response.embeds[0].title
        rows = shown.response.components
        assert len(rows) == 5 and [len(r["components"]) for r in rows] == [5, 5, 5, 5, 2]
        private, cards = shown.followups
        emoji = {
            str(c.get("emoji", {}).get("name"))
            for row in cards.components
            for c in row["components"]
        }
        assert emoji & {"🟦", "🟥", "🟩", "🟨", "🧙", "🃏"}
        assert private.ephemeral
        assert len([c for row in private.components for c in row["components"]]) == 21
        assert private.id not in [m.id for m in channel.history(viewer=bob)]
        with pytest.raises(simcord.SetupError):
            await bob.click(private, custom_id=f"wiz:{GAME}:bid:0:3")  # not Bob's message
        allowed = [a.bid for a in view(hidden, seat).legal]  # type: ignore[union-attr]
        clicked = await ann.click(private, custom_id=f"wiz:{GAME}:bid:{allowed[-1]}:3")
        assert clicked.acknowledged
        assert handler.clicks == [(CustomId.for_bid(GAME, allowed[-1], 3), ann.id)]
        on_table = await bob.click(shown.response, custom_id=f"wiz:{GAME}:bid:20:3")
        assert on_table.acknowledged
        assert handler.clicks[-1] == (CustomId.for_bid(GAME, 20, 3), bob.id)


async def test_discord_clock_follows_simcords_virtual_time() -> None:
    import time

    from bot.clock import DiscordClock

    clock = DiscordClock()
    fired: list[tuple[float, float]] = []
    bot = build(RecordingHandler())

    @app_commands.command(name="timer", description="test only: arm a 90 s timer")
    async def timer(interaction: discord.Interaction[Any]) -> None:
        start = clock.now()
        clock.call_at(start + 90, lambda: fired.append((start, clock.now())))
        clock.call_at(start - 5, lambda: fired.append((start, -1.0)))  # past: fires at once
        await interaction.response.send_message("armed", ephemeral=True)

    bot.wizard_group.add_command(timer)
    async with simcord.run(bot) as env:
        channel, ann, _ = world(env)
        wall = time.time()
        await ann.slash(channel, "wizard timer")
        assert [f[1] for f in fired] == [-1.0]
        await env.advance_time(89)
        assert len(fired) == 1
        await env.advance_time(1)
        assert len(fired) == 2
        start, now = fired[1]
        assert now - start == pytest.approx(90, abs=0.01)
        assert time.time() - wall < 90  # the 90 s were not waited; time.time() did not follow


async def test_buttons_survive_the_15_minute_timeout_of_ephemeral_views() -> None:
    # discord.py gives ephemeral views a 15-minute timeout; when a view that mixes dynamic
    # and static items times out, discord.py unregisters its dynamic item classes for every
    # message. Our views are purely dynamic, so a public button keeps working.
    from bot.features.hand import hand_view
    from wizard.options import Bidding, Options
    from wizard.rules import apply, legal_actions, new_game
    from wizard.state import Phase
    from wizard.view import view

    state = new_game(["Ann", "Bob", "Cy"], Options(bidding=Bidding.HIDDEN), seed=3)
    while state.phase is not Phase.BID:
        state = apply(state, legal_actions(state)[0])
    handler = RecordingHandler()
    bot = build(handler)

    @app_commands.command(name="hand", description="test only: an ephemeral hand")
    async def hand(interaction: discord.Interaction[Any]) -> None:
        for ephemeral in (True, False):  # the same buttons privately and publicly
            ui = hand_view(view(state, 0), GAME, 1, t=texts("en"))  # hidden: everyone bids
            assert ui is not None
            if ephemeral:
                await interaction.response.send_message("hand", view=ui, ephemeral=True)
            else:
                await interaction.followup.send("public copy", view=ui)

    bot.wizard_group.add_command(hand)
    async with simcord.run(bot) as env:
        channel, ann, _ = world(env)
        shown = await ann.slash(channel, "wizard hand")
        await env.advance_time(16 * 60)  # the ephemeral view times out
        [public] = shown.followups
        click = await ann.click(public, custom_id=f"wiz:{GAME}:bid:0:1")
        assert click.acknowledged
        assert handler.clicks[-1][0] == CustomId.for_bid(GAME, 0, 1)
