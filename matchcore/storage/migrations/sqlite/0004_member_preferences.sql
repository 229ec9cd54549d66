-- Each member's own choices, whatever the server: move hints on their pictures and the
-- theme of the pictures only they see (DMs, private answers). NULL is "not chosen": hints
-- then follow the default (on for a member's first games of each game), the theme is the
-- server's.

CREATE TABLE member_preferences (
    user_id    INTEGER PRIMARY KEY,
    hints      INTEGER,
    theme      TEXT,
    updated_at REAL    NOT NULL
);
