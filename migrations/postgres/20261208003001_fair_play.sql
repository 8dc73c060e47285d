-- Fair play (issue #38 item 5, `server/src/fairplay/`, `docs/fairplay.md`): after every rated game, each player's
-- moves against the engine's choices. One row per game and player; the statistic reads a player's last rows in
-- a rating pool. Flags go to `reports` (reason `fair_play`, made by the reserved account `computer-fairplay`).
CREATE TABLE fair_play_games (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL REFERENCES users (id),
    pool        TEXT    NOT NULL,
    -- The player's rating before the game, rounded.
    rating      BIGINT  NOT NULL,
    -- Moves that counted: not forced, not book, not in a decided position.
    judged      BIGINT  NOT NULL,
    top1        BIGINT  NOT NULL,
    top3        BIGINT  NOT NULL,
    -- Evaluation loss summed over the judged moves (hundredths of the game's unit, each move's capped), and
    -- how many moves the sum counts.
    loss_sum    BIGINT  NOT NULL,
    loss_moves  BIGINT  NOT NULL,
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX fair_play_games_by_player ON fair_play_games (user_id, pool, game_id);
