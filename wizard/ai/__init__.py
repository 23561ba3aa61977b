"""Computer players. Each sees only a :class:`~wizard.view.PlayerView` (RULES §8).

The service and the front ends use nothing but :func:`make_player` and
:meth:`ComputerPlayer.choose`. Difficulty levels:

- ``random``: uniform over the legal actions (a floor, for tests);
- ``easy``: the heuristic player (rules of thumb, under a millisecond);
- ``normal``: the search player with a small budget (:data:`SEARCH_BUDGETS`);
- ``hard``: the search player with a larger one.

A search level's budget is work (sampled deals per decision), not time, so a
busy host plays exactly as well as a quiet one, only slower. A wall-clock cap
of :data:`~wizard.ai.search.SAFETY_LIMIT` seconds, far above a typical decision
(``bench/ai.py``), is only a safety net for a badly overloaded machine.

The heuristic is deterministic; a search decision follows from the seed and
the view alone (unless the safety net cuts it short); the random player draws
from one generator per seed, so its choices follow the seed and call order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from wizard.ai.heuristic import HeuristicPlayer
from wizard.ai.search import SAFETY_LIMIT, Clock, SearchPlayer
from wizard.levels import LEVELS, known_level
from wizard.state import Action
from wizard.view import PlayerView


@dataclass(frozen=True, slots=True)
class Budget:
    """The work a search level does per decision: deals sampled, and the extra for bids."""

    deals: int
    """Deals for a card played early in the largest round (shorter rounds get more)."""
    bid_factor: int
    """Bids and trump choices get this many times the deals of a play."""


SEARCH_BUDGETS: dict[str, Budget] = {
    "normal": Budget(deals=20, bid_factor=2),
    "hard": Budget(deals=80, bid_factor=3),
}
"""The budget of each search level, chosen with ``bench/ai.py`` so that the 95th
percentile decision stays far below the targets (normal 0.5 s, hard 1.5 s)."""


class ComputerPlayer(Protocol):
    """Something that picks one of ``view.legal``."""

    def choose(self, view: PlayerView) -> Action:
        """One of ``view.legal`` (which is never empty when this is called)."""
        ...


class RandomPlayer:
    """Uniform over the legal actions: the floor every other player must beat."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        """A uniformly random legal action."""
        if not isinstance(view, PlayerView):
            raise TypeError("a computer player decides from a PlayerView only")
        return self._rng.choice(view.legal)


def make_player(
    level: str = "random", *, seed: int = 0, clock: Clock | None = None
) -> ComputerPlayer:
    """A computer player of the given difficulty ``level`` (one of :data:`LEVELS`, else
    ``ValueError``).

    ``clock`` times the search levels' safety net (tests inject a slow one).
    """
    if known_level(level) == "random":
        return RandomPlayer(seed)
    if level == "easy":
        return HeuristicPlayer(seed)
    budget = SEARCH_BUDGETS[level]
    return SearchPlayer(
        seed,
        iterations=budget.deals,
        bid_factor=budget.bid_factor,
        time_limit=SAFETY_LIMIT,
        clock=clock,
    )


__all__ = [
    "LEVELS",
    "SEARCH_BUDGETS",
    "Budget",
    "ComputerPlayer",
    "HeuristicPlayer",
    "RandomPlayer",
    "SearchPlayer",
    "make_player",
]


def decide(level: str, seed: int, view: PlayerView) -> Action:
    """One decision of a fresh player of ``level``: the entry point for a worker process.

    Search players decide from the seed and the view alone, so a fresh player
    chooses exactly as one kept between decisions would.
    """
    return make_player(level, seed=seed).choose(view)
