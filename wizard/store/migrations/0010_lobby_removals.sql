-- the people the host (or a server manager) removed from a lobby: they may not join that
-- lobby again (leaving by oneself is no removal); gone with the game
CREATE TABLE lobby_removals (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
