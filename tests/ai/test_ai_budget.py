"""Search levels are budgeted by work, not by the wall clock: a slow machine plays the same.

No test here times anything: the clock is a fake that advances a fixed step per
read, which is how a loaded machine looks to the search.
"""

from __future__ import annotations

import types

import pytest

import wizard.ai.search as search_module
from tests.ai.helpers import round_views
from wizard.ai import SEARCH_BUDGETS, SearchPlayer, decide, make_player
from wizard.ai.search import SAFETY_LIMIT
from wizard.options import Options
from wizard.state import Phase
from wizard.view import PlayerView

OLD_WALL_CLOCK_CAP = 0.4
"""The cap in seconds that used to end a search: the slow clocks below pass it."""


class SlowClock:
    """A clock that advances ``step`` seconds each time it is read: a heavily loaded machine."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 1000.0
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def _searcher(level: str, seed: int, clock: SlowClock | None = None) -> SearchPlayer:
    player = make_player(level, seed=seed, clock=clock)
    assert isinstance(player, SearchPlayer)
    return player


def _slow_step(player: SearchPlayer, seen: PlayerView) -> float:
    """A step per clock read that makes the whole budget look like 90% of the safety net."""
    step = 0.9 * SAFETY_LIMIT / (player.budget(seen) + 1)
    assert step * player.budget(seen) > OLD_WALL_CLOCK_CAP  # slow enough to matter
    return step


def _some_views() -> list[PlayerView]:
    views = round_views(4, Options(uneven_bids=True), seed=5, round_no=6)
    bids = [v for v in views if v.phase is Phase.BID]
    plays = [v for v in views if v.phase is Phase.PLAY]
    return bids[:2] + plays[:: max(1, len(plays) // 3)][:3]


def test_decide_is_the_same_under_a_slow_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's entry point, same seed and view: same bid in the largest round."""
    views = round_views(3, Options(uneven_bids=True), seed=5, round_no=20)
    bids = [v for v in views if v.phase is Phase.BID]
    assert bids
    quick = [decide("normal", 11, v) for v in bids]
    step = _slow_step(_searcher("normal", 11), bids[0])  # every bid of a round has one budget
    clock = SlowClock(step)
    # decide() makes its own player: give the search module a slow clock to find.
    monkeypatch.setattr(search_module, "time", types.SimpleNamespace(perf_counter=clock))
    slow = [decide("normal", 11, v) for v in bids]
    assert clock.reads > 0
    assert slow == quick


@pytest.mark.parametrize("level", sorted(SEARCH_BUDGETS))
def test_search_levels_spend_the_same_deals_on_a_slow_clock(level: str) -> None:
    for seen in _some_views():
        quick = _searcher(level, 3)
        expected = quick.choose(seen)
        assert quick.last is not None and not quick.last.cut_short
        clock = SlowClock(_slow_step(quick, seen))
        slow = _searcher(level, 3, clock)
        assert slow.choose(seen) == expected
        assert slow.last == quick.last  # the same deals, not cut short
        assert clock.reads >= slow.last.deals


def test_the_safety_net_cuts_a_search_short_and_still_decides() -> None:
    seen = _some_views()[0]
    clock = SlowClock(SAFETY_LIMIT)  # every deal seems to take the whole allowance
    player = _searcher("hard", 3, clock)
    assert player.choose(seen) in seen.legal
    assert player.last is not None and player.last.cut_short
    assert player.last.deals < player.last.budget


def test_without_a_time_limit_the_clock_is_never_read() -> None:
    seen = _some_views()[0]
    clock = SlowClock(SAFETY_LIMIT)
    player = SearchPlayer(3, iterations=5, time_limit=None, clock=clock)
    player.choose(seen)
    assert clock.reads == 0
    assert player.last is not None and player.last.deals > 1


def test_hard_searches_more_deals_than_normal() -> None:
    for seen in _some_views():
        assert _searcher("hard", 1).budget(seen) > _searcher("normal", 1).budget(seen)
