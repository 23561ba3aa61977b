"""What every feature of a game builds on: :class:`GameMessages`, the bot's knowledge of
each game's messages (public ones and open hands) and its REST calls on them with the
failures sorted out: a refusal is one warning per outage and a retry, a deleted channel or a
server the bot left cancels the games there. :class:`bot.cogs.surfaces.Surfaces` puts the
features' messages together on it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Coroutine, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import discord

from bot.cogs.config import GameConfig
from bot.cogs.look import public_look
from bot.discord_faults import DISCORD_FAILED, DiscordFailure, discords_own, failure_text
from bot.i18n import N_, Texts
from bot.i18n.commands import typed_command
from wizard.options import Bidding
from wizard.service import (
    Clock,
    GameInfo,
    GameOver,
    GameService,
    GameStatus,
    GameStatusError,
    GameUpdate,
    GuildSettings,
    RoundScored,
    ServiceError,
    TimerHandle,
    TrickWon,
)

log = logging.getLogger(__name__)


UNKNOWN_CHANNEL = 10003
"""Discord's JSON error code for a channel that does not exist (deleted)."""
UNKNOWN_MESSAGE = 10008
"""Discord's JSON error code for a message that does not exist (deleted)."""
MISSING_PERMISSIONS = 50013
"""Discord's JSON error code for a request the bot lacks a permission for (here: Attach
Files, for a post with files)."""
THREAD_ARCHIVED = 50083
"""Discord's JSON error code for a message sent or edited in an archived thread (a game's
thread archives itself after a day without messages, while a game may wait longer)."""


CHANNEL_DELETED = "channel_deleted"
"""Why a game is cancelled when its channel or thread is deleted (``GameCancelled.reason``)."""


SERVER_LEFT = "server_left"
"""Why a game is cancelled when the bot is removed from its server."""


# Translators: after "Game {game} is cancelled.", in the channel of a lobby a moderator
# deleted; {command} is the command that opens a game (/wizard new).
LOBBY_DELETED = N_("Its lobby message was deleted: open a new game with {command}.")


SLACK = 0.001
"""Seconds early a paced edit may go out: the clock reads whole microseconds, so a timer set
for the end of an interval may read a hair before it when it fires."""


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """A scored round to post: its score and the trick that ended it."""

    scored: RoundScored
    final_trick: TrickWon | None


class LeaveStep(StrEnum):
    """Which "Leave" a hand shows, as the argument of that button's custom id: a hand's
    Leave asks first, as a computer takes the seat over at once."""

    ASK = ""
    """"Leave": asks what leaving does."""
    CONFIRM = "y"
    """"Yes, leave": asked, the player confirms; a computer plays the seat."""
    STOP = "1"
    """"Leave and stop the game": the last person playing was told that it stops the game."""
    STAY = "n"
    """"No, stay", beside either: the player asked changed their mind; the hand is drawn
    anew, with "Leave"."""


HandEdit = Callable[..., Awaitable[object]]
"""An edit of a private hand message: called with ``content`` and ``view``."""


