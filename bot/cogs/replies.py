"""The one place that turns a refusal of the game service into what the player reads.

Every :class:`~wizard.service.ServiceError` carries a sentence for the user (``message``) and a
stable ``code``; this module puts a short reason in front ("Not your turn.", "That bid is not
allowed.") so that a refusal says *why* at a glance, and answers the interaction privately.
"""

from __future__ import annotations

from typing import Any, Final

import discord

from bot.i18n import N_, Texts, texts
from bot.ui.buttons import reply_privately as reply_private
from wizard.service import (
    GameStatusError,
    IllegalMoveError,
    NotYourTurnError,
    ServiceError,
    StaleVersionError,
)

_BY_CODE: Final[dict[str, str]] = {
    "not_seated": "🚫",
    "already_seated": "ℹ️",
    "not_host": "🚫",
    "lobby_full": "🚫",
    "channel_busy": "🚫",
    "not_enough_players": "⏳",
    "invalid_options": "⚠️",
    "invalid_settings": "⚠️",
    "game_not_found": "❓",
    "seat_not_found": "❓",
    "not_away": "ℹ️",
    "storage": "⚠️",
    "stale": "🔄",
}

_ILLEGAL_BY_RULE: Final[dict[str, str]] = {
    "R4.1": N_("That bid is not allowed."),
    "R7.1": N_("That bid is not allowed."),
    "R7.5": N_("That bid is not allowed."),
}
ILLEGAL: Final = N_("That move is not allowed.")

MUST_FOLLOW: Final = N_(
    "⛔ You must follow suit: you hold a card of the suit led. Play one of those, a 🧙 Wizard "
    "or a 🃏 Jester (R5.3)."
)

_STATUS_PREFIX: Final[dict[str, str]] = {
    "cancelled": "🛑",
    "finished": "🏁",
    "lobby": "⏳",
    "active": "ℹ️",
    "broken": "⚠️",
}

__all__ = ["MUST_FOLLOW", "STALE", "refusal_text", "refuse", "reply_private"]

STALE: Final = N_("🔄 This has moved on since that was shown. Here is your hand as it is now.")
"""The note on top of a hand opened instead of a click on an earlier surface."""


def refusal_text(error: ServiceError, *, t: Texts) -> str:
    """What a player reads when the service refuses their click or command, in the language
    of ``t`` (the service's own sentence, ``error.message``, stays as the service wrote it)."""
    if isinstance(error, StaleVersionError):
        return t(STALE)
    if isinstance(error, NotYourTurnError):
        return "⏳ " + t("Not your turn. {reason}", reason=error.message)
    if isinstance(error, IllegalMoveError):
        if error.rule == "R5.3":
            return t(MUST_FOLLOW)
        verdict = t(_ILLEGAL_BY_RULE.get(error.rule, ILLEGAL))
        return f"⛔ {verdict} {error.message} ({error.rule})"
    if isinstance(error, GameStatusError):
        return f"{_STATUS_PREFIX.get(error.status, 'ℹ️')} {error.message}"
    return f"{_BY_CODE.get(error.code, '⚠️')} {error.message}"


async def refuse(interaction: discord.Interaction[Any], error: ServiceError) -> None:
    """Answer a refused click or command privately with the reason (in the user's language)."""
    await reply_private(interaction, refusal_text(error, t=texts(interaction.locale)))
