"""Refusals of the game service: a stable ``code``, its ``params``, and an English ``message``.

Every refusal is raised before anything is written, so a refused call leaves the database
and the game exactly as they were. A front end renders a refusal from ``code`` and
``params`` in the reader's language; ``message`` is the English sentence derived from the
same two through :data:`MESSAGES`: the template keyed ``code.v1.v2`` (the values of the
code's :data:`VARIANTS` params, in order), else the shorter keys down to ``code`` alone.
A caller may give a sentence of its own instead (``message=``); code and params stay.

==================  ==========================================================================
code                params (``*`` = variant param: picks the sentence)
==================  ==========================================================================
game_not_found      game_id; reason* (``unknown``, ``other_process``, ``not_in_history``)
game_status         game_id; status* (``lobby``, ``active``, ``finished``, ``cancelled``);
                    action* (``play``, ``join``, ``record``, ``view``, ``change``)
game_damaged        game_id; reason (the operator's text, English)
not_seated          reason* (``not_in_game``, ``kicked``, ``not_in_lobby``, ``other_seat``,
                    ``away``, ``removed_from_lobby``, ``removed`` (from the lobby or
                    the running game: no seat of it), ``seat_taken`` with the ``name``
                    of the person who took over the seat the user left, ``own_seat_only``
                    with the ``seat`` (1-based) the user played, the one they may take)
already_seated      (none)
lobby_full          limit; reason* (``players``, ``single_suit``)
not_host            host (name, or None); action* (``start``, ``cancel``, ``add_computer``,
                    ``change_level``, ``remove_players``, ``remove_seats``, ``remove_computer``,
                    ``change_options``, ``change_timer``, ``remove_host``)
channel_busy        game_id, open (games open now); limit*
seat_not_found      reason* (``player``, ``lobby_player``, ``seat``); seat (1-based, or None)
not_enough_players  players, min, max
invalid_options     detail (English), rule (RULES id or None); or the engine error's
                    code and params (e.g. R7.8's conflicts; then the attribute
                    ``conflicts`` holds every clash, each an ``InvalidOptionsError``)
invalid_settings    setting* (``settings``, ``seed``, ``turn_seconds``, ``computer_level``,
                    ``leaderboard_order``, ``page_size``, ``history_size``); detail, min, max
stale               expected, current (versions)
illegal_move        rule; reason* (``cards_visible``, ``not_a_move``); or the engine
                    error's code and params (e.g. ``must_follow_suit`` with ``suit``)
not_your_turn       rule, player; or the engine error's code and params
not_away            (none)
seat_taking_off     seat (1-based): the host has not allowed taking computer seats
seat_held           seat (1-based), name: a person plays that seat
hints_off           (none): the server does not allow hints
last_person         (none): leaving would stop the game (``leave(may_stop=False)``)
storage             reason* (``write_failed``, ``read_failed``, ``closing``)
busy                seconds (the busy timeout)
==================  ==========================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

Param = str | int | float | None
Params = dict[str, Param]

MESSAGES: dict[str, str] = {
    "game_not_found": "That game does not exist any more",
    "game_not_found.other_process": "That game is handled by another bot process",
    "game_not_found.not_in_history": "That game is not in this server's history",
    "game_status": "This game cannot do that now",
    "game_status.lobby": "The game has not started yet",
    "game_status.active": "The game has already started",
    "game_status.active.record": "The record is available once the game is over",
    "game_status.lobby.record": "The record is available once the game is over",
    "game_status.cancelled.record": "This game was never played",
    "game_status.finished": "This game is over",
    "game_status.cancelled": "This game was cancelled",
    "game_damaged": "This game's stored data is damaged, so it has been stopped;"
    " the bot's operator has been told",
    "not_seated": "You are not playing in this game",
    "not_seated.kicked": "You were removed from this game",
    "not_seated.removed": "You were removed from this game, so you cannot play in it",
    "not_seated.not_in_lobby": "You are not in this lobby",
    "not_seated.removed_from_lobby": "You were removed from this lobby, so you cannot join it"
    " again",
    "not_seated.other_seat": "That move is for another seat",
    "not_seated.seat_taken": "{name} took over your seat in this game",
    "not_seated.own_seat_only": "You played seat {seat} of this game: it is the only one you"
    " may take",
    "already_seated": "You are already in this game",
    "lobby_full": "This game is full: {limit} players",
    "lobby_full.single_suit": "This game is full: {limit} players (single suit is for 3 or 4"
    " players)",
    "not_host": "Only the host can do that",
    "not_host.start": "Only the host ({host}) can start the game",
    "not_host.cancel": "Only the host or a server manager can cancel this game",
    "not_host.add_computer": "Only the host ({host}) can add computer players",
    "not_host.change_level": "Only the host ({host}) can change a computer player's level",
    "not_host.remove_players": "Only the host ({host}) can remove players",
    "not_host.remove_seats": "Only the host ({host}) can remove seats",
    "not_host.remove_computer": "Only the host ({host}) can remove computer players",
    "not_host.change_options": "Only the host ({host}) can change the options",
    "not_host.change_timer": "Only the host ({host}) can change the turn timer",
    "not_host.remove_host": "The host cannot be removed; the host can leave or cancel",
    "channel_busy": "This channel already has {open} open games",
    "channel_busy.1": "There is already a game in this channel",
    "seat_not_found": "That player is not in this game",
    "seat_not_found.lobby_player": "That player is not in this lobby",
    "seat_not_found.seat": "There is no seat {seat} in this lobby",
    "not_enough_players": "Wizard needs {min} to {max} players; this game has {players}:"
    " invite someone or add a computer player",
    "invalid_options": "Those options cannot be used: {detail}",
    "invalid_settings": "That setting is not valid: {detail}",
    "invalid_settings.seed": "A game seed is a whole number from 0 to 2^63 − 1",
    "invalid_settings.turn_seconds": "A turn timer is {min} to {max} seconds",
    "invalid_settings.leaderboard_order": "Unknown leaderboard order: use rating, wins or average",
    "invalid_settings.page_size": "A leaderboard page has {min} to {max} lines",
    "invalid_settings.history_size": "A history page has {min} to {max} games",
    "stale": "This has moved on since that was shown: here is the game as it is now",
    "illegal_move": "That move is not allowed",
    "illegal_move.cards_visible": "You can see your cards: choose one to play",
    "not_your_turn": "It is not your turn",
    "not_away": "You are already playing your seat",
    "not_seated.away": "A computer is playing your seat: take it back first",
    "seat_taking_off": "The host has not allowed taking over computer seats in this game",
    "seat_held": "Seat {seat} is played by {name}, not by a computer",
    "hints_off": "Hints are not allowed on this server",
    "last_person": "You are the last person playing: if you leave, the game stops"
    " and no result is recorded",
    "storage": "The game could not be saved; please try again",
    "storage.read_failed": "The game could not be read just now; please try again",
    "storage.closing": "The game service is shutting down",
    "busy": "The game's database is busy; please try again in a moment",
}
"""English templates of the service's refusals (see the module docstring for the keys)."""

