-- Whether the game's room was listed in the lobby (public) or reached only by its id (private).
ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 1;
