"""R3 (trump) and R4 (bidding)."""

from __future__ import annotations

import pytest

from tests.engine.helpers import NAMES, bid_all, play, play_random, table
from wizard.cards import SUITS, Card, Suit
from wizard.errors import (
    BidOutOfRangeError,
    InvalidDealError,
    NotYourTurnError,
    TrumpError,
    WrongPhaseError,
)
from wizard.rules import apply, legal_actions, new_game, to_act
from wizard.state import Bid, ChooseTrump, Deal, Phase, Play
from wizard.view import view

# --- R3 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("turned", ["B5", "R13", "G1", "Y7"])
def test_R3_1_turned_suited_card_makes_its_suit_trump(turned: str) -> None:
    state = table(["B1", "B2", "B3"] if turned[0] != "B" else ["R1", "R2", "R3"], turned)
    assert state.turned == Card.parse(turned)
    assert state.trump is Suit(turned[0])
    assert state.phase is Phase.BID


def test_R3_1_trump_wins_over_the_suit_to_follow() -> None:
    # Trump Y (turned Y5). Ann deals; Bo leads R13, Cy plays Y1 (no red), Ann plays R12.
    state = table(["R12", "R13", "Y1"], "Y5")
    state = bid_all(state, [0, 0, 0])
    state = play(state, "R13", "Y1", "R12")
    assert state.tricks == (0, 0, 1)


def test_R3_1_a_deal_that_leaves_a_pile_must_turn_a_card() -> None:
    state = new_game(NAMES[:3], first_dealer=0)
    deal = Deal(tuple((Card.parse(c),) for c in ("B1", "B2", "B3")), None)
    with pytest.raises(InvalidDealError) as info:
        apply(state, deal)
    assert info.value.rule == "R3.1"
    assert "turned up" in info.value.message


def test_R3_2_turned_jester_means_no_trump() -> None:
    state = table(["B1", "R3", "Y2"], "N")
    assert state.trump is None and state.phase is Phase.BID
    # Bo leads R3; Cy, without red, plays Y2; with no trump the led suit wins.
    state = play(bid_all(state, [0, 0, 0]), "R3", "Y2", "B1")
    assert state.tricks == (0, 1, 0)
    assert state.history[-1].trump is None
    # the same trick with a turned Y card: Y2 is trump and wins
    trumped = play(bid_all(table(["B1", "R3", "Y2"], "Y9"), [0, 0, 0]), "R3", "Y2", "B1")
    assert trumped.tricks == (0, 0, 1)


def test_R3_3_turned_wizard_dealer_chooses_trump_after_seeing_the_hand() -> None:
    state = table(["B1 B2", "R1 R2", "G1 G2"], "Z", dealer=2)
    assert state.phase is Phase.CHOOSE_TRUMP
    assert state.trump is None
    assert state.turn == 2 and to_act(state) == (2,)
    # the dealer already holds the hand when choosing
    assert view(state, 2).hand == (Card.parse("G1"), Card.parse("G2"))
    # the choices are the four suits and nothing else ("no trump" is not a choice)
    choices = legal_actions(state)
    assert choices == tuple(ChooseTrump(2, s) for s in SUITS)
    assert legal_actions(state, 0) == ()
    state = apply(state, ChooseTrump(2, Suit.ELVES))
    assert state.trump is Suit.ELVES and state.phase is Phase.BID
    assert state.turn == 0  # bidding starts left of the dealer


def test_R3_3_only_the_dealer_chooses_and_only_a_suit() -> None:
    state = table(["B1", "R1", "G1"], "Z", dealer=0)
    with pytest.raises(NotYourTurnError) as info:
        apply(state, ChooseTrump(1, Suit.HUMANS))
    assert info.value.rule == "R3.3"
    assert "dealer" in info.value.message
    with pytest.raises(TrumpError) as info2:
        apply(state, ChooseTrump(0, None))  # type: ignore[arg-type]
    assert info2.value.rule == "R3.3"
    # and there is no choice when the turned card is not a Wizard
    plain = table(["B1", "R1", "G1"], "Y1")
    with pytest.raises(TrumpError) as info3:
        apply(plain, ChooseTrump(0, Suit.HUMANS))
    assert info3.value.rule == "R3.3"


