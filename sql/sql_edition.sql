--
-- The SQL edition (ordered_uuid_sql) beside the C edition in one database:
-- installed from the plain file by a role that is no superuser and owns only
-- its schema; the same functions with the same declarations; the same
-- results, byte for byte, for every deterministic function over keys,
-- times, ranges and bad input (errors compared by SQLSTATE, message and
-- detail); each edition's keys read by the other's decoders; a table moved
-- from one edition to the other and back in place, its keys unchanged; the
-- diagnostics they share.
--
SELECT current_database() AS regress_db, current_user AS superuser \gset
\set db regress_ou_sqled
\set owner regress_ou_sqled_owner
\i sql/include/sql_edition_setup.sql
-- (a sequence of another role, for uuid_sequence_nextval's errors below)
\c - :superuser
CREATE SEQUENCE public.regress_seq_other;
\c - :owner
SET timezone = 'UTC';

-- What the installer owns: the objects of the edition, all in its schema.
SELECT n.nspname, count(*) > 30 AS many
  FROM (SELECT p.pronamespace AS ns FROM pg_proc p WHERE p.proowner = current_user::regrole
		UNION ALL SELECT c.relnamespace FROM pg_class c WHERE c.relowner = current_user::regrole
		UNION ALL SELECT o.oprnamespace FROM pg_operator o WHERE o.oprowner = current_user::regrole) AS o
  JOIN pg_namespace n ON n.oid = o.ns
 GROUP BY n.nspname;

-- The same declarations: the functions both editions have, where anything
-- differs (arguments with defaults, result, volatility, strictness, parallel
-- label, comment); then the SQL edition's own that a user may call.
WITH f AS (
	SELECT n.nspname, p.proname, oidvectortypes(p.proargtypes) AS args,
		   pg_get_function_arguments(p.oid) AS full_args, pg_get_function_result(p.oid) AS result,
		   p.provolatile, p.proisstrict, p.proparallel, p.prosecdef, obj_description(p.oid, 'pg_proc') AS comment
	  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
	 WHERE n.nspname IN ('c_ed', 'sqled'))
SELECT s.proname || '(' || s.args || ')' AS function,
	   concat_ws('; ', CASE WHEN c.full_args <> s.full_args THEN 'arguments ' || s.full_args END,
				 CASE WHEN c.result <> s.result THEN 'result ' || s.result END,
				 CASE WHEN c.provolatile <> s.provolatile THEN 'volatility ' || s.provolatile::text END,
				 CASE WHEN c.proisstrict <> s.proisstrict THEN 'strict ' || s.proisstrict END,
				 CASE WHEN c.proparallel <> s.proparallel THEN 'parallel ' || s.proparallel::text END,
				 CASE WHEN c.prosecdef <> s.prosecdef THEN 'security definer' END,
				 CASE WHEN c.comment IS DISTINCT FROM s.comment THEN 'comment ' || s.comment END) AS differs
  FROM (SELECT * FROM f WHERE nspname = 'sqled') s
  LEFT JOIN (SELECT * FROM f WHERE nspname = 'c_ed') c USING (proname, args)
 WHERE c.proname IS NULL AND s.proname NOT LIKE '\_ou\_%'
	OR c.proname IS NOT NULL AND (c.full_args, c.result, c.provolatile, c.proisstrict, c.proparallel, c.prosecdef, c.comment)
								 IS DISTINCT FROM (s.full_args, s.result, s.provolatile, s.proisstrict, s.proparallel, s.prosecdef, s.comment)
 ORDER BY 1;
-- the generators and key functions of the C edition, all there
SELECT count(*) AS generators_and_key_functions,
	   count(*) FILTER (WHERE s.oid IS NULL) AS missing
  FROM pg_proc c
  LEFT JOIN pg_proc s ON s.pronamespace = 'sqled'::regnamespace AND s.proname = c.proname
					 AND pg_get_function_identity_arguments(s.oid) = pg_get_function_identity_arguments(c.oid)
 WHERE c.pronamespace = 'c_ed'::regnamespace AND c.proname LIKE 'uuid\_%'
   AND c.proname NOT IN ('uuid_time_in_support', 'uuid_time_in_sel');
-- the operator
SELECT o.oprname, o.oprleft::regtype, o.oprright::regtype, o.oprresult::regtype, o.oprcode::regproc
  FROM pg_operator o WHERE o.oprnamespace = 'sqled'::regnamespace;

-- How the SQL edition is written: SQL and PL/pgSQL only, nothing SECURITY
-- DEFINER, every PL/pgSQL function with its search_path pinned but the two
-- generators that name everything with its schema instead (a SET costs a
-- few microseconds a call); the SQL functions without a SET are those the
-- planner inlines (a SET would stop it), whose bodies name everything with
-- its schema too.  (Below: that none of them resolves a name elsewhere.)
SELECT count(*) > 40 AS functions,
	   count(*) FILTER (WHERE l.lanname NOT IN ('sql', 'plpgsql')) AS other_languages,
	   count(*) FILTER (WHERE p.prosecdef) AS security_definer,
	   count(*) FILTER (WHERE l.lanname = 'plpgsql'
						  AND NOT coalesce(p.proconfig @> '{"search_path=pg_catalog, pg_temp"}', false)
						  AND p.proname NOT IN ('_ou_striped', 'uuid_v7_nextval')) AS plpgsql_search_path_not_pinned
  FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.pronamespace = 'sqled'::regnamespace;
SELECT p.proname
  FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.pronamespace = 'sqled'::regnamespace AND l.lanname = 'sql' AND p.proconfig IS NULL
   AND p.proname <> 'uuid_v7_nextval'	-- core's uuidv7() on 18 and later only
 ORDER BY 1;
-- what PUBLIC may do beyond calling the functions
SELECT c.relname, a.privilege_type
  FROM pg_class c, aclexplode(c.relacl) a
 WHERE c.relnamespace = 'sqled'::regnamespace AND a.grantee = 0
 ORDER BY 1, 2;

-- The functions resolve only pg_catalog's objects and their own, whatever
-- the caller's search_path: a schema before pg_catalog in it that shadows
-- every function, operator and type they use (each raising an error if
-- called) changes none of their results.
\c - :superuser
CREATE SCHEMA hostile;
GRANT USAGE ON SCHEMA hostile TO PUBLIC;
CREATE FUNCTION hostile.trap() RETURNS void LANGUAGE plpgsql AS $$ BEGIN RAISE 'a name resolved to schema hostile'; END $$;
DO $$
DECLARE
	f record;
BEGIN
	FOR f IN SELECT * FROM (VALUES ('lpad', 'text, int, text', 'text'), ('to_hex', 'bigint', 'text'), ('to_hex', 'int', 'text'),
			('substr', 'text, int, int', 'text'), ('substr', 'text, int', 'text'), ('date_part', 'text, timestamptz', 'float8'),
			('clock_timestamp', '', 'timestamptz'), ('gen_random_uuid', '', 'uuid'), ('nextval', 'regclass', 'bigint'),
			('pg_sequence_last_value', 'regclass', 'bigint'), ('uuid_send', 'uuid', 'bytea'), ('get_byte', 'bytea, int', 'int'),
			('timezone', 'text, timestamp', 'timestamptz'), ('uuidv7', '', 'uuid'), ('encode', 'bytea, text', 'text'),
			('replace', 'text, text, text', 'text'), ('greatest', 'bigint, bigint', 'bigint'), ('isfinite', 'timestamptz', 'boolean'),
			('upper', 'tstzrange', 'timestamptz'), ('lower', 'tstzrange', 'timestamptz')) v(name, args, result) LOOP
		EXECUTE format('CREATE FUNCTION hostile.%I(%s) RETURNS %s LANGUAGE plpgsql AS $f$ BEGIN PERFORM hostile.trap(); RETURN NULL; END $f$',
					   f.name, f.args, f.result);
	END LOOP;
	FOR f IN SELECT * FROM (VALUES ('||', 'text', 'text', 'text'), ('+', 'bigint', 'bigint', 'bigint'), ('-', 'bigint', 'bigint', 'bigint'),
			('*', 'bigint', 'bigint', 'bigint'), ('/', 'bigint', 'bigint', 'bigint'), ('%', 'bigint', 'bigint', 'bigint'),
			('&', 'bigint', 'bigint', 'bigint'), ('|', 'bigint', 'bigint', 'bigint'), ('>>', 'bigint', 'int', 'bigint'),
			('<<', 'bigint', 'int', 'bigint'), ('=', 'timestamptz', 'timestamptz', 'boolean'), ('<', 'int', 'int', 'boolean'),
			('>', 'int', 'int', 'boolean'), ('=', 'bigint', 'bigint', 'boolean'), ('>', 'bigint', 'bigint', 'boolean'),
			('>=', 'uuid', 'uuid', 'boolean'), ('<', 'uuid', 'uuid', 'boolean'), ('<=', 'int', 'int', 'boolean'),
			('-', 'timestamptz', 'timestamptz', 'interval'), ('*', 'float8', 'float8', 'float8'), ('|', 'int', 'int', 'int'),
			('&', 'int', 'int', 'int'), ('>>', 'int', 'int', 'int'), ('=', 'int', 'int', 'boolean')) v(op, l, r, result) LOOP
		EXECUTE format('CREATE FUNCTION hostile.op_%s(%s, %s) RETURNS %s LANGUAGE plpgsql AS $f$ BEGIN PERFORM hostile.trap(); RETURN NULL; END $f$',
					   md5(f.op || f.l || f.r), f.l, f.r, f.result);
		EXECUTE format('CREATE OPERATOR hostile.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = hostile.op_%s)',
					   f.op, f.l, f.r, md5(f.op || f.l || f.r));
	END LOOP;
END $$;
CREATE TYPE hostile.text AS (x int);
CREATE TYPE hostile.uuid AS (x int);
CREATE TYPE hostile.timestamptz AS (x int);
\c - :owner
SET timezone = 'UTC';
-- the keys this session makes carry times from the hour it started on (an
-- hour may end while it runs)
SELECT date_trunc('hour', backend_start) AS session_hour FROM pg_stat_activity WHERE pid = pg_backend_pid() \gset
CREATE TABLE sqled.shadowed (id uuid PRIMARY KEY DEFAULT sqled.uuid_striped_nextval(), v7 uuid DEFAULT sqled.uuid_v7_nextval(), n int);
CREATE TEMP TABLE plain_path AS
SELECT sqled.uuid_v7_min('2025-01-10 12:34:56.789+00') AS v7_min, sqled.uuid_time('01944d82-b800-8000-8000-000000000000') AS t,
	   sqled.uuid_time_range_upper('[2025-01-10,2025-01-11)') AS upper_bound, sqled.uuid_block_id('01944d82-b800-4000-8000-000000000000', 1000) AS block,
	   sqled.uuid_to_ulid('01944d82-b800-7000-8000-000000000000') AS ulid, sqled.ordered_uuid_sql_version() AS version;
SET search_path = hostile, pg_catalog, sqled;
INSERT INTO sqled.shadowed (n) SELECT g FROM generate_series(1, 1000) g;
SELECT count(*) AS rows, count(*) FILTER (WHERE sqled.uuid_version(id) = 8 AND sqled.uuid_version(v7) = 7) AS keys_right,
	   count(*) FILTER (WHERE id OPERATOR(sqled.<@) tstzrange(:'session_hour', NULL)) AS found_by_time
  FROM sqled.shadowed;
SELECT (sqled.uuid_v7_min('2025-01-10 12:34:56.789+00'), sqled.uuid_time('01944d82-b800-8000-8000-000000000000'),
		sqled.uuid_time_range_upper('[2025-01-10,2025-01-11)'), sqled.uuid_block_id('01944d82-b800-4000-8000-000000000000', 1000),
		sqled.uuid_to_ulid('01944d82-b800-7000-8000-000000000000'), sqled.ordered_uuid_sql_version())::pg_catalog.text
	 OPERATOR(pg_catalog.=) (SELECT row(p.*)::pg_catalog.text FROM plain_path p) AS same_results,
	   sqled.uuid_version(sqled.uuid_time_nextval()) AS time_key, sqled.uuid_version(sqled.uuid_v7_nextval('1 day')) AS shifted_key,
	   sqled.uuid_v7_from_time(now()) IS NOT NULL AS backfill_key;
RESET search_path;
\c - :superuser
DROP SCHEMA hostile CASCADE;
\c - :owner
SET timezone = 'UTC';
SELECT date_trunc('hour', backend_start) AS session_hour, backend_start AS session_start
  FROM pg_stat_activity WHERE pid = pg_backend_pid() \gset

-- Byte for byte: every deterministic function of both editions on the same
-- arguments, as text; an error as SQLSTATE, message and detail.
CREATE FUNCTION pg_temp.val(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r text;
	st text;
	msg text;
	det text;
BEGIN
	EXECUTE q INTO r;
	RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
	RETURN 'ERROR ' || st || ': ' || msg || coalesce(' / ' || nullif(det, ''), '');
END $$;
-- fixed: the arguments are the same in every run (not a generated key)
CREATE TEMP TABLE cases (fn text, args text, fixed boolean DEFAULT true);
CREATE TEMP TABLE outcome AS
SELECT ''::text AS fn, ''::text AS args, ''::text AS c, ''::text AS s, true AS fixed LIMIT 0;
CREATE FUNCTION pg_temp.run_cases() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	k record;
BEGIN
	FOR k IN SELECT * FROM cases LOOP
		INSERT INTO outcome VALUES (k.fn, k.args,
			pg_temp.val(format('SELECT c_ed.%s(%s)::text', k.fn, k.args)),
			pg_temp.val(format('SELECT sqled.%s(%s)::text', k.fn, k.args)), k.fixed);
	END LOOP;
	DELETE FROM cases;
END $$;

-- Keys: 400 of every bit pattern (md5), the edges of every field, and keys
-- of both editions' generators (generated: they carry the time of the run,
-- so which of them a function refuses varies from run to run).
CREATE TEMP TABLE keys AS
SELECT md5(g::text)::uuid AS id FROM generate_series(1, 400) g
UNION ALL
SELECT (lpad(to_hex(ms), 12, '0') || v || f || va || '000' || tail)::uuid
  FROM unnest(ARRAY[0, 1, 1736467200000, 281474976710654, 281474976710655]::bigint[]) ms,
	   unnest(ARRAY['0', '7', '8', 'f']) v, unnest(ARRAY['000', 'fff']) f,
	   unnest(ARRAY['0', '8', 'b', 'f']) va, unnest(ARRAY['000000000000', 'ffffffffffff']) tail;
ALTER TABLE keys ADD COLUMN generated boolean DEFAULT false;
INSERT INTO keys (id, generated)
SELECT c_ed.uuid_v7_nextval(), true FROM generate_series(1, 40)
UNION ALL SELECT sqled.uuid_v7_nextval(), true FROM generate_series(1, 40)
UNION ALL SELECT c_ed.uuid_v7_nextval('-7 days'), true FROM generate_series(1, 20)
UNION ALL SELECT sqled.uuid_v7_nextval('-7 days'), true FROM generate_series(1, 20)
UNION ALL SELECT c_ed.uuid_striped_nextval(i), true FROM unnest(ARRAY[1, 60, 3600, 86400]) i, generate_series(1, 10)
UNION ALL SELECT sqled.uuid_striped_nextval(i), true FROM unnest(ARRAY[1, 60, 3600, 86400]) i, generate_series(1, 10)
UNION ALL SELECT c_ed.uuid_striped_nextval(60, false), true FROM generate_series(1, 10)
UNION ALL SELECT sqled.uuid_striped_nextval(60, false), true FROM generate_series(1, 10)
UNION ALL SELECT c_ed.uuid_time_nextval(), true FROM generate_series(1, 20)
UNION ALL SELECT sqled.uuid_time_nextval(1, 1000), true FROM generate_series(1, 20);
SELECT count(*) AS keys, count(DISTINCT c_ed.uuid_version(k.id)) AS versions FROM keys k;
INSERT INTO cases
SELECT f, format('%L::uuid', id), NOT generated FROM keys,
	   unnest(ARRAY['uuid_v7_time', 'uuid_version', 'uuid_time', 'uuid_to_ulid', 'uuid_to_base32hex']) f
UNION ALL SELECT 'uuid_block_id', format('%L::uuid, %s', id, bc), NOT generated
  FROM keys, unnest(ARRAY[1, 256, 257, 65537, 16777217, 2147483647]) bc
UNION ALL SELECT 'uuid_time_decoder', format('%L', upper(id::text)), NOT generated FROM keys
UNION ALL SELECT 'uuid_from_ulid', format('%L', lower(c_ed.uuid_to_ulid(id))), NOT generated FROM keys
UNION ALL SELECT 'uuid_from_base32hex', format('%L', c_ed.uuid_to_base32hex(id) || '======'), NOT generated FROM keys;
SELECT pg_temp.run_cases();

-- Times: the ends of version 7's range and of the timestamp type, the
-- infinities, days and hours with their neighbouring microseconds, and 300
-- times of every microsecond pattern from 1960 to 11000.
CREATE TEMP TABLE times AS
SELECT ts FROM unnest(ARRAY['-infinity', 'infinity', '4713-11-24 00:00:00+00 BC', '294276-12-31 23:59:59.999999+00',
							'1969-12-31 23:59:59.999999+00', '1970-01-01 00:00:00+00', '1970-01-01 00:00:00.000001+00',
							'1970-01-01 00:00:00.999+00', '2025-01-10 00:00:00+00', '2025-01-09 23:59:59.999999+00',
							'2025-02-10 12:34:56.789123+00', '2038-01-19 03:14:08+00',
							'10889-08-02 05:31:50.655+00', '10889-08-02 05:31:50.655999+00',
							'10889-08-02 05:31:50.656+00']::timestamptz[]) ts
UNION ALL
SELECT timestamptz '1960-01-01 00:00:00+00'
	   + (('x' || substr(md5(g::text), 1, 15))::bit(60)::bigint % 283000000000000000) * interval '1 microsecond'
  FROM generate_series(1, 300) g;
INSERT INTO cases
SELECT f, format('%L::timestamptz', ts) FROM times, unnest(ARRAY['uuid_v7_min', 'uuid_v7_max', 'uuid_time_encoder']) f
UNION ALL SELECT 'uuid_time_block_id', format('%L::timestamptz, %s, %s', ts, il, ic)
  FROM times, (VALUES (60, 65536), (1, 100), (3600, 256), (7, 16777216), (60, 1000), (2147483647, 2147483647)) l(il, ic)
UNION ALL SELECT 'uuid_time_block_range', format('%s, %s, %s, %L::timestamptz', b, il, ic, ts)
  FROM times, (VALUES (60, 65536), (1, 100), (60, 1000), (2147483647, 2147483647)) l(il, ic),
	   unnest(ARRAY[0, 19602, 255]) b;
SELECT pg_temp.run_cases();

-- Ranges: every pair of some edge times, with each of the four bound
-- kinds, unbounded sides, the empty range.
CREATE TEMP TABLE ranges AS
SELECT tstzrange(a, b, k) AS r
  FROM unnest(ARRAY[NULL, '-infinity', '1969-12-31 23:59:59.999+00', '1970-01-01 00:00:00+00',
					'1970-01-01 00:00:00.0005+00', '2025-01-10 00:00:00+00', '2025-01-10 00:00:00.000999+00',
					'2025-01-10 00:00:00.001+00', '2025-01-10 01:00:00+00', '10889-08-02 05:31:50.655+00',
					'10889-08-02 05:31:50.655999+00', 'infinity']::timestamptz[]) a,
	   unnest(ARRAY[NULL, '-infinity', '1970-01-01 00:00:00+00', '1970-01-01 00:00:00.000999+00',
					'2025-01-10 00:00:00+00', '2025-01-10 00:00:00.001+00', '2025-01-10 00:00:00.0015+00',
					'2025-01-10 01:00:00+00', '10889-08-02 05:31:50.655+00', '10889-08-02 05:31:50.656+00',
					'infinity']::timestamptz[]) b,
	   unnest(ARRAY['[)', '[]', '(]', '()']) k
 WHERE a IS NULL OR b IS NULL OR a <= b
UNION ALL SELECT 'empty'::tstzrange;
-- uuid_time_in: each range against the keys that carry a time at its edges
-- (those of the edge milliseconds), some of both generators, a key that
-- carries none, and NULLs.
INSERT INTO cases
SELECT f, format('%L::tstzrange', r) FROM ranges, unnest(ARRAY['uuid_time_range_lower', 'uuid_time_range_upper']) f
UNION ALL SELECT 'uuid_time_in', format('%L::uuid, %L::tstzrange', id, r)
  FROM ranges,
	   (SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS i FROM keys WHERE c_ed.uuid_time(id) IS NOT NULL) k
		 WHERE i % 4 = 0
		UNION ALL VALUES ('01944d82-b800-4000-8000-000000000000'::uuid), (NULL)) k
