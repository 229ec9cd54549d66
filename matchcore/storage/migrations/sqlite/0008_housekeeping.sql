-- Rows that only grew are pruned on a schedule (docs/service.md, "What is kept"). Each
-- chore (one, "prune", for now) is claimed by one process at a time with a lease, like a
-- match's background work, and done_at says when a pass last finished, so that the next
-- is due a day (PRUNE_EVERY_HOURS) later whichever process runs it. DM notices are
-- walked in the order of their match, whose end lets them go.

CREATE TABLE chores (
    name          TEXT PRIMARY KEY,
    claimed_by    TEXT,
    claimed_until REAL,
    done_at       REAL
);
CREATE INDEX dm_notices_by_match ON dm_notices(match_id);
