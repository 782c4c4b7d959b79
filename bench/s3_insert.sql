-- bench/s3_insert.sql -- S3 (doc/scenarios.md): one single-row INSERT per transaction into one of
-- 128 unindexed tables picked at random (the published case's test script);
-- s3_ins() builds the INSERT with dynamic SQL, like the published case's ins_sensor().
-- run.sh passes -D ntables=... and -D prefix=s3_l (logged) or s3_u (unlogged).
\set sid random(1, :ntables)
\set id random(1, 100000000)
SELECT s3_ins(:prefix, :sid, :id);
