"""``/wizard settings``: a server's choices for Wizard, for members with Manage Server.

The command shows a private panel of the current settings with a control for each: the
default variants (a multi-select), the turn time limit, the language of public messages and
the card theme (selects), games in threads and computer players on the boards (toggle
buttons). Its options change settings directly too (and are the way to an exact turn limit
or to the minimum of games before a rank). Every change is validated by the service and
confirmed on the panel; the controls are restart-proof ``wizb:set:…`` ``DynamicItem``\\s
that check the permission again on every click.
"""

from __future__ import annotations

import re
from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.cogs.clicks import user_is_manager
from bot.cogs.game import GameCog
from bot.cogs.replies import refusal_reason_of
from bot.features.community.cog import community_cog, guarded
from bot.features.community.words import (
    NOT_READY,
    OUTDATED,
    PREFIX,
    SERVER_ONLY,
    THEME_LABELS,
)
from bot.features.lobby import next_level
from bot.features.settings_words import (
    BOTH_BIDDINGS,
    HINTS_ABOUT,
    VARIANT_KEYS,
    confirmation,
    picked_options,
    timer_choices,
    variant_choices,
)
from bot.i18n import (
    LANGUAGE_NAMES,
    LEVEL_CHOICES_TEXT,
    N_,
    Texts,
    duration_text,
    level_name,
    on_off,
    reader_language,
    reader_texts,
    texts,
    variants_text,
)
from bot.i18n.commands import command_name, typed_command
from bot.ui.buttons import DONE_NOTE, ItemAsSent, chosen_values, detached_view, reply_privately
from wizard.cards import Theme
from wizard.options import MIN_PLAYERS, Options
from wizard.service import (
    GameService,
    GuildSettings,
    InvalidOptionsError,
    ServiceError,
    check_options,
)

OUT_OF_DATE: Final = N_("This panel is out of date: open it again.")


NOT_MANAGER: Final = N_(
    "🚫 Only members with the **Manage Server** permission can change Wizard's settings."
)


NOT_SAVED: Final = N_("Nothing was saved. {reason}")
"""A refused settings change: the reason is a sentence of its own (player QA: "Non salvato:
Questo…" put a capital after a colon). Nothing, as every option given is refused with the
one refused (QA: "Not saved" read as if only the timer named had been dropped)."""


class NotSaved(Exception):
    """A panel choice refused before it reaches the service; ``reason`` is in the reader's
    language already."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def options_of(t: Texts, keys: set[str]) -> Options:
    """The default options a manager picked; :class:`NotSaved` with the reason when they
    cannot be played together (the service says which, :func:`wizard.service.check_options`)."""
    if {"hidden", "secret"} <= keys:
        raise NotSaved(t(BOTH_BIDDINGS))
    options = picked_options(keys)
    try:
        check_options(options, MIN_PLAYERS)
    except InvalidOptionsError as error:
        raise NotSaved(refusal_reason_of(error, t=t)) from None
    return options


def settings_embed(
    t: Texts, settings: GuildSettings, guild_name: str, *, command: str
) -> discord.Embed:
    """The current settings of a server; ``command``: ``/wizard settings`` as the reader's
    Discord lists it (:func:`typed_settings`)."""
    embed = discord.Embed(
        title=t("⚙️ Wizard settings of {server}", server=guild_name), colour=0x5865F2
    )
    rows = [
        (t("Default options of new games"), variants_text(settings.default_options, t=t)),
        (t("Turn time limit"), duration_text(t, settings.turn_seconds)),
        (t("Each game in its own thread"), on_off(settings.threads, t=t)),
        (t("Computer players on the leaderboards"), on_off(settings.computers_on_boards, t=t)),
        (t("Level of computer players"), level_name(settings.computer_level, t=t)),
        (t("Hints for learners"), f"{on_off(settings.hints_allowed, t=t)} · " + t(HINTS_ABOUT)),
        (
            t("Ranked on the rating and average boards after"),
            t.plural("{n} game", "{n} games", settings.rated_min_games),
        ),
        (
            t("Language of public messages"),
            LANGUAGE_NAMES.get(settings.language, settings.language),
        ),
        (t("Card theme"), t(THEME_LABELS[settings.theme])),
    ]
    for name, value in rows:
        embed.add_field(name=name, value=value, inline=False)
    embed.set_footer(
        text=t(
            # Translators: {command} is /wizard settings as the reader's Discord lists it.
            "Change them below, or with the options of {command} (for example an exact "
            "turn time limit, or how many games a player plays before being ranked).",
            command=command,
        )
    )
    return embed


def typed_settings(interaction: discord.Interaction[Any]) -> str:
    """``/wizard settings`` as the member's Discord lists it: in their Discord's language,
    not the reader's (a Catalan reader's Discord speaks English or Spanish)."""
    return typed_command("settings", t=texts(interaction.locale))


SELECT_ID: Final = re.compile(rf"{PREFIX}:set:(?P<field>variants|timer|language|theme)")
"""One select of the panel: the setting is the values picked."""


TOGGLE_ID: Final = re.compile(rf"{PREFIX}:set:(?P<field>threads|computers|hints):(?P<value>on|off)")
"""A switch of the panel; its custom id holds the value it sets."""


LEVEL_ID: Final = re.compile(rf"{PREFIX}:set:level:(?P<value>easy|normal|hard)")
"""The panel's computer level button: shows the level, and a click sets the next one (held
in its custom id)."""


class SettingsItem(ItemAsSent, template=rf"(?s){PREFIX}:set:.*"):
    """Every control of the settings panel (selects and buttons): a click is routed on its
    custom id, read once, and saved through :func:`change_from_panel`."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Save the choice (or say the panel is from an older bot)."""
        custom_id = self.custom_id
        if select := SELECT_ID.fullmatch(custom_id):
            field, values = select["field"], chosen_values(interaction)
        elif toggle := TOGGLE_ID.fullmatch(custom_id):
            field, values = toggle["field"], [toggle["value"]]
        elif level := LEVEL_ID.fullmatch(custom_id):
            field, values = "level", [level["value"]]
        else:
            await reply_privately(interaction, (await reader_texts(interaction))(OUTDATED))
            return
        await guarded(interaction, change_from_panel(interaction, field, values))


