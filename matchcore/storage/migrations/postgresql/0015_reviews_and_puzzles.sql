-- Learning from games (issue 37). A finished match's review is worked out once and kept
-- (a second request costs nothing). Puzzles: the shipped starter set (guild_id NULL) and
-- those mined from a server's finished rated matches, each position once per game; the
-- mining of a match is claimed work (a lease, like a match's background work). A member's
-- puzzle rating is Glicko-2 (rating, deviation, volatility), one across the games, with
-- their streak; an attempt is open until answered. The daily puzzle of a server is one row
-- a day: whoever inserts it posts it, so it goes out once whatever restarts or processes.

CREATE TABLE match_reviews (
    match_id   BIGINT PRIMARY KEY,
    review     TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE puzzles (
    id           BIGSERIAL PRIMARY KEY,
    guild_id     BIGINT,
    game         TEXT    NOT NULL,
    position_key TEXT    NOT NULL,
    body         TEXT    NOT NULL,
    rating       DOUBLE PRECISION    NOT NULL,
    deviation    DOUBLE PRECISION    NOT NULL,
    volatility   DOUBLE PRECISION    NOT NULL,
    match_id     BIGINT,
    created_at   DOUBLE PRECISION    NOT NULL,
    UNIQUE (game, position_key)
);
CREATE INDEX puzzles_by_rating ON puzzles(game, rating);

CREATE TABLE puzzle_mining (
    match_id      BIGINT PRIMARY KEY,
    claimed_by    TEXT,
    claimed_until DOUBLE PRECISION,
    done_at       DOUBLE PRECISION
);

CREATE TABLE puzzle_players (
    user_id     BIGINT PRIMARY KEY,
    rating      DOUBLE PRECISION    NOT NULL,
    deviation   DOUBLE PRECISION    NOT NULL,
    volatility  DOUBLE PRECISION    NOT NULL,
    streak      INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    solved      INTEGER NOT NULL,
    failed      INTEGER NOT NULL,
    updated_at  DOUBLE PRECISION    NOT NULL
);

CREATE TABLE puzzle_attempts (
    user_id     BIGINT NOT NULL,
    puzzle_id   BIGINT NOT NULL,
    guild_id    BIGINT,
    started_at  DOUBLE PRECISION    NOT NULL,
    answered_at DOUBLE PRECISION,
    answer      TEXT,
    solved      BOOLEAN,
    PRIMARY KEY (user_id, puzzle_id)
);
CREATE INDEX puzzle_attempts_open ON puzzle_attempts(user_id, answered_at);

CREATE TABLE daily_puzzles (
    guild_id   BIGINT NOT NULL,
    day        TEXT    NOT NULL,
    puzzle_id  BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT,
    posted_by  TEXT    NOT NULL,
    created_at DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (guild_id, day)
);
