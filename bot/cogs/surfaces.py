"""Each game's messages kept in step with the service: lobby, table, round summaries, final
standings, the turn ping, and the players' open hands.

Everything the service reports (the result of a click, or a background move from a listener)
goes through :meth:`Surfaces.after_update`, which only *records* what must be shown and
wakes the game's sync task. The task renders from the service's current state, so updates
that arrive while an edit is in flight merge into the next edit.

Edits are paced (``GameConfig.edit_interval``, 0.75 s): a game's table is edited at most once
per interval. The first change after a quiet spell goes out at once; the changes that follow
within the interval are merged into one trailing edit at its end, which renders the state
as it is then, so the last state is always shown. Round summaries, final standings,
cancellations, a missing table and a table whose bid buttons change (an open bid is made on
the table: a person's turn to bid came after a computer's move or a trump choice) are never
held back. A bid clicked on the table is answered with the table itself: that response is
the table's edit for the move (:meth:`Surfaces.note_table`). Open hands follow the same rule when
only their text changes (cards dealt while someone else bids); a hand whose buttons change
(its turn came, a computer took the seat) is redrawn at once, and that redraw supersedes a
held-back one. A player's newest hand is redrawn whenever what it says about them changes:
their turn comes (to bid, also under open bidding, where it then says to bid on the table;
to choose trump; to play) and their turn ends. Under open bidding those are text changes
(the bid buttons are on the table), paced like any other. When a player opens a newer hand
the older one is retired: edited to say so, with no buttons, so that no open hand offers a
move already made. The pacing lives in memory only: a trailing edit lost in a restart is
made by the next update, which compares with nothing and so edits the table.

Public messages speak the server's language and show its card theme (``/wizard settings``);
a player's hand speaks the player's own language, the Discord locale of the click that opened
it, which the live hand keeps for the redraws made outside any interaction. A game played in
a thread of its own has the thread archived once its last message is out (final standings or
cancellation).

Nothing here decides anything about the game: a failed REST call loses no game state, it only
leaves a message behind, and the next update (or a retry timer) repairs it: a deleted table
is posted again, a lost permission is reported in the channel once.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.cogs.config import GameConfig
from bot.cogs.homes import retire_home, server_settings
from bot.features.hand import hand_message, hand_view, replaced_hand_message, take_back_view
from bot.features.lobby import cancelled_embed, lobby_embed, lobby_view_of
from bot.features.pings import ping_text
from bot.features.summaries import and_list, final_embed, play_again_view, round_end_embed
from bot.features.table import bids_on_table, table_embed, table_view
from bot.i18n import Texts, language_of, texts
from bot.images.canvas import scorepad_labels
from bot.images.scorepad import scorepad_png
from bot.ui.custom_ids import Verb
from wizard.cards import Theme
from wizard.options import MAX_PLAYERS, Bidding
from wizard.service import (
    BidMade,
    Clock,
    GameCancelled,
    GameInfo,
    GameOver,
    GameService,
    GameStatus,
    GameUpdate,
    PlayerTimedOut,
    RoundDealt,
    RoundScored,
    SeatHandedToComputer,
    SeatTakenBack,
    ServiceError,
    TimerHandle,
    TrickWon,
    TrumpChosen,
    TurnChanged,
)
from wizard.state import Phase
from wizard.view import TableView

log = logging.getLogger(__name__)

SINGLE_SUIT_SEATS = 4
"""Single suit (R7.7) is for 3 or 4 players."""

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
SLACK = 0.001
"""Seconds early a paced edit may go out: the clock reads whole microseconds, so a timer set
for the end of an interval may read a hair before it when it fires."""


def _shown(embed: discord.Embed, view: discord.ui.View | None = None) -> dict[str, Any]:
    """What a public message shows (its embed, and the buttons that act on the game),
    comparable with what it showed before. The version on "Show my hand" is left out: that
    button works whatever the version, so a new version alone is no reason to edit."""
    rows = [] if view is None else view.to_components()
    buttons = [
        (c.get("custom_id"), c.get("disabled", False), c.get("style"))
        for row in rows
        for c in row.get("components", ())
        if f":{Verb.HAND.value}:" not in str(c.get("custom_id", ""))
    ]
    return {"embed": embed.to_dict(), "buttons": buttons}


def _buttons_of(shown: dict[str, Any] | None) -> Any:
    """The game's buttons in what a public message shows (see :func:`_shown`)."""
    return None if shown is None else shown.get("buttons")


