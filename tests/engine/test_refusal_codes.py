"""Refusals as codes: every refusal of the engine carries its rule id, a stable code and JSON
parameters, and its English sentence is derived from ``wizard.errors.MESSAGES``.

Each case below names the rule it checks; the meta tests then hold the registry and the raise
sites together: every code raised is registered, every registered code is raised by a case,
and every template formats with the parameters its raise site gives.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Callable
from typing import Any

import pytest

from tests.engine.helpers import NAMES, bid_all, play_random, table
from tests.engine.test_variants import canadian_table
from wizard.cards import CARDS, STANDARD_DECK, Card, Suit
from wizard.errors import (
    MESSAGES,
    AlreadyBidError,
    BidOutOfRangeError,
    CardNotHeldError,
    ForbiddenBidError,
    InvalidDealError,
    MustFollowSuitError,
    NotYourTurnError,
    OptionsError,
    RuleError,
    TrumpError,
    WrongPhaseError,
    english,
)
from wizard.options import Bidding, Options, check_setup, conflicts
from wizard.rules import (
    apply,
    check_deal,
    forbidden_bid,
    forbidden_bid_public,
    legal_actions,
    new_game,
)
from wizard.state import Bid, ChooseTrump, Deal, GameState, Phase, Play
from wizard.view import table_view

UNEVEN = Options(uneven_bids=True)
SINGLE = Options(single_suit=True)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def after_bids() -> GameState:
    """Round 2 of three players, Ann deals, Bo leads after bids 0, 0, 1."""
    state = table(["B7 R3", "B2 G5", "Y1 Y2"], "N", dealer=0)
    return bid_all(state, [1, 0, 0])


def deal_round_1(state: GameState, hands: list[str], turned: str | None) -> GameState:
    return apply(
        state, Deal(tuple(cards(h) for h in hands), Card.parse(turned) if turned else None)
    )


def game_over() -> GameState:
    return play_random(6, seed=5)


def _must_follow() -> None:
    """Ann leads B7; Bo holds no blue; Cy holds B2 and plays G5 (R5.3)."""
    state = apply(apply(apply(table(["B7 R3", "Y1 Y2", "B2 G5"], "N", dealer=2), Bid(0, 0)),
                        Bid(1, 0)), Bid(2, 0))  # fmt: skip
    state = apply(state, Play(0, Card.parse("B7")))
    state = apply(state, Play(1, Card.parse("Y1")))
    apply(state, Play(2, Card.parse("G5")))


def _no_such_round() -> None:
    check_deal(Deal((cards("B1"),) * 3, None), Options(), 3, 21)


def _nothing_to_turn() -> None:
    deck = list(STANDARD_DECK)
    hands = tuple(tuple(deck[i * 20 : (i + 1) * 20]) for i in range(3))
    check_deal(Deal(hands, deck[0]), Options(), 3, 20)


CASES: list[Any] = [
    # --- setting up
    pytest.param("R2.1", OptionsError, "players_out_of_range",
                 {"players": 2, "min": 3, "max": 6},
                 lambda: check_setup(Options(), 2), id="R2_1-players_out_of_range"),
    pytest.param("R2.3", OptionsError, "needs_seed_or_dealer", {},
                 lambda: new_game(NAMES[:3]), id="R2_3-needs_seed_or_dealer"),
    pytest.param("R2.3", OptionsError, "first_dealer_out_of_range", {"max": 2},
                 lambda: new_game(NAMES[:3], first_dealer=3), id="R2_3-first_dealer_out_of_range"),
    pytest.param("R7.8", OptionsError, "uneven_bids_need_open_bidding", {"bidding": "hidden"},
                 lambda: check_setup(Options(uneven_bids=True, bidding=Bidding.HIDDEN), 4),
                 id="R7_8-uneven_bids_need_open_bidding"),
    pytest.param("R7.8", OptionsError, "canadian_needs_open_bidding", {"bidding": "secret"},
                 lambda: check_setup(Options(canadian=True, bidding=Bidding.SECRET), 4),
                 id="R7_8-canadian_needs_open_bidding"),
    pytest.param("R7.8", OptionsError, "magic_twos_need_a_suit", {},
                 lambda: check_setup(Options(single_suit=True, magic_twos=True), 3),
                 id="R7_8-magic_twos_need_a_suit"),
    pytest.param("R7.8", OptionsError, "clairvoyance_with_single_suit", {},
                 lambda: check_setup(Options(single_suit=True, clairvoyance=True), 3),
                 id="R7_8-clairvoyance_with_single_suit"),
    pytest.param("R7.8", OptionsError, "single_suit_players", {"players": 5, "max": 4},
                 lambda: check_setup(SINGLE, 5), id="R7_8-single_suit_players"),
    # --- whose turn
    pytest.param("R2.1", NotYourTurnError, "no_such_seat", {"seat": 7},
                 lambda: apply(table(["B1", "R1", "G1"]), Bid(7, 0)), id="R2_1-no_such_seat"),
    pytest.param("R5.1", NotYourTurnError, "not_your_turn",
                 {"player": "Cy", "waiting_for": "Bo", "seat": 2, "turn": 1},
                 lambda: apply(after_bids(), Play(2, Card.parse("Y1"))), id="R5_1-not_your_turn"),
    pytest.param("R4.2", NotYourTurnError, "not_your_turn_to_bid",
                 {"player": "Cy", "waiting_for": "Bo", "seat": 2, "turn": 1},
                 lambda: apply(table(["B1", "R1", "G1"]), Bid(2, 0)),
                 id="R4_2-not_your_turn_to_bid"),
    pytest.param("R3.3", NotYourTurnError, "only_dealer_chooses_trump",
                 {"player": "Bo", "dealer": "Ann", "seat": 1},
                 lambda: apply(table(["B1", "R1", "G1"], "Z"), ChooseTrump(1, Suit.HUMANS)),
                 id="R3_3-only_dealer_chooses_trump"),
    pytest.param("R7.2", AlreadyBidError, "already_bid", {"player": "Bo", "seat": 1},
                 lambda: apply(apply(table(["B1", "R1", "G1"],
                                           options=Options(bidding=Bidding.HIDDEN)),
                                     Bid(1, 0)), Bid(1, 1)), id="R7_2-already_bid"),
    # A second bid under open bidding: "already bid", not "it is Cy's turn" (QA, the demo),
    # and whose turn it is (QA variants: the refusal alone left the player guessing).
    pytest.param("R4.2", AlreadyBidError, "already_bid",
                 {"player": "Bo", "seat": 1, "waiting_for": "Cy", "turn": 2},
                 lambda: apply(apply(table(["B1", "R1", "G1"]), Bid(1, 0)), Bid(1, 1)),
                 id="R4_2-already_bid"),
    # --- the phase of the game
    pytest.param("R4.3", WrongPhaseError, "still_bidding", {"action": "play"},
                 lambda: apply(table(["B1", "R1", "G1"]), Play(1, Card.parse("R1"))),
                 id="R4_3-still_bidding"),
    pytest.param("R4.3", WrongPhaseError, "choosing_trump", {"action": "bid", "dealer": "Ann"},
                 lambda: apply(table(["B1", "R1", "G1"], "Z"), Bid(1, 0)),
                 id="R4_3-choosing_trump"),
    pytest.param("R4.2", WrongPhaseError, "cards_in_play", {"action": "bid"},
                 lambda: apply(after_bids(), Bid(1, 0)), id="R4_2-cards_in_play"),
    pytest.param("R4.2", WrongPhaseError, "round_not_dealt", {"action": "bid"},
                 lambda: apply(new_game(NAMES[:3], first_dealer=0), Bid(1, 0)),
                 id="R4_2-round_not_dealt"),
    pytest.param("R2.2", WrongPhaseError, "game_over", {"action": "deal", "rounds": 10},
                 lambda: apply(game_over(), Deal((), None)), id="R2_2-game_over"),
    pytest.param("R3.3", TrumpError, "no_trump_to_choose", {"phase": "bid"},
                 lambda: apply(table(["B1", "R1", "G1"]), ChooseTrump(0, Suit.HUMANS)),
                 id="R3_3-no_trump_to_choose"),
    pytest.param("R3.3", TrumpError, "not_a_suit", {"suit": "'Q'"},
                 lambda: apply(table(["B1", "R1", "G1"], "Z"), ChooseTrump(0, "Q")),  # type: ignore[arg-type]
                 id="R3_3-not_a_suit"),
    # --- bids
    pytest.param("R4.1", BidOutOfRangeError, "bid_out_of_range",
                 {"bid": 2, "round": 1, "max": 1},
                 lambda: apply(table(["B1", "R1", "G1"]), Bid(1, 2)), id="R4_1-bid_out_of_range"),
    pytest.param("R7.1", ForbiddenBidError, "bid_forbidden",
                 {"bid": 1, "tricks": 1, "kind": "uneven_bids"},
                 lambda: apply(apply(apply(table(["B1", "R1", "G1"], options=UNEVEN), Bid(1, 0)),
                                     Bid(2, 0)), Bid(0, 1)), id="R7_1-bid_forbidden"),
    pytest.param("R7.5", ForbiddenBidError, "bid_forbidden_canadian",
                 {"bid": 5, "tricks": 10, "kind": "canadian"},
                 lambda: apply(canadian_table(10, (120, 80, 60, 110, 0, -30)), Bid(0, 5)),
                 id="R7_5-bid_forbidden_canadian"),
    # --- cards
    pytest.param("R2.2", CardNotHeldError, "card_not_held",
                 {"player": "Bo", "seat": 1, "card": "Y1"},
                 lambda: apply(after_bids(), Play(1, Card.parse("Y1"))), id="R2_2-card_not_held"),
    pytest.param("R5.3", MustFollowSuitError, "must_follow_suit",
                 {"player": "Cy", "seat": 2, "suit": "B", "card": "B2"}, _must_follow,
                 id="R5_3-must_follow_suit"),
    pytest.param("R2.2", InvalidDealError, "no_such_round",
                 {"players": 3, "rounds": 20, "round": 21}, _no_such_round,
                 id="R2_2-no_such_round"),
    pytest.param("R3.4", InvalidDealError, "nothing_to_turn", {}, _nothing_to_turn,
                 id="R3_4-nothing_to_turn"),
    # --- deals
    pytest.param("R2.3", InvalidDealError, "not_the_seeded_deal", {"round": 1},
                 lambda: apply(new_game(NAMES[:3], seed=1), Deal((cards("B1"),) * 3, None)),
                 id="R2_3-not_the_seeded_deal"),
    pytest.param("R2.2", InvalidDealError, "hands_for_players", {"hands": 2, "players": 3},
                 lambda: deal_round_1(new_game(NAMES[:3], first_dealer=0), ["B1", "R1"], "N"),
                 id="R2_2-hands_for_players"),
    pytest.param("R2.2", InvalidDealError, "hand_size",
                 {"seat": 0, "count": 2, "round": 1, "deals": 1},
                 lambda: deal_round_1(new_game(NAMES[:3], first_dealer=0),
                                      ["B1 B2", "R1", "G1"], "N"), id="R2_2-hand_size"),
    pytest.param("R1.4", InvalidDealError, "not_a_card", {"card": "'X'"},
                 lambda: apply(new_game(NAMES[:3], first_dealer=0),
                               Deal((("X",), cards("R1"), cards("G1")), None)),  # type: ignore[arg-type]
                 id="R1_4-not_a_card"),
    pytest.param("R7.7", InvalidDealError, "turned_in_single_suit", {},
                 lambda: deal_round_1(new_game(NAMES[:3], SINGLE, first_dealer=0),
                                      ["B1 B2 B3 B4", "R1 R2 R3 R4", "G1 G2 G3 G4"], "Y1"),
                 id="R7_7-turned_in_single_suit"),
    pytest.param("R7.7", InvalidDealError, "wrong_single_suit_deck",
                 {"seat": 0, "suit": "B", "copies": 0, "card": "R1"},
                 lambda: deal_round_1(new_game(NAMES[:3], SINGLE, first_dealer=0),
                                      ["R1 B2 B3 B4", "R5 R2 R3 R4", "G1 G2 G3 G4"], None),
                 id="R7_7-wrong_single_suit_deck"),
    pytest.param("R3.1", InvalidDealError, "card_must_be_turned", {"round": 1},
                 lambda: deal_round_1(new_game(NAMES[:3], first_dealer=0),
                                      ["B1", "R1", "G1"], None), id="R3_1-card_must_be_turned"),
    pytest.param("R1.1", InvalidDealError, "card_dealt_too_often",
                 {"card": "B1", "count": 2, "copies": 1},
                 lambda: deal_round_1(new_game(NAMES[:3], first_dealer=0),
                                      ["B1", "B1", "G1"], "N"), id="R1_1-card_dealt_too_often"),
]  # fmt: skip


def raised(call: Callable[[], object]) -> RuleError:
    with pytest.raises(RuleError) as info:
        call()
    return info.value


@pytest.mark.parametrize(("rule", "kind", "code", "params", "call"), CASES)
def test_each_refusal_carries_its_rule_code_and_params(
    rule: str, kind: type[RuleError], code: str, params: dict[str, Any], call: Callable[[], object]
) -> None:
    error = raised(call)
    assert type(error) is kind
    assert (error.rule, error.code) == (rule, code)
    assert error.params == params
    assert error.message == MESSAGES[code].format(**params)
    assert str(error) == f"{rule}: {error.message}"
    # JSON values only, so that a service can store and send them as they are.
    assert json.loads(json.dumps(error.params)) == error.params


def test_every_registered_code_is_raised_by_a_case() -> None:
    assert {p.values[2] for p in CASES} == set(MESSAGES)


def test_every_template_formats_with_the_params_of_its_raise_sites() -> None:
    """Each placeholder of a template is a param its raise site gives (the cases hold every
    site's params), and no template has a positional or unnamed placeholder."""
    given: dict[str, set[str]] = {}
    for p in CASES:
        given.setdefault(p.values[2], set()).update(p.values[3])
    for code, template in MESSAGES.items():
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
        assert all(n.isidentifier() for n in names), (code, names)
        assert names <= given[code], (code, names - given[code])


def test_refusals_in_random_games_are_registered_and_english_is_derived() -> None:
    """Illegal actions tried at random in random games (every option set) refuse with a
    registered code whose English is the template filled with the params."""
    rng = random.Random(3)
    option_sets = [Options(), UNEVEN, Options(canadian=True), SINGLE,
                   Options(bidding=Bidding.HIDDEN)]  # fmt: skip
    seen: set[str] = set()
    for index, options in enumerate(option_sets):
        state = new_game(NAMES[:3], options, seed=index)
        while state.phase is not Phase.GAME_OVER:
            legal = legal_actions(state)
            tries = [Play(s, c) for s in range(4) for c in rng.sample(CARDS, 3)]
            tries += [Bid(s, b) for s in range(4) for b in (-1, 0, 1, 30)]
            tries += [ChooseTrump(s, Suit.ELVES) for s in range(3)]
            for action in tries:
                if action in legal:
                    continue
                try:
                    apply(state, action)
                except RuleError as error:
                    assert error.code in MESSAGES, error
                    assert error.message == english(error.code, error.params)
                    seen.add(error.code)
            state = apply(state, rng.choice(legal))
    assert {"not_your_turn", "card_not_held", "must_follow_suit", "bid_out_of_range"} <= seen


def test_a_message_of_its_own_keeps_the_class_code() -> None:
    """A refusal built with a ready English sentence (not a code) keeps working: the class's
    default code, no params."""
    error = NotYourTurnError("R5.1", "it is Bo's turn to play, not Cy's")
    assert (error.code, error.params, error.message) == (
        "not_your_turn",
        {},
        "it is Bo's turn to play, not Cy's",
    )
    assert OptionsError("R7.8", "nope").code == "invalid_options"
    assert english("no_such_code", {}) == "no_such_code"
    assert (
        english("not_your_turn", {"player": "Cy"}) == "it is {waiting_for}'s turn to play, not Cy's"
    )


# --- R7.8 as data, for front ends that offer the options ---------------------------------------


def test_R7_8_conflicts_lists_every_impossible_pair_with_its_code() -> None:
    assert conflicts(Options()) == []
    assert conflicts(Options(uneven_bids=True, canadian=True, magic_twos=True)) == []
    found = conflicts(
        Options(uneven_bids=True, canadian=True, bidding=Bidding.HIDDEN, single_suit=True,
                magic_twos=True, clairvoyance=True)
    )  # fmt: skip
    assert [(e.rule, e.code) for e in found] == [
        ("R7.8", "uneven_bids_need_open_bidding"),
        ("R7.8", "canadian_needs_open_bidding"),
        ("R7.8", "magic_twos_need_a_suit"),
        ("R7.8", "clairvoyance_with_single_suit"),
    ]
    assert found[0].params == {"bidding": "hidden"}


# --- R7.1, R7.5: the forbidden bid from the public table -----------------------------------------


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, UNEVEN), (4, UNEVEN), (6, UNEVEN), (3, Options(canadian=True)),
     (6, Options(canadian=True)), (4, Options(canadian=True, uneven_bids=True)),
     (4, Options()), (4, Options(bidding=Bidding.HIDDEN))],
)  # fmt: skip
def test_R7_1_R7_5_the_public_forbidden_bid_is_the_engines(players: int, options: Options) -> None:
    """Over whole games, at every bid: the forbidden bid the public table gives equals the one
    the engine enforces on the seat to bid (and is refused with its code)."""
    forbidden_seen = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(NAMES[:players], options, seed=seed)
        while state.phase is not Phase.GAME_OVER:
            if state.phase is Phase.BID and state.turn is not None:
                public = forbidden_bid_public(table_view(state))
                assert public == forbidden_bid(state, state.turn)
                if public is not None and public[0] <= state.round:
                    forbidden_seen += 1
                    with pytest.raises(ForbiddenBidError) as info:
                        apply(state, Bid(state.turn, public[0]))
                    assert info.value.params["bid"] == public[0]
            elif state.phase is Phase.BID:
                assert forbidden_bid_public(table_view(state)) is None
            state = apply(state, rng.choice(legal_actions(state)))
    if options.uneven_bids:
        assert forbidden_seen > 0