VARIANTS: dict[str, tuple[str, ...]] = {
    "game_not_found": ("reason",),
    "game_status": ("status", "action"),
    "not_seated": ("reason",),
    "lobby_full": ("reason",),
    "not_host": ("action",),
    "channel_busy": ("limit",),
    "seat_not_found": ("reason",),
    "invalid_settings": ("setting",),
    "illegal_move": ("reason",),
    "storage": ("reason",),
}
"""The params of a code whose values pick its sentence, most significant first."""


def render(code: str, params: Params) -> str:
    """The English sentence of a refusal: its most specific template, filled in."""
    keys = [str(params.get(p)) for p in VARIANTS.get(code, ())]
    known = {name: value for name, value in params.items() if value is not None}
    for n in range(len(keys), -1, -1):
        template = MESSAGES.get(".".join([code, *keys[:n]]))
        if template is not None:
            try:
                return _sentence(template.format(**known))
            except KeyError:
                continue  # it names a param not given (or None): a less specific one
    return _sentence(code.replace("_", " "))


def _sentence(text: str) -> str:
    """Engine messages are lower-case clauses; a reply to a user reads better as a sentence."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


class ServiceError(Exception):
    """Base of every refusal: a stable ``code``, its ``params`` and the English ``message``."""

    code: ClassVar[str] = "error"
    defaults: ClassVar[Params] = {}
    """Params a refusal of this kind has unless given (e.g. its usual ``reason``)."""

    def __init__(self, message: str | None = None, **params: Param) -> None:
        params = {**self.defaults, **params}
        self.params: Params = params
        self.message = _sentence(message) if message else render(self.code, params)
        super().__init__(self.message)

    def _adopt(self, error: object) -> None:
        """Carry an engine refusal whole (``wizard.errors``): its code and params, if any,
        so that a front end renders it as the engine's own."""
        self.code = getattr(error, "code", self.code)  # type: ignore[misc]
        raw: Any = getattr(error, "params", None)
        if isinstance(raw, dict) and raw:
            self.params = {
                str(k): v if v is None or isinstance(v, str | int | float) else str(v)
                for k, v in raw.items()
            }


class GameNotFoundError(ServiceError):
    """No game has this id (or it belongs to another shard of the bot)."""

    code = "game_not_found"

    def __init__(self, game_id: int, *, reason: str = "unknown") -> None:
        super().__init__(None, game_id=game_id, reason=reason)


