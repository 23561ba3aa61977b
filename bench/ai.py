"""Decision time of the computer players: p50 and p95 per level, for bids and for plays.

Run: ``python bench/ai.py [--deals N] [--first-seed S] [--players random easy normal hard]``.

Measured in the largest round of a 3-player game (20 cards each) and of a
6-player game (10 cards each), and in a mid round of each (10 and 5 cards).
The earlier rounds are played by the heuristic to reach that round; then the
measured player makes every decision of the round, in every seat, on one core.
The seeds are fresh by default (not the seeds the players were tuned on).
Prints the machine it ran on and the load average before and after: a search
level's budget is work, so a loaded machine makes it slower, never weaker,
unless it reaches the safety net (the "cut short" count).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass, field

from machine import machine

from wizard.ai import HeuristicPlayer, SearchPlayer
from wizard.ai.simulate import player_factory
from wizard.options import Options
from wizard.rules import apply, deal_next_round, new_game, to_act
from wizard.state import GameState, Phase
from wizard.view import view

SETTINGS = (
    (3, 20, "3 players, round 20 (20 cards, the largest)"),
    (3, 10, "3 players, round 10 (10 cards)"),
    (6, 10, "6 players, round 10 (10 cards, the largest)"),
    (6, 5, "6 players, round 5 (5 cards)"),
)
FRESH_SEEDS = 7001
"""First seed of the measured deals: far from the seeds 1… the players were tuned on."""


def _reach_round(n: int, round_no: int, seed: int) -> GameState:
    """A seeded game advanced by the heuristic to the deal of round ``round_no``."""
    state = new_game([f"p{i}" for i in range(n)], Options(), seed=seed)
    helper = HeuristicPlayer()
    while True:
        if state.phase is Phase.ROUND_OVER:
            state = deal_next_round(state)
            if state.round == round_no:
                return state
            continue
        state = apply(state, helper.choose(view(state, to_act(state)[0])))


@dataclass
class Times:
    """Seconds per decision, and how often the search's safety net cut one short."""

    bids: list[float] = field(default_factory=list)
    plays: list[float] = field(default_factory=list)
    searched: int = 0
    cut_short: int = 0


def _time_round(spec: str, state: GameState, seed: int, out: Times) -> None:
    """Play one round with ``spec`` in every seat, timing each decision into ``out``."""
    player = player_factory(spec)(seed)
    rnd = state.round
    while state.round == rnd and state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
        seen = view(state, to_act(state)[0])
        start = time.perf_counter()
        action = player.choose(seen)
        spent = time.perf_counter() - start
        if state.phase is Phase.PLAY:
            out.plays.append(spent)
        elif state.phase is Phase.BID:
            out.bids.append(spent)
        if isinstance(player, SearchPlayer) and player.last is not None:
            out.searched += 1
            out.cut_short += player.last.cut_short
        state = apply(state, action)


def percentile(times: list[float], q: float) -> float:
    """The ``q`` quantile (0…1) of ``times`` by the nearest rank."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _summary(times: list[float]) -> str:
    if not times:
        return "no decisions"
    return (
        f"p50 {statistics.median(times) * 1000:8.2f} ms  p95 {percentile(times, 0.95) * 1000:8.2f}"
        f" ms  max {max(times) * 1000:8.2f} ms  ({len(times)} decisions)"
    )


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3, help="deals measured per setting")
    parser.add_argument(
        "--first-seed", type=int, default=FRESH_SEEDS, help="seed of the first measured deal"
    )
    parser.add_argument(
        "--players",
        nargs="+",
        default=["random", "easy", "normal", "hard"],
        help="levels, heuristic or search:N (untimed)",
    )
    parser.add_argument(
        "--largest-only", action="store_true", help="only the largest round of 3 and 6 players"
    )
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.deals)
    print(f"machine: {machine()}; one core used")
    print(f"seeds {seeds.start}…{seeds.stop - 1}; {_load()} at start")
    table: list[str] = []
    for n, round_no, label in SETTINGS:
        if args.largest_only and round_no * n != 60:
            continue
        rounds = [_reach_round(n, round_no, seed) for seed in seeds]
        print(f"\n{label}, {args.deals} deals")
        for spec in args.players:
            times = Times()
            for seed, state in zip(seeds, rounds, strict=True):
                _time_round(spec, state, seed, times)
            print(f"  {spec:<10} bid   {_summary(times.bids)}")
            print(f"  {spec:<10} play  {_summary(times.plays)}")
            every = times.bids + times.plays
            print(f"  {spec:<10} all   {_summary(every)}")
            if times.searched:
                cut = f"{times.cut_short}/{times.searched}"
                print(f"  {spec:<10} cut short by the safety net: {cut}")
            table.append(
                f"| {spec} | {n} | {round_no} | {statistics.median(every) * 1000:.2f} "
                f"| {percentile(every, 0.95) * 1000:.2f} "
                f"| {percentile(times.bids, 0.95) * 1000:.2f} "
                f"| {percentile(times.plays, 0.95) * 1000:.2f} | {times.cut_short} |"
            )
    print(f"\n{_load()} at the end\n")
    print("| level | players | round | p50 ms | p95 ms | p95 bid ms | p95 play ms | cut short |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
