"""What every feature of a game builds on: :class:`GameMessages`, the bot's knowledge of
each game's messages (public ones and open hands) and its REST calls on them with the
failures sorted out (see :class:`bot.cogs.surfaces.Surfaces`); and :class:`ClickBase`, the
answering of clicks: within Discord's 3 seconds, private replies, edits of the clicked
message, and each player's last click (a double click is answered like the first).
:class:`bot.cogs.game.GameCog` puts the clicks together."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Coroutine, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.cogs.config import GameConfig
from bot.cogs.replies import refuse
from bot.i18n import Texts, card_text, suit_text, texts
from bot.ui.buttons import DONE_NOTE, CustomId, Verb
from wizard.cards import Theme
from wizard.options import Bidding
from wizard.service import (
    Clock,
    GameInfo,
    GameOver,
    GameService,
    GameStatus,
    GameUpdate,
    GuildSettings,
    RoundScored,
    ServiceError,
    TimerHandle,
    TrickWon,
)
from wizard.state import Bid, ChooseTrump, Play

if TYPE_CHECKING:  # the surfaces build on the features, which build on this module
    from bot.cogs.surfaces import Surfaces

log = logging.getLogger(__name__)


UNKNOWN_CHANNEL = 10003


UNKNOWN_MESSAGE = 10008


CHANNEL_DELETED = "channel_deleted"
"""Why a game is cancelled when its channel or thread is deleted (``GameCancelled.reason``)."""


SERVER_LEFT = "server_left"
"""Why a game is cancelled when the bot is removed from its server."""


SLACK = 0.001
"""Seconds early a paced edit may go out: the clock reads whole microseconds, so a timer set
for the end of an interval may read a hair before it when it fires."""


@dataclass(eq=False)
class _Known:
    """A server's settings as the update being rendered carried them."""

    service: GameService
    guild_id: int
    settings: GuildSettings
    live: bool = True
    """Only while the render runs: a timer or task armed meanwhile copies the context, and
    must read the settings as they are when it fires."""


_KNOWN: ContextVar[_Known | None] = ContextVar("wizard_known_settings", default=None)


@contextmanager
def known_settings(service: GameService, guild_id: int, settings: GuildSettings) -> Iterator[None]:
    """Within the block (one sync task rendering an update), ``service``'s settings of
    ``guild_id`` are ``settings``: the ones the update was made under, so that every
    feature's rendering of it speaks the server's language without reading them again."""
    known = _Known(service, guild_id, settings)
    token = _KNOWN.set(known)
    try:
        yield
    finally:
        known.live = False
        _KNOWN.reset(token)


async def server_settings(service: GameService, guild_id: int | None) -> GuildSettings:
    """The server's settings (the defaults outside a server)."""
    if guild_id is None:
        return GuildSettings()
    known = _KNOWN.get()
    if known is not None and known.live and known.service is service and known.guild_id == guild_id:
        return known.settings
    return await service.get_settings(guild_id)


async def public_texts(service: GameService, guild_id: int | None) -> Texts:
    """The texts of a server's public messages: the language the server chose."""
    return texts((await server_settings(service, guild_id)).language)


async def public_theme(service: GameService, guild_id: int | None) -> Theme:
    """How cards look in a server's messages and pictures (R1.5)."""
    return (await server_settings(service, guild_id)).theme


async def public_look(service: GameService, guild_id: int | None) -> tuple[Texts, Theme]:
    """The language (as its texts) and the card theme of a server's public messages."""
    settings = await server_settings(service, guild_id)
    return texts(settings.language), settings.theme


async def update_look(
    service: GameService, update: GameUpdate, guild_id: int | None
) -> tuple[Texts, Theme]:
    """:func:`public_look` under the settings ``update`` was made under (read if it has none)."""
    if update.settings is None or guild_id is None:
        return await public_look(service, guild_id)
    return texts(update.settings.language), update.settings.theme


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """A scored round to post: its score and the trick that ended it."""

    scored: RoundScored
    final_trick: TrickWon | None


