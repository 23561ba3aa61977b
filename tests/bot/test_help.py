"""``/wizard help``: what a newcomer reads first (QA, demo: "/wizard help" matched no
command, and nothing pointed a newcomer to how a game goes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.features.help import AGAIN
from bot.i18n import texts
from bot.i18n.commands import NAME_CONTEXT
from tests.bot.conftest import simulation
from tests.bot.i18n_support import user_locales

pytestmark = pytest.mark.usefixtures("fast_settle")


async def test_help_says_how_a_game_goes_and_lists_every_command(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        shown = await ann.slash(sim.channel, "wizard help")
        assert shown.acknowledged and shown.ephemeral and shown.response is not None
        [embed] = shown.response.embeds
        assert embed.title == "Wizard · how to play here"
        about = embed.description or ""
        assert "`/wizard new` opens a lobby. Players press **Join**; the host can fill" in about
        assert "**Join**" in about and "**Add computer player**" in about, about
        assert "(and free the last one with **Remove computer player**)" in about, about
        assert "**Start**" in about and "**Show my hand**" in about, about
        assert "**Leave**" in about and "**Take my seat back**" in about, about
        assert "**Play again** under the final standings opens a new lobby and invites" in about
        assert "**Hint**" not in about, about  # a new server allows no hints
        [commands] = embed.fields
        listed = (commands.value or "").splitlines()
        group = sim.bot.wizard_group
        assert listed == [f"`/wizard {c.name}` · {c.description}" for c in group.commands]
        assert {"new", "rules", "stats", "leaderboard", "history", "settings", "help"} <= {
            c.name for c in group.commands
        }
        assert not sim.env.errors


async def test_help_names_the_hint_button_where_the_server_allows_hints(tmp_path: Path) -> None:
    # QA: nothing told a learner that the hand's Hint button exists.
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        await sim.service.update_settings(sim.guild.id, hints_allowed=True)
        shown = await ann.slash(sim.channel, "wizard help")
        assert shown.response is not None
        about = shown.response.embeds[0].description or ""
        assert (
            "**Learning?** **Hint** in your hand says what a computer player would do there. "
            "Games in which hints were used are not rated."
        ) in about, about


async def test_help_reads_in_the_members_language_with_the_servers_buttons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A German member of an Italian server: German sentences and command names (as Discord
    shows them the commands), the Italian labels of the lobby and the table they will see."""
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        locales[ann] = "de"
        await sim.service.update_settings(sim.guild.id, language="it")
        shown = await ann.slash(sim.channel, "wizard help")
        assert shown.response is not None
        [embed] = shown.response.embeds
        de, it = texts("de"), texts("it")
        assert embed.title == de("Wizard · how to play here")
        about = embed.description or ""
        wizard, new = de.context(NAME_CONTEXT, "wizard"), de.context(NAME_CONTEXT, "new")
        assert f"`/{wizard} {new}`" in about, about
        for label in ("Join", "Add computer player", "Remove computer player", "Start"):
            assert f"**{it(label)}**" in about, (label, about)
        assert f"**{it('Show my hand')}**" in about, about
        assert de(AGAIN, again=f"**{it('Play again')}**") in about, about
        for label in ("Leave", "Take my seat back"):  # the buttons of the member's own hand
            assert f"**{de(label)}**" in about, (label, about)
        lines = (embed.fields[0].value or "").splitlines()
        rules = sim.bot.wizard_group.get_command("rules")
        assert rules is not None
        assert f"`/{wizard} {de.context(NAME_CONTEXT, 'rules')}` · {de(rules.description)}" in lines


async def test_help_fits_discords_limits_in_every_language(tmp_path: Path) -> None:
    """Review: the commands' field came within 150 characters of Discord's 1,024 in Catalan;
    one more command would have made /wizard help fail there. Every reader's language, with
    every server language's buttons."""
    from bot.features.help import help_embed, public_buttons
    from bot.i18n import LANGUAGES

    async with simulation(tmp_path, members=1) as sim:
        group = sim.bot.wizard_group
        for reader in LANGUAGES:
            for server in LANGUAGES:
                shown = public_buttons(texts(server))
                embed = help_embed(
                    group, t=texts(reader), listed_in=reader, shown=shown, hints=True
                )
                assert len(embed.description or "") <= 4096
                assert all(len(f.value or "") <= 1024 for f in embed.fields), (reader, server)
                assert len(embed) <= 6000
