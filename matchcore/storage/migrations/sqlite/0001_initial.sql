-- Initial schema: matches (and Leiff lobbies), seats, message ids, the action log,
-- challenges and seeks, ratings and per-server settings.

CREATE TABLE matches (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    thread_id       INTEGER,
    game            TEXT    NOT NULL,
    options         TEXT    NOT NULL DEFAULT '{}',
    status          TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'aborted')),
    state           TEXT,
    version         INTEGER NOT NULL DEFAULT 0,
    host_id         INTEGER,
    vs_bot          INTEGER NOT NULL DEFAULT 0,
    rated           INTEGER NOT NULL DEFAULT 1,
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL,
    finished_at     REAL,
    deadline_at     REAL,
    warn_at         REAL,
    warned          INTEGER NOT NULL DEFAULT 0,
    draw_offer_seat INTEGER,
    result          TEXT,
    rematch_of      INTEGER REFERENCES matches(id)
);
CREATE INDEX matches_by_status ON matches(status);
CREATE INDEX matches_by_channel ON matches(guild_id, channel_id, status);
CREATE INDEX matches_by_deadline ON matches(deadline_at) WHERE deadline_at IS NOT NULL;

CREATE TABLE match_seats (
    match_id  INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   INTEGER,
    is_bot    INTEGER NOT NULL DEFAULT 0,
    colour    TEXT,
    timeouts  INTEGER NOT NULL DEFAULT 0,
    removed   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_by_user ON match_seats(user_id);

CREATE TABLE match_messages (
    match_id   INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (match_id, kind)
);

CREATE TABLE actions (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    version  INTEGER NOT NULL,
    user_id  INTEGER,
    seat     INTEGER,
    action   TEXT    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (match_id, version)
);

CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    thread_id     INTEGER,
    challenger_id INTEGER NOT NULL,
    target_id     INTEGER,
    game          TEXT    NOT NULL,
    size          INTEGER,
    options       TEXT    NOT NULL DEFAULT '{}',
    status        TEXT    NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    created_at    REAL    NOT NULL,
    expires_at    REAL    NOT NULL,
    match_id      INTEGER REFERENCES matches(id),
    rematch_of    INTEGER REFERENCES matches(id)
);
CREATE INDEX challenges_open ON challenges(status, expires_at);
CREATE INDEX challenges_by_challenger ON challenges(guild_id, challenger_id, created_at);

CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    pool        TEXT    NOT NULL DEFAULT 'human',
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id, pool)
);

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    data       TEXT    NOT NULL,
    updated_at REAL    NOT NULL,
    updated_by INTEGER
);
