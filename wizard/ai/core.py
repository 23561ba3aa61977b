"""A fast model of one round and the heuristic policy that plays it.

The engine's :func:`wizard.rules.apply` builds a new immutable state per card,
which is right for a game but too slow for the thousands of rollouts a search
makes per decision. :class:`RoundSim` plays one round on plain mutable lists
of card ints (0…51 suited, 52 Jester, 53 Wizard, as :class:`wizard.cards.Card`)
and keeps the public knowledge every seat shares: cards gone, suits a seat has
shown not to hold. Its trick logic must agree with :mod:`wizard.rules`; a test
checks that on random tricks.

The heuristic lives here too, as methods of :class:`RoundSim`, so that the
heuristic player and the search player's rollouts are the very same policy.
A policy method acting for ``seat`` reads only ``hands[seat]`` and public
fields, never another seat's hand.
"""

from __future__ import annotations

from typing import Final

from wizard.ai import odds

JESTER: Final = 52
WIZARD: Final = 53
_FULL: Final = (1 << 13) - 1
HIGHER: Final = tuple(_FULL & ~((2 << r) - 1) for r in range(13))
"""``HIGHER[r]``: bit mask of the ranks above rank index ``r`` (0 = rank 1)."""
DECK_SIZE: Final = 60
SINGLE_DECK_SIZE: Final = 15

# Keys ranking a card within one trick: higher key wins, the first of equal keys wins.
_KEY_WIZARD: Final = 200
_KEY_MAGIC: Final = 300
_KEY_TRUMP: Final = 100

# --- constants of the heuristic's play, set by judgment; its bids use the measured table ---
W_HUNGRY: Final = 1.0
"""How readily a later player who still needs tricks uses a card that beats ours."""
W_FULL: Final = 0.3
"""The same for a later player who has made their bid (they duck when they can)."""
W_UNKNOWN: Final = 0.7
"""The same for a later player whose bid is hidden."""
WIN_THRESHOLD: Final = 0.6
"""Chance of holding a trick above which a player who needs tricks goes for it..."""
URGENCY_SLOPE: Final = 0.6
"""...lowered by this much times the share of remaining tricks still needed."""
LEAD_SAFE: Final = 0.15
"""A card this unlikely to win is a safe lead for a player who wants no more tricks."""


def card_class(card: int, trump: int, single: bool) -> int:
    """The class of a card in the odds table: see :mod:`wizard.ai.odds`."""
    if single:
        return 0 if card == JESTER else 14 if card == WIZARD else card % 13 + 1
    if card == WIZARD:
        return 0
    if card == JESTER:
        return 1
    r = card % 13
    if trump < 0:
        return 28 + r
    return 2 + r if card // 13 == trump else 15 + r


