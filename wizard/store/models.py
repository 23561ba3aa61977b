"""Rows as read back from the database, each validated by a pydantic model.

A row that does not validate means the file was damaged or edited by hand: the
service marks that game broken rather than trusting it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Json,
    TypeAdapter,
    ValidationError,
)

from wizard.levels import known_level
from wizard.options import Options

GameStatusValue = Literal["lobby", "active", "finished", "cancelled", "broken"]
ActionKind = Literal["bid", "trump", "play"]


Level = Annotated[str, AfterValidator(known_level)]
"""A computer level the bot plays. Levels have only ever been added, so a stored one that is
not among them is damage, not the level of another version: the game is set aside."""


class Row(BaseModel):
    """Base of row models: immutable, no unknown columns dropped silently."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    @classmethod
    def columns(cls) -> str:
        """The table's columns this model holds, in the model's order."""
        return ", ".join(cls.model_fields)

    @classmethod
    def insert(cls, into: str) -> str:
        """``into`` (``INSERT INTO table``) with this model's columns and their placeholders."""
        return f"{into} ({cls.columns()}) VALUES ({', '.join('?' * len(cls.model_fields))})"

    def params(self) -> tuple[Any, ...]:
        """The row's values in :meth:`columns` order, as statement parameters."""
        return tuple(self.model_dump().values())


class GameRow(Row):
    """A row of ``games``."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: GameStatusValue
    options: Json[Options]
    seed: int
    version: int = Field(ge=0)
    turn_seconds: float | None
    deadline: float | None
    lobby_message_id: int | None
    table_message_id: int | None
    ping_message_id: int | None = None
    """The turn reminder in the channel, if any."""
    announced: int | None = None
    """Rounds whose summary the channel shows, while it is owed more (``None``: nothing)."""
    broken_reason: str | None
    created_at: float
    updated_at: float
    started_at: float | None
    finished_at: float | None
    seq: int = Field(ge=0)
    """Actions acknowledged (logged); the log must hold as many."""
    computer_turn: bool
    computer_level: Level | None = None
    """Level of the computers a lobby adds (``None``: the server's)."""


class SeatRow(Row):
    """A row of ``seats``; the defaults are those of a seat a lobby makes."""

    game_id: int
    seat: int = Field(ge=0, le=5)
    user_id: int | None
    name: str = Field(min_length=1)
    level: Level | None = None
    away: bool = False
    kicked: bool = False
    timeouts: int = Field(default=0, ge=0)


class SeatHolderRow(Row):
    """A row of ``seat_holders``: who holds a seat from an action index on (a person, or a
    computer of ``level``)."""

    game_id: int
    seat: int = Field(ge=0, le=5)
    from_action: int = Field(ge=0)
    user_id: int | None
    level: Level | None
    name: str = Field(min_length=1)


class ActionLogRow(NamedTuple):
    """The columns of an ``actions`` row needed to replay a game's log.

    A named tuple validated a whole log at a time (:data:`ACTION_LOG`): recovery
    reads every action of every unfinished game, and per-row models cost five
    times as much.
    """

    seq: Annotated[int, Field(ge=1)]
    seat: Annotated[int, Field(ge=0, le=5)]
    kind: ActionKind
    arg: str
    request_id: str | None
    version: int
    actor: Literal["player", "computer", "timeout"]
    user_id: int | None
    """Who made it: the seated user by a click, or a computer (for them)."""


ACTION_LOG: TypeAdapter[list[ActionLogRow]] = TypeAdapter(list[ActionLogRow])
"""Validates a game's log, as plain tuples from the database, in one call."""


class ResultRow(Row):
    """A row of ``results``: one seat's outcome of a finished game."""

    game_id: int
    seat: int
    user_id: int | None
    name: str
    score: int
    place: int = Field(ge=1)
    rounds: int
    exact_bids: int


class PlayerRow(Row):
    """A row of ``players``: a user's rating and statistics on one server."""

    guild_id: int
    user_id: int
    name: str
    mu: float
    sigma: float = Field(gt=0)
    rating: float
    games: int = Field(ge=0)
    wins: int = Field(ge=0)
    total_score: int
    best_score: int | None
    best_game_id: int | None
    bids: int = Field(ge=0)
    exact_bids: int = Field(ge=0)
    updated_at: float


def describe(error: ValidationError, *, leave_out: Collection[str] = ()) -> str:
    """A validation error of a row on one line (its first three problems), but for the fields in
    ``leave_out``."""
    parts = []
    items = [e for e in error.errors() if not (e["loc"] and e["loc"][0] in leave_out)]
    for item in items[:3]:
        where = ".".join(str(p) for p in item["loc"])
        parts.append(f"{where}: {item['msg']}" if where else item["msg"])
    return "; ".join(parts)
