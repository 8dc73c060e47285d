-- Every guest gets an id of its own, and a guest name is held by one live guest at a time.
--
-- Why: guest names are 30 random bits, and rooms told players apart by name, so two guests whose names collided
-- could act in each other's seats (issue #13). Seats and membership now go by the id; the unique name index lets
-- the server draw names until one is free (an expired holder's row is taken over, see `create_guest_session`).
ALTER TABLE sessions ADD COLUMN guest_id TEXT;

-- Expired sessions only wait for the sweep; duplicate names among the rest keep the session that lasts longest
-- (ties: the greater token hash), so the unique index below can be built. The others sign in afresh.
DELETE FROM sessions WHERE expires_at <= (extract(epoch FROM now()) * 1000)::BIGINT;
DELETE FROM sessions
WHERE guest_name IS NOT NULL
  AND EXISTS (
      SELECT 1 FROM sessions AS o
      WHERE o.guest_name = sessions.guest_name
        AND (o.expires_at > sessions.expires_at
             OR (o.expires_at = sessions.expires_at AND o.token_hash > sessions.token_hash)));

-- The same form the server draws: 80 random bits as 20 lower-case hex digits.
UPDATE sessions SET guest_id = substr(md5(random()::TEXT || token_hash::TEXT), 1, 20) WHERE guest_name IS NOT NULL;

CREATE UNIQUE INDEX sessions_guest_name ON sessions (guest_name);
CREATE UNIQUE INDEX sessions_guest_id ON sessions (guest_id);
