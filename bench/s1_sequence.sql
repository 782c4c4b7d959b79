-- bench/s1_sequence.sql -- S1 (doc/scenarios.md): one single-row INSERT per transaction into a table
-- whose primary-key default is uuid_sequence_nextval('s1_seq') (table made by run.sh).
INSERT INTO s1_sequence DEFAULT VALUES;
