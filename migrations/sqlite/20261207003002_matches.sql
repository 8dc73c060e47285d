-- Matches (issue #34 item 1): two players, a number of games in one room, one running score. The match's games
-- are the room's games (a match's room holds nothing else), so the score and the result are read from their
-- rows and never stored twice; the match row is written before the match's first game starts.
CREATE TABLE matches (
    id             INTEGER PRIMARY KEY,
    room           TEXT    NOT NULL,
    game           TEXT    NOT NULL,
    games          INTEGER NOT NULL,
    rated          INTEGER NOT NULL,
    first_name     TEXT    NOT NULL,
    first_user_id  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    second_name    TEXT    NOT NULL,
    second_user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at     INTEGER NOT NULL
);
CREATE INDEX matches_room ON matches (room);
-- A match's games: the room's games in order.
CREATE INDEX games_room ON games (room, id);
