"""SQLite storage of the game service (aiosqlite): the file, migrations, rows, repositories.

Only :mod:`wizard.service` writes through this package. :class:`DatabaseUnavailable` is the
one exception of a failed open (a one-line ``message`` and a ``hint`` for the operator).
"""

from wizard.store.db import (
    BUSY_TIMEOUT,
    DEFAULT_PATH,
    JOURNAL_SIZE_LIMIT,
    ConflictError,
    DatabaseUnavailable,
    LockTimeout,
    ShardClaim,
    Statements,
    Store,
    Writer,
    connect,
)
from wizard.store.migrations import LATEST, MIGRATIONS, Migration, MigrationError, migrate

__all__ = [
    "BUSY_TIMEOUT",
    "DEFAULT_PATH",
    "JOURNAL_SIZE_LIMIT",
    "LATEST",
    "MIGRATIONS",
    "ConflictError",
    "DatabaseUnavailable",
    "LockTimeout",
    "Migration",
    "MigrationError",
    "ShardClaim",
    "Statements",
    "Store",
    "Writer",
    "connect",
    "migrate",
]
