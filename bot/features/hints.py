"""Hints for learners: the 💡 button of a player's hand (where the server allows hints) and
its private answer, what the ``normal`` computer would do there and how many tricks it
expects the hand to win."""

from __future__ import annotations

from typing import Any, Final

import discord

from bot.cogs.clicks import ClickBase
from bot.cogs.look import public_theme, server_settings
from bot.i18n import N_, Texts, _bold, card_text, level_name, reader_texts, suit_text
from bot.ui.buttons import CustomId, Verb, button
from bot.ui.layout import GREY
from wizard.cards import Theme
from wizard.service import GameService, Hint, MakeBid, NameTrump, PlayCard

# Translators: the button of a player's hand asking what a computer would do.
HINT_LABEL: Final = N_("Hint")

NOT_RATED: Final = N_("Games in which hints were used are not rated.")


def hint_button(
    game: int, version: int, *, t: Texts, row: int | None = None
) -> discord.ui.Item[Any]:
    """The hand's 💡 button."""
    return button(
        CustomId(game, Verb.HINT, "", version), label=t(HINT_LABEL), emoji="💡", style=GREY, row=row
    )


def decimal(value: float, *, t: Texts) -> str:
    """``value`` with one decimal, written as the reader's language writes it."""
    # Translators: the decimal separator of your language (“,” in German).
    separator = t.context("decimal separator", ".")
    return f"{value:.1f}".replace(".", separator)


def hint_text(hint: Hint, *, t: Texts, theme: Theme = Theme.CLASSIC) -> str:
    """The private answer to a 💡 click: the suggested move, then the trick estimate."""
    level = _bold(level_name(hint.level, t=t))
    move = hint.move
    if isinstance(move, MakeBid):
        # Translators: {level} is a computer level, e.g. “Normal would bid 2 here.”
        line = t("{level} would bid {bid} here.", level=level, bid=move.bid)
    elif isinstance(move, NameTrump):
        line = t(
            "{level} would choose {suit} as trump.",
            level=level,
            suit=suit_text(move.suit, theme, t=t),
        )
    elif isinstance(move, PlayCard):
        line = t("{level} would play {card}.", level=level, card=card_text(move.card, theme, t=t))
    else:
        line = t("{level} would play your card (unseen).", level=level)
    if round(hint.expected_tricks, 1) > 0:
        expects = t(
            "It expects you to win about {tricks} tricks this round.",
            tricks=decimal(hint.expected_tricks, t=t),
        )
    else:  # player QA: "about 0.0 tricks" read as a precise nothing
        expects = t("It expects you to win no trick this round.")
    if hint.tricks_won:
        expects += " " + t.plural(
            "(You have won {n} trick so far.)", "(You have won {n} tricks so far.)", hint.tricks_won
        )
    return "\n".join([f"💡 {line} {expects}", "-# " + t(NOT_RATED)])


async def hints_on(service: GameService, guild_id: int | None, game_id: int) -> bool:
    """Whether the server of ``game_id`` (``guild_id``, if known) allows hints."""
    if guild_id is None:
        guild_id = (await service.get_game(game_id)).guild_id
    return (await server_settings(service, guild_id)).hints_allowed


class HintClicks(ClickBase):
    """The hand's 💡 button: a private reply, the hand left as it is."""

    async def _hint(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        hint = await self._timely(
            interaction, self.service.hint(cid.game, interaction.user.id), update=False
        )
        theme = await public_theme(self.service, interaction.guild_id)
        text = hint_text(hint, t=await reader_texts(interaction), theme=theme)
        await self._send_private(interaction, text)
