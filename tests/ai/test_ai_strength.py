"""Small fixed-seed duplicate matches: the heuristic and the search beat random play clearly."""

from __future__ import annotations

import pytest

from wizard.ai.simulate import run_match
from wizard.options import Options


@pytest.mark.parametrize("n", [3, 6])
def test_heuristic_beats_random_by_a_wide_margin(n: int) -> None:
    match = run_match("heuristic", "random", n, range(1, 4), Options(uneven_bids=True))
    mean, low, _ = match.interval()
    assert mean > 250
    assert low > 0
    assert match.candidate.hits > 2 * match.baseline.hits


def test_search_beats_random() -> None:
    match = run_match("search:2", "random", 6, range(1, 3), Options())
    assert min(match.diffs) > 150  # on every deal
