"""The game cog: ``/wizard new|cancel|kick|rules`` and every click on a Wizard button.

A click takes one path (DESIGN.md, "One click, end to end"): the button's custom id is parsed
once by the one ``DynamicItem`` of game buttons (:class:`bot.ui.buttons.GameButton`) and
handed to :meth:`GameCog.on_component`, which dispatches on its verb to the feature's clicks
(:class:`~bot.features.lobby.LobbyClicks`, :class:`~bot.features.table.TableClicks`,
:class:`~bot.features.hand.HandClicks`, :class:`~bot.features.seats.SeatClicks`,
:class:`~bot.features.hints.HintClicks`). The click calls the service once, answers the
interaction once (usually by editing the message clicked) and hands the
service's update to :class:`~bot.cogs.surfaces.Surfaces`, which brings the public messages
and the other players' hands up to date in the background. Background updates (computer
moves, turn timeouts, lobby expiry) reach the same place through the service's listener.

Replies to one member (refusals, notes, hands) speak that member's language
(:func:`~bot.i18n.reader_texts`); what the channel shows speaks the server's language
(:func:`~bot.cogs.look.public_look`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.clicks import ClickStats, answer_message, on_table, user_is_manager
from bot.cogs.config import GameConfig
from bot.cogs.homes import GameHome, game_home, games_thread, revive_home
from bot.cogs.look import hear_languages, public_look, server_settings
from bot.cogs.messages import (
    CHANNEL_DELETED,
    SERVER_LEFT,
    drop_deleted_lobby,
    drop_unseen_lobby,
    drop_vanished_lobby,
)
from bot.cogs.replies import refusal_text
from bot.cogs.surfaces import Surfaces
from bot.discord_faults import DISCORD_FAILED, failure_text
from bot.features.help import help_embed, public_buttons
from bot.features.hints import HintClicks
from bot.features.lobby import (
    CANCEL_REASONS,
    JOINED,
    LEFT,
    LobbyClicks,
    cancelled_by,
    invitation_text,
)
from bot.features.rules import rules_embed, rules_text
from bot.features.seat_notes import left_note, new_host, removed_note
from bot.features.seats import SeatClicks
from bot.features.summaries import and_list
from bot.features.table import show_hand_label
from bot.i18n import N_, VARIANT_NAMES, Texts, language_of, member_name, reader_texts, texts
from bot.ui.buttons import CustomId, Verb, button, detached_view, reply_privately
from bot.ui.layout import GREY, RED
from wizard.options import MIN_PLAYERS, Options, conflicts
from wizard.service import (
    ChannelBusyError,
    Clock,
    GameInfo,
    GameNotFoundError,
    GameService,
    GameStatus,
    GameUpdate,
    InvalidOptionsError,
    ServiceError,
    check_options,
    check_turn_seconds,
)

log = logging.getLogger(__name__)


_SUBSCRIPTIONS: weakref.WeakKeyDictionary[GameService, Callable[[], None]] = (
    weakref.WeakKeyDictionary()
)
"""The listener each service feeds: a new cog on the same service (after a restart of the
bot in the same process) replaces the old one, so that no update is rendered twice."""


NO_GAME = N_("There is no open Wizard game in this channel.")
MAX_THREADS_LOOKED_AT = 25
"""Threads of a channel searched for open games when a command finds none in the channel."""
# Translators: {threads} are links to threads of the channel, each a game's own.
NO_GAME_BUT_THREADS = N_(
    "There is no open Wizard game in this channel itself: its games are played in their own "
    "threads ({threads}). Use the command in the game's thread."
)
# Translators: the private question of /wizard cancel about a running game (a mistyped
# command must not throw the game away); its buttons: CANCEL_YES, CANCEL_NO.
CANCEL_ASKED = N_(
    "Cancel game {game}, in round {round} of {rounds}? It stops for everyone, and no result "
    "is recorded."
)
CANCEL_YES = N_("Cancel the game")
CANCEL_NO = N_("Keep playing")
CANCELLED_GAME = N_("Game {game} is cancelled.")
GOES_ON = N_("Game {game} goes on.")


_HAND_VERBS = frozenset({Verb.BID, Verb.PLAY, Verb.TRUMP, Verb.PLAYHIDDEN, Verb.TAKEBACK})


def _on_hand(interaction: discord.Interaction[Any]) -> bool:
    """Whether the click was on a private message (a hand: the bot sends no other buttons
    privately that share a verb with a public message)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _new_options(defaults: Options, choices: dict[str, Any]) -> Options:
    """The options of a new game: the server's defaults with the host's choices, refused
    (:class:`InvalidOptionsError`) as the service would refuse them, before anything is made
    for the game (its thread)."""
    chosen = {k: v for k, v in choices.items() if v is not None}
    try:
        options = Options.model_validate({**defaults.model_dump(), **chosen})
    except ValueError as error:  # pydantic's ValidationError
        raise InvalidOptionsError(str(error)) from None
    check_options(options, MIN_PLAYERS)
    return options


