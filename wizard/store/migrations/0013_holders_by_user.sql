-- The games in which a person held a seat that someone else then took over have no result of
-- theirs: their statistics card finds them through the seats' holders, by user.
CREATE INDEX seat_holders_by_user ON seat_holders (user_id) WHERE user_id IS NOT NULL;
