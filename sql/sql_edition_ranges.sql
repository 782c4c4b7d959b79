--
-- The SQL edition's id <@ tstzrange: an operator whose function the planner
-- inlines, so that what it plans is the range of the key itself, served by
-- the key's B-tree (or BRIN) index without a support function.  EXPLAIN for
-- constants (folded into the bounds), a prepared statement's parameter
-- (also as a generic plan), now(), another table's row in a nested loop, a
-- BRIN index, and partitions pruned when planned; each against a sequential
-- scan, the C edition's operator and a reference computed from the key's
-- text, for every range of edge bounds.
--
SELECT current_database() AS regress_db, current_user AS superuser \gset
\set db regress_ou_sqled_ranges
\set owner regress_ou_sqled_ranges_owner
\i sql/include/sql_edition_setup.sql
SET timezone = 'UTC';
SET search_path = sqled, pg_temp;
SET max_parallel_workers_per_gather = 0;

-- EXPLAIN's lines, the same on 14-19: without 18's "Disabled: true" lines,
-- the "(returns $0)" of InitPlans before 17, and with the check that a key
-- carries a time (the third condition of uuid_time_in) written short.
CREATE FUNCTION pg_temp.plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		CONTINUE WHEN line ~ '^\s*Disabled: true$';
		line := regexp_replace(line, ' \(returns \$[0-9]+\)$', '');
		line := regexp_replace(line, '\(CASE WHEN .* IS FALSE\) THEN NULL::boolean ELSE true END IS NOT NULL\)', '(carries a time)', 'g');
		RETURN NEXT line;
	END LOOP;
