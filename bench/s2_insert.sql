-- bench/s2_insert.sql -- S2 (doc/scenarios.md): one multi-row INSERT ... SELECT batch per transaction
-- into the unindexed table s2, copying the rows of the prepared batch table s2_src
-- (455-byte rows, the same batch that s2_copy.sql loads).
INSERT INTO s2 SELECT * FROM s2_src;