@dataclass(slots=True)
class LiveHand:
    """A player's open hand: how to edit it while its interaction's token can."""

    edit: HandEdit
    """Edits the hand message (``content``, ``view``): the interaction's
    ``edit_original_response``, or, for a hand a process before this one opened, the edit of
    that message through the token it kept (:meth:`bot.cogs.open_hands.OpenHands.restore_hands`)."""
    seat: int
    spoken: str
    """The language of the player's Discord when they opened the hand
    (:func:`bot.i18n.spoken_language`): redraws made outside any interaction speak the
    player's language from it and the server's as it is then (:func:`bot.i18n.reader_language`:
    a manager may switch a server to or from Catalan while the hand is open)."""
    expires: float
    """Clock time after which the token may no longer edit the message."""
    edited_at: float
    """Clock time of the last edit (or of the response that drew it)."""
    shown: tuple[str, str] | None = None
    """What the message shows (text, buttons): a redraw to the same is skipped."""
    timer: TimerHandle | None = None
    """A held-back redraw (see :mod:`bot.cogs.surfaces`)."""
    message_id: int | None = None
    """The hand message's id (``None``: not known), to tell a redraw in place from a newer
    hand that replaces this one."""
    own: GameUpdate | None = None
    """The player's own move's update (it carries their view), for the next redraw: a move
    made elsewhere (an open bid on the table) redraws the hand without reading it."""
    leave: LeaveStep = LeaveStep.ASK
    """The player pressed "Leave" and was told what it does: redraws keep the button that
    does it ("Yes, leave", or "Leave and stop the game" for the last person playing) until
    the player's next click draws the hand anew."""
    expiry: TimerHandle | None = None
    """The timer that stops the hand when its token is about to expire."""
    stopped: str | None = None
    """Why the hand is redrawn no more (``HAND_EXPIRED``, ``HAND_BOT_STOPPED``): its last
    edit says so, with no buttons."""
    refused: bool = False
    """Discord refused its last edit for a reason of its own (an outage, a rate limit): it
    is redrawn again after ``retry_after``; the operator was told once."""
    kept_until: float | None = None
    """When the token the database keeps for this message runs out (``None``: none kept),
    see :meth:`bot.cogs.open_hands.OpenHands.keep_hand`."""
    note: tuple[int, str] | None = None
    """The round and the note of the player's last move in this hand ("✅ You bid 1."):
    redraws keep the note while that round lasts and the player waits for others, until the
    player's next click draws the hand anew (QA: it vanished as soon as the computers moved
    after the click)."""


Note = Callable[[GameInfo, Texts], str]
"""A note for a game's channel, written when it is posted: from the game as it is then, in
the server's language."""


@dataclass(eq=False)
class Surface:
    """What the bot knows about one game's messages."""

    game_id: int
    loaded: bool = False
    channel_id: int | None = None
    guild_id: int | None = None
    lobby_id: int | None = None
    table_id: int | None = None
    shown: dict[str, Any] | None = None
    """The embed the table message shows now (an edit to the same is skipped)."""
    table_free_at: float = 0.0
    """Clock time from which the table may be edited again (see ``edit_interval``)."""
    table_timer: TimerHandle | None = None
    """The trailing table edit, when one is held back."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while one of this game's public messages is being edited (single flight)."""
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    round_ends: dict[int, RoundEnd] = field(default_factory=dict)
    tricks: dict[int, TrickWon] = field(default_factory=dict)
    """The latest trick won in each round not yet scored (the last one ends the round)."""
    notes: list[Note] = field(default_factory=list)
    """What the channel is yet to be told (a seat that changed hands), posted by the next
    sync of a running game."""
    game_over: GameOver | None = None
    cancelled: str | None = None
    """Why the game was cancelled, until the cancellation is shown."""
    closed: bool = False
    """The game ended and its last messages are out: nothing more to render."""
    ping_id: int | None = None
    ping_users: frozenset[int] = frozenset()
    ping_key: tuple[frozenset[int], int] | None = None
    ping_timer: TimerHandle | None = None
    ping_restate: bool = False
    """The server's language or card theme changed since the turn reminder was posted: the
    next sync edits a reminder still up to speak as the table does."""
    retry_timer: TimerHandle | None = None
    failing: bool = False
    """Discord refused the last update of the game's messages: the operator has been told,
    and further refusals are logged quietly until one succeeds."""
    failing_since: float = 0.0
    """When the updates started failing (while :attr:`failing`)."""
    permission_lost: bool = False
    """Discord refused an update for a missing permission (and the channel was told, if it
    could be), until an update goes through again: the open hands say it meanwhile."""
    without_files: bool = False
    """Discord refused a post of the game's with files for a missing permission (Attach
    Files, denied in the channel): its final standings go without the record and the
    scorepad picture (faults QA: they never appeared)."""
    reopened: bool = False
    """The game's thread was found archived and an unarchive tried, and neither an update
    went through nor the retry came due since: not tried again meanwhile (else a refusal
    would loop at every move)."""
    thread: bool | None = None
    """Whether the game is played in a thread (``None``: not looked up yet)."""
    open_bidding: bool | None = None
    """Whether the game's bids are open, so made on the table (``None``: not known yet)."""
    to_act: frozenset[int] = frozenset()
    """The seats whose turn it was at the last update seen: their turn ends when they leave
    it, and their open hands must stop saying it is their turn."""
    latest: GameInfo | None = None
    """The game as the newest update showed it (``GameUpdate.info``): what the next sync
    renders, unless ``must_read``."""
    latest_settings: GuildSettings | None = None
    """The server's settings that update was made under (``GameUpdate.settings``)."""
    must_read: bool = True
    """Something changed that no update showed (a kick, a player leaving, a retry): the next
    sync reads the game from the service instead of rendering ``latest``."""


