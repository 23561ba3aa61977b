-- results, ratings and statistics per server

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
) WITHOUT ROWID;

CREATE INDEX results_by_user ON results (user_id) WHERE user_id IS NOT NULL;

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
) WITHOUT ROWID;

CREATE INDEX players_by_rating ON players (guild_id, rating DESC);

CREATE INDEX players_by_wins ON players (guild_id, wins DESC);
