-- Tournaments (issue 38; as the SQLite migration of this number, in PostgreSQL's types):
-- arenas, Swiss events, round robins and Leiff events. A tournament's players, pairings
-- and recorded results are one JSON state on its row, rewritten by each step with a
-- compare-and-set on its version, like a match's; the matches it started are
-- tournament_games rows written in the same transaction (recorded once the step that read
-- their result committed). claimed_by/claimed_until are the lease on its steps (one
-- process at a time); due_at is when it needs a look without any match ending (the
-- reminder, the start, an arena's end).
CREATE TABLE tournaments (
    id            BIGSERIAL PRIMARY KEY,
    guild_id      BIGINT  NOT NULL,
    channel_id    BIGINT  NOT NULL,
    thread_id     BIGINT,
    creator_id    BIGINT  NOT NULL,
    game          TEXT    NOT NULL,
    format        TEXT    NOT NULL CHECK (format IN ('arena', 'swiss', 'round_robin', 'tables')),
    options       TEXT    NOT NULL DEFAULT '{}',
    rated         BOOLEAN NOT NULL DEFAULT TRUE,
    status        TEXT    NOT NULL CHECK (status IN ('upcoming', 'running', 'finished', 'cancelled')),
    paused        BOOLEAN NOT NULL DEFAULT FALSE,
    state         TEXT    NOT NULL,
    version       INTEGER NOT NULL DEFAULT 0,
    starts_at     DOUBLE PRECISION,
    ends_at       DOUBLE PRECISION,
    due_at        DOUBLE PRECISION,
    created_at    DOUBLE PRECISION NOT NULL,
    updated_at    DOUBLE PRECISION NOT NULL,
    finished_at   DOUBLE PRECISION,
    claimed_by    TEXT,
    claimed_until DOUBLE PRECISION
);
CREATE INDEX tournaments_by_guild ON tournaments(guild_id, status, created_at);
CREATE INDEX tournaments_due ON tournaments(due_at) WHERE due_at IS NOT NULL;
CREATE INDEX tournaments_running ON tournaments(status) WHERE status = 'running';

CREATE TABLE tournament_games (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    match_id      BIGINT  NOT NULL UNIQUE REFERENCES matches(id),
    recorded      BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (tournament_id, number)
);
CREATE INDEX tournament_games_open ON tournament_games(tournament_id) WHERE NOT recorded;

CREATE TABLE tournament_messages (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL,
    message_id    BIGINT  NOT NULL,
    PRIMARY KEY (tournament_id, kind)
);
