"""The engine's exceptions: every refusal names the rule it enforces."""

from __future__ import annotations


class WizardError(Exception):
    """Base class of every error the engine raises on purpose."""


class RuleError(WizardError):
    """Something breaks a rule of RULES.md; ``rule`` is its id, ``message`` says what in words."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class OptionsError(RuleError):
    """A game cannot be set up with these options or this number of players (R2.1, R7.8)."""


class IllegalActionError(RuleError):
    """An action that the rules do not allow in this state."""


class WrongPhaseError(IllegalActionError):
    """The action belongs to another phase of the game (e.g. a bid while cards are played)."""


class NotYourTurnError(IllegalActionError):
    """The seat that acted is not (one of) the seat(s) to act."""


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
