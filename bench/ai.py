"""Decision time of the computer players: p50, p95 and max, for bids and for plays.

Run: ``python bench/ai.py [--deals N] [--players random easy normal hard search:60]``.

Measured in the largest round of a 3-player game (20 cards each) and of a
6-player game (10 cards each). The earlier rounds are played by the heuristic
to reach that round; then the measured player makes every decision of the
round, in every seat, on one core. Prints the machine it ran on.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

from wizard.ai import HeuristicPlayer
from wizard.ai.simulate import player_factory
from wizard.options import Options
from wizard.rules import apply, deal_next_round, new_game, num_rounds, to_act
from wizard.state import GameState, Phase
from wizard.view import view

SETTINGS = ((3, "3 players, round 20 (20 cards)"), (6, "6 players, round 10 (10 cards)"))


def _last_round(n: int, seed: int) -> GameState:
    """A seeded game advanced by the heuristic to the deal of its last (largest) round."""
    state = new_game([f"p{i}" for i in range(n)], Options(), seed=seed)
    helper = HeuristicPlayer()
    last = num_rounds(state)
    while True:
        if state.phase is Phase.ROUND_OVER:
            if state.round == last - 1:
                return deal_next_round(state)
            state = deal_next_round(state)
            continue
        state = apply(state, helper.choose(view(state, to_act(state)[0])))


def _time_round(spec: str, state: GameState, seed: int) -> tuple[list[float], list[float]]:
    """Play one round with ``spec`` in every seat: seconds per bid and per play decision."""
    player = player_factory(spec)(seed)
    bids: list[float] = []
    plays: list[float] = []
    rnd = state.round
    while state.round == rnd and state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
        seen = view(state, to_act(state)[0])
        start = time.perf_counter()
        action = player.choose(seen)
        spent = time.perf_counter() - start
        if state.phase is Phase.PLAY:
            plays.append(spent)
        elif state.phase is Phase.BID:
            bids.append(spent)
        state = apply(state, action)
    return bids, plays


def _summary(times: list[float]) -> str:
    if not times:
        return "no decisions"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:8.2f} ms  p95 {p95 * 1000:8.2f} ms  "
        f"max {ordered[-1] * 1000:8.2f} ms  ({len(ordered)} decisions)"
    )


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3, help="deals measured per setting")
    parser.add_argument(
        "--players",
        nargs="+",
        default=["random", "easy", "normal", "hard"],
        help="levels, heuristic or search:N (untimed)",
    )
    args = parser.parse_args()
    print(f"machine: {platform.platform()}, {platform.processor() or platform.machine()}")
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs (one used)")
    medians: list[str] = []
    for n, label in SETTINGS:
        rounds = [_last_round(n, seed) for seed in range(1, args.deals + 1)]
        print(f"\n{label}, {args.deals} deals")
        for spec in args.players:
            bids: list[float] = []
            plays: list[float] = []
            for seed, state in enumerate(rounds, start=1):
                b, p = _time_round(spec, state, seed)
                bids += b
                plays += p
            print(f"  {spec:<10} bid   {_summary(bids)}")
            print(f"  {spec:<10} play  {_summary(plays)}")
            medians.append(
                f"{spec} @ {n}p: bid {statistics.median(bids) * 1000:.2f} ms, "
                f"play {statistics.median(plays) * 1000:.2f} ms"
            )
    print("\nmedians: " + "; ".join(medians))
    return 0


if __name__ == "__main__":
    sys.exit(main())
