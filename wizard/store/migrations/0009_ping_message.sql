-- the turn reminder's message: a process that starts deletes the one an earlier process
-- posted, once the players it mentions have acted (NULL: no reminder in the channel)
ALTER TABLE games ADD COLUMN ping_message_id INTEGER;
