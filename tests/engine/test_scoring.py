"""R6: scoring, running totals, winners, and the worked example R6.4."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.helpers import (
    R64_PLAYERS,
    R64_ROUND_1,
    R64_ROUND_2,
    R64_TOTALS,
    bid_all,
    play,
    play_random,
    table,
)
from wizard.cards import Card, parse_cards
from wizard.record import dumps, load, replay
from wizard.rules import apply, new_game, score, winners
from wizard.scorepad import format_scorepad, scorepad_data
from wizard.state import Bid, Deal, GameState, Phase, Play


@pytest.mark.parametrize(
    ("bid", "won", "points"),
    [
        pytest.param(0, 0, 20, id="R6_1-zero-made"),
        pytest.param(1, 1, 30, id="R6_1-one-made"),
        pytest.param(3, 3, 50, id="R6_1-three-made"),
        pytest.param(20, 20, 220, id="R6_1-twenty-made"),
        pytest.param(0, 1, -10, id="R6_2-one-over"),
        pytest.param(2, 1, -10, id="R6_2-one-under"),
        pytest.param(5, 0, -50, id="R6_2-five-under"),
        pytest.param(0, 4, -40, id="R6_2-four-over"),
        pytest.param(1, 10, -90, id="R6_2-nine-over"),
    ],
)
def test_R6_1_R6_2_score(bid: int, won: int, points: int) -> None:
    assert score(bid, won) == points


def test_R6_1_made_bid_scores_20_plus_10_per_trick_in_play() -> None:
    # Bo bids 1 and wins the only trick with a Wizard; Ann and Cy bid 0 and win none.
    state = play(bid_all(table(["B1", "Z", "R1"], "G2"), [0, 1, 0]), "Z", "R1", "B1")
    assert state.history[-1].points == (20, 30, 20)
    assert state.scores == (20, 30, 20)


def test_R6_2_missed_bid_loses_10_per_trick_off_in_play() -> None:
    state = play(bid_all(table(["B1", "Z", "R1"], "G2"), [1, 0, 1]), "Z", "R1", "B1")
    assert state.history[-1].points == (-10, -10, -10)
    assert state.scores == (-10, -10, -10)


def test_R6_3_scores_are_cumulative() -> None:
    final = play_random(3, seed=31)
    running = [0, 0, 0]
    for result in final.history:
        for seat in range(3):
            assert result.points[seat] == score(result.bids[seat], result.tricks[seat])
            running[seat] += result.points[seat]
        assert list(result.totals) == running
    assert list(final.scores) == running


def game_over_with(scores: tuple[int, ...]) -> GameState:
    """A finished game's state with these totals (the state after the last round)."""
    final = play_random(len(scores), seed=1)
    assert final.phase is Phase.GAME_OVER
    return final._replace(scores=scores)


@pytest.mark.parametrize(
    ("scores", "won"),
    [
        pytest.param((10, 50, 30), (1,), id="R6_3-highest-total-wins"),
        pytest.param((50, -20, 50), (0, 2), id="R6_3-tie-shares-the-win"),
        pytest.param((-10, -10, -10, -10), (0, 1, 2, 3), id="R6_3-all-tied-all-win"),
        pytest.param((-30, -40, -20, -90, -20), (2, 4), id="R6_3-negative-totals"),
    ],
)
def test_R6_3_winners(scores: tuple[int, ...], won: tuple[int, ...]) -> None:
    state = game_over_with(scores)
    assert winners(state) == won
    assert scorepad_data(state)["winners"] == list(won)
    text = format_scorepad(state)
    last = text.splitlines()[-1]
    for seat in won:
        assert state.players[seat] in last
    if len(won) > 1:
        assert "Winners" in last


def test_R6_3_no_winner_before_the_last_round_is_scored() -> None:
    state = play_random(4, seed=2, stop=40)
    assert state.phase is not Phase.GAME_OVER
    assert winners(state) is None


# --- R6.4 -----------------------------------------------------------------------------------


def check_r64(state: GameState) -> None:
    assert state.players == tuple(R64_PLAYERS)
    assert [r.totals for r in state.history] == R64_TOTALS
    assert [r.bids for r in state.history] == [(0, 1, 1), (2, 0, 0)]
    assert [r.tricks for r in state.history] == [(0, 0, 1), (1, 0, 1)]
    assert [r.points for r in state.history] == [(20, -10, 30), (-10, 20, -10)]
    assert state.scores == (10, 10, 20)
    assert [r.dealer for r in state.history] == [0, 1]  # Mattia, then Giulia
    assert state.phase is Phase.ROUND_OVER and winners(state) is None


def test_R6_4_worked_example_replayed_from_a_record(r64: dict[str, Any]) -> None:
    state = replay(load(json.dumps(r64)))
    check_r64(state)
    # round 1 alone is the example of §9: scores 20, −10, 30
    assert replay(load(json.dumps({**r64, "rounds": [R64_ROUND_1]}))).scores == (20, -10, 30)


def test_R6_4_worked_example_played_with_apply() -> None:
    state = new_game(R64_PLAYERS, first_dealer=0)
    for number, rnd in enumerate((R64_ROUND_1, R64_ROUND_2), start=1):
        hands = tuple(tuple(Card.parse(c) for c in h) for h in rnd["hands"])
        state = apply(state, Deal(hands, Card.parse(rnd["turned"])))
        assert state.round == number and state.trump is not None
        assert state.trump.value == rnd["trump"]
        dealer = state.dealer
        for i in range(3):
            seat = (dealer + 1 + i) % 3
            state = apply(state, Bid(seat, rnd["bids"][seat]))
        for card in parse_cards(" ".join(rnd["plays"])):
            assert state.turn is not None
            state = apply(state, Play(state.turn, card))
    check_r64(state)
    # and the engine exports exactly the record it was built from
    again = replay(load(dumps(state)))
    assert again == state


def test_R6_4_worked_example_scorepad(r64: dict[str, Any]) -> None:
    state = replay(load(json.dumps(r64)))
    assert scorepad_data(state) == {
        "rounds": [
            {"bids": [0, 1, 1], "tricks": [0, 0, 1], "scores": [20, -10, 30]},
            {"bids": [2, 0, 0], "tricks": [1, 0, 1], "scores": [10, 10, 20]},
        ],
        "totals": [10, 10, 20],
        "winners": None,
    }
    text = format_scorepad(state)
    rows = text.splitlines()
    assert all(name in rows[0] for name in R64_PLAYERS)
    row1 = next(r for r in rows if r.strip().startswith("1 "))
    row2 = next(r for r in rows if r.strip().startswith("2 "))
    # Running totals (R6.3), not the round's points: no "+" that would read as those.
    assert row1.split()[1:] == ["0/0", "20", "1/0", "-10", "1/1", "30"]
    assert row2.split()[1:] == ["2/1", "10", "0/0", "10", "0/1", "20"]
    assert "not finished" in text
