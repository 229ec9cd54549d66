-- AI opponents: the level of each bot seat, the per-server "vs bot" record of every human
-- (kept apart from the ratings so games against the bot never touch the leaderboard), and
-- an index to find running matches that have a bot seat (tick advances their bot turns).

ALTER TABLE match_seats ADD COLUMN bot_level TEXT;

CREATE INDEX match_seats_bots ON match_seats(match_id) WHERE is_bot = 1;

CREATE TABLE vs_bot_stats (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    level      TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, level, user_id)
);
CREATE INDEX vs_bot_stats_by_user ON vs_bot_stats(guild_id, user_id);
