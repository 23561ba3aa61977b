"""The button sets of the lobby, the table, the hand and the final standings, from custom ids.

Every view is a :class:`WizardView` made of :mod:`bot.ui.buttons` dynamic items, so the bot
keeps nothing in memory per message: a click (after a restart too) is parsed from its custom id.
Never call ``stop()`` on these views: discord.py would unregister the dynamic item classes.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

import discord

from bot.i18n import Texts
from bot.render import (
    ADD_COMPUTER_LABEL,
    CANCEL_LABEL,
    JOIN_LABEL,
    LEAVE_LABEL,
    PLAY_AGAIN_LABEL,
    PLAY_UNSEEN_LABEL,
    SHOW_HAND_LABEL,
    START_LABEL,
    TAKE_BACK_LABEL,
    bids_on_table,
    card_emoji,
    card_label_text,
    legal_bids,
    level_name,
    must_play_hidden,
    playable_cards,
    sort_hand,
    suit_emoji,
    table_bids,
    trump_choices,
)
from bot.ui.buttons import button
from bot.ui.custom_ids import CustomId, Verb
from wizard.cards import SUITS, Theme, suit_label
from wizard.errors import OptionsError
from wizard.options import MAX_PLAYERS, MIN_PLAYERS, Options, check_setup
from wizard.service import GameInfo, GuildSettings
from wizard.state import Phase
from wizard.view import PlayerView, TableView, public_table

MAX_BUTTONS: Final = 25
"""Discord allows 5 rows of 5 buttons in a message."""
ROW_WIDTH: Final = 5
MAX_ROWS: Final = 5

_GREY = discord.ButtonStyle.secondary
_BLUE = discord.ButtonStyle.primary
_GREEN = discord.ButtonStyle.success
_RED = discord.ButtonStyle.danger


class WizardView(discord.ui.View):
    """A set of buttons that discord.py sends but never keeps.

    Its items are dynamic items registered with the bot (``add_dynamic_items``), which
    discord.py dispatches from the clicked message itself. A kept view would only cost
    memory (one per message sent or edited) and, for a private message, a 15-minute timer
    whose expiry makes discord.py unregister dynamic items; so this view reports itself
    finished and with nothing to dispatch, and discord.py does not store it.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        """Nothing for discord.py's view store: the dynamic items dispatch themselves."""
        return False

    def is_finished(self) -> bool:
        """Never listening (see the class): not stored, no timeout."""
        return True


def seat_limit(options: Options) -> int:
    """The most players a game with ``options`` can have, as the engine says (R2.1; single
    suit is for 3 or 4, R7.7)."""
    for players in range(MAX_PLAYERS, MIN_PLAYERS - 1, -1):
        try:
            check_setup(options, players)
        except OptionsError:
            continue
        return players
    return MAX_PLAYERS  # options that no table size fixes: the start will say why


def lobby_view(
    game: int,
    version: int,
    *,
    t: Texts,
    players: int | None = None,
    max_seats: int = MAX_PLAYERS,
    computers: Sequence[tuple[int, str, str | None]] = (),
) -> discord.ui.View:
    """Join, Leave, Add computer player, Start (host), Cancel (host); and a button per
    computer (``computers``: seat, name, level) that moves it to the next level (host).

    With ``players`` (the seats taken) known: "Add computer player" is disabled once the
    table is full and Start until :data:`~wizard.options.MIN_PLAYERS` have joined, each
    with the count that says why in its label ("Add computer player (6/6)", "Start (2/3)").
    """
    full = players is not None and players >= max_seats
    too_few = players is not None and players < MIN_PLAYERS
    add = t(ADD_COMPUTER_LABEL) + (f" ({players}/{max_seats})" if full else "")
    start = t(START_LABEL) + (f" ({players}/{MIN_PLAYERS})" if too_few else "")
    view = WizardView()
    view.add_item(button(CustomId(game, Verb.JOIN, "", version), label=t(JOIN_LABEL), style=_GREEN))
    view.add_item(button(CustomId(game, Verb.LEAVE, "", version), label=t(LEAVE_LABEL)))
    view.add_item(
        button(CustomId(game, Verb.ADDBOT, "", version), label=add, emoji="🤖", disabled=full)
    )
    view.add_item(
        button(
            CustomId(game, Verb.START, "", version),
            label=start,
            style=_GREY if too_few else _BLUE,
            disabled=too_few,
        )
    )
    view.add_item(
        button(CustomId(game, Verb.CANCEL, "", version), label=t(CANCEL_LABEL), style=_RED)
    )
    for seat, name, level in computers[: MAX_PLAYERS - 1]:
        # The label says the level now; the click moves on to the next one.
        following = next_level(level)
        view.add_item(
            button(
                CustomId.for_level(game, seat, following, version),
                label=f"{name}: {level_name(level, t=t)}"[:80],
                emoji="🤖",
                row=1,
            )
        )
    return view


def next_level(level: str | None) -> str:
    """The level a computer's level button moves to: the next of the levels people are
    offered (Easy → Normal → Easy), or the first for a level they are not offered."""
    order = GuildSettings.USER_LEVELS
    if level not in order:
        return order[0]
    return order[(order.index(level) + 1) % len(order)]


