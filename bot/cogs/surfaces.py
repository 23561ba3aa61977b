"""Each game's messages kept in step with the service: lobby, table, round summaries, final
standings, the turn ping, and the players' open hands.

:class:`Surfaces` puts together each feature's publishing (``TableMessages``,
``LobbyMessages``, ``SummaryMessages``, ``TurnPings``, ``OpenHands`` in :mod:`bot.features`,
on the base :class:`bot.cogs.messages.GameMessages`) and runs it from one sync task per game.

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
import logging

import discord

from bot.cogs.homes import retire_home
from bot.cogs.messages import (
    RoundEnd,
    Surface,
    known_settings,
    public_look,
)
from bot.features.lobby import LobbyMessages, cancelled_embed
from bot.features.open_hands import OpenHands, hold
from bot.features.pings import TurnPings
from bot.features.summaries import (
    SummaryMessages,
)
from bot.features.table import TableMessages, _shown
from wizard.service import (
    BidMade,
    GameCancelled,
    GameInfo,
    GameOver,
    GameStatus,
    GameUpdate,
    PlayerTimedOut,
    RoundDealt,
    RoundScored,
    SeatHandedToComputer,
    SeatTakenBack,
    ServiceError,
    TrickWon,
    TrumpChosen,
    TurnChanged,
)
from wizard.state import Phase

log = logging.getLogger(__name__)


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
        self._record(surface, update)
        self._keep_own_view(update)
        self.refresh_hands(update.game_id, None if everyone else seats, skip=actor_user_id)
        if dealt and not everyone:
            self.refresh_hands(update.game_id, None, skip=actor_user_id, urgent=False)
        elif paced - seats and not everyone:
            self.refresh_hands(update.game_id, paced - seats, skip=actor_user_id, urgent=False)

    def _keep_own_view(self, update: GameUpdate) -> None:
        """Give the actor's open hand the view their move's update carries."""
        if update.view is None or update.info is None:
            return
        user_id = update.info.seats[update.view.seat].user_id
        hand = self._hands.get((update.game_id, user_id or 0))
        if hand is not None:
            hand.own = update

    def cancelled(self, game_id: int, reason: str) -> None:
        """A game was cancelled by a command (the service returns no events for it)."""
        surface = self.get(game_id)
        surface.cancelled = reason
        self.request(surface)
        self.refresh_hands(game_id, None)

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
                hold(self._hands.pop(key), None)

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
