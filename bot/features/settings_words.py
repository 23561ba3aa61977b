"""What the settings panel says in words: durations, switches, and what a change saved; and
the variants and turn timers its selects offer, which the lobby's offer too."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final

import discord

from bot.features.community.words import THEME_LABELS
from bot.i18n import (
    LANGUAGE_NAMES,
    N_,
    VARIANT_ABOUT,
    VARIANT_NAMES,
    Texts,
    duration_text,
    level_name,
    on_off,
    variants_text,
)
from wizard.options import Bidding, Options
from wizard.service import GuildSettings

TIMER_PRESETS: Final = (0, 30, 60, 120, 300, 900, 3600, 86400)
"""Turn limits offered by the selects, in seconds (0: none); any other comes from a command's
option (and is offered too while it is the one chosen)."""


VARIANT_KEYS: Final = tuple(VARIANT_NAMES)
"""The values of a select of variants: each variant's key, the bidding modes by their value."""


BOTH_BIDDINGS: Final = N_("Bids are either hidden or secret, not both.")
"""A select of variants offers both bidding modes in one list; the options hold one."""


def variant_keys(options: Options) -> set[str]:
    """The keys (:data:`VARIANT_KEYS`) of the variants that are on."""
    keys = {
        k
        for k in ("uneven_bids", "clairvoyance", "canadian", "magic_twos", "single_suit")
        if getattr(options, k)
    }
    if options.bidding is not Bidding.OPEN:
        keys.add(options.bidding.value)
    return keys


def variant_choices(options: Options, *, t: Texts) -> list[discord.SelectOption]:
    """A select's entries of the variants (:data:`VARIANT_KEYS`), each with what it does,
    those of ``options`` picked."""
    on = variant_keys(options)
    return [
        discord.SelectOption(
            label=t(VARIANT_NAMES[key]),
            value=key,
            description=t(VARIANT_ABOUT[key].message),
            default=key in on,
        )
        for key in VARIANT_KEYS
    ]


def timer_choices(turn_seconds: float | None) -> list[int]:
    """The turn limits a select offers, in seconds: :data:`TIMER_PRESETS`, and
    ``turn_seconds`` (rounded; ``None``: no limit, 0) where a command chose another."""
    return sorted({*TIMER_PRESETS, round(turn_seconds or 0)})


def picked_options(keys: Collection[str]) -> Options:
    """The options with the variants ``keys`` on (of :data:`VARIANT_KEYS`; the caller refuses
    both bidding modes at once with :data:`BOTH_BIDDINGS`, else secret bids win). Not checked
    for conflicts: the service refuses those (R7.8)."""
    bidding = Bidding.SECRET if "secret" in keys else Bidding.HIDDEN if "hidden" in keys else None
    return Options(
        uneven_bids="uneven_bids" in keys,
        bidding=bidding or Bidding.OPEN,
        clairvoyance="clairvoyance" in keys,
        canadian="canadian" in keys,
        magic_twos="magic_twos" in keys,
        single_suit="single_suit" in keys,
    )


HINTS_ABOUT: Final = N_(
    "a 💡 button on a player's hand shows what the Normal computer would do; games where "
    "it is used are not rated."
)


def confirmation(
    t: Texts, before: GuildSettings, after: GuildSettings, interaction: discord.Interaction[Any]
) -> str:
    """What changed, in words (and what to know about it)."""
    lines = []
    if after.default_options != before.default_options:
        lines.append(
            t("Default options: {options}", options=variants_text(after.default_options, t=t))
        )
    if after.turn_seconds != before.turn_seconds:
        lines.append(t("Turn time limit: {limit}", limit=duration_text(t, after.turn_seconds)))
    if after.threads != before.threads:
        lines.append(t("Game threads: {state}", state=on_off(after.threads, t=t)))
        allowed = interaction.app_permissions
        if after.threads and not (
            allowed.create_public_threads and allowed.send_messages_in_threads
        ):
            lines.append(
                "⚠️ "
                + t(
                    "In this channel I lack **Create Public Threads** or **Send Messages in "
                    "Threads**: games here will stay in the channel until I have them."
                )
            )
    if after.computers_on_boards != before.computers_on_boards:
        lines.append(
            t("Computers on boards: {state}", state=on_off(after.computers_on_boards, t=t))
        )
    if after.hints_allowed != before.hints_allowed:
        lines.append(t("Hints: {state}", state=on_off(after.hints_allowed, t=t)))
    if after.computer_level != before.computer_level:
        lines.append(t("Computer players: {level}", level=level_name(after.computer_level, t=t)))
    if after.rated_min_games != before.rated_min_games:
        lines.append(
            # Translators: a saved setting, as the settings panel names it (QA: "Ranked
            # after 3 games" overstated it: the wins board ranks everyone).
            t.plural(
                "Ranked on the rating and average boards after {n} game",
                "Ranked on the rating and average boards after {n} games",
                after.rated_min_games,
            )
        )
    if after.language != before.language:
        lines.append(
            t(
                "Public messages: {language}",
                language=LANGUAGE_NAMES.get(after.language, after.language),
            )
        )
    if after.theme != before.theme:
        lines.append(t("Cards: {theme}", theme=t(THEME_LABELS[after.theme])))
    if not lines:
        return "ℹ️ " + t("Nothing changed.")
    notes = []
    fixed_at_creation = ("default_options", "turn_seconds", "computer_level")
    if any(getattr(after, k) != getattr(before, k) for k in fixed_at_creation):
        notes.append(
            t(
                "New games only: games already open keep their options, turn time limit and "
                "computer level."
            )
        )
    # What open games show at once, named (QA, de: "show it at once" beside the note above
    # read as if "it" were the options they keep).
    language, theme = after.language != before.language, after.theme != before.theme
    if language and theme:
        notes.append(t("Games already open switch to the new language and cards at once."))
    elif language:
        notes.append(t("Games already open switch to the new language at once."))
    elif theme:
        notes.append(t("Games already open show the new cards at once."))
    saved = "✅ " + t("Saved.") + "\n" + "\n".join(f"• {line}" for line in lines)
    return "\n".join([saved, *(f"-# {note}" for note in notes)])
