-- the private hands open in Discord: a process that starts after one that stopped (or
-- crashed) goes on editing them with their interaction's token while Discord lets it
-- (15 minutes); one row per player and game, the newest hand; rows past their time are
-- deleted as new ones are written
CREATE TABLE open_hands (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    token TEXT NOT NULL,
    language TEXT NOT NULL,
    expires_at REAL NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
