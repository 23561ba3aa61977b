"""Answering clicks: :class:`ClickBase`, what every feature's clicks share: answering
within Discord's 3 seconds, private replies, edits of the clicked message, and each player's
last click (a double click is answered like the first). :class:`bot.cogs.game.GameCog` puts
the features' clicks together."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.cogs.config import GameConfig
from bot.cogs.look import public_look
from bot.cogs.messages import drop_unseen_lobby
from bot.cogs.replies import refuse
from bot.discord_faults import DISCORD_FAILED, NO_ANSWER, failure_text
from bot.i18n import Texts, card_text, reader_texts, suit_text
from bot.ui.buttons import DONE_NOTE, MAYBE_DEFERRED, CustomId, CustomIdError, Verb
from wizard.cards import Theme
from wizard.service import (
    Clock,
    GameService,
    GameUpdate,
    RoundScored,
    ServiceError,
    StaleVersionError,
)
from wizard.state import Bid, ChooseTrump, Play

if TYPE_CHECKING:  # the surfaces build on the features, which build on this module
    from bot.cogs.surfaces import Surfaces

log = logging.getLogger(__name__)

T = TypeVar("T")


_T0 = "wizard_t0"


DONE_KEPT = 10_000
"""Players' last clicks remembered for answering double clicks (a few per running game)."""


@dataclass
class ClickStats:
    """How long clicks took inside the bot, from the handler's start to the response: kept
    only when a benchmark sets the game cog's ``stats`` (``bench/bot.py``), never in a
    running bot."""

    processing: list[float] = field(default_factory=list)
    """Seconds of our own work before the response was sent (service call, rendering)."""
    total: list[float] = field(default_factory=list)
    """Seconds until the response call returned (adds Discord's, or SimCord's, handling)."""


