-- Actions become an ordinary rowid table (rows in the order they were appended) with a unique index on
-- (game_id, seq), instead of a WITHOUT ROWID table clustered by (game_id, seq).
--
-- Why: a batch commits one move of each of many concurrent games. Clustered by game, every move of the batch
-- lands on a different page, and each changed page is a 4 KiB WAL frame: about 1.6 page writes per stored move.
-- In append order the rows of a batch share the last pages of the table and only the small index entries are
-- spread out: 0.5 page writes per move, and 20% less CPU per move for the same write pattern
-- (`store/examples/write_rate.rs`, see docs/storage.md). Postgres tables are heaps in append order already.
CREATE TABLE actions_in_order (
    game_id            INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq                INTEGER NOT NULL,
    action             TEXT    NOT NULL,
    ply                INTEGER,
    point              TEXT,
    used_ms            INTEGER NOT NULL,
    remaining_black_ms INTEGER,
    remaining_white_ms INTEGER,
    at                 INTEGER NOT NULL
);
INSERT INTO actions_in_order (game_id, seq, action, ply, point, used_ms, remaining_black_ms, remaining_white_ms, at)
    SELECT game_id, seq, action, ply, point, used_ms, remaining_black_ms, remaining_white_ms, at
    FROM actions ORDER BY game_id, seq;
DROP TABLE actions;
ALTER TABLE actions_in_order RENAME TO actions;
CREATE UNIQUE INDEX actions_game_seq ON actions (game_id, seq);