def settings_select(
    field: str,
    options: list[discord.SelectOption],
    *,
    placeholder: str | None = None,
    min_values: int = 1,
    max_values: int = 1,
    row: int | None = None,
) -> SettingsItem:
    """One select of the panel (see :data:`SELECT_ID`)."""
    item: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=f"{PREFIX}:set:{field}",
        options=options,
        placeholder=placeholder,
        min_values=min_values,
        max_values=max_values,
    )
    return SettingsItem(item, row=row)


def settings_toggle(
    field: str,
    value: bool,
    *,
    label: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    row: int | None = None,
) -> SettingsItem:
    """A switch of the panel setting ``field`` to ``value`` (see :data:`TOGGLE_ID`)."""
    custom_id = f"{PREFIX}:set:{field}:{'on' if value else 'off'}"
    item: discord.ui.Button[Any] = discord.ui.Button(label=label, style=style, custom_id=custom_id)
    return SettingsItem(item, row=row)


def settings_level(value: str, *, label: str | None = None, row: int | None = None) -> SettingsItem:
    """The panel's computer level button, setting ``value`` (see :data:`LEVEL_ID`)."""
    item: discord.ui.Button[Any] = discord.ui.Button(
        label=label, emoji="🤖", custom_id=f"{PREFIX}:set:level:{value}"
    )
    return SettingsItem(item, row=row)


SETTINGS_ITEMS: Final[tuple[type[discord.ui.DynamicItem[Any]], ...]] = (SettingsItem,)
"""The restart-proof components of the panel (``bot.add_dynamic_items``)."""


def settings_view(t: Texts, settings: GuildSettings) -> discord.ui.View:
    """The panel's controls, showing the current values."""
    view = detached_view()
    view.add_item(
        settings_select(
            "variants",
            variant_choices(settings.default_options, t=t),
            placeholder=t("Default options: {options}", options=variants_text(Options(), t=t)),
            min_values=0,
            max_values=len(VARIANT_KEYS),
            row=0,
        )
    )
    current = round(settings.turn_seconds or 0)
    view.add_item(
        settings_select(
            "timer",
            [
                discord.SelectOption(
                    label=t("Turn time limit: {limit}", limit=duration_text(t, seconds)),
                    value=str(seconds),
                    default=seconds == current,
                )
                for seconds in timer_choices(settings.turn_seconds)
            ],
            row=1,
        )
    )
    view.add_item(
        settings_select(
            "language",
            [
                discord.SelectOption(
                    label=t("Public messages: {language}", language=name),
                    value=code,
                    default=code == settings.language,
                )
                for code, name in LANGUAGE_NAMES.items()
                if code in GuildSettings.LANGUAGES
            ],
            row=2,
        )
    )
    view.add_item(
        settings_select(
            "theme",
            [
                discord.SelectOption(
                    label=t("Cards: {theme}", theme=t(THEME_LABELS[theme])),
                    value=theme.value,
                    default=theme is settings.theme,
                )
                for theme in Theme
            ],
            row=3,
        )
    )

    def switch(key: str, on: bool, label: str) -> SettingsItem:
        """A row-4 switch that turns ``key`` the other way, green while it is on."""
        style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
        return settings_toggle(key, not on, label=label, style=style, row=4)

    threads, computers, hints = (
        settings.threads,
        settings.computers_on_boards,
        settings.hints_allowed,
    )
    view.add_item(
        switch("threads", threads, t("Game threads: {state}", state=on_off(threads, t=t)))
    )
    view.add_item(
        switch(
            "computers",
            computers,
            t("Computers on boards: {state}", state=on_off(computers, t=t)),
        )
    )
    view.add_item(switch("hints", hints, t("Hints: {state}", state=on_off(hints, t=t))))
    view.add_item(
        settings_level(
            next_level(settings.computer_level),
            label=t("Computer players: {level}", level=level_name(settings.computer_level, t=t)),
            row=4,
        )
    )
    return view


