-- bench/s1_time.sql -- S1 (doc/scenarios.md): one single-row INSERT per transaction into a table
-- whose primary-key default is uuid_time_nextval() (table made by run.sh).
INSERT INTO s1_time DEFAULT VALUES;
