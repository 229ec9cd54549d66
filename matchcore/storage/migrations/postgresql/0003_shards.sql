-- Several processes on one database: a lease on each match's background work (clock and
-- bot turns are claimed by one process at a time; a dead process's lease runs out), the
-- message that shows a challenge (so any process can edit it when it expires), and the
-- users whose DMs refused the bot (shared by every process). bot_due marks the matches
-- where a bot seat is to act, so the clock claims leftover bot turns without loading every
-- match that has a bot; running matches with a bot start marked (where no bot is due after
-- all, the clock finds nothing to do and the next commit puts the flag right).

ALTER TABLE matches ADD COLUMN claimed_by TEXT;
ALTER TABLE matches ADD COLUMN claimed_until DOUBLE PRECISION;
ALTER TABLE matches ADD COLUMN bot_due BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE matches SET bot_due = TRUE
    WHERE status = 'running' AND id IN (SELECT match_id FROM match_seats WHERE is_bot = TRUE);
CREATE INDEX matches_bot_due ON matches(updated_at) WHERE bot_due;

ALTER TABLE challenges ADD COLUMN message_id BIGINT;

CREATE TABLE dm_failures (
    user_id   BIGINT PRIMARY KEY,
    failed_at DOUBLE PRECISION NOT NULL,
    code      INTEGER
);

-- The tables told, once each, that a user's DMs are closed (while the refusal lasts).
CREATE TABLE dm_notices (
    user_id  BIGINT NOT NULL,
    match_id BIGINT NOT NULL,
    PRIMARY KEY (user_id, match_id)
);

CREATE INDEX matches_by_warning ON matches(warn_at) WHERE warn_at IS NOT NULL;
