-- The language of each member's Discord client as last seen in an interaction, so that a
-- DM sent later without an interaction at hand (a clock timeout, a bot's turn, a restart,
-- another process) is written in it. Only supported languages are stored ("en", "de").

CREATE TABLE member_languages (
    user_id  INTEGER PRIMARY KEY,
    language TEXT    NOT NULL,
    seen_at  REAL    NOT NULL
);