UNION ALL SELECT 'uuid_time_in', format('%L::uuid, NULL', id) FROM keys WHERE id::text LIKE '0%';
SELECT pg_temp.run_cases();

-- Bad input, and what is not a bad input: NULLs, block ids outside the
-- prefix, sizes and counts out of range, texts that are not a key.
INSERT INTO cases VALUES
	('uuid_block_id', $$'01944d82-b800-7000-8000-000000000000', 0$$),
	('uuid_block_id', $$'01944d82-b800-7000-8000-000000000000', -5$$),
	('uuid_block_id', $$NULL, 256$$),
	('uuid_block_min', $$-1$$), ('uuid_block_min', $$256, 256$$), ('uuid_block_min', $$255, 256$$),
	('uuid_block_min', $$65536$$), ('uuid_block_min', $$0, 0$$), ('uuid_block_min', $$5, 2147483647$$),
	('uuid_block_max', $$2147483647, 2147483647$$), ('uuid_block_max', $$70000, 100000$$),
	('uuid_block_max', $$16777216, 16777216$$), ('uuid_block_max', $$0, -1$$), ('uuid_block_max', $$NULL$$),
	('uuid_time_block_id', $$now(), 0$$), ('uuid_time_block_id', $$now(), 60, 0$$),
	('uuid_time_block_id', $$now(), NULL$$),
	('uuid_time_block_range', $$0, 0$$), ('uuid_time_block_range', $$0, 60, -1$$),
	('uuid_time_block_range', $$-1$$), ('uuid_time_block_range', $$65536$$),
	('uuid_time_block_range', $$5, 60, 65536, NULL$$),
	('uuid_from_ulid', $$''$$), ('uuid_from_ulid', $$'01ARZ3NDEKTSV4RRFFQ69G5FA'$$),
	('uuid_from_ulid', $$'01ARZ3NDEKTSV4RRFFQ69G5FAVV'$$), ('uuid_from_ulid', $$'81ARZ3NDEKTSV4RRFFQ69G5FAV'$$),
	('uuid_from_ulid', $$'01ARZ3NDEKTSV4RRFFQ69G5FAU'$$), ('uuid_from_ulid', $$'01ARZ3NDEKTSV4RRFFQ69G5FIL'$$),
	('uuid_from_ulid', $$'01ARZ3NDEK-SV4RRFFQ69G5FAV'$$), ('uuid_from_ulid', $$'01ARZ3NDEKTSV4RRFFQ69G5FÄ'$$),
	('uuid_from_ulid', $$'7ZZZZZZZZZZZZZZZZZZZZZZZZZ'$$), ('uuid_from_ulid', $$'01arz3ndektsv4rrffq69g5fav'$$),
	('uuid_from_base32hex', $$'06A4R0LO01O010000000000000'$$),
	('uuid_from_base32hex', $$'06A4R0LO01O01000000000000'$$),
	('uuid_from_base32hex', $$'06A4R0LO01O010000000000001'$$),
	('uuid_from_base32hex', $$'06A4R0LO01O01000000000000W'$$),
	('uuid_from_base32hex', $$'06A4R0LO01O010000000000000====='$$),
	('uuid_from_base32hex', $$'06a4r0lo01o010000000000000======'$$),
	('uuid_from_base32hex', $$'VVVVVVVVVVVVVVVVVVVVVVVVVS'$$),
	('uuid_time_decoder', $$'not a uuid'$$), ('uuid_time_decoder', $$'{01944d82-b800-7000-8000-000000000000}'$$),
	('uuid_v7_from_time', $$NULL$$), ('uuid_v7_from_time', $$'1969-12-31 23:59:59.999999+00'$$),
	('uuid_v7_from_time', $$'infinity'$$), ('uuid_v7_from_time', $$'10889-08-02 05:31:50.656+00'$$),
	('uuid_v7_nextval', $$NULL::interval$$), ('uuid_v7_nextval', $$'-60 years'$$),
	('uuid_v7_nextval', $$'9000 years'$$), ('uuid_v7_nextval', $$'300000 years'$$),
	('uuid_striped_nextval', $$0$$), ('uuid_striped_nextval', $$86401$$), ('uuid_striped_nextval', $$NULL$$),
	('uuid_striped_nextval', $$3600, NULL$$), ('uuid_striped_nextval', $$0, false$$),
	('uuid_striped_nextval', $$NULL, NULL$$),
	('uuid_time_nextval', $$0$$), ('uuid_time_nextval', $$60, 0$$), ('uuid_time_nextval', $$NULL$$),
	('uuid_time_nextval', $$60, NULL$$),
	('uuid_sequence_nextval', $$NULL$$), ('uuid_sequence_nextval', $$'pg_class'$$),
	('uuid_sequence_nextval', $$'no_such_seq'$$), ('uuid_sequence_nextval', $$'regress_seq', 0$$),
	('uuid_sequence_nextval', $$'regress_seq', 1, 0$$), ('uuid_sequence_nextval', $$'regress_seq', NULL$$),
	('uuid_sequence_nextval', $$'regress_seq_done'$$), ('uuid_sequence_nextval', $$'public.regress_seq_other'$$),
	('index_shape', $$NULL$$), ('index_shape', $$'pg_class'$$), ('index_shape', $$'moved_hash'$$),
	('index_shape', $$'parted_id_idx'$$), ('index_shape', $$12345678$$),
	('heap_locality', $$NULL, 'id'$$), ('heap_locality', $$'moved', 'nope'$$),
	('heap_locality', $$'moved_hash', 'id'$$);

