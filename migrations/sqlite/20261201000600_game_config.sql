-- Issue #15: the store knows no game rules. A game's configuration is one text its game writes (`config`,
-- `games::storage`: `size=15,rule_set=renju,forbidden_policy=reject,opening=none` for Gomoku), stored and read
-- back as given. Every game stored before is Gomoku, so its text is made here from its four rules columns, whose
-- values are already the texts the configuration uses. The four columns stay, with what they held, but are no
-- longer written or read: they become nullable, which SQLite can only do by building the table again.
--
-- `actions` and `rating_changes` refer to `games`, and with foreign keys on, dropping `games` would delete their
-- rows (ON DELETE CASCADE); foreign keys cannot be turned off inside the migration's transaction. So both are
-- built again too, referring to the new table, and only then are the old tables dropped (the old `games` has
-- nothing referring to it any more by then). Renaming the new `games` into place updates their references.
-- Rows are copied with their ids and rowids, so actions stay in append order (20261129000003).
CREATE TABLE games_new (
    id               INTEGER PRIMARY KEY,
    room             TEXT    NOT NULL,
    game             TEXT    NOT NULL DEFAULT 'gomoku',
    config           TEXT    NOT NULL,
    -- Gomoku's rules as stored before `config`; NULL for games stored since
    board_size       INTEGER,
    rule_set         TEXT,
    forbidden_policy TEXT,
    opening          TEXT,
    pool             TEXT    NOT NULL DEFAULT '',
    time_control     TEXT    NOT NULL,
    public           INTEGER NOT NULL DEFAULT 1,
    rated            INTEGER NOT NULL,
    -- seats at the start of the game
    black_name       TEXT    NOT NULL,
    black_user_id    INTEGER REFERENCES users (id),
    white_name       TEXT    NOT NULL,
    white_user_id    INTEGER REFERENCES users (id),
    started_at       INTEGER NOT NULL,
    ended_at         INTEGER,
    -- side as seated at the end of the game
    winner           TEXT CHECK (winner IN ('black', 'white')),
    aborted          INTEGER NOT NULL DEFAULT 0,
    reason           TEXT,
    -- whether the players exchanged colours, as the server said when the game ended
    swapped          INTEGER NOT NULL DEFAULT 0,
    public_id        TEXT
);
INSERT INTO games_new (id, room, game, config, board_size, rule_set, forbidden_policy, opening, pool, time_control,
                       public, rated, black_name, black_user_id, white_name, white_user_id, started_at, ended_at,
                       winner, aborted, reason, swapped, public_id)
    SELECT id, room, game,
           'size=' || board_size || ',rule_set=' || rule_set || ',forbidden_policy=' || forbidden_policy
               || ',opening=' || opening,
           board_size, rule_set, forbidden_policy, opening, pool, time_control, public, rated, black_name,
           black_user_id, white_name, white_user_id, started_at, ended_at, winner, aborted, reason, swapped,
           public_id
    FROM games ORDER BY id;

CREATE TABLE actions_new (
    game_id            INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
    seq                INTEGER NOT NULL,
    -- the action's text in its game's notation (`h8`); rows written before the notation hold its JSON
    action             TEXT    NOT NULL,
    -- the game's move number after the action, when it counts as a move (the caller says)
    ply                INTEGER,
    -- where a stone went, written before the notation only
    point              TEXT,
    used_ms            INTEGER NOT NULL,
    remaining_black_ms INTEGER,
    remaining_white_ms INTEGER,
    at                 INTEGER NOT NULL
);
INSERT INTO actions_new (rowid, game_id, seq, action, ply, point, used_ms, remaining_black_ms, remaining_white_ms, at)
    SELECT rowid, game_id, seq, action, ply, point, used_ms, remaining_black_ms, remaining_white_ms, at
    FROM actions ORDER BY rowid;

CREATE TABLE rating_changes_new (
    game_id           INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
    user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    pool              TEXT    NOT NULL,
    rating_before     REAL    NOT NULL,
    deviation_before  REAL    NOT NULL,
    volatility_before REAL    NOT NULL,
    rating_after      REAL    NOT NULL,
    deviation_after   REAL    NOT NULL,
    volatility_after  REAL    NOT NULL,
    tier_after        TEXT    NOT NULL,
    at                INTEGER NOT NULL,
    -- a player is rated at most once per game, whatever races
    PRIMARY KEY (game_id, user_id)
);
INSERT INTO rating_changes_new (rowid, game_id, user_id, pool, rating_before, deviation_before, volatility_before,
                                rating_after, deviation_after, volatility_after, tier_after, at)
    SELECT rowid, game_id, user_id, pool, rating_before, deviation_before, volatility_before, rating_after,
           deviation_after, volatility_after, tier_after, at
    FROM rating_changes ORDER BY rowid;

-- The children first: then nothing refers to the old `games`, and dropping it deletes nothing else.
DROP TABLE actions;
DROP TABLE rating_changes;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
ALTER TABLE actions_new RENAME TO actions;
ALTER TABLE rating_changes_new RENAME TO rating_changes;

CREATE INDEX games_unfinished ON games (id) WHERE ended_at IS NULL;
CREATE INDEX games_black_user ON games (black_user_id, id);
CREATE INDEX games_white_user ON games (white_user_id, id);
CREATE UNIQUE INDEX games_public_id ON games (public_id);
CREATE UNIQUE INDEX actions_game_seq ON actions (game_id, seq);
CREATE INDEX rating_changes_user ON rating_changes (user_id, at, game_id);
