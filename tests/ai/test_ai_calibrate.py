"""The calibration that generates :mod:`wizard.ai.odds` still runs and round-trips."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from wizard.ai import calibrate, odds


def test_measured_rates_are_chances_and_tricks_add_up() -> None:
    stats = calibrate._measure((3, False, 0, 2))
    assert sorted(k[1] for k in stats) == list(range(1, 21))
    for (n, size, _), s in stats.items():
        assert sum(s.wins) == sum(s.tricks) == 2 * size  # every trick is won by one card
        assert sum(s.cards) == 2 * n * size
    chances, shifts = calibrate._smooth(stats)
    assert all(len(row) == 41 and all(0 <= p <= 1 for p in row) for row in chances.values())
    assert all(len(row) == 3 for row in shifts.values())


def test_written_table_reads_back(tmp_path: Path) -> None:
    copy = tmp_path / "odds.py"
    shutil.copy(odds.__file__, copy)
    calibrate._write(copy, odds.ODDS, odds.SHIFT)
    spec = importlib.util.spec_from_file_location("odds_copy", copy)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.ODDS == odds.ODDS
    assert module.SHIFT == odds.SHIFT
