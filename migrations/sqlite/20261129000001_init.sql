-- Initial schema (SQLite). Times are integer milliseconds since the Unix epoch; ids are integers.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL,
    -- lower-cased name: makes names unique ignoring case
    name_key      TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    created_at    INTEGER NOT NULL
);

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    room             TEXT    NOT NULL,
    board_size       INTEGER NOT NULL,
    rule_set         TEXT    NOT NULL,
    forbidden_policy TEXT    NOT NULL,
    opening          TEXT    NOT NULL,
    time_control     TEXT    NOT NULL,
    rated            INTEGER NOT NULL,
    -- seats at the start of the game
    black_name       TEXT    NOT NULL,
    black_user_id    INTEGER REFERENCES users (id),
    white_name       TEXT    NOT NULL,
    white_user_id    INTEGER REFERENCES users (id),
    started_at       INTEGER NOT NULL,
    ended_at         INTEGER,
    -- colour as seated at the end of the game
    winner           TEXT CHECK (winner IN ('black', 'white')),
    aborted          INTEGER NOT NULL DEFAULT 0,
    reason           TEXT,
    -- whether the players exchanged colours (an odd number of accepted swaps); set when the game ends
    swapped          INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX games_unfinished ON games (id) WHERE ended_at IS NULL;
CREATE INDEX games_black_user ON games (black_user_id, id);
CREATE INDEX games_white_user ON games (white_user_id, id);

CREATE TABLE actions (
    game_id            INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq                INTEGER NOT NULL,
    action             TEXT    NOT NULL,
    -- for actions that put a stone on the board: stones on the board after it, and where
    ply                INTEGER,
    point              TEXT,
    used_ms            INTEGER NOT NULL,
    remaining_black_ms INTEGER,
    remaining_white_ms INTEGER,
    at                 INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE sessions (
    token_hash BLOB    PRIMARY KEY,
    user_id    INTEGER REFERENCES users (id) ON DELETE CASCADE,
    guest_name TEXT,
    expires_at INTEGER NOT NULL,
    CHECK ((user_id IS NULL) <> (guest_name IS NULL))
);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE ratings (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    pool       TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    tier       TEXT    NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, pool)
);
-- The leaderboard: ranked (non-provisional, deviation <= 110 as ratings::PROVISIONAL_DEVIATION) players of one
-- pool by rating, ties by user id (the exact ORDER BY of the query, so no sort step); games is in the index so the
-- min-games filter needs no table lookup.
CREATE INDEX ratings_leaderboard ON ratings (pool, rating DESC, user_id, games) WHERE deviation <= 110;

CREATE TABLE rating_changes (
    game_id           INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
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
CREATE INDEX rating_changes_user ON rating_changes (user_id, at, game_id);
