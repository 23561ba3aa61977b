"""What one seat knows about a round, taken from its :class:`~wizard.view.PlayerView` alone.

:func:`public_sim` replays the round's public plays into a :class:`RoundSim`
holding only the cards this seat can see. :class:`Situation` adds what the
seat can infer about the cards it cannot see (which cards, how many in each
hand, which suits a seat has shown not to hold) and deals them out at random
consistently with all of that: one *determinization* for the search player.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from wizard.ai.core import JESTER, RoundSim, expected_tricks, pick_bid
from wizard.cards import STANDARD_DECK, SUITS, single_suit_deck
from wizard.options import Bidding
from wizard.rules import score
from wizard.state import Bid
from wizard.view import PlayerView

_PILE = -1
_SAMPLE_ATTEMPTS = 20
BID_SPREAD = 1.0
"""Standard deviation, in tricks, of a bid around the heuristic's estimate for the hand."""


def cards_of(cards: tuple[int, ...] | None) -> list[int]:
    """Card ints of a visible hand (empty when hidden), sorted."""
    return sorted(int(c) for c in cards) if cards else []


def first_leader(view: PlayerView) -> int:
    """The seat that bids and leads first this round: left of the dealer (R4.2, R5.1)."""
    return (view.dealer + 1) % len(view.players)


def public_sim(view: PlayerView) -> RoundSim:
    """The round so far as ``view.seat`` sees it: visible hands, bids, and every public play."""
    n = len(view.players)
    options = view.options
    turned = None if view.turned is None or options.single_suit else int(view.turned)
    sim = RoundSim(
        n,
        -1 if view.trump is None else view.trump.position,
        magic=options.magic_twos,
        single=options.single_suit,
        hands=[[] for _ in range(n)],
        leader=first_leader(view),
        turned=turned,
    )
    for trick in view.played:
        for _, card in trick:
            sim.record(int(card))
    for _, card in view.trick:
        sim.record(int(card))
    sim.hands = [cards_of(h) for h in view.hands]
    sim.bids = [-1 if b is None else b for b in view.bids]
    return sim


def forbidden_for(view: PlayerView) -> int:
    """The bid ``view.seat`` may not make now (R7.1, R7.5), or -1 when every bid is allowed."""
    allowed = {a.bid for a in view.legal if type(a) is Bid}
    missing = [b for b in range(view.round_tricks + 1) if b not in allowed]
    return missing[0] if missing else -1


def dealer_forbidden(view: PlayerView, total: int) -> int:
    """The bid the dealer may not make once the others have bid ``total`` (R7.1, R7.5)."""
    options = view.options
    if options.bidding is not Bidding.OPEN:
        return -1
    rule = options.uneven_bids
    if not rule and options.canadian and view.round == view.num_rounds:
        mine = view.scores[view.dealer]
        rule = all(mine > s for i, s in enumerate(view.scores) if i != view.dealer)
    bad = view.round_tricks - total
    return bad if rule and bad >= 0 else -1


