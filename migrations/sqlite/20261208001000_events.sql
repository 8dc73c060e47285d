-- Events (issue #34 items 2-4): arenas, Swiss tournaments and round robins. Every action of an event is one of
-- these rows, written before anyone hears of it, so a restarted server rebuilds each running event's standings
-- and pairings from them alone (`server/src/events/`).
CREATE TABLE events (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL,
    -- `arena`, `swiss` or `round_robin`.
    kind            TEXT    NOT NULL,
    -- The game and its rules (the wire's `GameSpec`, JSON) and the clock (`TimeControl`, JSON).
    game            TEXT    NOT NULL,
    time_control    TEXT    NOT NULL,
    -- Swiss: the rounds asked; round robin: the schedule's, once it starts; arena: 0.
    rounds          INTEGER NOT NULL,
    -- Arena: how long it runs; 0 otherwise.
    duration_ms     INTEGER NOT NULL,
    rated           INTEGER NOT NULL,
    starts_at       INTEGER NOT NULL,
    -- argon2id PHC string of a private event's password.
    password_hash   TEXT,
    creator_name    TEXT    NOT NULL,
    creator_user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    -- `upcoming`, `running` or `finished`.
    status          TEXT    NOT NULL,
    started_at      INTEGER,
    finished_at     INTEGER,
    created_at      INTEGER NOT NULL
);
CREATE INDEX events_status ON events (status, starts_at);

-- Who entered an event: a number each, in the order they joined (numbers are never reused).
CREATE TABLE event_entrants (
    event_id     INTEGER NOT NULL REFERENCES events (id),
    number       INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    user_id      INTEGER REFERENCES users (id) ON DELETE SET NULL,
    -- The server's identity key (`u12`, `g…`): seats and joins go by it.
    player_key   TEXT    NOT NULL,
    rating       INTEGER NOT NULL,
    -- Rounds already paired when the entrant joined (a late entrant misses them).
    joined_round INTEGER NOT NULL,
    withdrawn    INTEGER NOT NULL,
    joined_at    INTEGER NOT NULL,
    PRIMARY KEY (event_id, number)
);
CREATE UNIQUE INDEX event_entrants_key ON event_entrants (event_id, player_key);

-- The games an event paired (and its byes), with their results once known.
CREATE TABLE event_pairings (
    id            INTEGER PRIMARY KEY,
    event_id      INTEGER NOT NULL REFERENCES events (id),
    -- Swiss and round robin: the round (1, 2, …); arena: 0.
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    -- Entrant numbers; the first side moves first. No second: a bye.
    first_number  INTEGER NOT NULL,
    second_number INTEGER,
    room          TEXT,
    game_id       INTEGER,
    -- `first`, `second`, `draw`, `first_forfeit`, `second_forfeit`, `double_forfeit`, `bye`; none while played.
    result        TEXT,
    created_at    INTEGER NOT NULL,
    ended_at      INTEGER
);
CREATE INDEX event_pairings_event ON event_pairings (event_id, id);
CREATE INDEX event_pairings_game ON event_pairings (game_id);