def defaults_in_clash(defaults: Options, choices: dict[str, Any], *, t: Texts) -> str | None:
    """The line that names the server's default variants the command left out and that
    clash with the rest of the options (each, set back to the plain game's, ends a
    conflict); ``None`` when the command chose every variant of the clash."""
    chosen = {k: v for k, v in choices.items() if v is not None}
    try:
        merged = Options.model_validate({**defaults.model_dump(), **chosen})
    except ValueError:  # a malformed choice (pydantic's ValidationError): no clash to name
        return None
    clashes = len(conflicts(merged))
    plain = Options()
    keys = [
        key
        for field, key in defaults.variants_on().items()
        if field not in chosen
        and len(conflicts(merged.model_copy(update={field: getattr(plain, field)}))) < clashes
    ]
    if not keys:
        return None
    names = and_list([t(VARIANT_NAMES[k]) for k in keys], t=t)
    # Translators: after the refusal of /wizard new's options, when variants that clash come
    # from the server's settings, not from the command; {variants}: their names.
    line = t.plural(
        "From this server's settings (the command did not choose it): {variants}. Choose "
        "otherwise in the command to play this game without it.",
        "From this server's settings (the command did not choose them): {variants}. Choose "
        "otherwise in the command to play this game without them.",
        len(keys),
        variants=names,
    )
    return "ℹ️ " + line


def _turn_seconds(turn_timer: int) -> float | None:
    """``/wizard new``'s turn timer in seconds (0: none), refused as the service refuses it."""
    return check_turn_seconds(turn_timer or None)


OPEN_BELOW = N_("Game {game} is open below.")
# Translators: the private answer to "Play again" pressed by a player already seated in the
# rematch's lobby, which another press opened (a message that may be above or below this one).
IN_REMATCH = N_("You are in game {game}: its lobby is open in this channel.")
# Translators: the answer to "Play again" pressed by someone who did not play that game.
REMATCH_FOR_PLAYERS = N_("Only the players of game {game} can open its rematch.")
# Translators: the answer to an older game's "Play again" pressed by a player of the game
# now running in the channel; {button} is the table's “Show my hand” (in bold).
PLAYING_HERE = N_(
    "You are playing game {game} in this channel: {button} on its table opens your hand."
)
# Translators: the answer to "Play again" pressed by a player the host removed from that game.
REMATCH_REFUSED = N_("You were removed from game {game}, so you cannot open its rematch.")


def _here_text(t: Texts, game_id: int, note: str | None) -> str:
    """The host's private answer when the lobby was posted below (after a deferral)."""
    text = "✅ " + t(OPEN_BELOW, game=game_id)
    return text if note is None else f"{text}\n{note}"


def _opened_thread(home: GameHome, channel_id: int) -> discord.Thread | None:
    """The thread opened for the new game; ``None`` when it is played where the command
    was used (a channel, or a thread that already existed)."""
    thread = home.thread
    return thread if thread is not None and thread.id != channel_id else None


