-- Each game's cumulative ladder (issue #34 item 5; the rules are `ratings::ladder`, explained in docs/ratings.md):
-- a player's points in one game (`gomoku` for every Gomoku rule set, `othello`, `draughts`, …), moved by rated
-- games in the transaction that rates them. No row: 0 points.
CREATE TABLE ladders (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game       TEXT   NOT NULL,
    points     BIGINT NOT NULL DEFAULT 0,
    games      BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game)
);
