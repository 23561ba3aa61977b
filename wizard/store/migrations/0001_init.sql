-- games, seats, action log, server settings

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
);

CREATE INDEX games_by_channel ON games (channel_id, status);

CREATE INDEX games_by_status ON games (status, guild_id);

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
) WITHOUT ROWID;

CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;

-- The log of player actions only: the seeded deals follow from games.seed.
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
) WITHOUT ROWID;

-- The same interaction delivered twice must be applied once.
CREATE UNIQUE INDEX actions_by_request ON actions (request_id) WHERE request_id IS NOT NULL;

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    settings   TEXT NOT NULL,
    updated_at REAL NOT NULL
);
