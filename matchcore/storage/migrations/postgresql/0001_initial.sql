-- Initial schema: matches (and Leiff lobbies), seats, message ids, the action log,
-- challenges and seeks, ratings and per-server settings. The same history as the SQLite
-- migrations of the same numbers, in PostgreSQL's types (Discord ids need 64 bits, times
-- are Unix seconds in double precision, JSON is kept as text exactly as written).

CREATE TABLE matches (
    id              BIGSERIAL PRIMARY KEY,
    guild_id        BIGINT           NOT NULL,
    channel_id      BIGINT           NOT NULL,
    thread_id       BIGINT,
    game            TEXT             NOT NULL,
    options         TEXT             NOT NULL DEFAULT '{}',
    status          TEXT             NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'aborted')),
    state           TEXT,
    version         INTEGER          NOT NULL DEFAULT 0,
    host_id         BIGINT,
    vs_bot          BOOLEAN          NOT NULL DEFAULT FALSE,
    rated           BOOLEAN          NOT NULL DEFAULT TRUE,
    created_at      DOUBLE PRECISION NOT NULL,
    updated_at      DOUBLE PRECISION NOT NULL,
    finished_at     DOUBLE PRECISION,
    deadline_at     DOUBLE PRECISION,
    warn_at         DOUBLE PRECISION,
    warned          BOOLEAN          NOT NULL DEFAULT FALSE,
    draw_offer_seat INTEGER,
    result          TEXT,
    rematch_of      BIGINT REFERENCES matches(id)
);
CREATE INDEX matches_by_status ON matches(status);
CREATE INDEX matches_by_channel ON matches(guild_id, channel_id, status);
CREATE INDEX matches_by_deadline ON matches(deadline_at) WHERE deadline_at IS NOT NULL;

CREATE TABLE match_seats (
    match_id  BIGINT  NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   BIGINT,
    is_bot    BOOLEAN NOT NULL DEFAULT FALSE,
    colour    TEXT,
    timeouts  INTEGER NOT NULL DEFAULT 0,
    removed   BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_by_user ON match_seats(user_id);

CREATE TABLE match_messages (
    match_id   BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    kind       TEXT   NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (match_id, kind)
);

CREATE TABLE actions (
    match_id BIGINT           NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    version  INTEGER          NOT NULL,
    user_id  BIGINT,
    seat     INTEGER,
    action   TEXT             NOT NULL,
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, version)
);

CREATE TABLE challenges (
    id            BIGSERIAL PRIMARY KEY,
    guild_id      BIGINT           NOT NULL,
    channel_id    BIGINT           NOT NULL,
    thread_id     BIGINT,
    challenger_id BIGINT           NOT NULL,
    target_id     BIGINT,
    game          TEXT             NOT NULL,
    size          INTEGER,
    options       TEXT             NOT NULL DEFAULT '{}',
    status        TEXT             NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    created_at    DOUBLE PRECISION NOT NULL,
    expires_at    DOUBLE PRECISION NOT NULL,
    match_id      BIGINT REFERENCES matches(id),
    rematch_of    BIGINT REFERENCES matches(id)
);
CREATE INDEX challenges_open ON challenges(status, expires_at);
CREATE INDEX challenges_by_challenger ON challenges(guild_id, challenger_id, created_at);

CREATE TABLE ratings (
    guild_id    BIGINT           NOT NULL,
    game        TEXT             NOT NULL,
    user_id     BIGINT           NOT NULL,
    pool        TEXT             NOT NULL DEFAULT 'human',
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    games       INTEGER          NOT NULL DEFAULT 0,
    wins        INTEGER          NOT NULL DEFAULT 0,
    losses      INTEGER          NOT NULL DEFAULT 0,
    draws       INTEGER          NOT NULL DEFAULT 0,
    streak      INTEGER          NOT NULL DEFAULT 0,
    best_streak INTEGER          NOT NULL DEFAULT 0,
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, user_id, pool)
);

CREATE TABLE guild_settings (
    guild_id   BIGINT PRIMARY KEY,
    data       TEXT             NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    updated_by BIGINT
);
