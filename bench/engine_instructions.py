"""Engine cost in CPU instructions per random game, which no load of the machine disturbs.

    PYTHONPATH=. python bench/engine_instructions.py [--games 40] [--players 4]
        [--baseline PATH]

Timed figures on a shared 2-core machine swing by a third from one minute to the next, so
this counts instructions instead, with valgrind's callgrind (``apt install valgrind``): the
benchmark loop of ``bench/engine.py`` (random legal actions through the public API, fresh
seeds, every deal really dealt) runs once with ``--games`` games and once with one; the
difference over ``games − 1`` is one game's instructions, without start-up and imports.
With ``--baseline PATH`` (a checkout of another engine, e.g. ``git worktree add
/tmp/engine-base 44b591f``) both are counted on the same seeds and the ratio printed.
Counting runs about fifty times slower than Python itself: 40 games take a minute or two.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
FIRST_SEED = 7_000


def count(engine: Path, games: int, players: int) -> int:
    """Instructions callgrind counts for ``games`` games on the engine at ``engine``."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--play",
            str(engine),
            str(games),
            str(players),
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(engine)},  # that engine's wizard, no other
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{done.stderr}")
    return int(found.group(1))


def per_game(engine: Path, games: int, players: int) -> float:
    """One game's instructions: the count of ``games`` games less that of one game."""
    return (count(engine, games, players) - count(engine, 1, players)) / (games - 1)


def play(engine: str, games: int, players: int) -> None:
    """The benchmark loop of ``bench/engine.py`` on the engine at ``engine`` (under valgrind)."""
    sys.path.insert(0, engine)
    spec = importlib.util.spec_from_file_location("engine_bench", HERE / "bench" / "engine.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    loop = bench.game_loop()
    for seed in range(FIRST_SEED, FIRST_SEED + games):
        loop(seed, players)


def main() -> None:
    """Count this engine (and the baseline) and print instructions per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games counted (at least 2)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--baseline", type=Path, help="checkout of the engine to compare with")
    parser.add_argument("--play", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(args.play[0], int(args.play[1]), int(args.play[2]))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: apt install valgrind")
    if args.games < 2:
        sys.exit("--games must be at least 2")
    engines = [("this", HERE)]
    if args.baseline is not None:
        engines.append(("baseline", args.baseline.resolve()))
    print(
        f"{args.players}-player games of random legal actions, seeds {FIRST_SEED}…"
        f"{FIRST_SEED + args.games - 1}; instructions per game (callgrind)"
    )
    counted = {}
    for label, path in engines:
        counted[label] = per_game(path, args.games, args.players)
        print(f"  {label:<9} {counted[label] / 1e6:8.2f} M   ({path})")
    if "baseline" in counted:
        print(f"  this engine needs {counted['this'] / counted['baseline']:.2f}× the baseline's")
        print(f"  speed-up {counted['baseline'] / counted['this']:.2f}×")


if __name__ == "__main__":
    main()
