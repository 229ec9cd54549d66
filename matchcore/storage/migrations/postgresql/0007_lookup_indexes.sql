-- Server-wide lookups by index, not by reading every running match (issue 31). /games
-- reads a server's newest running matches and lobbies: per status, in updated_at order,
-- as far as its limit. The channel lookup finds a match by its channel or by its thread;
-- the thread had no index (most matches have none, so only those that do are indexed).

CREATE INDEX matches_by_guild ON matches(guild_id, status, updated_at, id);
CREATE INDEX matches_by_thread ON matches(guild_id, thread_id, status) WHERE thread_id IS NOT NULL;
