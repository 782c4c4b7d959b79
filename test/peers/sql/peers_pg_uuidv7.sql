--
-- doc/migrating.md's claims about pg_uuidv7, against pg_uuidv7 1.7.0: the
-- same values for the conversions, and where each differs.
--
SET client_min_messages = warning;
CREATE DATABASE peers_pg_uuidv7;
\c peers_pg_uuidv7
SET timezone = 'UTC';
CREATE EXTENSION pg_uuidv7;
-- both in one schema: no name in common
CREATE EXTENSION ordered_uuid;
SELECT extname, extversion FROM pg_extension WHERE extname = 'pg_uuidv7';

-- pg_uuidv7's conversions are STABLE; ours IMMUTABLE (folded at plan time,
-- usable in partition bounds and indexes)
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility
  FROM pg_proc p
 WHERE p.oid IN ('uuid_v7_to_timestamptz(uuid)'::regprocedure, 'uuid_timestamptz_to_v7(timestamptz, boolean)'::regprocedure,
				 'uuid_v7_to_timestamp(uuid)'::regprocedure, 'uuid_timestamp_to_v7(timestamp, boolean)'::regprocedure,
				 'uuid_v7_time(uuid)'::regprocedure, 'uuid_v7_min(timestamptz)'::regprocedure)
 ORDER BY p.oid::regprocedure::text COLLATE "C";

-- 2000 times over 1970-2100, at every sub-millisecond
CREATE TEMP TABLE pv_times AS
SELECT timestamptz '1970-01-01 00:00+00' + (g * 2053 % 130) * interval '1 year' + g * interval '1.000317 second' AS ts
  FROM generate_series(1, 2000) g;

-- uuid_timestamptz_to_v7(ts, true) is uuid_v7_min(ts), byte for byte; and
-- uuid_timestamp_to_v7(t, true) is uuid_v7_min(t AT TIME ZONE 'UTC')
SELECT count(*) AS times,
	   count(*) FILTER (WHERE uuid_timestamptz_to_v7(ts, true) <> uuid_v7_min(ts)) AS min_differs,
	   count(*) FILTER (WHERE uuid_timestamp_to_v7(ts AT TIME ZONE 'UTC', true) <> uuid_v7_min(ts)) AS timestamp_min_differs
  FROM pv_times;
-- random keys of a time: the same millisecond; pg_uuidv7's sub-millisecond
-- bits are random, ours the microseconds (so ours sort by time within it)
SELECT count(*) FILTER (WHERE uuid_v7_time(uuid_timestamptz_to_v7(ts)) <> uuid_v7_time(uuid_v7_from_time(ts))) AS ms_differs,
	   count(*) FILTER (WHERE uuid_v7_to_timestamptz(uuid_v7_from_time(ts)) <> uuid_v7_time(uuid_v7_from_time(ts))) AS read_back_differs,
	   count(*) FILTER (WHERE uuid_v7_to_timestamp(uuid_v7_from_time(ts)) <> uuid_v7_time(uuid_v7_from_time(ts)) AT TIME ZONE 'UTC') AS timestamp_read_back_differs
  FROM pv_times;
-- the time of a key: the same for version 7 keys of either; for other
-- versions pg_uuidv7 reads the first 48 bits anyway, uuid_v7_time is NULL
SELECT id, uuid_v7_to_timestamptz(id) AS pg_uuidv7, uuid_v7_time(id) AS ordered_uuid
  FROM (VALUES ('01944d82-b800-7000-8000-000000000000'::uuid), ('01944d82-b800-4000-8000-000000000000'),
			   ('01944d82-b800-8000-8000-000000000000')) v(id);
-- outside 1970 to 10889: pg_uuidv7 wraps silently, ordered_uuid raises 22008
SELECT uuid_timestamptz_to_v7('1969-12-31 23:59:59+00', true) AS pg_uuidv7_before_1970,
	   uuid_timestamptz_to_v7('infinity', true) AS pg_uuidv7_infinity;
\set VERBOSITY terse
SELECT uuid_v7_min('1969-12-31 23:59:59+00');
SELECT uuid_v7_min('infinity');
\set VERBOSITY default
-- keys of both generators in one column sort by time at the millisecond
SELECT uuid_generate_v7() AS a \gset
SELECT pg_sleep(0.002) AS a_little_later \gset
SELECT :'a'::uuid < uuid_v7_nextval() AS pg_uuidv7_then_ours_sort_by_time,
	   uuid_v7_time(:'a') < uuid_v7_time(uuid_v7_nextval()) AS time_read_back;

\c regression
DROP DATABASE peers_pg_uuidv7;
