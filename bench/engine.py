"""Engine throughput: full games of uniformly random legal actions through the public API.

    python bench/engine.py [--games 200] [--repeats 5] [--profile]

Prints, for 3, 4, 5 and 6 players, games/s and actions/s (median of the
repeats), and as a same-run baseline the harness alone: the same random
choices over the same recorded legal-action tuples without calling the
engine, so the engine's own share of the time is visible. Target: ≥ 400
four-player games/s on one core.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import statistics
import time

from wizard.rules import apply, legal_actions, new_game
from wizard.state import Action, Phase

GAME_OVER = Phase.GAME_OVER


def play(seed: int, players: int) -> int:
    """One full game from ``seed``; returns the number of actions applied."""
    rng = random.Random(seed)
    state = new_game([f"P{i}" for i in range(players)], seed=seed)
    actions = 0
    while state.phase is not GAME_OVER:
        state = apply(state, rng.choice(legal_actions(state)))
        actions += 1
    return actions


def record_choices(seed: int, players: int) -> list[tuple[Action, ...]]:
    """The legal-action tuples met in the game of ``seed``, for the harness baseline."""
    rng = random.Random(seed)
    state = new_game([f"P{i}" for i in range(players)], seed=seed)
    seen = []
    while state.phase is not GAME_OVER:
        legal = legal_actions(state)
        seen.append(legal)
        state = apply(state, rng.choice(legal))
    return seen


def harness(seed: int, recorded: list[tuple[Action, ...]]) -> int:
    """The benchmark loop without the engine: the same random choices, nothing applied."""
    rng = random.Random(seed)
    for legal in recorded:
        rng.choice(legal)
    return len(recorded)


def measure(players: int, games: int, repeats: int) -> dict[str, float]:
    """Median games/s and actions/s over ``repeats`` runs of ``games`` games."""
    rates, action_rates, base_rates = [], [], []
    recorded = [record_choices(seed, players) for seed in range(games)]
    for rep in range(repeats):
        seeds = range(games)
        t0 = time.perf_counter()
        actions = sum(play(seed, players) for seed in seeds)
        elapsed = time.perf_counter() - t0
        rates.append(games / elapsed)
        action_rates.append(actions / elapsed)
        t0 = time.perf_counter()
        for seed, rec in zip(seeds, recorded, strict=True):
            harness(seed, rec)
        base_rates.append(games / (time.perf_counter() - t0))
        del rep
    return {
        "games_per_s": statistics.median(rates),
        "actions_per_s": statistics.median(action_rates),
        "harness_games_per_s": statistics.median(base_rates),
        "spread": (max(rates) - min(rates)) / statistics.median(rates),
    }


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per repeat")
    parser.add_argument("--repeats", type=int, default=5, help="repeats (median is shown)")
    parser.add_argument("--profile", action="store_true", help="profile 4-player games")
    args = parser.parse_args()
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cpus, {platform.platform()}"
    )
    print(f"{args.games} games x {args.repeats} repeats per player count; medians\n")
    print(f"{'players':>7} {'games/s':>9} {'actions/s':>10} {'spread':>7} {'engine share':>13}")
    for players in (3, 4, 5, 6):
        m = measure(players, args.games, args.repeats)
        # The harness alone runs at harness_games_per_s; the rest of the time is the engine.
        share = 1 - m["games_per_s"] / m["harness_games_per_s"]
        print(
            f"{players:>7} {m['games_per_s']:>9.0f} {m['actions_per_s']:>10.0f} "
            f"{m['spread']:>6.0%} {share:>13.0%}"
        )
        if players == 4:
            print(f"{'':>7} target ≥ 400 games/s: {m['games_per_s'] / 400:.2f}x the target")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for seed in range(args.games):
            play(seed, 4)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