def lobby_embed_of(info: GameInfo, *, t: Texts) -> discord.Embed:
    """The lobby message of ``info``, in the language of ``t`` (the server's)."""
    host = info.seat_of(info.host_id)
    return lobby_embed(
        t=t,
        game_id=info.id,
        seats=[(s.name, s.is_computer) for s in info.seats],
        levels=[s.level if s.is_computer else None for s in info.seats],
        lobby_level=info.computer_level,
        host_seat=host,
        options=info.options,
        turn_seconds=info.turn_seconds,
        max_seats=SINGLE_SUIT_SEATS if info.options.single_suit else MAX_PLAYERS,
        deadline=info.deadline,
    )


def table_parts(info: GameInfo, *, t: Texts, theme: Theme) -> tuple[discord.Embed, discord.ui.View]:
    """The table message of a started game: its embed and its buttons (the open bids of a
    person to bid, and "Show my hand")."""
    assert info.table is not None
    computer = {s.seat for s in info.seats if s.computer_controlled}
    view = table_view(info.id, info.version, t=t, table=info.table, computer=computer)
    return table_embed_of(info, t=t, theme=theme), view


def table_embed_of(info: GameInfo, *, t: Texts, theme: Theme) -> discord.Embed:
    """The table message of a started game, from its public table only (R8.1), in the
    server's language and card theme."""
    assert info.table is not None
    computer = {s.seat for s in info.seats if s.computer_controlled}
    deadline = info.deadline if info.turn_seconds is not None else None
    return table_embed(
        info.table,
        computer=computer,
        levels={s.seat: s.level for s in info.seats if s.computer_controlled and s.level},
        away={s.seat for s in info.seats if s.away},
        # Translators: the title of a game's table (the round follows it).
        title=t("Wizard · game {game}", game=info.id),
        deadline=deadline,
        t=t,
        theme=theme,
    )


async def public_look(service: GameService, guild_id: int | None) -> tuple[Texts, Theme]:
    """The language (as its texts) and the card theme of a server's public messages."""
    settings = await server_settings(service, guild_id)
    return texts(settings.language), settings.theme


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


@dataclass
class SurfaceStats:
    """REST work done for the games, by kind (for the benchmark and tests)."""

    table_edits: int = 0
    table_posts: int = 0
    summaries: int = 0
    hand_refreshes: int = 0
    pings: int = 0
    failures: int = 0


