-- The post of a closed season's final standings in the server's chosen channel (setting
-- 'season_channel'): claimed with a lease like a match's clock work (post_claimed_by,
-- post_claimed_until), so one process at a time posts it and a process killed meanwhile
-- leaves it to the next once the lease runs out; posted_at set once it is done (posted,
-- found posted already, or nothing to post: no channel chosen).

ALTER TABLE seasons ADD COLUMN posted_at DOUBLE PRECISION;
ALTER TABLE seasons ADD COLUMN post_claimed_by TEXT;
ALTER TABLE seasons ADD COLUMN post_claimed_until DOUBLE PRECISION;

CREATE INDEX seasons_to_post ON seasons(guild_id) WHERE closed_at IS NOT NULL AND posted_at IS NULL;

-- Seasons closed before this migration are not posted now, long after their end.
UPDATE seasons SET posted_at = closed_at WHERE closed_at IS NOT NULL;
