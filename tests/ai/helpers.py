"""Shared helpers for the computer-player tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from wizard.ai import ComputerPlayer, HeuristicPlayer
from wizard.options import Options
from wizard.rules import apply, deal_next_round, legal_actions, new_game, to_act
from wizard.state import Action, GameState, Phase
from wizard.view import PlayerView, view


class Checked:
    """Wraps a player: every choice must be one of the view's legal actions."""

    def __init__(self, inner: ComputerPlayer) -> None:
        self.inner = inner
        self.decisions = 0

    def choose(self, seen: PlayerView) -> Action:
        action = self.inner.choose(seen)
        assert action in seen.legal, (action, seen.legal)
        self.decisions += 1
        return action


def random_views(
    n: int, options: Options, seed: int, *, rounds: int | None = None
) -> Iterator[tuple[GameState, PlayerView]]:
    """Every decision point of a random game: the state and the acting seat's view."""
    rng = random.Random(seed)
    state = new_game([f"p{i}" for i in range(n)], options, seed=seed)
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            if rounds is not None and state.round >= rounds:
                return
            state = deal_next_round(state)
            continue
        seat = to_act(state)[0]
        seen = view(state, seat)
        if seen.legal:
            yield state, seen
        state = apply(state, rng.choice(legal_actions(state, seat)))


def round_views(n: int, options: Options, seed: int, round_no: int) -> list[PlayerView]:
    """Every choice in round ``round_no`` of a seeded game, reached and played by the heuristic."""
    helper = HeuristicPlayer()
    state = new_game([f"p{i}" for i in range(n)], options, seed=seed)
    out: list[PlayerView] = []
    while state.phase is not Phase.GAME_OVER and state.round <= round_no:
        if state.phase is Phase.ROUND_OVER:
            if state.round == round_no:
                break
            state = deal_next_round(state)
            continue
        seat = to_act(state)[0]
        seen = view(state, seat)
        if state.round == round_no and len(seen.legal) > 1:
            out.append(seen)
        action = helper.choose(seen) if seen.legal else legal_actions(state, seat)[0]
        state = apply(state, action)
    return out
