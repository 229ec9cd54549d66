-- The web table reads for itself (docs/web.md, "Live"): each web process keeps its own
-- position, the versions its own sockets were shown, and reads the newest versions of the
-- matches they watch (woken by PostgreSQL's NOTIFY of any step's outbox rows), so no
-- process marks a row another one would need. Its outbox audience ('web:table') is no
-- longer written; the rows written before, which nobody reads now, go.
DELETE FROM outbox WHERE audience = 'web:table';
DELETE FROM match_messages WHERE kind = 'delivered:web:table';