-- for the errors above: sequences, indexes of the kinds index_shape refuses
CREATE TEMP SEQUENCE regress_seq;
CREATE TEMP SEQUENCE regress_seq_done MAXVALUE 2 START 2;
SELECT nextval('regress_seq_done');
CREATE TABLE sqled.moved (id uuid PRIMARY KEY DEFAULT c_ed.uuid_striped_nextval(), n int);
CREATE INDEX moved_hash ON sqled.moved USING hash (id);
CREATE TABLE sqled.parted (id uuid, n int) PARTITION BY RANGE (id);
CREATE INDEX parted_id_idx ON sqled.parted (id);
SET search_path = sqled, pg_temp;
SELECT pg_temp.run_cases();
RESET search_path;

-- (errors and their SQLSTATEs: of the fixed inputs only; the generated
-- keys' depend on the clock, as uuid_block_id() of a key whose block number
-- is past the block count)
SELECT fn AS function, count(*) AS cases,
	   count(*) FILTER (WHERE c IS DISTINCT FROM s
						  AND (c LIKE 'ERROR%' OR s LIKE 'ERROR%' OR fn NOT IN ('uuid_v7_nextval', 'uuid_v7_from_time',
								  'uuid_striped_nextval', 'uuid_time_nextval', 'uuid_sequence_nextval'))) AS differ,
	   count(*) FILTER (WHERE c LIKE 'ERROR%' AND fixed) AS errors,
	   string_agg(DISTINCT substr(c, 7, 5), ' ') FILTER (WHERE c LIKE 'ERROR%' AND fixed) AS sqlstates
  FROM outcome GROUP BY fn ORDER BY fn;
