-- One-time password reset codes (issue #35): an operator issues one with `server reset-password NAME`, the
-- player spends it at POST /api/password/reset. Only the code's SHA-256 is kept. One code per user: a newer one
-- replaces it; it is deleted when used and whenever the password changes.
CREATE TABLE password_resets (
    user_id    BIGINT  PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    code_hash  BYTEA   NOT NULL,
    expires_at BIGINT  NOT NULL
);
