"""``create_bot(settings, service=...)``: the one way the bot is built, by the entry point and
by the tests.

The bot is a ``commands.AutoShardedBot`` (shard count and this process's shard ids come from
the settings) with no privileged intent: slash commands and buttons arrive as interactions,
which need no intent at all, and the ``guilds`` intent keeps channels and permissions cached.
With a game service it carries the game cog (:mod:`bot.cogs.game`), which answers every
click and the ``/wizard`` game commands.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import DiscordClock
from bot.cogs.commands import game_commands
from bot.cogs.config import GameConfig
from bot.cogs.game import GameCog
from bot.cogs.look import hear_languages
from bot.discord_faults import discords_own
from bot.features.community.cog import install_community
from bot.features.settings import install_settings
from bot.i18n import N_, language_of, reader_texts
from bot.i18n.commands import CommandTranslator, command_name
from bot.settings import Settings
from bot.ui.buttons import DYNAMIC_ITEMS, ComponentHandler, answer_refused, reply_privately
from wizard.service import Clock, GameService

log = logging.getLogger(__name__)

COMMAND_FAILED = N_("Something went wrong on our side with that command. Please try again.")
"""Reply to a slash command whose handler raised."""


def intents() -> discord.Intents:
    """The gateway intents the bot asks for, none privileged: ``guilds`` (channels, threads
    and servers coming and going) and ``guild_messages``, for a game message a moderator
    deletes (the bot reads no message content)."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.guild_messages = True
    return wanted


class WizardGroup(app_commands.Group):
    """``/wizard …``: every command of the bot lives in this one group."""

    def __init__(self) -> None:
        super().__init__(
            # Translators: the game's name; keep it, unless Wizard is sold under another name.
            name=command_name("wizard"),
            description=app_commands.locale_str(
                "Play Wizard, the trick-taking card game, in this channel"
            ),
            guild_only=True,
        )

    @app_commands.command(
        name=command_name("ping"),
        description=app_commands.locale_str("Check that the Wizard bot is up"),
    )
    async def ping(self, interaction: discord.Interaction[Any]) -> None:
        """Answer privately (in the member's language) with the shard that serves this server."""
        t = await reader_texts(interaction)
        shard = interaction.guild.shard_id if interaction.guild is not None else 0
        count = interaction.client.shard_count or 1
        await interaction.response.send_message(
            t("Pong! Wizard is up (shard {shard} of {count}).", shard=shard, count=count),
            ephemeral=True,
        )


class WizardBot(commands.AutoShardedBot):
    """The Wizard bot; ``component_handler`` answers every click on a Wizard button."""

    def __init__(
        self,
        settings: Settings,
        *,
        service: GameService | None = None,
        clock: Clock | None = None,
        game_config: GameConfig | None = None,
        component_handler: ComponentHandler | None = None,
    ) -> None:
        sharding: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            sharding["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=True, replied_user=False
            ),
            **sharding,
        )
        self.settings = settings
        self.service = service
        self.clock: Clock = clock or DiscordClock()
        self.game_config = game_config or GameConfig()
        self.component_handler: ComponentHandler | None = component_handler
        self.game_cog: GameCog | None = None
        self.wizard_group = WizardGroup()
        self.tree.add_command(self.wizard_group)
        self.tree.error(self._on_app_command_error)

    async def setup_hook(self) -> None:
        """Register the restart-proof buttons, install the game and community cogs (with a
        service), start the service's clocks, then sync the slash commands (localised by the
        catalogues)."""
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.tree.translator is None:
            await self.tree.set_translator(CommandTranslator())
        if self.service is not None:
            if self.game_cog is None:  # setup_hook runs again when the same bot reconnects
                cog = GameCog(self, self.service, clock=self.clock, config=self.game_config)
                await self.add_cog(cog)
                self.game_cog = cog
                if self.component_handler is None:
                    self.component_handler = cog
                for command in game_commands(cog):
                    self.wizard_group.add_command(command)
                # Leaderboard, stats, history (it adds nothing a second time), and settings.
                await install_community(self, self.service, self.wizard_group)
                install_settings(self, self.service, self.wizard_group)
            # Armed here, inside the bot, so that the timers of recovered games (turn limits,
            # computer moves) run on the bot's clock (SimCord's virtual one in tests).
            self.service.start_clocks()
        await self.sync_commands()

    # A server's public messages speak its Discord language until it saves settings: the
    # service hears that language whenever Discord tells it (at connection, join, change).
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """Tell the service the language of a server Discord just made available."""
        await self._hear_language(guild)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Tell the service the language of a server the bot just joined."""
        await self._hear_language(guild)

    async def on_guild_update(self, _before: discord.Guild, guild: discord.Guild) -> None:
        """Tell the service a server's language, which may have just changed."""
        await self._hear_language(guild)

    async def _hear_language(self, guild: discord.Guild) -> None:
        """Tell the service; if the server's public language changed with it (no settings
        saved), its open games are drawn again at once, as when a manager saves one."""
        service = self.service
        if service is None or service.home_language(guild.id) == language_of(
            guild.preferred_locale
        ):
            return  # nothing changes (most server updates are of a name or an icon)
        try:
            before = (await service.get_settings(guild.id)).language
        finally:
            hear_languages(service, [guild])
        now = (await service.get_settings(guild.id)).language
        if now != before and self.game_cog is not None:
            self.game_cog.surfaces.settings_saved(guild.id, redraw=True)

    async def sync_commands(self) -> None:
        """Sync slash commands: to the development server only if one is set (instant),
        else globally (Discord may take a while to show new global commands)."""
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def _on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        failed = (await reader_texts(interaction))(COMMAND_FAILED)
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if discords_own(original):  # an outage, not a bug of the bot: one warning
            command = interaction.command
            asked = f"/{command.qualified_name}" if command is not None else "a command"
            await answer_refused(interaction, original, asked=asked, failed=failed)
            return
        log.error("slash command failed", exc_info=error)
        await reply_privately(interaction, failed)


def create_bot(
    settings: Settings,
    *,
    service: GameService | None = None,
    clock: Clock | None = None,
    game_config: GameConfig | None = None,
    component_handler: ComponentHandler | None = None,
) -> WizardBot:
    """Build the bot (not connected).

    ``create_bot(settings, *, service=None, clock=None, game_config=None,
    component_handler=None)``:

    - ``service``: an open :class:`wizard.service.GameService` (open it *outside* the bot and
      close it after the bot stops). With it the bot plays games: the game cog is installed,
      subscribes to the service, adds ``/wizard new|cancel|kick|rules``, the community
      cog adds ``/wizard leaderboard|stats|history|settings`` and, in ``setup_hook``, the
      service's clocks start. Without it only ``/wizard ping`` exists.
    - ``clock``: the clock the bot's own timers use (turn pings, retries, hand expiry); give
      the same :class:`bot.clock.DiscordClock` as the service's. Default: a new one.
    - ``game_config``: :class:`bot.cogs.GameConfig` (ping delay, live hands, seeds for tests).
    - ``component_handler``: answers clicks instead of the game cog (tests of the plumbing).
    """
    return WizardBot(
        settings,
        service=service,
        clock=clock,
        game_config=game_config,
        component_handler=component_handler,
    )
