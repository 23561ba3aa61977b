"""Computer players. Each sees only a :class:`~wizard.view.PlayerView` (RULES §8).

The service and the front ends use nothing but :func:`make_player` and
:meth:`ComputerPlayer.choose`. Difficulty levels:

- ``random``: uniform over the legal actions (a floor, for tests);
- ``easy``: the heuristic player (rules of thumb, under a millisecond);
- ``normal``: the search player with a small budget (20 sampled deals per decision);
- ``hard``: the search player at its default budget (60 deals).

Both search levels stop sampling after 0.4 s, a safety net on slow machines
(the largest round takes about 0.3 s at the 95th percentile for ``hard``).

The heuristic is deterministic; a search decision follows from the seed and
the view alone, unless the time limit cuts it short; the random player draws
from one generator per seed, so its choices follow the seed and call order.
"""

from __future__ import annotations

import random
from typing import Protocol

from wizard.ai.heuristic import HeuristicPlayer
from wizard.ai.search import DEFAULT_ITERATIONS, DEFAULT_TIME_LIMIT, SearchPlayer
from wizard.state import Action
from wizard.view import PlayerView

LEVELS = ("random", "easy", "normal", "hard")
"""The difficulty levels :func:`make_player` accepts, weakest first."""

NORMAL_ITERATIONS = 20
"""Deals sampled per decision at the ``normal`` level."""


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


def make_player(level: str = "random", *, seed: int = 0) -> ComputerPlayer:
    """A computer player of the given difficulty ``level`` (one of :data:`LEVELS`)."""
    if level == "random":
        return RandomPlayer(seed)
    if level == "easy":
        return HeuristicPlayer(seed)
    if level == "normal":
        return SearchPlayer(seed, iterations=NORMAL_ITERATIONS, time_limit=DEFAULT_TIME_LIMIT)
    if level == "hard":
        return SearchPlayer(seed, iterations=DEFAULT_ITERATIONS, time_limit=DEFAULT_TIME_LIMIT)
    raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = [
    "LEVELS",
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