class RoundSim:
    """One round on mutable lists: the hands, the bids, the tricks and the public record.

    ``hands[s]`` holds what the simulation knows of seat ``s``: in a rollout a
    sampled hand, in the heuristic player only its own hand (other seats empty).
    ``bids[s]`` is -1 while a bid is unknown or not yet made.
    """

    __slots__ = (
        "best_key",
        "best_pos",
        "bids",
        "blocked",
        "follow",
        "gone",
        "hands",
        "leader",
        "magic",
        "n",
        "n_gone",
        "single",
        "specials_gone",
        "trick",
        "tricks",
        "trump",
        "turn",
        "void",
        "wizards_gone",
    )

    def __init__(
        self,
        n: int,
        trump: int,
        *,
        magic: bool = False,
        single: bool = False,
        hands: list[list[int]],
        leader: int,
        turned: int | None = None,
    ) -> None:
        self.n = n
        self.trump = trump
        self.magic = magic
        self.single = single
        self.hands = hands
        self.bids = [-1] * n
        self.tricks = [0] * n
        self.leader = leader
        self.turn = leader
        self.trick: list[int] = []
        self.follow = -1
        self.blocked = False  # a Wizard came before any suited card: no suit to follow (R5.2)
        self.best_key = -1
        self.best_pos = 0
        self.gone = [0, 0, 0, 0]  # per suit, ranks seen played (or turned up)
        self.wizards_gone = 0
        self.n_gone = 0
        self.void = [0] * n  # per seat, suits it showed it lacks (bit = suit position)
        # Single suit (R7.7): per seat, 1 = its Jester played, 2 = its Wizard played.
        self.specials_gone = [0] * n
        if turned is not None:
            self._see(turned)

    def fork(self, hands: list[list[int]], bids: list[int]) -> RoundSim:
        """A copy of this round played with ``hands`` and ``bids`` (both copied)."""
        other = RoundSim.__new__(RoundSim)
        other.n = self.n
        other.trump = self.trump
        other.magic = self.magic
        other.single = self.single
        other.hands = [h.copy() for h in hands]
        other.bids = bids.copy()
        other.tricks = self.tricks.copy()
        other.leader = self.leader
        other.turn = self.turn
        other.trick = self.trick.copy()
        other.follow = self.follow
        other.blocked = self.blocked
        other.best_key = self.best_key
        other.best_pos = self.best_pos
        other.gone = self.gone.copy()
        other.wizards_gone = self.wizards_gone
        other.n_gone = self.n_gone
        other.void = self.void.copy()
        other.specials_gone = self.specials_gone.copy()
        return other

    def _see(self, card: int) -> None:
        self.n_gone += 1
        if card == WIZARD:
            self.wizards_gone += 1
        elif card != JESTER:
            self.gone[card // 13] |= 1 << (card % 13)

    # --- rules -------------------------------------------------------------------------------

    def key(self, card: int) -> int:
        """The key ``card`` would have in the current trick (higher wins; R5.6, R7.6, R7.7)."""
        if self.single:
            return 0 if card == JESTER else 14 if card == WIZARD else card % 13 + 1
        if card == WIZARD:
            return _KEY_WIZARD
        if card == JESTER:
            return 0
        s = card // 13
        r = card % 13
        f = self.follow
        if f < 0:
            if self.blocked:
                return -1
            return _KEY_TRUMP + r if s == self.trump else r + 1
        if s == f:
            if self.magic and r == 1:
                return _KEY_MAGIC  # a 2 played into its own suit, not setting it (R7.6)
            return _KEY_TRUMP + r if s == self.trump else r + 1
        return _KEY_TRUMP + r if s == self.trump else -1

    def legal(self, seat: int) -> list[int]:
        """The cards ``seat`` may play now (R5.3, R5.4); duplicates of Z or N may repeat."""
        hand = self.hands[seat]
        f = self.follow
        if f >= 0:
            lo = f * 13
            hi = lo + 13
            same = [c for c in hand if lo <= c < hi]
            if same:
                return same + [c for c in hand if c >= JESTER]
        return hand.copy()

    def play(self, card: int) -> None:
        """The seat to act plays ``card`` from its hand (assumed legal); a full trick is scored."""
        self.hands[self.turn].remove(card)
        self.record(card)

    def record(self, card: int) -> None:
        """Like :meth:`play`, but ``card`` is not taken from a hand: replaying public plays."""
        seat = self.turn
        trick = self.trick
        pos = len(trick)
        key = self.key(card)  # ranked against the trick so far, before it changes
        if self.single:
            self.n_gone += 1
            if card >= JESTER:
                self.specials_gone[seat] |= 1 if card == JESTER else 2
            else:
                self.gone[card // 13] |= 1 << (card % 13)
        else:
            self._see(card)
            if card == WIZARD:
                if self.follow < 0:
                    self.blocked = True
            elif card != JESTER:
                s = card // 13
                f = self.follow
                if f < 0:
                    if not self.blocked:
                        self.follow = s
                elif s != f:
                    self.void[seat] |= 1 << f  # did not follow: holds none of that suit (R5.3)
        if key > self.best_key:
            self.best_key = key
            self.best_pos = pos
        trick.append(card)
        if pos + 1 < self.n:
            self.turn = (seat + 1) % self.n
            return
        winner = (self.leader + self.best_pos) % self.n
        self.tricks[winner] += 1
        self.trick = []
        self.follow = -1
        self.blocked = False
        self.best_key = -1
        self.best_pos = 0
        self.leader = self.turn = winner

    def play_out(self) -> None:
        """Play the rest of the round with the heuristic policy for every seat."""
        hands = self.hands
        turn_hand = hands[self.turn]
        while turn_hand:
            self.play(self.choose_card(self.turn))
            turn_hand = hands[self.turn]

    # --- what a seat may infer ----------------------------------------------------------------

    def _masks(self, hand: list[int]) -> list[int]:
        """The ranks held in each suit as bit masks, then the number of Wizards held."""
        mine = [0, 0, 0, 0, 0]
        for c in hand:
            if c < JESTER:
                mine[c // 13] |= 1 << (c % 13)
            elif c == WIZARD:
                mine[4] += 1
        return mine

    def _eagerness(self, seat: int) -> float:
        """How readily ``seat`` takes a trick it can take, judged from its visible bid."""
        bid = self.bids[seat]
        if bid < 0:
            return W_UNKNOWN
        return W_HUNGRY if bid > self.tricks[seat] else W_FULL

    def survival(
        self,
        seat: int,
        card: int,
        later: list[int],
        eager: list[float],
        mine: list[int],
    ) -> float:
        """Chance that ``card``, if it wins the trick so far, is not beaten by the ``later`` seats.

        Treats every unseen card as independently in a given later hand with
        probability hand size / unseen cards, and weighs each later seat by
        how eagerly it takes tricks (``eager``, aligned with ``later``). ``mine``
        is the seat's holding as :meth:`_masks` gives it.
        """
        if not later:
            return 1.0
        if self.single:
            return self._survival_single(seat, card, later, eager)
        if card == JESTER:
            return 0.0
        h = len(self.hands[seat])
        unseen = DECK_SIZE - self.n_gone - h
        if unseen <= 0:
            return 1.0
        q = 1.0 - h / unseen if h < unseen else 0.0
        gone = self.gone
        wiz_unseen = 4 - self.wizards_gone - mine[4]
        f = self.follow
        trump = self.trump
        if card == WIZARD:
            # Only a Magic 2 of the suit to follow (R7.6) beats the first Wizard.
            if self.magic and f >= 0 and not ((gone[f] | mine[f]) & 2):
                p_one = 1.0 - q
            else:
                return 1.0
            surv = 1.0
            for e in eager:
                surv *= 1.0 - e * p_one
            return surv
        s = card // 13
        r = card % 13
        if f < 0:
            f = s  # leading (or after Jesters): this card sets the suit to follow
        magic2 = 1 if self.magic and card != f * 13 + 1 and not ((gone[f] | mine[f]) & 2) else 0
        unseen_f = _FULL & ~(gone[f] | mine[f])
        if s == trump:
            higher = (_FULL & ~(gone[s] | mine[s]) & HIGHER[r]).bit_count()
            p_direct = 1.0 - q ** (wiz_unseen + higher + magic2)
            p_void_direct = 1.0 - q ** (wiz_unseen + (higher if f == trump else 0))
            p_ruff = 0.0
            p_trump = 0.0
        else:
            higher = (unseen_f & HIGHER[r]).bit_count()
            p_direct = 1.0 - q ** (wiz_unseen + higher + magic2)
            p_void_direct = 1.0 - q**wiz_unseen
            if trump >= 0:
                p_trump = 1.0 - q ** (_FULL & ~(gone[trump] | mine[trump])).bit_count()
                p_ruff = q ** unseen_f.bit_count() * p_trump
            else:
                p_trump = p_ruff = 0.0
        void = self.void
        fbit = 1 << f
        tbit = 1 << trump if trump >= 0 else 0
        surv = 1.0
        for j, e in zip(later, eager, strict=True):
            vj = void[j]
            if vj & fbit:
                if s == trump or not trump >= 0 or vj & tbit:
                    p_beat = p_void_direct
                else:
                    p_beat = 1.0 - (1.0 - p_void_direct) * (1.0 - p_trump)
            elif p_ruff and not vj & tbit:
                p_beat = 1.0 - (1.0 - p_direct) * (1.0 - p_ruff)
            else:
                p_beat = p_direct
            surv *= 1.0 - e * p_beat
        return surv

    def _survival_single(self, seat: int, card: int, later: list[int], eager: list[float]) -> float:
        # R7.7: each later seat draws from its own 15-card deck; it beats a value only
        # with a strictly higher one (the first of equal values wins).
        value = 0 if card == JESTER else 14 if card == WIZARD else card % 13 + 1
        h = len(self.hands[seat])
        surv = 1.0
        for j, e in zip(later, eager, strict=True):
            spec = self.specials_gone[j]
            gone_j = self.gone[j]  # seat j draws from the deck of suit j (R7.7)
            left = SINGLE_DECK_SIZE - gone_j.bit_count() - (spec & 1) - (spec >> 1)
            if left <= 0:
                continue
            if value >= 14:
                beaters = 0
            else:
                above = HIGHER[value - 1] if value >= 1 else _FULL
                beaters = (above & ~gone_j).bit_count() + (0 if spec & 2 else 1)
            q = 1.0 - h / left if h < left else 0.0
            p_beat = 1.0 - q**beaters
            surv *= 1.0 - e * p_beat
        return surv

    def _cost(self, card: int) -> int:
        """How much a card is worth keeping as a future trick-taker (a static order)."""
        if card == WIZARD:
            return 60
        if card == JESTER:
            return -1
        if self.single:
            return card % 13
        r = card % 13
        return 20 + r if card // 13 == self.trump else r

    # --- the heuristic policy -----------------------------------------------------------------

    def choose_card(self, seat: int) -> int:
        """The heuristic's card for ``seat``: win cheaply when it needs tricks, duck otherwise."""
        legal = self.legal(seat)
        if len(legal) == 1:
            return legal[0]
        best = self.best_key
        key = self.key
        cost = self._cost
        pos = len(self.trick)
        need = self.bids[seat] - self.tricks[seat]
        if need <= 0 and pos:
            # Wants no more tricks and follows: shed the card most likely to win a later
            # trick while this one is lost anyway (no odds needed, the common case).
            losers = [c for c in legal if c != JESTER and key(c) <= best]
            if losers:
                return max(losers, key=cost)
            if JESTER in legal:
                return JESTER
            if pos == self.n - 1:
                return max(legal, key=cost)  # the trick is ours whatever: shed the worst danger
        hand = self.hands[seat]
        n = self.n
        later = [(seat + i) % n for i in range(1, n - pos)]
        eager = [self._eagerness(j) for j in later]
        mine = self._masks(hand)
        if need > 0:
            threshold = WIN_THRESHOLD - URGENCY_SLOPE * need / len(hand)
            # Cheapest first: the first card likely enough to hold the trick is played.
            winners = sorted({(cost(c), c) for c in legal if c != JESTER and key(c) > best})
            top = -1.0
            top_card = -1
            for _, c in winners:
                p = self.survival(seat, c, later, eager, mine)
                if p >= threshold:
                    return c
                if p > top:
                    top, top_card = p, c
            if top_card >= 0 and need >= len(hand):
                return top_card  # every trick left is needed: take the best chance
            # Give up this trick as cheaply as possible: the least useful card.
            return min(legal, key=lambda c: (cost(c), c))
        if pos == 0:
            safest = (2.0, 0, JESTER)
            for c in set(legal):
                if c != JESTER:
                    safest = min(safest, (self.survival(seat, c, later, eager, mine), cost(c), c))
            if safest[0] <= LEAD_SAFE or JESTER not in legal:
                return safest[2]
            return JESTER  # nothing is safe enough: the Jester cannot take the trick
        # Every card would win so far: play the one most likely to be overtaken.
        return min(legal, key=lambda c: (self.survival(seat, c, later, eager, mine), cost(c)))

    def choose_bid(self, seat: int, forbidden: int = -1) -> int:
        """The heuristic's bid for ``seat`` at the start of the round, never ``forbidden``."""
        hand = self.hands[seat]
        place = (seat - self.leader) % self.n
        est = expected_tricks(self.n, hand, self.trump, self.single, place)
        return pick_bid(est, len(hand), forbidden)

    def choose_trump(self, seat: int) -> int:
        """The heuristic's trump after a turned Wizard (R3.3): the suit promising most tricks."""
        hand = self.hands[seat]
        place = (seat - self.leader) % self.n
        return max(
            range(4),
            key=lambda t: (expected_tricks(self.n, hand, t, self.single, place), -t),
        )


def expected_tricks(n: int, hand: list[int], trump: int, single: bool, place: int) -> float:
    """The tricks a hand should take: its cards' chances (:mod:`wizard.ai.odds`) plus its seat's.

    ``place`` is the seat's place after the dealer (0 bids and leads first).
    """
    key = (n, len(hand), single)
    row = odds.ODDS[key]
    return sum([row[card_class(c, trump, single)] for c in hand]) + odds.SHIFT[key][place]


def pick_bid(expected: float, k: int, forbidden: int = -1) -> int:
    """The whole bid from 0 to ``k`` nearest ``expected``, other than ``forbidden`` (R7.1, R7.5)."""
    bid = min(k, max(0, int(expected + 0.5)))
    if bid != forbidden:
        return bid
    if bid == 0 or (bid < k and expected >= bid):
        return bid + 1
    return bid - 1
