-- Issue #15: the store knows no game rules. A game's configuration is one text its game writes (`config`,
-- `games::storage`: `size=15,rule_set=renju,forbidden_policy=reject,opening=none` for Gomoku), stored and read
-- back as given. Every game stored before is Gomoku, so its text is made here from its four rules columns, whose
-- values are already the texts the configuration uses. The four columns keep what they held but are no longer
-- written or read, so they become nullable.
ALTER TABLE games ADD COLUMN config TEXT;
UPDATE games SET config = 'size=' || board_size || ',rule_set=' || rule_set || ',forbidden_policy='
    || forbidden_policy || ',opening=' || opening;
ALTER TABLE games ALTER COLUMN config SET NOT NULL;
ALTER TABLE games ALTER COLUMN board_size DROP NOT NULL;
ALTER TABLE games ALTER COLUMN rule_set DROP NOT NULL;
ALTER TABLE games ALTER COLUMN forbidden_policy DROP NOT NULL;
ALTER TABLE games ALTER COLUMN opening DROP NOT NULL;