class GameStatusError(ServiceError):
    """The game is not in a stage where this can be done (not started, over, cancelled)."""

    code = "game_status"

    def __init__(
        self,
        status: str,
        message: str | None = None,
        *,
        action: str = "play",
        game_id: int | None = None,
    ) -> None:
        super().__init__(message, game_id=game_id, status=status, action=action)


class GameDamagedError(GameStatusError):
    """The game's stored data is damaged: it is quarantined and refused to everyone."""

    code = "game_damaged"

    def __init__(self, game_id: int, reason: str) -> None:
        ServiceError.__init__(self, None, game_id=game_id, reason=reason)


class NotSeatedError(ServiceError):
    """The user has no seat in this game."""

    code = "not_seated"
    defaults: ClassVar[Params] = {"reason": "not_in_game"}


class AlreadySeatedError(ServiceError):
    """The user already has a seat in this game."""

    code = "already_seated"


class LobbyFullError(ServiceError):
    """No seat is left in the lobby."""

    code = "lobby_full"


class NotHostError(ServiceError):
    """Only the host (or a server manager, where allowed) may do this."""

    code = "not_host"


class ChannelBusyError(ServiceError):
    """The channel already has as many open games as the server allows."""

    code = "channel_busy"


class SeatNotFoundError(ServiceError):
    """There is no such seat (or no such player) in the game."""

    code = "seat_not_found"


class NotEnoughPlayersError(ServiceError):
    """A game needs 3 to 6 seats to start (R2.1)."""

    code = "not_enough_players"


class InvalidOptionsError(ServiceError):
    """Game options that are malformed, out of range or that cannot be combined (R7.8)."""

    code = "invalid_options"

    def __init__(self, message: str, rule: str | None = None, **params: Param) -> None:
        super().__init__(message, detail=message, rule=rule, **params)
        self.rule = rule
        self.conflicts: tuple[InvalidOptionsError, ...] = ()
        """Every pair of variants that cannot be played together, when that is the refusal
        (the first is the refusal itself): a front end names them all at once, so that one
        try shows everything to mend."""

    @classmethod
    def from_engine(cls, error: Any) -> InvalidOptionsError:
        """The refusal for an engine ``OptionsError``, with its code and params if it has them."""
        made = cls(error.message, error.rule)
        made._adopt(error)
        return made

    @classmethod
    def from_conflicts(cls, found: Sequence[Any]) -> InvalidOptionsError:
        """The refusal of options that clash (R7.8), from the engine's ``conflicts``: the
        first conflict, carrying every one."""
        each = tuple(cls.from_engine(error) for error in found)
        made = cls.from_engine(found[0])
        made.conflicts = each
        return made


class InvalidSettingsError(ServiceError):
    """Server settings or a timer value out of range."""

    code = "invalid_settings"


class StaleVersionError(ServiceError):
    """The click came from a surface that shows an earlier moment of the game."""

    code = "stale"

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(None, expected=expected, current=current)


class IllegalMoveError(ServiceError):
    """The rules do not allow this move now; ``rule`` is the RULES.md id the engine named."""

    code = "illegal_move"

    def __init__(self, rule: str, message: str | None = None, **params: Param) -> None:
        super().__init__(message, rule=rule, **params)
        self.rule = rule

    @classmethod
    def from_engine(cls, error: Any) -> IllegalMoveError:
        """The service's refusal for an engine refusal: its rule, message, code and params."""
        from wizard.errors import NotYourTurnError as EngineNotYourTurnError

        kind = NotYourTurnError if isinstance(error, EngineNotYourTurnError) else cls
        made = kind(error.rule, error.message)
        made._adopt(error)
        return made


class NotYourTurnError(IllegalMoveError):
    """Another seat is to act."""

    code = "not_your_turn"


class NotAwayError(ServiceError):
    """Taking a seat back that no computer player is holding."""

    code = "not_away"


class SeatTakingOffError(ServiceError):
    """Taking over a computer's seat, in a game whose host has not allowed it."""

    code = "seat_taking_off"


class SeatHeldError(ServiceError):
    """Taking over a seat that a person plays."""

    code = "seat_held"


class HintsOffError(ServiceError):
    """Asking for a hint on a server that does not allow them."""

    code = "hints_off"


class LastPersonError(ServiceError):
    """Leaving, asked not to stop the game (``leave(may_stop=False)``), by the last person
    who plays it: with no person left the game would stop, with no result."""

    code = "last_person"


class StorageError(ServiceError):
    """The database refused a write, or a read that may succeed again; nothing of the call
    was applied."""

    code = "storage"
    defaults: ClassVar[Params] = {"reason": "write_failed"}


class BusyError(ServiceError):
    """Another process held the database's write lock for longer than the busy timeout;
    nothing of the call was applied: try again."""

    code = "busy"
