-- scripts/demo.sql -- what the demo prints (run by scripts/demo.sh).
\pset footer off
SET client_min_messages = warning;
CREATE EXTENSION ordered_uuid;
CREATE SEQUENCE demo_seq;

\echo
\echo '== 1. The generators ============================================================'
\echo 'Block-prefixed UUIDs (sequential-uuids layout): the first bytes are a block id, the'
\echo 'rest is random.  uuid_sequence_nextval takes the block from a sequence (here 4 values'
\echo 'per block), uuid_time_nextval from the clock (one block per minute by default).'
\echo 'uuid_v7_nextval is RFC 9562 version 7: a millisecond timestamp first, strictly'
\echo 'increasing within a session.  Consecutive values sort together, so a B-tree on them'
\echo 'is appended to at one place instead of being written all over.'
\echo
SELECT n,
       uuid_sequence_nextval('demo_seq', 4, 65536) AS "uuid_sequence_nextval(seq, 4)",
       uuid_time_nextval() AS "uuid_time_nextval()",
       uuid_v7_nextval() AS "uuid_v7_nextval()",
       gen_random_uuid() AS "gen_random_uuid() (random)"
FROM generate_series(1, 10) AS n;

SELECT uuid_v7_time(uuid_v7_nextval()) AS "uuid_v7_time(uuid_v7_nextval())",
       uuid_block_id(uuid_sequence_nextval('demo_seq', 4, 65536)) AS "uuid_block_id(next sequence value)";

\echo
\echo '== 2. Random vs ordered primary keys, side by side ==============================='
\echo 'Each key type fills a fresh table with' :rows 'rows (one INSERT ... SELECT, after a'
\echo 'CHECKPOINT so that full-page images are comparable).'
\echo
CREATE FUNCTION pg_temp.demo_insert(key_default text, rows bigint)
RETURNS TABLE (rows_per_sec bigint, wal_mb numeric, wal_bytes_per_row numeric, index_mb numeric)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	secs float8;
	lsn0 pg_lsn;
BEGIN
	DROP TABLE IF EXISTS demo_keys;
	IF key_default = 'bigint' THEN
		CREATE TABLE demo_keys (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, payload int);
	ELSE
		EXECUTE format('CREATE TABLE demo_keys (id uuid PRIMARY KEY DEFAULT %s, payload int)', key_default);
	END IF;
	CHECKPOINT;
	lsn0 := pg_current_wal_insert_lsn();
	t0 := clock_timestamp();
	INSERT INTO demo_keys (payload) SELECT g FROM generate_series(1, rows) AS g;
	secs := extract(epoch FROM clock_timestamp() - t0);
	RETURN QUERY SELECT (rows / secs)::bigint,
		round(pg_wal_lsn_diff(pg_current_wal_insert_lsn(), lsn0) / 1048576.0, 1),
		round(pg_wal_lsn_diff(pg_current_wal_insert_lsn(), lsn0) / rows, 1),
		round(pg_relation_size('demo_keys_pkey') / 1048576.0, 1);
END $$;

SELECT k AS key, r.*
FROM unnest(ARRAY['gen_random_uuid()', 'uuid_time_nextval()', 'uuid_sequence_nextval(''demo_seq'')',
                  'uuid_v7_nextval()', 'bigint']) WITH ORDINALITY AS k(k, i),
     LATERAL pg_temp.demo_insert(k, :rows) AS r
ORDER BY i;
DROP TABLE demo_keys;

\echo 'Random keys insert into every leaf of the index: pages split everywhere (a bigger,'
\echo 'half-empty index) and, after each checkpoint, the first change to every page writes a'
\echo 'full-page image to the WAL.  Ordered keys append at one edge of the index, so they'
\echo 'write less WAL and build a smaller index, close to a bigint key.  The gap widens as'
\echo 'the table outgrows memory (see README, "Measured results").'
