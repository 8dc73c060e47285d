-- Look-alike names: each user's confusables skeleton (store::name_skeleton), unique, so that `AIice` cannot
-- register beside `Alice` even when both registrations race. Rows from before this migration start without one
-- (NULL: unique indexes admit many NULLs); the store fills them in when it opens.
ALTER TABLE users ADD COLUMN name_skeleton TEXT;
CREATE UNIQUE INDEX users_name_skeleton ON users (name_skeleton);
