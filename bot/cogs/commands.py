"""The game's slash commands under ``/wizard``: ``new``, ``cancel``, ``kick``, ``rules``.

They are plain functions bound to one :class:`~bot.cogs.game.GameCog` and added to the bot's
``/wizard`` group, so that the group (with ``/wizard ping``) exists with or without a game
service, and every option is described where the user picks it (``app_commands.describe``).

Every name, description and choice is marked for translation (:mod:`bot.i18n.commands`):
names with ``command_name`` (options too, through ``app_commands.rename``), the other texts
with ``locale_str``. Discord shows them in each member's language.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs.game import GameCog
from bot.cogs.messages import drop_unseen_lobby
from bot.discord_faults import DISCORD_FAILED, DiscordFailure, failure_text, from_discord
from bot.features.settings import LEVEL_CHOICES
from bot.i18n import N_, VARIANT_ABOUT, reader_texts
from bot.i18n.commands import command_name
from bot.ui.buttons import reply_privately
from wizard.options import Bidding

log = logging.getLogger(__name__)

NEW_FAILED = N_("Something went wrong on our side with that command. Please try again.")
"""The host's reply when Discord refused the lobby (the text of every failed command)."""

BIDDING_LABELS: dict[Bidding, locale_str] = {
    Bidding.OPEN: locale_str("open: everyone sees each bid"),
    Bidding.HIDDEN: locale_str("hidden: all bids shown together"),
    Bidding.SECRET: locale_str("secret: bids shown when the round is scored"),
}
"""How each bidding mode reads among the choices of ``/wizard new``."""
BIDDING_CHOICES = [app_commands.Choice(name=BIDDING_LABELS[b], value=b.value) for b in Bidding]


def game_commands(cog: GameCog) -> list[app_commands.Command[Any, ..., Any]]:
    """The ``/wizard`` subcommands that play games through ``cog``."""

    @app_commands.command(
        name=command_name("new"),
        description=locale_str("Open a game of Wizard in this channel"),
    )
    @app_commands.rename(
        bidding=command_name("bidding"),
        uneven_bids=command_name("uneven_bids"),
        clairvoyance=command_name("clairvoyance"),
        canadian=command_name("canadian"),
        magic_twos=command_name("magic_twos"),
        single_suit=command_name("single_suit"),
        turn_timer=command_name("turn_timer"),
        computer_level=command_name("computer_level"),
    )
    @app_commands.describe(
        bidding=locale_str("How bids are made (default: the server's, usually open)"),
        uneven_bids=VARIANT_ABOUT["uneven_bids"],
        clairvoyance=VARIANT_ABOUT["clairvoyance"],
        canadian=VARIANT_ABOUT["canadian"],
        magic_twos=VARIANT_ABOUT["magic_twos"],
        single_suit=VARIANT_ABOUT["single_suit"],
        turn_timer=locale_str(
            "Seconds per turn (10 to 86,400) before a computer moves for you; 0: none"
        ),
        computer_level=locale_str("Level of the computer players (default: the server's)"),
    )
    @app_commands.choices(bidding=BIDDING_CHOICES, computer_level=LEVEL_CHOICES)
    async def new(  # noqa: PLR0917 (discord.py passes options by position)
        interaction: discord.Interaction[Any],
        bidding: str | None = None,
        uneven_bids: bool | None = None,
        clairvoyance: bool | None = None,
        canadian: bool | None = None,
        magic_twos: bool | None = None,
        single_suit: bool | None = None,
        turn_timer: app_commands.Range[int, 0, 86400] | None = None,
        computer_level: str | None = None,
    ) -> None:
        try:
            await cog.new_game(
                interaction,
                choices={
                    "bidding": bidding,
                    "uneven_bids": uneven_bids,
                    "clairvoyance": clairvoyance,
                    "canadian": canadian,
                    "magic_twos": magic_twos,
                    "single_suit": single_suit,
                },
                turn_timer=turn_timer,
                level=computer_level,
            )
        except DISCORD_FAILED as error:
            if not from_discord(error):
                raise  # a timeout of the bot's own: a fault, reported as one
            await _lobby_refused(cog, interaction, error)

    @app_commands.command(
        name=command_name("cancel"),
        description=locale_str("Cancel this channel's Wizard game (host or server manager)"),
    )
    async def cancel(interaction: discord.Interaction[Any]) -> None:
        await cog.cancel_game(interaction)

    @app_commands.command(
        name=command_name("kick"),
        description=locale_str("Remove a player from this channel's game (host or manager)"),
    )
    @app_commands.rename(player=command_name("player"))
    @app_commands.describe(
        player=locale_str("Who to remove; in a running game a computer takes the seat")
    )
    async def kick(interaction: discord.Interaction[Any], player: discord.User) -> None:
        await cog.kick(interaction, player)

    @app_commands.command(
        name=command_name("rules"),
        description=locale_str("The rules in short, and the variants of this channel's game"),
    )
    async def rules(interaction: discord.Interaction[Any]) -> None:
        await cog.rules(interaction)

    @app_commands.command(
        name=command_name("help"),
        description=locale_str("How to play Wizard here, and every command"),
    )
    async def help(interaction: discord.Interaction[Any]) -> None:
        await cog.help(interaction)

    return [new, cancel, kick, rules, help]


async def _lobby_refused(
    cog: GameCog, interaction: discord.Interaction[Any], error: DiscordFailure
) -> None:
    """Discord refused a request of ``/wizard new`` (the lobby itself, say). A lobby of the
    host's that nobody can see would hold the channel (every later ``/wizard new`` refused
    with "there is already a game"), so it is cancelled, and the host told to try again."""
    dropped = await drop_unseen_lobby(cog.service, interaction.channel_id, interaction.user.id)
    log.warning(
        "game %s: Discord refused its /wizard new in channel %s (%s)%s",
        "?" if dropped is None else dropped,
        interaction.channel_id,
        failure_text(error),
        "" if dropped is None else "; the lobby nobody saw is cancelled",
    )
    await reply_privately(interaction, (await reader_texts(interaction))(NEW_FAILED))
