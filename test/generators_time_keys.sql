-- test/generators_time_keys.sql -- pgTAP: the catalog contract of the time-addressed
-- keys (signatures, volatility, strictness, parallel labels, defaults,
-- comments) and the properties planning relies on.  Run by pg_prove in a
-- database that has pgtap and ordered_uuid installed.
BEGIN;
SELECT plan(58);

-- Signatures and return types.
SELECT has_function('uuid_v7_nextval', ARRAY['interval']);
SELECT has_function('uuid_v7_nextval', ARRAY[]::name[], 'the zero-argument uuid_v7_nextval is still there');
SELECT has_function('uuid_v7_min', ARRAY['timestamp with time zone']);
SELECT has_function('uuid_v7_max', ARRAY['timestamp with time zone']);
SELECT has_function('uuid_v7_from_time', ARRAY['timestamp with time zone']);
SELECT has_function('uuid_time_block_id', ARRAY['timestamp with time zone', 'integer', 'integer']);
SELECT has_function('uuid_time_block_range', ARRAY['integer', 'integer', 'integer', 'timestamp with time zone']);
SELECT has_function('uuid_block_min', ARRAY['integer', 'integer']);
SELECT has_function('uuid_block_max', ARRAY['integer', 'integer']);
SELECT function_returns('uuid_v7_nextval', ARRAY['interval'], 'uuid');
SELECT function_returns('uuid_v7_min', ARRAY['timestamp with time zone'], 'uuid');
SELECT function_returns('uuid_v7_max', ARRAY['timestamp with time zone'], 'uuid');
SELECT function_returns('uuid_v7_from_time', ARRAY['timestamp with time zone'], 'uuid');
SELECT function_returns('uuid_time_block_id', ARRAY['timestamp with time zone', 'integer', 'integer'], 'integer');
SELECT function_returns('uuid_time_block_range', ARRAY['integer', 'integer', 'integer', 'timestamp with time zone'], 'tstzrange');
SELECT function_returns('uuid_block_min', ARRAY['integer', 'integer'], 'uuid');
SELECT function_returns('uuid_block_max', ARRAY['integer', 'integer'], 'uuid');

-- Volatility: the bounds are IMMUTABLE (folded at plan time, usable in
-- partition bounds and index conditions); anything with random bits is
-- VOLATILE.
SELECT volatility_is('uuid_v7_nextval', ARRAY['interval'], 'volatile');
SELECT volatility_is('uuid_v7_min', ARRAY['timestamp with time zone'], 'immutable');
SELECT volatility_is('uuid_v7_max', ARRAY['timestamp with time zone'], 'immutable');
SELECT volatility_is('uuid_v7_from_time', ARRAY['timestamp with time zone'], 'volatile');
SELECT volatility_is('uuid_time_block_id', ARRAY['timestamp with time zone', 'integer', 'integer'], 'immutable');
SELECT volatility_is('uuid_time_block_range', ARRAY['integer', 'integer', 'integer', 'timestamp with time zone'], 'immutable');
SELECT volatility_is('uuid_block_min', ARRAY['integer', 'integer'], 'immutable');
SELECT volatility_is('uuid_block_max', ARRAY['integer', 'integer'], 'immutable');

-- Strictness: generators are not STRICT (a NULL is an error, never a NULL
-- key); the bounds and ids are.
SELECT isnt_strict('uuid_v7_nextval', ARRAY['interval']);
SELECT isnt_strict('uuid_v7_from_time', ARRAY['timestamp with time zone']);
SELECT is_strict('uuid_v7_min', ARRAY['timestamp with time zone']);
SELECT is_strict('uuid_v7_max', ARRAY['timestamp with time zone']);
SELECT is_strict('uuid_time_block_id', ARRAY['timestamp with time zone', 'integer', 'integer']);
SELECT is_strict('uuid_time_block_range', ARRAY['integer', 'integer', 'integer', 'timestamp with time zone']);
SELECT is_strict('uuid_block_min', ARRAY['integer', 'integer']);
SELECT is_strict('uuid_block_max', ARRAY['integer', 'integer']);

-- Parallel labels: all PARALLEL SAFE.
SELECT is(
	(SELECT string_agg(p.oid::regprocedure::text || ':' || p.proparallel::text, ' ' ORDER BY p.oid::regprocedure::text COLLATE "C")
	   FROM pg_proc p
	  WHERE p.oid IN ('uuid_v7_nextval(interval)'::regprocedure, 'uuid_v7_min(timestamptz)'::regprocedure,
					  'uuid_v7_max(timestamptz)'::regprocedure, 'uuid_v7_from_time(timestamptz)'::regprocedure,
					  'uuid_time_block_id(timestamptz, int, int)'::regprocedure,
					  'uuid_time_block_range(int, int, int, timestamptz)'::regprocedure,
					  'uuid_block_min(int, int)'::regprocedure, 'uuid_block_max(int, int)'::regprocedure)),
	'uuid_block_max(integer,integer):s uuid_block_min(integer,integer):s '
	'uuid_time_block_id(timestamp with time zone,integer,integer):s '
	'uuid_time_block_range(integer,integer,integer,timestamp with time zone):s '
	'uuid_v7_from_time(timestamp with time zone):s uuid_v7_max(timestamp with time zone):s '
	'uuid_v7_min(timestamp with time zone):s uuid_v7_nextval(interval):s',
	'parallel labels: all PARALLEL SAFE');

