"""Restart-proof game buttons: one ``DynamicItem`` class, :class:`GameButton`, for every
``wiz:`` custom id, and no game logic in it.

A click's custom id is parsed once (:meth:`CustomId.parse`) and handed, as a
:class:`~bot.ui.custom_ids.CustomId`, to the one :class:`ComponentHandler` the bot holds in
``bot.component_handler`` (the game cog provides it), which dispatches on the verb. The item
only routes: it never touches the service, so a restart loses nothing and every click takes
the same path. Its template matches every ``wiz:`` id, so an id no current verb understands
(a button of an older bot) is answered here too, with :data:`OUTDATED`.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol, Self, runtime_checkable

import discord

from bot.i18n import N_, texts
from bot.ui.custom_ids import PREFIX, CustomId, CustomIdError
from bot.ui.layout import GREEN

log = logging.getLogger(__name__)

UNAVAILABLE = N_("The game table is not ready yet (the bot is starting up). Try again in a moment.")
"""Reply to a click that arrives before a handler is installed (translated where sent)."""
FAILED = N_("Something went wrong on our side with that click. Please try again.")
"""Reply to a click whose handler raised (translated where sent)."""
OUTDATED = N_(
    "This button is from an older version of the bot. Use the newest message of the game."
)
"""Reply to a click on a ``wiz:`` button that is not one of today's custom ids (translated
where sent: ``texts(interaction.locale)(OUTDATED)``)."""

FAMILY_TEMPLATE = rf"(?s){PREFIX}:.*"
"""Every ``wiz:`` custom id, well-formed or not: :class:`GameButton` sorts them out."""


@runtime_checkable
class ComponentHandler(Protocol):
    """What the bot calls for every click on a Wizard button (provided by the game cog)."""

    async def on_component(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """Answer the click ``cid`` (within Discord's 3 seconds)."""
        ...


async def reply_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer ``interaction`` with an ephemeral ``text``, whether or not it was answered before."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send a private reply to interaction %s", interaction.id)


async def dispatch_component(interaction: discord.Interaction[Any], cid: CustomId) -> None:
    """Hand one click to ``interaction.client.component_handler``; never let it go unanswered.

    discord.py only logs exceptions raised by a ``DynamicItem`` callback, so an error here is
    caught, answered with :data:`FAILED` and passed to ``client.on_error`` (where logging,
    and SimCord's error capture in tests, see it). Both replies are private, so they are in
    the clicking member's language.
    """
    t = texts(interaction.locale)
    handler = getattr(interaction.client, "component_handler", None)
    if handler is None:
        await reply_privately(interaction, t(UNAVAILABLE))
        return
    try:
        await handler.on_component(interaction, cid)
    except Exception:
        log.exception("component handler failed for %s", cid)
        await reply_privately(interaction, t(FAILED))
        await interaction.client.on_error("wizard_component", interaction, cid)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=FAMILY_TEMPLATE):
    """A game button: its custom id is a :class:`CustomId` (``cid``), or, for a button of an
    older bot that no verb of today understands, ``cid`` is ``None``."""

    def __init__(
        self, item: discord.ui.Button[Any], cid: CustomId | None, *, row: int | None = None
    ) -> None:
        super().__init__(item, row=row)
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> Self:
        """The clicked button, its custom id parsed (called by discord.py on a click)."""
        text = str(match.string)
        try:
            cid: CustomId | None = CustomId.parse(text)
        except CustomIdError:
            cid = None
        if not isinstance(item, discord.ui.Button):
            item = discord.ui.Button(custom_id=text)
        return cls(item, cid)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Delegate the click to the bot's component handler (or say the button is outdated)."""
        if self.cid is None:
            await reply_privately(interaction, texts(interaction.locale)(OUTDATED))
            return
        await dispatch_component(interaction, self.cid)


class ItemAsSent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?!)"):
    """The base of a family of components that routes on its custom id itself: the item is
    the clicked component as it is in the message. Never registered (its template matches
    nothing): each subclass gives its own ``template=`` and ``callback``."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """The clicked component, as it is in the message (called by discord.py)."""
        return cls(item)


def detached_view() -> discord.ui.View:
    """An empty view to fill with dynamic items, send and forget.

    Its items are dynamic items registered with ``bot.add_dynamic_items``, which discord.py
    dispatches from the clicked message itself. The view is stopped before it is sent (the
    public ``View.stop``), so discord.py does not store it: a stored view would only cost
    memory (one per message sent or edited) and, for a private follow-up, a 15-minute
    timeout whose expiry unregisters the dynamic item classes.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameButton,)
"""The game's dynamic item classes, for ``bot.add_dynamic_items``."""


def button(
    cid: CustomId,
    *,
    label: str | None = None,
    emoji: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> GameButton:
    """The button of ``cid``."""
    item: discord.ui.Button[Any] = discord.ui.Button(
        label=label, emoji=emoji, style=style, disabled=disabled, custom_id=cid.format()
    )
    return GameButton(item, cid, row=row)


def one_button_view(
    cid: CustomId,
    label: str,
    emoji: str,
    *,
    style: discord.ButtonStyle = GREEN,
) -> discord.ui.View:
    """A detached view of one button (e.g. "Take my seat back", "Play again")."""
    view = detached_view()
    view.add_item(button(cid, label=label, emoji=emoji, style=style))
    return view