-- what differs, if anything (generators' keys are random: their errors only)
SELECT fn, args, c AS c_edition, s AS sql_edition FROM outcome
 WHERE c IS DISTINCT FROM s
   AND NOT (fn IN ('uuid_v7_nextval', 'uuid_v7_from_time', 'uuid_striped_nextval', 'uuid_time_nextval',
				   'uuid_sequence_nextval') AND c NOT LIKE 'ERROR%' AND s NOT LIKE 'ERROR%')
   AND NOT (fn = 'index_shape' AND c NOT LIKE 'ERROR%')
 ORDER BY 1, 2;
-- the errors of the bad input above, as both editions raise them
SELECT fn, args, c AS error FROM outcome
 WHERE c LIKE 'ERROR%' AND NOT (fn = 'uuid_sequence_nextval' AND args = $$'pg_class'$$) AND (fn NOT IN ('uuid_block_id', 'uuid_time_block_id', 'uuid_time_block_range', 'uuid_v7_min',
									   'uuid_v7_max', 'uuid_time_encoder', 'uuid_time_decoder', 'uuid_from_ulid',
									   'uuid_from_base32hex') OR args NOT LIKE '%::%')
 ORDER BY 1, 2;

-- (Two whose errors depend on the PostgreSQL version: nextval() of a table,
-- and an infinite shift, which PostgreSQL 14-16 cannot even read.)
SELECT pg_temp.val($$SELECT c_ed.uuid_sequence_nextval('pg_class')$$)
	 = pg_temp.val($$SELECT sqled.uuid_sequence_nextval('pg_class')$$) AS nextval_of_a_table_alike,
	   pg_temp.val($$SELECT c_ed.uuid_v7_nextval('infinity'::interval)$$)
	 = pg_temp.val($$SELECT sqled.uuid_v7_nextval('infinity'::interval)$$) AS infinite_shift_alike;

-- Each edition's keys, read by the other's decoders: the time a key
-- carries, its version, its block.  (The functions agree byte for byte
-- above; here, on what they say about fresh keys.)  A striped fill key
-- carries the time of the front key it fills beside, which this session
-- may have made in an earlier statement, an earlier minute: its time lies
-- between the session's start (session_start, above) and now.
SELECT now() AS t0 \gset
SELECT g.edition, g.generator, count(*) AS keys,
	   count(*) FILTER (WHERE c_ed.uuid_version(g.id) = g.version AND sqled.uuid_version(g.id) = g.version) AS version_ok,
	   count(*) FILTER (WHERE sqled.uuid_time(g.id) IS NOT DISTINCT FROM c_ed.uuid_time(g.id)
						  AND sqled.uuid_v7_time(g.id) IS NOT DISTINCT FROM c_ed.uuid_v7_time(g.id)
						  AND sqled.uuid_block_id(g.id, 1000) = c_ed.uuid_block_id(g.id, 1000)) AS decoded_alike,
	   count(*) FILTER (WHERE CASE g.version
			WHEN 7 THEN c_ed.uuid_v7_time(g.id) BETWEEN date_trunc('milliseconds', :'t0'::timestamptz) AND clock_timestamp()
			WHEN 8 THEN c_ed.uuid_time(g.id) BETWEEN date_trunc('minute', :'session_start'::timestamptz) AND clock_timestamp()
						AND extract(second FROM c_ed.uuid_time(g.id)) = 0
			ELSE (c_ed.uuid_block_id(g.id, 1000) - c_ed.uuid_time_block_id(:'t0', 1, 1000) + 65536) % 65536 < 600 END)
		 AS time_or_block_ok
  FROM (SELECT 'C' AS edition, 'v7' AS generator, 7 AS version, c_ed.uuid_v7_nextval() AS id FROM generate_series(1, 1000)
		UNION ALL SELECT 'SQL', 'v7', 7, sqled.uuid_v7_nextval() FROM generate_series(1, 1000)
		UNION ALL SELECT 'C', 'striped', 8, c_ed.uuid_striped_nextval(60) FROM generate_series(1, 1000)
		UNION ALL SELECT 'SQL', 'striped', 8, sqled.uuid_striped_nextval(60) FROM generate_series(1, 1000)
		UNION ALL SELECT 'C', 'time', 4, c_ed.uuid_time_nextval(1, 1000) FROM generate_series(1, 1000)
		UNION ALL SELECT 'SQL', 'time', 4, sqled.uuid_time_nextval(1, 1000) FROM generate_series(1, 1000)) g
 GROUP BY 1, 2 ORDER BY 2, 1;
-- Block-prefixed keys of a sequence: the block of value v is v / block_size.
CREATE SEQUENCE sqled.s1;
SELECT count(*) AS keys,
	   count(*) FILTER (WHERE c_ed.uuid_block_id(k, 256) = (n - 1) / 3 % 256
						  AND sqled.uuid_block_id(k, 256) = (n - 1) / 3 % 256) AS block_ok,
	   count(DISTINCT k) AS distinct_keys
  FROM (SELECT n, CASE WHEN n % 2 = 0 THEN c_ed.uuid_sequence_nextval('sqled.s1', 3, 256)
					   ELSE sqled.uuid_sequence_nextval('sqled.s1', 3, 256) END AS k
		  FROM generate_series(1, 2000) n) s;

-- uuid_v7_nextval: strictly increasing within a session, both forms, the
-- shift form by the same clock.
SELECT count(*) AS keys, count(*) FILTER (WHERE id <= prev) AS not_increasing
  FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
		  FROM (SELECT n, sqled.uuid_v7_nextval() AS id FROM generate_series(1, 100000) n) k) x;
