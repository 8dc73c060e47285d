-- Every game gets a random public id: record links and the API name games by it, so an outsider cannot walk the
-- sequential integer ids to private games. Games stored before this get a random UUID's hex; the server makes new
-- ones itself (store::new_public_id). The unique index is also the lookup of GET /api/games/{id}.
ALTER TABLE games ADD COLUMN public_id TEXT;
UPDATE games SET public_id = replace(gen_random_uuid()::text, '-', '') WHERE public_id IS NULL;
CREATE UNIQUE INDEX games_public_id ON games (public_id);
