"""Each game's messages kept in step with the service: lobby, table, round summaries, final
standings, the turn ping, and the players' open hands.

:class:`Surfaces` puts together each feature's publishing (``TableMessages``,
``LobbyMessages``, ``SummaryMessages``, ``TurnPings`` in :mod:`bot.features`, and
:class:`~bot.cogs.open_hands.OpenHands` for the open hands, on the base
:class:`bot.cogs.messages.GameMessages`) and runs it from one sync task per game.

Everything the service reports (the result of a click, or a background move from a listener)
goes through :meth:`Surfaces.after_update`, which only *records* what must be shown (with the
newest picture of the game an update carried, ``GameUpdate.info``, and the server's settings
it was made under) and wakes the game's sync task. The task renders that newest picture, so
updates that arrive while an edit is in flight merge into the next edit, and a click's update
is shown without reading the service again. A change no update showed (a kick, a player
leaving, a retry) is rendered after a read of the game (:meth:`Surfaces.request`).

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
(the bid buttons are on the table), paced like any other. The other open hands name the
players the game waits for, so they too are redrawn, paced, whenever those change. When a
player opens a newer hand the older one is retired: edited to say so, with no buttons, so
that no open hand offers a move already made. The pacing lives in memory only: a trailing
edit lost in a restart is made when the new process connects, as it brings every game it
recovered up to date (``GameCog.on_ready``).

Public messages speak the server's language and show its card theme (``/wizard settings``);
a player's hand speaks the player's own language, that of the click that opened it
(:func:`bot.i18n.reader_texts`), which the live hand keeps for the redraws made outside any
interaction. A game played in a thread of its own has the thread archived once its last
message is out (final standings or cancellation).

Nothing here decides anything about the game: a failed REST call loses no game state, it only
leaves a message behind, and the next update (or a retry timer) repairs it: a deleted table
is posted again, a lost permission is reported in the channel once. The one exception is a
home that is gone: a channel Discord answers Unknown Channel for (deleted, perhaps while the
bot was down) has its open games cancelled through the service, as when Discord reports the
deletion of the channel or thread, or the bot's removal from the server
(:meth:`~bot.cogs.messages.GameMessages.home_gone`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Sequence
from functools import partial

import discord

from bot.cogs.homes import retire_home
from bot.cogs.look import known_settings, public_look
from bot.cogs.messages import (
    CHANNEL_DELETED,
    Note,
    RoundEnd,
    Surface,
)
from bot.cogs.open_hands import OpenHands, let_go
from bot.discord_faults import DISCORD_FAILED, failure_text
from bot.features.lobby import LobbyMessages, cancelled_embed, cancelled_note, damaged_embed
from bot.features.pings import TurnPings
from bot.features.seat_notes import handed_over_note, passed_to
from bot.features.summaries import SummaryMessages
from bot.features.table import TableMessages, public_shown
from bot.i18n import Texts
from wizard.service import (
    BidMade,
    Event,
    GameCancelled,
    GameInfo,
    GameOver,
    GameStatus,
    GameUpdate,
    PlayerTimedOut,
    RoundDealt,
    RoundScored,
    SeatHandedToComputer,
    SeatInfo,
    SeatTakenBack,
    SeatTakenOver,
    ServiceError,
    TrickWon,
    TrumpChosen,
    TurnChanged,
)
from wizard.state import Phase

log = logging.getLogger(__name__)


def _handed_over(seat: int, timeouts: int, host: SeatInfo | None, info: GameInfo, t: Texts) -> str:
    """The channel's note of ``seat`` handed to a computer after ``timeouts`` timeouts, and
    of ``host``, who hosts now if that changed."""
    return handed_over_note(
        info.seats[seat], timeouts, open_to_others=info.allow_seat_taking, host=host, t=t
    )


def _note_end(surface: Surface, event: Event) -> bool:
    """Keep a won trick, a scored round or the game's end for the channel; whether
    ``event`` was one of them."""
    if isinstance(event, TrickWon):
        surface.tricks[event.round] = event
    elif isinstance(event, RoundScored):
        surface.round_ends[event.round] = RoundEnd(event, surface.tricks.pop(event.round, None))
    elif isinstance(event, GameOver):
        surface.game_over = event
    else:
        return False
    return True


class Surfaces(TableMessages, LobbyMessages, SummaryMessages, TurnPings, OpenHands):
    """The public messages and open hands of every game this process serves."""

    def after_update(self, update: GameUpdate, *, actor_user_id: int | None = None) -> None:
        """Record what ``update`` makes visible and schedule the edits (never waits).

        ``actor_user_id`` is the player whose click made the update: their hand is redrawn
        by the click's own response, so it is not refreshed again here.
        """
        if update.duplicate:
            return
        surface = self.get(update.game_id)
        # Who has the host's say now, when this update passed it on (said with the note).
        host = passed_to(update)
        seats: set[int] = set()
        paced: set[int] = set()
        everyone = dealt = False
        waiting: frozenset[int] | None = None  # the seats to act, when they changed
        hidden_bid = any(isinstance(e, BidMade) and e.bid is None for e in update.events)
        timeouts: dict[int, int] = {}
        if update.seat is not None:
            # The end of the actor's turn: their hand stops saying it is their turn (only its
            # text changes when the move was made elsewhere, e.g. an open bid on the table).
            paced.add(update.seat)
        for event in update.events:
            if _note_end(surface, event):  # a trick, a round or the game ends
                # At the game's end every hand says it is over, with no buttons.
                everyone = everyone or isinstance(event, GameOver)
            elif isinstance(event, GameCancelled):
                surface.cancelled = event.reason
                everyone = True
            elif isinstance(event, RoundDealt | TrumpChosen):
                dealt = True  # every hand shows new cards or trump; buttons only for turns
            elif isinstance(event, TurnChanged):
                now = frozenset(event.seats)
                paced.update(surface.to_act - now)  # their turn ended
                surface.to_act = now
                waiting = now
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
            elif isinstance(
                event, PlayerTimedOut | SeatHandedToComputer | SeatTakenBack | SeatTakenOver
            ):
                seats.add(event.seat)  # taken over: the hand of who left it says by whom
                if isinstance(event, PlayerTimedOut):
                    timeouts[event.seat] = event.consecutive
                elif isinstance(event, SeatHandedToComputer) and event.reason == "timeouts":
                    # Told in the channel, as a leave is (QA: only the table's line changed).
                    count = timeouts.get(event.seat, 1)
                    surface.notes.append(partial(_handed_over, event.seat, count, host))
        if waiting is not None:
            # The hands of the seats not to act say whom the game waits for: that changed.
            if update.info is None:
                dealt = True
            else:
                paced.update(s.seat for s in update.info.seats if s.seat not in waiting)
        self._record(surface, update)
        self._keep_own_view(update)
        self.refresh_hands(update.game_id, None if everyone else seats, skip=actor_user_id)
        if dealt and not everyone:
            self.refresh_hands(update.game_id, None, skip=actor_user_id, urgent=False)
        elif paced - seats and not everyone:
            self.refresh_hands(update.game_id, paced - seats, skip=actor_user_id, urgent=False)

    def owed(self, game_id: int, ends: Sequence[Event]) -> None:
        """The round ends and game end (``GameService.owed_ends``) that a process which
        stopped had not shown: shown with the game's next redraw."""
        surface = self.get(game_id)
        for event in ends:
            _note_end(surface, event)

    def _keep_own_view(self, update: GameUpdate) -> None:
        """Give the actor's open hand the view their move's update carries."""
        if update.view is None or update.info is None:
            return
        user_id = update.info.seats[update.view.seat].user_id
        hand = None if user_id is None else self._hands.get((update.game_id, user_id))
        if hand is not None:
            hand.own = update

    async def thread_gone(self, thread_id: int, parent_id: int | None) -> None:
        """A thread was deleted: its open games are cancelled (:meth:`home_gone`), and the
        channel it was opened from (``parent_id``) is told of each that was being played:
        the table and the players' hands were in the thread. (A lobby was never announced
        in that channel, so its end is not either.) A refusal is logged."""
        updates = await self.home_gone(CHANNEL_DELETED, channel_id=thread_id)
        if parent_id is None or parent_id in self._gone:
            return  # deleted with the thread (the channel's own deletion came first)
        for update in updates:
            info = update.info
            if info is None or info.started_at is None:
                continue
            t, _ = await public_look(self.service, info.guild_id)
            channel = self.bot.get_partial_messageable(parent_id, guild_id=info.guild_id)
            try:
                await channel.send(
                    cancelled_note(info.id, CHANNEL_DELETED, t=t),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except DISCORD_FAILED as error:
                log.info(
                    "game %s: the channel was not told that its thread was deleted: %s",
                    info.id,
                    failure_text(error),
                )

    def cancelled(self, game_id: int, reason: str, *, skip: int | None = None) -> None:
        """A game was cancelled by a command (the service returns no events for it); the
        hand of ``skip``, the clicker, is redrawn by their click's own answer."""
        surface = self.get(game_id)
        surface.cancelled = reason
        self.request(surface)
        self.refresh_hands(game_id, None, skip=skip)

    def messages_deleted(self, message_ids: Collection[int]) -> None:
        """Someone deleted these messages: a running game's table among them is posted again
        at once. (Else only the game's next move did it, and a game waiting for a bid made
        with the table's buttons had no way on.)"""
        for surface in list(self._games.values()):
            if surface.table_id in message_ids and not surface.closed:
                log.info(
                    "game %s: its table message was deleted; posting it again", surface.game_id
                )
                surface.table_id = surface.lobby_id = None
                surface.shown = None
                self.request(surface)

    def settings_saved(self, guild_id: int, *, redraw: bool) -> None:
        """A manager saved the server's settings (or, with none saved, its Discord language
        changed): its games forget the settings their last update carried, so the next hand
        or table drawn reads the new ones (a hand opened before anyone moves shows hints as
        they are now). With ``redraw`` (a new language or card theme) their tables, turn
        reminders and open hands are drawn again at once, so that a hand or reminder never
        names a button as the table does not yet."""
        for surface in self._games.values():
            if surface.guild_id == guild_id:
                surface.latest_settings = None
                if redraw and not surface.closed:
                    surface.ping_restate = True
                    self.request(surface)
                    self.refresh_hands(surface.game_id, None, urgent=False)

    def request(self, surface: Surface) -> None:
        """Bring the game's messages up to date soon (merged with any edit in flight), reading
        the game first: something changed that no update showed."""
        surface.must_read = True
        self._wake(surface)

    def _record(self, surface: Surface, update: GameUpdate) -> None:
        """Keep the newest picture of the game an update carried, for the next sync."""
        info = update.info
        if info is None:
            surface.must_read = True
        elif surface.latest is None or info.version >= surface.latest.version:
            # Updates may arrive out of order (a click's and a computer's): the newest wins.
            surface.latest = info
            surface.latest_settings = update.settings
        self._wake(surface)

    def _wake(self, surface: Surface) -> None:
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
                let_go(self._hands.pop(key))

    async def _sync(self, surface: Surface) -> None:
        if surface.closed:
            return
        info, settings = surface.latest, surface.latest_settings
        if info is None or surface.must_read:
            surface.must_read = False  # before the read: a change meanwhile asks again
            try:
                info = await self.service.get_game(surface.game_id)
            except ServiceError as error:
                log.info("game %s: not shown any more: %s", surface.game_id, error.message)
                surface.closed = True
                return
            settings = None
            if surface.latest is None or info.version >= surface.latest.version:
                surface.latest, surface.latest_settings = info, None
        self.adopt(info)
        if settings is None or info.guild_id is None:
            await self._render(surface, info)
            return
        # The update's settings: its rendering (table, summaries, ping) reads none again.
        with known_settings(self.service, info.guild_id, settings):
            await self._render(surface, info)

    async def _render(self, surface: Surface, info: GameInfo) -> None:
        """Bring the game's messages up to date with ``info`` (the surface's lock held)."""
        for number in sorted(surface.round_ends):
            if not await self._round_end(surface, info, surface.round_ends[number]):
                self._retry_later(surface)  # the summary first: nothing is shown below it yet
                return
            del surface.round_ends[number]
        if surface.game_over is not None:
            if not await self._final(surface, info, surface.game_over):
                self._retry_later(surface)
                return
            surface.game_over = None
            await self._clear_ping(surface)
            surface.closed = True
            await self.retire(surface, finished=True)
            return
        if surface.cancelled is not None or info.status is GameStatus.CANCELLED:
            await self._show_cancelled(surface, info, surface.cancelled or "host")
            return
        if info.status is GameStatus.BROKEN:
            t, _ = await public_look(self.service, info.guild_id)
            await self._show_end(surface, damaged_embed(info.id, t=t))
            return
        if info.status is GameStatus.LOBBY:
            await self._lobby(surface, info)
        elif info.status is GameStatus.ACTIVE:
            await self._tell_notes(surface, info)
            if await self._table(surface, info):
                await self._ping(surface, info)
        elif info.status is GameStatus.FINISHED:
            surface.closed = True

    def tell(self, game_id: int, note: Note) -> None:
        """Tell the game's channel ``note`` (a seat that changed hands) with its next sync."""
        surface = self.get(game_id)
        surface.notes.append(note)
        self._wake(surface)

    async def _tell_notes(self, surface: Surface, info: GameInfo) -> None:
        """Post the notes the channel is yet to be told, in the server's language (once: a
        note Discord refuses is not tried again; the failure is reported as any post's)."""
        if not surface.notes:
            return
        t, _ = await public_look(self.service, info.guild_id)
        notes, surface.notes = surface.notes, []
        for note in notes:
            await self._post(
                surface, content=note(info, t), allowed_mentions=discord.AllowedMentions.none()
            )

    async def _show_cancelled(self, surface: Surface, info: GameInfo, reason: str) -> None:
        t, _ = await public_look(self.service, info.guild_id)
        if not await self._show_end(surface, cancelled_embed(info.id, reason, t=t)):
            surface.cancelled = reason  # try again with the next update or the retry timer

    async def _show_end(self, surface: Surface, embed: discord.Embed) -> bool:
        """Put ``embed`` in place of the game's lobby or table, with no buttons left, then
        retire the game's thread: the game will not go on. ``False`` when Discord refused the
        edit (the surface stays open, to try again)."""
        target = surface.table_id or surface.lobby_id
        surface.cancelled = None
        if self._in_gone_channel(surface):
            return True  # nowhere to show it, nor a thread left to archive
        await self._clear_ping(surface)
        surface.closed = True
        if target is None:
            await self.retire(surface)
            return True
        # A lobby's text (a rematch's invitation) goes too: there is no lobby left to join.
        text = {"content": ""} if target == surface.lobby_id else {}
        if (
            public_shown(embed) != surface.shown
            and await self._edit(surface, target, embed=embed, view=None, **text) is False
        ):
            if self._in_gone_channel(surface):
                return True  # found gone by this edit: nothing more to show
            surface.closed = False
            return False
        await self.retire(surface)
        return True

    def note_cancelled(self, surface: Surface, embed: discord.Embed) -> None:
        """A click's response already shows the cancellation (then :meth:`retire` the game's
        thread, once the response is out)."""
        surface.shown = public_shown(embed)
        surface.closed = True
        surface.cancelled = None

    async def retire(self, surface: Surface, *, finished: bool = False) -> None:
        """Archive the game's own thread, if it has one: the game is over or cancelled and its
        last public message is out (nothing for a game played in a channel); a ``finished``
        game's an hour later (:func:`~bot.cogs.homes.retire_home`)."""
        if surface.channel_id is not None:
            await retire_home(self.bot, surface.channel_id, finished=finished)
