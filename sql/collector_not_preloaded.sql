--
-- Without shared_preload_libraries = 'ordered_uuid' (this is the normal
-- suite): the collector's views and functions raise SQLSTATE 55000 with a
-- hint naming shared_preload_libraries; everything else keeps working.
--
CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	st text;
	hint text;
BEGIN
	EXECUTE q;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, hint = PG_EXCEPTION_HINT;
	RETURN st || ' / ' || hint;
END $$;

SELECT q, pg_temp.try(q) AS result
  FROM unnest(ARRAY['SELECT * FROM wait_profile',
					'SELECT * FROM extend_lock_stats',
					'SELECT * FROM index_split_stats',
					'SELECT * FROM collector_info()',
					'SELECT * FROM wait_profile_detail',
					'SELECT * FROM wait_history',
					'SELECT * FROM collector_detail_info()',
					'SELECT * FROM relation_wal_stats',
					'SELECT * FROM relation_wal_info()',
					'SELECT ordered_uuid_reset()']) q;

-- the message itself
SELECT * FROM wait_profile;

-- the collector's settings are not defined without preload (the
-- benchmarks' ones are, whenever the library is loaded)
SELECT count(*) AS collector_settings FROM pg_settings
 WHERE name LIKE 'ordered\_uuid.%' AND name NOT LIKE 'ordered\_uuid.bench\_%';

-- generators and diagnostics still work
SELECT uuid_v7_nextval() IS NOT NULL AS v7_works;
CREATE TABLE pm_t (id int PRIMARY KEY);
SELECT pg_current_wal_insert_lsn() AS lsn0 \gset
INSERT INTO pm_t SELECT generate_series(1, 5000);
SELECT leaf_splits > 0 AS index_splits_works FROM index_splits(:'lsn0') WHERE index = 'pm_t_pkey'::regclass;
DROP TABLE pm_t;
