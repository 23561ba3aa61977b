"""Refusals of the game service: each one has a ``message`` fit to show the user who caused it.

Every refusal is raised before anything is written, so a refused call leaves the
database and the game exactly as they were.
"""

from __future__ import annotations

from typing import ClassVar

from wizard.errors import IllegalActionError
from wizard.errors import NotYourTurnError as EngineNotYourTurnError


def _sentence(text: str) -> str:
    """Engine messages are lower-case clauses; a reply to a user reads better as a sentence."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


class ServiceError(Exception):
    """Base of every refusal; ``message`` is for the user, ``code`` is stable for translations."""

    code: ClassVar[str] = "error"

    def __init__(self, message: str) -> None:
        self.message = _sentence(message)
        super().__init__(self.message)


class GameNotFoundError(ServiceError):
    """No game has this id (or it belongs to another shard of the bot)."""

    code = "game_not_found"

    def __init__(self, game_id: int, message: str | None = None) -> None:
        super().__init__(message or "That game does not exist any more")
        self.game_id = game_id


class GameStatusError(ServiceError):
    """The game is not in a stage where this can be done (not started, over, cancelled, broken)."""

    code = "game_status"

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status


class NotSeatedError(ServiceError):
    """The user has no seat in this game."""

    code = "not_seated"

    def __init__(self, message: str = "You are not playing in this game") -> None:
        super().__init__(message)


class AlreadySeatedError(ServiceError):
    """The user already has a seat in this game."""

    code = "already_seated"

    def __init__(self, message: str = "You are already in this game") -> None:
        super().__init__(message)


class LobbyFullError(ServiceError):
    """No seat is left in the lobby."""

    code = "lobby_full"


class NotHostError(ServiceError):
    """Only the host (or a server manager, where allowed) may do this."""

    code = "not_host"


class ChannelBusyError(ServiceError):
    """The channel already has as many open games as the server allows."""

    code = "channel_busy"

    def __init__(self, game_id: int, message: str) -> None:
        super().__init__(message)
        self.game_id = game_id


class SeatNotFoundError(ServiceError):
    """There is no such seat (or no such player) in the game."""

    code = "seat_not_found"


class NotEnoughPlayersError(ServiceError):
    """A game needs 3 to 6 seats to start (R2.1)."""

    code = "not_enough_players"


class InvalidOptionsError(ServiceError):
    """Game options that are malformed, out of range or that cannot be combined (R7.8)."""

    code = "invalid_options"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


class InvalidSettingsError(ServiceError):
    """Server settings or a timer value out of range."""

    code = "invalid_settings"


class StaleVersionError(ServiceError):
    """The click came from a surface that shows an earlier moment of the game."""

    code = "stale"

    def __init__(self, expected: int, current: int) -> None:
        super().__init__("This has moved on since that was shown: here is the game as it is now")
        self.expected = expected
        self.current = current


class IllegalMoveError(ServiceError):
    """The rules do not allow this move now; ``rule`` is the RULES.md id the engine named."""

    code = "illegal_move"

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule

    @classmethod
    def from_engine(cls, error: IllegalActionError) -> IllegalMoveError:
        """The service's refusal for an engine refusal, keeping its rule and message."""
        kind = NotYourTurnError if isinstance(error, EngineNotYourTurnError) else cls
        return kind(error.rule, error.message)


class NotYourTurnError(IllegalMoveError):
    """Another seat is to act."""

    code = "not_your_turn"


class NotAwayError(ServiceError):
    """Taking a seat back that no computer player is holding."""

    code = "not_away"


class StorageError(ServiceError):
    """The database refused a write; nothing of the call was applied."""

    code = "storage"

    def __init__(self, message: str = "The game could not be saved; please try again") -> None:
        super().__init__(message)


__all__ = [
    "AlreadySeatedError",
    "ChannelBusyError",
    "GameNotFoundError",
    "GameStatusError",
    "IllegalMoveError",
    "InvalidOptionsError",
    "InvalidSettingsError",
    "LobbyFullError",
    "NotAwayError",
    "NotEnoughPlayersError",
    "NotHostError",
    "NotSeatedError",
    "NotYourTurnError",
    "SeatNotFoundError",
    "ServiceError",
    "StaleVersionError",
    "StorageError",
]
