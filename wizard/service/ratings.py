"""The rating scale: openskill's Plackett–Luce defaults and the conservative rating shown."""

from __future__ import annotations

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""The published multiplayer model (Weng & Lin 2011), with openskill's default mu and sigma."""


def default_rating() -> tuple[float, float]:
    """Mu and sigma of a player with no games."""
    r = MODEL.rating()
    return r.mu, r.sigma


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown on leaderboards: mu − 3·sigma (0 for a new player)."""
    return mu - 3.0 * sigma