-- Defaults: those of uuid_time_nextval and uuid_block_id, the reference now().
SELECT is(pg_get_function_arguments('uuid_time_block_id(timestamptz, int, int)'::regprocedure),
	'ts timestamp with time zone, interval_length integer DEFAULT 60, interval_count integer DEFAULT 65536',
	'uuid_time_block_id defaults');
SELECT is(pg_get_function_arguments('uuid_time_block_range(int, int, int, timestamptz)'::regprocedure),
	'block integer, interval_length integer DEFAULT 60, interval_count integer DEFAULT 65536, reference timestamp with time zone DEFAULT now()',
	'uuid_time_block_range defaults');
SELECT is(pg_get_function_arguments('uuid_block_min(int, int)'::regprocedure),
	'block integer, block_count integer DEFAULT 65536', 'uuid_block_min defaults');
SELECT is(pg_get_function_arguments('uuid_block_max(int, int)'::regprocedure),
	'block integer, block_count integer DEFAULT 65536', 'uuid_block_max defaults');
SELECT is(pg_get_function_arguments('uuid_v7_nextval(interval)'::regprocedure), 'shift interval',
	'uuid_v7_nextval(shift) has no default, so uuid_v7_nextval() stays unambiguous');

-- Comments.
SELECT is_empty(
	$$SELECT p.oid::regprocedure FROM pg_proc p
	  WHERE p.proname IN ('uuid_v7_nextval', 'uuid_v7_min', 'uuid_v7_max', 'uuid_v7_from_time', 'uuid_time_block_id',
						  'uuid_time_block_range', 'uuid_block_min', 'uuid_block_max')
		AND obj_description(p.oid, 'pg_proc') IS NULL$$, 'every new function has a comment');
SELECT is((SELECT count(*) FROM pg_proc WHERE proname = 'uuid_v7_nextval'), 2::bigint, 'two forms of uuid_v7_nextval');

-- Behaviour the planner relies on.
SET LOCAL timezone = 'UTC';
SELECT is(uuid_v7_min('2024-01-01 00:00:00.0009+00'), '018cc251-f400-7000-8000-000000000000'::uuid,
	'uuid_v7_min of a known time');
SELECT is(uuid_v7_max('2024-01-01 00:00:00+00'), '018cc251-f400-7fff-bfff-ffffffffffff'::uuid,
	'uuid_v7_max of a known time');
SELECT is(uuid_v7_time(uuid_v7_min('2024-05-06 07:08:09.123456+00')), '2024-05-06 07:08:09.123+00'::timestamptz,
	'round trip to the millisecond');
SELECT cmp_ok(uuid_v7_max('2024-01-01 00:00:00.000999+00'), '<', uuid_v7_min('2024-01-01 00:00:00.001+00'),
	'consecutive milliseconds do not overlap');
SELECT ok(uuid_v7_from_time('2024-01-01 00:00:00.0005+00') BETWEEN uuid_v7_min('2024-01-01+00') AND uuid_v7_max('2024-01-01+00'),
	'uuid_v7_from_time lies between the bounds of its millisecond');
SELECT is(uuid_block_id(uuid_block_min(uuid_time_block_id('2024-01-01 00:00:00+00'))), 24032,
	'block bounds carry the block id of the time (Unix minute 28401120 mod 65536)');
SELECT is(uuid_time_block_range(24032, reference => '2024-01-01 00:00:30+00'),
	tstzrange('2024-01-01 00:00:00+00', '2024-01-01 00:01:00+00'), 'the minute of a block');
SELECT ok(uuid_v7_nextval(interval '-1 year') < uuid_v7_min(now() - interval '364 days'), 'a shifted key sorts by its time');

-- Errors, with their SQLSTATEs.
SELECT throws_ok($$SELECT uuid_v7_min('1969-12-31 23:59:59.999999+00')$$, '22008', NULL, 'before 1970');
SELECT throws_ok($$SELECT uuid_v7_max('10889-08-02 05:31:50.656+00')$$, '22008', NULL, 'past the 48-bit milliseconds');
SELECT throws_ok($$SELECT uuid_v7_min('infinity')$$, '22008', NULL, 'infinity');
SELECT throws_ok($$SELECT uuid_v7_nextval(interval '-1000 years')$$, '22008', NULL, 'shift before 1970');
SELECT throws_ok($$SELECT uuid_v7_nextval(interval '9000 years')$$, '22008', NULL, 'shift past the year 10889');
SELECT throws_ok($$SELECT uuid_v7_nextval(NULL::interval)$$, '22004', NULL, 'NULL shift');
SELECT throws_ok($$SELECT uuid_v7_from_time(NULL)$$, '22004', NULL, 'NULL time');
SELECT throws_ok($$SELECT uuid_time_block_range(65536)$$, '22023', NULL, 'block id out of range');
SELECT throws_ok($$SELECT uuid_time_block_id('1969-12-31 23:59:59+00')$$, '22008', NULL, 'block id before 1970');

SELECT * FROM finish();
ROLLBACK;