END $$;
-- The planner's row estimate of a query.
CREATE FUNCTION pg_temp.est(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;
-- The reference, from the key's text alone: the time of a version 7 or 8
-- key of the RFC 9562 variant, its first 48 bits as a Unix millisecond.
CREATE FUNCTION pg_temp.ref_time(id uuid) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN substr(h, 13, 1) IN ('7', '8') AND substr(h, 17, 1) IN ('8', '9', 'a', 'b')
				THEN timestamptz '1970-01-01 00:00:00+00'
					 + ('x' || lpad(substr(h, 1, 12), 16, '0'))::bit(64)::bigint / 86400000 * interval '1 day'
					 + ('x' || lpad(substr(h, 1, 12), 16, '0'))::bit(64)::bigint % 86400000 * interval '1 millisecond' END
	  FROM (SELECT replace(id::text, '-', '') AS h) s
$$;

-- Keys: at edge milliseconds (the ends of the 48-bit range, a day's and an
-- hour's start and their neighbours), versions 7, 8 and 4 with every other
-- bit zero or one; 20,000 keys of both time layouts spread over two days
-- (one in 20 of them for the comparison of every range, 3.); the nil and
-- the largest UUID.
CREATE TABLE tr_keys (id uuid PRIMARY KEY);
INSERT INTO tr_keys
SELECT (lpad(to_hex(ms), 12, '0') || v || t)::uuid
  FROM unnest(ARRAY[0, 1, 999, 1000, 1736467199999, 1736467200000, 1736467200001,
					1736470799999, 1736470800000, 1736470800001, 281474976710654, 281474976710655]::bigint[]) ms,
	   unnest(ARRAY['7', '8', '4']) v,
	   unnest(ARRAY['0008000000000000000', 'fffbfffffffffffffff', '0000000000000000000', 'fffffffffffffffffff']) t
UNION
SELECT (lpad(to_hex(1736380800000 + g * 8640), 12, '0') || CASE WHEN g % 3 = 0 THEN '8' ELSE '7' END
		|| substr(md5(g::text), 1, 3) || '9' || substr(md5(g::text), 5, 15))::uuid
  FROM generate_series(1, 20000) g
UNION VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff');
VACUUM ANALYZE tr_keys;
SELECT count(*) AS keys, count(*) FILTER (WHERE uuid_time(id) IS NOT NULL) AS keys_with_time FROM tr_keys;

-- 1. Constants: folded into the bounds when the statement is planned,
-- served by the index; a narrow range is estimated narrow, a wide one wide
-- (a sequential scan).
SELECT * FROM pg_temp.plan($q$SELECT count(*) FROM tr_keys WHERE id <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00')$q$);
SELECT pg_temp.est($q$SELECT * FROM tr_keys WHERE id <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00')$q$)
	   BETWEEN 100 AND 1000 AS narrow_estimate,
	   pg_temp.est($q$SELECT * FROM tr_keys WHERE id <@ tstzrange('2025-01-09 00:00+00', '2025-01-11 00:00+00')$q$)
	   > 15000 AS wide_estimate;
SELECT * FROM pg_temp.plan($q$SELECT count(*) FROM tr_keys WHERE id <@ tstzrange('2025-01-09 00:00+00', '2025-01-11 00:00+00')$q$);
-- the function form is planned the same way
SELECT * FROM pg_temp.plan($q$SELECT count(*) FROM tr_keys WHERE uuid_time_in(id, '[2025-01-10 00:00+00,2025-01-10 01:00+00)')$q$);

-- 2. A parameter: the bounds are computed from it when the scan starts, in
-- a custom plan and in a generic one.
PREPARE by_range(tstzrange) AS SELECT count(*) FROM tr_keys WHERE id <@ $1;
SET plan_cache_mode = force_generic_plan;
SELECT * FROM pg_temp.plan($q$EXECUTE by_range('[2025-01-10 00:00+00,2025-01-10 01:00+00)')$q$);
EXECUTE by_range('[2025-01-10 00:00+00,2025-01-10 01:00+00)');
RESET plan_cache_mode;
-- now(): the same, evaluated once
SELECT * FROM pg_temp.plan($q$SELECT count(*) FROM tr_keys WHERE id <@ tstzrange(now() - interval '1 day', now())$q$);

-- 3. Every range of edge bounds: the index (nested loop, the other table's
-- range as the scan's parameter), a sequential scan, the C edition's
-- operator (its own planner support) and the reference agree on every key.
CREATE TEMP TABLE tr_bounds AS
SELECT timestamptz '1970-01-01 00:00:00+00' + (ms * 1000 + d) / 86400000000 * interval '1 day'
	   + (ms * 1000 + d) % 86400000000 * interval '1 microsecond' AS b
  FROM unnest(ARRAY[0, 1000, 1736467200000, 1736470800000, 281474976710655]::bigint[]) ms,
	   unnest(ARRAY[-1, 0, 1]) d
UNION ALL VALUES (timestamptz '1969-12-31 23:59:59.999+00'), ('-infinity'), ('infinity'), (NULL);
CREATE TABLE tr_ranges (i serial PRIMARY KEY, r tstzrange);
INSERT INTO tr_ranges (r)
SELECT tstzrange(l.b, u.b, k)
  FROM tr_bounds l, tr_bounds u, unnest(ARRAY['[)', '[]', '(]', '()']) k
 WHERE l.b IS NULL OR u.b IS NULL OR l.b <= u.b
UNION ALL VALUES ('empty'::tstzrange);
ANALYZE tr_ranges;
CREATE FUNCTION pg_temp.keys_of(rows uuid[]) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT coalesce(string_agg(u::text, ' ' ORDER BY u), '') FROM unnest(rows) u
$$;
CREATE TABLE tr_few (id uuid PRIMARY KEY, t timestamptz);
INSERT INTO tr_few
SELECT id, pg_temp.ref_time(id) FROM tr_keys
 WHERE substr(id::text, 10, 4) IN ('0000', '7000', '8000', '4000', '7fff', '8fff', '4fff')
	OR ('x' || substr(md5(id::text), 1, 4))::bit(16)::int % 20 = 0;
VACUUM ANALYZE tr_few;
CREATE TEMP TABLE tr_ref AS
SELECT i, r, pg_temp.keys_of(ARRAY(SELECT id FROM tr_few WHERE t <@ r)) AS keys FROM tr_ranges;
SELECT (SELECT count(*) FROM tr_few) AS keys, count(*) AS ranges, count(*) FILTER (WHERE keys <> '') AS ranges_with_keys,
	   count(DISTINCT keys) AS distinct_answers
  FROM tr_ref;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
SELECT * FROM pg_temp.plan($q$SELECT t.r, k.id FROM tr_ranges t JOIN tr_few k ON k.id <@ t.r$q$);
CREATE TEMP TABLE tr_index AS
SELECT i, pg_temp.keys_of(ARRAY(SELECT k.id FROM tr_few k WHERE k.id <@ t.r)) AS keys FROM tr_ranges t;
RESET ALL;
SET search_path = sqled, pg_temp;
SET max_parallel_workers_per_gather = 0;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE tr_seq AS
SELECT i, pg_temp.keys_of(ARRAY(SELECT k.id FROM tr_few k WHERE k.id <@ t.r)) AS keys FROM tr_ranges t;
RESET ALL;
SET search_path = sqled, pg_temp;
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE tr_c AS
SELECT i, pg_temp.keys_of(ARRAY(SELECT k.id FROM tr_few k WHERE k.id OPERATOR(c_ed.<@) t.r)) AS keys FROM tr_ranges t;
SELECT count(*) AS ranges,
	   count(*) FILTER (WHERE i.keys IS DISTINCT FROM f.keys) AS index_differs,
	   count(*) FILTER (WHERE s.keys IS DISTINCT FROM f.keys) AS seqscan_differs,
	   count(*) FILTER (WHERE c.keys IS DISTINCT FROM f.keys) AS c_edition_differs
  FROM tr_ref f
  JOIN tr_index i USING (i)
  JOIN tr_seq s USING (i)
  JOIN tr_c c USING (i);
-- a NULL range or key: NULL, as the C edition's strict operator gives
SELECT NULL::uuid <@ tstzrange(now(), NULL) AS null_key, gen_random_uuid() <@ NULL::tstzrange AS null_range,
	   uuid_v7_min(now()) <@ tstzrange(now() - interval '1 second', NULL) AS v7_key,
	   gen_random_uuid() <@ tstzrange(NULL, NULL) AS key_without_time;

-- 4. A BRIN index on the key serves the same condition.
CREATE TABLE tr_brin (id uuid, n int);
INSERT INTO tr_brin SELECT id, 0 FROM tr_keys ORDER BY id;
CREATE INDEX tr_brin_id ON tr_brin USING brin (id uuid_minmax_ops);
ANALYZE tr_brin;
SET enable_seqscan = off;
SELECT * FROM pg_temp.plan($q$SELECT count(*) FROM tr_brin WHERE id <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00')$q$);
SELECT (SELECT count(*) FROM tr_brin WHERE id <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00'))
	 = (SELECT count(*) FROM tr_keys WHERE pg_temp.ref_time(id) <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00'))
	   AS brin_answer_right;
RESET enable_seqscan;

-- 5. Partitions by range of the key: the bounds of a constant range prune
-- when the statement is planned, those of a parameter or now() when the
-- executor starts (the C edition's operator needs the bounds added by hand).
CREATE TABLE tr_parted (id uuid NOT NULL, n int) PARTITION BY RANGE (id);
CREATE TABLE tr_parted_09 PARTITION OF tr_parted
	FOR VALUES FROM (uuid_v7_min('2025-01-09 00:00+00')) TO (uuid_v7_min('2025-01-10 00:00+00'));
CREATE TABLE tr_parted_10 PARTITION OF tr_parted
	FOR VALUES FROM (uuid_v7_min('2025-01-10 00:00+00')) TO (uuid_v7_min('2025-01-11 00:00+00'));
CREATE TABLE tr_parted_rest PARTITION OF tr_parted DEFAULT;
INSERT INTO tr_parted SELECT id, 0 FROM tr_keys;
ANALYZE tr_parted;
SELECT * FROM pg_temp.plan($q$SELECT count(*) FROM tr_parted WHERE id <@ tstzrange('2025-01-10 06:00+00', '2025-01-10 07:00+00')$q$);
SELECT * FROM pg_temp.plan($q$SELECT count(*) FROM tr_parted WHERE id <@ tstzrange(now() - interval '1 hour', now())$q$);

\c :regress_db :superuser
DROP DATABASE regress_ou_sqled_ranges;
DROP ROLE regress_ou_sqled_ranges_owner;