def test_R3_4_last_round_has_no_turned_card_and_no_trump() -> None:
    final = play_random(4, seed=8)
    last = final.history[-1]
    assert last.round == 15 and last.turned is None and last.trump is None
    assert all(r.turned is not None for r in final.history[:-1])


def test_R3_4_a_turned_card_in_the_last_round_is_refused() -> None:
    state = new_game(NAMES[:6], first_dealer=0)._replace(round=9, dealer=5)
    codes = [f"{s}{r}" for s in "BRGY" for r in range(1, 14)] + ["Z"] * 4 + ["N"] * 4
    hands = tuple(tuple(Card.parse(c) for c in codes[i * 10 : (i + 1) * 10]) for i in range(6))
    with pytest.raises(InvalidDealError) as info:
        apply(state, Deal(hands, Card.parse("B1")))
    assert info.value.rule == "R3.4"
    state = apply(state, Deal(hands, None))
    assert state.round == 10 and state.trump is None and state.phase is Phase.BID


# --- R4 -------------------------------------------------------------------------------------


def test_R4_1_bids_are_whole_numbers_from_0_to_r() -> None:
    state = table(["B1 B2 B3", "R1 R2 R3", "G1 G2 G3"], "Y1")
    assert legal_actions(state) == tuple(Bid(1, b) for b in range(4))
    for bad in (-1, 4, 10):
        with pytest.raises(BidOutOfRangeError) as info:
            apply(state, Bid(1, bad))
        assert info.value.rule == "R4.1"
        assert "0 to 3" in info.value.message and "round 3" in info.value.message
    with pytest.raises(BidOutOfRangeError):
        apply(state, Bid(1, 1.5))  # type: ignore[arg-type]
    assert apply(state, Bid(1, 3)).bids == (None, 3, None)
    assert apply(state, Bid(1, 0)).bids == (None, 0, None)


@pytest.mark.parametrize("dealer", [0, 1, 3])
def test_R4_2_bids_go_clockwise_from_left_of_dealer_dealer_last(dealer: int) -> None:
    state = table(["B1", "R1", "G1", "Y1"], "B2", dealer=dealer)
    order = []
    while state.phase is Phase.BID:
        assert state.turn is not None
        order.append(state.turn)
        # any other seat is refused
        other = (state.turn + 1) % 4
        if state.bids[other] is None:
            with pytest.raises(NotYourTurnError) as info:
                apply(state, Bid(other, 0))
            assert info.value.rule == "R4.2"
        state = apply(state, Bid(state.turn, 0))
    assert order == [(dealer + 1 + i) % 4 for i in range(4)]
    assert order[-1] == dealer


def test_R4_2_open_bids_are_visible_to_everyone_at_once() -> None:
    state = table(["B1 B2", "R1 R2", "G1 G2"], "Y1", dealer=0)
    state = apply(state, Bid(1, 2))
    for seat in range(3):
        assert view(state, seat).bids == (None, 2, None)
    state = apply(state, Bid(2, 0))
    for seat in range(3):
        assert view(state, seat).bids == (None, 2, 0)


def test_R4_3_bidding_waits_for_the_trump_choice() -> None:
    state = table(["B1", "R1", "G1"], "Z", dealer=0)
    with pytest.raises(WrongPhaseError) as info:
        apply(state, Bid(1, 0))
    assert info.value.rule == "R4.3"
    assert "trump" in info.value.message
    state = apply(state, ChooseTrump(0, Suit.DWARVES))
    state = apply(state, Bid(1, 0))
    assert state.bids == (None, 0, None)


def test_R4_3_no_card_is_played_before_the_bids() -> None:
    state = table(["B1", "R1", "G1"], "Y3")
    with pytest.raises(WrongPhaseError) as info:
        apply(state, Play(1, Card.parse("R1")))
    assert info.value.rule in {"R4.3", "R4.2"}
    assert "bidding" in info.value.message
