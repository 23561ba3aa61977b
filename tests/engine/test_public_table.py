"""R8.1: the public table taken from any one seat's view is the table everyone sees."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.helpers import NAMES, options_valid, random_states
from wizard.options import Bidding, Options
from wizard.rules import new_game
from wizard.state import GameState, Phase
from wizard.view import bids_revealed, public_table, table_view, view

OPTION_SETS = [
    Options(),
    Options(bidding=Bidding.HIDDEN),
    Options(bidding=Bidding.SECRET),
    Options(clairvoyance=True, bidding=Bidding.SECRET),
    Options(magic_twos=True, uneven_bids=True, canadian=True),
    Options(single_suit=True, bidding=Bidding.HIDDEN),
]


def _check(state: GameState) -> None:
    expected = table_view(state)
    assert expected.bids_revealed == bids_revealed(state)
    for seat in range(len(state.players)):
        assert public_table(view(state, seat)) == expected, (seat, state.phase, state.round)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o.describe()) or "classic")
@pytest.mark.parametrize("players", [3, 4, 6])
def test_every_seats_projection_is_the_table_view(options: Options, players: int) -> None:
    if not options_valid(options, players):
        pytest.skip("not a valid game for that many players")
    rng = random.Random(players)
    state = new_game(NAMES[:players], options, seed=players * 13)
    for step, (now, _) in enumerate(random_states(state, rng)):
        if step % 2 == 0 or now.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            _check(now)


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(3, 6),
    bidding=st.sampled_from(list(Bidding)),
    clairvoyance=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    stop=st.integers(0, 120),
)
def test_projection_at_random_moments(
    players: int, bidding: Bidding, clairvoyance: bool, seed: int, stop: int
) -> None:
    options = Options(bidding=bidding, clairvoyance=clairvoyance)
    rng = random.Random(seed)
    *_, (last, _) = random_states(new_game(NAMES[:players], options, seed=seed), rng, stop)
    _check(last)


def test_unrevealed_bids_are_not_in_the_projection_of_the_seat_that_made_them() -> None:
    state = new_game(NAMES[:3], Options(bidding=Bidding.SECRET), seed=4)
    rng = random.Random(4)
    for now, _ in random_states(state, rng):
        if now.phase is Phase.PLAY:
            break
    own = view(now, 0)
    assert own.bids[0] is not None  # the seat sees its own secret bid...
    table = public_table(own)
    assert not table.bids_revealed
    assert table.bids == (None, None, None)  # ...the public table does not
    assert table.has_bid == (True, True, True)
