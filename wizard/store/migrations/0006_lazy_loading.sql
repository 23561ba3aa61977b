-- lazy loading: logged action count and computer turn per game, no snapshot
-- A game is loaded from its log when it is first needed. Its row says how many actions it
-- has logged (a log shorter than that is damage: the game is quarantined, never rewound),
-- and whether a computer seat is to act (start-up arms a timer for it without loading it).
ALTER TABLE games ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;

ALTER TABLE games ADD COLUMN computer_turn INTEGER NOT NULL DEFAULT 0;

UPDATE games SET seq = (SELECT COUNT(*) FROM actions WHERE actions.game_id = games.id);

-- Not known without replaying: such a game is looked at once, soon after start.
UPDATE games SET computer_turn = 1 WHERE status = 'active';

-- The snapshot was rewritten with every action (~22 KB of WAL each) to speed up a start-up
-- that replaying the logs on first use makes fast anyway.
ALTER TABLE games DROP COLUMN snapshot;
