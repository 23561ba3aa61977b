-- cached state snapshot next to the log

ALTER TABLE games ADD COLUMN snapshot TEXT;
