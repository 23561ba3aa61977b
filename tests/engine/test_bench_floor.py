"""``bench/engine_floor.py`` compares the engine with the least work a play needs: that
least work must be a real play, the same new state as the engine's, or the floor it
prints would flatter the case against a faster engine."""

from __future__ import annotations

import subprocess
import sys

from tests.engine.helpers import ROOT, bench_module
from wizard.rules import apply


def test_the_bare_play_is_the_engines_play() -> None:
    floor = bench_module("engine_floor")
    steps = floor.mid_trick_plays(3, seed=123)
    assert len(steps) == 3 * 4 * sum(range(1, 16)) // 2  # R2.2: 15 rounds of 4 players
    for state, action in steps:
        assert floor._bare_play(state, action) == apply(state, action)


def test_it_prints_every_row() -> None:
    out = subprocess.run(
        [sys.executable, "bench/engine_floor.py", "--games", "1", "--repeats", "1"],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for row in ("build the new GameState", "no rule checked", "engine: apply"):
        assert row in out, out
