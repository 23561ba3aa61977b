"""The lobby: server defaults for what the host leaves out, joining and leaving, a lobby that
nobody starts, and a player taking their seat back from a computer."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import discord
import pytest

from bot.cogs.messages import LOBBY_DELETED
from bot.i18n import texts
from tests.bot.conftest import buttons, hand_body, simulation
from tests.bot.i18n_support import user_locales
from wizard.options import Bidding, Options
from wizard.service import GameStatus

pytestmark = pytest.mark.usefixtures("fast_settle")


async def test_server_defaults_fill_what_the_host_leaves_out(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        await sim.service.update_settings(
            sim.guild.id,
            default_options=Options(bidding=Bidding.SECRET, magic_twos=True),
            turn_seconds=45.0,
        )
        info = await sim.new_game(ann, clairvoyance=True)
        assert info.options == Options(bidding=Bidding.SECRET, magic_twos=True, clairvoyance=True)
        assert info.turn_seconds == 45.0
        lobby = sim.message(sim.raw()[-1].id)
        description = lobby.embeds[0].description or ""
        assert "secret bids, clairvoyance, magic twos" in description
        assert "45 seconds per turn" in description
        await ann.click(lobby, label="Cancel")

        info = await sim.new_game(bob, bidding="open", magic_twos=False, turn_timer=0)
        assert info.options == Options()
        assert info.turn_seconds is None
        lobby = sim.message(sim.raw()[-1].id)
        assert "no turn timer" in (lobby.embeds[0].description or "")


async def test_a_clash_with_the_servers_defaults_names_them(tmp_path: Path) -> None:
    """QA: on a server whose defaults hold the Canadian rule, `/wizard new bidding:secret`
    was refused for the Canadian rule, which the host never chose: the refusal now says it
    comes from the server's settings, and only the defaults in the clash are named."""
    async with simulation(tmp_path, members=2) as sim:
        ann, _ = sim.members
        await sim.service.update_settings(
            sim.guild.id, default_options=Options(canadian=True, magic_twos=True)
        )
        result = await ann.slash(sim.channel, "wizard new", bidding="secret")
        assert result.ephemeral and result.response is not None
        said = result.response.content
        assert said.startswith(
            "⚠️ These options cannot be played together. The Canadian rule needs open bidding"
        ), said
        assert said.endswith(
            "\nℹ️ From this server's settings (the command did not choose it): Canadian rule. "
            "Choose otherwise in the command to play this game without it."
        ), said
        assert "magic twos" not in said.lower()  # a default, but not in the clash

        # The host chose both sides of the clash: nothing is said of the server.
        result = await ann.slash(sim.channel, "wizard new", bidding="secret", canadian=True)
        assert result.response is not None
        assert "server" not in result.response.content
        assert await sim.service.game_in_channel(sim.channel.id) is None


