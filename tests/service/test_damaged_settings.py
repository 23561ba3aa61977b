"""A server's stored settings that are partly invalid, or cannot be read just now, lose
nothing that is still good.

Found by a review: one unknown key (after rolling back to an older version) or one value
out of range made the whole row read as the defaults, cached for the process's life, and
the next change in ``/wizard settings`` wrote those defaults over every setting the server
had saved. A failed read did the same.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.damage_support import run_sql
from wizard.service import GameService, StorageError
from wizard.store.db import Store

GUILD = 77


def _stored(path: Path) -> dict[str, object]:
    conn = sqlite3.connect(path)
    try:
        (raw,) = conn.execute(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", (GUILD,)
        ).fetchone()
    finally:
        conn.close()
    data: dict[str, object] = json.loads(raw)
    return data


async def _saved(path: Path) -> None:
    svc = await GameService.open(path)
    try:
        await svc.update_settings(GUILD, threads=True, max_timeouts=5, language="de")
    finally:
        await svc.close()


@pytest.mark.parametrize(
    ("damage", "ignored"),
    [
        ({"from_a_newer_version": 1}, "from_a_newer_version"),
        ({"rated_min_games": 0}, "rated_min_games"),
    ],
)
async def test_one_bad_setting_leaves_the_others_and_a_change_keeps_them(
    db_path: Path, caplog: pytest.LogCaptureFixture, damage: dict[str, object], ignored: str
) -> None:
    await _saved(db_path)
    run_sql(
        db_path,
        "UPDATE guild_settings SET settings = ? WHERE guild_id = ?",
        (json.dumps({**_stored(db_path), **damage}), GUILD),
    )
    svc = await GameService.open(db_path)
    try:
        settings = await svc.get_settings(GUILD)
        assert (settings.threads, settings.max_timeouts, settings.language) == (True, 5, "de")
        # Read again (its Discord language changed, which drops the cached settings): the
        # operator was told once, and what to do (QA: four warnings at one start, no advice).
        svc.set_home_language(GUILD, "it")
        assert (await svc.get_settings(GUILD)).threads
        [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert f"guild {GUILD}" in warning.getMessage() and ignored in warning.getMessage()
        assert "/wizard settings" in warning.getMessage()
        await svc.update_settings(GUILD, hints_allowed=True)
        # Damaged again after a manager saved them whole: the operator is told again.
        run_sql(
            db_path,
            "UPDATE guild_settings SET settings = ? WHERE guild_id = ?",
            (json.dumps({**_stored(db_path), **damage}), GUILD),
        )
        svc.set_home_language(GUILD, "es")  # drops the cached settings: they are read again
        await svc.get_settings(GUILD)
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 2, warnings
        await svc.update_settings(GUILD, hints_allowed=True)
    finally:
        await svc.close()
    stored = _stored(db_path)
    assert (stored["threads"], stored["max_timeouts"], stored["language"]) == (True, 5, "de")
    assert stored["hints_allowed"] is True
    # A setting a newer version wrote is kept for it; one that is out of range is not.
    assert ("from_a_newer_version" in stored) is (ignored == "from_a_newer_version")
    assert stored.get("rated_min_games") != 0


async def test_a_read_that_fails_is_not_taken_for_the_defaults(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await _saved(db_path)
    svc = await GameService.open(db_path)
    real = Store.fetchone

    async def failing(self: Store, sql: str, params: Iterable[object] = ()) -> sqlite3.Row | None:
        if "FROM guild_settings" in sql:
            raise sqlite3.OperationalError("disk I/O error")
        return await real(self, sql, params)

    try:
        monkeypatch.setattr(Store, "fetchone", failing)
        assert (await svc.get_settings(GUILD)).threads is False  # the defaults, for now
        with pytest.raises(StorageError) as refused:
            await svc.update_settings(GUILD, hints_allowed=True)  # not over what is stored
        assert refused.value.params == {"reason": "read_failed"}
        assert any(
            r.levelno == logging.ERROR and f"guild {GUILD}" in r.getMessage()
            for r in caplog.records
        )
        monkeypatch.setattr(Store, "fetchone", real)
        settings = await svc.get_settings(GUILD)  # read again: the defaults were not kept
        assert (settings.threads, settings.max_timeouts, settings.language) == (True, 5, "de")
    finally:
        await svc.close()
    assert _stored(db_path)["threads"] is True
