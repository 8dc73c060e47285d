-- Issue #22: one lease per node instead of one per room. A node renewed every room's row each third of a lease;
-- with thousands of rooms per node that was thousands of row writes (and row locks, met by the game writes of
-- the same rooms) a second, for nothing a room needs: a node's rooms live and die together.
--
-- Now a node process registers once (a new incarnation of its node id: the previous process's lease ends at
-- once) and renews one row. A room's row names the node and the incarnation that claimed it; the room is held
-- while that incarnation's lease is live, and is free to claim (expired) once it is not. Rows claimed before this
-- migration name incarnation 0, which no node has: they are expired.
CREATE TABLE node_leases (
    node        TEXT   PRIMARY KEY,
    incarnation BIGINT NOT NULL,
    lease_until BIGINT NOT NULL
);
ALTER TABLE room_owners ADD COLUMN incarnation BIGINT NOT NULL DEFAULT 0;
ALTER TABLE room_owners DROP COLUMN lease_until;
