-- People around the board (issue #38): roles, follows, blocks, reports, sanctions, the moderators' audit log,
-- stored chat lines (the evidence of reports and a player's own data) and closed accounts.

-- `player`, `moderator` or `administrator`; the first administrator is made with `server admin grant NAME`.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'player';
-- Whether followers are told when this player starts a game (the privacy setting of follows).
ALTER TABLE users ADD COLUMN share_games INTEGER NOT NULL DEFAULT 1;
-- When the account was closed (by its owner or a moderator); its games stay, under "deleted player".
ALTER TABLE users ADD COLUMN closed_at INTEGER;

CREATE TABLE follows (
    follower   INTEGER NOT NULL REFERENCES users(id),
    followed   INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX follows_by_followed ON follows (followed);

CREATE TABLE blocks (
    blocker    INTEGER NOT NULL REFERENCES users(id),
    blocked    INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_by_blocked ON blocks (blocked);

-- Chat lines said in rooms by players (guests' lines carry their name and address range only).
CREATE TABLE chat_lines (
    id          INTEGER PRIMARY KEY,
    room        TEXT    NOT NULL,
    user_id     INTEGER REFERENCES users(id),
    name        TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    said_at     INTEGER NOT NULL,
    -- A guest's address range (what a mute of a guest holds for).
    address_range TEXT,
    removed_at  INTEGER
);
CREATE INDEX chat_lines_by_room ON chat_lines (room, id);
CREATE INDEX chat_lines_by_user ON chat_lines (user_id, id);

CREATE TABLE reports (
    id          INTEGER PRIMARY KEY,
    reporter_id INTEGER NOT NULL REFERENCES users(id),
    target_id   INTEGER NOT NULL REFERENCES users(id),
    reason      TEXT    NOT NULL,
    details     TEXT    NOT NULL,
    room        TEXT,
    game        TEXT,
    -- The evidence: a JSON array of the chat lines attached when the report was made.
    evidence    TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'open',
    created_at  INTEGER NOT NULL,
    closed_at   INTEGER,
    closed_by   INTEGER REFERENCES users(id)
);
CREATE INDEX reports_by_status ON reports (status, id);
CREATE INDEX reports_by_reporter ON reports (reporter_id, created_at);

-- Mutes and bans, of an account or of a guests' address range, until a time (NULL: for good).
CREATE TABLE sanctions (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL,
    user_id     INTEGER REFERENCES users(id),
    address_range TEXT,
    until       INTEGER,
    created_at  INTEGER NOT NULL,
    created_by  INTEGER NOT NULL REFERENCES users(id)
);
CREATE INDEX sanctions_by_user ON sanctions (user_id, kind);
CREATE INDEX sanctions_by_range ON sanctions (address_range, kind);

-- Everything a moderator did: who, when, why, to whom.
CREATE TABLE moderation_log (
    id           INTEGER PRIMARY KEY,
    moderator_id INTEGER NOT NULL REFERENCES users(id),
    moderator    TEXT    NOT NULL,
    action       TEXT    NOT NULL,
    target_id    INTEGER REFERENCES users(id),
    target       TEXT    NOT NULL,
    reason       TEXT    NOT NULL,
    detail       TEXT    NOT NULL,
    at           INTEGER NOT NULL
);

-- Notices for a player from the moderators (a warning), shown once read.
CREATE TABLE notices (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    kind       TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX notices_by_user ON notices (user_id, id);
