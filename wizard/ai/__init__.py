"""Computer players. Each sees only a :class:`~wizard.view.PlayerView` (RULES §8).

The service and the front ends use nothing but :func:`make_player` and
:meth:`ComputerPlayer.choose`.
"""

from __future__ import annotations

import random
from typing import Protocol

from wizard.state import Action
from wizard.view import PlayerView

LEVELS = ("random",)
"""The difficulty levels :func:`make_player` accepts."""


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
        return self._rng.choice(view.legal)


def make_player(level: str = "random", *, seed: int = 0) -> ComputerPlayer:
    """A computer player of the given difficulty ``level`` (one of :data:`LEVELS`)."""
    if level == "random":
        return RandomPlayer(seed)
    raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")