@dataclass
class SurfaceStats:
    """REST work done for the games, by kind (for the benchmark and tests)."""

    table_edits: int = 0
    table_posts: int = 0
    summaries: int = 0
    hand_refreshes: int = 0
    pings: int = 0
    failures: int = 0


class GameMessages:
    """The messages of every game this process serves: their state, and the REST calls."""

    def __init__(
        self,
        bot: discord.Client,
        service: GameService,
        clock: Clock,
        config: GameConfig,
    ) -> None:
        self.bot = bot
        self.service = service
        self.clock = clock
        self.config = config
        self.stats = SurfaceStats()
        self._games: dict[int, Surface] = {}
        self._hands: dict[tuple[int, int], LiveHand] = {}
        self._hand_dirty: set[tuple[int, int]] = set()
        self._replaced: dict[tuple[int, int], list[LiveHand]] = {}
        """Older hands to retire (a newer one is open), by the task of their key."""
        self._hand_tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._gone: set[int] = set()
        """Channels deleted (Discord said so, or answered Unknown Channel), and those of servers
        the bot was removed from: nothing more is sent there."""

    def known(self, game_id: int) -> Surface | None:
        """The surface of a game, if this process has one."""
        return self._games.get(game_id)

    def get(self, game_id: int) -> Surface:
        """The surface of a game (created on first use)."""
        surface = self._games.get(game_id)
        if surface is None:
            surface = self._games[game_id] = Surface(game_id)
        return surface

    def adopt(self, info: GameInfo) -> Surface:
        """The surface of ``info``'s game with its channel and message ids as the service has
        them (call with the lock held, or before anything else can touch the game)."""
        surface = self.get(info.id)
        if not surface.loaded:
            surface.loaded = True
            surface.channel_id = info.channel_id
            surface.guild_id = info.guild_id
            surface.lobby_id = info.lobby_message_id
            surface.table_id = info.table_message_id
            surface.ping_id = info.ping_message_id  # who it mentions is not known here
        if surface.open_bidding is None:
            surface.open_bidding = info.options.bidding is Bidding.OPEN
        return surface

    def _spawn(self, coro: Coroutine[Any, Any, object]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _channel(self, surface: Surface) -> discord.PartialMessageable:
        assert surface.channel_id is not None
        return self.bot.get_partial_messageable(surface.channel_id, guild_id=surface.guild_id)

    def request(self, surface: Surface) -> None:
        """Bring the game's messages up to date soon (the sync task of
        :class:`bot.cogs.surfaces.Surfaces`)."""
        raise NotImplementedError

    def _retry_later(self, surface: Surface) -> None:
        if surface.retry_timer is not None:
            return

        def fire() -> None:
            surface.retry_timer = None
            surface.reopened = False  # an archived thread may be opened again: tried once more
            self.request(surface)

        now = self.clock.now()
        delay = self.config.retry_after
        if surface.failing and now - surface.failing_since >= self.config.slow_after:
            delay = max(delay, self.config.slow_retry_after)  # a refusal that lasts
        surface.retry_timer = self.clock.call_at(now + delay, fire)

    def _in_gone_channel(self, surface: Surface) -> bool:
        """Whether the game's channel was deleted (then the game is shown no more)."""
        if surface.channel_id in self._gone:
            surface.closed = True
            return True
        return False

    def _channel_gone(self, surface: Surface) -> None:
        """Discord says the game's channel does not exist (deleted, perhaps while the bot was
        down): show the game no more, and cancel the channel's open games."""
        surface.closed = True
        if surface.channel_id is None or surface.channel_id in self._gone:
            return
        self._gone.add(surface.channel_id)
        self._spawn(
            self.home_gone(CHANNEL_DELETED, channel_id=surface.channel_id, found_by=surface.game_id)
        )

    async def home_gone(
        self,
        reason: str,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        found_by: int | None = None,
    ) -> list[GameUpdate]:
        """A channel or thread (``channel_id``) was deleted, or the bot was removed from a
        server (``guild_id``): nothing more is sent there, and its open games are cancelled
        through the service for ``reason``, the operator told once per game. ``found_by``:
        the game whose edit found the channel gone (named in the log if none was open). The
        updates of the games cancelled."""
        if channel_id is not None:
            self._gone.add(channel_id)
        try:
            updates = await self.service.cancel_games_in(
                channel_id=channel_id, guild_id=guild_id, reason=reason
            )
        except ServiceError as error:
            # The service is closing (the bot is going down): the games stay open, and the
            # next start finds their channel gone when it brings their messages up to date.
            where = f"channel {channel_id}" if channel_id is not None else f"server {guild_id}"
            log.warning("the open games of %s (gone) were not cancelled: %s", where, error)
            return []
        for update in updates:
            info = update.info
            channel = info.channel_id if info is not None else channel_id
            if channel is not None:
                self._gone.add(channel)  # its messages are out of reach too
            if guild_id is not None:
                log.warning(
                    "game %s cancelled: the bot was removed from its server %s (channel %s)",
                    update.game_id,
                    guild_id,
                    channel,
                )
            else:
                log.warning(
                    "game %s cancelled: its channel %s was deleted", update.game_id, channel
                )
            self.after_update(update)
        if not updates and found_by is not None:
            log.info(
                "game %s: its channel %s is gone: its messages are no longer updated",
                found_by,
                channel_id,
            )
        return updates

    def after_update(self, update: GameUpdate) -> None:
        """Record what ``update`` makes visible and schedule the edits (see
        :meth:`bot.cogs.surfaces.Surfaces.after_update`)."""
        raise NotImplementedError

    def refresh_hands(
        self,
        game_id: int,
        seats: Iterable[int] | None,
        *,
        skip: int | None = None,
        urgent: bool = True,
    ) -> None:
        """Redraw a game's open hands (see :meth:`bot.cogs.open_hands.OpenHands.refresh_hands`)."""
        raise NotImplementedError

    async def _edit(self, surface: Surface, message_id: int, **fields: Any) -> bool | None:
        """Edit a message of the game: True if done, None if the message is gone, False if
        Discord refused for another reason (reported or retried), or the channel is gone."""
        if self._in_gone_channel(surface):
            return False  # not None: the message is not to be posted again either
        try:
            await self._channel(surface).get_partial_message(message_id).edit(**fields)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                self._channel_gone(surface)
                return False  # the channel, not only the message: nothing is posted again
            return None
        except DISCORD_FAILED as error:
            await self._failed(surface, error)
            return False
        self._succeeded(surface)
        return True

    async def _post(self, surface: Surface, **fields: Any) -> discord.Message | None:
        """Post a message in the game's channel, or ``None`` if Discord refused."""
        if self._in_gone_channel(surface):
            return None
        try:
            message = await self._channel(surface).send(**fields)
        except DISCORD_FAILED as error:
            if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
                self._channel_gone(surface)
                return None
            if (
                fields.get("files")
                and isinstance(error, discord.Forbidden)
                and error.code == MISSING_PERMISSIONS
                and not surface.without_files
            ):
                # Attach Files, most likely: the caller posts again without the files.
                log.warning(
                    "game %s: Discord refused a post with files (%s); it goes without them",
                    surface.game_id,
                    failure_text(error),
                )
                surface.without_files = True
                return None
            # An error answer says the post was not made; no answer at all may hide one.
            answered = isinstance(error, discord.HTTPException)
            made = None if answered else await self._posted(surface, fields)
            if made is None:
                await self._failed(surface, error)
                return None
            log.info("game %s: a post's answer was lost, but Discord made it", surface.game_id)
            message = made
        self._succeeded(surface)
        return message

    async def _posted(self, surface: Surface, fields: dict[str, Any]) -> discord.Message | None:
        """After no answer to a post: the message, if Discord made it all the same (its
        answer lost on the way back), so that it is not posted twice (review: two live
        tables of one round). Looked for among the channel's latest messages."""
        me = self.bot.user
        try:
            async for message in self._channel(surface).history(limit=POSTED_LOOKED_AT):
                if me is not None and message.author.id == me.id and _same_post(message, fields):
                    return message
        except DISCORD_FAILED:
            return None
        return None

    async def _delete(self, surface: Surface, message_id: int) -> None:
        try:
            await self._channel(surface).get_partial_message(message_id).delete()
        except DISCORD_FAILED as error:
            log.info(
                "game %s: could not delete message %s: %s",
                surface.game_id,
                message_id,
                failure_text(error),
            )

    async def _reopen(self, surface: Surface) -> bool | discord.Forbidden:
        """Unarchive the game's thread (Discord archived it while the game waited): True once
        it is open again; Discord's refusal when the bot may not (a thread a moderator locked,
        a permission lost); else False. Logged."""
        try:
            thread = await self.game_thread(surface)
            if thread is None:
                return False
            await thread.edit(archived=False, reason="Wizard: the game in this thread goes on")
        except DISCORD_FAILED as error:
            log.warning(
                "game %s: its archived thread was not opened again: %s",
                surface.game_id,
                failure_text(error),
            )
            return error if isinstance(error, discord.Forbidden) else False
        log.info("game %s: its thread had been archived; opened it again", surface.game_id)
        return True

    def _succeeded(self, surface: Surface) -> None:
        surface.reopened = False
        if surface.failing:
            log.info("game %s: Discord takes its updates again", surface.game_id)
        surface.failing = False
        if surface.permission_lost:
            surface.permission_lost = False
            self.refresh_hands(surface.game_id, None, urgent=False)  # their note goes

    async def _failed(self, surface: Surface, error: DiscordFailure) -> None:
        archived = isinstance(error, discord.HTTPException) and error.code == THREAD_ARCHIVED
        if archived and not surface.reopened:
            surface.reopened = True  # once until an update goes through, or the retry is due
            opened = await self._reopen(surface)
            if opened is True:
                self.request(surface)  # the same update again, at once
                return
            if isinstance(opened, discord.Forbidden):
                error = opened  # locked by a moderator, or a permission lost: said as one
        self.stats.failures += 1
        # One warning per outage: a retry every ``retry_after`` seconds must not flood the log.
        # A request of ours Discord found malformed is no outage but a bug: an error.
        ours = not (archived or discords_own(error))
        log.log(
            logging.DEBUG if surface.failing else logging.ERROR if ours else logging.WARNING,
            "game %s: Discord did not take an update (%s); retrying every %gs (every %gs after "
            "%gs), and with each move (further failures are logged at DEBUG)",
            surface.game_id,
            failure_text(error),
            self.config.retry_after,
            self.config.slow_retry_after,
            self.config.slow_after,
        )
        if not surface.failing:
            surface.failing_since = self.clock.now()
        surface.failing = True
        self._retry_later(surface)
        if isinstance(error, discord.Forbidden) and not surface.permission_lost:
            surface.permission_lost = True
            self.refresh_hands(surface.game_id, None, urgent=False)  # they say it meanwhile
            await self._say_permission_lost(surface)

    async def game_thread(self, surface: Surface) -> discord.Thread | None:
        """The game's thread, when it is played in one (fetched if the bot's cache does not
        hold it, e.g. once archived; what it is, is kept on the surface)."""
        if surface.channel_id is None or surface.thread is False:
            return None
        channel = self.bot.get_channel(surface.channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(surface.channel_id)
            except DISCORD_FAILED:
                return None
        surface.thread = isinstance(channel, discord.Thread)
        return channel if isinstance(channel, discord.Thread) else None

    async def _say_permission_lost(self, surface: Surface) -> None:
        """Tell the channel which permissions the table needs back: in the game's thread, or,
        if the bot may not post there, in the thread's channel, which names the thread."""
        t, _ = await public_look(self.service, surface.guild_id)
        thread = await self.game_thread(surface)
        # Discord's own reason (English) is in the operator's log above.
        said: list[tuple[discord.abc.Messageable, str]]
        if thread is None:
            said = [
                (
                    self._channel(surface),
                    t(
                        "I lost a permission I need to update the Wizard table here. The game "
                        "is saved and goes on: give me back **View Channel**, **Send Messages**, "
                        "**Embed Links**, **Attach Files** and **Read Message History** in this "
                        "channel, and the table will catch up with the next move."
                    ),
                )
            ]
        else:
            parent = self.bot.get_partial_messageable(thread.parent_id, guild_id=surface.guild_id)
            text = t(
                # Translators: {thread} is a link to the game's thread, {channel} to its channel.
                "I lost a permission I need to update the Wizard table in {thread}. The game is "
                "saved and goes on: give me back **View Channel**, **Send Messages in Threads**, "
                "**Embed Links**, **Attach Files** and **Read Message History** in {channel}, "
                "and the table will catch up with the next move.",
                thread=thread.mention,
                channel=f"<#{thread.parent_id}>",
            )
            said = [(self._channel(surface), text), (parent, text)]
        for channel, text in said:
            try:
                await channel.send("⚠️ " + text)
                return
            except DISCORD_FAILED:
                continue
        # The warning above named the cause; the channel cannot be told.
        log.info("game %s: could not report the lost permission", surface.game_id)

    async def _remember(self, surface: Surface, **shown: int | None) -> None:
        """Store what the channel shows of the game (``GameService.set_message_ids``: its
        messages' ids, the rounds ``announced``); a failure is logged, not raised."""
        try:
            await self.service.set_message_ids(surface.game_id, **shown)
        except ServiceError as error:
            log.warning("game %s: %s not stored: %s", surface.game_id, ", ".join(shown), error)


POSTED_LOOKED_AT = 5
"""The channel's latest messages searched for a post whose answer was lost."""


def _same_post(message: discord.Message, fields: dict[str, Any]) -> bool:
    """Whether ``message`` is what ``fields`` posted: its text, its embed and its buttons
    (a table's carry the game's version, which no other message has)."""
    if (message.content or None) != (fields.get("content") or None):
        return False
    embed = fields.get("embed")
    if embed is not None and (
        not message.embeds
        or (message.embeds[0].title, message.embeds[0].description)
        != (embed.title, embed.description)
    ):
        return False
    view = fields.get("view")
    sent = [getattr(c, "custom_id", None) for c in view.children] if view is not None else []
    shown = [
        getattr(c, "custom_id", None)
        for row in message.components
        for c in getattr(row, "children", [])
    ]
    return sent == shown


async def drop_unseen_lobby(
    service: GameService, channel_id: int | None, host_id: int
) -> int | None:
    """Cancel the lobby ``host_id`` just opened in the channel if its message never reached
    Discord (no lobby message id): nobody could see or join it, and it would hold the
    channel, refusing every new game there ("there is already a game"). Its id, if so."""
    game = await _lobby_in(service, channel_id)
    if game is None or game.host_id != host_id or game.lobby_message_id is not None:
        return None
    return await _cancel_lobby(service, game, "unseen")


async def drop_vanished_lobby(
    bot: discord.Client, service: GameService, channel_id: int, guild_id: int | None
) -> int | None:
    """Cancel the channel's lobby if its message is gone (a moderator deleted it): nobody can
    see or join it, and it would hold the channel until it expires. Its id, if so. Only a
    message Discord says is unknown counts as gone; anything else leaves the lobby alone."""
    game = await _lobby_in(service, channel_id)
    if game is None or game.lobby_message_id is None:
        return None
    channel = bot.get_partial_messageable(channel_id, guild_id=guild_id)
    try:
        await channel.fetch_message(game.lobby_message_id)
        return None
    except discord.NotFound as error:
        if error.code != UNKNOWN_MESSAGE:
            return None
    except DISCORD_FAILED as error:
        log.info("game %s: could not look for its lobby message: %s", game.id, failure_text(error))
        return None
    dropped = await _cancel_lobby(service, game, "deleted")
    if dropped is not None:
        log.info("game %s: its lobby message was deleted; the lobby is cancelled", game.id)
    return dropped


async def drop_deleted_lobby(
    bot: discord.Client,
    service: GameService,
    channel_id: int | None,
    message_ids: Collection[int],
) -> int | None:
    """Cancel the channel's lobby if its message is among ``message_ids``, which Discord
    says were deleted (MESSAGE_DELETE needs no permission, unlike looking for the message
    later: QA, a bot without Read Message History kept the channel blocked), and tell the
    channel, whoever joined it among them: once, as only the cancel that went through
    tells. Its id, if so."""
    game = await _lobby_in(service, channel_id)
    if game is None or game.lobby_message_id not in message_ids:
        return None
    dropped = await _cancel_lobby(service, game, "deleted")
    if dropped is not None:
        log.info("game %s: its lobby message was deleted; the lobby is cancelled", game.id)
        await _say_lobby_deleted(bot, service, game)
    return dropped


async def _say_lobby_deleted(bot: discord.Client, service: GameService, game: GameInfo) -> None:
    """Tell ``game``'s channel, in the server's language, that its lobby is cancelled, and
    how to open another (a refusal is logged: the lobby is cancelled all the same)."""
    t, _ = await public_look(service, game.guild_id)
    text = t("Game {game} is cancelled.", game=game.id)
    text += " " + t(LOBBY_DELETED, command=typed_command("new", t=t))
    channel = bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
    try:
        await channel.send("🛑 " + text, allowed_mentions=discord.AllowedMentions.none())
    except DISCORD_FAILED as error:
        log.info(
            "game %s: the channel was not told that its lobby was deleted: %s",
            game.id,
            failure_text(error),
        )


async def _lobby_in(service: GameService, channel_id: int | None) -> GameInfo | None:
    """The channel's open game, if it is a lobby."""
    game = None if channel_id is None else await service.game_in_channel(channel_id)
    return game if game is not None and game.status is GameStatus.LOBBY else None


async def _cancel_lobby(service: GameService, game: GameInfo, which: str) -> int | None:
    """Cancel ``game``'s lobby as its host: its id, or ``None`` if the service refused
    (``which`` lobby, for the log)."""
    try:
        await service.cancel(game.id, game.host_id)
    except GameStatusError as error:
        # Over already: Discord told of the deletion twice, or the game started meanwhile.
        log.info("game %s: its %s lobby was not cancelled: %s", game.id, which, error)
        return None
    except ServiceError as error:
        log.warning("game %s: its %s lobby was not cancelled: %s", game.id, which, error)
        return None
    return game.id
