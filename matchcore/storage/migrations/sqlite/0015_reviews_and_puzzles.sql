-- Learning from games (issue 37). A finished match's review is worked out once and kept
-- (a second request costs nothing). Puzzles: the shipped starter set (guild_id NULL) and
-- those mined from a server's finished rated matches, each position once per game; the
-- mining of a match is claimed work (a lease, like a match's background work). A member's
-- puzzle rating is Glicko-2 (rating, deviation, volatility), one across the games, with
-- their streak; an attempt is open until answered. The daily puzzle of a server is one row
-- a day: whoever inserts it posts it, so it goes out once whatever restarts or processes.

CREATE TABLE match_reviews (
    match_id   INTEGER PRIMARY KEY,
    review     TEXT NOT NULL,
    created_at REAL NOT NULL
);

CREATE TABLE puzzles (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER,
    game         TEXT    NOT NULL,
    position_key TEXT    NOT NULL,
    body         TEXT    NOT NULL,
    rating       REAL    NOT NULL,
    deviation    REAL    NOT NULL,
    volatility   REAL    NOT NULL,
    match_id     INTEGER,
    created_at   REAL    NOT NULL,
    UNIQUE (game, position_key)
);
CREATE INDEX puzzles_by_rating ON puzzles(game, rating);

CREATE TABLE puzzle_mining (
    match_id      INTEGER PRIMARY KEY,
    claimed_by    TEXT,
    claimed_until REAL,
    done_at       REAL
);

CREATE TABLE puzzle_players (
    user_id     INTEGER PRIMARY KEY,
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL,
    volatility  REAL    NOT NULL,
    streak      INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    solved      INTEGER NOT NULL,
    failed      INTEGER NOT NULL,
    updated_at  REAL    NOT NULL
);

CREATE TABLE puzzle_attempts (
    user_id     INTEGER NOT NULL,
    puzzle_id   INTEGER NOT NULL,
    guild_id    INTEGER,
    started_at  REAL    NOT NULL,
    answered_at REAL,
    answer      TEXT,
    solved      INTEGER,
    PRIMARY KEY (user_id, puzzle_id)
);
CREATE INDEX puzzle_attempts_open ON puzzle_attempts(user_id, answered_at);

CREATE TABLE daily_puzzles (
    guild_id   INTEGER NOT NULL,
    day        TEXT    NOT NULL,
    puzzle_id  INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    posted_by  TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, day)
);
