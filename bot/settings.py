"""Settings of the bot, read from the environment and a ``.env`` file by pydantic-settings.

Environment variables win over the ``.env`` file. The token is a ``SecretStr``: it shows as
``**********`` in ``repr``, ``str`` and JSON dumps, and only :meth:`Settings.token_value`
reveals it, for the one call that logs in.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Final, Literal, Self

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import (
    BaseSettings,
    DotEnvSettingsSource,
    EnvSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)
from pydantic_settings import SettingsError as SourceError

from wizard.store.db import closed_folder

PROJECT_ROOT = Path(__file__).resolve().parent.parent
"""The directory that holds ``bot/``, ``wizard/`` and, usually, ``.env``."""

TOKEN_HELP = (
    "Get a token in the Discord Developer Portal: https://discord.com/developers/applications "
    "→ Applications → your app → Bot → Reset Token."
)
"""Where someone who has no token yet gets one."""


def token_place(environ: Mapping[str, str] | None = None) -> str:
    """Where to put the token, given the ``.env`` file these settings read (if any)."""
    env = os.environ if environ is None else environ
    if env.get(ENV_FILE_VARIABLE, "x").strip() == "":
        return (
            f"No .env file is read here ({ENV_FILE_VARIABLE} is empty, as in the Docker image):"
            " set DISCORD_TOKEN in the environment, e.g. docker run --env-file .env or"
            " -e DISCORD_TOKEN=<your token>"
        )
    path = env_file(env)
    if path is not None:
        return (
            # QA operator: "has no DISCORD_TOKEN" beside the empty line .env.example has.
            f"{path} gives DISCORD_TOKEN no value: fill in (or add) the line"
            " DISCORD_TOKEN=... there, or set DISCORD_TOKEN in the environment."
        )
    return (
        "Put it in a file named .env next to the project (copy .env.example and fill in"
        " DISCORD_TOKEN=...), or set DISCORD_TOKEN in the environment."
    )


LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]

ENV_NAMES: dict[str, str] = {
    "discord_token": "DISCORD_TOKEN",
    "database_path": "DATABASE_PATH",
    "log_level": "LOG_LEVEL",
    "dev_guild_id": "DEV_GUILD_ID",
    "shard_count": "SHARD_COUNT",
    "shard_ids": "SHARD_IDS",
    "computer_delay_seconds": "COMPUTER_DELAY_SECONDS",
}
"""Field name → environment variable."""


SNOWFLAKE_MAX = 2**64 - 1
"""The largest Discord ID: a snowflake is an unsigned 64-bit number."""

SERVER_ID_HELP = (
    f"must be a Discord server ID, a whole number from 1 to {SNOWFLAKE_MAX} (turn on "
    "Developer Mode in Discord's settings, then right-click the server → Copy Server ID)"
)
"""What a bad ``DEV_GUILD_ID`` is told, whatever pydantic found wrong with it."""


ENV_FILE_VARIABLE = "WIZARD_ENV_FILE"
"""Names the ``.env`` file to read instead of the default one; empty: read none."""


def folder_not_file(written: str) -> str:
    """Why a database path that ends in a slash is refused: it names a folder."""
    return f"{written} ends in /, so it names a folder: name the file, e.g. {written}wizard.db"


class SettingsError(Exception):
    """Settings that cannot be used; the message names the variables and never shows values."""


class Settings(BaseSettings):
    """Everything the bot reads from its environment.

    ``Settings(...)`` in code holds exactly what it is given (the demo builds one that must
    not pick up a developer's token); :meth:`load` reads the environment and ``.env``.
    """

    model_config = SettingsConfigDict(frozen=True, extra="forbid", env_ignore_empty=True)

    discord_token: SecretStr | None = None
    """DISCORD_TOKEN: the bot token. Optional here so that the model loads without it;
    ``python -m bot`` refuses to connect when it is missing."""
    database_path: Path = Path("data/wizard.db")
    """DATABASE_PATH: the SQLite file (created with its directory on first start)."""
    log_level: LogLevel = "INFO"
    """LOG_LEVEL: DEBUG, INFO, WARNING, ERROR or CRITICAL."""
    dev_guild_id: int | None = Field(default=None, ge=1, le=SNOWFLAKE_MAX)
    """DEV_GUILD_ID: a server whose slash commands are synced instantly (for development);
    a Discord ID (a snowflake), so 1 to 2**64 - 1: anything else is no server."""
    shard_count: int | None = Field(default=None, ge=1, le=10_000)
    """SHARD_COUNT: total shards across all processes; unset lets Discord recommend one.
    Bounded (Discord's largest bots run a few thousand) so that a slip of the keyboard is
    refused, not a process opening a lock file per shard until it runs out."""
    # NoDecode: "0,1" is the documented form, not the JSON list pydantic-settings expects.
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    """SHARD_IDS: the shards this process runs, e.g. ``0,1``; needs SHARD_COUNT."""
    computer_delay_seconds: float = Field(default=1.0, ge=0.0, le=30.0, allow_inf_nan=False)
    """COMPUTER_DELAY_SECONDS: pause before a computer player's move, so humans can follow
    (the game service's ``ServiceConfig.computer_delay``)."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only what the constructor is given; :meth:`load` adds the environment and .env."""
        return (init_settings,)

    @model_validator(mode="before")
    @classmethod
    def _plain_values(cls, data: Any) -> Any:
        # "DEV_GUILD_ID=" and "DISCORD_TOKEN=  " in .env mean "not set", as .env.example says.
        if not isinstance(data, dict):
            return data
        stripped = {k: v.strip() if isinstance(v, str) else v for k, v in data.items()}
        # .env's quotes are read away with the file; these came through the environment.
        quoted = [ENV_NAMES.get(k, k) for k, v in stripped.items() if _in_quotes(v)]
        if quoted:
            raise ValueError(
                f"{', '.join(quoted)}: the value is in quotes, which would be part of it."
                " docker run --env-file passes quotes on as they are: write NAME=value"
                " there, without quotes"
            )
        return {k: v for k, v in stripped.items() if v != ""}

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value

    @field_validator("discord_token")
    @classmethod
    def _one_token(cls, value: SecretStr | None) -> SecretStr | None:
        # "Bot abc…" or two things pasted together: refused here, not by Discord at login.
        token = None if value is None else value.get_secret_value()
        if token is not None and _with_comment(token):
            raise ValueError(
                "a token holds no space: the # after one begins a comment, which is part of"
                " the value here: put the comment on a line of its own"
            )
        if token is not None and any(c.isspace() for c in token):
            raise ValueError(
                'a token holds no space: paste the token alone, without "Bot " before it'
            )
        return value

    @field_validator("database_path", mode="before")
    @classmethod
    def _written_out(cls, value: Any) -> Any:
        # QA: "~/wizard.db" in an env file made a folder named "~" beside the bot (docker
        # --env-file and systemd pass values on as written), which "rm -r ~" would take for
        # the home folder.
        if isinstance(value, str) and (value.startswith("~") or "$" in value):
            raise ValueError(
                "the path is used as written: ~ and $NAME are not expanded (docker --env-file "
                "and systemd pass them on as they are); write the full path, e.g. "
                "/home/me/wizard.db"
            )
        if isinstance(value, str) and value.endswith(("/", os.sep)):
            # Operator QA: a folder still to be made became a database file of its name.
            raise ValueError(folder_not_file(value))
        return value

    @field_validator("dev_guild_id", "shard_count", mode="before")
    @classmethod
    def _whole_number(cls, value: Any) -> Any:
        # Python's int() reads "2_0" as 20, and pydantic "2.0" as 2: a typo, not a count.
        if isinstance(value, str) and not re.fullmatch(r"[+-]?[0-9]+", value):
            raise ValueError("must be a whole number, written in digits only")
        return value

    @field_validator("computer_delay_seconds", mode="before")
    @classmethod
    def _plain_number(cls, value: Any) -> Any:
        if isinstance(value, str) and "_" in value:
            raise ValueError("must be a number of seconds, written without _")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: Any) -> Any:
        return _parse_ids(value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _check_shards(self) -> Self:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise _shards_error("SHARD_IDS needs SHARD_COUNT (the total number of shards)")
        if not self.shard_ids:
            raise _shards_error("SHARD_IDS must name at least one shard")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise _shards_error("SHARD_IDS must not repeat a shard")
        bad = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
        if bad:
            raise _shards_error(
                f"SHARD_IDS must be between 0 and SHARD_COUNT - 1 = {self.shard_count - 1}"
            )
        return self

    def token_value(self) -> str | None:
        """The token itself, for logging in; never print or log it."""
        return None if self.discord_token is None else self.discord_token.get_secret_value()

    def describe(self) -> list[str]:
        """The settings as ``NAME = value`` lines, with the token shown only as set or not set."""
        lines = []
        for field, env in ENV_NAMES.items():
            value: Any = getattr(self, field)
            if field == "discord_token":
                shown = "(not set)" if value is None else "(set, hidden)"
            elif value is None:
                shown = "(not set)"
            elif isinstance(value, tuple):
                shown = ",".join(str(v) for v in value)
            else:
                shown = str(value)
            lines.append(f"{env} = {shown}")
        return lines

    @classmethod
    def from_mapping(cls, values: Mapping[str, str]) -> Settings:
        """Settings from ``NAME -> text`` pairs; empty values count as unset.

        Raises :class:`SettingsError` naming the bad variables, without echoing any value.
        """
        fields = {field: values[env] for field, env in ENV_NAMES.items() if env in values}
        return cls._validated(fields)

    @classmethod
    def _validated(
        cls, fields: Mapping[str, Any], sources: Mapping[str, str] | None = None
    ) -> Settings:
        """``sources``: where each field's value was set, said after its refusal."""
        try:
            return cls(**fields)
        except ValidationError as error:
            raise SettingsError(_describe_errors(error, sources or {})) from None

    @classmethod
    def load(
        cls, environ: Mapping[str, str] | None = None, *, dotenv_path: Path | None = None
    ) -> Settings:
        """Settings from ``environ`` (default ``os.environ``) over the ``.env`` file.

        The ``.env`` file is ``dotenv_path`` if given, else the file named by the
        ``WIZARD_ENV_FILE`` variable (empty: read no file), else ``./.env``, else the
        project's. Variables already in the environment are never overridden by the file.
        """
        path = dotenv_path if dotenv_path is not None else env_file(environ)
        known = set(ENV_NAMES)
        fields: dict[str, Any] = {}
        try:
            if path is not None and path.is_file():
                fields.update((k, v) for k, v in _file_values(path).items() if k in known)
            environment = _environment_values(environ)
        except (SourceError, OSError, UnicodeDecodeError, _MalformedLines) as error:
            raise SettingsError(f"cannot read {path}: {_unreadable(error)}") from None
        # python-dotenv reads a comment away from .env; docker run --env-file and systemd
        # pass it on as part of the value (QA: a database file named "wizard.db  # …").
        commented = [ENV_NAMES[k] for k, v in environment.items() if _with_comment(v)]
        if commented:
            raise SettingsError(
                f"invalid settings: {', '.join(commented)}: the value holds a comment (a #"
                " after a space), which docker run --env-file and systemd keep as part of the"
                " value: put the comment on a line of its own"
            )
        # Said with a refusal (QA: a systemd unit's LOG_LEVEL=warn sent the operator to a
        # .env that was right).
        sources = {
            **dict.fromkeys(fields, str(path)),
            **dict.fromkeys(environment, "the environment"),
        }
        return cls._validated({**fields, **environment}, sources)


def env_file(environ: Mapping[str, str] | None = None) -> Path | None:
    """The ``.env`` file the settings are read from: the one ``WIZARD_ENV_FILE`` names
    (empty: none), else :func:`find_dotenv`'s. :class:`SettingsError` if it names no file."""
    env = os.environ if environ is None else environ
    if ENV_FILE_VARIABLE not in env:
        return find_dotenv()
    chosen = env[ENV_FILE_VARIABLE].strip()
    closed = closed_folder(Path(chosen)) if chosen else None
    if closed is not None:  # else looking at it raises PermissionError (QA: a traceback)
        raise SettingsError(
            f"{ENV_FILE_VARIABLE} names {chosen}, but this user may not enter {closed}: run"
            " the bot as a user who may, or change that folder's permissions"
        )
    if chosen and Path(chosen).is_dir():
        raise SettingsError(f"{ENV_FILE_VARIABLE} names a folder, not a file: {chosen}")
    if chosen and not Path(chosen).is_file():
        raise SettingsError(f"{ENV_FILE_VARIABLE} names no file: {chosen}")
    return Path(chosen) if chosen else None


def unread_names(path: Path | None) -> list[str]:
    """Names the ``.env`` file at ``path`` sets that are no setting of the bot (a typo such
    as ``DATABSE_PATH`` would otherwise leave the default in force without a word)."""
    return sorted(name.upper() for name in _written_values(path) if name not in ENV_NAMES)


def _written_values(path: Path | None) -> dict[str, Any]:
    """:func:`_file_values` of the ``.env`` file at ``path``; none when there is no such
    file or it cannot be read (:meth:`Settings.load` reports that)."""
    if path is None or not path.is_file():
        return {}
    try:
        return _file_values(path)
    except (SourceError, OSError, UnicodeDecodeError, _MalformedLines):
        return {}


def _environment_values(environ: Mapping[str, str] | None) -> dict[str, Any]:
    """The settings the environment sets, by field: ``environ``'s, or the process's (where
    an empty value counts as unset)."""
    if environ is None:
        return dict(EnvSettingsSource(Settings, env_ignore_empty=True)())
    return {field: environ[name] for field, name in ENV_NAMES.items() if name in environ}


def repeated_settings(path: Path | None) -> list[tuple[str, list[int]]]:
    """Settings the ``.env`` file at ``path`` sets more than once, each with the lines that
    set it (python-dotenv keeps the last without a word: operator QA)."""
    if path is None or not path.is_file():
        return []
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []  # reported by Settings.load
    lines: dict[str, list[int]] = {}
    # A byte order mark (Notepad's UTF-8) is no part of line 1, as python-dotenv reads it.
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        found = _SETS.match(line)
        name = found.group(2).upper() if found else ""
        if name in ENV_NAMES.values():
            lines.setdefault(name, []).append(number)
    return [(name, at) for name, at in lines.items() if len(at) > 1]


_SETS: Final = re.compile(
    r"""[^\S\n]*(?:export[^\S\n]+)?(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1[^\S\n]*(?:=|#|$)"""
)
"""A line of a ``.env`` file that sets a variable, as python-dotenv reads one: ``NAME=…``,
``export NAME = …``, ``'NAME'=…``, and a bare ``NAME``, which python-dotenv reads as no
value (it wipes one set before: review). Found by the line's start, with no parser of
python-dotenv's, whose module is not its public API; a line inside a quoted value of
several lines that reads like a setting is counted too."""


def overridden_settings(path: Path | None) -> list[str]:
    """Settings the process's environment sets to another value than the ``.env`` file at
    ``path`` does: the environment's is used (operator QA: an exported variable silently
    overrode the file being edited)."""
    written = _written_values(path)
    if not written:
        return []
    return [
        ENV_NAMES[field]
        for field, value in _environment_values(None).items()
        if field in written and str(written[field]) != str(value)
    ]


class _MalformedLines(ValueError):
    """Lines of a ``.env`` file that are no ``NAME=value`` statement."""

    def __init__(self, lines: list[int]) -> None:
        shown = ", ".join(str(n) for n in lines)
        super().__init__(
            f"line {shown} {'is' if len(lines) == 1 else 'are'} no NAME=value setting "
            "(an unclosed quote?)"
        )


def misspelt_environment(environ: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """Variables of the environment that look like a setting of the bot and are none, each
    with the setting it resembles (``DATABSE_PATH`` → ``DATABASE_PATH``): Docker and
    systemd pass settings only so, and a typo would leave the default in force."""
    env = os.environ if environ is None else environ
    known = list(ENV_NAMES.values())
    out = []
    for name in sorted(env):
        # A setting's name in another case is read as it (pydantic-settings reads names in
        # any case), so it is no typo (QA: "database_path" called ignored, and used).
        if name.upper() in known or name == ENV_FILE_VARIABLE:
            continue
        close = difflib.get_close_matches(name.upper(), known, n=1, cutoff=0.85)
        if close:
            out.append((name, close[0]))
        elif name.upper() in _OTHER_TOKEN_NAMES:
            out.append((name, "DISCORD_TOKEN"))
    return out


_OTHER_TOKEN_NAMES: Final = frozenset({"BOT_TOKEN", "TOKEN", "DISCORD_BOT_TOKEN"})
"""Names other bots read their token from (QA operator: BOT_TOKEN=… got no "did you mean
DISCORD_TOKEN?", too far from it to look like a typo)."""


def _file_values(path: Path) -> dict[str, Any]:
    """Every ``name: value`` of a ``.env`` file, names in lower case, the unknown included
    (the settings forbid extra fields, so the source keeps them).

    A line python-dotenv cannot parse is :class:`_MalformedLines`: it would skip it with a
    log warning and leave the default in force (``DISCORD_TOKEN="…`` with no closing quote
    reads as no token at all). The warning, python-dotenv's only report of it, is caught.
    """
    lines: list[int] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            arg = record.args[0] if isinstance(record.args, tuple) and record.args else 0
            lines.append(arg if isinstance(arg, int) else 0)

    logger = logging.getLogger("dotenv.main")
    handler, propagate = Catch(), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        values = dict(DotEnvSettingsSource(Settings, env_file=path, env_ignore_empty=True)())
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate
    if lines:
        raise _MalformedLines(lines)
    return values


def find_dotenv() -> Path | None:
    """The ``.env`` to read: in the working directory, else next to the project."""
    for candidate in _dotenv_candidates():
        if candidate.is_file():
            return candidate
    return None


def dotenv_folders(environ: Mapping[str, str] | None = None) -> list[Path]:
    """Folders named ``.env`` that :func:`find_dotenv` passes over before the file it reads
    (if any): a virtual environment is often named so, and Docker makes a folder of a
    ``.env`` it is told to mount and cannot find. Neither holds settings, so neither stops
    the bot; :func:`find_dotenv` reads on as if it were not there, and the operator is told
    (``python -m bot config``, the log at start). None when ``WIZARD_ENV_FILE`` is set:
    then that file is read, and :func:`env_file` refuses a folder."""
    env = os.environ if environ is None else environ
    if ENV_FILE_VARIABLE in env:
        return []
    folders = []
    for candidate in _dotenv_candidates():
        if candidate.is_file():
            break
        if candidate.is_dir():
            folders.append(candidate)
    return folders


def _dotenv_candidates() -> list[Path]:
    """Where a ``.env`` is looked for, in order, each place once; :class:`SettingsError`
    if this user may not look in one (QA: ``sudo -u wizard`` typed in /root ended in a
    traceback)."""
    here, project = Path.cwd() / ".env", PROJECT_ROOT / ".env"
    for candidate in (here, project):
        if not os.access(candidate.parent, os.X_OK):
            raise SettingsError(
                f"cannot look for .env in {candidate.parent}: this user may not enter it. "
                f"Start the bot from a folder it may enter, or name the file with "
                f"{ENV_FILE_VARIABLE} (empty: read none)"
            )
    return [here] if here.resolve() == project.resolve() else [here, project]


def _unreadable(error: Exception) -> str:
    """Why a ``.env`` file could not be read, for one line of an operator's terminal."""
    if isinstance(error, UnicodeDecodeError):
        return "it is not UTF-8 text; save it as UTF-8"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)


def _in_quotes(value: object) -> bool:
    """Whether a setting's text is wrapped in a pair of quotes.

    >>> _in_quotes('"/data/wizard.db"'), _in_quotes("it's"), _in_quotes('"')
    (True, False, False)
    """
    return isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] in "\"'"


def _with_comment(value: object) -> bool:
    """Whether a setting's text holds a comment after it, a ``#`` after a space.

    >>> _with_comment("/data/wizard.db  # on the volume"), _with_comment("/data/#1.db")
    (True, False)
    """
    return isinstance(value, str) and re.search(r"\s#", value) is not None


def _parse_ids(text: str) -> tuple[int, ...] | str:
    """``"0, 1"`` → ``(0, 1)``; anything unparsable is passed on for pydantic to refuse,
    an empty place too (a shard number left out).

    >>> _parse_ids("0, 1")
    (0, 1)
    >>> _parse_ids("zero")
    'zero'
    >>> _parse_ids("0,,1")
    '0,,1'
    >>> _parse_ids("-1")  # a number, refused as out of range (not as "not numbers")
    (-1,)
    """
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    if not all(re.fullmatch("-?[0-9]+", p) for p in parts):
        return text
    return tuple(int(p) for p in parts)


_SHARDS: Final = ("shard_ids", "shard_count")
"""The fields :meth:`Settings._check_shards` checks together."""


def _shards_error(message: str) -> PydanticCustomError:
    """A refusal of :data:`_SHARDS` together, which no one field carries: its type tells
    :func:`_describe_errors` to say where both were set."""
    return PydanticCustomError("shards", message)


def _describe_errors(error: ValidationError, sources: Mapping[str, str]) -> str:
    """One line per bad setting, naming the variable and where it was set (``sources``, by
    field); input values are left out on purpose."""
    lines = []
    for item in error.errors(include_input=False, include_url=False):
        loc = item.get("loc") or ()
        field = str(loc[0]) if loc else ""
        message = str(item.get("msg", "invalid value"))
        message = message.removeprefix("Value error, ")
        if field == "shard_ids" and "tuple" in message:
            message = "must be shard numbers separated by commas, e.g. 0,1"
        if field == "dev_guild_id":
            message = SERVER_ID_HELP
        if field in sources:
            message += f" (set in {sources[field]})"
        elif item["type"] == "shards":
            places = [f"{ENV_NAMES[f]} set in {sources[f]}" for f in _SHARDS if f in sources]
            message += f" ({', '.join(places)})" if places else ""
        lines.append(f"{ENV_NAMES[field]}: {message}" if field in ENV_NAMES else message)
    return "invalid settings: " + "; ".join(lines)
