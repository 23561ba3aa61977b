"""Numbered schema migrations (the ``NNNN_name.sql`` files of this package): applied once, in
order, in one transaction, and never edited.

A migration that has shipped is history: change the schema by appending a new one.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from importlib import resources

import aiosqlite


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of the schema; ``statements`` run in order inside the upgrade transaction."""

    version: int
    name: str
    statements: tuple[str, ...]


def _statements(sql: str) -> tuple[str, ...]:
    """The statements of a script, split where SQLite says one is complete (triggers hold
    semicolons of their own)."""
    out: list[str] = []
    current = ""
    for line in sql.splitlines(keepends=True):
        if not current and (not line.strip() or line.lstrip().startswith("--")):
            continue
        current += line
        if sqlite3.complete_statement(current):
            out.append(current.strip())
            current = ""
    if current.strip():
        raise ValueError(f"incomplete statement at the end of a migration: {current!r}")
    return tuple(out)


def _load() -> tuple[Migration, ...]:
    """The numbered ``NNNN_name.sql`` files beside this module, in order; the first line
    (a ``--`` comment) names the migration."""
    out = []
    for entry in sorted(resources.files(__package__).iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".sql"):
            continue
        text = entry.read_text(encoding="utf-8")
        first = text.splitlines()[0] if text else ""
        out.append(
            Migration(
                int(entry.name.split("_", 1)[0]), first.lstrip("- ").strip(), _statements(text)
            )
        )
    if [m.version for m in out] != list(range(1, len(out) + 1)):
        raise RuntimeError(f"migrations are not numbered 1..n: {[m.version for m in out]}")
    return tuple(out)


MIGRATIONS: tuple[Migration, ...] = _load()
LATEST = MIGRATIONS[-1].version


class MigrationError(RuntimeError):
    """The database cannot be brought to this code's schema."""


def refuse_unknown(versions: set[int]) -> None:
    """:class:`MigrationError` if the schema ``versions`` recorded in a file include any this
    code does not know (a newer bot wrote it)."""
    unknown = sorted(versions - {m.version for m in MIGRATIONS})
    if unknown:
        shown = ", ".join(map(str, unknown[:-1])) + " and " if len(unknown) > 1 else ""
        raise MigrationError(
            f"the database has schema version{'s' if len(unknown) > 1 else ''} "
            f"{shown}{unknown[-1]}, written by a newer version of the bot: this version of "
            f"the bot knows versions up to {LATEST}"
        )


async def migrate(conn: aiosqlite.Connection, target: int | None = None) -> list[int]:
    """Apply the pending migrations up to ``target`` (default: latest) in one transaction.

    Returns the versions applied. ``BEGIN IMMEDIATE`` takes the write lock first, so two
    processes starting on one file at once migrate it once.
    """
    target = LATEST if target is None else target
    await conn.execute("BEGIN IMMEDIATE")
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        rows = await conn.execute_fetchall("SELECT version FROM schema_migrations")
        done = {int(r[0]) for r in rows}
        refuse_unknown(done)
        applied = []
        for m in MIGRATIONS:
            if m.version > target or m.version in done:
                continue
            for sql in m.statements:
                await conn.execute(sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (m.version, m.name, time.time()),
            )
            applied.append(m.version)
        await conn.execute("COMMIT")
    except BaseException:
        # A full disk has SQLite roll back by itself: a second rollback's error would hide it.
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        raise
    return applied
