-- bench/s1_random.sql -- S1 (doc/scenarios.md): one single-row INSERT per transaction into a table
-- whose primary-key default is core gen_random_uuid() (table made by run.sh).
INSERT INTO s1_random DEFAULT VALUES;
