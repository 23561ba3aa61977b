"""Golden games: fixed seeds, random legal play, and their results written down.

Any change to dealing (R2.3), to the order of legal actions, or to the rules shows up here.
If a change is intended, recompute the numbers and explain the change in the commit.
"""

from __future__ import annotations

import pytest

from tests.engine.helpers import play_random
from wizard.cards import parse_cards
from wizard.options import Bidding, Options
from wizard.record import dumps, load, replay
from wizard.rules import new_game, seeded_deal, winners
from wizard.state import Phase

GOLDEN = [
    pytest.param(3, Options(), 2024, 2, (-620, -390, -530), (1,), id="R2_2-3-players"),
    pytest.param(4, Options(), 7, 1, (-390, -480, -140, -370), (2,), id="R2_2-4-players"),
    pytest.param(5, Options(), 11, 4, (-280, -180, -260, -170, -320), (3,), id="R2_2-5-players"),
    pytest.param(6, Options(), 42, 2, (-190, -250, -190, -160, -130, -60), (5,),
                 id="R2_2-6-players"),
    pytest.param(4, Options(uneven_bids=True, magic_twos=True), 5, 2, (-430, -320, -180, -500),
                 (2,), id="R7_1+R7_6-4-players"),
    pytest.param(3, Options(single_suit=True, bidding=Bidding.HIDDEN), 8, 2, (-230, -50, -420),
                 (1,), id="R7_7+R7_2-3-players"),
    pytest.param(5, Options(canadian=True, clairvoyance=True), 13, 0,
                 (-240, -230, -340, -230, -240), (1, 3), id="R7_5+R7_4-5-players-R6_3-tie"),
    pytest.param(6, Options(bidding=Bidding.SECRET, magic_twos=True), 21, 2,
                 (-240, -250, -270, -170, -100, -70), (5,), id="R7_3+R7_6-6-players"),
]  # fmt: skip


@pytest.mark.parametrize(("players", "options", "seed", "dealer", "scores", "won"), GOLDEN)
def test_golden_game(
    *,
    players: int,
    options: Options,
    seed: int,
    dealer: int,
    scores: tuple[int, ...],
    won: tuple[int, ...],
) -> None:
    final = play_random(players, options, seed=seed)
    assert final.phase is Phase.GAME_OVER
    assert final.first_dealer == dealer
    assert final.scores == scores
    assert winners(final) == won
    # the record of the game replays to the same result
    again = replay(load(dumps(final)))
    assert again.scores == scores and winners(again) == won


def test_R2_3_golden_first_deal() -> None:
    assert new_game(["A", "B", "C"], seed=2024).first_dealer == 2
    round1 = seeded_deal(2024, 1, 3)
    assert round1.hands == (parse_cards("R2"), parse_cards("R4"), parse_cards("G12"))
    assert round1.turned == parse_cards("Z")[0]
    round3 = seeded_deal(2024, 3, 3)
    assert round3.hands == (
        parse_cards("B6 R9 Y9"),
        parse_cards("R12 G7 Z"),
        parse_cards("R4 R11 Z"),
    )
    assert round3.turned == parse_cards("Z")[0]


def test_R7_7_golden_first_single_suit_deal() -> None:
    deal = seeded_deal(8, 1, 3, True)
    assert deal.hands == (
        parse_cards("B6 B10 B13 N"),
        parse_cards("R1 R5 R8 R9"),
        parse_cards("G6 G8 G12 Z"),
    )
    assert deal.turned is None
