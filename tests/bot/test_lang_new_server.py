"""A new server's public messages, before anyone has opened ``/wizard settings``.

Discord tells the bot each server's preferred locale (what a Community server sets as its
language). Until a manager saves settings, the lobby, table and summaries speak it, so that
the German host of a first game in a German server does not read their own replies in
German and the table in English.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import texts
from tests.bot.conftest import Sim, buttons, message_text, simulation, verb_of
from tests.bot.i18n_support import UserLocales, user_locales
from wizard.service import GameInfo

pytestmark = pytest.mark.usefixtures("fast_settle")


async def test_a_german_servers_first_lobby_is_german(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=1) as sim:
        server = sim.env.create_guild("Wizard-Runde", preferred_locale="de")
        channel = server.create_text_channel("karten")
        host = server.add_member(sim.env.create_user("anna"))
        locales[host] = "de"

        opened = await host.slash(channel, "wizard new")
        assert opened.response is not None and not opened.ephemeral
        lobby = message_text(opened.response)
        de = texts("de")
        # The host reads German in private (their locale) ...
        rules = await host.slash(channel, "wizard rules")
        assert rules.response is not None and rules.ephemeral
        assert rules.response.embeds[0].title == de("Wizard · the rules in short")
        # ... and the lobby the server sees is in the server's language too.
        assert de("Wizard · game {game} · lobby", game=1) in lobby, lobby


async def italian_game(sim: Sim, locales: UserLocales) -> GameInfo:
    """A game of ann, bob and cy (Italian speakers) started in an Italian server's channel
    that has saved no settings."""
    server = sim.env.create_guild("Server Italiano", preferred_locale="it")
    sim.guild, sim.channel = server, server.create_text_channel("carte")
    sim.members = [server.add_member(sim.env.create_user(n)) for n in ("ann", "bob", "cy")]
    for member in sim.members:
        locales[member] = "it"
    host, *others = sim.members
    info = await sim.new_game(host)
    lobby_id = sim.raw()[-1].id
    for member, verb in ((others[0], "join"), (others[1], "join"), (host, "start")):
        [button] = [b for b in buttons(sim.message(lobby_id)) if verb_of(b) == verb]
        await member.click(sim.message(lobby_id), custom_id=button["custom_id"])
    return info


async def test_after_a_restart_a_new_servers_table_keeps_its_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """QA (it): after a restart the table of an Italian server with no saved settings turned
    English: the bot heard a server's language only from Discord's server events, and none
    came before the games were redrawn. discord.py has every server's locale at ready."""
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=1) as sim:
        info = await italian_game(sim, locales)
        await sim.restart()
        await sim.cog.surfaces.idle()
        it = texts("it")
        table = sim.table_of(await sim.service.get_game(info.id))
        assert it("Wizard · game {game}", game=info.id) in (table.embeds[0].title or "")
        assert any(b.get("label") == it("Show my hand") for b in buttons(table))


async def test_a_new_servers_open_table_follows_its_discord_language_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """QA: a server with no saved settings changed its language on Discord; its open table
    kept the old language until the next move, while replies already spoke the new one."""
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=1) as sim:
        info = await italian_game(sim, locales)
        await sim.cog.surfaces.idle()
        it, de = texts("it"), texts("de")
        table = sim.table_of(await sim.service.get_game(info.id))
        assert it("Wizard · game {game}", game=info.id) in (table.embeds[0].title or "")

        sim.env.backend.edit_guild(sim.guild.id, {"preferred_locale": "de"})
        await sim.env.settle()
        await sim.cog.surfaces.idle()
        table = sim.table_of(await sim.service.get_game(info.id))
        assert de("Wizard · game {game}", game=info.id) in (table.embeds[0].title or "")
        assert any(b.get("label") == de("Show my hand") for b in buttons(table))
        assert not sim.env.errors


async def test_renaming_a_server_reads_no_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: every server update (most are of a name or an icon) read the server's settings
    twice to learn whether its language had changed; one that leaves it as heard reads none."""
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=1) as sim:
        info = await italian_game(sim, locales)
        await sim.cog.surfaces.idle()
        reads: list[int] = []
        get_settings = sim.service.get_settings

        async def counted(guild_id: int) -> object:
            reads.append(guild_id)
            return await get_settings(guild_id)

        monkeypatch.setattr(sim.service, "get_settings", counted)
        sim.env.backend.edit_guild(sim.guild.id, {"name": "Tavolo dei maghi"})
        await sim.env.settle()
        await sim.cog.surfaces.idle()
        assert reads == []
        table = sim.table_of(await sim.service.get_game(info.id))
        assert texts("it")("Wizard · game {game}", game=info.id) in (table.embeds[0].title or "")
        assert not sim.env.errors
