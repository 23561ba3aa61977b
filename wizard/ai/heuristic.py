"""The heuristic player: fast rules of thumb, and the policy the search player's rollouts use."""

from __future__ import annotations

from wizard.ai.knowledge import clairvoyant_odds, clairvoyant_value, forbidden_for, public_sim
from wizard.cards import SUITS
from wizard.state import Action, Bid, ChooseTrump, Phase, Play
from wizard.view import PlayerView


def action_for_card(view: PlayerView, card: int) -> Action:
    """The legal :class:`Play` of ``card`` in ``view``."""
    for action in view.legal:
        if type(action) is Play and action.card == card:
            return action
    raise ValueError(f"playing card {card} is not legal here")


def action_for_bid(view: PlayerView, bid: int) -> Action:
    """The legal :class:`Bid` nearest to ``bid`` in ``view`` (the exact one when allowed)."""
    bids = [a for a in view.legal if type(a) is Bid]
    return min(bids, key=lambda a: (abs(a.bid - bid), a.bid))


def action_for_trump(view: PlayerView, suit: int) -> Action:
    """The legal :class:`ChooseTrump` naming suit position ``suit``."""
    for action in view.legal:
        if type(action) is ChooseTrump and action.suit is SUITS[suit]:
            return action
    raise ValueError(f"choosing suit {suit} is not legal here")


def clairvoyant_trump(view: PlayerView) -> int:
    """Round 1 under clairvoyance with the own card hidden: the suit that pays best."""
    values = []
    for suit in range(4):
        p = clairvoyant_odds(view, suit)
        values.append(max(clairvoyant_value(p, 0), clairvoyant_value(p, 1)))
    return max(range(4), key=lambda s: (values[s], -s))


def clairvoyant_bid(view: PlayerView) -> int:
    """Round 1 under clairvoyance: the allowed bid of best expected score."""
    trump = -1 if view.trump is None else view.trump.position
    p = clairvoyant_odds(view, trump)
    bids = [a.bid for a in view.legal if type(a) is Bid]
    return max(bids, key=lambda b: (clairvoyant_value(p, b), -b))


class HeuristicPlayer:
    """Bids from per-card trick chances; plays by how many tricks it still needs.

    A bid adds up the chances that each card takes a trick, measured by
    self-play for each number of players, round size and kind of card (Wizard,
    Jester, trump or plain and its rank, with or without trump; see
    :mod:`wizard.ai.odds`) plus the worth of the seat's place, and avoids a bid
    the uneven-bids or Canadian rule forbids. Needing tricks, it wins as cheaply
    as it safely can; having made its bid, it ducks and sheds its most
    dangerous cards while a trick is lost anyway. After a turned Wizard it
    names the suit its hand expects most tricks in. Deterministic: the seed is
    accepted for a uniform interface and unused.
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Action:
        """The heuristic's action: one of ``view.legal``."""
        if not isinstance(view, PlayerView):
            raise TypeError("a computer player decides from a PlayerView only")
        if len(view.legal) == 1:
            return view.legal[0]
        seat = view.seat
        if view.phase is Phase.PLAY:
            sim = public_sim(view)
            return action_for_card(view, sim.choose_card(seat))
        hand_hidden = view.hand is None
        if view.phase is Phase.CHOOSE_TRUMP:
            if hand_hidden:
                return action_for_trump(view, clairvoyant_trump(view))
            return action_for_trump(view, public_sim(view).choose_trump(seat))
        if view.phase is Phase.BID:
            if hand_hidden:
                return action_for_bid(view, clairvoyant_bid(view))
            return action_for_bid(view, public_sim(view).choose_bid(seat, forbidden_for(view)))
        raise ValueError(f"nothing to choose in phase {view.phase}")
