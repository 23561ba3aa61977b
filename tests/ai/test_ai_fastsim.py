"""The fast round model agrees with the engine (R5.2–R5.6, R7.6, R7.7)."""

from __future__ import annotations

import random

import pytest

from tests.ai.helpers import random_views
from wizard.ai import odds
from wizard.ai.core import RoundSim
from wizard.ai.knowledge import public_sim
from wizard.cards import STANDARD_DECK, SUITS, Card, single_suit_deck
from wizard.options import Options
from wizard.rules import (
    apply,
    deal_next_round,
    legal_actions,
    new_game,
    rounds_in_game,
    trick_winner,
)
from wizard.state import Phase, Play


def _random_trick(rng: random.Random, n: int, single: bool) -> list[Card]:
    if single:
        return [rng.choice(single_suit_deck(SUITS[i])) for i in range(n)]
    cards = rng.sample(STANDARD_DECK, n)
    lead = next((c for c in cards if c.suit is not None), None)
    if lead is not None and rng.random() < 0.4:
        # Put the 2 of the led suit into the trick often, to exercise Magic 2s (R7.6).
        two = Card.of(lead.suit, 2)
        if two not in cards:
            cards[rng.randrange(n)] = two
    return cards


@pytest.mark.parametrize("single", [False, True])
def test_trick_winner_agrees_with_engine_on_random_tricks(single: bool) -> None:
    rng = random.Random(2024 + single)
    for _ in range(4000):
        n = rng.randint(3, 4 if single else 6)
        cards = _random_trick(rng, n, single)
        trump = None if single else rng.choice([None, *SUITS])
        magic = not single and rng.random() < 0.5
        sim = RoundSim(
            n, -1 if trump is None else trump.position, magic=magic, single=single,
            hands=[[] for _ in range(n)], leader=0,
        )  # fmt: skip
        for c in cards:
            sim.record(int(c))
        expected = trick_winner(cards, trump, magic_twos=magic, single_suit=single)
        assert sim.leader == expected, (cards, trump, magic)
        assert sim.tricks[expected] == 1


@pytest.mark.parametrize(
    ("n", "options"),
    [
        (3, Options()),
        (4, Options(magic_twos=True)),
        (6, Options(uneven_bids=True)),
        (3, Options(single_suit=True)),
    ],
)
def test_round_model_follows_engine_through_random_games(n: int, options: Options) -> None:
    """Legal cards, tricks and turns of the model match the engine card by card."""
    rng = random.Random(n)
    state = new_game([f"p{i}" for i in range(n)], options, seed=99 + n)
    sim: RoundSim | None = None
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            state = deal_next_round(state)
            continue
        action = rng.choice(legal_actions(state))
        if state.phase is Phase.PLAY:
            if sim is None:
                trump = -1 if state.trump is None else state.trump.position
                sim = RoundSim(
                    n, trump, magic=options.magic_twos, single=options.single_suit,
                    hands=[sorted(int(c) for c in h) for h in state.hands], leader=state.leader,
                )  # fmt: skip
            assert sim.turn == state.turn
            engine_legal = {int(a.card) for a in legal_actions(state) if isinstance(a, Play)}
            assert set(sim.legal(sim.turn)) == engine_legal
            assert isinstance(action, Play)
            sim.play(int(action.card))
            state = apply(state, action)
            if state.phase is Phase.PLAY:
                assert sim.tricks == list(state.tricks)
            else:
                assert tuple(sim.tricks) == state.history[-1].tricks
                sim = None
        else:
            state = apply(state, action)


def test_public_replay_matches_the_view() -> None:
    for options in (Options(), Options(magic_twos=True), Options(single_suit=True)):
        for state, seen in random_views(3, options, seed=5):
            if seen.phase is not Phase.PLAY:
                continue
            sim = public_sim(seen)
            assert sim.tricks == list(seen.tricks)
            assert sim.turn == seen.turn
            assert sim.hands[seen.seat] == sorted(int(c) for c in seen.hand or ())
            assert all(not h for i, h in enumerate(sim.hands) if i != seen.seat)
            assert (sim.follow, sim.leader) == (
                -1 if state.follow is None else state.follow.position,
                state.leader,
            )


def test_odds_table_covers_every_round_of_every_game() -> None:
    for single, counts in ((False, range(3, 7)), (True, (3, 4))):
        for n in counts:
            options = Options(single_suit=single)
            for rnd in range(1, rounds_in_game(options, n) + 1):
                key = (n, rnd + 3 if single else rnd, single)
                row = odds.ODDS[key]
                assert len(row) == (15 if single else 41)
                assert all(0.0 <= p <= 1.0 for p in row)
                assert len(odds.SHIFT[key]) == n


def test_bid_guess_respects_forbidden_bid() -> None:
    sim = RoundSim(3, 0, hands=[[0, 13, 26], [1, 14, 27], [2, 15, 28]], leader=0)
    free = sim.choose_bid(2)
    assert sim.choose_bid(2, forbidden=free) != free
    assert 0 <= sim.choose_bid(2, forbidden=free) <= 3