async def _tell_host(
    interaction: discord.Interaction[Any], game_id: int, content: str, *, below: bool = False
) -> None:
    """Answer the host privately once the lobby is posted (the deferred answer edited, or a
    new private one; ``below``: a private message under the lobby that answered the
    command): a failure is logged, and the lobby everyone sees stays open (faults QA: a
    failed note below it cancelled it, as if nobody had seen it)."""
    try:
        if below:
            await interaction.followup.send(content, ephemeral=True)
        elif interaction.response.is_done():
            await interaction.edit_original_response(content=content)
        else:
            await interaction.response.send_message(content, ephemeral=True)
    except DISCORD_FAILED as error:
        log.warning(
            "game %s: its lobby is open, but the host's answer was not shown (%s)",
            game_id,
            failure_text(error),
        )


async def _drop_thread(thread: discord.Thread | None) -> None:
    """Delete a thread opened for a game the service then refused (it would stay empty)."""
    if thread is None:
        return
    try:
        await thread.delete()
    except DISCORD_FAILED as error:
        log.info("could not delete the unused thread %s: %s", thread.id, failure_text(error))


class GameCog(LobbyClicks, SeatClicks, HintClicks, commands.Cog):
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
        self.stats: ClickStats | None = None
        """Click timings, for a benchmark that sets it (``bench/bot.py``)."""
        self._done: OrderedDict[tuple[int, int], tuple[str, str | None]] = OrderedDict()
        """(game, user) → the custom id of the user's last applied click and its note: a
        second click on the same button (a double click) is answered like the first."""
        self._in_flight: dict[tuple[int, int], list[asyncio.Event]] = {}
        """(game, user, custom id) of a move being made → set once it is done or refused: a
        second click of it waits for the first before it is answered."""
        self._caught_up = False
        """Whether the recovered games' messages were brought up to date (at the first ready)."""

    async def cog_load(self) -> None:
        """Receive the service's background updates (replacing an earlier cog's listener)."""
        previous = _SUBSCRIPTIONS.pop(self.service, None)
        if previous is not None:
            previous()
        _SUBSCRIPTIONS[self.service] = self.service.subscribe(self._on_background)
        # What the last process had not shown of the recovered games' ends, before the
        # service's clocks start (bot.app): a round a computer ends meanwhile comes after it.
        for game_id in self.service.recovered:
            try:
                self.surfaces.owed(game_id, await self.service.owed_ends(game_id))
            except ServiceError as error:
                log.info("game %s: its ends are not shown: %s", game_id, error.message)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process, when connected: bring the messages of every game recovered at
        start up to date. A table edit lost in a restart (Discord refused it, or the process
        stopped before its retry) would otherwise wait for the game's next move."""
        if self._caught_up:
            return  # a reconnection: the edits in memory went on meanwhile
        self._caught_up = True
        # Every server discord.py knows, with its language, before the games are redrawn:
        # no server event may come first (QA: a new Italian server's table turned English).
        hear_languages(self.service, self.bot.guilds)
        await self._servers_left()
        for game_id in self.service.recovered:
            self.surfaces.request(self.surfaces.get(game_id))
        for game_id in self.service.recovered:
            try:
                await self.surfaces.restore_hands(game_id)
            except Exception:  # one game's hands must not keep the others' from coming back
                log.exception("game %s: the hands kept for a restart were not restored", game_id)

    async def _servers_left(self) -> None:
        """Cancel the recovered games of servers the bot was removed from while it was down
        (Discord's READY lists every server the bot is in, available or not; no
        GUILD_DELETE comes for a removal it missed)."""
        left: set[int] = set()
        for game_id in self.service.recovered:
            try:
                info = await self.service.get_game(game_id)
            except ServiceError:
                continue  # damaged or gone: reported by the service
            if self.bot.get_guild(info.guild_id) is None:
                left.add(info.guild_id)
        for guild_id in sorted(left):
            await self.surfaces.home_gone(SERVER_LEFT, guild_id=guild_id)

    # A game's home can go away under it; Discord says so under the ``guilds`` intent.
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its open games are cancelled (discord.py reports the
        threads it knew in the channel as deleted too)."""
        await self.surfaces.home_gone(CHANNEL_DELETED, channel_id=channel.id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A message was deleted: if it was a game's table, the table is posted again; if it
        was an open lobby, the lobby is cancelled (nobody can join it any more), and the
        channel told."""
        self.surfaces.messages_deleted({payload.message_id})
        await drop_deleted_lobby(self.bot, self.service, payload.channel_id, {payload.message_id})

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        """Messages were deleted at once: any game's table among them is posted again, an
        open lobby among them cancelled (and the channel told)."""
        self.surfaces.messages_deleted(payload.message_ids)
        await drop_deleted_lobby(self.bot, self.service, payload.channel_id, payload.message_ids)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted (known to the cache or not): its open games are cancelled,
        and its channel told of those that were being played."""
        await self.surfaces.thread_gone(payload.thread_id, payload.parent_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (kicked, banned, or the server deleted; not an
        outage): the server's open games are cancelled."""
        await self.surfaces.home_gone(SERVER_LEFT, guild_id=guild.id)

    async def cog_unload(self) -> None:
        """Stop receiving updates; the open hands say that they stopped updating."""
        unsubscribe = _SUBSCRIPTIONS.get(self.service)
        if unsubscribe is not None:
            unsubscribe()
            del _SUBSCRIPTIONS[self.service]
        await self.surfaces.close_hands()

    async def _on_background(self, update: GameUpdate) -> None:
        # Called inside the service's clock task: record and return, the edits run elsewhere.
        self.surfaces.after_update(update)

    async def on_component(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """Answer one click on a Wizard button (the bot's component handler)."""
        self._started(interaction)
        await reader_texts(interaction)  # known before the click changes anything
        try:
            if await self._elsewhere(interaction, cid.game):
                # Not this channel's game: the button outlived its own game, whose id a newer
                # one has (game ids start again after a restored or lost database).
                raise GameNotFoundError(cid.game, reason="other_channel")
            await self._handler(cid.verb)(interaction, cid)
        except ServiceError as error:
            if error.code == "game_damaged":  # found by this click, maybe: the table says so
                self.surfaces.request(self.surfaces.get(cid.game))
            if on_table(interaction, cid):
                await self._table_refused(interaction, cid, error)
            elif cid.verb in _HAND_VERBS or (cid.verb is Verb.LEAVE and _on_hand(interaction)):
                await self._hand_refused(interaction, cid, error)
            else:
                await self._refuse(interaction, error)

    async def _elsewhere(self, interaction: discord.Interaction[Any], game_id: int) -> bool:
        """Whether ``game_id`` is a game of another channel than the click's (known from the
        game's surface, else read; a game that cannot be read is the handler's to refuse, as
        is one whose channel is not known: 0, a damaged game's)."""
        surface = self.surfaces.known(game_id)
        channel = surface.channel_id if surface is not None else None
        if channel is None:
            try:
                channel = (await self.service.get_game(game_id)).channel_id
            except ServiceError:
                return False
        return bool(channel) and channel != interaction.channel_id

    def _handler(
        self, verb: Verb
    ) -> Callable[[discord.Interaction[Any], CustomId], Awaitable[None]]:
        """The method that answers a click of ``verb``."""
        return {
            Verb.JOIN: self._join,
            Verb.LEAVE: self._leave_clicked,
            Verb.ADDBOT: self._addbot,
            Verb.DROPBOT: self._dropbot,
            Verb.START: self._start,
            Verb.CANCEL: self._cancel_clicked,
            Verb.LEVEL: self._level,
            Verb.SEATTAKING: self._seat_taking,
            Verb.OPTIONS: self._options,
            Verb.TIMER: self._timer,
            Verb.HAND: self._hand,
            Verb.BID: self._act,
            Verb.PLAY: self._act,
            Verb.TRUMP: self._act,
            Verb.PLAYHIDDEN: self._act,
            Verb.TAKEBACK: self._take_back,
            Verb.TAKESEAT: self._take_seat,
            Verb.HINT: self._hint,
            Verb.AGAIN: self._again,
        }[verb]

    async def _leave_clicked(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """Leave: on a hand (a private message), the running game's seat goes to a computer;
        on the lobby, the seat is given up."""
        if _on_hand(interaction):
            await self._leave_game(interaction, cid)
        else:
            await self._leave(interaction, cid)

    async def _again(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """ "Play again" on final standings: a new lobby where game ``cid.game`` was played,
        with its options, its turn timer, its computers (same levels) and whether others may
        take their seats, the clicker as host and the people who played it mentioned (also
        one whose seat someone took over: ``GameService.players_of``), so that each joins
        with one click.
        With a lobby open in the channel already (pressed by two players, or twice), the
        presser takes a seat in it; a running game there refuses it like ``/wizard new``."""
        old = await self.service.get_game(cid.game)  # of this channel (see on_component)
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user
        # Who held a seat, also one someone took over (QA: refused, and not invited).
        people = await self.service.players_of(old.id)
        if people.get(user.id):  # removed by the host
            refused = (await reader_texts(interaction))(REMATCH_REFUSED, game=old.id)
            await self._send_private(interaction, "🚫 " + refused)
            return
        if user.id not in people and await self.service.game_in_channel(channel_id) is None:
            # Someone who did not play does not open a rematch in the players' name (the
            # rematch's lobby, once open, seats them as its Join would: below).
            refused = (await reader_texts(interaction))(REMATCH_FOR_PLAYERS, game=old.id)
            await self._send_private(interaction, "ℹ️ " + refused)
            return
        seed = self.config.seeds() if self.config.seeds is not None else None

        async def reopen() -> GameInfo:
            # The level its "Add computer player" adds, too: the old lobby's, as the lobby says.
            level = old.computer_level
            if level is None:
                level = (await self.service.get_settings(old.guild_id)).computer_level
            # Its computers are seated with the host in one write: a press of "Play again" or
            # "Join" at the same moment takes the seat after them.
            return await self.service.create_game(
                guild_id=old.guild_id,
                channel_id=channel_id,
                host_id=user.id,
                host_name=user.display_name,
                options=old.options,
                turn_seconds=old.turn_seconds,
                seed=seed,
                computer_level=level,
                computers=[s.level or level for s in old.seats if s.is_computer],
                computer_names=[s.name for s in old.seats if s.is_computer],
                allow_seat_taking=old.allow_seat_taking,
            )

        try:
            info = await self._timely(interaction, reopen(), update=False)
        except ChannelBusyError:
            # Pressed twice, or by two players: the lobby the first press opened is where
            # to go, not a refusal.
            here = await self.service.game_in_channel(channel_id)
            if here is None:
                raise
            t = await reader_texts(interaction)
            seat = here.seat_of(user.id)
            if (
                here.status is GameStatus.ACTIVE
                and seat is not None
                and not here.seats[seat].kicked
            ):
                # One of its players (QA: "watch it" was said to them), a computer holding
                # their seat or not: where their hand is (and "Take my seat back" with it).
                public = await server_settings(self.service, here.guild_id)
                button = f"**{show_hand_label(public.language)}**"
                await self._send_private(
                    interaction, "ℹ️ " + t(PLAYING_HERE, game=here.id, button=button)
                )
                return
            if here.status is not GameStatus.LOBBY:
                raise
            if seat is None:
                # They want to play again too: the lobby seats them, as its Join would.
                try:
                    joined = await self._timely(
                        interaction,
                        self.service.join(here.id, user.id, user.display_name),
                        update=False,
                    )
                except ServiceError as error:
                    # Seated by a press of theirs just before: told they are in it, as
                    # below. Any other refusal says why not: removed, full, or started.
                    if error.code != "already_seated":
                        await self._refuse(interaction, error)
                        return
                else:
                    self.surfaces.request(self.surfaces.adopt(joined))
                    await self.surfaces.invitation_answered(joined)
                    await self._send_private(interaction, "✅ " + t(JOINED, game=here.id))
                    return
            # Not "below": the lobby another press opened is not where this answer goes.
            await self._send_private(interaction, "✅ " + t(IN_REMATCH, game=here.id))
            return
        await revive_home(self.bot, interaction.channel)  # a finished game's thread: a day again
        invited = [uid for uid, removed in people.items() if not removed and uid != user.id]
        t, _ = await public_look(self.service, info.guild_id)
        lobby = await self._lobby_parts(info)
        lobby["content"] = invitation_text(
            info.id,
            old.id,
            [f"<@{uid}>" for uid in invited],
            t=t,
        )
        # The text mentions only the invited people, so users=True pings exactly them (and
        # sends no list of ids, which Discord's description types as strings).
        lobby["allowed_mentions"] = discord.AllowedMentions(everyone=False, roles=False, users=True)
        self._about_to_respond(interaction)
        if interaction.response.is_done():  # deferred (privately): the lobby goes below
            channel = self.bot.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
            message = await channel.send(**lobby)
            message_id: int | None = message.id
            await _tell_host(
                interaction,
                info.id,
                content=_here_text(await reader_texts(interaction), info.id, None),
            )
        else:
            message_id = await answer_message(interaction, **lobby)
        self._responded(interaction)
        self.surfaces.adopt(info).lobby_id = message_id
        await self.service.set_message_ids(info.id, lobby_message_id=message_id)

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
        t = await reader_texts(interaction)
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            await reply_privately(interaction, t("Wizard games are played in server channels."))
            return
        try:
            settings = await self.service.get_settings(guild_id)
            try:
                options = _new_options(settings.default_options, choices)
            except InvalidOptionsError as error:
                note = defaults_in_clash(settings.default_options, choices, t=t)
                text = refusal_text(error, t=t)
                self._about_to_respond(interaction)
                await reply_privately(interaction, text if note is None else f"{text}\n{note}")
                self._responded(interaction)
                return
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

            try:
                home, info = await self._timely(interaction, open_game(), update=False)
            except ChannelBusyError:
                # A lobby whose message was deleted gives way; one still seen keeps the channel.
                if await drop_vanished_lobby(self.bot, self.service, channel_id, guild_id) is None:
                    raise
                home, info = await self._timely(interaction, open_game(), update=False)
        except ServiceError as error:
            await self._refuse(interaction, error)
            return
        message_id: int | None
        thread = _opened_thread(home, channel_id)
        if home.channel_id == channel_id:  # opened inside a finished game's thread, maybe
            await revive_home(self.bot, interaction.channel)
        if thread is not None:
            message_id = await self._lobby_in_thread(interaction, info, thread)
        else:
            message_id = await self._lobby_here(interaction, info, home.note)
        self.surfaces.adopt(info).lobby_id = message_id
        await self.service.set_message_ids(info.id, lobby_message_id=message_id)

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
            await _tell_host(
                interaction,
                info.id,
                content=_here_text(await reader_texts(interaction), info.id, note),
            )
            self._responded(interaction)
        else:
            message_id = await answer_message(interaction, **lobby)
            self._responded(interaction)
            if note is not None:
                await _tell_host(interaction, info.id, note, below=True)
        return message_id

    async def _lobby_in_thread(
        self, interaction: discord.Interaction[Any], info: GameInfo, thread: discord.Thread
    ) -> int:
        """Post the game's lobby in its thread, then tell the host privately (in their
        language) where the game is: a lobby Discord refused takes its game and thread with
        it; an answer Discord refused leaves the lobby open. The lobby's id."""
        try:
            message = await thread.send(**await self._lobby_parts(info))
        except DISCORD_FAILED:
            await drop_unseen_lobby(self.service, thread.id, interaction.user.id)
            await _drop_thread(thread)
            raise
        t = await reader_texts(interaction)
        # Translators: {thread} is a link to the game's own thread.
        text = "🧵 " + t("Game {game} is open in {thread}.", game=info.id, thread=thread.mention)
        self._about_to_respond(interaction)
        await _tell_host(interaction, info.id, text)
        self._responded(interaction)
        return message.id

    async def _no_game(self, interaction: discord.Interaction[Any], t: Texts) -> str:
        """The answer of a command for this channel's game where there is none: on a server
        that plays in threads, the threads of the channel that hold open games (threads QA:
        "no open game" read as wrong, beside a game running in a thread of the channel)."""
        channel = interaction.channel
        threads = []
        if isinstance(channel, discord.TextChannel):
            # The bot's own threads first: those it opened for games.
            candidates = sorted(
                channel.threads, key=lambda thread: games_thread(self.bot, thread) is None
            )
            for thread in candidates[:MAX_THREADS_LOOKED_AT]:
                try:
                    if await self.service.game_in_channel(thread.id) is not None:
                        threads.append(thread.mention)
                except ServiceError:
                    break  # the plain answer, rather than none
        if threads:
            return "ℹ️ " + t(NO_GAME_BUT_THREADS, threads=", ".join(threads))
        return "ℹ️ " + t(NO_GAME)

    async def _channel_game(self, interaction: discord.Interaction[Any]) -> GameInfo | None:
        channel_id = interaction.channel_id
        if channel_id is None:
            return None
        return await self.service.game_in_channel(channel_id)

    async def cancel_game(self, interaction: discord.Interaction[Any]) -> None:
        """``/wizard cancel``: cancel this channel's game (host or server manager)."""
        self._started(interaction)
        game = await self._channel_game(interaction)
        t = await reader_texts(interaction)
        if game is None:
            answer = await self._timely(interaction, self._no_game(interaction, t), update=False)
            await reply_privately(interaction, answer)
            return
        user = interaction.user.id
        may = user == game.host_id or user_is_manager(interaction)
        if may and game.status is GameStatus.ACTIVE and game.table is not None:
            # A running game is asked about first (demo QA: a mistyped command threw a game
            # away at once); whoever may not cancel it is refused by the service, below.
            question = t(
                CANCEL_ASKED, game=game.id, round=game.table.round, rounds=game.table.num_rounds
            )
            view = detached_view()
            for arg, label, style in (("y", CANCEL_YES, RED), ("n", CANCEL_NO, GREY)):
                view.add_item(
                    button(CustomId(game.id, Verb.CANCEL, arg, 0), label=t(label), style=style)
                )
            await self._send_private(interaction, "🛑 " + question, view)
            return
        try:
            info = await self._timely(
                interaction,
                self.service.cancel(game.id, user, is_manager=user_is_manager(interaction)),
                update=False,
            )
        except ServiceError as error:
            await self._refuse(interaction, error)
            return
        self.surfaces.cancelled(info.id, cancelled_by(info, user))
        await reply_privately(interaction, "🛑 " + t(CANCELLED_GAME, game=info.id))

    async def _cancel_clicked(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """Cancel: the lobby's button, or the answer to ``/wizard cancel``'s question about a
        running game, which edits the question to say what was done."""
        if not cid.arg:
            await self._cancel(interaction, cid)
            return
        t = await reader_texts(interaction)
        user = interaction.user.id
        try:
            if cid.arg == "n":
                await self.service.running_game(cid.game, action="cancel")
                answer = "▶️ " + t(GOES_ON, game=cid.game)
            else:
                info = await self._timely(
                    interaction,
                    self.service.cancel(cid.game, user, is_manager=user_is_manager(interaction)),
                    update=True,
                )
                self.surfaces.cancelled(info.id, cancelled_by(info, user))
                answer = "🛑 " + t(CANCELLED_GAME, game=info.id)
        except ServiceError as error:
            # The question is answered with how things stand (the game ended, or another
            # cancelled it; the host role passed on), and keeps no buttons to press again.
            answer = refusal_text(error, t=t)
        await self._edit_clicked(interaction, content=answer)

    async def kick(self, interaction: discord.Interaction[Any], player: discord.abc.User) -> None:
        """``/wizard kick``: remove a player (host or server manager)."""
        self._started(interaction)
        game = await self._channel_game(interaction)
        t = await reader_texts(interaction)
        if game is None:
            answer = await self._timely(interaction, self._no_game(interaction, t), update=False)
            await reply_privately(interaction, answer)
            return
        seat = game.seat_of(player.id)
        name = member_name(player.display_name)
        myself = player.id == interaction.user.id
        # A running game's kick changes nothing the second time (leaving: nothing while a
        # computer holds the seat): the reply says that rather than what a first one did.
        out_before = (
            game.status is GameStatus.ACTIVE
            and seat is not None
            and (game.seats[seat].away if myself else game.seats[seat].kicked)
        )
        try:
            # Someone without a seat is refused by the service ("That player has no seat").
            info = await self._timely(
                interaction,
                self.service.kick(
                    game.id,
                    interaction.user.id,
                    player.id,
                    is_manager=user_is_manager(interaction),
                ),
                update=False,
            )
        except ServiceError as error:
            await self._refuse(interaction, error)
            return
        surface = self.surfaces.adopt(info)
        self.surfaces.request(surface)
        if info.status is GameStatus.CANCELLED:  # they were the last person in the game
            in_lobby = game.status is GameStatus.LOBBY
            reason = "empty" if in_lobby else "abandoned"
            self.surfaces.cancelled(info.id, reason)
            if myself:  # the host removing themself
                out = t(LEFT, game=info.id)
            elif in_lobby:
                out = t("{name} is no longer in the lobby of game {game}.", name=name, game=info.id)
            else:
                out = t("{name} is out of game {game}.", name=name, game=info.id)
            text = t("Game {game} is cancelled.", game=info.id)
            await reply_privately(interaction, f"👋 {out}\n🛑 {text} {t(CANCEL_REASONS[reason])}")
            return
        if info.status is not GameStatus.ACTIVE:
            if myself:
                text = t(LEFT, game=info.id)
            else:
                text = t(
                    "{name} is no longer in the lobby of game {game} and cannot join it again.",
                    name=name,
                    game=info.id,
                )
            await reply_privately(interaction, "👋 " + text)
            return
        assert seat is not None
        self.surfaces.refresh_hands(info.id, [seat])
        if not out_before:
            # The channel is told, as of a leave (QA: only the table's line changed).
            gone, host = info.seats[seat], new_host(game, info)
            note = left_note if myself else removed_note
            self.surfaces.tell(info.id, lambda _, t: note(gone, host=host, t=t))
        if myself:
            if out_before:
                left = t("You already left game {game}.", game=info.id)
            else:
                left = t(LEFT, game=info.id)
            back = t("A computer player plays your seat until you take it back on the table.")
            text = f"{left} {back}"
        elif out_before:
            text = t(
                "{name} is already out of game {game}; a computer player plays their seat.",
                name=name,
                game=info.id,
            )
        else:
            text = t(
                "{name} is out of game {game}; a computer player takes their seat.",
                name=name,
                game=info.id,
            )
        await reply_privately(interaction, ("ℹ️ " if out_before else "👋 ") + text)

    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """``/wizard help``: how a game goes and every command, in the reader's language (the
        buttons of the lobby and the table as the server's language names them)."""
        self._started(interaction)
        settings = await server_settings(self.service, interaction.guild_id)
        shown = public_buttons(texts(settings.language))
        command = interaction.command
        group = command.parent if isinstance(command, app_commands.Command) else None
        assert group is not None, "help is a /wizard subcommand"
        embed = help_embed(
            group,
            t=await reader_texts(interaction),
            listed_in=language_of(interaction.locale),  # Discord lists commands in it
            shown=shown,
            hints=settings.hints_allowed,
        )
        self._about_to_respond(interaction)
        await interaction.response.send_message(embed=embed, ephemeral=True)
        self._responded(interaction)

    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """``/wizard rules``: the rules in short and the options of this channel's game (in
        the reader's language)."""
        self._started(interaction)
        t = await reader_texts(interaction)
        game = await self._channel_game(interaction)
        settings = await server_settings(self.service, interaction.guild_id)
        if game is not None:
            options, players, timer = game.options, len(game.seats), game.turn_seconds
            where = t("Game {game} in this channel.", game=game.id)
        else:
            options, players, timer = settings.default_options, None, settings.turn_seconds
            where = t("No open game in this channel; a new game starts with the server's defaults.")
        text = rules_text(
            options,
            players=players if players and players >= MIN_PLAYERS else None,
            turn_seconds=timer,
            timeouts=settings.max_timeouts,
            theme=settings.theme,
            t=t,
            show_hand=show_hand_label(settings.language),
        )
        embed = rules_embed(text, where=where, t=t)
        self._about_to_respond(interaction)
        await interaction.response.send_message(embed=embed, ephemeral=True)
        self._responded(interaction)
