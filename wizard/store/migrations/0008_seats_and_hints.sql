-- seat taking and hints: the lobby's permission, who held each seat when, and hints used
-- allow_seat_taking: the host lets people who are not seated take over computer seats.
-- hints_used: bit 1 << seat for every seat that asked for a hint (0: none; a game with
-- hints is not rated).
ALTER TABLE games ADD COLUMN allow_seat_taking INTEGER NOT NULL DEFAULT 0;

ALTER TABLE games ADD COLUMN hints_used INTEGER NOT NULL DEFAULT 0;

-- Who held each seat over time: a holder plays the seat's actions from the action index
-- from_action (0-based: the number of actions logged before it took over) until the next
-- holder of that seat. A person (user_id) or a computer (user_id NULL, level).
CREATE TABLE seat_holders (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    from_action INTEGER NOT NULL CHECK (from_action >= 0),
    user_id     INTEGER,
    level       TEXT,
    name        TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat, from_action),
    CHECK (user_id IS NOT NULL OR level IS NOT NULL)
) WITHOUT ROWID;

-- Games started before this migration: the seat's person (or computer) from the start. When a
-- computer took over an away seat is not known; later hand-overs are recorded.
INSERT INTO seat_holders (game_id, seat, from_action, user_id, level, name)
SELECT s.game_id, s.seat, 0, s.user_id, CASE WHEN s.user_id IS NULL THEN s.level END, s.name
FROM seats AS s
JOIN games AS g ON g.id = s.game_id
WHERE g.status IN ('active', 'finished') AND (s.user_id IS NOT NULL OR s.level IS NOT NULL);
