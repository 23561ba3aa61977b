"""``bench/engine.py --parts`` splits a random game's time into its parts: each part must
do the game's work and keep no more than the game loop keeps, or the garbage collector's
walks over what it kept are counted as the engine's (a part that kept its new states in a
list read 3.3x its share of a game)."""

from __future__ import annotations

import tracemalloc

from tests.engine.helpers import bench_module


def test_every_part_of_a_game_is_timed() -> None:
    bench = bench_module("engine")
    steps = bench.recorded_steps(2, 4, 0)
    # R2.2: 15 rounds of 4 players, each a deal, 4 bids and 4 plays a trick.
    assert len(steps) == 2 * (15 + 4 * 15 + 4 * sum(range(1, 16))) + _trump_choices(steps)
    labels = [label for label, _ in bench.timed_parts(steps)]
    for kind in ("Deal", "Bid", "Play"):
        assert f"legal_actions before a {kind}" in labels
        assert f"apply a {kind}" in labels
    assert labels[-2:] == ["seeded deals, uncached", "the loop's rng.choice"]


def _trump_choices(steps: list[tuple[object, object, object]]) -> int:
    """The trump choices after a turned Wizard among ``steps`` (R3.3)."""
    return sum(type(action).__name__ == "ChooseTrump" for _, action, _ in steps)


def test_a_part_keeps_nothing_it_computes() -> None:
    bench = bench_module("engine")
    steps = bench.recorded_steps(3, 4, 0)
    for label, run in bench.timed_parts(steps):
        tracemalloc.start()
        try:
            run()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        # One state at a time is a few KiB; the 1,400 plays' states of 3 games kept
        # were about 600 KiB.
        assert peak < 64 * 1024, f"{label}: {peak} bytes held at once"
