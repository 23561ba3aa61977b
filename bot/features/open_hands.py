"""The players' open hands kept in step with the game: redrawn when what they say changes
(paced like the table when only their text does), retired when a newer hand replaces them."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Iterable
from typing import Any

import discord

from bot.cogs.messages import SLACK, GameMessages, LiveHand, server_settings
from bot.features.hand import TAKE_BACK_LABEL, hand_message, hand_view, replaced_hand_message
from bot.features.hints import hints_on
from bot.i18n import Texts, language_of, texts
from bot.ui.buttons import CustomId, Verb, one_button_view
from wizard.cards import Theme
from wizard.service import (
    GameInfo,
    GameStatus,
    GameUpdate,
    GuildSettings,
    SeatView,
    ServiceError,
    TimerHandle,
)


def hand_shown(content: str, view: discord.ui.View | None) -> tuple[str, str]:
    """What a hand message shows, comparable with what it showed before."""
    return content, repr(view.to_components() if view is not None else [])


log = logging.getLogger(__name__)


def _at(info: GameInfo | None, version: int) -> bool:
    """Whether ``info`` shows the game at ``version``."""
    return info is not None and info.version == version


def hold(hand: LiveHand, timer: TimerHandle | None) -> None:
    """Replace the hand's held-back redraw (cancelling the one it had)."""
    if hand.timer is not None:
        hand.timer.cancel()
    hand.timer = timer


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
    ) -> tuple[str, discord.ui.View | None, int]:
        """A player's private hand message: its text, its buttons and the player's seat, in
        the player's language (``t``) and the server's card theme (``theme``, read here if
        not given).

        ``update``: what the player's own click just received. While the game is still at
        its version (no newer update has reached the bot), the hand is drawn from it: the
        player's own view, the game's status and the server's theme it carries, so nothing
        is read again.

        Buttons only while the player can act: none once the game is over or cancelled, or
        for a player removed from it; "Take my seat back" while a computer holds the seat.
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
            status, kicked = update.status, False
        else:
            status, kicked = info.status, info.seats[seat_view.seat].kicked
        if theme is None:
            guild_id = info.guild_id if info is not None else None
            theme = (await server_settings(self.service, guild_id)).theme
        notes = [note] if note else []
        view: discord.ui.View | None = None
        away = False
        if status is GameStatus.CANCELLED:
            notes.append("🛑 " + t("This game was cancelled."))
        elif status is not GameStatus.ACTIVE:
            notes.append("🏁 " + t("This game is over."))
        elif kicked:
            notes.append("🚫 " + t("You were removed from this game; a computer plays your seat."))
        elif seat_view.away:
            away = True
            cid = CustomId(game_id, Verb.TAKEBACK, "", seat_view.version)
            view = one_button_view(cid, t(TAKE_BACK_LABEL), "🙋")
        else:
            hints = seat_view.view.my_turn and (
                known.hints_allowed
                if known is not None
                else await hints_on(self.service, self.get(game_id).guild_id, game_id)
            )
            view = hand_view(
                seat_view.view, game_id, seat_view.version, theme=theme, t=t, hints=hints
            )
        text = hand_message(
            seat_view.view, note="\n".join(notes) or None, away=away, theme=theme, t=t
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
            hold(old, None)
            newer = message_id is None or old.message_id != message_id
            if newer and old.expires > now and self.config.live_hands:
                self._replaced.setdefault(key, []).append(old)
        self._hands[key] = LiveHand(
            interaction,
            seat,
            language_of(interaction.locale),
            now + self.config.hand_lifetime,
            edited_at=now,
            shown=None if shown is None else hand_shown(*shown),
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
                hold(self._hands.pop(key), None)
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
                    own, hand.own = hand.own, None
                    content, view, _ = await self.hand_parts(game_id, user_id, t=t, update=own)
                except ServiceError:
                    self._hands.pop(key, None)
                    return
                shown = hand_shown(content, view)
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
