-- Time controls per match and rating pools (issue 35). A match and the challenge that
-- starts it carry their time control as a code (matchcore/service/time_controls.py):
-- 'move:<seconds>' (per move) or 'game:<seconds>+<increment>' (a whole-game clock, each
-- seat's time left in match_seats.clock_left). Live and daily matches are rated apart:
-- ratings and placements carry a pool, 'live' or 'daily' (daily: a day or more a move).
--
-- Earlier matches were played on the server's per-move time (board games:
-- board_move_seconds, default a day; Leiff: leiff_turn_seconds, default 5 minutes): they
-- get that time as their control, and the ratings and places they made go to the pool it
-- falls in. A match whose code is NULL (none is written so) would read the server's time.

ALTER TABLE matches ADD COLUMN time_control TEXT;
ALTER TABLE challenges ADD COLUMN time_control TEXT;
ALTER TABLE match_seats ADD COLUMN clock_left REAL;
ALTER TABLE placements ADD COLUMN pool TEXT NOT NULL DEFAULT 'live';

UPDATE matches SET time_control = 'move:' || CAST(COALESCE(
    (SELECT json_extract(g.data, CASE WHEN matches.game = 'leiff'
                                      THEN '$.leiff_turn_seconds'
                                      ELSE '$.board_move_seconds' END)
     FROM guild_settings g WHERE g.guild_id = matches.guild_id),
    CASE WHEN matches.game = 'leiff' THEN 300 ELSE 86400 END) AS INTEGER);

UPDATE challenges SET time_control = 'move:' || CAST(COALESCE(
    (SELECT json_extract(g.data, '$.board_move_seconds')
     FROM guild_settings g WHERE g.guild_id = challenges.guild_id),
    86400) AS INTEGER);

UPDATE ratings SET pool = CASE WHEN COALESCE(
    (SELECT json_extract(g.data, CASE WHEN ratings.game = 'leiff'
                                      THEN '$.leiff_turn_seconds'
                                      ELSE '$.board_move_seconds' END)
     FROM guild_settings g WHERE g.guild_id = ratings.guild_id),
    CASE WHEN ratings.game = 'leiff' THEN 300 ELSE 86400 END) >= 86400
    THEN 'daily' ELSE 'live' END
WHERE pool = 'human';

UPDATE placements SET pool = CASE WHEN (
    SELECT CAST(substr(m.time_control, 6) AS INTEGER) FROM matches m
    WHERE m.id = placements.match_id) >= 86400 THEN 'daily' ELSE 'live' END;

DROP INDEX placements_by_player;
CREATE INDEX placements_by_player ON placements(guild_id, user_id, game, pool, finished_at);
