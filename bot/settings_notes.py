"""What the operator is told about the settings beyond their values: the ``.env`` file and
the folders named ``.env`` passed over, names the bot does not read, settings set twice or
overridden by the environment, typos, where a relative database file lies, and what to do
without a token. Said by ``python -m bot config`` and logged when the bot starts."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from bot.settings import (
    TOKEN_HELP,
    Settings,
    SettingsError,
    dotenv_folders,
    env_file,
    misspelt_environment,
    overridden_settings,
    repeated_settings,
    token_place,
    unread_names,
)


def unread_notes() -> list[str]:
    """A line for each surprise in where the settings come from (values never shown): a
    folder named .env passed over, a name in the .env file the bot does not read, a setting
    the file sets twice or the environment overrides, a variable of the environment that
    looks like a misspelt setting."""
    path = env_file()
    source = _settings_source(path)
    notes = [
        f"note: {folder} is a folder, not a settings file, and is not read (a virtual "
        f"environment named .env?); the settings come from {source}"
        for folder in dotenv_folders()
    ]
    unread = unread_names(path)
    # The same "did you mean" as a typo in the environment (QA operator: the file's got none).
    meant = dict(misspelt_environment(dict.fromkeys(unread, "")))
    notes += [
        f"note: {path} sets {name}, which is no setting of the bot and is ignored "
        + (
            f"(did you mean {meant[name]}?)"
            if name in meant
            else "(a typo? .env.example lists every setting)"
        )
        for name in unread
    ]
    notes += [
        f"note: {path} sets {name} on lines {', '.join(map(str, lines[:-1]))} and {lines[-1]}:"
        " the last is used"
        for name, lines in repeated_settings(path)
    ]
    notes += [
        f"note: the environment sets {name}, which {path} sets too: the environment's is used"
        for name in overridden_settings(path)
    ]
    notes += [
        f"note: the environment sets {name}, which is no setting of the bot and is ignored "
        f"(did you mean {setting}?)"
        for name, setting in misspelt_environment()
    ]
    return notes


def refusal_notes() -> list[str]:
    """:func:`unread_notes` beside a refusal of the settings, when they can be told: a
    setting set twice, or misspelt, may be why a value is refused or looks right in the file
    (QA operator: "SHARD_COUNT - 1 = 2" of a file that set it to 2, then to 3)."""
    try:
        return unread_notes()
    except SettingsError:  # the .env cannot be read: the refusal says so
        return []


def _settings_source(path: Path | None) -> str:
    """Where the settings are read: the environment, and the ``.env`` file ``path`` if one
    is (:func:`env_file`)."""
    return "the environment" if path is None else f"the environment and {path}"


def where_notes(settings: Settings) -> list[str]:
    """Where the settings come from, and the file a relative DATABASE_PATH names from here
    (QA operator: config said neither; a service started from another folder, or none,
    uses another file)."""
    # A .env folder's note says it already (it is in the log at start too).
    source = _settings_source(env_file())
    notes = [] if dotenv_folders() else [f"note: the settings come from {source}"]
    database = settings.database_path
    if not database.is_absolute():
        notes.append(
            f"note: DATABASE_PATH is relative to the folder the bot starts in: from here it is "
            f"{database.absolute()} (give a full path for a service)"
        )
    return notes


def no_token() -> str:
    folders = "".join(
        f" {folder} is a folder, not a file, so it is not read." for folder in dotenv_folders()
    )
    # QA: DISCORD_TOKN=… was told only to set DISCORD_TOKEN; config's notes named the typo.
    path = env_file()
    typos = [f"the environment sets {name}" for name in _misspelt_token(os.environ)]
    typos += [f"{path} sets {name}" for name in _misspelt_token(unread_names(path))]
    typo = "".join(f" ({said}: did you mean DISCORD_TOKEN?)" for said in typos)
    return (
        f"DISCORD_TOKEN is not set{typo}, so the bot cannot connect to Discord."
        f" {TOKEN_HELP} {token_place()}{folders}"
    )


def _misspelt_token(names: Iterable[str]) -> list[str]:
    """The ``names`` that look like DISCORD_TOKEN misspelt (see misspelt_environment)."""
    found = misspelt_environment(dict.fromkeys(names, ""))
    return [name for name, setting in found if setting == "DISCORD_TOKEN"]
