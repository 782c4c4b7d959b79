-- bench/s1_bigint.sql -- S1 (doc/scenarios.md) baseline: one single-row INSERT per transaction into a
-- table whose primary key is a bigint identity column (table made by run.sh).
INSERT INTO s1_bigint DEFAULT VALUES;
