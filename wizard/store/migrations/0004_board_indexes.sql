-- indexes for leaderboards and history with many games
-- Measured with bench/leaderboard.py (100,000 games, 20,000 players on one server). Each
-- leaderboard index holds its whole ORDER BY and ``games`` (the minimum-games filter), so a
-- page, however deep, is found by walking the index alone.

DROP INDEX players_by_rating;

DROP INDEX players_by_wins;

CREATE INDEX players_rating_board ON players (guild_id, rating DESC, games DESC, user_id);

CREATE INDEX players_wins_board ON players (guild_id, wins DESC, rating DESC, user_id, games);
-- The expression must stay identical to repo.LEADERBOARD_ORDER["average"]: SQLite uses an
-- expression index only for the same expression. total_score is repeated as a column because
-- SQLite counts an index as covering only if it holds every column the query names.
CREATE INDEX players_average_board ON players (guild_id, CAST(total_score AS REAL) / games DESC, games DESC, user_id, total_score);

CREATE INDEX players_by_games ON players (guild_id, games);
-- A server's history, newest first, without sorting its finished games.
CREATE INDEX games_finished ON games (guild_id, finished_at DESC, id DESC) WHERE status = 'finished';
