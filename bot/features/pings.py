"""The turn ping: who is mentioned and what it says."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Final

import discord

from bot.cogs.look import public_look
from bot.cogs.messages import GameMessages, Surface
from bot.cogs.replies import TIMED_OUT, timed_out_text
from bot.discord_faults import DISCORD_FAILED, failure_text
from bot.features.table import SHOW_HAND_LABEL, bids_on_table, table_view
from bot.i18n import N_, Texts, _bold
from wizard.service import GameInfo, ServiceError
from wizard.state import Phase

log = logging.getLogger(__name__)

PING_TEXTS: Final[dict[Phase, str]] = {
    Phase.CHOOSE_TRUMP: N_(
        "{players}: your turn to choose trump (Wizard, round {round}). Press {button}."
    ),
    Phase.BID: N_("{players}: your turn to bid (Wizard, round {round}). Press {button}."),
    Phase.PLAY: N_("{players}: your turn to play (Wizard, round {round}). Press {button}."),
}
"""The turn reminder by phase: ``{players}`` are mentions, ``{button}`` the table's button."""


PING_ACT: Final = N_("{players}: your turn to act (Wizard, round {round}). Press {button}.")
"""The turn reminder in any other phase."""


PING_BID_ON_TABLE: Final = N_(
    "{players}: your turn to bid (Wizard, round {round}). Bid with the buttons on the table."
)
"""The turn reminder for an open bid, made on the table (:func:`bids_on_table`)."""


def ping_text(
    mentions: Sequence[str], phase: Phase, round_no: int, *, t: Texts, on_table: bool = False
) -> str:
    """The turn reminder: who is awaited and for what (``on_table``: a bid made with the
    table's buttons)."""
    text = t(
        PING_BID_ON_TABLE if on_table else PING_TEXTS.get(phase, PING_ACT),
        players=" ".join(mentions),
        round=round_no,
        button=_bold(t(SHOW_HAND_LABEL)),
    )
    return f"🔔 {text}"


def timed_out_note(info: GameInfo, waiting: frozenset[int], *, t: Texts) -> str | None:
    """For the one player a reminder waits on, if their time ran out before: what happens if
    it keeps running out, as their hand says it (QA: the last person playing was warned only
    in a hand they had not opened, and the reminder mentioning them said nothing)."""
    if len(waiting) != 1:
        return None
    [user] = waiting
    seat = info.seat_of(user)
    if seat is None or info.seats[seat].timeouts == 0:
        return None
    # Not the move itself: a reminder is public, and a hidden bid is not (R7.2).
    return timed_out_text(t(TIMED_OUT), last=info.playing() == [user], t=t)


class TurnPings(GameMessages):
    """Publishing the turn ping: the players the game waits on, mentioned once, after a delay."""

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
        if surface.ping_restate:
            surface.ping_restate = False
            await self._restate_ping(surface, info, waiting)
        if key == surface.ping_key:
            return
        surface.ping_key = key
        if surface.ping_timer is not None:
            surface.ping_timer.cancel()
            surface.ping_timer = None
        if surface.ping_id is not None and not surface.ping_users:
            # A reminder an earlier process posted: whom it mentions, read from the message,
            # so that a player still awaited is not mentioned a second time for one turn.
            surface.ping_users = await self._mentioned(surface, surface.ping_id)
        if surface.ping_id is not None and not (
            surface.ping_users and surface.ping_users <= waiting
        ):
            await self._clear_ping(surface)
        delay = self.config.ping_delay
        if delay is not None and info.turn_seconds is not None:
            # A short turn timer: the reminder comes before a computer moves for the player.
            delay = min(delay, info.turn_seconds / 2)
        if not waiting or delay is None or surface.ping_users == waiting:
            return
        if delay <= 0:
            await self._post_ping(surface, key)
            return

        def fire() -> None:
            surface.ping_timer = None
            self._spawn(self._ping_due(surface, key))

        surface.ping_timer = self.clock.call_at(self.clock.now() + delay, fire)

    async def _restate_ping(
        self, surface: Surface, info: GameInfo, waiting: frozenset[int]
    ) -> None:
        """Edit the reminder still up (the players it mentions are still awaited) to speak
        the server's language as it is now (a manager changed it): an edit mentions nobody
        again. A reminder that is done is left to :meth:`_ping`, which deletes it."""
        if surface.ping_id is None or info.table is None:
            return
        if not surface.ping_users:  # an earlier process's: whom it mentions, read
            surface.ping_users = await self._mentioned(surface, surface.ping_id)
        if not surface.ping_users or not surface.ping_users <= waiting:
            return
        content, view = await self._ping_parts(info, surface.ping_users)
        edited = await self._edit(
            surface,
            surface.ping_id,
            content=content,
            view=view,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if edited is False:  # refused: tried again with the retry of the game's messages
            surface.ping_restate = True

    async def _ping_parts(
        self, info: GameInfo, waiting: frozenset[int]
    ) -> tuple[str, discord.ui.View]:
        """The reminder to ``waiting``: its text and the table's button, in the server's
        language."""
        assert info.table is not None
        mentions = [f"<@{user}>" for user in sorted(waiting)]
        t, _ = await public_look(self.service, info.guild_id)
        text = ping_text(
            mentions, info.table.phase, info.table.round, t=t, on_table=bids_on_table(info.table)
        )
        if (note := timed_out_note(info, waiting, t=t)) is not None:
            text += f"\n⏰ {note}"
        return text, table_view(info.id, info.version, t=t)

    async def _mentioned(self, surface: Surface, message_id: int) -> frozenset[int]:
        """The users the reminder ``message_id`` mentions; none if it cannot be read (then
        it goes, as a reminder whose players are unknown)."""
        try:
            message = await self._channel(surface).fetch_message(message_id)
        except DISCORD_FAILED as error:
            log.info(
                "game %s: turn reminder %s not read: %s",
                surface.game_id,
                message_id,
                failure_text(error),
            )
            return frozenset()
        return frozenset(message.raw_mentions)

    async def _ping_due(self, surface: Surface, key: tuple[frozenset[int], int]) -> None:
        async with surface.lock:
            if surface.ping_key == key and not surface.closed:
                await self._post_ping(surface, key)

    async def _post_ping(self, surface: Surface, key: tuple[frozenset[int], int]) -> None:
        info = await self.service.get_game(surface.game_id)
        if info.table is None or info.version != key[1]:
            return
        waiting = key[0]
        text, view = await self._ping_parts(info, waiting)
        message = await self._post(
            surface,
            content=text,
            view=view,
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
        await self._remember_ping(surface)
        if old is not None:
            await self._delete(surface, old)

    async def _clear_ping(self, surface: Surface) -> None:
        if surface.ping_timer is not None:
            surface.ping_timer.cancel()
            surface.ping_timer = None
        old, surface.ping_id, surface.ping_users = surface.ping_id, None, frozenset()
        if old is not None:
            await self._remember_ping(surface)
            await self._delete(surface, old)

    async def _remember_ping(self, surface: Surface) -> None:
        """Store which reminder the channel shows, for a process that starts after this one
        to delete it once it is done."""
        try:
            await self.service.set_message_ids(surface.game_id, ping_message_id=surface.ping_id)
        except ServiceError as error:
            log.warning("game %s: turn reminder id not stored: %s", surface.game_id, error)
