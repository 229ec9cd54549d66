-- Several processes on one database: a lease on each match's background work (clock and
-- bot turns are claimed by one process at a time; a dead process's lease runs out), the
-- message that shows a challenge (so any process can edit it when it expires), and the
-- users whose DMs refused the bot (shared by every process).

ALTER TABLE matches ADD COLUMN claimed_by TEXT;
ALTER TABLE matches ADD COLUMN claimed_until DOUBLE PRECISION;

ALTER TABLE challenges ADD COLUMN message_id BIGINT;

CREATE TABLE dm_failures (
    user_id   BIGINT PRIMARY KEY,
    failed_at DOUBLE PRECISION NOT NULL,
    code      INTEGER
);

CREATE INDEX matches_by_warning ON matches(warn_at) WHERE warn_at IS NOT NULL;
