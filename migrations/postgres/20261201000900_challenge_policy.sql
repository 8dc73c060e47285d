-- Who may challenge a user (issue #18): `all` (default), `accounts` (registered players only, no guests) or
-- `none`. Set through PUT /api/me/challenges.
ALTER TABLE users ADD COLUMN challenges TEXT NOT NULL DEFAULT 'all';