class Situation:
    """The round as one seat sees it, ready to deal out the cards it cannot see."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.seat = view.seat
        self.n = n = len(view.players)
        self.base = public_sim(view)
        self.single = view.options.single_suit
        self.played_by: list[list[int]] = [[] for _ in range(n)]
        for trick in (*view.played, view.trick):
            for seat, card in trick:
                self.played_by[seat].append(int(card))
        self.unknown = [j for j in range(n) if view.hands[j] is None]
        self.sizes = list(view.hand_sizes)
        self.pools: list[list[int]] = []
        if self.single:
            # R7.7: every seat draws from its own deck, so each unknown hand has its own pool.
            for j in range(n):
                left = Counter(int(c) for c in single_suit_deck(SUITS[j]))
                left.subtract(self.played_by[j])
                self.pools.append(sorted(left.elements()))
            self.pool: list[int] = []
        else:
            left = Counter(int(c) for c in STANDARD_DECK)
            seen = [c for hand in self.base.hands for c in hand]
            seen.extend(c for cards in self.played_by for c in cards)
            if view.turned is not None:
                seen.append(int(view.turned))
            left.subtract(seen)
            self.pool = sorted(left.elements())
        self.pile = len(self.pool) - sum(self.sizes[j] for j in self.unknown)
        void = self.base.void
        self.constrained = not self.single and any(void[j] for j in self.unknown)
        # Bids that tell something about a hidden hand: visible bids of unknown hands.
        self.telling = [j for j in self.unknown if j != self.seat and view.bids[j] is not None]
        self.place = [(j - first_leader(view)) % n for j in range(n)]
        self.dealer_alternative = self._dealer_alternative(view)

    def _dealer_alternative(self, view: PlayerView) -> int:
        """The bid the dealer was forbidden (R7.1, R7.5) and so may have wanted, or -1."""
        bids = view.bids
        if view.dealer not in self.telling or any(b is None for b in bids):
            return -1
        others = sum(b for j, b in enumerate(bids) if j != view.dealer and b is not None)
        return dealer_forbidden(view, others)

    def sample(self, rng: random.Random) -> list[list[int]]:
        """Hands for every seat: the visible ones as they are, the others dealt at random.

        The unseen cards are dealt uniformly among the unknown hands and the pile,
        except that no seat gets a suit it has shown not to hold (R5.3).
        """
        hands = [h.copy() for h in self.base.hands]
        if self.single:
            for j in self.unknown:
                hands[j] = sorted(rng.sample(self.pools[j], self.sizes[j]))
            return hands
        cards = self.pool.copy()
        rng.shuffle(cards)
        if self.constrained:
            dealt = self._deal_constrained(cards, rng)
            if dealt is not None:
                for j, hand in dealt.items():
                    hands[j] = sorted(hand)
                return hands
        i = 0
        for j in self.unknown:
            k = self.sizes[j]
            hands[j] = sorted(cards[i : i + k])
            i += k
        return hands

    def _deal_constrained(
        self, cards: list[int], rng: random.Random
    ) -> dict[int, list[int]] | None:
        void = self.base.void
        places = [*self.unknown, _PILE]
        allowed_by_suit = [
            [p for p in places if p == _PILE or not void[p] & (1 << s)] for s in range(4)
        ]
        allowed_any = places

        def allowed(card: int) -> list[int]:
            return allowed_any if card >= JESTER else allowed_by_suit[card // 13]

        # Cards with the fewest possible places go first, so they are not left stranded.
        cards.sort(key=lambda c: len(allowed(c)))
        for _ in range(_SAMPLE_ATTEMPTS):
            room = {j: self.sizes[j] for j in self.unknown}
            room[_PILE] = self.pile
            out: dict[int, list[int]] = {j: [] for j in self.unknown}
            for card in cards:
                options = [p for p in allowed(card) if room[p] > 0]
                if not options:
                    break
                # Weighted by free room, which keeps the deal close to uniform.
                x = rng.random() * sum(room[p] for p in options)
                for place in options:
                    x -= room[place]
                    if x < 0:
                        break
                room[place] -= 1
                if place != _PILE:
                    out[place].append(card)
            else:
                return out
        return None  # every attempt stranded a card: fall back to ignoring the voids

    def sample_telling(self, rng: random.Random, tries: int) -> list[list[int]]:
        """A deal from :meth:`sample`, resampled to agree with the visible bids.

        Draws ``tries`` deals and keeps one with probability proportional to how
        likely each unknown seat's visible bid is given its sampled hand: a seat
        that bid high probably holds Wizards and trumps (importance resampling).
        """
        deals = [self.sample(rng) for _ in range(tries if self.telling else 1)]
        if len(deals) == 1:
            return deals[0]
        weights = [self.bid_likelihood(h) for h in deals]
        x = rng.random() * sum(weights)
        for deal, w in zip(deals, weights, strict=True):
            x -= w
            if x < 0:
                return deal
        return deals[-1]

    def bid_likelihood(self, hands: list[list[int]]) -> float:
        """How well the sampled hands explain the visible bids (up to a constant)."""
        trump = self.base.trump
        bids = self.view.bids
        like = 1.0
        for j in self.telling:
            bid = bids[j]
            assert bid is not None
            hand = self.start_hand(hands, j)
            est = expected_tricks(self.n, hand, trump, self.single, self.place[j])
            p = _bid_chance(bid, est)
            if j == self.view.dealer and self.dealer_alternative >= 0:
                p += _bid_chance(self.dealer_alternative, est)  # they may have wanted that
            like *= p
        return like + 1e-12  # never all zero: a deal explaining nothing still counts

    def start_hand(self, hands: list[list[int]], seat: int) -> list[int]:
        """The hand ``seat`` was dealt this round under a sampled deal."""
        return sorted(hands[seat] + self.played_by[seat])

    def guess_bid(self, hands: list[list[int]], seat: int, trump: int, forbidden: int = -1) -> int:
        """The heuristic's bid for ``seat`` had it been dealt its sampled hand."""
        hand = self.start_hand(hands, seat)
        est = expected_tricks(self.n, hand, trump, self.single, self.place[seat])
        return pick_bid(est, len(hand), forbidden)


def _bid_chance(bid: int, expected: float) -> float:
    """Chance of bidding ``bid`` when the bid is the expected tricks plus normal noise."""
    scale = BID_SPREAD * math.sqrt(2.0)
    return 0.5 * (
        math.erf((bid + 0.5 - expected) / scale) - math.erf((bid - 0.5 - expected) / scale)
    )


def clairvoyant_odds(view: PlayerView, trump: int) -> float:
    """Round 1 under clairvoyance (R7.4): the chance that this seat's hidden card wins.

    Every other card is visible and play is forced with one card each, so the
    chance is exact over the cards this seat might hold.
    """
    n = len(view.players)
    left = Counter(int(c) for c in STANDARD_DECK)
    left.subtract(c for j, h in enumerate(view.hands) if j != view.seat for c in cards_of(h))
    if view.turned is not None:
        left[int(view.turned)] -= 1
    leader = first_leader(view)
    order = [(leader + i) % n for i in range(n)]
    others = {j: cards_of(view.hands[j]) for j in order if j != view.seat}
    wins = total = 0
    for card, count in left.items():
        if count <= 0:
            continue
        sim = RoundSim(n, trump, magic=view.options.magic_twos, hands=[[]] * n, leader=0)
        for j in order:
            sim.record(card if j == view.seat else others[j][0])
        total += count
        wins += count * (order[sim.leader] == view.seat)  # after the trick, leader = winner
    return wins / total if total else 0.0


def clairvoyant_value(p_win: float, bid: int) -> float:
    """Expected points of ``bid`` (0 or 1) in a one-card round won with chance ``p_win``."""
    return p_win * score(bid, 1) + (1 - p_win) * score(bid, 0)
