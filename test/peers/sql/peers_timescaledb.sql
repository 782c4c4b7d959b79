--
-- TimescaleDB 2.31 hypertables partitioned by the time in ordered_uuid
-- keys: with partition_func => uuid_time (version 7 and striped keys), and
-- TimescaleDB's own UUID partitioning (version 7 only); chunks by key time,
-- and chunk exclusion for key-time ranges.  The server preloads timescaledb.
--
SET client_min_messages = warning;
CREATE DATABASE peers_timescaledb;
\c peers_timescaledb
SET timezone = 'UTC';
CREATE EXTENSION timescaledb;
-- TimescaleDB defines public.uuid_version(uuid) too: ordered_uuid cannot
-- share its schema
\set VERBOSITY terse
CREATE EXTENSION ordered_uuid;
\set VERBOSITY default
CREATE SCHEMA ordered_uuid;
CREATE EXTENSION ordered_uuid SCHEMA ordered_uuid;
SET search_path = public, ordered_uuid;

-- The chunk exclusion a query gets: the chunks it scans
CREATE FUNCTION pg_temp.chunks(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	found text[] := '{}';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF line ~ '_hyper_[0-9]+_[0-9]+_chunk' AND line ~ 'Scan on' AND line !~ 'Index Scan on _hyper|Bitmap Index' THEN
			found := found || substring(line FROM '_hyper_[0-9]+_[0-9]+_chunk');
		END IF;
	END LOOP;
	RETURN (SELECT string_agg(c.range_start::date::text, ' ' ORDER BY c.range_start)
			  FROM timescaledb_information.chunks c WHERE c.chunk_name = ANY (found));
END $$;

-- 1. partition_func => uuid_time: chunks by the key's time; version 7 keys
-- and striped keys (their block start)
CREATE TABLE metrics (id uuid NOT NULL DEFAULT uuid_v7_nextval(), v int);
SELECT create_hypertable('metrics', by_range('id', INTERVAL '1 day', partition_func => 'ordered_uuid.uuid_time'));
INSERT INTO metrics (id, v)
SELECT uuid_v7_from_time(timestamptz '2025-01-10 00:00+00' + g * interval '1 hour'), g FROM generate_series(0, 71) g;
CREATE TABLE sessions (id uuid NOT NULL DEFAULT uuid_striped_nextval(), v int);
SELECT create_hypertable('sessions', by_range('id', INTERVAL '1 day', partition_func => 'ordered_uuid.uuid_time'));
INSERT INTO sessions (v) SELECT g FROM generate_series(1, 100) g;
SELECT hypertable_name, count(*) AS chunks, min(range_start) AS first, max(range_end) AS last
  FROM timescaledb_information.chunks WHERE hypertable_name = 'metrics' GROUP BY 1;
SELECT count(*) AS striped_rows, count(*) FILTER (WHERE uuid_time(id) = date_trunc('hour', uuid_time(id))) AS at_an_hour_start,
	   (SELECT count(*) FROM timescaledb_information.chunks WHERE hypertable_name = 'sessions') AS chunks
  FROM sessions;
-- chunk exclusion on the partitioning expression; none for id <@ times
SELECT pg_temp.chunks($$SELECT * FROM metrics WHERE uuid_time(id) >= '2025-01-11 00:00+00' AND uuid_time(id) < '2025-01-12 00:00+00'$$) AS by_uuid_time,
	   pg_temp.chunks($$SELECT * FROM metrics WHERE id <@ tstzrange('2025-01-11 00:00+00', '2025-01-12 00:00+00')$$) AS by_operator;
SELECT count(*) AS rows_of_the_day FROM metrics WHERE uuid_time(id) >= '2025-01-11 00:00+00' AND uuid_time(id) < '2025-01-12 00:00+00';

-- 2. TimescaleDB's own UUID partitioning (no partition_func): version 7
-- keys only; every value compared with the key must be one too
CREATE TABLE metrics_v7 (id uuid NOT NULL DEFAULT uuid_v7_nextval(), v int);
SELECT create_hypertable('metrics_v7', by_range('id', INTERVAL '1 day'));
INSERT INTO metrics_v7 SELECT * FROM metrics;
SELECT count(*) AS chunks, min(range_start) AS first, max(range_end) AS last
  FROM timescaledb_information.chunks WHERE hypertable_name = 'metrics_v7';
SELECT pg_temp.chunks($$SELECT * FROM metrics_v7 WHERE id >= uuid_v7_min('2025-01-11 00:00+00') AND id < uuid_v7_min('2025-01-12 00:00+00')$$) AS by_v7_min,
	   pg_temp.chunks($$SELECT * FROM metrics_v7 WHERE id >= uuid_time_range_lower(tstzrange('2025-01-11 00:00+00', '2025-01-12 00:00+00'))
						  AND id < uuid_time_range_upper(tstzrange('2025-01-11 00:00+00', '2025-01-12 00:00+00'))$$) AS by_range_bounds,
	   pg_temp.chunks($$SELECT * FROM metrics_v7 WHERE id <@ tstzrange('2025-01-11 00:00+00', '2025-01-12 00:00+00')$$) AS by_operator;
SELECT count(*) AS rows_of_the_day FROM metrics_v7
 WHERE id >= uuid_v7_min('2025-01-11 00:00+00') AND id < uuid_v7_min('2025-01-12 00:00+00');
-- striped keys are version 8: refused (the key in the message masked)
CREATE FUNCTION pg_temp.err(stmt text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE stmt;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || regexp_replace(SQLERRM, '^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}', '<striped key>');
END $$;
CREATE TABLE sessions_v7 (id uuid NOT NULL DEFAULT uuid_striped_nextval(), v int);
SELECT create_hypertable('sessions_v7', by_range('id', INTERVAL '1 day'));
SELECT pg_temp.err('INSERT INTO sessions_v7 (v) VALUES (1)') AS striped_insert;
-- and so is a bound that is not a version 7 key
SELECT pg_temp.err($$SELECT count(*) FROM metrics_v7 WHERE id < 'ffffffff-ffff-ffff-ffff-ffffffffffff'$$) AS other_bound;

\c regression
DROP DATABASE peers_timescaledb;
