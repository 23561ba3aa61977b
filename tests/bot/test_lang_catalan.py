"""Catalan, the one language of the bot that Discord does not offer its members.

A member's private replies follow their Discord language, but no Discord client speaks
Catalan: a Catalan speaker's Discord is in Spanish or in English (Discord's default). QA (ca):
on a server set to Catalan, every hand, refusal and help of its players came out in English
or Spanish, with the table's Catalan button names quoted inside. On such a server, members
whose Discord is in English or Spanish now read Catalan; the others keep their own language.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.i18n import reader_language, reader_texts, texts
from tests.bot.conftest import Sim, buttons, message_text, simulation, verb_of
from tests.bot.i18n_support import user_locales
from wizard.service import GameService

pytestmark = pytest.mark.usefixtures("fast_settle")


@contextlib.asynccontextmanager
async def catalan_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Sim]:
    """A server set to Catalan, with three members: ann's Discord in English (SimCord's
    en-US), bob's in Spanish and cy's in German."""
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=3) as sim:
        _, bob, cy = sim.members
        locales[bob] = "es-ES"
        locales[cy] = "de"
        await sim.service.update_settings(sim.guild.id, language="ca")
        yield sim


@pytest.mark.parametrize(
    ("locale", "server", "expected"),
    [
        ("en-US", "ca", "ca"),
        ("en-GB", "ca", "ca"),
        ("es-ES", "ca", "ca"),
        ("es-419", "ca", "ca"),
        ("de", "ca", "de"),
        ("pt-BR", "ca", "pt"),
        ("fr", "ca", "en"),  # a speaker of another language: English, as anywhere
        ("en-US", "de", "en"),
        ("es-ES", "it", "es"),
        ("fr", "de", "en"),
    ],
)
def test_a_reply_speaks_the_members_language_but_catalan_to_its_speakers(
    locale: str, server: str, expected: str
) -> None:
    assert reader_language(locale, server) == expected


async def test_a_catalan_servers_members_read_catalan_in_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with catalan_server(tmp_path, monkeypatch) as sim:
        ann, bob, cy = sim.members
        ca, de = texts("ca"), texts("de")

        for member, t in ((ann, ca), (bob, ca), (cy, de)):
            rules = await member.slash(sim.channel, "wizard rules")
            assert rules.response is not None and rules.ephemeral
            assert rules.response.embeds[0].title == t("Wizard · the rules in short")

        await sim.new_game(ann)
        lobby = sim.message(sim.raw()[-1].id)
        for member in (bob, cy):
            [join] = [b for b in buttons(lobby) if verb_of(b) == "join"]
            await member.click(lobby, custom_id=join["custom_id"])
        lobby = sim.message(lobby.id)
        [start] = [b for b in buttons(lobby) if verb_of(b) == "start"]
        refused = await bob.click(lobby, custom_id=start["custom_id"])
        assert refused.ephemeral and refused.response is not None
        assert ca("Only the host can start the game.") in message_text(refused.response)
        await ann.click(lobby, custom_id=start["custom_id"])

        # Every hand the bot draws (a click's answer, or a live hand redrawn by itself after
        # another's move) speaks its reader's language.
        drawn: list[tuple[int, str]] = []
        surfaces = sim.cog.surfaces
        original = surfaces.hand_parts

        async def hand_parts(
            game_id: int, user_id: int, note: str | None = None, **more: Any
        ) -> Any:
            drawn.append((user_id, more["t"].language))
            return await original(game_id, user_id, note, **more)

        monkeypatch.setattr(surfaces, "hand_parts", hand_parts)
        hand = await sim.open_hand(ann)
        assert ca("Wizard · game {game}", game=1) in hand.content, hand.content
        assert de("Wizard · game {game}", game=1) in (await sim.open_hand(cy)).content
        await sim.open_hand(bob)
        for _ in range(3):
            [mover, *_] = await sim.to_act(1)
            await sim.act(mover, lambda options: options[0])
        await surfaces.idle()
        expected = {ann.id: "ca", bob.id: "ca", cy.id: "de"}
        assert len(drawn) > 6, drawn
        assert all(language == expected[user] for user, language in drawn), drawn


async def test_a_catalan_reader_finds_commands_named_as_their_discord_lists_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: /wizard help and the settings panel named the commands in Catalan ("/wizard
    nova", "/wizard configuració"), which no Discord lists: a Catalan reader's Discord shows
    them in English or Spanish."""
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=0) as sim:
        ann, bob = sim.add_manager("ann"), sim.add_manager("bob")  # ann keeps SimCord's en-US
        locales[bob] = "es-ES"
        await sim.service.update_settings(sim.guild.id, language="ca")
        ca, es = texts("ca"), texts("es")
        for member, new, settings in ((ann, "new", "settings"), (bob, "nueva", "ajustes")):
            helped = await member.slash(sim.channel, "wizard help")
            assert helped.response is not None and helped.ephemeral
            embed = helped.response.embeds[0]
            assert embed.title == ca("Wizard · how to play here")
            assert f"`/wizard {new}`" in message_text(helped.response)
            panel = await member.slash(sim.channel, "wizard settings")
            assert panel.response is not None and panel.ephemeral
            footer = panel.response.embeds[0].footer.text or ""
            assert f"`/wizard {settings}`" in footer, footer
            assert "configuració" not in footer
        assert es.context("command name", "new") == "nueva"
        assert es.context("command name", "settings") == "ajustes"


