"""The players' open hands kept in step with the game: each private hand message is redrawn
when what it says changes, paced as the table is, retired when a newer one replaces it, and
kept (its interaction token) so that a restarted process goes on editing it. Run from
:class:`bot.cogs.surfaces.Surfaces`, whose docstring tells when a hand is redrawn."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Iterable
from typing import Any

import discord

from bot.cogs.look import server_settings
from bot.cogs.messages import (
    SLACK,
    GameMessages,
    LeaveStep,
    LiveHand,
)
from bot.cogs.replies import FINISHED_FOR_YOU, refusal_text, timed_out_text
from bot.discord_faults import DISCORD_FAILED, DiscordFailure, failure_text, passing
from bot.features.hand import (
    HAND_BOT_STOPPED,
    HAND_EXPIRED,
    hand_heading,
    hand_message,
    hand_view,
    leave_question,
    moves_in_hand,
    replaced_hand_message,
    stopped_hand_message,
    timed_out_move,
    with_leave,
)
from bot.features.hints import hints_on
from bot.features.table import TAKE_BACK_LABEL, show_hand_label
from bot.i18n import N_, Texts, reader_language, texts
from bot.ui.buttons import CustomId, Verb, one_button_view
from wizard.cards import Theme
from wizard.service import (
    GameInfo,
    GameStatus,
    GameUpdate,
    GuildSettings,
    NotSeatedError,
    OpenHand,
    SeatView,
    ServiceError,
    TimerHandle,
)

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
            removed = refusal_text(NotSeatedError(reason="kicked"), t=t)  # what to do too
            return "\n".join([*notes, removed]), None, seat_view.seat
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
            if leave is not LeaveStep.ASK:
                # The question stays with its buttons, through every redraw. Asked, the
                # player answers first: no card, bid or 💡 beside "Yes, leave" (QA: a tap
                # meant for "Yes" asked for a hint, and the game went unrated).
                at_turn = moves_in_hand(seat_view.view, bids_here=table_lost)
                notes.append(leave_question(leave, t=t, at_turn=at_turn))
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
            computer_moves=seat_view.computer_moves,
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
        spoken: str,
        message_id: int | None = None,
        leave: LeaveStep = LeaveStep.ASK,
        note: tuple[int, str] | None = None,
    ) -> None:
        """``interaction``'s response is now ``user_id``'s hand in ``game_id`` (showing
        ``shown``, its text and buttons, if given; ``message_id``, its message, if known): a
        redraw held back for the hand it replaces is not needed any more, and an older hand
        message still open is retired (edited to say so, with no buttons). Later redraws
        speak the reader's language, found from ``spoken``, their Discord's (and keep
        ``leave`` and ``note``, see :class:`LiveHand`)."""
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
            stale = LiveHand(
                interaction.edit_original_response,
                seat,
                spoken,
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
            spoken,
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
        kept = OpenHand(game_id, user_id, message_id, interaction.token, hand.spoken, hand.expires)
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
        try:
            info = await self.service.get_game(game_id)
        except ServiceError:
            return  # gone or damaged: the hand said so when it was last drawn
        if info.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
            # Over or cancelled: the hand says so already, and the table has no "Show my
            # hand" left to send the player to.
            return
        public = await server_settings(self.service, info.guild_id)
        t = texts(reader_language(hand.spoken, public.language))
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

    def moved(self, game_id: int, user_id: int) -> None:
        """``user_id`` made a move in ``game_id`` (a bid with the table's buttons, say) while
        their hand asked "Leave the game?": they stay, and the hand's redraws offer their
        moves again, with "Leave" (QA: the question stood, and hid their cards at their
        next turn)."""
        hand = self._hands.get((game_id, user_id))
        if hand is not None:
            hand.leave = LeaveStep.ASK

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

    async def _hand_texts(self, game_id: int, hand: LiveHand) -> Texts:
        """The texts a hand of ``game_id`` speaks now: its player's language, from their
        Discord's and their server's as it is now (:func:`bot.i18n.reader_language`): as the
        update to draw carried it (the player's own, else the newest), else as read."""
        surface = self._games.get(game_id)
        public = hand.own.settings if hand.own is not None else None
        if public is None and surface is not None:
            public = surface.latest_settings
        if public is None:
            public = await server_settings(self.service, surface.guild_id if surface else None)
        return texts(reader_language(hand.spoken, public.language))

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
                content = replaced_hand_message(t=await self._hand_texts(key[0], old))
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
                t = await self._hand_texts(game_id, hand)
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
