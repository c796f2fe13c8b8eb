-- 0030_settlement_caishen (PostgreSQL): as ../0030_settlement_caishen.sql.
ALTER TABLE settlements ADD COLUMN caishen INTEGER
    CHECK (caishen IS NULL OR caishen BETWEEN 0 AND 4);
