-- Look-alike keys, second version (#35): store::name_skeleton now also makes `vv` of `w` and `cl` of `d`, one
-- letter of `1`, `l`, `I` and `i`, and ignores `_` and `-` at either end or repeated, so `vvill`, `clown`, `adm1n`
-- and `Alice_` share the keys of `will`, `down`, `admin` and `Alice`. Every stored key was made by the first
-- version: clear them all, and the store gives every user the new one when it opens (in id order, as the first
-- backfill did). Where two existing users now look alike, the earlier keeps the key and the later none (NULL);
-- both keep their names and log in, and only new registrations that look like either are refused.
UPDATE users SET name_skeleton = NULL;
