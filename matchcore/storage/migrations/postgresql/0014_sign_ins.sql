-- Who a front end's signed-in browser speaks for (the web table's sessions: docs/web.md,
-- "Sign-in"): kept here, not in one process's memory, so a session survives a restart and
-- any process on the database knows it. Only a digest of the token is stored (SHA-256):
-- whoever reads the database cannot sign in with what they read. `data` is the front
-- end's own JSON (the member's name and locale, the Activity's instance and channel);
-- `expires_at` NULL: never (a local table's).
CREATE TABLE sign_ins (
    token_hash TEXT    PRIMARY KEY,
    user_id    BIGINT  NOT NULL,
    data       TEXT    NOT NULL,
    expires_at DOUBLE PRECISION,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX sign_ins_expiry ON sign_ins (expires_at);