@dataclass(slots=True)
class LiveHand:
    """A player's open hand: the interaction whose token can still edit it."""

    interaction: discord.Interaction[Any]
    seat: int
    language: str
    """The player's language (their Discord locale when they opened the hand): redraws made
    outside any interaction keep speaking it."""
    expires: float
    """Clock time after which the token may no longer edit the message."""
    edited_at: float
    """Clock time of the last edit (or of the response that drew it)."""
    shown: tuple[str, str] | None = None
    """What the message shows (text, buttons): a redraw to the same is skipped."""
    timer: TimerHandle | None = None
    """A held-back redraw (see the module's docstring)."""
    message_id: int | None = None
    """The hand message's id (``None``: not known), to tell a redraw in place from a newer
    hand that replaces this one."""
    own: GameUpdate | None = None
    """The player's own move's update (it carries their view), for the next redraw: a move
    made elsewhere (an open bid on the table) redraws the hand without reading it."""


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
    game_over: GameOver | None = None
    cancelled: str | None = None
    """Why the game was cancelled, until the cancellation is shown."""
    closed: bool = False
    """The game ended and its last messages are out: nothing more to render."""
    ping_id: int | None = None
    ping_users: frozenset[int] = frozenset()
    ping_key: tuple[frozenset[int], int] | None = None
    ping_timer: TimerHandle | None = None
    retry_timer: TimerHandle | None = None
    failing: bool = False
    """Discord refused the last update of the game's messages: the operator has been told,
    and further refusals are logged quietly until one succeeds."""
    permission_reported: bool = False
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
        if surface.open_bidding is None:
            surface.open_bidding = info.options.bidding is Bidding.OPEN
        return surface

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
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
            self.request(surface)

        surface.retry_timer = self.clock.call_at(self.clock.now() + self.config.retry_after, fire)

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
    ) -> None:
        """A channel or thread (``channel_id``) was deleted, or the bot was removed from a
        server (``guild_id``): nothing more is sent there, and its open games are cancelled
        through the service for ``reason``, the operator told once per game. ``found_by``:
        the game whose edit found the channel gone (named in the log if none was open)."""
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
            return
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

    def after_update(self, update: GameUpdate) -> None:
        """Record what ``update`` makes visible and schedule the edits (see
        :meth:`bot.cogs.surfaces.Surfaces.after_update`)."""
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
        except discord.HTTPException as error:
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
        except discord.HTTPException as error:
            if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
                self._channel_gone(surface)
                return None
            await self._failed(surface, error)
            return None
        self._succeeded(surface)
        return message

    async def _delete(self, surface: Surface, message_id: int) -> None:
        try:
            await self._channel(surface).get_partial_message(message_id).delete()
        except discord.HTTPException as error:
            log.info("game %s: could not delete message %s: %s", surface.game_id, message_id, error)

    def _succeeded(self, surface: Surface) -> None:
        if surface.failing:
            log.info("game %s: Discord takes its updates again", surface.game_id)
        surface.failing = False
        surface.permission_reported = False

    async def _failed(self, surface: Surface, error: discord.HTTPException) -> None:
        self.stats.failures += 1
        # One warning per outage: a retry every ``retry_after`` seconds must not flood the log.
        log.log(
            logging.DEBUG if surface.failing else logging.WARNING,
            "game %s: Discord refused an update (%s %s): %s; retrying every %gs, and with "
            "each move (further refusals are logged at DEBUG)",
            surface.game_id,
            error.status,
            error.code,
            error.text,
            self.config.retry_after,
        )
        surface.failing = True
        self._retry_later(surface)
        if isinstance(error, discord.Forbidden) and not surface.permission_reported:
            surface.permission_reported = True
            t, _ = await public_look(self.service, surface.guild_id)
            try:
                await self._channel(surface).send(
                    "⚠️ "
                    + t(
                        # Translators: {error} is Discord's own reason, in English.
                        "I lost a permission I need to update the Wizard table here "
                        "({error}). The game is saved and goes on: give me back **View "
                        "Channel**, **Send Messages**, **Embed Links**, **Attach Files** and "
                        "**Read Message History** in this channel, and the table will catch up "
                        "with the next move.",
                        error=error.text or "Missing Permissions",
                    )
                )
            except discord.HTTPException:
                # The warning above named the cause; the channel cannot be told.
                log.info("game %s: could not report the lost permission", surface.game_id)

    async def _remember_table(self, surface: Surface, message_id: int | None) -> None:
        try:
            await self.service.set_message_ids(surface.game_id, table_message_id=message_id)
        except ServiceError as error:
            log.warning("game %s: table message id not stored: %s", surface.game_id, error)


async def drop_unseen_lobby(
    service: GameService, channel_id: int | None, host_id: int
) -> int | None:
    """Cancel the lobby ``host_id`` just opened in the channel if its message never reached
    Discord (no lobby message id): nobody could see or join it, and it would hold the
    channel, refusing every new game there ("there is already a game"). Its id, if so."""
    if channel_id is None:
        return None
    game = await service.game_in_channel(channel_id)
    if (
        game is None
        or game.status is not GameStatus.LOBBY
        or game.host_id != host_id
        or game.lobby_message_id is not None
    ):
        return None
    try:
        await service.cancel(game.id, host_id)
    except ServiceError as error:
        log.warning("game %s: its unseen lobby was not cancelled: %s", game.id, error)
        return None
    return game.id


# --- answering clicks ----------------------------------------------------------------------

T = TypeVar("T")


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


def _on_table(interaction: discord.Interaction[Any], cid: CustomId) -> bool:
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
        return "✅ " + t("You played {card}.", card=card_text(action.card, theme, t=t))
    if isinstance(action, ChooseTrump):
        suit = suit_text(action.suit, theme, t=t)
        # Translators: {suit} is a suit with its emoji, e.g. “🟦 Humans (B)”.
        return "✅ " + t("You chose {suit} as trump.", suit=suit)
    return None


class ClickBase:
    """What every feature's clicks share: the service, the surfaces, answering within
    Discord's 3 seconds, and the memory of each player's last click (double clicks)."""

    bot: discord.Client
    service: GameService
    clock: Clock
    config: GameConfig
    surfaces: Surfaces
    stats: ClickStats
    _done: OrderedDict[tuple[int, int], tuple[str, str | None]]
    _in_flight: dict[tuple[int, int, str], asyncio.Event]

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

    async def answer_refused(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """Discord refused a request made for the click ``cid``: undo what nobody can see (a
        "Play again" lobby whose message never went out), so that trying again works."""
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
        note = _done_note(update, t=texts(interaction.locale), theme=theme)
        if self._done.get(key, ("",))[0] == cid.format():
            self._done[key] = (cid.format(), note)
        # Should Discord refuse the answer, the player is still told what counted.
        interaction.extras[DONE_NOTE] = note
        return note, theme

    async def _click_done(
        self, interaction: discord.Interaction[Any], cid: CustomId
    ) -> tuple[str, str | None] | None:
        """The user's last applied click in the game and its note, once a click of ``cid``
        still under way (the first of a double click) is done."""
        flight = self._in_flight.get((cid.game, interaction.user.id, cid.format()))
        if flight is not None:
            await flight.wait()
        return self._done.get((cid.game, interaction.user.id))
