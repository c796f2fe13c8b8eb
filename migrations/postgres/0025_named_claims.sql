-- 0025_named_claims (PostgreSQL): as ../0025_named_claims.sql; the kind CHECK of 0021
-- (named by PostgreSQL) takes 'chi'.
ALTER TABLE claim_answers DROP CONSTRAINT claim_answers_kind_check;
ALTER TABLE claim_answers ADD CONSTRAINT claim_answers_kind_check
    CHECK (kind IN ('pong', 'kong', 'chi'));
ALTER TABLE claim_answers ADD COLUMN with_tiles TEXT;
ALTER TABLE claim_answers ADD CONSTRAINT claim_answers_with_tiles_check
    CHECK ((kind = 'chi') = (with_tiles IS NOT NULL)
           AND (with_tiles IS NULL OR length(with_tiles) = 4));
ALTER TABLE claim_answers ADD COLUMN then_discard TEXT
    CHECK (then_discard IS NULL OR length(then_discard) = 2);
