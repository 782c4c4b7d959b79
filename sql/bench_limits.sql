--
-- Benchmark limits and the caller's transaction: the server-wide cap on
-- benchmark workers, read-only transactions, what commits apart from the
-- caller's transaction, and a worker's errors, warnings and notices as the
-- caller sees them.  Overlapping runs of one role are
-- specs/bench_overlap.spec.
--
\i sql/include/err.sql
LOAD 'ordered_uuid';
CREATE VIEW limits_leftovers AS
SELECT count(*) AS scratch_schemas FROM pg_namespace WHERE nspname LIKE 'ordered\_uuid\_%';

-- 1. The server-wide cap: by default half of max_worker_processes.
SHOW ordered_uuid.bench_max_workers;
SELECT split_part(pg_temp.err(format($$SELECT bench_insert(ARRAY['bigint'], 10, clients => %s)$$,
									 current_setting('max_worker_processes')::int / 2 + 1)), ':', 1)
	   AS over_the_default_cap;
SET ordered_uuid.bench_max_workers = 1;
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['bigint'], 10, clients => 2)$$);
SELECT generator, rows FROM bench_insert(ARRAY['bigint'], 10, clients => 1);
SET ordered_uuid.bench_max_workers = 0;
SELECT pg_temp.err($$SELECT bench_cleanup()$$);
RESET ordered_uuid.bench_max_workers;
-- only a superuser sets it
CREATE ROLE regress_limits_dave LOGIN;
SET ROLE regress_limits_dave;
SELECT pg_temp.err($$SET ordered_uuid.bench_max_workers = 100$$);
-- and EXECUTE on the benchmarks is granted, not PUBLIC's; the error has a
-- hint (execute_privilege_support): nobody holds EXECUTE but the owner
SELECT pg_temp.err($$SELECT bench_cleanup()$$);
SELECT bench_cleanup();
SELECT * FROM bench_insert(ARRAY['gen_random_uuid()'], rows => 10);
RESET ROLE;
DROP ROLE regress_limits_dave;
SELECT * FROM limits_leftovers;

-- 2. Read-only transactions are refused before any worker starts.
BEGIN READ ONLY;
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['bigint'], 10)$$);
SELECT pg_temp.err($$SELECT bench_bulk_load(1, 10)$$);
SELECT pg_temp.err($$SELECT bench_multi_table(2, 1, 10)$$);
SELECT pg_temp.err($$SELECT bench_locality(10, 5)$$);
SELECT pg_temp.err($$SELECT bench_cleanup()$$);
ROLLBACK;
SET default_transaction_read_only = on;
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['bigint'], 10)$$);
RESET default_transaction_read_only;
SELECT * FROM limits_leftovers;

-- 3. A benchmark's work commits in its workers, apart from the caller's
-- transaction: a schema kept inside a transaction block that rolls back
-- stays.
BEGIN;
SELECT generator, rows, kept_table LIKE 'ordered\_uuid\_kept\_%' AS kept
  FROM bench_insert(ARRAY['bigint'], 10, keep => true);
ROLLBACK;
SELECT * FROM limits_leftovers;
SET client_min_messages = warning;
DO $$
DECLARE s name;
BEGIN
	FOR s IN SELECT nspname FROM pg_namespace WHERE nspname LIKE 'ordered\_uuid\_kept\_%' LOOP
		EXECUTE format('DROP SCHEMA %I CASCADE', s);
	END LOOP;
END $$;
RESET client_min_messages;

