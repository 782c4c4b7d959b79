-- test/generators.sql -- pgTAP: the catalog contract of the generators and
-- their ordering/locality properties.  Run by pg_prove in a database that has
-- pgtap and ordered_uuid installed (scripts/test-one.sh sets that up).
BEGIN;
SELECT plan(55);

-- Signatures and return types.
SELECT has_function('uuid_sequence_nextval', ARRAY['regclass', 'integer', 'integer']);
SELECT has_function('uuid_time_nextval', ARRAY['integer', 'integer']);
SELECT has_function('uuid_v7_nextval', ARRAY[]::name[]);
SELECT has_function('uuid_block_id', ARRAY['uuid', 'integer']);
SELECT has_function('uuid_v7_time', ARRAY['uuid']);
SELECT has_function('uuid_striped_nextval', ARRAY['integer']);
SELECT function_returns('uuid_sequence_nextval', ARRAY['regclass', 'integer', 'integer'], 'uuid');
SELECT function_returns('uuid_time_nextval', ARRAY['integer', 'integer'], 'uuid');
SELECT function_returns('uuid_v7_nextval', ARRAY[]::name[], 'uuid');
SELECT function_returns('uuid_block_id', ARRAY['uuid', 'integer'], 'integer');
SELECT function_returns('uuid_v7_time', ARRAY['uuid'], 'timestamp with time zone');
SELECT function_returns('uuid_striped_nextval', ARRAY['integer'], 'uuid');

-- Volatility, strictness, parallel labels.
SELECT volatility_is('uuid_sequence_nextval', ARRAY['regclass', 'integer', 'integer'], 'volatile');
SELECT volatility_is('uuid_time_nextval', ARRAY['integer', 'integer'], 'volatile');
SELECT volatility_is('uuid_v7_nextval', ARRAY[]::name[], 'volatile');
SELECT volatility_is('uuid_block_id', ARRAY['uuid', 'integer'], 'immutable');
SELECT volatility_is('uuid_v7_time', ARRAY['uuid'], 'immutable');
SELECT volatility_is('uuid_striped_nextval', ARRAY['integer'], 'volatile');
SELECT isnt_strict('uuid_sequence_nextval', ARRAY['regclass', 'integer', 'integer']);
SELECT isnt_strict('uuid_time_nextval', ARRAY['integer', 'integer']);
SELECT isnt_strict('uuid_striped_nextval', ARRAY['integer']);
-- the two-argument form (1.6.0), for a table that held random keys
SELECT has_function('uuid_striped_nextval', ARRAY['integer', 'boolean']);
SELECT function_returns('uuid_striped_nextval', ARRAY['integer', 'boolean'], 'uuid');
SELECT volatility_is('uuid_striped_nextval', ARRAY['integer', 'boolean'], 'volatile');
SELECT isnt_strict('uuid_striped_nextval', ARRAY['integer', 'boolean']);
SELECT is_strict('uuid_block_id', ARRAY['uuid', 'integer']);
SELECT is_strict('uuid_v7_time', ARRAY['uuid']);
SELECT is(
	(SELECT string_agg(p.proname || ':' || p.proparallel::text, ' ' ORDER BY p.proname COLLATE "C") FROM pg_proc p
	  JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
	  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ordered_uuid'
	  WHERE p.proname LIKE 'uuid\_%'),
	'uuid_block_id:s uuid_block_max:s uuid_block_min:s uuid_from_base32hex:s uuid_from_ulid:s uuid_sequence_nextval:u '
	'uuid_striped_nextval:s uuid_striped_nextval:s uuid_time:s uuid_time_block_id:s uuid_time_block_range:s uuid_time_decoder:s '
	'uuid_time_encoder:s uuid_time_in:s uuid_time_in_sel:s uuid_time_in_support:s uuid_time_nextval:s '
	'uuid_time_range_lower:s uuid_time_range_upper:s uuid_to_base32hex:s uuid_to_ulid:s uuid_v7_from_time:s '
	'uuid_v7_max:s uuid_v7_min:s uuid_v7_nextval:s uuid_v7_nextval:s uuid_v7_time:s uuid_version:s',
	'parallel labels: only the sequence generator is PARALLEL UNSAFE');

-- Defaults as documented.
SELECT is(pg_get_function_arguments('uuid_sequence_nextval(regclass, int, int)'::regprocedure),
	'seq regclass, block_size integer DEFAULT 65536, block_count integer DEFAULT 65536', 'uuid_sequence_nextval defaults');
SELECT is(pg_get_function_arguments('uuid_time_nextval(int, int)'::regprocedure),
	'interval_length integer DEFAULT 60, interval_count integer DEFAULT 65536', 'uuid_time_nextval defaults');
