"""The engine's exceptions: every refusal names the rule it enforces, a stable code and its
parameters; the English sentence is derived from them.

A refusal is read three ways: ``rule`` (the RULES.md id, for tests and records), ``code`` and
``params`` (what a front end renders in its reader's language) and ``message`` (English, from
:data:`MESSAGES`):

>>> error = MustFollowSuitError("R5.3", "must_follow_suit", player="Ann", suit="B", card="B7")
>>> error.code, error.params["suit"]
('must_follow_suit', 'B')
>>> error.message
'Ann must follow suit B (or play a Wizard or a Jester): they hold B7'

Parameters are JSON values: cards as their codes (``B7``, ``Z``, ``N``), suits as their letter,
seats and numbers as ints, names as strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final, TypeAlias

Param: TypeAlias = str | int | None
"""A refusal's parameter: a JSON value a front end can render."""

MESSAGES: Final[dict[str, str]] = {
    # Setting up (R2, R7.8)
    "players_out_of_range": "Wizard is played by {min} to {max} players, not {players}",
    "needs_seed_or_dealer": "a game needs a seed or a first dealer",
    "first_dealer_out_of_range": "the first dealer must be a seat from 0 to {max}",
    "uneven_bids_need_open_bidding": (
        "uneven bids need open bidding: with {bidding} bids nobody knows the total when the "
        "last bid is made"
    ),
    "canadian_needs_open_bidding": (
        "the Canadian rule needs open bidding: with {bidding} bids the last bidder cannot know "
        "the total"
    ),
    "magic_twos_need_a_suit": "magic twos need a suit to follow, and single suit has none",
    "clairvoyance_with_single_suit": (
        "clairvoyance needs a first round of one card, and single suit starts with four cards"
    ),
    "single_suit_players": (
        "single suit is for 3 or {max} players (each owns one suit), not {players}"
    ),
    # Whose turn (R2.1, R3.3, R4.2, R5.1, R7.2, R7.3)
    "no_such_seat": "there is no seat {seat} in this game",
    "not_your_turn": "it is {waiting_for}'s turn to play, not {player}'s",
    "not_your_turn_to_bid": "it is {waiting_for}'s turn to bid, not {player}'s",
    "only_dealer_chooses_trump": "only the dealer, {dealer}, chooses trump",
    "already_bid": "{player} has already bid this round",
    # The phase of the game (R2.2, R2.3, R3.3, R4.2, R4.3, R5.1)
    "still_bidding": "not now: players are still bidding",
    "choosing_trump": "not now: the dealer, {dealer}, is choosing trump",
    "cards_in_play": "not now: the cards are being played",
    "round_not_dealt": "not now: the next round has not been dealt yet",
    "game_over": "the game is over after {rounds} rounds",
    "no_trump_to_choose": "trump is chosen only when a Wizard is turned up, before bidding",
    # Bids (R4.1, R7.1, R7.5)
    "bid_out_of_range": "a bid in round {round} is a whole number from 0 to {max}, not {bid}",
    "bid_forbidden": (
        "the uneven-bids rule forbids bidding {bid}: the bids would add up to {tricks}, the "
        "tricks of this round"
    ),
    "bid_forbidden_canadian": (
        "the Canadian rule forbids bidding {bid} (you lead alone): the bids would add up to "
        "{tricks}, the tricks of this round"
    ),
    # Cards and trump (R2.2, R3.3, R5.3)
    "card_not_held": "{player} does not hold {card}",
    "must_follow_suit": "{player} must follow suit {suit} (or play a Wizard or a Jester): "
    "they hold {card}",
    "not_a_suit": "trump must be one of the suits B, R, G, Y, not {suit}",
    # Deals, as records supply them (R1, R2, R3, R7.7)
    "not_the_seeded_deal": "this game deals from its seed; that is not the deal of round {round}",
    "no_such_round": "a game of {players} players has {rounds} rounds, not {round}",
    "hands_for_players": "{hands} hands dealt for {players} players",
    "hand_size": "seat {seat} was dealt a hand of {count}; hands in round {round} hold {deals}",
    "not_a_card": "{card} is not a card",
    "turned_in_single_suit": "no card is turned up in the single-suit game",
    "wrong_single_suit_deck": "seat {seat} draws from the {suit} deck, which has {copies} {card}",
    "card_must_be_turned": "round {round} leaves cards in the pile, so one must be turned up",
    "nothing_to_turn": "no card is left to turn up in the last round",
    "card_dealt_too_often": "{card} is dealt {count} times; the deck holds {copies} of it",
}
"""Every refusal code of the engine and its English template (``{param}`` placeholders)."""


def english(code: str, params: Mapping[str, Param]) -> str:
    """The English sentence of ``code`` with ``params`` (the code itself if it is unknown)."""
    template = MESSAGES.get(code)
    if template is None:
        return code
    return template.format_map(_Missing(params))


class _Missing(dict[str, Param]):
    """Params for ``format_map``: a missing one shows as its name instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class WizardError(Exception):
    """Base class of every error the engine raises on purpose."""


class RuleError(WizardError):
    """Something breaks a rule of RULES.md: ``rule`` is its id, ``code`` and ``params`` say
    what (stable, for front ends), ``message`` says it in English (from :data:`MESSAGES`).

    ``RuleError(rule, code, **params)``; a second argument that is not a code is taken as a
    ready English message, with the class's :attr:`default_code` and no params.
    """

    default_code: ClassVar[str] = "illegal_move"

    def __init__(self, rule: str, code: str, /, **params: Param) -> None:
        if code in MESSAGES:
            message = english(code, params)
        else:
            message, code, params = code, self.default_code, {}
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.code = code
        self.params: dict[str, Param] = dict(params)
        self.message = message


class OptionsError(RuleError):
    """A game cannot be set up with these options or this number of players (R2.1, R7.8)."""

    default_code = "invalid_options"


class IllegalActionError(RuleError):
    """An action that the rules do not allow in this state."""


class WrongPhaseError(IllegalActionError):
    """The action belongs to another phase of the game (e.g. a bid while cards are played)."""


class NotYourTurnError(IllegalActionError):
    """The seat that acted is not (one of) the seat(s) to act."""

    default_code = "not_your_turn"


class CardNotHeldError(IllegalActionError):
    """The card played is not in the player's hand."""


class MustFollowSuitError(IllegalActionError):
    """The player could follow suit and did not (R5.3)."""


class BidOutOfRangeError(IllegalActionError):
    """A bid outside 0..tricks of the round (R4.1)."""


class ForbiddenBidError(IllegalActionError):
    """A bid that the uneven-bids (R7.1) or Canadian (R7.5) rule forbids."""


class AlreadyBidError(IllegalActionError):
    """A player who has already bid this round bids again."""


class InvalidDealError(IllegalActionError):
    """A deal that does not fit the deck, the round or the seed (R1, R2, R7.7)."""


class TrumpError(IllegalActionError):
    """A trump that disagrees with the turned card, or a trump choice when none is due (R3)."""


class RecordError(WizardError):
    """A game record that cannot be read or replayed; says the round, the action and the rule."""

    def __init__(
        self,
        message: str,
        *,
        round: int | None = None,
        action: str | None = None,
        rule: str | None = None,
    ) -> None:
        where = []
        if round is not None:
            where.append(f"round {round}")
        if action is not None:
            where.append(action)
        prefix = ", ".join(where)
        text = message if not prefix else f"{prefix}: {message}"
        if rule is not None and not text.startswith(rule):
            text = f"{text} ({rule})"
        super().__init__(text)
        self.round = round
        self.action = action
        self.rule = rule
        self.message = message
