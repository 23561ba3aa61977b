"""Engine throughput: full games of uniformly random legal actions through the public API.

    PYTHONPATH=. python bench/engine.py [--games 40] [--repeats 15] [--players 3 4 5 6]
        [--baseline PATH] [--profile [--engine PATH]] [--parts [--engine PATH]]

Every repeat plays games of seeds never played before in that process, so every round is
really dealt (the engine caches recent deals, and a replayed seed would skip dealing).
Each engine runs in a worker process of its own on one core; with ``--baseline PATH``
(a checkout of another version, e.g. ``git worktree add /tmp/engine-base 44b591f``) the
two workers take turns, A B B A …, on the same seeds, so a load that comes and goes hits
both alike. Rates are per CPU-second of the worker (what the load of other processes
disturbs least); medians with the spread (min–max) over the repeats, and for two engines
the median and spread of the per-repeat ratio.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

HERE = Path(__file__).resolve().parent.parent
Step = tuple[Any, Any, tuple[Any, ...]]
"""A state of a recorded game, the action taken in it and the legal actions it offered."""


def game_loop() -> Callable[[int, int], int]:
    """The benchmark loop over the engine on ``sys.path``: ``play(seed, players) -> actions``."""
    from wizard.rules import apply, legal_actions, new_game
    from wizard.state import Phase

    game_over = Phase.GAME_OVER

    def play(seed: int, players: int) -> int:
        rng = random.Random(seed)
        state = new_game([f"P{i}" for i in range(players)], seed=seed)
        actions = 0
        while state.phase is not game_over:
            state = apply(state, rng.choice(legal_actions(state)))
            actions += 1
        return actions

    return play


def worker(engine: str, stdin: TextIO, stdout: TextIO) -> None:
    """Time games on the engine at ``engine``: one ``players first_seed games`` per line."""
    sys.path.insert(0, engine)
    play = game_loop()
    import wizard

    stdout.write(json.dumps({"engine": str(Path(wizard.__file__).parent.parent)}) + "\n")
    stdout.flush()
    for line in stdin:
        players, first, games = map(int, line.split())
        wall0, cpu0 = time.perf_counter(), time.process_time()
        actions = sum(play(seed, players) for seed in range(first, first + games))
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        stdout.write(json.dumps({"cpu": cpu, "wall": wall, "actions": actions}) + "\n")
        stdout.flush()


class Engine:
    """A worker process timing games on one engine checkout."""

    def __init__(self, label: str, path: Path) -> None:
        self.label = label
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(path)},
        )
        self.path = json.loads(self._readline())["engine"]

    def _readline(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.label} worker ({self.path!r}) stopped")
        return line

    def run(self, players: int, first_seed: int, games: int) -> dict[str, float]:
        """Time ``games`` games of seeds ``first_seed``… on this engine."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{players} {first_seed} {games}\n")
        self.proc.stdin.flush()
        result: dict[str, float] = json.loads(self._readline())
        return result

    def close(self) -> None:
        """Stop the worker."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def _spread(values: list[float], fmt: str) -> str:
    return f"{statistics.median(values):{fmt}} [{min(values):{fmt}}–{max(values):{fmt}}]"


def measure(engines: list[Engine], args: argparse.Namespace) -> None:
    """Interleave the engines over fresh seeds and print rates and ratios per player count."""
    for players in args.players:
        # Seeds: a block per player count, a fresh stretch per repeat (and for the warm-up).
        first = args.seed_base + players * 10_000_000
        for engine in engines:
            engine.run(players, first, max(1, args.games // 4))  # warm-up, seeds not reused
        first += args.games
        runs: dict[str, list[dict[str, float]]] = {e.label: [] for e in engines}
        for rep in range(args.repeats):
            order = engines if rep % 2 == 0 else engines[::-1]
            for engine in order:
                runs[engine.label].append(engine.run(players, first, args.games))
            first += args.games
        print(f"{players} players")
        for engine in engines:
            rs = runs[engine.label]
            games = [args.games / r["cpu"] for r in rs]
            actions = [r["actions"] / r["cpu"] for r in rs]
            wall = [args.games / r["wall"] for r in rs]
            print(
                f"  {engine.label:<9} games/CPU-s {_spread(games, '.0f'):>18}   "
                f"actions/CPU-s {_spread(actions, '.0f'):>26}   games/wall-s "
                f"{statistics.median(wall):.0f}"
            )
        if len(engines) == 2:
            a, b = (runs[e.label] for e in engines)
            cpu = [rb["cpu"] / ra["cpu"] for ra, rb in zip(a, b, strict=True)]
            wall = [rb["wall"] / ra["wall"] for ra, rb in zip(a, b, strict=True)]
            print(
                f"  {engines[0].label} / {engines[1].label} speed, per repeat: "
                f"CPU {_spread(cpu, '.2f')}x   wall {_spread(wall, '.2f')}x"
            )


def profile(games: int, players: int, seed_base: int) -> None:
    """Profile the engine on ``sys.path`` over fresh seeds and print the top functions."""
    play = game_loop()
    first = seed_base + 99_000_000
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(first, first + games):
        play(seed, players)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(15)


def recorded_steps(games: int, players: int, seed_base: int) -> list[Step]:
    """Every ``(state, action, legal actions)`` of ``games`` random games of fresh seeds."""
    from wizard.rules import apply, legal_actions, new_game
    from wizard.state import Phase

    first = seed_base + 98_000_000
    steps: list[Step] = []
    for seed in range(first, first + games):
        rng = random.Random(seed)
        state = new_game([f"P{i}" for i in range(players)], seed=seed)
        while state.phase is not Phase.GAME_OVER:
            legal = legal_actions(state)
            action = rng.choice(legal)
            steps.append((state, action, legal))
            state = apply(state, action)
    return steps


def timed_parts(steps: list[Step]) -> list[tuple[str, Callable[[], None]]]:
    """The parts of the random games of ``steps`` (:func:`recorded_steps`), each a run to
    time: ``legal_actions`` and ``apply`` by kind of action, the seeded deals computed anew
    (past the cache) and the benchmark's own ``rng.choice``.

    A run keeps nothing it computes, as the game loop keeps only its current state: a run
    that kept its 70,000 new states in a list had the garbage collector walk them again and
    again, and counted that as the engine's (apply a Play read 3.3x its share of a game).
    """
    from wizard.rules import apply, legal_actions, seeded_deal

    def each(work: Callable[..., object], args: list[tuple[object, ...]]) -> Callable[[], None]:
        def run() -> None:
            for a in args:
                work(*a)

        return run

    deal = getattr(seeded_deal, "__wrapped__", seeded_deal)
    players = len(steps[0][0].players)
    rounds = range(1, 60 // players + 1)  # R2.2: as many rounds as the deck allows
    seeds = sorted({state.seed for state, _, _ in steps})
    timed: list[tuple[str, Callable[[], None]]] = []
    for kind in sorted({type(a).__name__ for _, a, _ in steps}):
        mine = [(s, a) for s, a, _ in steps if type(a).__name__ == kind]
        timed.append(
            (f"legal_actions before a {kind}", each(legal_actions, [(s,) for s, _ in mine]))
        )
        timed.append((f"apply a {kind}", each(apply, mine)))
    dealt = [(s, r, players) for s in seeds for r in rounds]
    timed.append(("seeded deals, uncached", each(deal, dealt)))
    timed.append(
        ("the loop's rng.choice", each(random.Random(0).choice, [(legal,) for *_, legal in steps]))
    )
    return timed


def parts(games: int, players: int, seed_base: int, repeats: int) -> None:
    """Split a random game's CPU time into its parts (:func:`timed_parts`) and print CPU-µs
    per game for each, to compare with the whole game's time per game.

    The games are played first and their states kept, frozen out of garbage collection
    (else every collection would walk them all); each part is the fastest of ``repeats``
    runs. For load-proof figures run it under ``valgrind --tool=callgrind`` and compare
    instruction counts instead.
    """
    steps = recorded_steps(games, players, seed_base)
    timed = timed_parts(steps)
    gc.collect()
    gc.freeze()
    print(f"{games} {players}-player games, {len(steps) / games:.0f} actions per game")
    total = 0.0
    for label, run in timed:
        best = float("inf")
        for _ in range(repeats):
            cpu0 = time.process_time()
            run()
            best = min(best, time.process_time() - cpu0)
        us = best / games * 1e6
        total += us
        print(f"  {label:<32} {us:10.0f} CPU-µs per game")
    print(f"  {'sum':<32} {total:10.0f} CPU-µs per game")


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per repeat")
    parser.add_argument("--repeats", type=int, default=15, help="repeats per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--baseline", type=Path, help="checkout of the engine to compare with")
    parser.add_argument("--seed-base", type=int, default=0, help="offset of every seed")
    parser.add_argument("--profile", action="store_true", help="cProfile 4-player games")
    parser.add_argument("--parts", action="store_true", help="CPU per part of a 4-player game")
    parser.add_argument(
        "--engine", type=Path, default=HERE, help="checkout to profile (default: this one)"
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, sys.stdin, sys.stdout)
        return
    if args.profile or args.parts:
        sys.path.insert(0, str(args.engine.resolve()))
        if args.parts:
            parts(args.games * 5, 4, args.seed_base, min(args.repeats, 5))
        else:
            profile(args.games * 5, 4, args.seed_base)
        return
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cpus, {platform.platform()}, load {os.getloadavg()[0]:.2f}"
    )
    engines = [Engine("this", HERE)]
    if args.baseline is not None:
        engines.append(Engine("baseline", args.baseline.resolve()))
    try:
        for engine in engines:
            print(f"{engine.label}: {engine.path}")
        print(
            f"{args.games} games x {args.repeats} repeats per player count, fresh seeds in "
            "every repeat; median [min–max]\n"
        )
        measure(engines, args)
    finally:
        for engine in engines:
            engine.close()


if __name__ == "__main__":
    main()
