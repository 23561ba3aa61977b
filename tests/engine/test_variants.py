"""R7.1–R7.7: the variants (R7.8, the refused combinations, is in test_setup.py)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from tests.engine.helpers import NAMES, bid_all, play, play_random, table
from wizard.cards import SUITS, Card, Suit, parse_cards, single_suit_deck
from wizard.errors import AlreadyBidError, BidOutOfRangeError, ForbiddenBidError, InvalidDealError
from wizard.options import Bidding, Options
from wizard.rules import (
    apply,
    bidding_order,
    forbidden_bid,
    legal_actions,
    new_game,
    seeded_deal,
    to_act,
    trick_winner,
)
from wizard.state import Bid, Deal, GameState, Phase, Play
from wizard.view import view

UNEVEN = Options(uneven_bids=True)
HIDDEN = Options(bidding=Bidding.HIDDEN)
SECRET = Options(bidding=Bidding.SECRET)
CLAIRVOYANT = Options(clairvoyance=True)
CANADIAN = Options(canadian=True)
MAGIC = Options(magic_twos=True)
SINGLE = Options(single_suit=True)

THREE_CARDS = ["B1 B2 B3", "R1 R2 R3", "G1 G2 G3"]


def bids_of(state: GameState, seat: int) -> list[int]:
    return [a.bid for a in legal_actions(state, seat) if isinstance(a, Bid)]


# --- R7.1 uneven bids ---------------------------------------------------------------------------


def test_R7_1_dealer_may_not_make_the_bids_add_up() -> None:
    state = table(THREE_CARDS, "Y1", options=UNEVEN, dealer=0)
    assert bids_of(state, 1) == [0, 1, 2, 3]  # Bo, first bidder: no restriction
    state = apply(state, Bid(1, 1))
    assert bids_of(state, 2) == [0, 1, 2, 3]  # Cy: no restriction either
    state = apply(state, Bid(2, 1))
    assert bids_of(state, 0) == [0, 2, 3]  # Ann, the dealer: 1 would make 3
    assert forbidden_bid(state, 0) == (1, "R7.1")
    assert view(state, 0).legal == tuple(Bid(0, b) for b in (0, 2, 3))
    with pytest.raises(ForbiddenBidError) as info:
        apply(state, Bid(0, 1))
    err = info.value
    assert err.rule == "R7.1"
    assert "uneven" in err.message and "1" in err.message and "3" in err.message
    done = apply(state, Bid(0, 2))
    assert done.phase is Phase.PLAY and sum(b or 0 for b in done.bids) != 3


@pytest.mark.parametrize(("a", "b"), list(itertools.product(range(4), repeat=2)))
def test_R7_1_exactly_one_dealer_bid_is_forbidden_when_reachable(a: int, b: int) -> None:
    state = table(THREE_CARDS, "Y1", options=UNEVEN, dealer=0)
    state = apply(apply(state, Bid(1, a)), Bid(2, b))
    allowed = bids_of(state, 0)
    if a + b <= 3:
        assert allowed == [x for x in range(4) if x != 3 - a - b]
    else:  # the others already bid more than 3: no bid of the dealer can make 3
        assert allowed == [0, 1, 2, 3]
    assert all(a + b + x != 3 for x in allowed)


def test_R7_1_off_by_default() -> None:
    state = table(THREE_CARDS, "Y1", dealer=0)
    state = apply(apply(state, Bid(1, 1)), Bid(2, 1))
    assert bids_of(state, 0) == [0, 1, 2, 3]
    assert apply(state, Bid(0, 1)).bids == (1, 1, 1)


def test_R7_1_round_one_dealer() -> None:
    state = table(["B1", "R1", "G1", "Y1"], "B2", options=UNEVEN, dealer=3)
    for seat in (0, 1, 2):
        state = apply(state, Bid(seat, 0))
    assert bids_of(state, 3) == [0]  # 1 would make the one trick
    with pytest.raises(ForbiddenBidError):
        apply(state, Bid(3, 1))


def test_R7_1_random_games_never_have_bids_adding_up() -> None:
    for seed in range(6):
        final = play_random(3 + seed % 4, UNEVEN, seed=seed)
        for result in final.history:
            assert sum(result.bids) != result.round


def test_R7_1_with_single_suit_counts_the_hand_size() -> None:
    # hand 1 of the single-suit game has 4 tricks
    state = table(
        ["B1 B2 B3 B4", "R1 R2 R3 R4", "G1 G2 G3 G4"],
        None,
        options=Options(single_suit=True, uneven_bids=True),
        dealer=0,
    )
    state = apply(apply(state, Bid(1, 1)), Bid(2, 1))
    assert bids_of(state, 0) == [0, 1, 3, 4]


# --- R7.2 hidden bids ---------------------------------------------------------------------------


def test_R7_2_hidden_bids_in_any_order_revealed_together() -> None:
    state = table(["B1 B2", "R1 R2", "G1 G2", "Y1 Y2"], "N", options=HIDDEN, dealer=0)
    assert state.turn is None
    assert set(to_act(state)) == {0, 1, 2, 3}
    for seat in range(4):
        assert bids_of(state, seat) == [0, 1, 2]
    # the dealer may choose first: no order
    state = apply(state, Bid(0, 2))
    state = apply(state, Bid(3, 1))
    for seat in range(4):
        seen = view(state, seat)
        assert seen.has_bid == (True, False, False, True)
        assert seen.bids == tuple(
            state.bids[i] if i == seat else None for i in range(4)
        )  # only its own
    with pytest.raises(AlreadyBidError) as info:
        apply(state, Bid(3, 0))
    assert info.value.rule == "R7.2"
    assert "already" in info.value.message
    state = apply(state, Bid(2, 0))
    assert view(state, 1).bids == (None, None, None, None)  # still nothing before choosing
    state = apply(state, Bid(1, 2))
    # all chosen: revealed to everyone at once, and play starts left of the dealer
    assert state.phase is Phase.PLAY and state.turn == 1
    for seat in range(4):
        assert view(state, seat).bids == (2, 2, 0, 1)


def test_R7_2_no_player_sees_another_bid_before_choosing() -> None:
    rng = random.Random(5)
    state = table(["B1 B2", "R1 R2", "G1 G2", "Y1 Y2"], "N", options=HIDDEN, dealer=2)
    while state.phase is Phase.BID:
        for seat in to_act(state):
            seen = view(state, seat)
            assert seen.bids == (None,) * 4
            assert seen.my_turn
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
    assert None not in view(state, 0).bids


# --- R7.3 secret bids ---------------------------------------------------------------------------


def test_R7_3_secret_bids_stay_hidden_until_the_round_is_scored() -> None:
    state = table(["B1 Z", "R1 R2", "G1 G2"], "Y1", options=SECRET, dealer=0)
    state = apply(state, Bid(2, 0))
    state = apply(state, Bid(0, 1))
    with pytest.raises(AlreadyBidError) as info:
        apply(state, Bid(0, 2))
    assert info.value.rule == "R7.3"
    state = apply(state, Bid(1, 2))
    assert state.phase is Phase.PLAY
    bids = (1, 2, 0)
    while state.phase is Phase.PLAY:
        for seat in range(3):
            seen = view(state, seat)
            assert seen.bids == tuple(bids[i] if i == seat else None for i in range(3))
            assert seen.has_bid == (True, True, True)
        state = apply(state, legal_actions(state)[0])
    assert state.phase is Phase.ROUND_OVER
    for seat in range(3):
        seen = view(state, seat)
        assert seen.bids == bids
        assert seen.history[-1].bids == bids


def advance_to(state: GameState, round_no: int, phase: Phase, seed: int = 0) -> GameState:
    """Play random legal actions until the game reaches ``phase`` in ``round_no``."""
    rng = random.Random(seed)
    while not (state.round == round_no and state.phase is phase):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_R7_3_bids_of_earlier_rounds_are_public_in_the_history() -> None:
    state = advance_to(new_game(NAMES[:3], SECRET, seed=12), 3, Phase.BID)
    state = apply(state, legal_actions(state, 0)[-1])  # seat 0 chooses a secret bid
    for seat in range(3):
        seen = view(state, seat)
        assert [r.bids for r in seen.history] == [r.bids for r in state.history]
        assert len(seen.history) == 2
        # this round's secret bid of seat 0 is visible to seat 0 only
        assert seen.bids == ((state.bids[0] if seat == 0 else None), None, None)
    final = play_random(3, SECRET, seed=12)
    assert final.phase is Phase.GAME_OVER
    assert view(final, 1).bids == final.history[-1].bids


# --- R7.4 clairvoyance ------------------------------------------------------------------------


def test_R7_4_round_one_everyone_sees_the_others_cards_not_their_own() -> None:
    state = table(["B7", "R3", "Z", "N"], "G1", options=CLAIRVOYANT, dealer=0)
    for seat in range(4):
        seen = view(state, seat)
        assert seen.hand is None
        for other in range(4):
            expected = None if other == seat else state.hands[other]
            assert seen.hands[other] == expected
        assert seen.hand_sizes == (1, 1, 1, 1)
    # bidding works as usual, on that basis
    state = bid_all(state, [0, 1, 1, 0])
    assert state.phase is Phase.PLAY
    # during play the seat still cannot see its card; it must play its single card
    assert view(state, 1).hand is None and view(state, 1).legal == ()
    assert legal_actions(state) == (Play(1, Card.parse("R3")),)
    state = play(state, "R3", "Z", "N", "B7")
    assert state.tricks == (0, 0, 1, 0)
    assert state.scores == (20, -10, 30, 20)  # scoring as usual


def test_R7_4_from_round_two_the_hands_are_private_again() -> None:
    state = advance_to(new_game(NAMES[:3], CLAIRVOYANT, seed=4), 2, Phase.PLAY)
    for seat in range(3):
        seen = view(state, seat)
        assert seen.hand == state.hands[seat]
        assert len(seen.hand) == 2
        assert [h for i, h in enumerate(seen.hands) if i != seat] == [None, None]
    assert view(state, state.turn or 0).legal != ()


def test_R7_4_off_by_default_own_card_visible_in_round_one() -> None:
    state = table(["B7", "R3", "Z"], "G1", dealer=0)
    for seat in range(3):
        assert view(state, seat).hand == state.hands[seat]
        assert sum(h is not None for h in view(state, seat).hands) == 1


# --- R7.5 Canadian rule -------------------------------------------------------------------------

ALL_CODES = [f"{s}{r}" for s in "BRGY" for r in range(1, 14)] + ["Z"] * 4 + ["N"] * 4


def canadian_table(
    round_no: int, scores: tuple[int, ...], options: Options = CANADIAN
) -> GameState:
    """Six players, dealer Ann (seat 0), at the bidding of ``round_no`` (10 is the last)."""
    hands = [" ".join(ALL_CODES[i * round_no : (i + 1) * round_no]) for i in range(6)]
    turned = None if round_no == 10 else "N"  # round 9 deals every suited card and two Z
    state = table(hands, turned, options=options, dealer=0, round_no=round_no, scores=scores)
    for seat in (1, 2, 3, 4, 5):
        state = apply(state, Bid(seat, 1))
    return state


def test_R7_5_sole_leader_dealer_may_not_make_the_bids_add_up_in_the_last_round() -> None:
    state = canadian_table(10, (120, 80, 60, 110, 0, -30))
    assert state.round == 10 and state.turn == 0
    assert forbidden_bid(state, 0) == (5, "R7.5")
    assert bids_of(state, 0) == [b for b in range(11) if b != 5]
    with pytest.raises(ForbiddenBidError) as info:
        apply(state, Bid(0, 5))
    assert info.value.rule == "R7.5"
    assert "Canadian" in info.value.message
    assert apply(state, Bid(0, 4)).phase is Phase.PLAY


def test_R7_5_not_when_the_lead_is_shared() -> None:
    state = canadian_table(10, (120, 80, 120, 110, 0, -30))
    assert forbidden_bid(state, 0) is None
    assert bids_of(state, 0) == list(range(11))
    assert apply(state, Bid(0, 5)).bids == (5, 1, 1, 1, 1, 1)


def test_R7_5_not_when_the_dealer_does_not_lead() -> None:
    state = canadian_table(10, (100, 80, 120, 110, 0, -30))
    assert bids_of(state, 0) == list(range(11))


def test_R7_5_not_before_the_last_round() -> None:
    state = canadian_table(9, (120, 80, 60, 110, 0, -30))
    assert state.round == 9
    assert bids_of(state, 0) == list(range(10))
    assert apply(state, Bid(0, 4)).phase is Phase.PLAY  # 5 + 4 = 9 tricks: allowed


def test_R7_5_off_by_default() -> None:
    state = canadian_table(10, (120, 80, 60, 110, 0, -30), Options())
    assert bids_of(state, 0) == list(range(11))


def test_R7_5_other_seats_are_never_restricted() -> None:
    hands = [" ".join(ALL_CODES[i * 10 : (i + 1) * 10]) for i in range(6)]
    state = table(hands, None, options=CANADIAN, dealer=0, round_no=10, scores=(0, 200, 0, 0, 0, 0))
    for seat in bidding_order(state):
        if seat == 0:
            break
        assert bids_of(state, seat) == list(range(11))
        state = apply(state, Bid(seat, 2))


# --- R7.6 magic twos ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trick", "trump", "magic", "plain"),
    [
        pytest.param("B5 Z B2", None, 2, 1, id="R7_6-magic-wizard-beats-a-wizard"),
        pytest.param("B5 B2 Z", None, 1, 2, id="R7_6-magic-wizard-beats-a-later-wizard"),
        pytest.param("B9 B2 B13", None, 1, 2, id="R7_6-two-of-the-suit-to-follow-wins"),
        pytest.param("B9 Y13 B2", "Y", 2, 1, id="R7_6-magic-wizard-beats-trump"),
        pytest.param("N B9 B2", None, 2, 1, id="R7_6-after-jester-and-suit"),
        pytest.param("B2 B5", None, 1, 1, id="R7_6-ruling-the-2-that-sets-the-suit-stays-ordinary"),
        pytest.param("N B2 B5", None, 2, 2, id="R7_6-ruling-2-setting-suit-after-jester-ordinary"),
        pytest.param("B2 Z", None, 1, 1, id="R7_6-ruling-led-2-loses-to-wizard"),
        pytest.param("Z B5 B2", None, 0, 0, id="R7_6-led-wizard-no-suit-2-ordinary"),
        pytest.param("B5 R2 G9", "R", 1, 1, id="R7_6-other-suit-2-is-no-magic-wizard"),
        pytest.param("B5 R2 R9", "R", 2, 2, id="R7_6-trump-2-not-magic"),
        pytest.param("B5 R2 B2", None, 2, 0, id="R7_6-at-most-one-magic-wizard"),
    ],
)
def test_R7_6_magic_twos(trick: str, trump: str | None, magic: int, plain: int) -> None:
    cards = parse_cards(trick)
    suit = None if trump is None else Suit(trump)
    assert trick_winner(cards, suit, magic_twos=True) == magic
    assert trick_winner(cards, suit, magic_twos=False) == plain


def test_R7_6_magic_two_in_play() -> None:
    # Bo leads B9, Cy plays a Wizard, Ann plays B2 into the trick of B: Ann wins.
    hands = ["B2 R1", "B9 R2", "Z R3"]
    state = play(bid_all(table(hands, "G1", options=MAGIC), [0, 0, 0]), "B9", "Z", "B2")
    assert state.tricks == (1, 0, 0)
    assert state.turn == 0  # the Magic Wizard's player leads next (R5.1)
    assert view(state, 1).last_trick == (
        (1, Card.parse("B9")),
        (2, Card.parse("Z")),
        (0, Card.parse("B2")),
    )
    # without the option the Wizard wins
    state = play(bid_all(table(hands, "G1"), [0, 0, 0]), "B9", "Z", "B2")
    assert state.tricks == (0, 0, 1)


def test_R7_6_led_two_stays_ordinary_in_play() -> None:
    hands = ["B5 R1", "B2 R2", "B3 R3"]
    state = play(bid_all(table(hands, "G1", options=MAGIC), [0, 0, 0]), "B2", "B3", "B5")
    assert state.tricks == (1, 0, 0)


# --- R7.7 single suit ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_R7_7_personal_decks_4_cards_in_hand_1_and_12_hands(players: int) -> None:
    final = play_random(players, SINGLE, seed=players + 40)
    assert final.phase is Phase.GAME_OVER
    assert len(final.history) == 12
    for result in final.history:
        assert result.turned is None and result.trump is None
        for seat, hand in enumerate(result.dealt):
            assert len(hand) == result.round + 3  # 4 in hand 1, one more each hand
            own = Counter(single_suit_deck(SUITS[seat]))
            assert not Counter(hand) - own  # drawn from the seat's own 15-card deck
        assert sum(result.tricks) == result.round + 3
    assert [len(h) for h in final.history[0].dealt] == [4] * players
    # the last hand deals each whole personal deck
    for seat, hand in enumerate(final.history[-1].dealt):
        assert Counter(hand) == Counter(single_suit_deck(SUITS[seat]))
    if players == 3:
        assert all(c.suit is not Suit.GIANTS for r in final.history for h in r.dealt for c in h)


def test_R7_7_personal_deck_is_one_suit_plus_wizard_and_jester() -> None:
    deck = single_suit_deck(Suit.DWARVES)
    assert len(deck) == 15
    assert Counter(c.code for c in deck) == Counter([f"R{r}" for r in range(1, 14)] + ["Z", "N"])


def test_R7_7_every_player_shuffles_before_each_hand() -> None:
    hands = {seeded_deal(s, 1, 3, True).hands[0] for s in range(30)}
    assert len(hands) > 20  # hand 1 differs from seed to seed
    assert seeded_deal(7, 2, 3, True) != seeded_deal(7, 1, 3, True)


def test_R7_7_no_follow_suit_any_card_may_be_played() -> None:
    state = table(["B1 B2 Z N", "R5 R6 R7 R8", "G9 G10 G11 G12"], None, options=SINGLE)
    assert state.trump is None and state.phase is Phase.BID
    assert bids_of(state, 1) == [0, 1, 2, 3, 4]
    state = bid_all(state, [1, 1, 1])
    state = play(state, "R5")
    assert state.follow is None
    assert {a.card for a in legal_actions(state) if isinstance(a, Play)} == set(
        parse_cards("G9 G10 G11 G12")
    )
    state = play(state, "G9")
    assert {a.card for a in legal_actions(state) if isinstance(a, Play)} == set(
        parse_cards("B1 B2 Z N")
    )


@pytest.mark.parametrize(
    ("trick", "winner"),
    [
        pytest.param("R5 G9 B7", 1, id="R7_7-highest-value-wins-whatever-the-suit"),
        pytest.param("G9 R5 B7", 0, id="R7_7-led-card-has-no-privilege-it-is-just-highest"),
        pytest.param("R9 G9 B3", 0, id="R7_7-first-of-equal-values-wins"),
        pytest.param("B3 R9 G9 Y9", 1, id="R7_7-first-of-equal-values-wins-later"),
        pytest.param("R13 Z G13", 1, id="R7_7-wizard-highest"),
        pytest.param("Z Z R1", 0, id="R7_7-first-of-two-wizards"),
        pytest.param("N R1 B1", 1, id="R7_7-jester-lowest"),
        pytest.param("N N N", 0, id="R7_7-all-jesters-first"),
    ],
)
def test_R7_7_trick_winner(trick: str, winner: int) -> None:
    assert trick_winner(parse_cards(trick), None, single_suit=True) == winner


def test_R7_7_trick_through_apply_first_of_equal_values() -> None:
    state = table(["B9 B1 B2 B3", "R9 R1 R2 R3", "G9 G1 G2 G3"], None, options=SINGLE, dealer=2)
    state = bid_all(state, [0, 0, 0])
    assert state.turn == 0  # left of the (virtual) dealer leads
    state = play(state, "B9", "R9", "G9")
    assert state.tricks == (1, 0, 0)


def test_R7_7_first_bidder_and_leader_move_left_every_hand() -> None:
    final = play_random(4, SINGLE, seed=3)
    first = final.first_dealer
    assert [r.dealer for r in final.history] == [(first + i) % 4 for i in range(12)]
    state = new_game(NAMES[:4], SINGLE, seed=3)
    for _ in range(3):
        state = apply(state, legal_actions(state)[0])  # the deal
        assert state.turn == (state.dealer + 1) % 4 == bidding_order(state)[0]
        while state.phase is not Phase.ROUND_OVER:
            if state.phase is Phase.PLAY and not state.played and not state.trick:
                assert state.turn == (state.dealer + 1) % 4
            state = apply(state, legal_actions(state)[-1])


@pytest.mark.parametrize("bidding", [Bidding.HIDDEN, Bidding.SECRET])
def test_R7_7_with_hidden_or_secret_bids(bidding: Bidding) -> None:
    options = Options(single_suit=True, bidding=bidding)
    state = table(["B1 B2 Z N", "R5 R6 R7 R8", "G9 G10 G11 G12"], None, options=options)
    assert set(to_act(state)) == {0, 1, 2}
    state = apply(state, Bid(2, 4))
    assert view(state, 0).bids == (None, None, None)
    final = play_random(3, options, seed=9)
    assert final.phase is Phase.GAME_OVER and len(final.history) == 12


def test_R7_7_deal_from_another_players_deck_is_refused() -> None:
    state = new_game(NAMES[:3], SINGLE, first_dealer=0)
    hands = tuple(parse_cards(h) for h in ["B1 B2 B3 R4", "R5 R6 R7 R8", "G9 G10 G11 G12"])
    with pytest.raises(InvalidDealError) as info:
        apply(state, Deal(hands, None))
    assert info.value.rule == "R7.7"
    assert "seat 0" in info.value.message
    good = tuple(parse_cards(h) for h in ["B1 B2 B3 B4", "R5 R6 R7 R8", "G9 G10 G11 G12"])
    with pytest.raises(InvalidDealError) as info2:
        apply(state, Deal(good, Card.parse("Y1")))
    assert info2.value.rule == "R7.7"
    short = tuple(parse_cards(h) for h in ["B1", "R5", "G9"])
    with pytest.raises(InvalidDealError) as info3:
        apply(state, Deal(short, None))
    assert info3.value.rule == "R7.7"
    assert "hold 4" in info3.value.message


def test_R7_7_bids_up_to_the_hand_size() -> None:
    state = table(["B1 B2 Z N", "R5 R6 R7 R8", "G9 G10 G11 G12"], None, options=SINGLE)
    with pytest.raises(BidOutOfRangeError) as info:
        apply(state, Bid(1, 5))
    assert info.value.rule == "R4.1"
    assert apply(state, Bid(1, 4)).bids == (None, 4, None)
