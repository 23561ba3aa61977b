"""The button sets of the lobby, the table and the hand, built from custom ids only.

Every view is a :class:`WizardView` made of :mod:`bot.ui.buttons` dynamic items, so the bot
keeps nothing in memory per message: a click (after a restart too) is parsed from its custom id.
Never call ``stop()`` on these views: discord.py would unregister the dynamic item classes.
"""

from __future__ import annotations

from typing import Final

import discord

from bot.i18n import Texts
from bot.render import (
    ADD_COMPUTER_LABEL,
    CANCEL_LABEL,
    JOIN_LABEL,
    LEAVE_LABEL,
    PLAY_UNSEEN_LABEL,
    SHOW_HAND_LABEL,
    START_LABEL,
    TAKE_BACK_LABEL,
    card_emoji,
    legal_bids,
    must_play_hidden,
    playable_cards,
    sort_hand,
    suit_emoji,
    trump_choices,
)
from bot.ui.buttons import button
from bot.ui.custom_ids import CustomId, Verb
from wizard.cards import SUITS, Theme, card_label, suit_label
from wizard.state import Phase
from wizard.view import PlayerView

MAX_BUTTONS: Final = 25
"""Discord allows 5 rows of 5 buttons in a message."""

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


def lobby_view(game: int, version: int, *, t: Texts) -> discord.ui.View:
    """Join, Leave, Add computer player, Start (host), Cancel (host)."""
    view = WizardView()
    view.add_item(button(CustomId(game, Verb.JOIN, "", version), label=t(JOIN_LABEL), style=_GREEN))
    view.add_item(button(CustomId(game, Verb.LEAVE, "", version), label=t(LEAVE_LABEL)))
    view.add_item(
        button(CustomId(game, Verb.ADDBOT, "", version), label=t(ADD_COMPUTER_LABEL), emoji="🤖")
    )
    view.add_item(
        button(CustomId(game, Verb.START, "", version), label=t(START_LABEL), style=_BLUE)
    )
    view.add_item(
        button(CustomId(game, Verb.CANCEL, "", version), label=t(CANCEL_LABEL), style=_RED)
    )
    return view


def table_view(game: int, version: int, *, t: Texts) -> discord.ui.View:
    """The table's one button: "Show my hand"."""
    view = WizardView()
    view.add_item(
        button(
            CustomId(game, Verb.HAND, "", version),
            label=t(SHOW_HAND_LABEL),
            emoji="🎴",
            style=_BLUE,
        )
    )
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


def hand_view(
    pv: PlayerView, game: int, version: int, theme: Theme = Theme.CLASSIC, *, t: Texts
) -> discord.ui.View | None:
    """The buttons of ``pv.seat``'s hand when it is their turn, else ``None``.

    Bidding: one button per bid 0…r, the forbidden ones disabled (R7.1, R7.5). Trump: the
    four suits. Playing: one button per distinct card held (two Wizards are one button),
    the ones that may not be played disabled (R5.3); under clairvoyance one "play my card".
    Bids are numbers and cards and suits their codes (R1.4, R1.5), the same in every
    language; ``t`` translates the one labelled button.
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
    elif pv.phase is Phase.BID:
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
                label = card_label(card, theme) + (f" ×{copies}" if copies > 1 else "")
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
