"""Settings: per-server choices stored in the database, and the process-wide service config."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from wizard.cards import Theme
from wizard.options import Options
from wizard.store.db import BUSY_TIMEOUT
from wizard.store.models import Level, describe

MIN_TURN_SECONDS = 10.0
MAX_TURN_SECONDS = 24 * 3600.0
DEFAULT_TURN_SECONDS = 300.0
"""A new server's turn timer: long enough for any thinking, short enough that an idle
player does not stall the game for long (two timeouts in a row hand the seat to a computer)."""
MIN_LOBBY_SECONDS = 60.0
MAX_LOBBY_SECONDS = 7 * 24 * 3600.0


class GuildSettings(BaseModel):
    """What a server chooses for its games; stored as JSON in ``guild_settings``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    default_options: Options = Field(default_factory=Options)
    """Options a new lobby starts with; the host may change them."""
    turn_seconds: float | None = Field(
        default=DEFAULT_TURN_SECONDS, ge=MIN_TURN_SECONDS, le=MAX_TURN_SECONDS
    )
    """Per-turn time limit of new games; ``None`` for no limit. By default a generous one:
    without it, one player who walks away holds the others and the channel for ever."""
    lobby_seconds: float = Field(default=1800.0, ge=MIN_LOBBY_SECONDS, le=MAX_LOBBY_SECONDS)
    """A lobby not started within this time is cancelled."""
    max_timeouts: int = Field(default=2, ge=1, le=20)
    """Consecutive timeouts after which a computer takes the seat for the rest of the game."""
    games_per_channel: int = Field(default=1, ge=1, le=20)
    """Open games (lobby or running) allowed at once in one channel."""
    computer_level: Level = "normal"
    """Level of computer players added to lobbies and of those that take over seats (a
    lobby may choose its own). ``random`` is kept for tests and benchmarks only."""
    threads: bool = False
    """Each new game gets a thread of its own (the channel keeps one line per game)."""
    computers_on_boards: bool = False
    """Computer players (one line per level) appear on the leaderboards."""
    rated_min_games: int = Field(default=5, ge=1, le=100)
    """Games a player needs before the rating and average boards rank them, so that one
    lucky game does not top a board."""
    language: str = "en"
    """Language of the public messages (lobby, table, summaries): one of :attr:`LANGUAGES`.
    Until a server saves settings, the language it speaks on Discord when the bot has it
    (``GameService.set_home_language``)."""
    theme: Theme = Theme.CLASSIC
    """How cards look: the classic colour codes, or a standard deck's suits (R1.5)."""
    hints_allowed: bool = False
    """Players may ask what the ``normal`` computer would do in their place
    (``GameService.hint``); a game in which a hint was used is not rated."""

    LANGUAGES: ClassVar[tuple[str, ...]] = ("en", "de", "it", "es", "pt", "ca")
    """Language codes with a catalogue (the bot's translation layer has the same list; the
    service keeps its own so that it never imports the bot)."""
    USER_LEVELS: ClassVar[tuple[str, ...]] = ("easy", "normal")
    """Computer levels offered to people. ``hard`` is not among them: in duplicate matches on
    fresh deals it has not beaten ``normal`` at any table size (docs/ai-strength.md), so it
    would promise a strength it does not have; ``random`` only plays well enough for tests.
    The service still plays any level of ``wizard.levels.LEVELS`` it is given."""

    @field_validator("language")
    @classmethod
    def _known_language(cls, value: str) -> str:
        code = value.strip().lower()
        if code not in cls.LANGUAGES:
            raise ValueError(
                f"unknown language {value!r}; choose one of {', '.join(cls.LANGUAGES)}"
            )
        return code


class StoredSettings(NamedTuple):
    """A server's settings as read from their row, each good setting kept when others are
    not (see :func:`read_settings`)."""

    settings: GuildSettings
    ignored: tuple[str, ...]
    """The stored settings that were left out: unknown here, or not valid."""
    unknown: dict[str, Any]
    """Stored settings this version does not know (a newer one wrote them): kept in the row
    when the server changes another setting."""


def read_settings(stored: str | bytes, base: GuildSettings) -> StoredSettings:
    """A server's stored settings (JSON) over ``base``, the defaults. One setting that is not
    valid (out of range, or damaged) or not known here leaves the others as saved; a row
    that is not a JSON object gives ``base``."""
    try:
        return StoredSettings(GuildSettings.model_validate_json(stored), (), {})
    except ValidationError:
        pass
    try:
        data = json.loads(stored)
    except ValueError:  # not JSON, or not UTF-8
        data = None
    if not isinstance(data, dict):
        return StoredSettings(base, ("all (the row is not a JSON object)",), {})
    kept = base.model_dump()
    ignored = []
    unknown = {}
    for name, value in data.items():
        if name not in GuildSettings.model_fields:
            unknown[name] = value
            ignored.append(name)
            continue
        try:
            GuildSettings.model_validate({**kept, name: value})
        except ValidationError:
            ignored.append(name)
        else:
            kept[name] = value
    return StoredSettings(GuildSettings.model_validate(kept), tuple(ignored), unknown)


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """Process-wide knobs of the service (not per server)."""

    computer_delay: float = 1.0
    """Seconds a computer seat waits before it moves, so that people can follow the table."""
    inline_levels: frozenset[str] = frozenset({"random", "easy"})
    """Computer levels cheap enough (well under a millisecond) to run on the event loop."""
    ai_processes: int = 1
    """Worker processes for the other levels. A search holds the GIL for up to 0.4 s, which
    in a thread would slow every other game's clicks; 0 runs them in a thread instead."""
    ai_deadline: float = 3.0
    """Seconds a worker has for one decision; past it the heuristic (``easy``) decides and
    the worker is replaced (see ``wizard.service.workers``). Above the search's own 2 s
    safety net (``wizard.ai.search.SAFETY_LIMIT``), so only a stuck worker meets it."""
    busy_timeout: float = BUSY_TIMEOUT
    """Seconds a write waits for another process's write lock before the call is refused
    with ``busy`` ("try again"), however many writes are queued (see ``wizard.store.db``)."""


def damaged_settings_rows(conn: sqlite3.Connection) -> list[str]:
    """Every server's stored settings that fail validation, as ``server G: reason`` (the
    service keeps the valid ones and reads the others as their defaults, with a warning).
    A setting this version does not know is no damage: a newer version saved it, and it is
    kept for that one (see :func:`read_settings`)."""
    out = []
    for guild_id, stored in conn.execute(
        "SELECT guild_id, settings FROM guild_settings ORDER BY guild_id"
    ):
        try:
            GuildSettings.model_validate_json(stored)
            continue
        except ValidationError as error:
            found = read_settings(stored, GuildSettings())
            if set(found.ignored) <= found.unknown.keys():
                continue  # only settings of a newer version
            out.append(f"server {guild_id}: {describe(error, leave_out=found.unknown)}")
    return out