SELECT count(*) AS keys, count(*) FILTER (WHERE id <= prev) AS not_increasing,
	   count(*) FILTER (WHERE sqled.uuid_v7_time(id) NOT BETWEEN date_trunc('milliseconds', now() + interval '1 hour')
															AND clock_timestamp() + interval '1 hour') AS not_an_hour_on
  FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
		  FROM (SELECT n, sqled.uuid_v7_nextval(interval '1 hour') AS id FROM generate_series(1, 20000) n) k) x;
-- backfilled keys carry their time to the millisecond
SELECT count(*) FILTER (WHERE sqled.uuid_v7_time(sqled.uuid_v7_from_time(ts)) = date_trunc('milliseconds', ts)
						  AND c_ed.uuid_v7_time(sqled.uuid_v7_from_time(ts)) = date_trunc('milliseconds', ts)
						  AND substr(sqled.uuid_v7_from_time(ts)::text, 15, 4) = substr(c_ed.uuid_v7_from_time(ts)::text, 15, 4))
	   AS same_time_and_fraction, count(*) AS times
  FROM times WHERE ts BETWEEN '1970-01-01' AND '10889-08-01';

-- A table moves between editions in place: its default switches to the
-- other edition's function of the same name and arguments; its keys stay as
-- they are, new keys join them, no two share all but their random bits, and
-- both editions' operators find all of them by time.  Then back again.
\i sql/include/striped_fields.sql
INSERT INTO sqled.moved (n) SELECT g FROM generate_series(1, 3000) g;
CREATE TEMP TABLE before_move AS SELECT * FROM sqled.moved;
ALTER TABLE sqled.moved ALTER COLUMN id SET DEFAULT sqled.uuid_striped_nextval();
INSERT INTO sqled.moved (n) SELECT g FROM generate_series(3001, 6000) g;
ALTER TABLE sqled.moved ALTER COLUMN id SET DEFAULT c_ed.uuid_striped_nextval();
INSERT INTO sqled.moved (n) SELECT g FROM generate_series(6001, 9000) g;
SELECT pg_get_expr(d.adbin, d.adrelid) AS default_now
  FROM pg_attrdef d WHERE d.adrelid = 'sqled.moved'::regclass;
