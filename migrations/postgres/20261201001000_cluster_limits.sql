-- Issue #22: limits that hold across the nodes of a cluster, not per node.
--
-- A room's ownership row names the player who opened it, so the open rooms of a player on every node are counted
-- in one place (the room limit per player), and the count goes with the rows: a closed room's row is deleted, a
-- crashed node's rooms are taken over (still counted) or forgotten (no longer counted) by the live nodes.
-- Restored and older rows have no player and count for nobody.
ALTER TABLE room_owners ADD COLUMN player TEXT;
CREATE INDEX room_owners_by_player ON room_owners (player) WHERE player IS NOT NULL;

-- The login limits' token buckets (per address, per account name, per address and name), shared by the nodes:
-- one row per key, used in one statement each time, on the database's clock. A bucket that has refilled holds no
-- information (a new one starts full), so such rows are swept away. Unlogged: after a database crash they are
-- gone, as an in-process bucket is after a restart.
CREATE UNLOGGED TABLE login_buckets (
    key     TEXT             PRIMARY KEY,
    tokens  DOUBLE PRECISION NOT NULL,
    last_ms BIGINT           NOT NULL,
    burst   DOUBLE PRECISION NOT NULL,
    per_ms  DOUBLE PRECISION NOT NULL
);