class Surfaces:
    """The public messages and open hands of every game this process serves."""

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

    # --- bookkeeping --------------------------------------------------------------------------

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

    # --- what happened --------------------------------------------------------------------------

    def after_update(self, update: GameUpdate, *, actor_user_id: int | None = None) -> None:
        """Record what ``update`` makes visible and schedule the edits (never waits).

        ``actor_user_id`` is the player whose click made the update: their hand is redrawn
        by the click's own response, so it is not refreshed again here.
        """
        if update.duplicate:
            return
        surface = self.get(update.game_id)
        seats: set[int] = set()
        paced: set[int] = set()
        everyone = dealt = False
        hidden_bid = any(isinstance(e, BidMade) and e.bid is None for e in update.events)
        if update.seat is not None:
            # The end of the actor's turn: their hand stops saying it is their turn (only its
            # text changes when the move was made elsewhere, e.g. an open bid on the table).
            paced.add(update.seat)
        for event in update.events:
            if isinstance(event, TrickWon):
                surface.tricks[event.round] = event
            elif isinstance(event, RoundScored):
                surface.round_ends[event.round] = RoundEnd(
                    event, surface.tricks.pop(event.round, None)
                )
            elif isinstance(event, GameOver):
                surface.game_over = event
            elif isinstance(event, GameCancelled):
                surface.cancelled = event.reason
                everyone = True
            elif isinstance(event, RoundDealt | TrumpChosen):
                dealt = True  # every hand shows new cards or trump; buttons only for turns
            elif isinstance(event, TurnChanged):
                now = frozenset(event.seats)
                paced.update(surface.to_act - now)  # their turn ended
                surface.to_act = now
                if event.phase is Phase.BID and hidden_bid:
                    # While hidden or secret bids are chosen, another player's bid leaves
                    # the waiting players' hands as they were (buttons and text).
                    continue
                if event.phase is Phase.BID and surface.open_bidding:
                    # An open bid is made on the table: the bidder's hand only says so (its
                    # text changes, not its buttons), so it is redrawn like any text change.
                    paced.update(now)
                else:
                    seats.update(now)
            elif isinstance(event, PlayerTimedOut | SeatHandedToComputer | SeatTakenBack):
                seats.add(event.seat)
        self.request(surface)
        self.refresh_hands(update.game_id, None if everyone else seats, skip=actor_user_id)
        if dealt and not everyone:
            self.refresh_hands(update.game_id, None, skip=actor_user_id, urgent=False)
        elif paced - seats and not everyone:
            self.refresh_hands(update.game_id, paced - seats, skip=actor_user_id, urgent=False)

    def cancelled(self, game_id: int, reason: str) -> None:
        """A game was cancelled by a command (the service returns no events for it)."""
        surface = self.get(game_id)
        surface.cancelled = reason
        self.request(surface)
        self.refresh_hands(game_id, None)

    def request(self, surface: Surface) -> None:
        """Bring the game's messages up to date soon (merged with any edit in flight)."""
        surface.dirty = True
        if surface.task is None:
            surface.task = asyncio.ensure_future(self._run(surface))

    async def idle(self) -> None:
        """Wait until no sync, hand refresh or ping is running (tests and shutdown)."""
        while True:
            pending = [t for t in self._tasks if not t.done()]
            pending += [s.task for s in self._games.values() if s.task is not None]
            pending += [t for t in self._hand_tasks.values() if not t.done()]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    # --- the sync task ----------------------------------------------------------------------------

    async def _run(self, surface: Surface) -> None:
        try:
            while surface.dirty:
                surface.dirty = False
                async with surface.lock:
                    await self._sync(surface)
        except Exception:
            log.exception("game %s: updating its messages failed", surface.game_id)
            self._retry_later(surface)
        finally:
            surface.task = None
        if surface.closed and not surface.dirty:
            self._forget(surface)

    def _forget(self, surface: Surface) -> None:
        """A game that ended keeps nothing in memory (a late update loads it again)."""
        if self._games.get(surface.game_id) is surface:
            del self._games[surface.game_id]
        for timer in (surface.ping_timer, surface.retry_timer, surface.table_timer):
            if timer is not None:
                timer.cancel()
        for key in [k for k in self._hands if k[0] == surface.game_id]:
            if key not in self._hand_tasks:
                _hold(self._hands.pop(key), None)

    async def _sync(self, surface: Surface) -> None:
        if surface.closed:
            return
        try:
            info = await self.service.get_game(surface.game_id)
        except ServiceError as error:
            log.info("game %s: not shown any more: %s", surface.game_id, error.message)
            surface.closed = True
            return
        self.adopt(info)
        for number in sorted(surface.round_ends):
            await self._round_end(surface, info, surface.round_ends[number])
            del surface.round_ends[number]
        if surface.game_over is not None:
            if not await self._final(surface, info, surface.game_over):
                self._retry_later(surface)
                return
            surface.game_over = None
            await self._clear_ping(surface)
            surface.closed = True
            await self.retire(surface)
            return
        if surface.cancelled is not None or info.status is GameStatus.CANCELLED:
            await self._show_cancelled(surface, info, surface.cancelled or "host")
            return
        if info.status is GameStatus.LOBBY:
            await self._lobby(surface, info)
        elif info.status is GameStatus.ACTIVE:
            if await self._table(surface, info):
                await self._ping(surface, info)
        elif info.status is GameStatus.FINISHED:
            surface.closed = True

    def _retry_later(self, surface: Surface) -> None:
        if surface.retry_timer is not None:
            return

        def fire() -> None:
            surface.retry_timer = None
            self.request(surface)

        surface.retry_timer = self.clock.call_at(self.clock.now() + self.config.retry_after, fire)

    # --- REST with the failures sorted out ------------------------------------------------------

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

    # --- lobby and table ----------------------------------------------------------------------

    async def _lobby(self, surface: Surface, info: GameInfo) -> None:
        if surface.lobby_id is None:
            return
        # Clicks redraw the lobby in their own responses; this covers what no click answers
        # (a kick by command), so it is never skipped as "already shown".
        t, _ = await public_look(self.service, info.guild_id)
        lobby = {"embed": lobby_embed_of(info, t=t), "view": lobby_view_of(info, t=t)}
        await self._edit(surface, surface.lobby_id, **lobby)

    async def _table(self, surface: Surface, info: GameInfo) -> bool:
        """Edit the table (or post it if it has none, or if it was deleted); True if done or
        held back for the trailing edit (see ``edit_interval``)."""
        t, theme = await public_look(self.service, info.guild_id)
        embed, view = table_parts(info, t=t, theme=theme)
        shown = _shown(embed, view)
        if surface.table_id is not None:
            if shown == surface.shown:
                return True
            if _buttons_of(surface.shown) != shown["buttons"]:
                # A person's bid buttons come or go (an open bid is made on the table): like
                # a hand whose buttons change, the table is edited at once.
                self._table_edited(surface)
            elif self._hold_table(surface):
                return True
            done = await self._edit(surface, surface.table_id, embed=embed, view=view)
            if done:
                self.stats.table_edits += 1
                surface.shown = shown
                return True
            if done is False:
                return False
            log.info("game %s: the table message is gone; posting it again", surface.game_id)
            surface.table_id = None
        self._table_edited(surface)
        message = await self._post(surface, embed=embed, view=view)
        if message is None:
            return False
        self.stats.table_posts += 1
        surface.table_id = message.id
        surface.shown = shown
        await self._remember_table(surface, message.id)
        return True

    def _hold_table(self, surface: Surface) -> bool:
        """Whether a table edit must wait for the end of the interval (a trailing edit is
        then armed); if not, the edit about to be made starts a new interval."""
        now = self.clock.now()
        if now + SLACK >= surface.table_free_at:
            self._table_edited(surface)
            return False
        if surface.table_timer is None:

            def fire() -> None:
                surface.table_timer = None
                self.request(surface)

            surface.table_timer = self.clock.call_at(surface.table_free_at, fire)
        return True

    def _table_edited(self, surface: Surface) -> None:
        surface.table_free_at = self.clock.now() + self.config.edit_interval

    async def _remember_table(self, surface: Surface, message_id: int | None) -> None:
        try:
            await self.service.set_message_ids(surface.game_id, table_message_id=message_id)
        except ServiceError as error:
            log.warning("game %s: table message id not stored: %s", surface.game_id, error)

    def note_table(
        self,
        surface: Surface,
        message_id: int,
        embed: discord.Embed,
        view: discord.ui.View | None = None,
    ) -> None:
        """The table is now ``message_id`` showing ``embed`` and ``view``, drawn by a click's
        response (the game's start, a bid made on the table): that response was the latest
        table edit, for the pacing, and shows the latest state, so no edit follows unless the
        state moves on."""
        surface.table_id = message_id
        surface.shown = _shown(embed, view)
        self._table_edited(surface)

    async def _round_end(self, surface: Surface, info: GameInfo, end: RoundEnd) -> None:
        """The table becomes the round's summary; the next table is posted below it, so that
        the live table stays at the bottom of the channel."""
        table = info.table
        assert table is not None
        number = end.scored.round
        if number > len(table.history):
            return
        trick = end.final_trick
        t, theme = await public_look(self.service, info.guild_id)
        embed = round_end_embed(
            table.history[number - 1],
            table.players,
            num_rounds=table.num_rounds,
            last_trick=trick.cards if trick is not None else (),
            last_winner=trick.winner if trick is not None else None,
            history=table.history[:number],
            t=t,
            theme=theme,
        )
        self.stats.summaries += 1
        if surface.table_id is not None:
            old = surface.table_id
            surface.table_id = None
            surface.shown = None
            await self._remember_table(surface, None)
            if await self._edit(surface, old, embed=embed, view=None):
                return
        await self._post(surface, embed=embed)

    async def _final(self, surface: Surface, info: GameInfo, over: GameOver) -> bool:
        """Post the final standings with the game record attached; True once posted."""
        table = info.table
        assert table is not None
        t, theme = await public_look(self.service, info.guild_id)
        files: list[discord.File] = []
        try:
            record = await self.service.game_record(info.id)
        except ServiceError as error:
            log.warning("game %s: no record to attach: %s", info.id, error.message)
        else:
            name = f"wizard-game-{info.id}.json"
            files.append(discord.File(io.BytesIO(record.encode()), filename=name))
        picture = await _scorepad_picture(info.id, table, t=t, theme=theme)
        image = None
        if picture is not None:
            name = f"wizard-scorepad-{info.id}.png"
            files.append(discord.File(io.BytesIO(picture), filename=name))
            image = f"attachment://{name}"
        embed = final_embed(table, scorepad_image=image, t=t)
        winners = [
            discord.utils.escape_markdown(s.name) for s in over.standings if s.seat in over.winners
        ]
        embed.set_footer(
            text=t("Wizard · game {game} · the record of the game is attached", game=info.id)
        )
        names = and_list(winners, t=t) if winners else ""
        content = "🏁 " + (
            # Translators: {names} are the winners, joined by “and”.
            t("**Game {game} is over.** Congratulations, {names}!", game=info.id, names=names)
            if names
            else t("**Game {game} is over.**", game=info.id)
        )
        extra: dict[str, Any] = {"files": files} if files else {}
        again = play_again_view(info.id, info.version, t=t)
        message = await self._post(surface, content=content, embed=embed, view=again, **extra)
        return message is not None

    async def _show_cancelled(self, surface: Surface, info: GameInfo, reason: str) -> None:
        target = surface.table_id or surface.lobby_id
        await self._clear_ping(surface)
        surface.cancelled = None
        surface.closed = True
        if target is None:
            await self.retire(surface)
            return
        t, _ = await public_look(self.service, info.guild_id)
        embed = cancelled_embed(info.id, reason, t=t)
        if (
            _shown(embed) != surface.shown
            and await self._edit(surface, target, embed=embed, view=None) is False
        ):
            surface.closed = False  # try again with the next update or the retry timer
            surface.cancelled = reason
            return
        await self.retire(surface)

    def note_cancelled(self, surface: Surface, embed: discord.Embed) -> None:
        """A click's response already shows the cancellation (then :meth:`retire` the game's
        thread, once the response is out)."""
        surface.shown = _shown(embed)
        surface.closed = True
        surface.cancelled = None

    async def retire(self, surface: Surface) -> None:
        """Archive the game's own thread, if it has one: the game is over or cancelled and its
        last public message is out (nothing for a game played in a channel)."""
        if surface.channel_id is not None:
            await retire_home(self.bot, surface.channel_id)

    # --- turn ping ----------------------------------------------------------------------------

    def _waiting_users(self, info: GameInfo) -> frozenset[int]:
        table = info.table
        if table is None or table.phase not in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY):
            return frozenset()
        out = set()
        for seat in table.to_act:
            row = info.seats[seat]
            if not row.computer_controlled and row.user_id is not None:
                out.add(row.user_id)
        return frozenset(out)

    async def _ping(self, surface: Surface, info: GameInfo) -> None:
        """Arm the reminder for the players the game waits on; drop a reminder that is done."""
        waiting = self._waiting_users(info)
        key = (waiting, info.version)
        if key == surface.ping_key:
            return
        surface.ping_key = key
        if surface.ping_timer is not None:
            surface.ping_timer.cancel()
            surface.ping_timer = None
        if surface.ping_id is not None and not surface.ping_users <= waiting:
            await self._clear_ping(surface)
        delay = self.config.ping_delay
        if not waiting or delay is None or surface.ping_users == waiting:
            return
        if delay <= 0:
            await self._post_ping(surface, key)
            return

        def fire() -> None:
            surface.ping_timer = None
            self._spawn(self._ping_due(surface, key))

        surface.ping_timer = self.clock.call_at(self.clock.now() + delay, fire)

    async def _ping_due(self, surface: Surface, key: tuple[frozenset[int], int]) -> None:
        async with surface.lock:
            if surface.ping_key == key and not surface.closed:
                await self._post_ping(surface, key)

    async def _post_ping(self, surface: Surface, key: tuple[frozenset[int], int]) -> None:
        info = await self.service.get_game(surface.game_id)
        if info.table is None or info.version != key[1]:
            return
        waiting = key[0]
        mentions = [f"<@{user}>" for user in sorted(waiting)]
        t, _ = await public_look(self.service, info.guild_id)
        message = await self._post(
            surface,
            content=ping_text(
                mentions,
                info.table.phase,
                info.table.round,
                t=t,
                on_table=bids_on_table(info.table),
            ),
            view=table_view(info.id, info.version, t=t),
            # The text mentions exactly the waiting players, so allowing user mentions pings
            # them and nobody else. (A list of users would be sent as integer ids, which
            # Discord's published request schema does not allow: it says strings.)
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        if message is None:
            return
        self.stats.pings += 1
        old = surface.ping_id
        surface.ping_id = message.id
        surface.ping_users = waiting
        if old is not None:
            await self._delete(surface, old)

    async def _clear_ping(self, surface: Surface) -> None:
        if surface.ping_timer is not None:
            surface.ping_timer.cancel()
            surface.ping_timer = None
        old, surface.ping_id, surface.ping_users = surface.ping_id, None, frozenset()
        if old is not None:
            await self._delete(surface, old)

    # --- open hands ---------------------------------------------------------------------------

    async def hand_parts(
        self, game_id: int, user_id: int, note: str | None = None, *, t: Texts
    ) -> tuple[str, discord.ui.View | None, int]:
        """A player's private hand message: its text, its buttons and the player's seat, in
        the player's language (``t``) and the server's card theme.

        Buttons only while the player can act: none once the game is over or cancelled, or
        for a player removed from it; "Take my seat back" while a computer holds the seat.
        """
        seat_view = await self.service.seat_view(game_id, user_id)
        info = await self.service.get_game(game_id)
        theme = (await server_settings(self.service, info.guild_id)).theme
        row = info.seats[seat_view.seat]
        notes = [note] if note else []
        view: discord.ui.View | None = None
        away = False
        if info.status is GameStatus.CANCELLED:
            notes.append("🛑 " + t("This game was cancelled."))
        elif info.status is not GameStatus.ACTIVE:
            notes.append("🏁 " + t("This game is over."))
        elif row.kicked:
            notes.append("🚫 " + t("You were removed from this game; a computer plays your seat."))
        elif seat_view.away:
            away = True
            view = take_back_view(game_id, seat_view.version, t=t)
        else:
            view = hand_view(seat_view.view, game_id, seat_view.version, theme=theme, t=t)
        text = hand_message(
            seat_view.view, note="\n".join(notes) or None, away=away, theme=theme, t=t
        )
        return text, view, seat_view.seat

    def remember_hand(
        self,
        game_id: int,
        user_id: int,
        seat: int,
        interaction: discord.Interaction[Any],
        shown: tuple[str, discord.ui.View | None] | None = None,
        *,
        message_id: int | None = None,
    ) -> None:
        """``interaction``'s response is now ``user_id``'s hand in ``game_id`` (showing
        ``shown``, its text and buttons, if given; ``message_id``, its message, if known): a
        redraw held back for the hand it replaces is not needed any more, and an older hand
        message still open is retired (edited to say so, with no buttons). Later redraws
        speak the interaction's language."""
        key = (game_id, user_id)
        now = self.clock.now()
        old = self._hands.get(key)
        if old is not None:
            _hold(old, None)
            newer = message_id is None or old.message_id != message_id
            if newer and old.expires > now and self.config.live_hands:
                self._replaced.setdefault(key, []).append(old)
        self._hands[key] = LiveHand(
            interaction,
            seat,
            language_of(interaction.locale),
            now + self.config.hand_lifetime,
            edited_at=now,
            shown=None if shown is None else _hand_shown(*shown),
            message_id=message_id,
        )
        if key in self._replaced:
            self._start_hand_task(key)

    def refresh_hands(
        self,
        game_id: int,
        seats: Iterable[int] | None,
        *,
        skip: int | None = None,
        urgent: bool = True,
    ) -> None:
        """Redraw the open hands of ``seats`` (every seat if ``None``) of a game.

        ``urgent``: the hands' buttons change (a turn, a seat changing hands), so they are
        redrawn at once. Otherwise only their text does, and a hand edited less than
        ``edit_interval`` ago is redrawn at the end of the interval, unless an urgent
        redraw or a click's answer shows the latest state first.
        """
        if not self.config.live_hands:
            return
        wanted = None if seats is None else set(seats)
        if wanted is not None and not wanted:
            return
        now = self.clock.now()
        for key, hand in list(self._hands.items()):
            if key[0] != game_id or key[1] == skip:
                continue
            if hand.expires <= now:
                _hold(self._hands.pop(key), None)
                continue
            if wanted is not None and hand.seat not in wanted:
                continue
            if not urgent and key in self._hand_dirty:
                continue  # a redraw about to start shows the latest state anyway
            due = hand.edited_at + self.config.edit_interval
            if urgent or now + SLACK >= due:
                _hold(hand, None)
                self._redraw(key)
            elif hand.timer is None:
                _hold(hand, self.clock.call_at(due, functools.partial(self._held_redraw, key)))

    def _held_redraw(self, key: tuple[int, int]) -> None:
        hand = self._hands.get(key)
        if hand is not None:
            hand.timer = None
            self._redraw(key)

    def _redraw(self, key: tuple[int, int]) -> None:
        self._hand_dirty.add(key)
        self._start_hand_task(key)

    def _start_hand_task(self, key: tuple[int, int]) -> None:
        # One task per player's hands: a retirement and a redraw never overtake each other.
        if key not in self._hand_tasks:
            self._hand_tasks[key] = asyncio.ensure_future(self._refresh_hand(key))

    async def _retire_hands(self, key: tuple[int, int]) -> None:
        """Edit the older hands of ``key`` to say a newer one replaced them (no buttons)."""
        for old in self._replaced.pop(key, []):
            if old.expires <= self.clock.now():
                continue  # Discord no longer lets its token edit it
            try:
                content = replaced_hand_message(t=texts(old.language))
                await old.interaction.edit_original_response(content=content, view=None)
            except discord.HTTPException as error:
                log.info("older hand of %s in game %s not retired: %s", key[1], key[0], error)
                continue
            self.stats.hand_refreshes += 1

    async def _refresh_hand(self, key: tuple[int, int]) -> None:
        game_id, user_id = key
        try:
            while key in self._hand_dirty or key in self._replaced:
                await self._retire_hands(key)
                if key not in self._hand_dirty:
                    continue
                self._hand_dirty.discard(key)
                hand = self._hands.get(key)
                if hand is None or hand.expires <= self.clock.now():
                    self._hands.pop(key, None)
                    return
                try:
                    t = texts(hand.language)
                    content, view, _ = await self.hand_parts(game_id, user_id, t=t)
                except ServiceError:
                    self._hands.pop(key, None)
                    return
                shown = _hand_shown(content, view)
                if shown == hand.shown:
                    continue  # the message shows exactly this already
                hand.edited_at = self.clock.now()
                try:
                    await hand.interaction.edit_original_response(content=content, view=view)
                except discord.HTTPException as error:
                    # The token expired or the player dismissed the message: forget it.
                    log.info("hand of %s in game %s not refreshed: %s", user_id, game_id, error)
                    if self._hands.get(key) is hand:
                        del self._hands[key]
                    return
                hand.shown = shown
                self.stats.hand_refreshes += 1
        except Exception:
            log.exception("refreshing the hand of %s in game %s failed", user_id, game_id)
        finally:
            self._hand_tasks.pop(key, None)


async def _scorepad_picture(
    game_id: int, table: TableView, *, t: Texts, theme: Theme
) -> bytes | None:
    """The final scorepad as a PNG, drawn off the event loop (a tenth of a second of work
    that would hold up every other game's clicks); ``None`` if it could not be drawn (the
    standings then show the scorepad as text)."""
    if not table.history:
        return None
    draw = functools.partial(
        scorepad_png,
        table.players,
        table.history,
        theme=theme,
        title=t("Game {game} · scorepad", game=game_id),
        labels=scorepad_labels(t),
    )
    try:
        return await asyncio.to_thread(draw)
    except Exception:
        log.exception("game %s: the scorepad picture could not be drawn", game_id)
        return None


def _hand_shown(content: str, view: discord.ui.View | None) -> tuple[str, str]:
    """What a hand message shows, comparable with what it showed before."""
    return content, repr(view.to_components() if view is not None else [])


def _hold(hand: LiveHand, timer: TimerHandle | None) -> None:
    """Replace the hand's held-back redraw (cancelling the one it had)."""
    if hand.timer is not None:
        hand.timer.cancel()
    hand.timer = timer