SELECT count(*) AS rows, count(DISTINCT pg_temp.all_but_random(id)) AS distinct_but_random,
	   (SELECT count(*) FROM before_move b JOIN sqled.moved m USING (id, n)) AS first_keys_unchanged,
	   count(*) FILTER (WHERE c_ed.uuid_version(id) = 8 AND sqled.uuid_version(id) = 8) AS version_8,
	   count(*) FILTER (WHERE id OPERATOR(c_ed.<@) tstzrange(:'session_hour', NULL)
						  AND id OPERATOR(sqled.<@) tstzrange(:'session_hour', NULL)) AS found_by_time_in_both
  FROM sqled.moved;
-- the same with version 7 keys: in time order across both moves
CREATE TABLE sqled.moved7 (n int PRIMARY KEY, id uuid UNIQUE DEFAULT sqled.uuid_v7_nextval());
INSERT INTO sqled.moved7 (n) SELECT g FROM generate_series(1, 1000) g;
ALTER TABLE sqled.moved7 ALTER COLUMN id SET DEFAULT c_ed.uuid_v7_nextval();
INSERT INTO sqled.moved7 (n) SELECT g FROM generate_series(1001, 2000) g;
ALTER TABLE sqled.moved7 ALTER COLUMN id SET DEFAULT sqled.uuid_v7_nextval();
INSERT INTO sqled.moved7 (n) SELECT g FROM generate_series(2001, 3000) g;
SELECT count(*) AS rows, count(*) FILTER (WHERE id <= prev) AS out_of_order
  FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM sqled.moved7) x;

