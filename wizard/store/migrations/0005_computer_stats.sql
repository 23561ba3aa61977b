-- statistics of computer players per server and level
-- Computer seats have results (user_id NULL) but no players row. Their sums are kept here; the
-- trigger keeps them in the transaction that writes the results, the INSERT fills them from the
-- games finished before this migration. A bare column next to MAX() takes its value from the
-- row with the maximum (SQLite's documented behaviour): best_game_id is the game of best_score.

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
) WITHOUT ROWID;

INSERT INTO computer_stats (guild_id, level, games, wins, total_score, best_score,
                            best_game_id, bids, exact_bids)
SELECT g.guild_id, COALESCE(s.level, 'random'), COUNT(*), SUM(r.place = 1),
       SUM(r.score), MAX(r.score), r.game_id, SUM(r.rounds), SUM(r.exact_bids)
FROM results AS r
JOIN games AS g ON g.id = r.game_id
LEFT JOIN seats AS s ON s.game_id = r.game_id AND s.seat = r.seat
WHERE r.user_id IS NULL
GROUP BY g.guild_id, COALESCE(s.level, 'random');

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
END;
