-- The transactional outbox (issue 33): the transaction that commits a step of a match also
-- records, for each audience that must see it, the version it must be shown (one row per
-- match and audience, overwritten by each step: a newer step replaces an older one that
-- never went out). Audiences: 'channel' (the match's channel or thread) and '<user id>'
-- (a player's private view) are the chat front end's; another front end's carry its own
-- prefix ('web:table'). A row is delivered when the record 'delivered:<audience>' (or,
-- for the chat front end, the whole step's delivered_version) has reached its version:
-- marking costs no statement beyond the delivery record itself. Finished matches
-- included: a start finds every row still behind, whatever the match's status.
CREATE TABLE outbox (
    match_id BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    audience TEXT    NOT NULL,
    version  INTEGER NOT NULL,
    PRIMARY KEY (match_id, audience)
);
-- What the records kept so far say may not have gone out becomes the outbox's.
INSERT INTO outbox(match_id, audience, version)
    SELECT id, 'channel', version FROM matches
    WHERE status IN ('lobby', 'running')
    AND (delivered_version IS NULL OR delivered_version < version);
DROP INDEX matches_undelivered;
