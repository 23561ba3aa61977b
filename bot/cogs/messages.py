"""What the bot knows of each game's messages (public ones and open hands), and its REST
calls with the failures sorted out: the base that every feature's publishing builds on
(see :class:`bot.cogs.surfaces.Surfaces`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.cogs.config import GameConfig
from bot.i18n import Texts, texts
from wizard.cards import Theme
from wizard.options import Bidding
from wizard.service import (
    Clock,
    GameInfo,
    GameOver,
    GameService,
    GameUpdate,
    GuildSettings,
    RoundScored,
    ServiceError,
    TimerHandle,
    TrickWon,
)

log = logging.getLogger(__name__)


UNKNOWN_CHANNEL = 10003


UNKNOWN_MESSAGE = 10008


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

    async def _edit(self, surface: Surface, message_id: int, **fields: Any) -> bool | None:
        """Edit a message of the game: True if done, None if the message is gone, False if
        Discord refused for another reason (reported or retried)."""
        try:
            await self._channel(surface).get_partial_message(message_id).edit(**fields)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                surface.closed = True
            return None
        except discord.HTTPException as error:
            await self._failed(surface, error)
            return False
        self._succeeded(surface)
        return True

    async def _post(self, surface: Surface, **fields: Any) -> discord.Message | None:
        """Post a message in the game's channel, or ``None`` if Discord refused."""
        try:
            message = await self._channel(surface).send(**fields)
        except discord.HTTPException as error:
            if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
                surface.closed = True
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
        surface.permission_reported = False

    async def _failed(self, surface: Surface, error: discord.HTTPException) -> None:
        self.stats.failures += 1
        log.warning(
            "game %s: Discord refused an update (%s %s): %s",
            surface.game_id,
            error.status,
            error.code,
            error.text,
        )
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
                log.warning("game %s: could not report the lost permission", surface.game_id)

    async def _remember_table(self, surface: Surface, message_id: int | None) -> None:
        try:
            await self.service.set_message_ids(surface.game_id, table_message_id=message_id)
        except ServiceError as error:
            log.warning("game %s: table message id not stored: %s", surface.game_id, error)
