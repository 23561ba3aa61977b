"""Taking a seat in a running game: the table's "Take a seat", the private choice of seats
when several computers play, the person's hand right away and the table's note of it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import discord

from bot.cogs.look import server_settings
from bot.features.hand import HandClicks
from bot.features.seat_notes import passed_to, taken_over_text
from bot.features.table import TAKE_BACK_LABEL, seats_to_take
from bot.i18n import N_, Texts, _bold, level_name, reader_texts, texts
from bot.ui.buttons import CustomId, Verb, button, detached_view
from bot.ui.layout import GREEN
from wizard.service import GameInfo, NotSeatedError, SeatInfo, SeatTakenOver

CHOOSE_SEAT: Final = N_("Which computer's seat do you take? You play it from where it is now.")


def seat_label(seat: SeatInfo, *, t: Texts) -> str:
    """A seat on the choice's button: the computer's name and level, or the name of the
    person a computer stands in for (QA: "bob (Normal)" read as a computer called bob), and
    why: they left, their time ran out (QA: "cy (left the game)" of one who never left), or
    they were removed."""
    if not seat.is_computer:
        if seat.kicked:
            # Translators: a button choosing the seat of a player the host or a server
            # manager removed (a computer plays it), offered to someone taking over a seat.
            return t("{name} (removed from the game)", name=seat.name)[:80]
        if seat.timeouts:
            # Translators: a button choosing the seat of a player whose turn time ran out
            # until a computer took the seat over, offered to someone taking over a seat.
            return t("{name} (time ran out)", name=seat.name)[:80]
        # Translators: a button choosing the seat of a player who left (a computer plays
        # it for now), offered to someone taking over a seat.
        return t("{name} (left the game)", name=seat.name)[:80]
    level = level_name(seat.level, t=t) if seat.level else t("computer")
    return f"{seat.name} ({level})"[:80]


def seat_choice_view(info: GameInfo, seats: Sequence[int], *, t: Texts) -> discord.ui.View:
    """One button per seat in ``seats`` (computer seats the clicker may take)."""
    view = detached_view()
    for seat in seats[:5]:
        view.add_item(
            button(
                CustomId(info.id, Verb.TAKESEAT, str(seat), info.version),
                label=seat_label(info.seats[seat], t=t),
                emoji="🤖",
                style=GREEN,
            )
        )
    return view


def _probe(info: GameInfo) -> int:
    """A seat to ask the service for when none is open to the clicker, so that its refusal
    says why (seat taking off, a person plays it, already seated)."""
    return next((s.seat for s in info.seats if s.computer_controlled), 0)


# Translators: the answer to the table's "Take my seat back" pressed by a player whose own
# seat is not played by a computer (the button is for those who left theirs).
PLAYING_OWN_SEAT: Final = N_(
    "You are playing your own seat; this button is for players who left theirs."
)


# Translators: the answer to the table's "Take my seat back" ({button}) pressed by someone
# who holds no seat in the game and never left one.
NOT_A_LEAVER: Final = N_(
    "You are not playing in this game: {button} is for players who left it. You can watch it "
    "on the table, or join the next game."
)


class SeatClicks(HandClicks):
    """The table's "Take a seat" and the private choice of seats it may open."""

    async def _take_seat(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        user = interaction.user
        info = await self.service.get_game(cid.game)
        t = await reader_texts(interaction)
        own = info.seat_of(user.id)
        seat = cid.seat
        if own is None and (await self.service.players_of(cid.game)).get(user.id):
            # Removed by the host: no choice of seats they would be refused (QA).
            await self._refuse(interaction, NotSeatedError(reason="removed"))
            return
        if seat is None:
            open_seats = await self.service.seats_open_to(cid.game, user.id)
            if len(open_seats) > 1:
                view = seat_choice_view(info, open_seats, t=t)
                await self._send_private(interaction, "🙋 " + t(CHOOSE_SEAT), view)
                return
            if not open_seats and seats_to_take(info) == TAKE_BACK_LABEL:
                # The table's button is for players who left: not one of them.
                if own is None:
                    await self._not_a_leaver(interaction, cid, info)
                    return
                if not info.seats[own].away:  # QA: "already in this game" read as done
                    await self._send_private(interaction, "ℹ️ " + t(PLAYING_OWN_SEAT))
                    return
            seat = open_seats[0] if open_seats else _probe(info)
        before = info.seats[seat] if 0 <= seat < len(info.seats) else None
        update = await self._timely(
            interaction,
            self.service.take_seat(
                cid.game,
                user.id,
                # A seated player takes back their own seat (the service checks which).
                seat=None if own is not None and own == seat else seat,
                name=user.display_name,
            ),
            update=True,
        )
        self.surfaces.after_update(update, actor_user_id=user.id)
        taken = next((e for e in update.events if isinstance(e, SeatTakenOver)), None)
        if taken is None:
            note = "🙋 " + t("You are playing your seat again.")
        else:
            note = "🙋 " + t("You now play this seat: your hand is below.")
        # From the private choice the choice becomes the hand; from the table, a new one.
        await self._open_hand(interaction, cid.game, note=note, edit=cid.seat is not None)
        if taken is not None:
            host = passed_to(update)
            self.surfaces.tell(info.id, lambda _, t: taken_over_text(taken, before, host=host, t=t))
        elif update.info is not None:
            self._tell_back(update, user.id)

    async def _not_a_leaver(
        self, interaction: discord.Interaction[Any], cid: CustomId, info: GameInfo
    ) -> None:
        """Answer "Take my seat back" pressed by one without a seat: the service says whether
        they left and someone took their seat (and who); else whom the button is for."""
        try:
            # Their own seat: they hold none now, so the service refuses, saying why.
            await self.service.take_seat(cid.game, interaction.user.id)
        except NotSeatedError as error:
            if error.params.get("reason") != "not_in_game":
                raise
        public = await server_settings(self.service, info.guild_id)
        button = _bold(texts(public.language)(TAKE_BACK_LABEL))
        await self._send_private(
            interaction, "🚫 " + (await reader_texts(interaction))(NOT_A_LEAVER, button=button)
        )
