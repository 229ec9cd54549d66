-- The record of the last version whose messages all went out ("delivered") moves from
-- match_messages to the match row, so that a start finds the matches whose last step may
-- not all have gone out through an index of its own, without reading the others
-- (issue 31). The query that uses it repeats the index's condition word for word.
ALTER TABLE matches ADD COLUMN delivered_version INTEGER;
UPDATE matches SET delivered_version = (
    SELECT message_id FROM match_messages
    WHERE match_messages.match_id = matches.id AND match_messages.kind = 'delivered'
);
DELETE FROM match_messages WHERE kind = 'delivered';
CREATE INDEX matches_undelivered ON matches(id)
    WHERE status IN ('lobby', 'running')
    AND (delivered_version IS NULL OR delivered_version < version);
