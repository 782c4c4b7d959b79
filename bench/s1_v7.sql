-- bench/s1_v7.sql -- S1 (doc/scenarios.md): one single-row INSERT per transaction into a table
-- whose primary-key default is uuid_v7_nextval() (table made by run.sh).
INSERT INTO s1_v7 DEFAULT VALUES;