async def test_the_panel_speaks_the_new_language_once_the_server_changes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: a manager whose Discord is in English changed a Catalan server to German and
    got the confirmation and the panel in Catalan, the language they no longer read."""
    user_locales(monkeypatch)
    async with simulation(tmp_path, members=1) as sim:
        eve = sim.add_manager("eve")
        await sim.service.update_settings(sim.guild.id, language="ca")
        changed = await eve.slash(sim.channel, "wizard settings", language="de")
        assert changed.response is not None and changed.ephemeral
        assert changed.response.embeds[0].title == texts("en")(
            "⚙️ Wizard settings of {server}", server=sim.guild.name
        )
        back = await eve.slash(sim.channel, "wizard settings", language="ca")
        assert back.response is not None
        assert back.response.embeds[0].title == texts("ca")(
            "⚙️ Wizard settings of {server}", server=sim.guild.name
        )


async def test_a_reply_goes_out_in_the_members_language_when_settings_cannot_be_read(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Review: reader_texts runs before a click's handler; a settings read that raised (a
    database closing at shutdown) left the click with no answer at all."""

    class Closing(GameService):
        def __init__(self) -> None:  # no database: only get_settings is asked
            pass

        async def get_settings(self, guild_id: int) -> Any:
            raise ValueError("no active connection")

    interaction = SimpleNamespace(
        client=SimpleNamespace(service=Closing()),
        guild_id=1,
        locale=discord.Locale.german,
        extras={},
    )
    t = await reader_texts(interaction)  # type: ignore[arg-type]
    assert t.language == "de"
    assert any("no active connection" in r.getMessage() for r in caplog.records)


async def test_an_open_hand_follows_the_server_when_its_language_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """QA (ca): a manager switched a Catalan server to German mid-game; the table turned
    German at once, but the open hands of English and Spanish members went on being redrawn
    in Catalan (quoting the German table's button), until their next click."""
    async with catalan_server(tmp_path, monkeypatch) as sim:
        ann, bob, cy = sim.members
        info = await sim.new_game(ann)
        lobby = sim.message(sim.raw()[-1].id)
        for member, verb in ((bob, "join"), (cy, "join"), (ann, "start")):
            [button] = [b for b in buttons(sim.message(lobby.id)) if verb_of(b) == verb]
            await member.click(sim.message(lobby.id), custom_id=button["custom_id"])
        for member in (ann, bob, cy):
            await sim.open_hand(member)
        await sim.service.update_settings(sim.guild.id, language="de")
        sim.cog.surfaces.settings_saved(sim.guild.id, redraw=True)
        [mover, *_] = await sim.to_act(info.id)
        await sim.act(mover, lambda options: options[0])
        await sim.cog.surfaces.idle()
        for member, language in ((ann, "en"), (bob, "es"), (cy, "de")):
            if member is mover:
                continue  # its hand was redrawn by its own click
            hand = sim.hand(member)
            assert hand is not None
            heading = texts(language).plural(
                "**Round {round} of {rounds} · your hand** ({n} card):",
                "**Round {round} of {rounds} · your hand** ({n} cards):",
                1,
                round=1,
                rounds=20,
            )
            assert heading in hand.content, (language, hand.content)