def _service(interaction: discord.Interaction[Any]) -> GameService | None:
    cog = community_cog(interaction.client)
    return None if cog is None else cog.service


def tell_games(client: discord.Client, guild_id: int, *, looks: bool) -> None:
    """Tell the game cog (if installed) that the server's settings were saved; ``looks``:
    the language or card theme changed, which the open games' messages show."""
    bots = (commands.Bot, commands.AutoShardedBot)  # siblings: neither subclasses the other
    cog = client.get_cog(GameCog.__cog_name__) if isinstance(client, bots) else None
    if isinstance(cog, GameCog):
        cog.surfaces.settings_saved(guild_id, redraw=looks)


async def apply_changes(
    service: GameService,
    interaction: discord.Interaction[Any],
    changes: dict[str, Any],
    *,
    edit: bool,
) -> None:
    """Check the permission, save ``changes`` (if any) and show the panel: a new private
    message for the command, the clicked panel edited for a control. A member without the
    permission sees the settings without controls, and is refused a change."""
    t = await reader_texts(interaction)
    guild_id = interaction.guild_id
    if guild_id is None:
        await reply_privately(interaction, t(SERVER_ONLY))
        return
    manager = user_is_manager(interaction)
    if not manager and (changes or edit):
        await reply_privately(interaction, t(NOT_MANAGER))
        return
    before = await service.get_settings(guild_id)
    guild = interaction.guild
    name = guild.name if guild is not None else str(guild_id)
    if not manager:
        # QA (demo): a member could not even look at them. Shown without controls.
        embed = settings_embed(t, before, name, command=typed_settings(interaction))
        embed.set_footer(
            text=t("Only members with the Manage Server permission can change these settings.")
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)
        return
    note = None
    if changes:
        try:
            after = await service.update_settings(guild_id, **changes)
        except ServiceError as error:
            after = before
            note = "⚠️ " + t(NOT_SAVED, reason=refusal_reason_of(error, t=t))
        else:
            if after.language != before.language:  # the reader's may change with the server's
                t = texts(reader_language(interaction.locale, after.language))
            note = confirmation(t, before, after, interaction)
            interaction.extras[DONE_NOTE] = note  # what to say if Discord refuses the panel
            looks = (after.language, after.theme) != (before.language, before.theme)
            tell_games(interaction.client, guild_id, looks=looks)
    else:
        after = before
    embed = settings_embed(t, after, name, command=typed_settings(interaction))
    view = settings_view(t, after)
    if edit:
        await interaction.response.edit_message(content=note, embed=embed, view=view)
    else:
        await interaction.response.send_message(
            content=note, embed=embed, view=view, ephemeral=True
        )


async def change_from_panel(
    interaction: discord.Interaction[Any], field: str, values: list[str]
) -> None:
    """A control of the panel: turn its values into a change and apply it."""
    t = await reader_texts(interaction)
    service = _service(interaction)
    if service is None:
        await reply_privately(interaction, t(NOT_READY))
        return
    changes: dict[str, Any] = {}
    try:
        if field == "variants":
            unknown = set(values) - set(VARIANT_KEYS)
            if unknown:
                raise NotSaved(t(OUT_OF_DATE))
            changes["default_options"] = options_of(t, set(values))
        elif field == "timer":
            seconds = int(values[0])
            changes["turn_seconds"] = float(seconds) if seconds else None
        elif field == "language":
            changes["language"] = values[0]
        elif field == "theme":
            changes["theme"] = Theme(values[0])
        elif field == "threads":
            changes["threads"] = values[0] == "on"
        elif field == "computers":
            changes["computers_on_boards"] = values[0] == "on"
        elif field == "hints":
            changes["hints_allowed"] = values[0] == "on"
        elif field == "level":
            if values[0] not in GuildSettings.USER_LEVELS:
                raise ValueError(values[0])
            changes["computer_level"] = values[0]
    except (IndexError, ValueError):
        await reply_privately(interaction, t(OUT_OF_DATE))
        return
    except NotSaved as refused:
        if not user_is_manager(interaction):
            await reply_privately(interaction, t(NOT_MANAGER))
            return
        await show_refusal(interaction, service, refused.reason)
        return
    await apply_changes(service, interaction, changes, edit=True)


