"""R8: what each player may see."""

from __future__ import annotations

import random

import pytest

from tests.engine.helpers import NAMES, bid_all, cards_in, play, table
from wizard.cards import Card
from wizard.options import Bidding, Options
from wizard.rules import apply, legal_actions, new_game
from wizard.state import GameState, Phase
from wizard.view import view

PUBLIC = (
    "players",
    "phase",
    "round",
    "num_rounds",
    "round_tricks",
    "dealer",
    "turn",
    "to_act",
    "turned",
    "trump",
    "hand_sizes",
    "has_bid",
    "tricks",
    "leader",
    "trick",
    "follow",
    "played",
    "scores",
    "history",
)


def midgame() -> GameState:
    """Four players in round 3: one trick played, the second trick under way."""
    state = table(["B1 B9 Z", "R1 R9 B5", "G1 G9 N", "Y1 Y9 B7"], "R5", dealer=0)
    state = bid_all(state, [1, 0, 2, 1])
    # Bo leads B5, Cy N, Di B7, Ann B9: Ann wins and leads Z; Bo plays R1.
    return play(state, "B5", "N", "B7", "B9", "Z", "R1")


def test_R8_1_public_information_is_the_same_for_every_seat() -> None:
    state = midgame()
    views = [view(state, seat) for seat in range(4)]
    for name in PUBLIC:
        values = [getattr(v, name) for v in views]
        assert all(v == values[0] for v in values), name
    seen = views[2]
    assert seen.players == tuple(NAMES[:4])
    assert seen.dealer == 0 and seen.round == 3
    assert seen.turned == Card.parse("R5") and seen.trump is not None
    assert seen.bids == (1, 0, 2, 1)  # open bids (R4.2)
    assert seen.tricks == (1, 0, 0, 0)
    assert seen.scores == (0, 0, 0, 0)
    # cards of the current and previous trick, with who played them
    assert seen.trick == ((0, Card.parse("Z")), (1, Card.parse("R1")))
    assert seen.last_trick == (
        (1, Card.parse("B5")),
        (2, Card.parse("N")),
        (3, Card.parse("B7")),
        (0, Card.parse("B9")),
    )
    assert seen.hand_sizes == (1, 1, 2, 2)


def test_R8_1_scores_and_history_are_public_after_a_round() -> None:
    state = table(["B1", "Z", "R1"], "G2")
    state = play(bid_all(state, [0, 1, 0]), "Z", "R1", "B1")
    for seat in range(3):
        seen = view(state, seat)
        assert seen.scores == (20, 30, 20)
        assert seen.history[0].bids == (0, 1, 0)
        assert seen.history[0].tricks == (0, 1, 0)
        assert seen.history[0].totals == (20, 30, 20)
        assert not hasattr(seen.history[0], "dealt")  # the summary holds no hands


def test_R8_2_own_hand_is_private_to_its_owner() -> None:
    state = midgame()
    for seat in range(4):
        seen = view(state, seat)
        assert seen.hand == state.hands[seat]
        for other in range(4):
            if other != seat:
                assert seen.hands[other] is None


def test_R8_2_legal_actions_only_for_the_seat_itself() -> None:
    state = midgame()
    assert state.turn == 2
    assert view(state, 2).legal == legal_actions(state)
    for seat in (0, 1, 3):
        assert view(state, seat).legal == ()
        assert not view(state, seat).my_turn
    assert view(state, 2).my_turn


@pytest.mark.parametrize("bidding", [Bidding.HIDDEN, Bidding.SECRET])
def test_R8_2_own_hidden_or_secret_bid_is_private(bidding: Bidding) -> None:
    state = table(["B1 B2", "R1 R2", "G1 G2"], "Y1", options=Options(bidding=bidding))
    state = apply(state, legal_actions(state, 1)[2])  # Bo bids 2
    assert view(state, 1).bids == (None, 2, None)
    assert view(state, 0).bids == (None, None, None)
    assert view(state, 2).bids == (None, None, None)
    assert view(state, 0).has_bid == (False, True, False)


def test_R8_3_other_hands_and_the_pile_are_never_shown() -> None:
    rng = random.Random(3)
    state = new_game(NAMES[:5], seed=17)
    while state.phase is not Phase.GAME_OVER and state.round < 4:
        for seat in range(5):
            seen = view(state, seat)
            assert [i for i, h in enumerate(seen.hands) if h is not None] == [seat]
            shown = cards_in(seen, skip_own=True)
            for other in range(5):
                if other != seat:
                    # a suited card in another hand appears nowhere in this view
                    hidden = {c for c in state.hands[other] if c.suit is not None}
                    assert not hidden & shown
        state = apply(state, rng.choice(legal_actions(state)))


def test_R8_3_pile_stays_hidden_even_in_the_history() -> None:
    state = table(["B1", "Z", "R1"], "G2")
    state = play(bid_all(state, [0, 1, 0]), "Z", "R1", "B1")
    deck_seen = set().union(*(cards_in(view(state, s)) for s in range(3)))
    assert deck_seen == {Card.parse(c) for c in ("B1", "Z", "R1", "G2")}
