"""The game cog: ``/wizard new|cancel|kick|rules`` and every click on a Wizard button.

A click takes one path (DESIGN.md, "One click, end to end"): the button's custom id is parsed
by its ``DynamicItem`` and handed to :meth:`GameCog.on_component`, which calls the service
once, answers the interaction once (usually by editing the message clicked) and hands the
service's update to :class:`~bot.cogs.surfaces.Surfaces`, which brings the public messages
and the other players' hands up to date in the background. Background updates (computer
moves, turn timeouts, lobby expiry) reach the same place through the service's listener.

Replies to one member (refusals, notes, hands) speak that member's Discord locale
(``texts(interaction.locale)``); what the channel shows speaks the server's language
(:func:`~bot.cogs.surfaces.public_look`).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

import discord
from discord.ext import commands

from bot.cogs.config import GameConfig
from bot.cogs.homes import GameHome, game_home, public_theme
from bot.cogs.replies import STALE, refusal_of, refusal_text, refuse, reply_private
from bot.cogs.surfaces import Surfaces, lobby_embed_of, public_look, table_parts
from bot.features.lobby import cancelled_embed, invitation_text, lobby_view_of
from bot.features.rules import rules_text
from bot.i18n import N_, Texts, texts
from bot.ui.custom_ids import CustomId, Verb
from bot.vocabulary import card_text, suit_text
from wizard.cards import Theme
from wizard.errors import OptionsError
from wizard.options import MIN_PLAYERS, Bidding, Options, check_setup
from wizard.service import (
    Clock,
    GameInfo,
    GameNotFoundError,
    GameService,
    GameStatus,
    GameStatusError,
    GameUpdate,
    InvalidOptionsError,
    InvalidSettingsError,
    MakeBid,
    Move,
    NameTrump,
    NotSeatedError,
    PlayCard,
    PlayHiddenCard,
    ServiceError,
    StaleVersionError,
)
from wizard.service.settings import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from wizard.state import Bid, ChooseTrump, Play

log = logging.getLogger(__name__)

T = TypeVar("T")

_SUBSCRIPTIONS: weakref.WeakKeyDictionary[GameService, Callable[[], None]] = (
    weakref.WeakKeyDictionary()
)
"""The listener each service feeds: a new cog on the same service (after a restart of the
bot in the same process) replaces the old one, so that no update is rendered twice."""

_T0 = "wizard_t0"
DONE_KEPT = 10_000
"""Players' last clicks remembered for answering double clicks (a few per running game)."""


@dataclass
class ClickStats:
    """How long clicks took inside the bot, from the handler's start to the response."""

    processing: deque[float] = field(default_factory=lambda: deque(maxlen=100_000))
    """Seconds of our own work before the response was sent (service call, rendering)."""
    total: deque[float] = field(default_factory=lambda: deque(maxlen=100_000))
    """Seconds until the response call returned (adds Discord's, or SimCord's, handling)."""
    clicks: int = 0


def _interaction_user_is_manager(interaction: discord.Interaction[Any]) -> bool:
    return bool(interaction.permissions.manage_guild)


