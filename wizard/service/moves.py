"""Moves a user can make: engine actions without the seat, which the service knows."""

from __future__ import annotations

from dataclasses import dataclass

from wizard.cards import Card, Suit


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play this card to the current trick."""

    card: Card


@dataclass(frozen=True, slots=True)
class MakeBid:
    """Bid this many tricks."""

    bid: int


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The dealer names trump after a turned Wizard (R3.3)."""

    suit: Suit


@dataclass(frozen=True, slots=True)
class PlayHiddenCard:
    """Play the one card the player holds but cannot see (clairvoyance, R7.4)."""


Move = PlayCard | MakeBid | NameTrump | PlayHiddenCard
"""What ``GameService.act`` accepts besides engine actions."""