def user_is_manager(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member who clicked or typed a command has the Manage Server permission
    of a server (who may cancel a game, remove its players, change the server's settings)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def on_table(interaction: discord.Interaction[Any], cid: CustomId) -> bool:
    """Whether ``cid`` is a bid clicked on a public message (the table), not in a hand."""
    message = interaction.message
    return cid.verb is Verb.BID and message is not None and not message.flags.ephemeral


def _done_note(update: GameUpdate, *, t: Texts, theme: Theme) -> str | None:
    """What the player just did, for the top of their redrawn hand."""
    action = update.action
    if update.duplicate:
        return "✅ " + t("Already done.")
    if isinstance(action, Bid):
        return "✅ " + t("You bid {bid}.", bid=action.bid)
    if isinstance(action, Play):
        card = card_text(action.card, theme, t=t)
        scored = [e.round for e in update.events if isinstance(e, RoundScored)]
        if scored:  # the hand drawn next is the next round's: not a card it holds
            return "✅ " + t(
                "You played {card}, the last card of round {round}.", card=card, round=scored[0]
            )
        return "✅ " + t("You played {card}.", card=card)
    if isinstance(action, ChooseTrump):
        suit = suit_text(action.suit, theme, t=t)
        # Translators: {suit} is a suit with its emoji, e.g. “🟦 Humans (B)”.
        return "✅ " + t("You chose {suit} as trump.", suit=suit)
    return None


async def answer_message(interaction: discord.Interaction[Any], **fields: Any) -> int | None:
    """Answer ``interaction`` with a message (``send_message``'s ``fields``): its id, also
    when no answer came back from Discord but it made the message all the same (only its
    answer lost on the way back: asked for, not sent twice)."""
    try:
        response = await interaction.response.send_message(**fields)
    except NO_ANSWER as lost:
        try:
            made = await interaction.original_response()
        except DISCORD_FAILED:
            raise lost from None  # not made: the caller handles no answer
        log.info("the answer to user %s was lost, but Discord made it", interaction.user.id)
        return made.id
    return response.message_id


def _same_picture(done: str, cid: CustomId) -> bool:
    """Whether the applied click ``done`` (a custom id) was a button of the same picture of
    the game as ``cid``: drawn at the same version, so pressed together with it."""
    try:
        first = CustomId.parse(done)
    except CustomIdError:
        return False
    return first.game == cid.game and first.version == cid.version


class ClickBase:
    """What every feature's clicks share: the service, the surfaces, answering within
    Discord's 3 seconds, and the memory of each player's last click (double clicks)."""

    bot: discord.Client
    service: GameService
    clock: Clock
    config: GameConfig
    surfaces: Surfaces
    stats: ClickStats | None
    _done: OrderedDict[tuple[int, int], tuple[str, str | None]]
    _in_flight: dict[tuple[int, int], list[asyncio.Event]]

    async def _timely(
        self, interaction: discord.Interaction[Any], work: Awaitable[T], *, update: bool
    ) -> T:
        """Await ``work``; if it is not done ``config.defer_after`` after the interaction was
        created, defer the interaction first so that Discord does not give up on it."""
        task = asyncio.ensure_future(work)
        # Discord's 3 seconds run from the interaction's creation: a handler that starts
        # late (a busy loop) has less than ``defer_after`` left. A clock behind Discord's
        # (a negative age) gives it no more than ``defer_after``.
        age = max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())
        done, _ = await asyncio.wait({task}, timeout=max(0.0, self.config.defer_after - age))
        if not done and not interaction.response.is_done():
            try:
                if update:
                    await interaction.response.defer()  # a click: the clicked message is edited
                else:
                    # A command: a private "thinking…" that becomes the answer (or the refusal).
                    await interaction.response.defer(ephemeral=True, thinking=True)
            except DISCORD_FAILED as e:
                # The work goes on whatever Discord said: the answer after it says what
                # counted (or, refused too, the refusal's handler does).
                if not isinstance(e, discord.HTTPException):
                    interaction.extras[MAYBE_DEFERRED] = True
                log.warning(
                    "the deferral of the answer to user %s did not go through (%s)",
                    interaction.user.id,
                    failure_text(e),
                )
        return await task

    def _started(self, interaction: discord.Interaction[Any]) -> None:
        if self.stats is not None:
            interaction.extras[_T0] = time.perf_counter()

    def _about_to_respond(self, interaction: discord.Interaction[Any]) -> None:
        t0 = interaction.extras.get(_T0)
        if self.stats is not None and t0 is not None and "wizard_sent" not in interaction.extras:
            interaction.extras["wizard_sent"] = True
            self.stats.processing.append(time.perf_counter() - t0)

    def _responded(self, interaction: discord.Interaction[Any]) -> None:
        t0 = interaction.extras.pop(_T0, None)
        if self.stats is not None and t0 is not None:
            self.stats.total.append(time.perf_counter() - t0)

    async def _edit_clicked(
        self,
        interaction: discord.Interaction[Any],
        *,
        content: str | None = None,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        """Answer by editing the message that was clicked (after a deferral too)."""
        fields: dict[str, Any] = {"view": view}
        if content is not None:
            fields["content"] = content
        if embed is not None:
            fields["embed"] = embed
        self._about_to_respond(interaction)
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.edit_message(**fields)
        self._responded(interaction)

    async def _send_private(
        self,
        interaction: discord.Interaction[Any],
        content: str,
        view: discord.ui.View | None = None,
    ) -> int | None:
        """Answer with a new ephemeral message (after a deferral too); its id, if known."""
        self._about_to_respond(interaction)
        extra: dict[str, Any] = {} if view is None else {"view": view}
        message_id: int | None
        if interaction.response.is_done():
            sent = await interaction.followup.send(content, ephemeral=True, wait=True, **extra)
            message_id = sent.id
        else:
            message_id = await answer_message(interaction, content=content, ephemeral=True, **extra)
        self._responded(interaction)
        return message_id

    async def repair_after_refusal(
        self, interaction: discord.Interaction[Any], cid: CustomId
    ) -> None:
        """Discord refused a request made for the click ``cid``: undo what nobody can see (a
        "Play again" lobby whose message never went out), so that trying again works; and
        since what the click did may be missing from the message it was to edit (the lobby,
        the table, the player's hand), bring the game's messages up to date."""
        self.surfaces.request(self.surfaces.get(cid.game))
        self.surfaces.redraw_hand(cid.game, interaction.user.id)
        if cid.verb is Verb.AGAIN:
            dropped = await drop_unseen_lobby(
                self.service, interaction.channel_id, interaction.user.id
            )
            if dropped is not None:
                log.info("game %s: its lobby never reached Discord; cancelled", dropped)

    async def _refuse(self, interaction: discord.Interaction[Any], error: ServiceError) -> None:
        self._about_to_respond(interaction)
        await refuse(interaction, error)
        self._responded(interaction)

    async def _remember_done(
        self, interaction: discord.Interaction[Any], cid: CustomId, update: GameUpdate
    ) -> tuple[str | None, Theme]:
        """Remember the user's applied click ``cid`` (a double click is answered like it);
        the note saying what they did, and the server's card theme it was written in (the one
        the update carries, or read once: the hand drawn next uses it too)."""
        key = (cid.game, interaction.user.id)
        # Known at once (before anything can yield), so that a second click of a double
        # click answered meanwhile is taken for what it is, not for a refusal.
        self._done[key] = (cid.format(), None)
        self._done.move_to_end(key)
        while len(self._done) > DONE_KEPT:
            self._done.popitem(last=False)
        if update.settings is not None and interaction.guild_id is not None:
            theme = update.settings.theme  # the settings the move was made under
        else:
            _, theme = await public_look(self.service, interaction.guild_id)
        note = _done_note(update, t=await reader_texts(interaction), theme=theme)
        if self._done.get(key, ("",))[0] == cid.format():
            self._done[key] = (cid.format(), note)
        # Should Discord refuse the answer, the player is still told what counted.
        interaction.extras[DONE_NOTE] = note
        return note, theme

    @contextlib.asynccontextmanager
    async def _clicking(
        self, game_id: int, user_id: int, *, after_others: bool = False
    ) -> AsyncIterator[None]:
        """A click of ``user_id`` in ``game_id`` under way: their other clicks in it that
        are refused meanwhile wait for it (:meth:`_click_done`). With ``after_others`` it
        runs only once their clicks already under way are done (a second "Yes, leave"
        finds the seat left by the first)."""
        key = (game_id, user_id)
        flights = self._in_flight.setdefault(key, [])
        earlier = list(flights) if after_others else []
        flight = asyncio.Event()
        flights.append(flight)
        try:
            for other in earlier:
                await other.wait()
            yield
        finally:
            flight.set()
            flights.remove(flight)
            if not flights:
                del self._in_flight[key]

    async def _click_done(
        self, interaction: discord.Interaction[Any], cid: CustomId, error: ServiceError
    ) -> tuple[str, str | None] | None:
        """The user's applied click that the refused ``cid`` goes with, and its note: the
        same button (a double click), or another of the same picture, refused as stale or,
        a hidden or secret bid, as already made (QA: two cards, or two bids, tapped at once:
        "moved on" replaced "You played G13", and a hidden bid's "You bid 0" went).
        Looked up once their other clicks in the game still under way are done; ``None``
        for a refusal of its own."""
        key = (cid.game, interaction.user.id)
        flights = list(self._in_flight.get(key, ()))
        if flights:  # deferred if they take long (Discord slow to take their answers)
            waits = asyncio.gather(*(flight.wait() for flight in flights))
            await self._timely(interaction, waits, update=True)
        done = self._done.get(key)
        if done is None or done[0] == cid.format():
            return done
        late = isinstance(error, StaleVersionError) or error.code == "already_bid"
        return done if late and _same_picture(done[0], cid) else None

    @staticmethod
    def _again_note(done: tuple[str, str | None], cid: CustomId, t: Texts) -> str:
        """What a click that went with an applied one (:meth:`_click_done`) is answered: what
        the first did and, to a press of another button, that it did not count (player QA:
        "You bid 1." to a press of 0 read as if the bot had misread it)."""
        note = done[1] or "✅ " + t("Already done.")
        if done[0] != cid.format():
            note += "\nℹ️ " + t("Only the first button you pressed counts.")
        return note
