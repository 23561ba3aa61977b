"""Each game's messages kept in step with the service: lobby, table, round summaries, final
standings, the turn ping, and the players' open hands.

:class:`Surfaces` puts together each feature's publishing (``TableMessages``,
``LobbyMessages``, ``SummaryMessages``, ``TurnPings`` in :mod:`bot.features`, and the open
hands' :class:`OpenHands` here, on the base :class:`bot.cogs.messages.GameMessages`) and runs
it from one sync task per game.

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
a player's hand speaks the player's own language, the Discord locale of the click that opened
it, which the live hand keeps for the redraws made outside any interaction. A game played in
a thread of its own has the thread archived once its last message is out (final standings or
cancellation).

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
import contextlib
import functools
import logging
from collections.abc import Collection, Iterable, Sequence
from functools import partial
from typing import Any

import discord

from bot.cogs.homes import retire_home
from bot.cogs.look import known_settings, public_look, server_settings
from bot.cogs.messages import (
    CHANNEL_DELETED,
    SLACK,
    GameMessages,
    LeaveStep,
    LiveHand,
    Note,
    RoundEnd,
    Surface,
)
from bot.cogs.replies import FINISHED_FOR_YOU, KICKED, refusal_text, timed_out_text
from bot.discord_faults import DISCORD_FAILED, DiscordFailure, failure_text, passing
from bot.features.hand import (
    HAND_BOT_STOPPED,
    HAND_EXPIRED,
    hand_heading,
    hand_message,
    hand_view,
    leave_question,
    replaced_hand_message,
    stopped_hand_message,
    timed_out_move,
    with_leave,
)
from bot.features.hints import hints_on
from bot.features.lobby import LobbyMessages, cancelled_embed, cancelled_note, damaged_embed
from bot.features.pings import TurnPings
from bot.features.seat_notes import handed_over_note, passed_to
from bot.features.summaries import SummaryMessages
from bot.features.table import TAKE_BACK_LABEL, TableMessages, public_shown, show_hand_label
from bot.i18n import N_, Texts, language_of, texts
from bot.ui.buttons import CustomId, Verb, one_button_view
from wizard.cards import Theme
from wizard.service import (
    BidMade,
    Event,
    GameCancelled,
    GameInfo,
    GameOver,
    GameStatus,
    GameUpdate,
    GuildSettings,
    OpenHand,
    PlayerTimedOut,
    RoundDealt,
    RoundScored,
    SeatHandedToComputer,
    SeatInfo,
    SeatTakenBack,
    SeatTakenOver,
    SeatView,
    ServiceError,
    TimerHandle,
    TrickWon,
    TrumpChosen,
    TurnChanged,
)
from wizard.state import Phase

log = logging.getLogger(__name__)

# Translators: on a player's private hand while the bot cannot update the game's channel.
PERMISSION_LOST_IN_HAND = N_(
    "I lost a permission in this channel, so the table there stops following the game. Your "
    "moves count and the game is saved: ask a server manager to give me back **View Channel**, "
    "**Send Messages**, **Embed Links**, **Attach Files** and **Read Message History** here."
)
PERMISSION_LOST_IN_THREAD_HAND = N_(
    "I lost a permission in this game's thread, so the table there stops following the game. "
    "Your moves count and the game is saved: ask a server manager to give me back **View "
    "Channel**, **Send Messages in Threads**, **Embed Links**, **Attach Files** and **Read "
    "Message History** in its channel."
)


def hand_shown(content: str, view: discord.ui.View | None) -> tuple[str, str]:
    """What a hand message shows, comparable with what it showed before."""
    return content, repr(view.to_components() if view is not None else [])


def _at(info: GameInfo | None, version: int) -> bool:
    """Whether ``info`` shows the game at ``version``."""
    return info is not None and info.version == version


def _place(info: GameInfo | None, user_id: int, t: Texts) -> str | None:
    """Where ``user_id`` finished ``info``'s game, if its standings are known."""
    if info is None:
        return None
    mine = [s for s in info.standings if s.user_id == user_id]
    if not mine:
        return None
    # Translators: on a player's private hand once the game is over, after “This game is
    # over.”; {place} is a number (1 for the winner; ties share a place).
    return t(
        "Your place: {place} of {players}, with {points} points.",
        place=mine[0].place,
        players=len(info.standings),
        points=t.count(mine[0].score),
    )


