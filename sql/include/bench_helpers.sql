--
-- Helpers of the benchmarks' suites (sql/bench_insert.sql, bench_load.sql and
-- bench_locality.sql include this file): pg_temp.err (sql/include/err.sql),
-- and what benchmarks have left behind (scratch schemas of runs, running
-- benchmark workers).  Each suite drops the view at its end.
--
\i sql/include/err.sql
CREATE VIEW bench_leftovers AS
SELECT (SELECT count(*) FROM pg_namespace
		 WHERE nspname LIKE 'ordered\_uuid\_run\_%' OR nspname LIKE 'ordered\_uuid\_kept\_%') AS scratch_schemas,
	   (SELECT count(*) FROM pg_stat_activity
		 WHERE backend_type = 'ordered_uuid bench worker') AS bench_workers;
