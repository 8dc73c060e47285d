-- Computer analyses of finished games (issue #33): one per game, its evaluations as the server's JSON
-- (`server/src/analysis/`), kept so that a second look is instant. `analysis_requests` counts each player's
-- requests for the daily limit: one row per accepted request (a cancelled one still counts).
CREATE TABLE game_analyses (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    engine     TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE analysis_requests (
    id           INTEGER PRIMARY KEY,
    player       TEXT    NOT NULL,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    requested_at INTEGER NOT NULL
);
CREATE INDEX analysis_requests_by_player ON analysis_requests (player, requested_at);
