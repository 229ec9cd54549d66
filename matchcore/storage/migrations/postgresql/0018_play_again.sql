-- Leiff's "Play again" (issue 35): a finished table names the lobby opened to play it
-- again. The first click stores it with a compare-and-set (again_id IS NULL), in the
-- transaction that stores the lobby, so two clicks in two processes open one table; every
-- later click joins that one.
ALTER TABLE matches ADD COLUMN again_id INTEGER REFERENCES matches(id);
