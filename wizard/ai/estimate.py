"""The tricks a seat should win this round, as the computer players estimate them.

Used for hints: the heuristic's own bid estimate (:func:`~wizard.ai.core.expected_tricks`)
while bidding or choosing trump, and the mean of heuristic play-outs over deals sampled
consistently with what the seat has seen once cards are played. Sees only a
:class:`~wizard.view.PlayerView`.
"""

from __future__ import annotations

import random

from wizard.ai.core import expected_tricks
from wizard.ai.knowledge import Situation, cards_of, clairvoyant_odds, first_leader
from wizard.state import Action, ChooseTrump, Phase, Play
from wizard.view import PlayerView

ESTIMATE_DEALS = 24
"""Deals played out for an estimate during play (a few milliseconds in the largest round)."""
INFERENCE_TRIES = 4
"""Deals drawn per sample, of which the one best explaining the visible bids is kept."""


def estimate_tricks(
    view: PlayerView, action: Action | None = None, *, seed: int = 0, deals: int = ESTIMATE_DEALS
) -> float:
    """The tricks ``view.seat`` should win in the whole round (those won already included),
    if it takes ``action`` now (for a trump choice, its suit; for a play, its card).

    Always between the tricks won so far and that plus the cards left in the hand.
    """
    me = view.seat
    won = view.tricks[me] if view.phase is Phase.PLAY else 0
    left = view.hand_sizes[me]
    if view.hand is None:  # clairvoyance (R7.4): one hidden card, the others' visible
        trump = _trump_of(view, action)
        return _clamp(won + clairvoyant_odds(view, trump) * left, won, left)
    if view.phase in (Phase.BID, Phase.CHOOSE_TRUMP):
        hand = cards_of(view.hand)
        place = (me - first_leader(view)) % len(view.players)
        est = expected_tricks(
            len(view.players), hand, _trump_of(view, action), view.options.single_suit, place
        )
        return _clamp(est, 0, len(hand))
    if view.phase is not Phase.PLAY or left == 0:
        return float(won)
    return _clamp(_play_outs(view, action, seed, deals), won, left)


def _play_outs(view: PlayerView, action: Action | None, seed: int, deals: int) -> float:
    """Mean tricks of the seat over ``deals`` heuristic play-outs of sampled deals."""
    sit = Situation(view)
    me = view.seat
    rng = random.Random(f"wizard-estimate:{seed}:{me}:{view.round}:{sum(view.hand_sizes)}")
    trump = sit.base.trump
    unknown = [j for j in range(sit.n) if sit.base.bids[j] < 0]
    first = int(action.card) if isinstance(action, Play) and sit.base.turn == me else None
    total = 0
    for _ in range(max(1, deals)):
        hands = sit.sample_telling(rng, INFERENCE_TRIES)
        bids = sit.base.bids.copy()
        for j in unknown:  # secret bids (R7.3): guessed from the sampled hand
            bids[j] = sit.guess_bid(hands, j, trump)
        sim = sit.base.fork(hands, bids)
        if first is not None and first in sim.hands[me]:
            sim.play(first)
        sim.play_out()
        total += sim.tricks[me]
    return total / max(1, deals)


def _trump_of(view: PlayerView, action: Action | None) -> int:
    if isinstance(action, ChooseTrump):
        return action.suit.position
    return -1 if view.trump is None else view.trump.position


def _clamp(value: float, won: int, left: int) -> float:
    return float(min(max(value, float(won)), float(won + left)))
