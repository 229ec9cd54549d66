-- Tournaments (issue 38): arenas, Swiss events, round robins and Leiff events. A
-- tournament's players, pairings and recorded results are one JSON state on its row,
-- rewritten by each step with a compare-and-set on its version, like a match's; the matches
-- it started are tournament_games rows written in the same transaction (recorded once the
-- step that read their result committed). claimed_by/claimed_until are the lease on its
-- steps (one process at a time); due_at is when it needs a look without any match ending
-- (the reminder, the start, an arena's end).
CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    thread_id     INTEGER,
    creator_id    INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    format        TEXT    NOT NULL CHECK (format IN ('arena', 'swiss', 'round_robin', 'tables')),
    options       TEXT    NOT NULL DEFAULT '{}',
    rated         INTEGER NOT NULL DEFAULT 1,
    status        TEXT    NOT NULL CHECK (status IN ('upcoming', 'running', 'finished', 'cancelled')),
    paused        INTEGER NOT NULL DEFAULT 0,
    state         TEXT    NOT NULL,
    version       INTEGER NOT NULL DEFAULT 0,
    starts_at     REAL,
    ends_at       REAL,
    due_at        REAL,
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    finished_at   REAL,
    claimed_by    TEXT,
    claimed_until REAL
);
CREATE INDEX tournaments_by_guild ON tournaments(guild_id, status, created_at);
CREATE INDEX tournaments_due ON tournaments(due_at) WHERE due_at IS NOT NULL;
CREATE INDEX tournaments_running ON tournaments(status) WHERE status = 'running';

CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    match_id      INTEGER NOT NULL UNIQUE REFERENCES matches(id),
    recorded      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, number)
);
CREATE INDEX tournament_games_open ON tournament_games(tournament_id) WHERE recorded = 0;

CREATE TABLE tournament_messages (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL,
    message_id    INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, kind)
);