-- The diagnostics both have: index_shape (the SQL edition from pgstatindex,
-- saying so; the same figures but the density, which before 18 pgstatindex
-- counts up to 0.05 points denser, both rounded to 2 decimals) and
-- heap_locality (the same SQL).
SELECT c.leaf_pages = s.leaf_pages AND c.internal_pages = s.internal_pages AND c.levels = s.levels
	   AND c.deleted_pages = s.deleted_pages AND c.empty_pages = s.empty_pages
	   AND c.leaf_fragmentation = s.leaf_fragmentation AS same_pages,
	   abs(c.avg_leaf_density - s.avg_leaf_density) < 0.06 AS density_within_0_05_and_rounding,
	   s.source LIKE 'pgstatindex() of pgstattuple %' AS source_named
  FROM c_ed.index_shape('sqled.moved_pkey') c, sqled.index_shape('sqled.moved_pkey') s;
SELECT (SELECT row(h.*)::text FROM c_ed.heap_locality('sqled.moved', 'id') h)
	 = (SELECT row(h.*)::text FROM sqled.heap_locality('sqled.moved', 'id') h) AS heap_locality_same;

-- write_path_report(): the C edition's, shared.  Without a collector it
-- says what it cannot see (S2, S3 and S5; S1 without pg_walinspect's block
-- information or the right to read the WAL).  S4 reads the caller's own
-- tables with a query, with the same figures as the C edition's reader; a
-- table of another role is not read (a query would run its owner's code),
-- and a row says how many were not.
CREATE TABLE sqled.scattered (grp int, seq int, pad text);
INSERT INTO sqled.scattered SELECT i % 100, i, repeat('x', 80) FROM generate_series(0, 19999) i;
CREATE INDEX scattered_grp ON sqled.scattered (grp);
ANALYZE sqled.scattered;
\c - :superuser
CREATE TABLE public.scattered_other (grp int, seq int, pad text);
INSERT INTO public.scattered_other SELECT i % 100, i, repeat('x', 80) FROM generate_series(0, 19999) i;
CREATE INDEX scattered_other_grp ON public.scattered_other (grp);
ANALYZE public.scattered_other;
GRANT SELECT ON public.scattered_other TO :"owner";
\c - :owner
SELECT scenario, relation, finding FROM sqled.write_path_report()
 WHERE relation IS NULL OR relation::text LIKE '%scattered%'
 ORDER BY scenario NULLS LAST, finding COLLATE "C";
SELECT (SELECT row(k.*)::text FROM c_ed.index_key_scatter('sqled.scattered_grp') k)
	 = (SELECT row(k.*)::text FROM sqled.index_key_scatter('sqled.scattered_grp') k) AS same_sample,
	   (SELECT k.state FROM sqled.index_key_scatter('public.scattered_other_grp') k) AS other_role,
	   (SELECT k.state FROM c_ed.index_key_scatter('public.scattered_other_grp') k) AS c_edition;
-- its errors are the C edition's
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	st text;
	msg text;
	det text;
BEGIN
	EXECUTE q;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
	RETURN st || ': ' || msg || coalesce(' / ' || nullif(det, ''), '');
END $$;
SELECT e.c_err = e.s_err AS same_error, split_part(e.c_err, ':', 1) AS sqlstate
  FROM (SELECT pg_temp.err('SELECT c_ed.index_key_scatter(''sqled.scattered'')') AS c_err,
			   pg_temp.err('SELECT sqled.index_key_scatter(''sqled.scattered'')') AS s_err
		UNION ALL
		SELECT pg_temp.err('SELECT c_ed.index_key_scatter(''sqled.scattered_grp'', 0)'),
			   pg_temp.err('SELECT sqled.index_key_scatter(''sqled.scattered_grp'', 0)')) e;
-- S1 from pg_walinspect where PostgreSQL 16 and later has its block
-- information and the caller may read the WAL; before 16, a row says so
\c - :superuser
SELECT EXISTS (SELECT FROM pg_available_extensions
				WHERE name = 'pg_walinspect' AND default_version >= '1.1') AS block_info \gset
\if :block_info
CREATE EXTENSION pg_walinspect SCHEMA public;
GRANT pg_read_server_files, pg_monitor TO :"owner";
\endif
CREATE TABLE public.random_keys (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
GRANT SELECT ON public.random_keys TO :"owner";
INSERT INTO public.random_keys (n) SELECT g FROM generate_series(1, 50000) g;
CHECKPOINT;
INSERT INTO public.random_keys (n) SELECT g FROM generate_series(1, 10000) g;
\c - :owner
\i sql/include/qualified.sql
SELECT CASE WHEN current_setting('server_version_num')::int >= 160000
			THEN EXISTS (SELECT FROM sqled.write_path_report()
						  WHERE scenario = 'S1' AND relation = 'public.random_keys_pkey'::regclass
							AND value >= threshold AND source LIKE 'pg_walinspect%'
							AND change LIKE '%sqled.uuid_striped_nextval(3600, right_edge => false)'
							AND pg_temp.row_sql_qualified(change, verify))
			ELSE EXISTS (SELECT FROM sqled.write_path_report()
						  WHERE finding = 'cannot see S1: pg_walinspect 1.1 is not installed'
							AND change = 'PostgreSQL 16 or later, with pg_walinspect') END AS s1_as_the_server_allows;
-- S1's verify, run as given (16 and later): the index's full-page images
-- are most of its WAL, a fraction between 0.3 and 1; before 16 there is no
-- S1 row, and no verify
SELECT coalesce((SELECT split_part(verify, '; --', 1) FROM sqled.write_path_report()
				  WHERE scenario = 'S1' AND relation = 'public.random_keys_pkey'::regclass),
				'SELECT NULL::numeric AS fpi_share') AS s1_verify \gset
SELECT CASE WHEN current_setting('server_version_num')::int >= 160000 THEN v.fpi_share > 0.3 AND v.fpi_share <= 1
			ELSE v.fpi_share IS NULL END AS verify_gives_the_share
  FROM (:s1_verify) v;

\c :regress_db :superuser
DROP DATABASE regress_ou_sqled;
DROP ROLE regress_ou_sqled_owner;
