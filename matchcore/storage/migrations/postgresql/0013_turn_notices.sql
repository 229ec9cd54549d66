-- Knowing it is your turn, and vacation (issue 35). A member may ask for a DM when a
-- daily match waits for them (member_preferences.turn_dms, NULL: off) and may go on
-- vacation until a time (vacation_until): their daily clocks stop meanwhile, up to the days
-- a year each server allows. Each seat of a running daily match keeps until when its
-- player is away there (match_seats.away_until), so the board says it and a turn that
-- starts meanwhile runs from then; vacation_used keeps the seconds each server gave.
--
-- A notice is claimed before it is sent, one row per match, member, kind ('turn' or
-- 'reminder') and turn (the deadline it counts down to): whichever process inserts the
-- row sends it, so a turn never gets two, across restarts and processes.

ALTER TABLE member_preferences ADD COLUMN turn_dms BOOLEAN;
ALTER TABLE member_preferences ADD COLUMN vacation_until DOUBLE PRECISION;
ALTER TABLE match_seats ADD COLUMN away_until DOUBLE PRECISION;

CREATE TABLE vacation_used (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    year     INTEGER NOT NULL,
    seconds  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, year)
);

CREATE TABLE turn_notices (
    match_id    BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('turn', 'reminder')),
    deadline_at DOUBLE PRECISION NOT NULL,
    sent_at     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, user_id, kind, deadline_at)
);

CREATE INDEX member_preferences_turn_dms ON member_preferences(user_id) WHERE turn_dms IS NOT NULL;