SELECT is(pg_get_function_arguments('uuid_striped_nextval(int)'::regprocedure),
	'interval_length integer DEFAULT 3600', 'uuid_striped_nextval defaults');
-- no defaults: uuid_striped_nextval() and (n) keep meaning the one-argument
-- form, which column defaults made before 1.6.0 call
SELECT is(pg_get_function_arguments('uuid_striped_nextval(int, boolean)'::regprocedure),
	'interval_length integer, right_edge boolean', 'uuid_striped_nextval(interval_length, right_edge) has no defaults');
SELECT is(pg_get_function_arguments('uuid_block_id(uuid, int)'::regprocedure),
	'id uuid, block_count integer DEFAULT 65536', 'uuid_block_id defaults');

-- Nothing of the extension runs as SECURITY DEFINER, and nothing is named uuidv7.
SELECT is_empty(
	$$SELECT p.oid::regprocedure FROM pg_proc p
	  JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
	  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ordered_uuid'
	  WHERE p.prosecdef$$, 'no SECURITY DEFINER function');
SELECT hasnt_function('public', 'uuidv7', 'no function named uuidv7 of our own');
SELECT is_empty(
	$$SELECT p.oid::regprocedure FROM pg_proc p
	  JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
	  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ordered_uuid'
	  WHERE obj_description(p.oid, 'pg_proc') IS NULL$$, 'every function has a comment');

-- Ordering and locality.
CREATE TEMP TABLE v7 AS SELECT n, uuid_v7_nextval() AS u FROM generate_series(1, 10000) AS n;
SELECT is((SELECT count(*) FROM (SELECT u > lag(u) OVER (ORDER BY n) AS up FROM v7) s WHERE NOT up), 0::bigint,
	'consecutive v7 values increase');
SELECT is((SELECT count(DISTINCT uuid_v7_time(u)) <= 10000 AND min(uuid_v7_time(u)) <= now() + interval '1 min' FROM v7), true,
	'v7 timestamps are those of this session');

CREATE TEMP SEQUENCE s;
SELECT is((SELECT count(DISTINCT substr(u::text, 1, 4)) FROM
		(SELECT uuid_sequence_nextval('s') AS u FROM generate_series(1, 1000)) x), 1::bigint,
	'a batch of sequence-generated values shares one block prefix');
SELECT is((SELECT count(DISTINCT uuid_block_id(u, 256)) FROM
		(SELECT uuid_sequence_nextval('s', 10, 256) AS u FROM generate_series(1, 100)) x), 10::bigint,
	'block_size values per block');
SELECT is((SELECT count(DISTINCT u) FROM
		(SELECT uuid_sequence_nextval('s') AS u FROM generate_series(1, 1000)) x), 1000::bigint,
	'values within one block are distinct');
SELECT is((SELECT count(DISTINCT substr(u::text, 1, 4)) <= 2 FROM
		(SELECT uuid_time_nextval() AS u FROM generate_series(1, 1000)) x), true,
	'a batch of time-generated values shares a block prefix (at most one minute boundary)');
SELECT cmp_ok(uuid_sequence_nextval('s', 1, 65536), '<', uuid_sequence_nextval('s', 1, 65536),
	'block_size 1: each value opens a higher block');
SELECT is(uuid_v7_time('018cc251-f400-7000-8000-000000000000'), '2024-01-01 00:00:00+00'::timestamptz,
	'uuid_v7_time of a known value');
SELECT is(uuid_v7_time(gen_random_uuid()), NULL, 'uuid_v7_time of a version 4 value is NULL');
SELECT has_function('uuid_version', ARRAY['uuid']);
SELECT function_returns('uuid_version', ARRAY['uuid'], 'smallint');
SELECT volatility_is('uuid_version', ARRAY['uuid'], 'immutable');
SELECT is_strict('uuid_version', ARRAY['uuid']);
SELECT is(ARRAY[uuid_version(gen_random_uuid()), uuid_version(uuid_v7_nextval()), uuid_version(uuid_striped_nextval())],
	ARRAY[4, 7, 8]::smallint[], 'uuid_version of a random, a v7 and a striped key');
SELECT is(uuid_version('00000000-0000-0000-0000-000000000000'), NULL, 'uuid_version of the nil UUID (variant 0) is NULL');
SELECT throws_ok($$SELECT uuid_time_nextval(0)$$, '22023', NULL, 'interval_length 0 is rejected');
SELECT throws_ok($$SELECT uuid_sequence_nextval('s', 1, -1)$$, '22023', NULL, 'negative block_count is rejected');
SELECT throws_ok($$SELECT uuid_sequence_nextval('pg_class')$$, '42809', NULL, 'a table is not a sequence');
SELECT throws_ok($$SELECT uuid_striped_nextval(86401)$$, '22023', NULL, 'interval_length above a day is rejected');

SELECT * FROM finish();
ROLLBACK;
