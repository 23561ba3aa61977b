"""SQLite storage of the game service (aiosqlite): the file, migrations, rows, repositories.

Only :mod:`wizard.service` writes through this package. :class:`DatabaseUnavailable` is the
one exception of a failed open (a one-line ``message`` and a ``hint`` for the operator).
The rest is imported from its module (``wizard.store.db``, ``.repo``, ``.migrations``).
"""

from wizard.store.db import ConflictError, DatabaseUnavailable, Statements, Store, connect
from wizard.store.migrations import LATEST, MIGRATIONS, MigrationError, migrate

__all__ = [
    "LATEST",
    "MIGRATIONS",
    "ConflictError",
    "DatabaseUnavailable",
    "MigrationError",
    "Statements",
    "Store",
    "connect",
    "migrate",
]
