-- 0020_digests_kept: a digest row stays once sent (sent_at), so that the digest of one
-- quiet night is never owed twice: a decision that reached a person in the last moments
-- of their quiet hours, after the last look, is owed the digest of that night afterwards
-- unless it went already. An unsent row (sent_at NULL) is what is owed; a sent one is
-- replaced by the next night's.
ALTER TABLE digests ADD COLUMN sent_at REAL;
