-- Issue #15: the store knows no game rules. Each game says which game it is (`game`) and which rating pool it is
-- rated in (`pool`, the text `ratings` and `rating_changes` use), both given by the server when the game is
-- created. Every game stored before is Gomoku, rated in the pool named after its rule set (as the server named
-- it then), so existing rows are filled in place and keep their meaning.
ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'gomoku';
ALTER TABLE games ADD COLUMN pool TEXT NOT NULL DEFAULT '';
UPDATE games SET pool = rule_set;
