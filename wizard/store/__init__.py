"""SQLite storage of the game service (aiosqlite): the file, migrations, rows, repositories.

Only :mod:`wizard.service` writes through this package.
"""

from wizard.store.db import DEFAULT_PATH, ConflictError, Statements, Store, Writer, connect
from wizard.store.migrations import LATEST, MIGRATIONS, Migration, MigrationError, migrate

__all__ = [
    "DEFAULT_PATH",
    "LATEST",
    "MIGRATIONS",
    "ConflictError",
    "Migration",
    "MigrationError",
    "Statements",
    "Store",
    "Writer",
    "connect",
    "migrate",
]
