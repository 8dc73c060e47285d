-- Issue #22: in a cluster every room (and so every game played in it) has one owner node at a time. The owner
-- holds a lease it renews; taking a room over (its lease expired, or it had no row) raises the epoch. Every write
-- of a game's actions or result locks its room's row and is refused unless the writer is the owner, under the
-- epoch it claimed, within its lease: a node whose lease was taken can never write again. Lease times are the
-- database's clock in milliseconds, so the nodes' clocks need not agree. SQLite serves a single node and has no
-- such table.
CREATE TABLE room_owners (
    room        TEXT   PRIMARY KEY,
    node        TEXT   NOT NULL,
    epoch       BIGINT NOT NULL,
    lease_until BIGINT NOT NULL
);
CREATE INDEX room_owners_by_node ON room_owners (node);
