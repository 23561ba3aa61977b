"""The game service: the only writer of Wizard games, and all a front end calls.

Open it with ``service = await GameService.open(path)`` (creates and migrates the
database, arms the clocks of unfinished games, which load on first use; a file that
cannot be used raises ``wizard.store.DatabaseUnavailable``), subscribe listeners, then
``service.start_clocks()``
to run the clocks (lobby expiry, turn timers, computer turns). Close with
``await service.close()``.

Lobby (return :class:`GameInfo`): ``create_game``, ``join``, ``leave`` (``may_stop=False``
asks first when the last person would stop the game), ``kick``, ``add_computer``,
``remove_computer``, ``remove_seat``, ``set_options``, ``set_turn_timer``, ``cancel``,
``set_message_ids``; ``start`` returns a :class:`GameUpdate`, and ``cancel_games_in`` (a
deleted channel or thread, a server the bot left) the updates of the games it cancelled.
``check_options`` and ``check_turn_seconds`` refuse options and turn timers as all of these
do, before a front end makes anything.

Play (return :class:`GameUpdate`): ``act(game_id, user_id, move, expected_version,
request_id=...)`` with a :data:`Move` (``PlayCard``, ``MakeBid``, ``NameTrump``,
``PlayHiddenCard`` for clairvoyance) or an engine action of the user's seat;
``take_seat(game_id, user_id, seat=..., name=...)`` to take over a computer's seat (when the
host allows it: ``set_seat_taking``) or, without a seat, to take one's own back (``take_back``);
``hint(game_id, user_id)`` (a :class:`Hint`, where the server allows hints);
``run_computer_turns`` and ``run_due``
to drive computer moves and timeouts by hand (tests, or a front end without clocks).

Queries: ``get_game`` (its ``table`` once started), ``game_in_channel``,
``games_in_channel``, ``seat_view`` (private :class:`SeatView` with the version for buttons),
``game_record`` (RULES §9 JSON of a finished game), ``seat_history`` (who held each seat from
which action: :class:`SeatHolder`), ``recent_games`` (a server's history,
:class:`GameSummary`); boards (``wizard.service.boards``): ``board`` (with the reader's own
rank), ``player_card``, ``finished_game``; settings: ``get_settings``, ``update_settings``;
open hands: ``keep_open_hand``, ``open_hands`` (a front end's private messages, kept for the
next process).

Background updates (computer moves, timeouts, hand-overs, lobby expiry) go to the
listeners given to ``subscribe``; every event is public information (RULES §8.1).
Every refusal is a :class:`ServiceError` with a stable ``code``, its ``params`` and the
English ``message`` derived from them (``MESSAGES`` and its table in ``wizard.service.errors``);
nothing is written when a call is refused. ``damaged_games()`` lists quarantined games.
"""

from wizard.service.base import check_options, check_turn_seconds
from wizard.service.clock import Clock, TimerHandle, VirtualClock
from wizard.service.core import GameService, GuildFilter
from wizard.service.errors import (
    AlreadySeatedError,
    BusyError,
    ChannelBusyError,
    GameDamagedError,
    GameNotFoundError,
    GameStatusError,
    HintsOffError,
    IllegalMoveError,
    InvalidOptionsError,
    InvalidSettingsError,
    LastPersonError,
    LobbyFullError,
    NotAwayError,
    NotEnoughPlayersError,
    NotHostError,
    NotSeatedError,
    NotYourTurnError,
    SeatHeldError,
    SeatNotFoundError,
    SeatTakingOffError,
    ServiceError,
    StaleVersionError,
    StorageError,
)
from wizard.service.events import (
    Actor,
    BidMade,
    BidsRevealed,
    CardPlayed,
    Event,
    GameCancelled,
    GameOver,
    GameStarted,
    GameStatus,
    GameUpdate,
    HostPassed,
    PlayerTimedOut,
    RoundDealt,
    RoundScored,
    SeatHandedToComputer,
    SeatTakenBack,
    SeatTakenOver,
    TrickWon,
    TrumpChosen,
    TurnChanged,
)
from wizard.service.game import GameInfo, SeatInfo, SeatView
from wizard.service.moves import MakeBid, Move, NameTrump, PlayCard, PlayHiddenCard
from wizard.service.settings import GuildSettings, ServiceConfig
from wizard.service.types import (
    GameSummary,
    Hint,
    LeaderboardOrder,
    OpenHand,
    RecoveryReport,
    SeatHolder,
)
from wizard.view import TableView

__all__ = [
    "Actor",
    "AlreadySeatedError",
    "BidMade",
    "BidsRevealed",
    "BusyError",
    "CardPlayed",
    "ChannelBusyError",
    "Clock",
    "Event",
    "GameCancelled",
    "GameDamagedError",
    "GameInfo",
    "GameNotFoundError",
    "GameOver",
    "GameService",
    "GameStarted",
    "GameStatus",
    "GameStatusError",
    "GameSummary",
    "GameUpdate",
    "GuildFilter",
    "GuildSettings",
    "Hint",
    "HintsOffError",
    "HostPassed",
    "IllegalMoveError",
    "InvalidOptionsError",
    "InvalidSettingsError",
    "LastPersonError",
    "LeaderboardOrder",
    "LobbyFullError",
    "MakeBid",
    "Move",
    "NameTrump",
    "NotAwayError",
    "NotEnoughPlayersError",
    "NotHostError",
    "NotSeatedError",
    "NotYourTurnError",
    "OpenHand",
    "PlayCard",
    "PlayHiddenCard",
    "PlayerTimedOut",
    "RecoveryReport",
    "RoundDealt",
    "RoundScored",
    "SeatHandedToComputer",
    "SeatHeldError",
    "SeatHolder",
    "SeatInfo",
    "SeatNotFoundError",
    "SeatTakenBack",
    "SeatTakenOver",
    "SeatTakingOffError",
    "SeatView",
    "ServiceConfig",
    "ServiceError",
    "StaleVersionError",
    "StorageError",
    "TableView",
    "TimerHandle",
    "TrickWon",
    "TrumpChosen",
    "TurnChanged",
    "VirtualClock",
    "check_options",
    "check_turn_seconds",
]
