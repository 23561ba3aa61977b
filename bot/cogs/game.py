"""The game cog: ``/wizard new|cancel|kick|rules`` and every click on a Wizard button.

A click takes one path (DESIGN.md, "One click, end to end"): the button's custom id is parsed
by its ``DynamicItem`` and handed to :meth:`GameCog.on_component`, which calls the service
once, answers the interaction once (usually by editing the message clicked) and hands the
service's update to :class:`~bot.cogs.surfaces.Surfaces`, which brings the public messages
and the other players' hands up to date in the background. Background updates (computer
moves, turn timeouts, lobby expiry) reach the same place through the service's listener.
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
from bot.cogs.replies import STALE, refusal_text, refuse, reply_private
from bot.cogs.surfaces import Surfaces, lobby_embed_of, table_embed_of
from bot.render import (
    cancelled_embed,
    card_text,
    rules_text,
    suit_text,
)
from bot.ui.custom_ids import CustomId, Verb
from bot.ui.views import lobby_view, table_view
from wizard.options import Bidding, Options
from wizard.service import (
    Clock,
    GameInfo,
    GameService,
    GameStatus,
    GameStatusError,
    GameUpdate,
    MakeBid,
    Move,
    NameTrump,
    NotSeatedError,
    PlayCard,
    PlayHiddenCard,
    ServiceError,
    StaleVersionError,
)
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
    ) -> None:
        """Answer with a new ephemeral message (after a deferral too)."""
        self._about_to_respond(interaction)
        extra: dict[str, Any] = {} if view is None else {"view": view}
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True, **extra)
        else:
            await interaction.response.send_message(content, ephemeral=True, **extra)
        self._responded(interaction)

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
            if cid.verb in _HAND_VERBS:
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
            embed = cancelled_embed(info.id, "empty")
            self.surfaces.note_cancelled(self.surfaces.adopt(info), embed)
            await self._edit_clicked(interaction, embed=embed, view=None)
            return
        if info.status is GameStatus.ACTIVE:
            # Leaving a running game hands the seat to a computer player.
            self.surfaces.request(self.surfaces.adopt(info))
            await self._send_private(
                interaction, "🤖 A computer player now plays your seat. Open your hand to return."
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

    async def _show_lobby(self, interaction: discord.Interaction[Any], info: GameInfo) -> None:
        await self._edit_clicked(
            interaction, embed=lobby_embed_of(info), view=lobby_view(info.id, info.version)
        )

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
                embed = table_embed_of(info)
                await self._edit_clicked(
                    interaction, embed=embed, view=table_view(info.id, info.version)
                )
                # Not before the edit succeeded: if it failed, the sync task edits it again.
                self.surfaces.note_table(surface, message.id, embed)
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
        reason = "host" if user == info.host_id else "manager"
        embed = cancelled_embed(info.id, reason)
        surface = self.surfaces.adopt(info)
        self.surfaces.note_cancelled(surface, embed)
        await self._edit_clicked(interaction, embed=embed, view=None)
        self.surfaces.refresh_hands(info.id, None)

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
        """Show the player's hand: a new ephemeral message, or the clicked hand redrawn.

        Only a private message is ever redrawn as a hand: a hand button on a public message
        (which the bot never draws) gets a new private message instead.
        """
        user = interaction.user.id
        content, view, seat = await self.surfaces.hand_parts(game_id, user, note)
        clicked = interaction.message
        if edit and clicked is not None and clicked.flags.ephemeral:
            await self._edit_clicked(interaction, content=content, view=view)
        else:
            await self._send_private(interaction, content, view)
        self.surfaces.remember_hand(game_id, user, seat, interaction, (content, view))

    async def _act(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        move = _move_of(cid)
        user = interaction.user.id
        update = await self._timely(
            interaction,
            self.service.act(cid.game, user, move, cid.version, request_id=str(interaction.id)),
            update=True,
        )
        # Recorded before anything else can run, so that the updates of the computer moves
        # that follow this one are rendered after it.
        self.surfaces.after_update(update, actor_user_id=user)
        note = _done_note(update)
        self._done[(cid.game, user)] = (cid.format(), note)
        self._done.move_to_end((cid.game, user))
        while len(self._done) > DONE_KEPT:
            self._done.popitem(last=False)
        await self._open_hand(interaction, cid.game, note=note, edit=True)

    async def _take_back(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        user = interaction.user.id
        update = await self._timely(
            interaction, self.service.take_back(cid.game, user), update=True
        )
        self.surfaces.after_update(update, actor_user_id=user)
        await self._open_hand(
            interaction, cid.game, note="🙋 You are playing your seat again.", edit=True
        )

    async def _hand_refused(
        self, interaction: discord.Interaction[Any], cid: CustomId, error: ServiceError
    ) -> None:
        """A refused click on a hand: the hand is redrawn as it is now, the reason on top
        (a stale click gets the current hand instead, as the issue asks)."""
        done = self._done.get((cid.game, interaction.user.id))
        if isinstance(error, StaleVersionError) and done is not None and done[0] == cid.format():
            note: str | None = done[1]  # a double click: the first click did it
        elif isinstance(error, StaleVersionError):
            note = STALE
        elif isinstance(error, GameStatusError):
            note = None  # the redrawn hand says that the game is over or cancelled
        else:
            note = refusal_text(error)
        try:
            await self._open_hand(interaction, cid.game, note=note, edit=True)
        except ServiceError:
            await self._refuse(interaction, error)

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
    }

    # --- slash commands (registered by bot.cogs.commands) ---------------------------------------

    async def new_game(
        self,
        interaction: discord.Interaction[Any],
        *,
        choices: dict[str, Any],
        turn_timer: int | None,
    ) -> None:
        """``/wizard new``: open a lobby; what the host leaves out comes from the server."""
        self._started(interaction)
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            await reply_private(interaction, "Wizard games are played in server channels.")
            return
        try:
            settings = await self.service.get_settings(guild_id)
            chosen = {k: v for k, v in choices.items() if v is not None}
            options = Options.model_validate({**settings.default_options.model_dump(), **chosen})
            timer: dict[str, Any] = {}
            if turn_timer is not None:
                timer["turn_seconds"] = None if turn_timer == 0 else float(turn_timer)
            seed = self.config.seeds() if self.config.seeds is not None else None
            info = await self._timely(
                interaction,
                self.service.create_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=interaction.user.id,
                    host_name=interaction.user.display_name,
                    options=options,
                    seed=seed,
                    **timer,
                ),
                update=False,
            )
        except ServiceError as error:
            await self._refuse(interaction, error)
            return
        self._about_to_respond(interaction)
        embed, view = lobby_embed_of(info), lobby_view(info.id, info.version)
        if interaction.response.is_done():
            # Deferred (privately): the lobby goes to the channel as a message of its own.
            channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
            message = await channel.send(embed=embed, view=view)
            message_id: int | None = message.id
            await interaction.edit_original_response(content=f"✅ Game {info.id} is open below.")
        else:
            response = await interaction.response.send_message(embed=embed, view=view)
            message_id = response.message_id
        self._responded(interaction)
        self.surfaces.adopt(info).lobby_id = message_id
        await self.service.set_message_ids(info.id, lobby_message_id=message_id)

    async def _channel_game(self, interaction: discord.Interaction[Any]) -> GameInfo | None:
        channel_id = interaction.channel_id
        if channel_id is None:
            return None
        return await self.service.game_in_channel(channel_id)

    async def cancel_game(self, interaction: discord.Interaction[Any]) -> None:
        """``/wizard cancel``: cancel this channel's game (host or server manager)."""
        self._started(interaction)
        game = await self._channel_game(interaction)
        if game is None:
            await reply_private(interaction, "ℹ️ There is no open Wizard game in this channel.")
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
        await reply_private(interaction, f"🛑 Game {info.id} is cancelled.")

    async def kick(self, interaction: discord.Interaction[Any], player: discord.abc.User) -> None:
        """``/wizard kick``: remove a player (host or server manager)."""
        self._started(interaction)
        game = await self._channel_game(interaction)
        if game is None:
            await reply_private(interaction, "ℹ️ There is no open Wizard game in this channel.")
            return
        seat = game.seat_of(player.id)
        try:
            if seat is None:
                raise NotSeatedError(f"{player.display_name} is not playing in this game")
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
        name = discord.utils.escape_markdown(player.display_name)
        if info.status is GameStatus.ACTIVE:
            assert seat is not None
            self.surfaces.refresh_hands(info.id, [seat])
            text = f"👋 {name} is out of game {info.id}; a computer player takes their seat."
        else:
            text = f"👋 {name} is no longer in the lobby of game {info.id}."
        await reply_private(interaction, text)

    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """``/wizard rules``: the rules in short and the options of this channel's game."""
        self._started(interaction)
        game = await self._channel_game(interaction)
        if game is not None:
            options, players, timer = game.options, len(game.seats), game.turn_seconds
            where = f"Game {game.id} in this channel"
        else:
            guild_id = interaction.guild_id
            settings = await self.service.get_settings(guild_id) if guild_id else None
            options = settings.default_options if settings else Options()
            players, timer = None, settings.turn_seconds if settings else None
            where = "No game in this channel yet; a new game starts with the server's defaults"
        text = rules_text(
            options,
            players=players if players and players >= 3 else None,
            turn_seconds=timer,
        )
        await reply_private(interaction, f"*{where}.*\n{text}")


_HAND_VERBS = frozenset({Verb.BID, Verb.PLAY, Verb.TRUMP, Verb.PLAYHIDDEN, Verb.TAKEBACK})


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


def _done_note(update: GameUpdate) -> str | None:
    """What the player just did, for the top of their redrawn hand."""
    action = update.action
    if update.duplicate:
        return "✅ Already done."
    if isinstance(action, Bid):
        return f"✅ You bid {action.bid}."
    if isinstance(action, Play):
        return f"✅ You played {card_text(action.card)}."
    if isinstance(action, ChooseTrump):
        return f"✅ You chose {suit_text(action.suit)} as trump."
    return None


def bidding_label(bidding: Bidding) -> str:
    """How a bidding mode reads in a command's choices."""
    return {
        Bidding.OPEN: "open: everyone sees each bid (R4.2)",
        Bidding.HIDDEN: "hidden: all bids shown together (R7.2)",
        Bidding.SECRET: "secret: bids shown when the round is scored (R7.3)",
    }[bidding]
