"""Numbered schema migrations: applied once, in order, in one transaction, and never edited.

A migration that has shipped is history: change the schema by appending a new one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import aiosqlite


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of the schema; ``statements`` run in order inside the upgrade transaction."""

    version: int
    name: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games, seats, action log, server settings",
        (
            """
            CREATE TABLE games (
                id               INTEGER PRIMARY KEY,
                guild_id         INTEGER NOT NULL,
                channel_id       INTEGER NOT NULL,
                host_id          INTEGER NOT NULL,
                status           TEXT    NOT NULL
                    CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'broken')),
                options          TEXT    NOT NULL,
                seed             INTEGER NOT NULL,
                version          INTEGER NOT NULL DEFAULT 0,
                turn_seconds     REAL,
                deadline         REAL,
                lobby_message_id INTEGER,
                table_message_id INTEGER,
                broken_reason    TEXT,
                created_at       REAL    NOT NULL,
                updated_at       REAL    NOT NULL,
                started_at       REAL,
                finished_at      REAL
            )
            """,
            "CREATE INDEX games_by_channel ON games (channel_id, status)",
            "CREATE INDEX games_by_status ON games (status, guild_id)",
            """
            CREATE TABLE seats (
                game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
                user_id  INTEGER,
                name     TEXT    NOT NULL,
                level    TEXT,
                away     INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1)),
                kicked   INTEGER NOT NULL DEFAULT 0 CHECK (kicked IN (0, 1)),
                timeouts INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (game_id, seat),
                CHECK (user_id IS NOT NULL OR level IS NOT NULL)
            ) WITHOUT ROWID
            """,
            "CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id)"
            " WHERE user_id IS NOT NULL",
            # The log of player actions only: the seeded deals follow from games.seed.
            """
            CREATE TABLE actions (
                game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                seq        INTEGER NOT NULL CHECK (seq >= 1),
                seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
                kind       TEXT    NOT NULL CHECK (kind IN ('bid', 'trump', 'play')),
                arg        TEXT    NOT NULL,
                actor      TEXT    NOT NULL CHECK (actor IN ('player', 'computer', 'timeout')),
                user_id    INTEGER,
                request_id TEXT,
                version    INTEGER NOT NULL,
                created_at REAL    NOT NULL,
                PRIMARY KEY (game_id, seq)
            ) WITHOUT ROWID
            """,
            # The same interaction delivered twice must be applied once.
            "CREATE UNIQUE INDEX actions_by_request ON actions (request_id)"
            " WHERE request_id IS NOT NULL",
            """
            CREATE TABLE guild_settings (
                guild_id   INTEGER PRIMARY KEY,
                settings   TEXT NOT NULL,
                updated_at REAL NOT NULL
            )
            """,
        ),
    ),
    Migration(
        2,
        "results, ratings and statistics per server",
        (
            """
            CREATE TABLE results (
                game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                seat       INTEGER NOT NULL,
                user_id    INTEGER,
                name       TEXT    NOT NULL,
                score      INTEGER NOT NULL,
                place      INTEGER NOT NULL,
                rounds     INTEGER NOT NULL,
                exact_bids INTEGER NOT NULL,
                PRIMARY KEY (game_id, seat)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX results_by_user ON results (user_id) WHERE user_id IS NOT NULL",
            """
            CREATE TABLE players (
                guild_id     INTEGER NOT NULL,
                user_id      INTEGER NOT NULL,
                name         TEXT    NOT NULL,
                mu           REAL    NOT NULL,
                sigma        REAL    NOT NULL,
                rating       REAL    NOT NULL,
                games        INTEGER NOT NULL DEFAULT 0,
                wins         INTEGER NOT NULL DEFAULT 0,
                total_score  INTEGER NOT NULL DEFAULT 0,
                best_score   INTEGER,
                best_game_id INTEGER,
                bids         INTEGER NOT NULL DEFAULT 0,
                exact_bids   INTEGER NOT NULL DEFAULT 0,
                updated_at   REAL    NOT NULL,
                PRIMARY KEY (guild_id, user_id)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX players_by_rating ON players (guild_id, rating DESC)",
            "CREATE INDEX players_by_wins ON players (guild_id, wins DESC)",
        ),
    ),
    Migration(
        3,
        "cached state snapshot next to the log",
        # NULL for games started before this migration: recovery then has nothing to compare.
        ("ALTER TABLE games ADD COLUMN snapshot TEXT",),
    ),
    Migration(
        4,
        "indexes for leaderboards and history with many games",
        # Measured with bench/leaderboard.py (100,000 games, 20,000 players on one server).
        # Each leaderboard index holds its whole ORDER BY and ``games`` (the minimum-games
        # filter), so a page, however deep, is found by walking the index alone; the old
        # indexes (rating or wins only) sorted every tie group and read every skipped row.
        (
            "DROP INDEX players_by_rating",
            "DROP INDEX players_by_wins",
            "CREATE INDEX players_rating_board"
            " ON players (guild_id, rating DESC, games DESC, user_id)",
            "CREATE INDEX players_wins_board"
            " ON players (guild_id, wins DESC, rating DESC, user_id, games)",
            # The expression must stay identical to repo.LEADERBOARD_ORDER["average"]:
            # SQLite uses an expression index only for the same expression. total_score is
            # repeated as a column because SQLite counts an index as covering only if it
            # holds every column the query names, the expression's columns included.
            "CREATE INDEX players_average_board ON players"
            " (guild_id, CAST(total_score AS REAL) / games DESC, games DESC, user_id, total_score)",
            # Counting a server's ranked players is a range of this index.
            "CREATE INDEX players_by_games ON players (guild_id, games)",
            # A server's history, newest first, without sorting its finished games.
            "CREATE INDEX games_finished ON games (guild_id, finished_at DESC, id DESC)"
            " WHERE status = 'finished'",
        ),
    ),
    Migration(
        5,
        "statistics of computer players per server and level",
        # Computer seats have results (user_id NULL) but no players row: their rating is the
        # fixed starting one (see wizard.service.results). A server may show them on its
        # boards, one line per level; summing their results at every board read would scan
        # a server's whole history, so the sums are kept here, next to the players' rows.
        # The trigger keeps them in the transaction that writes the results, whatever code
        # writes those; the INSERT fills them from the games finished before this migration.
        (
            """
            CREATE TABLE computer_stats (
                guild_id     INTEGER NOT NULL,
                level        TEXT    NOT NULL,
                games        INTEGER NOT NULL DEFAULT 0,
                wins         INTEGER NOT NULL DEFAULT 0,
                total_score  INTEGER NOT NULL DEFAULT 0,
                best_score   INTEGER,
                best_game_id INTEGER,
                bids         INTEGER NOT NULL DEFAULT 0,
                exact_bids   INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (guild_id, level)
            ) WITHOUT ROWID
            """,
            # A bare column next to MAX() takes its value from the row with the maximum
            # (SQLite's documented behaviour): best_game_id is the game of best_score.
            """
            INSERT INTO computer_stats (guild_id, level, games, wins, total_score, best_score,
                                        best_game_id, bids, exact_bids)
            SELECT g.guild_id, COALESCE(s.level, 'random'), COUNT(*), SUM(r.place = 1),
                   SUM(r.score), MAX(r.score), r.game_id, SUM(r.rounds), SUM(r.exact_bids)
            FROM results AS r
            JOIN games AS g ON g.id = r.game_id
            LEFT JOIN seats AS s ON s.game_id = r.game_id AND s.seat = r.seat
            WHERE r.user_id IS NULL
            GROUP BY g.guild_id, COALESCE(s.level, 'random')
            """,
            """
            CREATE TRIGGER computer_stats_after_result AFTER INSERT ON results
            FOR EACH ROW WHEN NEW.user_id IS NULL
            BEGIN
                INSERT INTO computer_stats (guild_id, level, games, wins, total_score,
                                            best_score, best_game_id, bids, exact_bids)
                SELECT g.guild_id,
                       COALESCE((SELECT s.level FROM seats AS s
                                 WHERE s.game_id = NEW.game_id AND s.seat = NEW.seat),
                                'random'),
                       1, NEW.place = 1, NEW.score, NEW.score, NEW.game_id, NEW.rounds,
                       NEW.exact_bids
                FROM games AS g WHERE g.id = NEW.game_id
                ON CONFLICT (guild_id, level) DO UPDATE SET
                    games = games + 1,
                    wins = wins + excluded.wins,
                    total_score = total_score + excluded.total_score,
                    best_game_id = CASE WHEN best_score IS NULL OR excluded.best_score > best_score
                                        THEN excluded.best_game_id ELSE best_game_id END,
                    best_score = CASE WHEN best_score IS NULL OR excluded.best_score > best_score
                                      THEN excluded.best_score ELSE best_score END,
                    bids = bids + excluded.bids,
                    exact_bids = exact_bids + excluded.exact_bids;
            END
            """,
        ),
    ),
)

LATEST = MIGRATIONS[-1].version


class MigrationError(RuntimeError):
    """The database cannot be brought to this code's schema."""


async def applied_versions(conn: aiosqlite.Connection) -> list[int]:
    """Versions recorded in ``schema_migrations`` (empty for a new database)."""
    rows = await conn.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    )
    if not list(rows):
        return []
    rows = await conn.execute_fetchall("SELECT version FROM schema_migrations ORDER BY version")
    return [int(r[0]) for r in rows]


async def migrate(conn: aiosqlite.Connection, target: int | None = None) -> list[int]:
    """Apply the pending migrations up to ``target`` (default: latest) in one transaction.

    Returns the versions applied. ``BEGIN IMMEDIATE`` takes the write lock first, so two
    processes starting on one file at once migrate it once.
    """
    target = LATEST if target is None else target
    known = {m.version for m in MIGRATIONS}
    await conn.execute("BEGIN IMMEDIATE")
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        done = set(await applied_versions(conn))
        unknown = sorted(done - known)
        if unknown:
            raise MigrationError(
                f"the database has schema version(s) {unknown} that this code does not know: "
                "it was written by a newer version of the bot"
            )
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
        await conn.execute("ROLLBACK")
        raise
    return applied
