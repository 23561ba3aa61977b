"""Every computer player picks a legal action in every variant, from its view alone."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.ai.helpers import Checked, random_views
from wizard.ai import LEVELS, HeuristicPlayer, RandomPlayer, SearchPlayer, make_player
from wizard.ai.simulate import play_game
from wizard.options import Bidding, Options
from wizard.rules import apply, deal_next_round, new_game, to_act
from wizard.state import GameState, Phase
from wizard.view import view

VARIANTS = [
    Options(),
    Options(uneven_bids=True),
    Options(canadian=True),
    Options(bidding=Bidding.HIDDEN),
    Options(bidding=Bidding.SECRET),
    Options(clairvoyance=True),
    Options(magic_twos=True),
    Options(uneven_bids=True, canadian=True, magic_twos=True, clairvoyance=True),
]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(o.describe()) or "standard")
@pytest.mark.parametrize("n", [3, 6])
def test_every_player_is_legal_through_whole_games(options: Options, n: int) -> None:
    # Seats mix the three kinds, so one game checks all of them against each other.
    kinds = [
        SearchPlayer(1, iterations=1, time_limit=None),
        HeuristicPlayer(2),
        RandomPlayer(3),
    ]
    players = [Checked(kinds[i % 3]) for i in range(n)]
    result, state = play_game(players, options, seed=40 + n)
    assert state.phase is Phase.GAME_OVER
    assert len(result.rounds) == 60 // n
    assert all(p.decisions > 0 for p in players)


@pytest.mark.parametrize("n", [3, 4])
def test_single_suit_games_are_legal(n: int) -> None:
    players = [Checked(SearchPlayer(1, iterations=1, time_limit=None)), Checked(HeuristicPlayer())]
    players += [Checked(RandomPlayer(i)) for i in range(n - 2)]
    _, state = play_game(players, Options(single_suit=True), seed=7)
    assert state.phase is Phase.GAME_OVER


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_decides_legally(level: str) -> None:
    """Each user-facing level, at its real budget, on a sample of decisions."""
    player = make_player(level, seed=3)
    for i, (_, seen) in enumerate(random_views(4, Options(uneven_bids=True), seed=3, rounds=6)):
        if i % 7 == 0:
            assert player.choose(seen) in seen.legal


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown computer level"):
        make_player("grandmaster", seed=1)


def _swap_hidden_cards(state: GameState, seat: int) -> GameState:
    """The same game, but two other seats hold each other's first card."""
    n = state.num_players
    a, b = [(seat + 1) % n, (seat + 2) % n]
    hands = [list(h) for h in state.hands]
    for i in range(len(hands[a])):
        for j in range(len(hands[b])):
            if hands[a][i] != hands[b][j]:
                hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
                return state._replace(hands=tuple(tuple(sorted(h)) for h in hands))
    return state


@pytest.mark.parametrize("kind", ["random", "heuristic", "search"])
def test_decisions_depend_only_on_the_players_view(kind: str) -> None:
    """Change only other seats' hidden cards: the view, and so the decision, stay the same."""
    state = new_game(["a", "b", "c", "d"], Options(), seed=12)
    compared = 0
    while state.phase is not Phase.GAME_OVER and compared < 25:
        if state.phase is Phase.ROUND_OVER:
            state = deal_next_round(state)
            continue
        seat = to_act(state)[0]
        other = _swap_hidden_cards(state, seat)
        seen, seen_other = view(state, seat), view(other, seat)
        assert seen == seen_other  # the swap is invisible to this seat (R8.3)
        if other.hands != state.hands and len(seen.legal) > 1:
            first = _make(kind).choose(seen)
            second = _make(kind).choose(seen_other)
            assert first == second
            compared += 1
        state = apply(state, _make("heuristic").choose(seen))
    assert compared >= 10


def _make(kind: str) -> RandomPlayer | HeuristicPlayer | SearchPlayer:
    if kind == "random":
        return RandomPlayer(5)
    if kind == "heuristic":
        return HeuristicPlayer(5)
    return SearchPlayer(5, iterations=3, time_limit=None)


@pytest.mark.parametrize("kind", ["random", "heuristic", "search"])
def test_players_refuse_anything_but_a_player_view(kind: str) -> None:
    state = deal_next_round(new_game(["a", "b", "c"], Options(), seed=1))
    with pytest.raises(TypeError, match="PlayerView"):
        _make(kind).choose(state)  # type: ignore[arg-type]


PLAYER_MODULES = ["core", "knowledge", "heuristic", "search", "__init__"]


@pytest.mark.parametrize("module", PLAYER_MODULES)
def test_player_modules_never_touch_the_game_state(module: str) -> None:
    """The deciding code imports neither the state nor the engine functions that need it."""
    path = Path(__file__).parents[2] / "wizard" / "ai" / f"{module}.py"
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names = {a.name for a in node.names}
            if node.module == "wizard.rules":
                # Only the pure scoring rule (R6); nothing that takes a game state.
                assert names <= {"score"}, f"{module} imports {names} from the rules engine"
            assert "GameState" not in names, f"{module} imports GameState"
            assert node.module != "wizard.view" or names <= {"PlayerView"}
        if isinstance(node, ast.Name):
            assert node.id != "GameState"