class GameCog(commands.Cog):
    """Lobbies, tables and hands of Wizard games, for the service given."""

    def __init__(
        self,
        bot: discord.Client,
        service: GameService,
        *,
        clock: Clock,
        config: GameConfig | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.clock = clock
        self.config = config or GameConfig()
        self.surfaces = Surfaces(bot, service, clock, self.config)
        self.stats = ClickStats()
        self._done: OrderedDict[tuple[int, int], tuple[str, str | None]] = OrderedDict()
        """(game, user) → the custom id of the user's last applied click and its note: a
        second click on the same button (a double click) is answered like the first."""
        self._in_flight: dict[tuple[int, int, str], asyncio.Event] = {}
        """(game, user, custom id) of a move being made → set once it is done or refused: a
        second click of it waits for the first before it is answered."""

    async def cog_load(self) -> None:
        """Receive the service's background updates (replacing an earlier cog's listener)."""
        previous = _SUBSCRIPTIONS.pop(self.service, None)
        if previous is not None:
            previous()
        _SUBSCRIPTIONS[self.service] = self.service.subscribe(self._on_background)

    async def cog_unload(self) -> None:
        """Stop receiving updates."""
        unsubscribe = _SUBSCRIPTIONS.get(self.service)
        if unsubscribe is not None:
            unsubscribe()
            del _SUBSCRIPTIONS[self.service]

    async def _on_background(self, update: GameUpdate) -> None:
        # Called inside the service's clock task: record and return, the edits run elsewhere.
        self.surfaces.after_update(update)

    # --- answering within Discord's 3 seconds ----------------------------------------------

    async def _timely(
        self, interaction: discord.Interaction[Any], work: Awaitable[T], *, update: bool
    ) -> T:
        """Await ``work``; if it takes longer than ``config.defer_after``, defer the
        interaction first so that Discord does not give up on it."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=self.config.defer_after)
        if not done and not interaction.response.is_done():
            if update:
                await interaction.response.defer()  # a click: the clicked message is edited
            else:
                # A command: a private "thinking…" that becomes the answer (or the refusal).
                await interaction.response.defer(ephemeral=True, thinking=True)
        return await task

    def _started(self, interaction: discord.Interaction[Any]) -> None:
        interaction.extras[_T0] = time.perf_counter()

    def _about_to_respond(self, interaction: discord.Interaction[Any]) -> None:
        t0 = interaction.extras.get(_T0)
        if t0 is not None and "wizard_sent" not in interaction.extras:
            interaction.extras["wizard_sent"] = True
            self.stats.processing.append(time.perf_counter() - t0)

    def _responded(self, interaction: discord.Interaction[Any]) -> None:
        t0 = interaction.extras.pop(_T0, None)
        if t0 is not None:
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
            response = await interaction.response.send_message(content, ephemeral=True, **extra)
            message_id = response.message_id
        self._responded(interaction)
        return message_id

    async def _refuse(self, interaction: discord.Interaction[Any], error: ServiceError) -> None:
        self._about_to_respond(interaction)
        await refuse(interaction, error)
        self._responded(interaction)

    # --- clicks -------------------------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """Answer one click on a Wizard button (the bot's component handler)."""
        self._started(interaction)
        self.stats.clicks += 1
        handler = self._handlers[cid.verb]
        try:
            await handler(self, interaction, cid)
        except ServiceError as error:
            if _on_table(interaction, cid):
                await self._table_refused(interaction, cid, error)
            elif cid.verb in _HAND_VERBS:
                await self._hand_refused(interaction, cid, error)
            else:
                await self._refuse(interaction, error)

    async def _join(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        user = interaction.user
        info = await self._timely(
            interaction, self.service.join(cid.game, user.id, user.display_name), update=True
        )
        await self._show_lobby(interaction, info)

    async def _leave(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        info = await self._timely(
            interaction, self.service.leave(cid.game, interaction.user.id), update=True
        )
        if info.status is GameStatus.CANCELLED:
            await self._show_cancelled(interaction, info, "empty")
            return
        if info.status is GameStatus.ACTIVE:
            # Leaving a running game hands the seat to a computer player.
            self.surfaces.request(self.surfaces.adopt(info))
            t = texts(interaction.locale)
            await self._send_private(
                interaction,
                "🤖 " + t("A computer player now plays your seat. Open your hand to return."),
            )
            return
        await self._show_lobby(interaction, info)

    async def _addbot(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        info = await self._timely(
            interaction,
            self.service.add_computer(
                cid.game, interaction.user.id, is_manager=_interaction_user_is_manager(interaction)
            ),
            update=True,
        )
        await self._show_lobby(interaction, info)

    async def _level(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        seat, level = cid.seat_level
        info = await self._timely(
            interaction,
            self.service.set_computer_level(
                cid.game,
                interaction.user.id,
                level,
                seat=seat,
                is_manager=_interaction_user_is_manager(interaction),
            ),
            update=True,
        )
        await self._show_lobby(interaction, info)

    async def _show_lobby(self, interaction: discord.Interaction[Any], info: GameInfo) -> None:
        """The clicked lobby redrawn (public: in the server's language)."""
        await self._edit_clicked(interaction, **await self._lobby_parts(info))

    async def _show_cancelled(
        self, interaction: discord.Interaction[Any], info: GameInfo, reason: str
    ) -> None:
        """The clicked lobby or table becomes the cancellation; the game's thread retires."""
        t, _ = await public_look(self.service, info.guild_id)
        embed = cancelled_embed(info.id, reason, t=t)
        surface = self.surfaces.adopt(info)
        self.surfaces.note_cancelled(surface, embed)
        await self._edit_clicked(interaction, embed=embed, view=None)
        self.surfaces.refresh_hands(info.id, None)
        await self.surfaces.retire(surface)

    async def _start(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        update = await self._timely(
            interaction,
            self.service.start(
                cid.game, interaction.user.id, is_manager=_interaction_user_is_manager(interaction)
            ),
            update=True,
        )
        message = interaction.message
        assert message is not None
        # The lobby message becomes the table: one edit, and the table's id is the lobby's.
        # The surface is set up and locked before anything can yield, so that computer moves
        # made meanwhile are rendered after (and on top of) this edit.
        surface = self.surfaces.get(cid.game)
        surface.loaded = True
        surface.channel_id = interaction.channel_id
        surface.guild_id = interaction.guild_id
        surface.lobby_id = surface.table_id = message.id
        try:
            async with surface.lock:
                self.surfaces.after_update(update)
                info = await self.service.get_game(cid.game)
                surface.open_bidding = info.options.bidding is Bidding.OPEN
                t, theme = await public_look(self.service, info.guild_id)
                embed, view = table_parts(info, t=t, theme=theme)
                # A "Play again" lobby's invitation is no part of the table.
                content = "" if message.content else None
                await self._edit_clicked(interaction, content=content, embed=embed, view=view)
                # Not before the edit succeeded: if it failed, the sync task edits it again.
                self.surfaces.note_table(surface, message.id, embed, view)
        finally:
            await self.service.set_message_ids(cid.game, table_message_id=message.id)

    async def _cancel(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        user = interaction.user.id
        info = await self._timely(
            interaction,
            self.service.cancel(
                cid.game, user, is_manager=_interaction_user_is_manager(interaction)
            ),
            update=True,
        )
        await self._show_cancelled(interaction, info, "host" if user == info.host_id else "manager")

    async def _hand(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        await self._open_hand(interaction, cid.game, note=None, edit=False)

    async def _open_hand(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        *,
        note: str | None,
        edit: bool,
    ) -> None:
        """Show the player's hand (in their language): a new ephemeral message, or the clicked
        hand redrawn.

        Only a private message is ever redrawn as a hand: a hand button on a public message
        (which the bot never draws) gets a new private message instead.
        """
        user = interaction.user.id
        t = texts(interaction.locale)
        content, view, seat = await self.surfaces.hand_parts(game_id, user, note, t=t)
        clicked = interaction.message
        message_id: int | None
        if edit and clicked is not None and clicked.flags.ephemeral:
            await self._edit_clicked(interaction, content=content, view=view)
            message_id = clicked.id
        else:
            message_id = await self._send_private(interaction, content, view)
        self.surfaces.remember_hand(
            game_id, user, seat, interaction, (content, view), message_id=message_id
        )

    async def _act(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        move = _move_of(cid)
        user = interaction.user.id
        key = (cid.game, user, cid.format())
        # A second click of the same button while this one is under way (a double click)
        # waits for it, then is answered like it (see ``_click_done``).
        flight = None
        if key not in self._in_flight:
            flight = self._in_flight[key] = asyncio.Event()
        try:
            update = await self._timely(
                interaction,
                self.service.act(cid.game, user, move, cid.version, request_id=str(interaction.id)),
                update=True,
            )
            if _on_table(interaction, cid):
                await self._bid_on_table(interaction, cid, update)
                return
            # Recorded before anything else can run, so that the updates of the computer
            # moves that follow this one are rendered after it.
            self.surfaces.after_update(update, actor_user_id=user)
            note = await self._remember_done(interaction, cid, update)
            await self._open_hand(interaction, cid.game, note=note, edit=True)
        finally:
            if flight is not None:
                flight.set()
                del self._in_flight[key]

    async def _remember_done(
        self, interaction: discord.Interaction[Any], cid: CustomId, update: GameUpdate
    ) -> str | None:
        """Remember the user's applied click ``cid`` (a double click is answered like it);
        the note saying what they did."""
        key = (cid.game, interaction.user.id)
        # Known at once (before anything can yield), so that a second click of a double
        # click answered meanwhile is taken for what it is, not for a refusal.
        self._done[key] = (cid.format(), None)
        self._done.move_to_end(key)
        while len(self._done) > DONE_KEPT:
            self._done.popitem(last=False)
        _, theme = await public_look(self.service, interaction.guild_id)
        note = _done_note(update, t=texts(interaction.locale), theme=theme)
        if self._done.get(key, ("",))[0] == cid.format():
            self._done[key] = (cid.format(), note)
        return note

    async def _bid_on_table(
        self, interaction: discord.Interaction[Any], cid: CustomId, update: GameUpdate
    ) -> None:
        """An open bid made with the table's buttons: the response redraws the table in place
        (the next bidder's buttons), and that is the table edit of this move.

        The surface's lock is taken before anything can yield after the update is recorded:
        the sync task the update wakes then finds the table already showing the new state
        and edits nothing more (unless the state moves on meanwhile). A bid button on
        another public message (one the bot did not draw) gets a private note instead.
        """
        surface = self.surfaces.get(cid.game)
        async with surface.lock:
            # The bidder's own hand is not the message clicked: it is left to the usual rules.
            self.surfaces.after_update(update)
            note = await self._remember_done(interaction, cid, update)
            info = await self.service.get_game(cid.game)
            self.surfaces.adopt(info)
            message = interaction.message
            if message is None or message.id != surface.table_id or info.table is None:
                await self._send_private(interaction, note or "✅")
                return
            t, theme = await public_look(self.service, info.guild_id)
            embed, view = table_parts(info, t=t, theme=theme)
            await self._edit_clicked(interaction, embed=embed, view=view)
            self.surfaces.note_table(surface, message.id, embed, view)

    async def _table_refused(
        self, interaction: discord.Interaction[Any], cid: CustomId, error: ServiceError
    ) -> None:
        """A refused bid on the table: a private reply, and the table is left as it is (a
        double click is answered like the first click; a stale button says so)."""
        done = await self._click_done(interaction, cid)
        t = texts(interaction.locale)
        if isinstance(error, StaleVersionError) and done is not None and done[0] == cid.format():
            await self._send_private(interaction, done[1] or "✅ " + t("Already done."))
        elif isinstance(error, StaleVersionError):
            await self._send_private(interaction, t(STALE_TABLE))
        else:
            await self._refuse(interaction, error)

    async def _take_back(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        user = interaction.user.id
        update = await self._timely(
            interaction, self.service.take_back(cid.game, user), update=True
        )
        self.surfaces.after_update(update, actor_user_id=user)
        t = texts(interaction.locale)
        note = "🙋 " + t("You are playing your seat again.")
        await self._open_hand(interaction, cid.game, note=note, edit=True)

    async def _click_done(
        self, interaction: discord.Interaction[Any], cid: CustomId
    ) -> tuple[str, str | None] | None:
        """The user's last applied click in the game and its note, once a click of ``cid``
        still under way (the first of a double click) is done."""
        flight = self._in_flight.get((cid.game, interaction.user.id, cid.format()))
        if flight is not None:
            await flight.wait()
        return self._done.get((cid.game, interaction.user.id))

    async def _hand_refused(
        self, interaction: discord.Interaction[Any], cid: CustomId, error: ServiceError
    ) -> None:
        """A refused click on a hand: the hand is redrawn as it is now, the reason on top
        (a stale click gets the current hand instead, as the issue asks)."""
        done = await self._click_done(interaction, cid)
        t = texts(interaction.locale)
        if done is not None and done[0] == cid.format():
            # A repeated click of the move just made (a double click): not a refusal, the
            # hand as it is now, with what the first click did on top.
            note: str | None = done[1] or "✅ " + t("Already done.")
        elif refusal_of(error)[0] == "already_bid":
            note = None  # the bid was made (from another hand): the hand shows it as it is
        elif isinstance(error, StaleVersionError):
            note = t(STALE)
        elif isinstance(error, GameStatusError):
            note = None  # the redrawn hand says that the game is over or cancelled
        else:
            try:  # a suit is named as the table shows it
                theme = await public_theme(self.service, interaction.guild_id)
            except ServiceError:
                theme = Theme.CLASSIC
            note = refusal_text(error, t=t, theme=theme)
        try:
            await self._open_hand(interaction, cid.game, note=note, edit=True)
        except ServiceError:
            await self._refuse(interaction, error)

    async def _again(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """ "Play again" on final standings: a new lobby where game ``cid.game`` was played,
        with its options, its turn timer and its computers (same levels), the clicker as
        host and the people who played it mentioned, so that each joins with one click.
        Refused like ``/wizard new`` (e.g. a game is already open in the channel)."""
        old = await self.service.get_game(cid.game)
        channel_id = interaction.channel_id
        if old.guild_id != interaction.guild_id or channel_id is None:
            raise GameNotFoundError(cid.game)  # another server's game: nothing of it leaks
        user = interaction.user
        seed = self.config.seeds() if self.config.seeds is not None else None

        async def reopen() -> GameInfo:
            info = await self.service.create_game(
                guild_id=old.guild_id,
                channel_id=channel_id,
                host_id=user.id,
                host_name=user.display_name,
                options=old.options,
                turn_seconds=old.turn_seconds,
                seed=seed,
            )
            try:
                for seat in old.seats:
                    if seat.is_computer:
                        info = await self.service.add_computer(info.id, user.id, level=seat.level)
            except ServiceError:
                # A lobby without its computers is not the game asked for: none is left open.
                await self.service.cancel(info.id, user.id)
                raise
            return info

        info = await self._timely(interaction, reopen(), update=False)
        invited = [
            s.user_id
            for s in old.seats
            if s.user_id is not None and s.user_id != user.id and not s.kicked
        ]
        t, _ = await public_look(self.service, info.guild_id)
        lobby = await self._lobby_parts(info)
        lobby["content"] = invitation_text(info.id, old.id, [f"<@{uid}>" for uid in invited], t=t)
        # The text mentions only the invited people, so users=True pings exactly them (and
        # sends no list of ids, which Discord's description types as strings).
        lobby["allowed_mentions"] = discord.AllowedMentions(everyone=False, roles=False, users=True)
        self._about_to_respond(interaction)
        if interaction.response.is_done():  # deferred (privately): the lobby goes below
            channel = self.bot.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
            message = await channel.send(**lobby)
            message_id: int | None = message.id
            await interaction.edit_original_response(
                content=_here_text(texts(interaction.locale), info.id, None)
            )
        else:
            response = await interaction.response.send_message(**lobby)
            message_id = response.message_id
        self._responded(interaction)
        self.surfaces.adopt(info).lobby_id = message_id
        await self.service.set_message_ids(info.id, lobby_message_id=message_id)

    _handlers: ClassVar[
        dict[
            Verb,
            Callable[[GameCog, discord.Interaction[Any], CustomId], Awaitable[None]],
        ]
    ] = {
        Verb.JOIN: _join,
        Verb.LEAVE: _leave,
        Verb.ADDBOT: _addbot,
        Verb.START: _start,
        Verb.CANCEL: _cancel,
        Verb.HAND: _hand,
        Verb.BID: _act,
        Verb.PLAY: _act,
        Verb.TRUMP: _act,
        Verb.PLAYHIDDEN: _act,
        Verb.TAKEBACK: _take_back,
        Verb.AGAIN: _again,
        Verb.LEVEL: _level,
    }

    # --- slash commands (registered by bot.cogs.commands) ---------------------------------------

    async def new_game(
        self,
        interaction: discord.Interaction[Any],
        *,
        choices: dict[str, Any],
        turn_timer: int | None,
        level: str | None = None,
    ) -> None:
        """``/wizard new``: open a lobby; what the host leaves out comes from the server.

        With the server's ``threads`` setting the game gets a thread of its own (see
        :func:`bot.cogs.homes.game_home`): the host is told privately where, and the lobby is
        posted in the thread. The options are checked before, so that a refused game leaves
        no empty thread behind.
        """
        self._started(interaction)
        t = texts(interaction.locale)
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            await reply_private(interaction, t("Wizard games are played in server channels."))
            return
        try:
            settings = await self.service.get_settings(guild_id)
            options = _new_options(settings.default_options, choices)
            timer: dict[str, Any] = {}
            if turn_timer is not None:
                timer["turn_seconds"] = _turn_seconds(turn_timer)
            seed = self.config.seeds() if self.config.seeds is not None else None

            async def open_game() -> tuple[GameHome, GameInfo]:
                home = await game_home(interaction, settings)
                try:
                    info = await self.service.create_game(
                        guild_id=guild_id,
                        channel_id=home.channel_id,
                        host_id=interaction.user.id,
                        host_name=interaction.user.display_name,
                        options=options,
                        seed=seed,
                        # Stored with the lobby, so that it shows which level its button adds.
                        computer_level=level or settings.computer_level,
                        **timer,
                    )
                except ServiceError:
                    await _drop_thread(_opened_thread(home, channel_id))
                    raise
                return home, info

            home, info = await self._timely(interaction, open_game(), update=False)
        except ServiceError as error:
            await self._refuse(interaction, error)
            return
        message_id: int | None
        thread = _opened_thread(home, channel_id)
        if thread is not None:
            message_id = await self._lobby_in_thread(interaction, info, thread)
        else:
            message_id = await self._lobby_here(interaction, info, home.note)
        self.surfaces.adopt(info).lobby_id = message_id
        await self.service.set_message_ids(info.id, lobby_message_id=message_id)

    async def _lobby_parts(self, info: GameInfo) -> dict[str, Any]:
        """The lobby message of ``info`` (embed and buttons), in the server's language."""
        t, _ = await public_look(self.service, info.guild_id)
        return {"embed": lobby_embed_of(info, t=t), "view": lobby_view_of(info, t=t)}

    async def _lobby_here(
        self, interaction: discord.Interaction[Any], info: GameInfo, note: str | None
    ) -> int | None:
        """Post the lobby where the command was used (its answer, unless it was deferred);
        ``note`` (why there is no thread) goes to the host privately. The lobby's id."""
        lobby = await self._lobby_parts(info)
        message_id: int | None
        self._about_to_respond(interaction)
        if interaction.response.is_done():
            # Deferred (privately): the lobby goes to the channel as a message of its own.
            channel = self.bot.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
            message = await channel.send(**lobby)
            message_id = message.id
            await interaction.edit_original_response(
                content=_here_text(texts(interaction.locale), info.id, note)
            )
            self._responded(interaction)
        else:
            response = await interaction.response.send_message(**lobby)
            message_id = response.message_id
            self._responded(interaction)
            if note is not None:
                await interaction.followup.send(note, ephemeral=True)
        return message_id

    async def _lobby_in_thread(
        self, interaction: discord.Interaction[Any], info: GameInfo, thread: discord.Thread
    ) -> int:
        """Tell the host privately (in their language) where the game is, and post its lobby
        in its thread. The lobby's id."""
        t = texts(interaction.locale)
        # Translators: {thread} is a link to the game's own thread.
        text = "🧵 " + t("Game {game} is open in {thread}.", game=info.id, thread=thread.mention)
        self._about_to_respond(interaction)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text)
        else:
            await interaction.response.send_message(text, ephemeral=True)
        self._responded(interaction)
        message = await thread.send(**await self._lobby_parts(info))
        return message.id

    async def _channel_game(self, interaction: discord.Interaction[Any]) -> GameInfo | None:
        channel_id = interaction.channel_id
        if channel_id is None:
            return None
        return await self.service.game_in_channel(channel_id)

    async def cancel_game(self, interaction: discord.Interaction[Any]) -> None:
        """``/wizard cancel``: cancel this channel's game (host or server manager)."""
        self._started(interaction)
        game = await self._channel_game(interaction)
        t = texts(interaction.locale)
        if game is None:
            await reply_private(interaction, "ℹ️ " + t(NO_GAME))
            return
        user = interaction.user.id
        try:
            info = await self._timely(
                interaction,
                self.service.cancel(
                    game.id, user, is_manager=_interaction_user_is_manager(interaction)
                ),
                update=False,
            )
        except ServiceError as error:
            await self._refuse(interaction, error)
            return
        self.surfaces.cancelled(info.id, "host" if user == info.host_id else "manager")
        await reply_private(interaction, "🛑 " + t("Game {game} is cancelled.", game=info.id))

    async def kick(self, interaction: discord.Interaction[Any], player: discord.abc.User) -> None:
        """``/wizard kick``: remove a player (host or server manager)."""
        self._started(interaction)
        game = await self._channel_game(interaction)
        t = texts(interaction.locale)
        if game is None:
            await reply_private(interaction, "ℹ️ " + t(NO_GAME))
            return
        seat = game.seat_of(player.id)
        name = discord.utils.escape_markdown(player.display_name)
        try:
            if seat is None:
                raise NotSeatedError(t("{name} is not playing in this game", name=name))
            info = await self._timely(
                interaction,
                self.service.kick(
                    game.id,
                    interaction.user.id,
                    player.id,
                    is_manager=_interaction_user_is_manager(interaction),
                ),
                update=False,
            )
        except ServiceError as error:
            await self._refuse(interaction, error)
            return
        surface = self.surfaces.adopt(info)
        self.surfaces.request(surface)
        if info.status is GameStatus.ACTIVE:
            assert seat is not None
            self.surfaces.refresh_hands(info.id, [seat])
            text = t(
                "{name} is out of game {game}; a computer player takes their seat.",
                name=name,
                game=info.id,
            )
        else:
            text = t("{name} is no longer in the lobby of game {game}.", name=name, game=info.id)
        await reply_private(interaction, "👋 " + text)

    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """``/wizard rules``: the rules in short and the options of this channel's game (in
        the reader's language)."""
        self._started(interaction)
        t = texts(interaction.locale)
        game = await self._channel_game(interaction)
        if game is not None:
            options, players, timer = game.options, len(game.seats), game.turn_seconds
            where = t("Game {game} in this channel.", game=game.id)
        else:
            guild_id = interaction.guild_id
            settings = await self.service.get_settings(guild_id) if guild_id else None
            options = settings.default_options if settings else Options()
            players, timer = None, settings.turn_seconds if settings else None
            where = t("No game in this channel yet; a new game starts with the server's defaults.")
        text = rules_text(
            options,
            players=players if players and players >= MIN_PLAYERS else None,
            turn_seconds=timer,
            t=t,
        )
        await reply_private(interaction, f"*{where}*\n{text}")


NO_GAME = N_("There is no open Wizard game in this channel.")

_HAND_VERBS = frozenset({Verb.BID, Verb.PLAY, Verb.TRUMP, Verb.PLAYHIDDEN, Verb.TAKEBACK})

STALE_TABLE = N_(
    "🔄 This has moved on since that was shown: the table shows the bids as they are now."
)
"""The private reply to a bid clicked on a table that showed an earlier moment."""


def _on_table(interaction: discord.Interaction[Any], cid: CustomId) -> bool:
    """Whether ``cid`` is a bid clicked on a public message (the table), not in a hand."""
    message = interaction.message
    return cid.verb is Verb.BID and message is not None and not message.flags.ephemeral


def _move_of(cid: CustomId) -> Move:
    """The service move a hand button stands for."""
    if cid.verb is Verb.BID:
        return MakeBid(cid.bid)
    if cid.verb is Verb.PLAY:
        return PlayCard(cid.card)
    if cid.verb is Verb.TRUMP:
        return NameTrump(cid.suit)
    if cid.verb is Verb.PLAYHIDDEN:
        return PlayHiddenCard()
    raise ValueError(f"{cid.verb} is not a move")


def _done_note(update: GameUpdate, *, t: Texts, theme: Theme) -> str | None:
    """What the player just did, for the top of their redrawn hand."""
    action = update.action
    if update.duplicate:
        return "✅ " + t("Already done.")
    if isinstance(action, Bid):
        return "✅ " + t("You bid {bid}.", bid=action.bid)
    if isinstance(action, Play):
        return "✅ " + t("You played {card}.", card=card_text(action.card, theme, t=t))
    if isinstance(action, ChooseTrump):
        suit = suit_text(action.suit, theme, t=t)
        # Translators: {suit} is a suit with its emoji, e.g. “🟦 Humans (B)”.
        return "✅ " + t("You chose {suit} as trump.", suit=suit)
    return None


def _new_options(defaults: Options, choices: dict[str, Any]) -> Options:
    """The options of a new game: the server's defaults with the host's choices, refused
    (:class:`InvalidOptionsError`) as the service would refuse them, before anything is made
    for the game (its thread)."""
    chosen = {k: v for k, v in choices.items() if v is not None}
    try:
        options = Options.model_validate({**defaults.model_dump(), **chosen})
        check_setup(options, MIN_PLAYERS)
    except OptionsError as error:
        raise InvalidOptionsError.from_engine(error) from None
    except ValueError as error:  # pydantic's ValidationError
        raise InvalidOptionsError(str(error)) from None
    return options


class _TimerOutOfRange(InvalidSettingsError):
    """``/wizard new``'s turn timer out of range, with the params of the service's refusal
    (the reply is rendered from them, :mod:`bot.cogs.replies`)."""

    def __init__(self, seconds: int) -> None:
        super().__init__(f"A turn timer is {MIN_TURN_SECONDS:g} to {MAX_TURN_SECONDS:g} seconds")
        self.params = {
            "setting": "turn_seconds",
            "value": seconds,
            "min": int(MIN_TURN_SECONDS),
            "max": int(MAX_TURN_SECONDS),
        }


def _turn_seconds(turn_timer: int) -> float | None:
    """``/wizard new``'s turn timer in seconds (0: none), refused like the service would."""
    if turn_timer == 0:
        return None
    if not MIN_TURN_SECONDS <= turn_timer <= MAX_TURN_SECONDS:
        raise _TimerOutOfRange(turn_timer)
    return float(turn_timer)


def _here_text(t: Texts, game_id: int, note: str | None) -> str:
    """The host's private answer when the lobby was posted below (after a deferral)."""
    text = "✅ " + t("Game {game} is open below.", game=game_id)
    return text if note is None else f"{text}\n{note}"


def _opened_thread(home: GameHome, channel_id: int) -> discord.Thread | None:
    """The thread opened for the new game; ``None`` when it is played where the command
    was used (a channel, or a thread that already existed)."""
    thread = home.thread
    return thread if thread is not None and thread.id != channel_id else None


async def _drop_thread(thread: discord.Thread | None) -> None:
    """Delete a thread opened for a game the service then refused (it would stay empty)."""
    if thread is None:
        return
    try:
        await thread.delete()
    except discord.HTTPException as error:
        log.info("could not delete the unused thread %s: %s", thread.id, error)
