"""Determinism, sampling of unseen cards, and the heuristic's rules of thumb."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.ai.helpers import random_views
from wizard.ai import HeuristicPlayer, RandomPlayer, SearchPlayer, make_player
from wizard.ai.core import JESTER, WIZARD, RoundSim
from wizard.ai.knowledge import Situation
from wizard.ai.search import distinct_cards
from wizard.ai.simulate import play_game
from wizard.cards import STANDARD_DECK, SUITS, single_suit_deck
from wizard.options import Options
from wizard.rules import apply, legal_actions, new_game, suit_to_follow
from wizard.state import Bid, Phase
from wizard.view import PlayerView, view


def _shown_voids(seen: PlayerView) -> dict[int, set[int]]:
    """Suits each seat has shown not to hold, worked out with the engine's R5.2."""
    voids: dict[int, set[int]] = {}
    for trick in (*seen.played, seen.trick):
        cards = [c for _, c in trick]
        for i, (seat, card) in enumerate(trick):
            follow = suit_to_follow(cards[:i])
            if follow is not None and card.suit is not None and card.suit is not follow:
                voids.setdefault(seat, set()).add(follow.position)
    return voids


@pytest.mark.parametrize(
    ("n", "options"),
    [
        (3, Options()),
        (5, Options()),
        (3, Options(clairvoyance=True)),
        (4, Options(single_suit=True)),
    ],
)
def test_sampled_deals_agree_with_everything_public(n: int, options: Options) -> None:
    rng = random.Random(1)
    constrained = 0
    for _, seen in random_views(n, options, seed=21, rounds=8):
        sit = Situation(seen)
        voids = _shown_voids(seen)
        constrained += any(voids.get(j) for j in sit.unknown)
        public = [int(c) for t in (*seen.played, seen.trick) for _, c in t]
        if seen.turned is not None:
            public.append(int(seen.turned))
        for _ in range(3):
            hands = sit.sample(rng)
            for seat, hand in enumerate(hands):
                assert len(hand) == seen.hand_sizes[seat]
                if seen.hands[seat] is not None:
                    assert hand == sorted(int(c) for c in seen.hands[seat] or ())
                for card in hand:
                    assert card >= JESTER or card // 13 not in voids.get(seat, set())
            if options.single_suit:
                for seat, hand in enumerate(hands):
                    deck = Counter(int(c) for c in single_suit_deck(SUITS[seat]))
                    assert not Counter(hand) - deck
            else:
                used = Counter(c for h in hands for c in h) + Counter(public)
                assert not used - Counter(int(c) for c in STANDARD_DECK)
    if not options.single_suit and not options.clairvoyance:
        assert constrained > 0  # the void-respecting dealer was exercised


def test_search_is_deterministic_for_a_seed() -> None:
    def game() -> tuple[object, ...]:
        players = [SearchPlayer(9, iterations=3, time_limit=None)]
        players += [HeuristicPlayer(), RandomPlayer(4), HeuristicPlayer()]
        _, state = play_game(players, Options(uneven_bids=True), seed=3)
        return state.history

    assert game() == game()


def test_a_rebuilt_search_player_repeats_each_decision() -> None:
    """A decision follows from the seed and the view, not from earlier calls."""
    kept = SearchPlayer(4, iterations=4, time_limit=None)
    for i, (_, seen) in enumerate(random_views(3, Options(), seed=8, rounds=5)):
        if i % 3 == 0:
            again = SearchPlayer(4, iterations=4, time_limit=None).choose(seen)
            assert kept.choose(seen) == again


def test_search_budget_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least one"):
        SearchPlayer(1, iterations=0)


def _trick_sim(trick: list[int], hand: list[int], need: int, trump: int = -1) -> RoundSim:
    """Seat 2 of 3 to play into ``trick`` (led by seat 0), needing ``need`` more tricks."""
    sim = RoundSim(3, trump, hands=[[], [], []], leader=(2 - len(trick)) % 3)
    for card in trick:
        sim.record(card)
    sim.hands[2] = sorted(hand)
    sim.bids = [1, 1, need]
    return sim


B5, B7, B9, B13, R2 = 4, 6, 8, 12, 14


def test_heuristic_wins_as_cheaply_as_it_can_when_it_needs_a_trick() -> None:
    sim = _trick_sim([B5, B7], [B9, B13, R2], need=1)
    assert sim.choose_card(2) == B9


def test_heuristic_sheds_its_most_dangerous_card_into_a_lost_trick() -> None:
    sim = _trick_sim([B5, WIZARD], [B9, B13, JESTER], need=0)
    assert sim.choose_card(2) == B13


def test_heuristic_ducks_under_the_winning_card_when_it_has_enough() -> None:
    sim = _trick_sim([B5, B13 - 1], [B9, B13], need=0)  # B12 leads the trick
    assert sim.choose_card(2) == B9


def test_heuristic_leads_its_weakest_card_when_it_wants_nothing() -> None:
    sim = _trick_sim([], [0, B13, WIZARD], need=0)
    assert sim.choose_card(2) == 0


def test_heuristic_names_its_strongest_suit_as_trump() -> None:
    sim = RoundSim(3, -1, hands=[[], [], [13 + 12, 13 + 11, 13 + 9, 2]], leader=0)
    assert sim.choose_trump(2) == 1


def test_equal_cards_are_searched_once() -> None:
    sim = RoundSim(3, -1, hands=[[], [], [4, 5, 7, WIZARD, WIZARD]], leader=0)
    # B5 and B6 touch; B8 is separated by B7, which someone else may hold.
    assert distinct_cards(sim, 2, [4, 5, 7, WIZARD, WIZARD]) == [4, 7, WIZARD]
    sim.record(6)  # B7 is played: now B6 and B8 touch as well
    assert distinct_cards(sim, 2, [4, 5, 7]) == [4]
    sim.magic = True  # a Magic 2 is unlike the 1 and the 3 (R7.6)
    assert distinct_cards(sim, 2, [0, 1, 2]) == [0, 1, 2]


def test_views_without_choices_are_not_searched() -> None:
    seen = next(v for _, v in random_views(3, Options(), seed=2) if v.phase is Phase.BID)
    assert SearchPlayer(1, iterations=1).choose(seen) in seen.legal


@pytest.mark.parametrize("seed", [500, 501, 502])
def test_the_last_open_bidder_weighs_the_tricks_the_other_bids_leave(seed: int) -> None:
    # R7.7, R4: in single suit's last round every seat holds its whole deck, and the heuristic's
    # estimate gives the dealer, who bids last, 12 of the 15 tricks. With the three others
    # bidding 3 each in the open, a Normal dealer bid 10 (the lowest bid that estimate's window
    # let it weigh) and took the 6 the others left.
    rng = random.Random(seed)
    state = new_game([f"P{i}" for i in range(4)], seed=seed, options=Options(single_suit=True))
    while not (state.round == 12 and state.phase is Phase.BID):
        state = apply(state, rng.choice(legal_actions(state)))
    while state.turn != state.dealer:
        assert state.turn is not None
        state = apply(state, Bid(state.turn, 3))
    bid = make_player("normal", seed=seed).choose(view(state, state.dealer))
    assert isinstance(bid, Bid)
    assert bid.bid <= 15 - 9
