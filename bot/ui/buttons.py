"""Restart-proof buttons: one ``DynamicItem`` class per verb, and no game logic in any of them.

A click is parsed from the button's custom id (:mod:`bot.ui.custom_ids`) and handed, as a
:class:`~bot.ui.custom_ids.CustomId`, to the one :class:`ComponentHandler` the bot holds in
``bot.component_handler`` (the game cog provides it). The items only route: they never
touch the service, so a restart loses nothing and every click takes the same path.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar, Protocol, runtime_checkable

import discord

from bot.i18n import N_, texts
from bot.ui.custom_ids import CustomId, CustomIdError, Verb, template

log = logging.getLogger(__name__)

UNAVAILABLE = N_("The game table is not ready yet (the bot is starting up). Try again in a moment.")
"""Reply to a click that arrives before a handler is installed (translated where sent)."""
FAILED = N_("Something went wrong on our side with that click. Please try again.")
"""Reply to a click whose handler raised (translated where sent)."""
OUTDATED = N_(
    "This button is from an older version of the bot. Use the newest message of the game."
)
"""Reply to a click on a ``wiz:`` button that no current template matches (translated
where sent: ``texts(interaction.locale)(OUTDATED)``)."""


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


class WizardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=template()):
    """A button whose custom id is a :class:`CustomId`; subclasses fix the verb."""

    verb: ClassVar[Verb | None] = None

    def __init__(
        self,
        cid: CustomId,
        *,
        label: str | None = None,
        emoji: str | discord.PartialEmoji | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        if self.verb is not None and cid.verb is not self.verb:
            raise CustomIdError(f"{type(self).__name__} takes {self.verb.value!r} ids, not {cid}")
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, emoji=emoji, style=style, disabled=disabled, custom_id=cid.format()
        )
        super().__init__(button, row=row)
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> WizardButton:
        """Rebuild the clicked button from its custom id (called by discord.py on a click)."""
        cid = CustomId.parse(match.string)
        if isinstance(item, discord.ui.Button):
            return cls(
                cid, label=item.label, emoji=item.emoji, style=item.style, disabled=item.disabled
            )
        return cls(cid)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Delegate the click to the bot's component handler."""
        await dispatch_component(interaction, self.cid)


class JoinButton(WizardButton, template=template(Verb.JOIN)):
    """Lobby: take a seat."""

    verb = Verb.JOIN


class LeaveButton(WizardButton, template=template(Verb.LEAVE)):
    """Lobby: give up one's seat."""

    verb = Verb.LEAVE


class AddBotButton(WizardButton, template=template(Verb.ADDBOT)):
    """Lobby: add a computer player."""

    verb = Verb.ADDBOT


class StartButton(WizardButton, template=template(Verb.START)):
    """Lobby (host): start the game."""

    verb = Verb.START


class CancelButton(WizardButton, template=template(Verb.CANCEL)):
    """Lobby or table (host): cancel the game."""

    verb = Verb.CANCEL


class HandButton(WizardButton, template=template(Verb.HAND)):
    """Table: show my hand."""

    verb = Verb.HAND


class BidButton(WizardButton, template=template(Verb.BID)):
    """Hand: bid a number of tricks."""

    verb = Verb.BID


class PlayButton(WizardButton, template=template(Verb.PLAY)):
    """Hand: play a card."""

    verb = Verb.PLAY


class TrumpButton(WizardButton, template=template(Verb.TRUMP)):
    """Hand (dealer after a turned Wizard): choose trump."""

    verb = Verb.TRUMP


class PlayHiddenButton(WizardButton, template=template(Verb.PLAYHIDDEN)):
    """Hand, clairvoyance round: play one's own unseen card."""

    verb = Verb.PLAYHIDDEN


class TakeBackButton(WizardButton, template=template(Verb.TAKEBACK)):
    """Hand: take one's seat back from the computer player holding it."""

    verb = Verb.TAKEBACK


class AgainButton(WizardButton, template=template(Verb.AGAIN)):
    """Final standings: play again (a new lobby like the finished game's)."""

    verb = Verb.AGAIN


class LevelButton(WizardButton, template=template(Verb.LEVEL)):
    """Lobby (host): change a computer player's level."""

    verb = Verb.LEVEL


BUTTON_CLASSES: dict[Verb, type[WizardButton]] = {
    Verb.JOIN: JoinButton,
    Verb.LEAVE: LeaveButton,
    Verb.ADDBOT: AddBotButton,
    Verb.START: StartButton,
    Verb.CANCEL: CancelButton,
    Verb.HAND: HandButton,
    Verb.BID: BidButton,
    Verb.PLAY: PlayButton,
    Verb.TRUMP: TrumpButton,
    Verb.PLAYHIDDEN: PlayHiddenButton,
    Verb.TAKEBACK: TakeBackButton,
    Verb.AGAIN: AgainButton,
    Verb.LEVEL: LevelButton,
}
"""The button class of each verb; register them all with ``bot.add_dynamic_items``."""

DYNAMIC_ITEMS: tuple[type[WizardButton], ...] = tuple(BUTTON_CLASSES.values())
"""Every dynamic item class of the bot (the catch-all :class:`WizardButton` is not one)."""


def button(
    cid: CustomId,
    *,
    label: str | None = None,
    emoji: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> WizardButton:
    """The button of ``cid``'s verb for ``cid``."""
    return BUTTON_CLASSES[cid.verb](
        cid, label=label, emoji=emoji, style=style, disabled=disabled, row=row
    )
