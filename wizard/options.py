"""Game options: the variants of R7, validated together with the number of players."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from wizard.errors import OptionsError

MIN_PLAYERS = 3
MAX_PLAYERS = 6
SINGLE_SUIT_MAX_PLAYERS = 4
"""R7.7: each player owns one of the four suits."""


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

    def variants_on(self) -> dict[str, str]:
        """The variants that are on, field by field in order (empty for the standard game):
        each field's name with its key, the field's name or, for the bidding, how bids are
        made ("hidden", "secret")."""
        plain = Options()
        return {
            field: self.bidding.value if field == "bidding" else field
            for field in type(self).model_fields
            if getattr(self, field) != getattr(plain, field)
        }

    def describe(self) -> list[str]:
        """Plain-English names of the variants that are on (empty for the standard game); words
        a player reads, without rule ids."""
        names = []
        if self.uneven_bids:
            names.append("uneven bids")
        if self.bidding is Bidding.HIDDEN:
            names.append("hidden bids")
        elif self.bidding is Bidding.SECRET:
            names.append("secret bids")
        if self.clairvoyance:
            names.append("clairvoyance")
        if self.canadian:
            names.append("Canadian rule")
        if self.magic_twos:
            names.append("magic twos")
        if self.single_suit:
            names.append("single suit")
        return names


def check_setup(options: Options, players: int) -> None:
    """Raise :class:`OptionsError` if a game with these options and players cannot be played."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionsError(
            "R2.1", "players_out_of_range", players=players, min=MIN_PLAYERS, max=MAX_PLAYERS
        )
    for error in conflicts(options):
        raise error
    if options.single_suit and players > SINGLE_SUIT_MAX_PLAYERS:
        raise OptionsError(
            "R7.8", "single_suit_players", players=players, max=SINGLE_SUIT_MAX_PLAYERS
        )


def conflicts(options: Options) -> list[OptionsError]:
    """The variants of ``options`` that cannot be played together (R7.8), whatever the number
    of players: one :class:`OptionsError` (code and params) per conflicting pair, in a fixed
    order; empty when the options can be played."""
    found = []
    hidden = options.bidding is not Bidding.OPEN
    if options.uneven_bids and hidden:
        found.append(
            OptionsError("R7.8", "uneven_bids_need_open_bidding", bidding=options.bidding.value)
        )
    if options.canadian and hidden:
        found.append(
            OptionsError("R7.8", "canadian_needs_open_bidding", bidding=options.bidding.value)
        )
    if options.single_suit and options.magic_twos:
        found.append(OptionsError("R7.8", "magic_twos_need_a_suit"))
    if options.single_suit and options.clairvoyance:
        found.append(OptionsError("R7.8", "clairvoyance_with_single_suit"))
    return found


def rounds_in_game(options: Options, players: int) -> int:
    """How many rounds the game has: 60 / players (R2.2), or 12 hands under R7.7."""
    return 12 if options.single_suit else 60 // players


def tricks_in_round(options: Options, round_no: int) -> int:
    """Cards dealt to each player, and so tricks, in round ``round_no`` (R2.2, R7.7)."""
    return round_no + 3 if options.single_suit else round_no
