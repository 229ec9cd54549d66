-- Where each person finished in every rated match: "2nd of 4" (issue 31). Ratings kept
-- only wins, losses and draws, so finishing second of four at a Leiff table was stored
-- as a loss. A placement is kept per rated match and person: place of field (the number
-- of places at the table, bots' included; a board game is 1 or 2 of 2, a draw 1 of 2).
-- Partners share their team's place; equal places tie (1, 2, 2, 4).
--
-- Earlier rated matches are filled in from what they stored: board games from the
-- result's winners and draw; Leiff tables from the final state (the points of every round,
-- the teams, the engine's winners, or the people still seated when everyone else left)
-- and the seats that left, ranked as the service ranks them (matchcore/service/leiff_logic.py,
-- team_places; tests/storage/test_placements.py checks the two agree). Then a Leiff
-- rating whose every game is known counts again as the service now counts: a win is a
-- first place not shared by everyone, a draw a place everyone shared, a loss only a game
-- lost between two sides (second of four is a place, no loss), and the current run is of
-- such wins or such losses. (The best run of wins is left as it was.)

CREATE TABLE placements (
    match_id    INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    place       INTEGER NOT NULL CHECK (place >= 1),
    field       INTEGER NOT NULL CHECK (field >= 2 AND place <= field),
    finished_at REAL    NOT NULL,
    PRIMARY KEY (match_id, user_id)
);

CREATE INDEX placements_by_player ON placements(guild_id, user_id, game, finished_at);

INSERT INTO placements(match_id, user_id, guild_id, game, place, field, finished_at)
SELECT m.id, s.user_id, m.guild_id, m.game,
       CASE
           WHEN json_extract(m.result, '$.draw') THEN 1
           WHEN EXISTS (SELECT 1 FROM json_each(m.result, '$.winners') w
                        WHERE w.value = s.user_id) THEN 1
           ELSE 2
       END,
       2, COALESCE(m.finished_at, m.updated_at)
FROM matches m JOIN match_seats s ON s.match_id = m.id
WHERE m.game <> 'leiff' AND m.status = 'finished' AND m.rated = 1 AND m.vs_bot = 0
  AND m.result IS NOT NULL AND s.user_id IS NOT NULL AND s.is_bot = 0;

INSERT INTO placements(match_id, user_id, guild_id, game, place, field, finished_at)
WITH tables AS (
    SELECT m.id, m.guild_id, m.game, m.state,
           COALESCE(m.finished_at, m.updated_at) AS finished_at,
           CASE WHEN json_extract(m.state, '$.options.teams')
                THEN json_extract(m.state, '$.options.players') / 2 ELSE 0 END AS team_count
    FROM matches m
    WHERE m.game = 'leiff' AND m.status = 'finished' AND m.rated = 1 AND m.vs_bot = 0
      AND m.result IS NOT NULL AND m.state IS NOT NULL
),
seats AS (
    SELECT t.id AS match_id, s.seat, s.user_id, s.is_bot, s.removed,
           CASE WHEN t.team_count > 0 THEN s.seat % t.team_count ELSE s.seat END AS team,
           CASE
               WHEN json_type(t.state, '$.outcome') = 'object'
               THEN EXISTS (SELECT 1 FROM json_each(t.state, '$.outcome.winner') w
                            WHERE w.value = s.seat)
               ELSE s.removed = 0
           END AS won,
           (SELECT COALESCE(SUM(json_extract(r.value, '$[' || s.seat || ']')), 0)
            FROM json_each(t.state, '$.history') r) AS points
    FROM tables t JOIN match_seats s ON s.match_id = t.id
),
teams AS (
    SELECT match_id, team,
           CASE WHEN MAX(removed) = 1 THEN 2 WHEN MAX(won) = 1 THEN 0 ELSE 1 END AS kind,
           SUM(points) AS total
    FROM seats GROUP BY match_id, team
),
places AS (
    SELECT a.match_id, a.team,
           1 + (SELECT COUNT(*) FROM teams b
                WHERE b.match_id = a.match_id
                  AND (b.kind < a.kind OR (b.kind = 1 AND a.kind = 1 AND b.total < a.total)))
             AS place,
           (SELECT COUNT(*) FROM teams c WHERE c.match_id = a.match_id) AS field
    FROM teams a
),
rated AS (
    SELECT match_id FROM seats WHERE is_bot = 0 AND user_id IS NOT NULL
    GROUP BY match_id HAVING COUNT(DISTINCT team) >= 2
)
SELECT s.match_id, s.user_id, t.guild_id, t.game, p.place, p.field, t.finished_at
FROM seats s
JOIN places p ON p.match_id = s.match_id AND p.team = s.team
JOIN tables t ON t.id = s.match_id
WHERE s.is_bot = 0 AND s.user_id IS NOT NULL AND s.match_id IN (SELECT match_id FROM rated);

UPDATE ratings SET
    wins = (SELECT COUNT(*) FROM placements p
            WHERE p.guild_id = ratings.guild_id AND p.game = ratings.game
              AND p.user_id = ratings.user_id AND p.place = 1
              AND EXISTS (SELECT 1 FROM placements o
                          WHERE o.match_id = p.match_id AND o.place <> p.place)),
    draws = (SELECT COUNT(*) FROM placements p
             WHERE p.guild_id = ratings.guild_id AND p.game = ratings.game
               AND p.user_id = ratings.user_id
               AND NOT EXISTS (SELECT 1 FROM placements o
                               WHERE o.match_id = p.match_id AND o.place <> p.place)),
    losses = (SELECT COUNT(*) FROM placements p
              WHERE p.guild_id = ratings.guild_id AND p.game = ratings.game
                AND p.user_id = ratings.user_id AND p.field = 2 AND p.place = 2),
    streak = (
        SELECT COUNT(*) FROM placements p
        WHERE p.guild_id = ratings.guild_id AND p.game = ratings.game
          AND p.user_id = ratings.user_id AND p.place = 1
          AND EXISTS (SELECT 1 FROM placements o
                      WHERE o.match_id = p.match_id AND o.place <> p.place)
          AND p.finished_at > COALESCE((
              SELECT MAX(q.finished_at) FROM placements q
              WHERE q.guild_id = ratings.guild_id AND q.game = ratings.game
                AND q.user_id = ratings.user_id
                AND NOT (q.place = 1 AND EXISTS (SELECT 1 FROM placements o
                         WHERE o.match_id = q.match_id AND o.place <> q.place))), -1)
    ) - (
        SELECT COUNT(*) FROM placements p
        WHERE p.guild_id = ratings.guild_id AND p.game = ratings.game
          AND p.user_id = ratings.user_id AND p.field = 2 AND p.place = 2
          AND p.finished_at > COALESCE((
              SELECT MAX(q.finished_at) FROM placements q
              WHERE q.guild_id = ratings.guild_id AND q.game = ratings.game
                AND q.user_id = ratings.user_id AND NOT (q.field = 2 AND q.place = 2)), -1)
    )
WHERE game = 'leiff' AND pool = 'human'
  AND games = (SELECT COUNT(*) FROM placements p
               WHERE p.guild_id = ratings.guild_id AND p.game = ratings.game
                 AND p.user_id = ratings.user_id);
