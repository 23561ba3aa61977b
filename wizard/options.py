"""Game options: the variants of R7, validated together with the number of players."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from wizard.errors import OptionsError

MIN_PLAYERS = 3
MAX_PLAYERS = 6


class Bidding(StrEnum):
    """How bids are made: open (R4.2), hidden until all have bid (R7.2), or secret (R7.3)."""

    OPEN = "open"
    HIDDEN = "hidden"
    SECRET = "secret"


class Options(BaseModel):
    """The variants of a game (R7.1–R7.7); every one is off by default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    uneven_bids: bool = False
    """R7.1: the bids of a round may not add up to the number of tricks."""
    bidding: Bidding = Bidding.OPEN
    """R4.2 open, R7.2 hidden or R7.3 secret bids."""
    clairvoyance: bool = False
    """R7.4: in round 1 each player sees every card but their own."""
    canadian: bool = False
    """R7.5: in the last round a sole leader bidding last may not make the bids add up."""
    magic_twos: bool = False
    """R7.6: a 2 played into a trick of its own suit wins it."""
    single_suit: bool = False
    """R7.7: every player draws from a personal 15-card deck; no trump, no suit to follow."""

    def describe(self) -> list[str]:
        """Plain-English names of the variants that are on (empty for the standard game)."""
        names = []
        if self.uneven_bids:
            names.append("uneven bids (R7.1)")
        if self.bidding is Bidding.HIDDEN:
            names.append("hidden bids (R7.2)")
        elif self.bidding is Bidding.SECRET:
            names.append("secret bids (R7.3)")
        if self.clairvoyance:
            names.append("clairvoyance (R7.4)")
        if self.canadian:
            names.append("Canadian rule (R7.5)")
        if self.magic_twos:
            names.append("magic twos (R7.6)")
        if self.single_suit:
            names.append("single suit (R7.7)")
        return names


def check_setup(options: Options, players: int) -> None:
    """Raise :class:`OptionsError` if a game with these options and players cannot be played."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionsError("R2.1", f"Wizard is played by 3 to 6 players, not {players}")
    hidden = options.bidding is not Bidding.OPEN
    if options.uneven_bids and hidden:
        raise OptionsError(
            "R7.8",
            f"uneven bids (R7.1) need open bidding: with {options.bidding.value} bids "
            "nobody knows the total when the last bid is made",
        )
    if options.canadian and hidden:
        raise OptionsError(
            "R7.8",
            f"the Canadian rule (R7.5) needs open bidding: with {options.bidding.value} bids "
            "the last bidder cannot know the total",
        )
    if options.single_suit and options.magic_twos:
        raise OptionsError(
            "R7.8",
            "magic twos (R7.6) need a suit to follow, and single suit (R7.7) has none",
        )
    if options.single_suit and options.clairvoyance:
        raise OptionsError("R7.8", "clairvoyance (R7.4) and single suit (R7.7) cannot be combined")
    if options.single_suit and players > 4:
        raise OptionsError(
            "R7.8",
            f"single suit (R7.7) is for 3 or 4 players (each owns one suit), not {players}",
        )


def rounds_in_game(options: Options, players: int) -> int:
    """How many rounds the game has: 60 / players (R2.2), or 12 hands under R7.7."""
    return 12 if options.single_suit else 60 // players


def tricks_in_round(options: Options, round_no: int) -> int:
    """Cards dealt to each player, and so tricks, in round ``round_no`` (R2.2, R7.7)."""
    return round_no + 3 if options.single_suit else round_no
