-- how far the channel has been shown a game's ends: the rounds whose summary is out, while
-- the bot owes the channel more (NULL: nothing owed: the final standings are out, or the
-- game is from before this column); a process that starts shows what an earlier one did not
ALTER TABLE games ADD COLUMN announced INTEGER;
