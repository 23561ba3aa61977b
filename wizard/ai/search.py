"""The search player: determinized Monte Carlo search with heuristic rollouts.

For each decision it deals the cards it cannot see at random, consistently
with everything public (see :class:`~wizard.ai.knowledge.Situation`), and for
every candidate action plays the rest of the round out with the heuristic
policy for all seats. The action with the best mean score for its own seat
over all the deals wins (perfect-information Monte Carlo). Bids are chosen
the same way: each candidate bid is played out, with the seats still to bid
bidding heuristically, so the bid maximizes expected score over the
simulated trick counts rather than matching an estimate.

Three things make the deals count for more: each deal is resampled to agree
with the bids already visible (a high bid makes Wizards and trumps likely in
that hand); candidates clearly worse than the leader stop being played out;
and cards that play exactly alike (touching ranks) are tried once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from wizard.ai.core import JESTER, RoundSim, expected_tricks, pick_bid
from wizard.ai.heuristic import (
    action_for_bid,
    action_for_card,
    action_for_trump,
    clairvoyant_bid,
    clairvoyant_trump,
)
from wizard.ai.knowledge import Situation, dealer_forbidden, first_leader
from wizard.options import Bidding
from wizard.rules import score
from wizard.state import Action, Bid, Phase, Play
from wizard.view import PlayerView

DEFAULT_ITERATIONS = 60
"""Deals sampled per decision at the default budget."""
SAFETY_LIMIT = 2.0
"""Seconds after which a decision stops sampling whatever its budget: a safety net only.

The budgets are set so that a decision takes far less on these machines; only a
badly overloaded host reaches this, and there the search plays weaker rather
than stalling the table.
"""
BID_WINDOW = 2
"""Candidate bids reach this far either side of the heuristic's estimate."""
INFERENCE_TRIES = 6
"""Deals drawn per iteration, of which one is kept by how well it explains the bids."""
BID_FACTOR = 2
"""Bids get this many times the deals of a play: they decide most of a round's score."""
FULL_ROUND = 60
"""Cards in the largest round (3 × 20 or 6 × 10): the budget is set for rollouts this long."""
MAX_SCALE = 10
"""Shorter rollouts get proportionally more deals, up to this factor."""
PRUNE_EVERY = 8
"""Deals between two checks for candidates clearly worse than the leader."""
PRUNE_Z = 2.0
"""A candidate is dropped when its mean loss to the leader is this many standard errors."""


class _Race:
    """Candidates scored on the same deals; the clearly worse ones drop out early.

    Every candidate is played out on the same sampled deals, so a candidate's
    difference to the leader deal by deal has a small variance: a significant
    mean difference spends no more rollouts on it.
    """

    def __init__(self, count: int) -> None:
        self.values: list[list[int]] = [[] for _ in range(count)]
        self.active = list(range(count))

    def add(self, k: int, value: int) -> None:
        """Record candidate ``k``'s score on the current deal."""
        self.values[k].append(value)

    def leader(self) -> int:
        """The active candidate with the best total (the earliest on ties)."""
        return max(self.active, key=lambda k: (sum(self.values[k]), -k))

    def prune(self) -> None:
        """Drop the active candidates that are significantly worse than the leader."""
        top = self.leader()
        lead = self.values[top]
        keep = []
        for k in self.active:
            if k != top:
                diffs = [a - b for a, b in zip(lead, self.values[k], strict=True)]
                m = len(diffs)
                mean = sum(diffs) / m
                var = sum((d - mean) ** 2 for d in diffs) / (m - 1)
                if mean > 0 and mean * mean * m > PRUNE_Z * PRUNE_Z * var:
                    continue
            keep.append(k)
        self.active = keep


Clock = Callable[[], float]
"""A source of seconds, such as :func:`time.perf_counter` (injected by tests)."""


@dataclass(frozen=True, slots=True)
class SearchReport:
    """What one decision spent: deals sampled, deals budgeted, and whether time ran out."""

    deals: int
    budget: int
    cut_short: bool


