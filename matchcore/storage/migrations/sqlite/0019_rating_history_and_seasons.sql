-- Rating history and seasons (issue 35).
--
-- rating_history: a point per person and rated match, the rating (mu, sigma) and the number
-- of games in its pool after that match, written in the transaction that stores the result
-- and the new rating. /profile draws the rating graph from it. History begins with this
-- migration: earlier results are not filled in (what a rating was after each of them was
-- never stored), so an older player's graph starts at their first result after it.
-- Kept when a finished match is pruned (no reference to matches).
--
-- Seasons: a server may rate its games in seasons too (the setting 'season': monthly or
-- quarterly). season_ratings holds each season's ratings, started fresh (as a newcomer's)
-- at the season's first result and written with the all-time rating; seasons holds each
-- season of a server that had a result, with its end; the first process that claims a
-- season after its end (closed_at set from NULL) copies its final standings into
-- season_standings in the same transaction.

CREATE TABLE rating_history (
    match_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    pool     TEXT    NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    games    INTEGER NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (match_id, user_id)
);

CREATE INDEX rating_history_by_player ON rating_history(guild_id, user_id, game, pool, at);

CREATE TABLE season_ratings (
    guild_id    INTEGER NOT NULL,
    season      TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    pool        TEXT    NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, game, pool, user_id)
);

CREATE TABLE seasons (
    guild_id  INTEGER NOT NULL,
    season    TEXT    NOT NULL,
    ends_at   REAL    NOT NULL,
    closed_at REAL,
    PRIMARY KEY (guild_id, season)
);

CREATE INDEX seasons_to_close ON seasons(ends_at) WHERE closed_at IS NULL;

CREATE TABLE season_standings (
    guild_id INTEGER NOT NULL,
    season   TEXT    NOT NULL,
    game     TEXT    NOT NULL,
    pool     TEXT    NOT NULL,
    rank     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    losses   INTEGER NOT NULL,
    draws    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, game, pool, user_id)
);
