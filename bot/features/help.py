"""``/wizard help``: how a game goes here, and every command, in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.features.hints import HINT_LABEL, NOT_RATED
from bot.features.lobby import (
    ADD_COMPUTER_LABEL,
    JOIN_LABEL,
    LEAVE_LABEL,
    REMOVE_COMPUTER_LABEL,
    START_LABEL,
)
from bot.features.summaries import PLAY_AGAIN_LABEL
from bot.features.table import SHOW_HAND_LABEL, TAKE_BACK_LABEL
from bot.i18n import COLOUR, N_, Texts, _bold, texts
from bot.i18n.commands import NAME_CONTEXT

HOW_A_GAME_GOES = N_(
    "**A game:** {new} opens a lobby. Players press {join}; the host can fill seats with "
    "{add} (and free the last one with {remove}), change the variants and the turn time with "
    "the lobby's menus, then presses {start}."
)
YOUR_CARDS = N_(
    "**Your cards:** press {show_hand} on the table: your hand comes in a message only you "
    "see. Bids are made with the table's buttons (hidden and secret bids in your hand), cards "
    "with your hand's buttons."
)
LEAVING = N_(
    "**If you must go:** {leave} in your hand gives your seat to a computer player, and "
    "{take_back} there gives it back to you; a game you do not come back to counts as lost."
)
HINTS = N_("**Learning?** {hint} in your hand says what a computer player would do there.")
AGAIN = N_(
    "**When a game ends:** {again} under the final standings opens a new lobby and invites "
    "the same players."
)

Command = app_commands.Command[Any, Any, Any] | app_commands.Group


def command_text(group: str, command: Command, *, t: Texts) -> str:
    """A command as the reader types it (``/wizard new``), named from the catalogue that
    localises the commands themselves."""
    return f"`/{group} {t.context(NAME_CONTEXT, command.name)}`"


def command_line(group: str, command: Command, *, t: Texts, listed_in: str) -> str:
    """A command as Discord lists it for the reader: its name in ``listed_in``, the language
    of the reader's Discord, and its description in ``t``'s."""
    return f"{command_text(group, command, t=texts(listed_in))} · {t(command.description)}"


def help_embed(
    group: app_commands.Group,
    *,
    t: Texts,
    listed_in: str,
    shown: Mapping[str, str],
    hints: bool = False,
) -> discord.Embed:
    """``/wizard help`` in the reader's texts ``t``, naming the lobby's and the table's buttons
    as the server shows them (``shown``: :func:`public_buttons`), each command of ``group``
    as the reader's Discord lists it (``listed_in``: its language, which is not ``t``'s for
    a Catalan reader, whose Discord has no Catalan), and the hand's Hint button where the
    server allows ``hints``."""
    name = texts(listed_in).context(NAME_CONTEXT, group.name)
    new = group.get_command("new")
    assert new is not None, "/wizard new is a command of the group"
    embed = discord.Embed(title=t("Wizard · how to play here"), colour=COLOUR)
    embed.description = "\n\n".join(
        part
        for part in [
            t(
                HOW_A_GAME_GOES,
                new=command_text(name, new, t=texts(listed_in)),
                join=shown[JOIN_LABEL],
                add=shown[ADD_COMPUTER_LABEL],
                remove=shown[REMOVE_COMPUTER_LABEL],
                start=shown[START_LABEL],
            ),
            t(YOUR_CARDS, show_hand=shown[SHOW_HAND_LABEL]),
            # The hand's buttons, in the reader's language (the table offers "Take a seat"
            # instead where the host lets anyone take a computer's seat: QA).
            t(LEAVING, leave=_bold(t(LEAVE_LABEL)), take_back=_bold(t(TAKE_BACK_LABEL))),
            f"{t(HINTS, hint=_bold(t(HINT_LABEL)))} {t(NOT_RATED)}" if hints else "",
            t(AGAIN, again=shown[PLAY_AGAIN_LABEL]),
        ]
        if part
    )
    lines = [command_line(name, command, t=t, listed_in=listed_in) for command in group.commands]
    embed.add_field(name=t("Commands"), value="\n".join(lines), inline=False)
    return embed


def public_buttons(t: Texts) -> dict[str, str]:
    """The labels of the lobby's and the table's buttons, in bold, as a server whose texts
    are ``t`` shows them."""
    labels = (
        JOIN_LABEL,
        ADD_COMPUTER_LABEL,
        REMOVE_COMPUTER_LABEL,
        START_LABEL,
        SHOW_HAND_LABEL,
        PLAY_AGAIN_LABEL,
    )
    return {label: _bold(t(label)) for label in labels}
