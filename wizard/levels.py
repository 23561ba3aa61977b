"""The computer players' difficulty levels, by name.

The store validates stored levels, the service checks requested ones and the front ends
list them, all without importing the players themselves (:mod:`wizard.ai`).
"""

from __future__ import annotations

LEVELS = ("random", "easy", "normal", "hard")
"""The difficulty levels :func:`wizard.ai.make_player` accepts, weakest first."""


def known_level(level: str) -> str:
    """``level`` if it is one of :data:`LEVELS`, else ``ValueError``.

    >>> known_level("hard")
    'hard'
    >>> known_level("godlike")
    Traceback (most recent call last):
    ...
    ValueError: unknown computer level 'godlike'; choose one of random, easy, normal, hard
    """
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")
    return level
