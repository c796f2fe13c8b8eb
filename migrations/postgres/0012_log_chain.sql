-- 0012_log_chain (PostgreSQL): as ../0012_log_chain.sql (which tells what the digest
-- is), the trigger in PL/pgSQL.
ALTER TABLE actions ADD COLUMN log_digest BYTEA
    CHECK (log_digest IS NULL OR octet_length(log_digest) = 32);

CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'actions are append-only: a stored action is never rewritten'
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_append_only();