async def show_refusal(
    interaction: discord.Interaction[Any], service: GameService, reason: str
) -> None:
    """The panel again (as stored), with why the choice was not saved (``reason``, in the
    reader's language)."""
    t = await reader_texts(interaction)
    guild_id = interaction.guild_id
    assert guild_id is not None
    settings = await service.get_settings(guild_id)
    guild = interaction.guild
    name = guild.name if guild is not None else str(guild_id)
    await interaction.response.edit_message(
        content="⚠️ " + t(NOT_SAVED, reason=reason),
        embed=settings_embed(t, settings, name, command=typed_settings(interaction)),
        view=settings_view(t, settings),
    )


LANGUAGE_CHOICES: Final = [
    app_commands.Choice(name=name, value=code)
    for code, name in LANGUAGE_NAMES.items()
    if code in GuildSettings.LANGUAGES
]


LEVEL_CHOICES: Final = [
    app_commands.Choice(name=locale_str(LEVEL_CHOICES_TEXT[level]), value=level)
    for level in GuildSettings.USER_LEVELS
]
"""The levels people may choose, each with its one-line description."""


THEME_CHOICES: Final = [
    app_commands.Choice(name=locale_str("classic colours (B R G Y)"), value=Theme.CLASSIC.value),
    app_commands.Choice(name=locale_str("standard deck (♠ ♥ ♦ ♣)"), value=Theme.STANDARD.value),
]


def settings_command(service: GameService) -> app_commands.Command[Any, ..., Any]:
    """``/wizard settings``: the panel, or direct changes through its options.

    ``default_permissions(manage_guild=True)`` is set for the day the command is top-level;
    Discord applies it to top-level commands only, so under ``/wizard`` every member sees
    the command and the permission is checked here, on every use and every click.
    """

    @app_commands.command(
        name=command_name("settings"),
        description=locale_str("Wizard's settings for this server (changed with Manage Server)"),
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(
        language=command_name("language"),
        theme=command_name("theme"),
        turn_timer=command_name("turn_timer"),
        threads=command_name("threads"),
        computers_on_boards=command_name("computers_on_boards"),
        min_games=command_name("min_games"),
        computer_level=command_name("computer_level"),
    )
    @app_commands.describe(
        language=locale_str("Language of the public messages (lobby, table, results)"),
        theme=locale_str("How cards look: classic colours or a standard deck"),
        turn_timer=locale_str("Seconds per turn (10 to 86,400) in new games; 0: no limit"),
        threads=locale_str("Each new game gets a thread of its own"),
        computers_on_boards=locale_str("Show computer players on the leaderboards"),
        min_games=locale_str("Games before a player is ranked by rating and average"),
        computer_level=locale_str("Level of the computer players in new games"),
    )
    @app_commands.choices(
        language=LANGUAGE_CHOICES, theme=THEME_CHOICES, computer_level=LEVEL_CHOICES
    )
    async def settings(  # noqa: PLR0917 (discord.py passes options by position)
        interaction: discord.Interaction[Any],
        language: str | None = None,
        theme: str | None = None,
        turn_timer: app_commands.Range[int, 0, 86400] | None = None,
        threads: bool | None = None,
        computers_on_boards: bool | None = None,
        min_games: app_commands.Range[int, 1, 100] | None = None,
        computer_level: str | None = None,
    ) -> None:
        changes: dict[str, Any] = {}
        if language is not None:
            changes["language"] = language
        if theme is not None:
            changes["theme"] = theme
        if turn_timer is not None:
            changes["turn_seconds"] = float(turn_timer) if turn_timer else None
        if threads is not None:
            changes["threads"] = threads
        if computers_on_boards is not None:
            changes["computers_on_boards"] = computers_on_boards
        if min_games is not None:
            changes["rated_min_games"] = min_games
        if computer_level is not None:
            changes["computer_level"] = computer_level
        await guarded(interaction, apply_changes(service, interaction, changes, edit=False))

    return settings


def install_settings(
    bot: commands.Bot | commands.AutoShardedBot, service: GameService, group: app_commands.Group
) -> None:
    """Add ``/wizard settings`` (to ``group``) and the panel's restart-proof components to
    ``bot``; call it once, in ``setup_hook`` before the commands are synced."""
    bot.add_dynamic_items(*SETTINGS_ITEMS)
    group.add_command(settings_command(service))