def hold(hand: LiveHand, timer: TimerHandle | None) -> None:
    """Replace the hand's held-back redraw (cancelling the one it had)."""
    if hand.timer is not None:
        hand.timer.cancel()
    hand.timer = timer


def let_go(hand: LiveHand) -> None:
    """Cancel every timer of a hand that is not redrawn any more."""
    hold(hand, None)
    if hand.expiry is not None:
        hand.expiry.cancel()
        hand.expiry = None


KEEP_AHEAD = 300.0
"""Seconds: a click in a hand renews the token kept for the next process only when the one
kept has less than this left (see :meth:`OpenHands.keep_hand`)."""


def _handed_over(seat: int, timeouts: int, host: SeatInfo | None, info: GameInfo, t: Texts) -> str:
    """The channel's note of ``seat`` handed to a computer after ``timeouts`` timeouts, and
    of ``host``, who hosts now if that changed."""
    return handed_over_note(info.seats[seat], timeouts, host=host, t=t)


class OpenHands(GameMessages):
    """Publishing the open hands: redrawn when what they say changes, retired when replaced."""

    async def hand_parts(
        self,
        game_id: int,
        user_id: int,
        note: str | None = None,
        *,
        t: Texts,
        theme: Theme | None = None,
        update: GameUpdate | None = None,
        leave: LeaveStep = LeaveStep.ASK,
        kept: tuple[int, str] | None = None,
    ) -> tuple[str, discord.ui.View | None, int]:
        """A player's private hand message: its text, its buttons and the player's seat, in
        the player's language (``t``) and the server's card theme (``theme``, read here if
        not given).

        ``update``: what the player's own click just received. While the game is still at
        its version (no newer update has reached the bot), the hand is drawn from it: the
        player's own view, the game's status and the server's theme it carries, so nothing
        is read again.

        Buttons only while the player can act: none once the game is over or cancelled, or
        for a player removed from it; "Take my seat back" while a computer holds the seat;
        else their moves, on their turn, and the "Leave" of ``leave`` ("Leave and stop the
        game" only while they are the last person playing).

        ``kept``: a redraw's :attr:`LiveHand.note`, shown as ``note`` while its round lasts
        and the player has no move to make (then the hand asks for the next one).
        """
        own = self._own_view(game_id, user_id, update)
        seat_view = own or await self.service.seat_view(game_id, user_id)
        surface = self._games.get(game_id)
        info: GameInfo | None
        known: GuildSettings | None = None  # the settings an update carried, if any
        if own is not None and update is not None and update.info is not None:
            info = update.info
            known = update.settings
            if theme is None and update.settings is not None:
                theme = update.settings.theme
        elif update is not None and theme is not None and update.version == seat_view.version:
            info = None  # the player just acted in this version: not kicked, status known
        elif surface is not None and _at(surface.latest, seat_view.version):
            # The newest update's picture is of the version this view shows (another
            # player's move just redraws this hand): the game need not be read again.
            info = surface.latest
            known = surface.latest_settings
            if theme is None and surface.latest_settings is not None:
                theme = surface.latest_settings.theme
        else:
            info = await self.service.get_game(game_id)
        if info is None:
            assert update is not None
            status, kicked, timed_out = update.status, False, False
            last = leave is LeaveStep.STOP  # they just acted: as they were told at "Leave"
        else:
            seat = info.seats[seat_view.seat]
            status, kicked, timed_out = info.status, seat.kicked, seat.timeouts > 0
            last = info.playing() == [user_id]
        public = known
        if public is None:  # the server's settings, as cached by the service
            guild_id = info.guild_id if info is not None else self.get(game_id).guild_id
            public = await server_settings(self.service, guild_id)
        if theme is None:
            theme = public.theme
        show_hand = show_hand_label(public.language)
        channel_id = info.channel_id if info is not None else self.get(game_id).channel_id
        # First, its game and channel: a player may have hands of several games open.
        notes = [hand_heading(game_id, channel_id, t=t), *([note] if note else [])]
        view: discord.ui.View | None = None
        away = False
        ending: list[str] = []  # after the last round's line: how the game ended for them
        # The table cannot be updated: its bid buttons would not follow, so the hand has them.
        table_lost = status is GameStatus.ACTIVE and surface is not None and surface.permission_lost
        if status is GameStatus.CANCELLED:  # no turn, no cards to play: the note alone
            cancelled = "🛑 " + t("This game was cancelled.")
            return "\n".join([*notes, cancelled]), None, seat_view.seat
        if status is not GameStatus.ACTIVE:
            over = "🏁 " + t("This game is over.")
            if seat_view.away:  # the computer's bids and points, not theirs
                ending += [over, "🏳️ " + t(FINISHED_FOR_YOU)]
                away = True
            else:
                ending.append(f"{over} {place}" if (place := _place(info, user_id, t)) else over)
        elif kicked:  # the seat's cards are the computer's now (R8.3): the note alone
            return "\n".join([*notes, "🚫 " + t(KICKED)]), None, seat_view.seat
        elif seat_view.away:
            away = True
            cid = CustomId(game_id, Verb.TAKEBACK, "", seat_view.version)
            view = one_button_view(cid, t(TAKE_BACK_LABEL), "🙋")
        else:
            shown = seat_view.view
            if kept is not None and not note and kept[0] == shown.round and not shown.my_turn:
                notes.insert(1, kept[1])  # below the heading, where the click put it
            if timed_out:
                move = timed_out_move(seat_view.view, theme, t=t)
                notes.append("⏰ " + timed_out_text(move, last=last, t=t))
            hints = seat_view.view.my_turn and (
                known.hints_allowed
                if known is not None
                else await hints_on(self.service, self.get(game_id).guild_id, game_id)
            )
            moves = hand_view(
                seat_view.view,
                game_id,
                seat_view.version,
                theme=theme,
                t=t,
                hints=hints,
                bids_here=table_lost,
            )
            if leave is LeaveStep.STOP and not last:
                leave = LeaveStep.ASK  # someone came back: leaving stops nothing any more
            if leave is LeaveStep.CONFIRM:  # the question stays with its button
                notes.append(leave_question(t=t))
            if leave is not LeaveStep.ASK:
                # Asked, the player answers first: no card, bid or 💡 beside "Yes, leave"
                # (QA: a tap meant for "Yes" asked for a hint, and the game went unrated).
                moves = None
            view = with_leave(moves, game_id, t=t, step=leave)
        if table_lost:
            # The channel may not have been told (no View Channel): an answer needs no permission.
            assert surface is not None
            # Known once the warning was said (no look-up at each redraw of the hand).
            thread = surface.thread or (
                surface.thread is None and await self.game_thread(surface) is not None
            )
            notes.append(
                "⚠️ " + t(PERMISSION_LOST_IN_THREAD_HAND if thread else PERMISSION_LOST_IN_HAND)
            )
        text = hand_message(
            seat_view.view,
            note="\n".join(notes),
            away=away,
            theme=theme,
            t=t,
            show_hand=show_hand,
            ending=ending,
            bids_here=table_lost,
            bids_not_theirs=seat_view.bids_not_theirs,
            helped=seat_view.helped,
            last_round_helped=seat_view.last_round_helped,
        )
        return text, view, seat_view.seat

    def _own_view(self, game_id: int, user_id: int, update: GameUpdate | None) -> SeatView | None:
        """The player's view their own move's ``update`` carries, while it is the newest
        picture of the game the bot has (a computer's move since makes it old: then ``None``,
        and the hand is read)."""
        if update is None or update.view is None or update.info is None or update.duplicate:
            return None
        seat = update.info.seats[update.view.seat]
        if update.game_id != game_id or seat.user_id != user_id:
            return None
        surface = self._games.get(game_id)
        latest = surface.latest if surface is not None else None
        if latest is not None and latest.version > update.version:
            return None
        return update.view

    def remember_hand(
        self,
        game_id: int,
        user_id: int,
        seat: int,
        interaction: discord.Interaction[Any],
        shown: tuple[str, discord.ui.View | None] | None = None,
        *,
        message_id: int | None = None,
        leave: LeaveStep = LeaveStep.ASK,
        note: tuple[int, str] | None = None,
    ) -> None:
        """``interaction``'s response is now ``user_id``'s hand in ``game_id`` (showing
        ``shown``, its text and buttons, if given; ``message_id``, its message, if known): a
        redraw held back for the hand it replaces is not needed any more, and an older hand
        message still open is retired (edited to say so, with no buttons). Later redraws
        speak the interaction's language (and keep ``leave`` and ``note``, see
        :class:`LiveHand`)."""
        key = (game_id, user_id)
        now = self.clock.now()
        old = self._hands.get(key)
        if (
            old is not None
            and message_id is not None
            and old.message_id is not None
            and message_id < old.message_id
            and old.expires > now
            and self.config.live_hands
        ):
            # A click in an older hand, answered after a newer one below opened (the two
            # raced): the lower one stays the live hand, redrawn; the clicked one is retired.
            language = language_of(interaction.locale)
            stale = LiveHand(
                interaction.edit_original_response,
                seat,
                language,
                now + self.config.hand_lifetime,
                now,
            )
            self._replaced.setdefault(key, []).append(stale)
            self.redraw_hand(game_id, user_id)
            return
        kept_until = None
        if old is not None:
            let_go(old)
            newer = message_id is None or old.message_id != message_id
            if newer and old.expires > now and self.config.live_hands:
                self._replaced.setdefault(key, []).append(old)
            if not newer:
                kept_until = old.kept_until
        hand = self._hands[key] = LiveHand(
            interaction.edit_original_response,
            seat,
            language_of(interaction.locale),
            now + self.config.hand_lifetime,
            edited_at=now,
            shown=None if shown is None else hand_shown(*shown),
            message_id=message_id,
            leave=leave,
            kept_until=kept_until,
            note=note,
        )
        if self.config.live_hands:
            expired = functools.partial(self._stop_hand, key, hand, HAND_EXPIRED)
            hand.expiry = self.clock.call_at(hand.expires, expired)
        if key in self._replaced:
            self._start_hand_task(key)

    async def keep_hand(
        self, game_id: int, user_id: int, interaction: discord.Interaction[Any], message_id: int
    ) -> None:
        """Keep the token of ``interaction``, which just drew the hand ``message_id``, for the
        next process: should this one stop or crash, that one goes on editing the hand while
        Discord lets the token (:meth:`restore_hands`). A new hand's token is kept at once; a
        click's in it, only when the token kept has less than :data:`KEEP_AHEAD` left (a
        hand in use lives on, with no write per click). A hand not kept only stops updating
        at a restart."""
        hand = self._hands.get((game_id, user_id))
        if hand is None or hand.message_id != message_id or not self.config.live_hands:
            return
        if hand.kept_until is not None and hand.kept_until - self.clock.now() > KEEP_AHEAD:
            return
        kept = OpenHand(
            game_id, user_id, message_id, interaction.token, hand.language, hand.expires
        )
        try:
            await self.service.keep_open_hand(kept)
        except ServiceError as error:  # the service told the operator of the failed write
            log.info(
                "hand of %s in game %s not kept for a restart (%s)", user_id, game_id, error.code
            )
            return
        hand.kept_until = kept.expires_at

    async def restore_hands(self, game_id: int) -> None:
        """After a restart: the hands of a running game that a process before this one kept
        (:meth:`keep_hand`) are live again, redrawn now and on every change until their
        token runs out, as if opened in this process. A crash left them showing the game as
        it was (QA: "Waiting for bob" while the table gave the turn to their player); a clean
        stop, saying that the bot stopped. One the player replaced meanwhile (a fresh hand
        opened in this process) is retired, as a replaced hand is."""
        if not self.config.live_hands:
            return
        try:
            kept = await self.service.open_hands(game_id)
            info = await self.service.get_game(game_id)
        except ServiceError:
            return  # damaged or unreadable: reported by the service; fresh hands still open
        if info.status is not GameStatus.ACTIVE or self.bot.application_id is None:
            return
        now = self.clock.now()
        for hand in kept:
            key = (game_id, hand.user_id)
            seat = info.seat_of(hand.user_id)
            live = self._hands.get(key)
            if seat is None or (live is not None and live.message_id == hand.message_id):
                continue  # no longer playing, or the hand is live in this process already
            webhook = discord.Webhook.partial(self.bot.application_id, hand.token, client=self.bot)
            restored = LiveHand(
                functools.partial(webhook.edit_message, hand.message_id),
                seat,
                hand.language,
                hand.expires_at,
                edited_at=now,
                message_id=hand.message_id,
                kept_until=hand.expires_at,
            )
            if live is not None and (live.message_id or hand.message_id + 1) > hand.message_id:
                # A newer hand opened in this process (one of unknown id counts as newer):
                # the kept one retires.
                self._replaced.setdefault(key, []).append(restored)
                self._start_hand_task(key)
                continue
            if live is not None:  # a click in an older hand came first: that one retires
                let_go(live)
                self._replaced.setdefault(key, []).append(live)
            self._hands[key] = restored
            expired = functools.partial(self._stop_hand, key, restored, HAND_EXPIRED)
            restored.expiry = self.clock.call_at(restored.expires, expired)
            self._redraw(key)

    def _stop_hand(self, key: tuple[int, int], hand: LiveHand, why: str) -> None:
        """The open ``hand`` is redrawn no more: its last edit says ``why``."""
        hand.expiry = None
        if self._hands.get(key) is not hand:
            return  # replaced by a newer one, or forgotten
        hand.stopped = why
        self._redraw(key)

    async def close_hands(self) -> None:
        """The bot stops: every open hand says so (and how to get a fresh one), with no
        buttons, rather than go on showing a turn that moves on without it."""
        for key, hand in list(self._hands.items()):
            let_go(hand)
            if hand.expires > self.clock.now():
                self._stop_hand(key, hand, HAND_BOT_STOPPED)
        while self._hand_tasks:
            await asyncio.gather(*self._hand_tasks.values(), return_exceptions=True)

    async def _say_stopped(self, game_id: int, hand: LiveHand) -> None:
        assert hand.stopped is not None
        t = texts(hand.language)
        try:
            info = await self.service.get_game(game_id)
        except ServiceError:
            return  # gone or damaged: the hand said so when it was last drawn
        if info.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
            # Over or cancelled: the hand says so already, and the table has no "Show my
            # hand" left to send the player to.
            return
        public = await server_settings(self.service, info.guild_id)
        button = show_hand_label(public.language)
        content = stopped_hand_message(hand.stopped, t=t, button=button)
        try:
            await hand.edit(content=content, view=None)
        except DISCORD_FAILED as error:
            log.info("hand of game %s not told it stopped: %s", game_id, failure_text(error))
            return
        self.stats.hand_refreshes += 1

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
                let_go(self._hands.pop(key))
                continue
            if wanted is not None and hand.seat not in wanted:
                continue
            if not urgent and key in self._hand_dirty:
                continue  # a redraw about to start shows the latest state anyway
            due = hand.edited_at + self.config.edit_interval
            if urgent or now + SLACK >= due:
                hold(hand, None)
                self._redraw(key)
            elif hand.timer is None:
                hold(hand, self.clock.call_at(due, functools.partial(self._held_redraw, key)))

    def redraw_hand(self, game_id: int, user_id: int) -> None:
        """Redraw ``user_id``'s open hand in ``game_id`` whatever it is thought to show (an
        answer meant to show the latest state may not have reached it)."""
        key = (game_id, user_id)
        hand = self._hands.get(key)
        if hand is not None and self.config.live_hands:
            hand.shown = None
            hold(hand, None)
            self._redraw(key)

    def _retry_hand(self, key: tuple[int, int], hand: LiveHand, error: DiscordFailure) -> None:
        """Redraw a hand Discord did not edit after ``retry_after`` (one warning)."""
        level = logging.INFO if hand.refused else logging.WARNING
        log.log(
            level,
            "hand of %s in game %s not refreshed (%s); retrying every %gs",
            key[1],
            key[0],
            failure_text(error),
            self.config.retry_after,
        )
        hand.refused = True
        due = self.clock.now() + self.config.retry_after
        hold(hand, self.clock.call_at(due, functools.partial(self._held_redraw, key)))

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
                await old.edit(content=content, view=None)
            except DISCORD_FAILED as error:
                log.info(
                    "older hand of %s in game %s not retired: %s",
                    key[1],
                    key[0],
                    failure_text(error),
                )
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
                if hand is not None and hand.stopped is not None:
                    del self._hands[key]
                    await self._say_stopped(game_id, hand)
                    return
                if hand is None or hand.expires <= self.clock.now():
                    self._hands.pop(key, None)
                    return
                t = texts(hand.language)
                surface = self._games.get(game_id)
                if hand.note is not None and surface is not None and hand.seat in surface.to_act:
                    hand.note = None  # their turn came again: the move's note is done with
                try:
                    own, hand.own = hand.own, None
                    content, view, _ = await self.hand_parts(
                        game_id, user_id, t=t, update=own, leave=hand.leave, kept=hand.note
                    )
                except ServiceError as error:
                    # Nothing to show any more (removed from the game, or it is damaged):
                    # the open hand says why, with no buttons, and is not redrawn again.
                    self._hands.pop(key, None)
                    content, view = refusal_text(error, t=t), None
                    if hand_shown(content, view) != hand.shown:
                        edit = hand.edit
                        with contextlib.suppress(*DISCORD_FAILED):
                            await edit(content=content, view=None)
                    return
                shown = hand_shown(content, view)
                if shown == hand.shown:
                    continue  # the message shows exactly this already
                hand.edited_at = self.clock.now()
                try:
                    await hand.edit(content=content, view=view)
                except DISCORD_FAILED as error:
                    if passing(error):
                        # Discord's own trouble: the hand would contradict the table until
                        # the player's next click; it is redrawn once Discord takes edits.
                        self._retry_hand(key, hand, error)
                        return
                    # The token expired or the player dismissed the message: forget it.
                    log.info(
                        "hand of %s in game %s not refreshed: %s",
                        user_id,
                        game_id,
                        failure_text(error),
                    )
                    if self._hands.get(key) is hand:
                        del self._hands[key]
                    return
                if hand.refused:
                    hand.refused = False
                    log.info("hand of %s in game %s redrawn again", user_id, game_id)
                hand.shown = shown
                self.stats.hand_refreshes += 1
        except Exception:
            log.exception("refreshing the hand of %s in game %s failed", user_id, game_id)
        finally:
            self._hand_tasks.pop(key, None)


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
