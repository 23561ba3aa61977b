"""R2 (players, rounds, dealing) and R7.8 (refused option combinations)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from tests.engine.helpers import NAMES, options_valid, play_random, table
from wizard.cards import STANDARD_DECK, Card
from wizard.errors import InvalidDealError, OptionsError, WrongPhaseError
from wizard.options import Bidding, Options, check_setup, rounds_in_game, tricks_in_round
from wizard.rules import (
    apply,
    bidding_order,
    legal_actions,
    new_game,
    next_deal,
    seeded_deal,
)
from wizard.state import Deal, Phase
from wizard.view import view

# --- R2.1 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 2, 7, 8])
def test_R2_1_player_counts_outside_3_to_6_are_refused(players: int) -> None:
    names = [f"P{i}" for i in range(players)]
    with pytest.raises(OptionsError) as info:
        check_setup(Options(), players)
    assert info.value.rule == "R2.1"
    assert "3 to 6" in info.value.message and str(players) in info.value.message
    with pytest.raises(OptionsError) as info2:
        new_game(names, seed=1)
    assert info2.value.rule == "R2.1"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_R2_1_three_to_six_players_may_play(players: int) -> None:
    check_setup(Options(), players)
    state = new_game(NAMES[:players], seed=3)
    assert state.num_players == players
    assert state.phase is Phase.ROUND_OVER and state.round == 0


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("dealer", [0, 2])
def test_R2_1_left_of_a_seat_is_the_next_seat_clockwise(players: int, dealer: int) -> None:
    hands = [f"B{i + 1}" for i in range(players)]
    state = table(hands, "R1", dealer=dealer)
    order = bidding_order(state)
    assert order == tuple((dealer + 1 + i) % players for i in range(players))
    assert state.turn == (dealer + 1) % players  # the seat left of the dealer starts
    last = table(hands, "R1", dealer=players - 1)
    assert last.turn == 0  # left of the last seat is seat 0 again


# --- R2.2 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_R2_2_game_has_60_over_n_rounds(players: int, rounds: int) -> None:
    assert rounds_in_game(Options(), players) == rounds
    assert [tricks_in_round(Options(), r) for r in (1, 2, rounds)] == [1, 2, rounds]
    final = play_random(players, seed=players)
    assert final.phase is Phase.GAME_OVER
    assert [r.round for r in final.history] == list(range(1, rounds + 1))
    for result in final.history:
        assert all(len(hand) == result.round for hand in result.dealt)
        assert sum(result.tricks) == result.round  # r tricks in round r
        assert len(result.plays) == players * result.round


def test_R2_2_round_r_deals_r_cards_to_every_player() -> None:
    state = new_game(NAMES[:4], seed=11)
    for r in range(1, 16):
        deal = seeded_deal(11, r, 4)
        assert [len(h) for h in deal.hands] == [r] * 4
    state = apply(state, next_deal(state))
    assert state.round == 1 and [len(h) for h in state.hands] == [1, 1, 1, 1]


def test_R2_2_a_deal_of_the_wrong_size_is_refused() -> None:
    state = new_game(NAMES[:3], first_dealer=0)
    bad = Deal(
        ((Card.parse("B1"), Card.parse("B2")), (Card.parse("B3"),), (Card.parse("B4"),)),
        Card.parse("B5"),
    )
    with pytest.raises(InvalidDealError) as info:
        apply(state, bad)
    assert info.value.rule == "R2.2"
    assert "round 1 hold 1" in info.value.message


def test_R2_2_no_round_after_the_last() -> None:
    final = play_random(6, seed=5)
    assert final.phase is Phase.GAME_OVER and final.round == 10
    assert legal_actions(final) == ()
    with pytest.raises(WrongPhaseError) as info:
        apply(final, seeded_deal(5, 11, 6))
    assert info.value.rule == "R2.2"
    assert "over" in info.value.message


# --- R2.3 -----------------------------------------------------------------------------------


def test_R2_3_first_dealer_is_random_but_fixed_by_the_seed() -> None:
    dealers = {new_game(NAMES[:4], seed=s).first_dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}  # every seat can be chosen
    for s in range(10):
        assert new_game(NAMES[:4], seed=s).first_dealer == new_game(NAMES[:4], seed=s).first_dealer
    assert new_game(NAMES[:4], seed=1, first_dealer=2).first_dealer == 2


def test_R2_3_deal_passes_to_the_left_every_round() -> None:
    final = play_random(5, seed=21)
    first = final.first_dealer
    assert [r.dealer for r in final.history] == [(first + i) % 5 for i in range(12)]


def test_R2_3_same_seed_and_actions_give_the_same_game() -> None:
    a = play_random(4, seed=99, rng_seed=7)
    b = play_random(4, seed=99, rng_seed=7)
    assert a == b
    assert a.history == b.history
    other = play_random(4, seed=100, rng_seed=7)
    assert other.history[0].dealt != a.history[0].dealt or other.first_dealer != a.first_dealer


def test_R2_3_seeded_game_accepts_only_its_own_deal() -> None:
    state = new_game(NAMES[:3], seed=4)
    assert legal_actions(state) == (seeded_deal(4, 1, 3),)
    other = seeded_deal(5, 1, 3)
    assert other != seeded_deal(4, 1, 3)
    with pytest.raises(InvalidDealError) as info:
        apply(state, other)
    assert info.value.rule == "R2.3"


def test_R2_3_the_whole_deck_is_shuffled_before_every_round() -> None:
    # Round after round, what is dealt and turned comes from a full, fresh deck: over many
    # rounds every card of the deck shows up as the turned card, also in late rounds.
    turned_late = Counter(seeded_deal(s, 19, 3).turned for s in range(1000))
    assert {c.code for c in turned_late if c is not None} == {c.code for c in STANDARD_DECK}


def test_R2_3_the_last_round_deals_the_whole_deck() -> None:
    deal = seeded_deal(3, 20, 3)
    assert Counter(c for h in deal.hands for c in h) == Counter(STANDARD_DECK)
    assert deal.turned is None


# --- R2.4 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_R2_4_undealt_cards_stay_face_down(players: int) -> None:
    rng = random.Random(players)
    state = new_game(NAMES[:players], seed=2)
    while state.round < 3 or state.phase is not Phase.BID:
        state = apply(state, rng.choice(legal_actions(state)))
    dealt = Counter(c for h in state.hands for c in h)
    assert state.turned is not None
    pile = Counter(STANDARD_DECK) - dealt - Counter([state.turned])
    assert sum(pile.values()) == 60 - 3 * players - 1
    for seat in range(players):
        seen = view(state, seat)
        shown = Counter(c for h in seen.hands if h is not None for c in h)
        assert shown == Counter(state.hands[seat])  # nothing of the pile, nothing of others
        assert "pile" not in type(seen).__dataclass_fields__


# --- R7.8 -----------------------------------------------------------------------------------


REFUSED = [
    pytest.param(
        Options(uneven_bids=True, bidding=Bidding.HIDDEN), 4, "uneven", id="R7_8-R7_1+R7_2"
    ),
    pytest.param(
        Options(uneven_bids=True, bidding=Bidding.SECRET), 4, "uneven", id="R7_8-R7_1+R7_3"
    ),
    pytest.param(
        Options(canadian=True, bidding=Bidding.HIDDEN), 4, "Canadian", id="R7_8-R7_5+R7_2"
    ),
    pytest.param(
        Options(canadian=True, bidding=Bidding.SECRET), 4, "Canadian", id="R7_8-R7_5+R7_3"
    ),
    pytest.param(Options(magic_twos=True, single_suit=True), 4, "magic twos", id="R7_8-R7_6+R7_7"),
    pytest.param(
        Options(clairvoyance=True, single_suit=True), 3, "clairvoyance", id="R7_8-R7_4+R7_7"
    ),
    pytest.param(Options(single_suit=True), 5, "5", id="R7_8-R7_7-5-players"),
    pytest.param(Options(single_suit=True), 6, "6", id="R7_8-R7_7-6-players"),
]


@pytest.mark.parametrize(("options", "players", "words"), REFUSED)
def test_R7_8_impossible_combinations_are_refused(
    options: Options, players: int, words: str
) -> None:
    with pytest.raises(OptionsError) as info:
        check_setup(options, players)
    assert info.value.rule == "R7.8"
    assert words in info.value.message
    assert len(info.value.message) > 30  # says why, not just "invalid"
    with pytest.raises(OptionsError) as info2:
        new_game(NAMES[:players], options, seed=1)
    assert info2.value.rule == "R7.8"


def every_options() -> list[Options]:
    """Every combination of the variants (R7.1–R7.7), playable or not."""
    return [
        Options(
            uneven_bids=flags[0],
            canadian=flags[1],
            clairvoyance=flags[2],
            magic_twos=flags[3],
            single_suit=flags[4],
            bidding=bidding,
        )
        for flags in itertools.product([False, True], repeat=5)
        for bidding in Bidding
    ]


def test_R7_8_exactly_the_listed_combinations_are_refused() -> None:
    for options in every_options():
        for players in range(2, 8):
            expected = options_valid(options, players)
            try:
                check_setup(options, players)
                accepted = True
            except OptionsError:
                accepted = False
            assert accepted == expected, (options, players)


def test_R7_8_single_suit_with_three_or_four_players_is_fine() -> None:
    for players in (3, 4):
        state = new_game(NAMES[:players], Options(single_suit=True, uneven_bids=True), seed=1)
        assert state.num_players == players


def test_R7_the_variants_on_are_named_in_the_order_describe_names_them() -> None:
    names = {
        "uneven_bids": "uneven bids",
        "hidden": "hidden bids",
        "secret": "secret bids",
        "clairvoyance": "clairvoyance",
        "canadian": "Canadian rule",
        "magic_twos": "magic twos",
        "single_suit": "single suit",
    }
    assert Options().variants_on() == {}
    for options in every_options():
        on = options.variants_on()
        assert [names[key] for key in on.values()] == options.describe(), options
        assert all(getattr(options, field) != getattr(Options(), field) for field in on)
