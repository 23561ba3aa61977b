"""Languages in SimCord: the synced slash commands carry Discord localisations, and every
interaction answers privately in the member's own language (``tests.bot.i18n_support`` gives
simulated members a Discord locale)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands

from bot.app import COMMAND_FAILED, create_bot
from bot.i18n import LANGUAGE_NAMES, texts
from bot.i18n.commands import NAME_CONTEXT, NAME_LIMIT, TEXT_LIMIT, valid_command_name
from bot.settings import Settings
from tests.bot.conftest import simulation
from tests.bot.i18n_support import UserLocales, user_locales
from wizard.service import GameInfo

DISCORD_LOCALES = ("de", "it", "es-ES", "es-419", "pt-BR")
"""The Discord locales with a catalogue (Discord has no Catalan)."""
SUBCOMMAND = 1


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> UserLocales:
    return user_locales(monkeypatch)


def synced(env: simcord.Env) -> list[dict[str, Any]]:
    """The body of the bot's last global command sync."""
    puts = [
        r
        for r in env.http_requests
        if r.method == "PUT" and fnmatch(r.path, "/applications/*/commands")
    ]
    assert puts, "the bot did not sync its commands"
    body = puts[-1].json
    assert isinstance(body, list)
    return body


def nodes(command: dict[str, Any]) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Every command, subcommand and option with its siblings (the command first)."""
    yield command, [command]
    stack = [command]
    while stack:
        node = stack.pop()
        options = node.get("options") or []
        for option in options:
            yield option, options
            stack.append(option)


def untranslated_name(name: str, locale: str) -> bool:
    """Whether the catalogue gives ``name`` the same name in ``locale`` (no localisation)."""
    return texts(locale).context(NAME_CONTEXT, name) == name


async def test_synced_commands_carry_localisations(tmp_path: Path) -> None:
    async with simulation(tmp_path) as sim:
        [wizard] = [c for c in synced(sim.env) if c["name"] == "wizard"]
        subcommands = {o["name"]: o for o in wizard["options"] if o["type"] == SUBCOMMAND}
        assert set(subcommands) >= {"ping", "new", "cancel", "kick", "rules"}

        new = subcommands["new"]
        assert new["name_localizations"]["de"] == "neu"
        assert new["name_localizations"]["it"] == "nuova"
        assert new["description_localizations"]["de"] == (
            "Eröffne eine Partie Wizard in diesem Kanal"
        )
        assert new["description_localizations"]["it"] == (
            "Apri una partita di Wizard in questo canale"
        )
        bidding = next(o for o in new["options"] if o["name"] == "bidding")
        assert bidding["name_localizations"]["de"] == "ansagen"
        assert bidding["name_localizations"]["it"] == "previsioni"
        hidden = next(c for c in bidding["choices"] if c["value"] == "hidden")
        assert hidden["name_localizations"]["it"].startswith("coperta")
        assert subcommands["rules"]["name_localizations"]["de"] == "regeln"

        for node, siblings in nodes(wizard):
            for locale in DISCORD_LOCALES:
                names = node.get("name_localizations") or {}
                if not untranslated_name(node["name"], locale):
                    assert valid_command_name(names[locale]), (node["name"], locale)
                assert len(names.get(locale, node["name"])) <= NAME_LIMIT
                descriptions = node.get("description_localizations") or {}
                assert 0 < len(descriptions[locale]) <= TEXT_LIMIT, (node["name"], locale)
                for choice in node.get("choices") or []:
                    if choice["name"] in LANGUAGE_NAMES.values():
                        continue  # a language is offered in its own words, in every locale
                    assert 0 < len(choice["name_localizations"][locale]) <= TEXT_LIMIT
                shown = [
                    (s.get("name_localizations") or {}).get(locale, s["name"]) for s in siblings
                ]
                assert len(shown) == len(set(shown)), (locale, shown)  # Discord wants them unique
            for field in ("name_localizations", "description_localizations"):
                assert not set(node.get(field) or {}) - set(DISCORD_LOCALES), node[field]


def ping_bot() -> tuple[discord.Client, list[tuple[discord.Locale, discord.Locale | None]]]:
    """The bot without a game service, with two test-only subcommands: ``whoami`` records
    the locales it sees, ``broken`` fails."""
    bot = create_bot(Settings(shard_count=1))
    seen: list[tuple[discord.Locale, discord.Locale | None]] = []

    @app_commands.command(name="whoami", description="test only: record the locales")
    async def whoami(interaction: discord.Interaction[Any]) -> None:
        seen.append((interaction.locale, interaction.guild_locale))
        await interaction.response.send_message("noted", ephemeral=True)

    @app_commands.command(name="broken", description="test only: fails")
    async def broken(interaction: discord.Interaction[Any]) -> None:
        raise RuntimeError("broken on purpose")

    bot.wizard_group.add_command(whoami)
    bot.wizard_group.add_command(broken)
    return bot, seen


async def test_interactions_carry_each_members_locale(locales: UserLocales) -> None:
    bot, seen = ping_bot()
    async with simcord.run(bot) as env:
        guild = env.create_guild("Server", preferred_locale="it")
        channel = guild.create_text_channel("wizard")
        ann, bea, cy = (guild.add_member(env.create_user(n)) for n in ("ann", "bea", "cy"))
        locales[ann] = "de"
        locales[bea] = discord.Locale.brazil_portuguese
        for member in (ann, bea, cy):
            assert (await member.slash(channel, "wizard whoami")).acknowledged
        assert seen == [
            (discord.Locale.german, discord.Locale.italian),
            (discord.Locale.brazil_portuguese, discord.Locale.italian),
            (discord.Locale.american_english, discord.Locale.italian),  # SimCord's default
        ]


async def test_private_answers_follow_the_members_locale(locales: UserLocales) -> None:
    bot, _ = ping_bot()
    async with simcord.run(bot) as env:
        guild = env.create_guild("Server")
        channel = guild.create_text_channel("wizard")
        ann, bea, cy = (guild.add_member(env.create_user(n)) for n in ("ann", "bea", "cy"))
        locales[ann] = "de"
        locales[bea] = "it"
        answers = []
        for member in (ann, bea, cy):
            pong = await member.slash(channel, "wizard ping")
            assert pong.ephemeral and pong.response is not None
            answers.append(pong.response.content)
        assert answers == [
            "Pong! Wizard läuft (Shard 0 von 1).",
            "Pong! Wizard è attivo (shard 0 di 1).",
            "Pong! Wizard is up (shard 0 of 1).",
        ]

        failed = await ann.slash(channel, "wizard broken")
        assert failed.ephemeral and failed.response is not None
        assert failed.response.content == texts("de")(COMMAND_FAILED)
        assert failed.response.content != COMMAND_FAILED
        assert [str(e.__cause__ or e) for e in env.errors] == ["broken on purpose"]


async def test_a_game_opens_and_plays_with_german_and_italian_members(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path) as sim:
        ann, bob, cy = sim.members
        locales[ann] = "de"
        locales[bob] = "it"
        info = await sim.lobby(ann, [bob, cy])
        after = await sim.play(info.id, random.Random(6), until=lambda i: _round(i) > 1)
        assert _round(after) == 2
        for member, language in ((ann, "de"), (bob, "it")):
            pong = await member.slash(sim.channel, "wizard ping")
            assert pong.response is not None
            assert pong.response.content == texts(language)(
                "Pong! Wizard is up (shard {shard} of {count}).", shard=0, count=1
            )


def _round(info: GameInfo) -> int:
    return info.table.round if info.table is not None else 0