async def test_join_leave_and_host_handover(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        info = await sim.new_game(ann)
        lobby = sim.message(sim.raw()[-1].id)
        await bob.click(lobby, label="Join")
        await cy.click(lobby, label="Join")
        await ann.click(lobby, label="Leave")  # the host leaves: bob hosts now
        shown = sim.message(lobby.id).embeds[0].description or ""
        assert "1. **bob** (host)" in shown and "ann" not in shown
        await bob.click(lobby, label="Add computer player")
        started = await bob.click(lobby, label="Start")
        assert not started.ephemeral
        game = await sim.service.get_game(info.id)
        assert game.status is GameStatus.ACTIVE
        assert [s.name for s in game.seats] == ["bob", "cy", "Merlin"]
        table = sim.message(lobby.id)  # the lobby became the table
        # The first bidder's open bids (round 1: 0 or 1), then "Show my hand".
        assert [b["label"] for b in buttons(table)] == ["0", "1", "Show my hand"]
        assert "round 1 of 20" in (table.embeds[0].title or "")


async def test_lobby_nobody_starts_is_closed(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        info = await sim.new_game(ann)
        lobby = sim.raw()[-1]
        await sim.env.advance_time(1800 + 1)
        closed = sim.message(lobby.id)
        assert closed.embeds[0].title == f"Wizard · game {info.id} · cancelled"
        assert "Nobody started the game in time" in (closed.embeds[0].description or "")
        assert buttons(closed) == []
        assert (await sim.service.get_game(info.id)).status is GameStatus.CANCELLED


async def test_take_back_a_seat_from_the_computer(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.lobby(ann, [bob], computers=4, turn_timer=10)
        rng = random.Random(3)
        away = await sim.play(
            info.id, rng, idle=frozenset({bob.id}), until=lambda i: i.seats[1].away
        )
        assert away.seats[1].away and away.status is GameStatus.ACTIVE
        hand = await sim.open_hand(bob)
        assert "A computer player is playing your seat" in hand.content
        assert [b["label"] for b in buttons(hand)] == ["Take my seat back"]
        back = await bob.click(hand, label="Take my seat back")
        assert back.response is not None
        assert hand_body(back.response.content).startswith("🙋 You are playing your seat again.")
        assert not (await sim.service.get_game(info.id)).seats[1].away
        end = await sim.play(info.id, rng)
        assert end.status is GameStatus.FINISHED and not end.seats[1].away
        await sim.final_standings(info.id)


async def test_a_lobby_whose_message_was_deleted_gives_way_to_a_new_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A moderator deleted the lobby message: nobody can see or join that lobby, so it must
    # not hold the channel ("there is already a game") until it expires.
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        locales[cy] = "pt-BR"
        old = await sim.new_game(ann)
        lobby_id = sim.raw()[-1].id
        await bob.click(sim.message(lobby_id), label="Join")
        mods = sim.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
        mod = sim.guild.add_member(sim.env.create_user("mod"), roles=[mods])
        await mod.delete(sim.message(lobby_id))

        result = await cy.slash(sim.channel, "wizard new")
        new = await sim.service.game_in_channel(sim.channel.id)
        assert new is not None and new.id != old.id and new.host_id == cy.id, result
        assert (await sim.service.get_game(old.id)).status is GameStatus.CANCELLED
        # A lobby still in the channel keeps it, as before.
        again = await ann.slash(sim.channel, "wizard new")
        assert again.response is not None and "already a game" in again.response.content


async def test_a_deleted_lobby_is_said_once_in_the_channel(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A moderator deleted an open lobby: it was cancelled without a word, and whoever had
    joined it waited for a game that was gone. The channel is told once, and how to open
    another; a started game's table deleted, or a lobby already over, says nothing."""
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        mods = sim.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
        mod = sim.guild.add_member(sim.env.create_user("mod"), roles=[mods])
        old = await sim.new_game(ann)
        assert old.lobby_message_id is not None
        await bob.click(sim.message(old.lobby_message_id), label="Join")
        before = [m.id for m in sim.raw()]
        # A purge that took the lobby, and Discord says it of the lobby alone too, at once:
        # still one note.
        sim.env.backend.emit(
            "MESSAGE_DELETE_BULK",
            {
                "ids": [str(old.lobby_message_id)],
                "channel_id": str(sim.channel.id),
                "guild_id": str(sim.guild.id),
            },
        )
        await mod.delete(sim.message(old.lobby_message_id))
        await sim.env.settle()
        await sim.cog.surfaces.idle()
        assert (await sim.service.get_game(old.id)).status is GameStatus.CANCELLED
        # QA: the second report logged a warning that the lobby "was not cancelled".
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
        said = [m.content for m in sim.raw() if m.id not in before]
        assert said == [
            f"🛑 Game {old.id} is cancelled. Its lobby message was deleted: open a new game "
            "with `/wizard new`."
        ], said

        # A started game's table (its lobby message once) is posted again, with no note.
        info = await sim.lobby(ann, [bob], computers=1)
        assert info.table_message_id == info.lobby_message_id
        before = [m.id for m in sim.raw()]
        await mod.delete(sim.table_of(info))
        await sim.env.settle()
        await sim.cog.surfaces.idle()
        new = [m for m in sim.raw() if m.id not in before]
        [table] = [m.embeds[0].get("title", "") for m in new]
        assert table.startswith(f"Wizard · game {info.id} · round 1"), table
        assert (await sim.service.get_game(info.id)).status is GameStatus.ACTIVE
        await ann.slash(sim.channel, "wizard cancel")
        [question] = [m for m in sim.raw(viewer=ann) if m.content.startswith("🛑 Cancel")]
        await ann.click(sim.message(question.id), label="Cancel the game")
        # A cancelled lobby's message deleted: nothing to say either.
        gone = await sim.new_game(bob)
        assert gone.lobby_message_id is not None
        await bob.click(sim.message(gone.lobby_message_id), label="Cancel")
        before = [m.id for m in sim.raw()]
        await mod.delete(sim.message(gone.lobby_message_id))
        await sim.env.settle()
        await sim.cog.surfaces.idle()
        assert [m.id for m in sim.raw()] == [i for i in before if i != gone.lobby_message_id]
        assert not sim.env.errors


@pytest.mark.parametrize(("language", "command"), [("de", "/wizard neu"), ("ca", "/wizard new")])
async def test_a_deleted_lobby_is_said_in_the_servers_language(
    tmp_path: Path, language: str, command: str
) -> None:
    """The note is public: the server's language, naming the command as Discord shows it
    there (Discord has no Catalan, so its commands keep their English names)."""
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        await sim.service.update_settings(sim.guild.id, language=language)
        info = await sim.new_game(ann)
        assert info.lobby_message_id is not None
        sim.env.backend.delete_message(sim.channel.id, info.lobby_message_id)
        await sim.env.settle()
        await sim.cog.surfaces.idle()
        t = texts(language)
        [note] = [m.content for m in sim.raw()]
        assert note == "🛑 " + t("Game {game} is cancelled.", game=info.id) + " " + t(
            LOBBY_DELETED, command=f"`{command}`"
        )
        assert f"`{command}`" in note
        assert t.translated(LOBBY_DELETED) is not None


async def test_the_last_player_removing_themself_empties_the_lobby(tmp_path: Path) -> None:
    """The host alone in a lobby, removing themself: they were told they left while the lobby
    said "The host cancelled the game."; both now say that everyone left."""
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        info = await sim.new_game(ann)
        lobby = sim.message(sim.raw()[-1].id)
        said = await ann.slash(sim.channel, "wizard kick", player=ann)
        assert said.response is not None
        assert said.response.content == (
            f"👋 You left game {info.id}.\n🛑 Game {info.id} is cancelled. Everyone left the lobby."
        )
        await sim.cog.surfaces.idle()
        closed = sim.message(lobby.id)
        assert closed.embeds[0].description == "🛑 Everyone left the lobby. No result is recorded."
        assert (await sim.service.get_game(info.id)).status is GameStatus.CANCELLED


def test_a_malformed_choice_names_no_default() -> None:
    """The refusal of a choice Discord should never let through is not made worse."""
    from bot.cogs.game import defaults_in_clash
    from bot.i18n import texts

    defaults = Options(canadian=True)
    assert defaults_in_clash(defaults, {"bidding": "sealed"}, t=texts("en")) is None
    line = defaults_in_clash(defaults, {"bidding": "secret"}, t=texts("en"))
    assert line is not None and "Canadian rule" in line


async def test_a_player_removed_from_the_lobby_is_told_on_joining_again(tmp_path: Path) -> None:
    """QA (German): a player the host removed pressed Join at once and was seated again,
    with no word to anyone; the host had to remove them a second time."""
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        opened = await ann.slash(sim.channel, "wizard new")
        assert opened.response is not None
        lobby = opened.response
        await bob.click(lobby, label="Join")
        kicked = await ann.slash(sim.channel, "wizard kick", player=bob)
        assert kicked.response is not None
        assert kicked.response.content == (
            "👋 bob is no longer in the lobby of game 1 and cannot join it again."
        )
        again = await bob.click(lobby, label="Join")
        assert again.ephemeral and again.response is not None
        assert again.response.content == (
            "🚫 You were removed from this lobby, so you cannot join it again."
        )
        joined = await cy.click(lobby, label="Join")
        assert joined.response is not None
        info = await sim.service.game_in_channel(sim.channel.id)
        assert info is not None and [s.user_id for s in info.seats] == [ann.id, cy.id]
        assert not sim.env.errors