def lobby_view_of(info: GameInfo, *, t: Texts) -> discord.ui.View:
    """The lobby buttons of ``info``, disabled where its seats say so (:func:`lobby_view`)."""
    return lobby_view(
        info.id,
        info.version,
        t=t,
        players=len(info.seats),
        max_seats=seat_limit(info.options),
        computers=[(s.seat, s.name, s.level) for s in info.seats if s.is_computer],
    )


def table_view(
    game: int,
    version: int,
    *,
    t: Texts,
    table: TableView | None = None,
    computer: Collection[int] = (),
) -> discord.ui.View:
    """The table's buttons: under open bidding, while a person (not a seat in ``computer``)
    is to bid, one button per bid 0…r with the forbidden one disabled (R7.1, R7.5,
    :func:`~bot.render.table_bids`), then "Show my hand".

    Bids take rows of five; "Show my hand" gets a row of its own when one is left (up to 20
    bids), else it closes the last row (21 bids, round 20 with 3 players: 22 buttons).
    """
    view = WizardView()
    row: int | None = None
    if table is not None and bids_on_table(table) and table.turn not in computer:
        allowed = set(table_bids(table))
        count = table.round_tricks + 1
        for bid in range(count):
            view.add_item(
                button(
                    CustomId.for_bid(game, bid, version),
                    label=str(bid),
                    style=_BLUE if bid in allowed else _GREY,
                    disabled=bid not in allowed,
                    row=bid // ROW_WIDTH,
                )
            )
        row = min(-(-count // ROW_WIDTH), MAX_ROWS - 1)
    view.add_item(
        button(
            CustomId(game, Verb.HAND, "", version),
            label=t(SHOW_HAND_LABEL),
            emoji="🎴",
            style=_BLUE,
            row=row,
        )
    )
    assert len(view.children) <= MAX_BUTTONS
    return view


def take_back_view(game: int, version: int, *, t: Texts) -> discord.ui.View:
    """The hand of a player whose seat a computer holds: one "Take my seat back" button."""
    view = WizardView()
    view.add_item(
        button(
            CustomId(game, Verb.TAKEBACK, "", version),
            label=t(TAKE_BACK_LABEL),
            emoji="🙋",
            style=_GREEN,
        )
    )
    return view


def play_again_view(game: int, version: int, *, t: Texts) -> discord.ui.View:
    """The final standings' one button: play again (a new lobby like game ``game``'s)."""
    view = WizardView()
    view.add_item(
        button(
            CustomId(game, Verb.AGAIN, "", version),
            label=t(PLAY_AGAIN_LABEL),
            emoji="🔁",
            style=_GREEN,
        )
    )
    return view


def hand_view(
    pv: PlayerView, game: int, version: int, theme: Theme = Theme.CLASSIC, *, t: Texts
) -> discord.ui.View | None:
    """The buttons of ``pv.seat``'s hand when it is their turn, else ``None``.

    Bidding (hidden or secret, R7.2, R7.3): one button per bid 0…r; open bids are made on
    the table instead (:func:`table_view`), so the hand has no bid buttons. Trump: the
    four suits. Playing: one button per distinct card held (two Wizards are one button),
    the ones that may not be played disabled (R5.3); under clairvoyance one "play my card".
    Bids are numbers and suit cards and suits their codes (R1.4, R1.5), the same in every
    language; ``t`` names Wizards and Jesters and translates the one labelled button.
    """
    if not pv.my_turn:
        return None
    view = WizardView()
    if pv.phase is Phase.CHOOSE_TRUMP:
        allowed = set(trump_choices(pv))
        for suit in SUITS:
            view.add_item(
                button(
                    CustomId.for_trump(game, suit, version),
                    label=suit_label(suit, theme),
                    emoji=suit_emoji(suit, theme),
                    disabled=suit not in allowed,
                )
            )
    elif pv.phase is Phase.BID and not bids_on_table(public_table(pv)):
        allowed_bids = set(legal_bids(pv))
        for bid in range(pv.round_tricks + 1):
            view.add_item(
                button(
                    CustomId.for_bid(game, bid, version),
                    label=str(bid),
                    style=_BLUE if bid in allowed_bids else _GREY,
                    disabled=bid not in allowed_bids,
                )
            )
    elif pv.phase is Phase.PLAY:
        if must_play_hidden(pv):
            view.add_item(
                button(
                    CustomId(game, Verb.PLAYHIDDEN, "", version),
                    label=t(PLAY_UNSEEN_LABEL),
                    emoji="🎴",  # a real emoji: Discord refuses a button with any other
                    style=_BLUE,
                )
            )
        else:
            hand = pv.hand or ()
            playable = playable_cards(pv)
            for card in dict.fromkeys(sort_hand(hand)):
                copies = hand.count(card)
                label = card_label_text(card, theme, t=t) + (f" ×{copies}" if copies > 1 else "")
                view.add_item(
                    button(
                        CustomId.for_play(game, card, version),
                        label=label,
                        emoji=card_emoji(card, theme),
                        style=_BLUE if card in playable else _GREY,
                        disabled=card not in playable,
                    )
                )
    if not view.children:
        return None
    assert len(view.children) <= MAX_BUTTONS
    return view
