-- computer levels: a lobby's own level, and the old default 'random' becomes 'normal'
-- 'random' was the default no server could change from Discord; a level a server set (easy,
-- hard) stays. NULL: the lobby adds computers at the server's level.
ALTER TABLE games ADD COLUMN computer_level TEXT;

UPDATE guild_settings
SET settings = json_set(settings, '$.computer_level', 'normal')
WHERE json_valid(settings) AND json_extract(settings, '$.computer_level') = 'random';
