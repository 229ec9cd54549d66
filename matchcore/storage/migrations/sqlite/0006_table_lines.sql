-- The recent public event lines a Leiff table's living channel message shows, so that the
-- message looks the same after a restart. Only what the channel already shows is kept
-- (public events, worded as shown), at most a dozen lines, with the id of the message
-- that shows them (lines of an older message are not carried over to a new one).

CREATE TABLE table_lines (
    match_id   INTEGER PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    lines      TEXT    NOT NULL
);
