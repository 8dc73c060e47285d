-- Established players (issues #35 and #36; the rules are `ratings::established`, explained in docs/ratings.md).
-- A player is established in a pool after 10 rated games there, 3 of them against different opponents who were
-- established then (games alone while the pool has fewer than 10 established players). An established player's
-- rating moves only in games against established players, and the leaderboard lists established players only.
ALTER TABLE ratings ADD COLUMN established INTEGER NOT NULL DEFAULT 0;
-- How many rows of `established_opponents` the player has in the pool.
ALTER TABLE ratings ADD COLUMN established_opponents INTEGER NOT NULL DEFAULT 0;

-- The different opponents a player met in rated games of a pool while those opponents were established.
CREATE TABLE established_opponents (
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    pool        TEXT    NOT NULL,
    opponent_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, pool, opponent_id)
) WITHOUT ROWID;

-- Whoever the leaderboard listed before (10 rated games, deviation at most 110) is established.
UPDATE ratings SET established = 1 WHERE games >= 10 AND deviation <= 110;

-- Their past opponents count as met while established (the history does not say when they became so).
INSERT INTO established_opponents (user_id, pool, opponent_id)
SELECT DISTINCT mine.user_id, mine.pool, theirs.user_id
FROM rating_changes mine
JOIN rating_changes theirs ON theirs.game_id = mine.game_id AND theirs.user_id <> mine.user_id
JOIN ratings r ON r.user_id = theirs.user_id AND r.pool = mine.pool AND r.established = 1;

UPDATE ratings SET established_opponents = (
    SELECT COUNT(*) FROM established_opponents e WHERE e.user_id = ratings.user_id AND e.pool = ratings.pool
);

-- The leaderboard: established players of one pool by rating, ties by user id (the exact ORDER BY of the query, so
-- no sort step); its other conditions (games, opponents, deviation, last game) are read from the rows it walks.
DROP INDEX ratings_leaderboard;
CREATE INDEX ratings_board ON ratings (pool, rating DESC, user_id) WHERE established;