class SearchPlayer:
    """Determinized search (PIMC) budgeted by ``iterations`` deals, with a safety cap in seconds.

    ``iterations`` is the number of deals sampled for a card played early in the
    largest round; shorter rest-of-rounds get more (up to ten times), and bids
    and trump choices ``bid_factor`` times as many. The budget is work, not
    time: a decision stops early only when clearly worse candidates have all
    dropped out (which depends on the deals alone), or when ``time_limit``
    seconds have passed on ``clock``, a safety net set far above the typical
    decision. Until that net is reached a decision depends only on the seed and
    the view, so a loaded machine plays exactly as a quiet one, only slower;
    with ``time_limit=None`` it always does.

    Each deal is the best-explaining of ``inference_tries`` random deals (1 turns
    the bid inference off). After each decision :attr:`last` says what it spent.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        time_limit: float | None = SAFETY_LIMIT,
        bid_window: int = BID_WINDOW,
        inference_tries: int = INFERENCE_TRIES,
        bid_factor: int = BID_FACTOR,
        clock: Clock | None = None,
    ) -> None:
        if iterations < 1 or bid_factor < 1:
            raise ValueError("a search needs at least one iteration")
        self.seed = seed
        self.iterations = iterations
        self.time_limit = time_limit
        self.bid_window = bid_window
        self.inference_tries = inference_tries
        self.bid_factor = bid_factor
        # Looked up when the player is made, so a test may replace the module's clock.
        self.clock: Clock = clock if clock is not None else time.perf_counter
        self.last: SearchReport | None = None
        """What the latest decision's search spent (None if it needed none)."""

    def choose(self, view: PlayerView) -> Action:
        """The searched action: one of ``view.legal``."""
        if not isinstance(view, PlayerView):
            raise TypeError("a computer player decides from a PlayerView only")
        self.last = None  # stays None when the decision needs no search
        if len(view.legal) == 1:
            return view.legal[0]
        rng = random.Random(self._decision_key(view))
        deadline = None if self.time_limit is None else self.clock() + self.time_limit
        if view.phase is Phase.PLAY:
            return self._play(view, rng, deadline)
        if view.phase is Phase.BID:
            if view.hand is None:
                return action_for_bid(view, clairvoyant_bid(view))  # exact already
            return self._bid(view, rng, deadline)
        if view.phase is Phase.CHOOSE_TRUMP:
            if view.hand is None:
                return action_for_trump(view, clairvoyant_trump(view))
            return self._trump(view, rng, deadline)
        raise ValueError(f"nothing to choose in phase {view.phase}")

    def _decision_key(self, view: PlayerView) -> str:
        # A decision's randomness follows from the seed and the point of the game alone,
        # so a player rebuilt mid-game (e.g. after a restart) decides exactly the same.
        plays = sum(len(t) for t in view.played) + len(view.trick)
        return (
            f"wizard-search:{self.seed}:{view.seat}:{view.round}:{view.phase.value}:"
            f"{plays}:{sum(view.has_bid)}:{','.join(map(str, view.scores))}"
        )

    def budget(self, view: PlayerView) -> int:
        """The deals this player samples at most for the decision in ``view``."""
        factor = 1 if view.phase is Phase.PLAY else self.bid_factor
        left = max(1, sum(view.hand_sizes))
        scale = min(MAX_SCALE, max(1.0, FULL_ROUND / left))
        return max(1, int(self.iterations * scale * factor))

    def _deal_numbers(self, view: PlayerView, race: _Race, deadline: float | None) -> Iterator[int]:
        """Numbers the deals to sample; records :attr:`last` when the search ends.

        It ends when the budget is spent, when one candidate is left, or (the
        safety net) when the deadline has passed.
        """
        budget = self.budget(view)
        deals = 0
        timed_out = False
        for i in range(budget):
            if i and i % PRUNE_EVERY == 0:
                race.prune()
            if len(race.active) == 1:
                break
            if deadline is not None and i and self.clock() > deadline:
                timed_out = True
                break
            deals += 1
            yield i
        self.last = SearchReport(deals, budget, timed_out)

    def _play(self, view: PlayerView, rng: random.Random, deadline: float | None) -> Action:
        sit = Situation(view)
        me = view.seat
        bid = view.bids[me]
        assert bid is not None  # a seat always sees its own bid
        cards = distinct_cards(sit.base, me, [int(a.card) for a in view.legal if type(a) is Play])
        if len(cards) == 1:
            return action_for_card(view, cards[0])
        race = _Race(len(cards))
        trump = sit.base.trump
        unknown_bids = [j for j in range(sit.n) if sit.base.bids[j] < 0]
        for _ in self._deal_numbers(view, race, deadline):
            hands = sit.sample_telling(rng, self.inference_tries)
            bids = sit.base.bids.copy()
            for j in unknown_bids:  # secret bids (R7.3): guess them from the sampled hand
                bids[j] = sit.guess_bid(hands, j, trump)
            for k in race.active:
                sim = sit.base.fork(hands, bids)
                sim.play(cards[k])
                sim.play_out()
                race.add(k, score(bid, sim.tricks[me]))
        return action_for_card(view, cards[race.leader()])

    def _bid(self, view: PlayerView, rng: random.Random, deadline: float | None) -> Action:
        sit = Situation(view)
        me = view.seat
        n = sit.n
        trump = sit.base.trump
        legal = [a.bid for a in view.legal if type(a) is Bid]
        hand = sit.base.hands[me]
        place = (me - first_leader(view)) % n
        est = expected_tricks(n, hand, trump, sit.single, place)
        order = [(first_leader(view) + i) % n for i in range(n)]
        open_bids = view.options.bidding is Bidding.OPEN
        later = order[order.index(me) + 1 :] if open_bids else []
        others = [j for j in range(n) if j != me and sit.base.bids[j] < 0 and j not in later]
        known = sum(b for b in sit.base.bids if b >= 0)
        anchors = [est]
        if open_bids and not later:
            # The last bidder sees every other bid (R4.1): the tricks they leave over are
            # worth weighing too, where the estimate (which sees only the hand) is far off.
            anchors.append(len(hand) - known)
        candidates = [b for b in legal if any(abs(b - a) <= self.bid_window + 0.5 for a in anchors)]
        own_pick = pick_bid(est, len(hand), -1)
        nearest = min(legal, key=lambda b: (abs(b - own_pick), b))
        if nearest not in candidates:
            candidates.append(nearest)
        if len(candidates) == 1:
            return action_for_bid(view, candidates[0])
        candidates.sort(key=lambda b: (abs(b - est), b))  # ties go to the bid nearest the estimate
        race = _Race(len(candidates))
        for _ in self._deal_numbers(view, race, deadline):
            hands = sit.sample_telling(rng, self.inference_tries)
            bids = sit.base.bids.copy()
            for j in others:  # hidden or secret bids (R7.2, R7.3): guessed
                bids[j] = sit.guess_bid(hands, j, trump)
            for k in race.active:
                b = candidates[k]
                bids[me] = b
                total = known + b
                for j in later:  # open bidding: the seats after this one bid in turn
                    forbidden = dealer_forbidden(view, total) if j == view.dealer else -1
                    bids[j] = guess = sit.guess_bid(hands, j, trump, forbidden)
                    total += guess
                sim = sit.base.fork(hands, bids)
                sim.play_out()
                race.add(k, score(b, sim.tricks[me]))
        return action_for_bid(view, candidates[race.leader()])

    def _trump(self, view: PlayerView, rng: random.Random, deadline: float | None) -> Action:
        sit = Situation(view)
        me = view.seat
        n = sit.n
        order = [(first_leader(view) + i) % n for i in range(n)]
        race = _Race(4)
        for _ in self._deal_numbers(view, race, deadline):
            hands = sit.sample_telling(rng, self.inference_tries)
            for suit in race.active:
                bids = [-1] * n
                total = 0
                for j in order:
                    forbidden = dealer_forbidden(view, total) if j == view.dealer else -1
                    bids[j] = guess = sit.guess_bid(hands, j, suit, forbidden)
                    total += guess
                sim = sit.base.fork(hands, bids)
                sim.trump = suit
                sim.play_out()
                race.add(suit, score(bids[me], sim.tricks[me]))
        return action_for_trump(view, race.leader())


def distinct_cards(sim: RoundSim, seat: int, cards: list[int]) -> list[int]:
    """The legal ``cards`` less those that play exactly like a lower one (the lowest is kept).

    Two cards of a suit play alike when every card ranked between them is held
    by ``seat`` or already gone; Wizards are all alike, and so are Jesters.
    """
    if sim.single:
        return list(dict.fromkeys(cards))
    held = [0, 0, 0, 0]
    for c in sim.hands[seat]:
        if c < JESTER:
            held[c // 13] |= 1 << (c % 13)
    out: list[int] = []
    previous = -1
    for c in sorted(set(cards)):
        if previous >= 0 and c < JESTER and previous // 13 == c // 13:
            low, high = previous % 13, c % 13
            between = ((1 << high) - 1) & ~((2 << low) - 1)
            # A Magic 2 (R7.6) is unlike its neighbours.
            special = sim.magic and 1 in (low, high)
            if not special and not between & ~(held[c // 13] | sim.gone[c // 13]):
                previous = c
                continue
        out.append(c)
        previous = c
    return out