-- 4. A worker's error reaches the caller whole: SQLSTATE, message (longer
-- than any fixed buffer), detail, hint, and context (the worker's, then the
-- worker and the phase, then the caller's).
CREATE FUNCTION limits_boom() RETURNS uuid LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'generator failed: ' || repeat('x', 3000),
		DETAIL = 'The detail of the failure.', HINT = 'The hint of the failure.';
END $$;
CREATE FUNCTION pg_temp.fields(stmt text) RETURNS TABLE (field text, value text) LANGUAGE plpgsql AS $$
DECLARE
	st text; msg text; det text; hin text; ctx text;
BEGIN
	EXECUTE stmt;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL,
		hin = PG_EXCEPTION_HINT, ctx = PG_EXCEPTION_CONTEXT;
	RETURN QUERY VALUES ('sqlstate', st), ('message length', length(msg)::text),
		('message', left(msg, 20) || '...' || right(msg, 3)), ('detail', det), ('hint', hin),
		('context', regexp_replace(regexp_replace(ctx, 'ordered_uuid_run_[0-9a-f]{16}', 'ordered_uuid_run_X', 'g'),
								   'pg_temp_[0-9]+', 'pg_temp', 'g'));
END $$;
SELECT * FROM pg_temp.fields($$SELECT bench_insert(ARRAY['limits_boom()'], 10)$$);
SELECT * FROM limits_leftovers;
-- The phase in the context holds the generator's text, clipped to fit: on a
-- character boundary, not in the middle of a two-byte 'é' (in a UTF8
-- database; the context is valid UTF-8 if convert_to() accepts it).
CREATE FUNCTION pg_temp.context_encoding(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	ctx text;
BEGIN
	EXECUTE stmt;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS ctx = PG_EXCEPTION_CONTEXT;
	BEGIN
		PERFORM convert_to(ctx, 'UTF8');
	EXCEPTION WHEN OTHERS THEN
		RETURN SQLSTATE || ': ' || SQLERRM;
	END;
	-- the line that names the worker and the phase ends in the clipped text
	RETURN 'valid, phase clipped: ' ||
		(SELECT count(*) FROM regexp_split_to_table(ctx, E'\n') l
		  WHERE l LIKE 'bench_insert worker 1, generator 1 of 1 (limits_boom() /*  ' || chr(233) || '%'
			AND l NOT LIKE '%*/%')::text;
END $$;
SELECT CASE WHEN getdatabaseencoding() = 'UTF8'
			THEN pg_temp.context_encoding(format($$SELECT bench_insert(ARRAY[%L], 10)$$,
												 'limits_boom() /*  ' || repeat(chr(233), 150) || ' */'))
			ELSE 'valid, phase clipped: 1' END AS context;

-- 5. Its warnings and notices are relayed, as the caller's
-- client_min_messages lets them through.
CREATE FUNCTION limits_chatty() RETURNS uuid LANGUAGE plpgsql AS $$
BEGIN
	RAISE WARNING 'a warning from a generator';
	RAISE NOTICE 'a notice from a generator';
	RETURN gen_random_uuid();
END $$;
SELECT generator, rows FROM bench_insert(ARRAY['limits_chatty()'], 2, rows_per_xact => 1);
SET client_min_messages = warning;
SELECT generator, rows FROM bench_insert(ARRAY['limits_chatty()'], 2, rows_per_xact => 1);
RESET client_min_messages;

-- 6. A generator that needs a lock the caller's transaction holds: the
-- worker waits for the caller, which waits for the worker.  The deadlock is
-- raised after deadlock_timeout (within the statement_timeout, which would
-- otherwise end it).
CREATE TABLE limits_locked (i int);
INSERT INTO limits_locked VALUES (1);
BEGIN;
LOCK TABLE limits_locked IN ACCESS EXCLUSIVE MODE;
SET LOCAL deadlock_timeout = '100ms';
SET LOCAL statement_timeout = '20s';
SELECT generator, rows FROM bench_insert(ARRAY['(SELECT gen_random_uuid() FROM limits_locked LIMIT 1)'], 10);
ROLLBACK;
DROP TABLE limits_locked;
DROP FUNCTION limits_boom(), limits_chatty();
SELECT * FROM limits_leftovers;
DROP VIEW limits_leftovers;
