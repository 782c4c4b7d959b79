--
-- Keys made in a time range: id <@ tstzrange (uuid_time_in) and the range
-- of the key the planner makes of it for an index on the key, with
-- constants, with the range of another table's row (a parameterized scan),
-- with the Params of a generic plan; against a sequential scan and against
-- a reference computed from the UUID's text with core's own range
-- containment, at the edges of milliseconds and of striped blocks.
--
SET timezone = 'UTC';

\i sql/include/err.sql

-- The planner's row estimate of a query.
CREATE FUNCTION pg_temp.est(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;

-- EXPLAIN's lines, the same on 14-18: without 18's "Disabled: true" lines
-- and the "(returns $0)" of InitPlans before 17.
CREATE FUNCTION pg_temp.plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE q LOOP
		CONTINUE WHEN line ~ '^\s*Disabled: true$';
		RETURN NEXT regexp_replace(line, ' \(returns \$[0-9]+\)$', '');
	END LOOP;
END $$;

-- The timestamptz of us microseconds after the Unix epoch, exactly.
CREATE FUNCTION pg_temp.ts_of(us bigint) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
	SELECT timestamptz '1970-01-01 00:00:00+00' + div(us, 86400000000)::int * interval '1 day'
		   + mod(us, 86400000000) * interval '1 microsecond'
$$;

-- A UUID of Unix millisecond ms in its first 48 bits, then the version
-- digit, then 19 hex digits (the variant in the first of them).
CREATE FUNCTION pg_temp.key(ms bigint, version text, tail text) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
	SELECT (lpad(to_hex(ms), 12, '0') || version || tail)::uuid
$$;

-- The reference, independent of the C code: the time of a version 7 or 8
-- key of the RFC 9562 variant, its first 48 bits as a Unix millisecond; NULL
-- for other UUIDs.
CREATE FUNCTION pg_temp.ref_time(id uuid) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN substr(h, 13, 1) IN ('7', '8') AND substr(h, 17, 1) IN ('8', '9', 'a', 'b')
				THEN pg_temp.ts_of(('x' || lpad(substr(h, 1, 12), 16, '0'))::bit(64)::bigint * 1000) END
	  FROM (SELECT replace(id::text, '-', '') AS h) s
$$;

-- Edge milliseconds: the ends of the 48-bit range, a day's start, and an
-- hour's (a striped block's) start, each with its neighbours.
CREATE TEMP TABLE tr_edges AS
SELECT e AS ms FROM (VALUES (0::bigint), (1), (999), (1000),
						   (1736467199999), (1736467200000), (1736467200001),
						   (1736470799999), (1736470800000), (1736470800001),
						   (281474976710654), (281474976710655)) v(e);

-- The keys: at each edge, versions 7 and 8 with every other bit zero or one,
-- and keys that carry no time (version 4, another variant); keys of time
-- layouts spread over two days; the nil and the largest UUID.
CREATE TABLE tr_keys (id uuid PRIMARY KEY);
INSERT INTO tr_keys
SELECT pg_temp.key(ms, v, t)
  FROM tr_edges,
	   (VALUES ('7'), ('8'), ('4')) vv(v),
	   (VALUES ('0008000000000000000'), ('fffbfffffffffffffff'), ('0000000000000000000'), ('fffffffffffffffffff')) tt(t)
UNION
SELECT pg_temp.key(1736380800000 + g * 115201, CASE WHEN g % 3 = 0 THEN '8' ELSE '7' END,
				   substr(md5(g::text), 1, 3) || '9' || substr(md5(g::text), 5, 15))
  FROM generate_series(1, 1500) g
UNION
SELECT * FROM (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff')) n(u);
VACUUM ANALYZE tr_keys;
SELECT count(*) AS keys, count(*) FILTER (WHERE uuid_time(id) IS NOT NULL) AS keys_with_time FROM tr_keys;

-- uuid_time: the first 48 bits of versions 7 and 8 of the RFC variant, NULL
-- for everything else; equal to uuid_v7_time for version 7
SELECT count(*) FILTER (WHERE uuid_time(id) IS DISTINCT FROM pg_temp.ref_time(id)) AS uuid_time_wrong,
	   count(*) FILTER (WHERE uuid_version(id) = 7 AND uuid_time(id) IS DISTINCT FROM uuid_v7_time(id)) AS v7_time_differs
  FROM tr_keys;
SELECT uuid_time(uuid_striped_nextval(3600)) = date_trunc('hour', now()) AS striped_key_carries_its_block_start;

-- The ranges: bounds a microsecond before, at, and a microsecond after
-- edge milliseconds, before 1970, ±infinity and none; every pair
-- in order, with each kind of bound; and the empty range.
CREATE TEMP TABLE tr_bounds AS
SELECT pg_temp.ts_of(ms * 1000 + d) AS b
  FROM tr_edges, (VALUES (-1), (0), (1)) dd(d) WHERE ms IN (0, 1000, 1736467200000, 1736470800000, 281474976710655)
UNION ALL VALUES (timestamptz '1969-12-31 23:59:59.999+00'), ('-infinity'), ('infinity'), (NULL);
CREATE TABLE tr_ranges (r tstzrange);
INSERT INTO tr_ranges
SELECT tstzrange(l.b, u.b, k)
  FROM tr_bounds l, tr_bounds u, (VALUES ('[)'), ('[]'), ('(]'), ('()')) kk(k)
 WHERE l.b IS NULL OR u.b IS NULL OR l.b <= u.b
UNION ALL VALUES ('empty'::tstzrange);
ANALYZE tr_ranges;
SELECT count(*) AS ranges FROM tr_ranges;

-- The answer for each range: the keys in order, as one text.
CREATE FUNCTION pg_temp.keys_of(rows uuid[]) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT coalesce(string_agg(u::text, ' ' ORDER BY u), '') FROM unnest(rows) u
$$;
CREATE TEMP TABLE tr_key_times AS
SELECT id, pg_temp.ref_time(id) AS t FROM tr_keys;
CREATE TEMP TABLE tr_ref AS
SELECT r, pg_temp.keys_of(ARRAY(SELECT id FROM tr_key_times WHERE t <@ r)) AS keys FROM tr_ranges;
SELECT count(*) FILTER (WHERE keys <> '') AS ranges_with_keys, count(DISTINCT keys) AS distinct_answers FROM tr_ref;

-- 1. Another table's range in a nested loop: the index condition is made of
-- uuid_time_range_lower/upper over that row's range.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF)
SELECT r, pg_temp.keys_of(ARRAY(SELECT k.id FROM tr_keys k WHERE k.id <@ t.r)) FROM tr_ranges t$q$);
CREATE TEMP TABLE tr_index AS
SELECT r, pg_temp.keys_of(ARRAY(SELECT k.id FROM tr_keys k WHERE k.id <@ t.r)) AS keys FROM tr_ranges t;
-- the function form is served the same way
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF)
SELECT r, pg_temp.keys_of(ARRAY(SELECT k.id FROM tr_keys k WHERE uuid_time_in(k.id, t.r))) FROM tr_ranges t$q$);
CREATE TEMP TABLE tr_index_fn AS
SELECT r, pg_temp.keys_of(ARRAY(SELECT k.id FROM tr_keys k WHERE uuid_time_in(k.id, t.r))) AS keys FROM tr_ranges t;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- 2. A sequential scan for the same ranges.
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF)
SELECT r, pg_temp.keys_of(ARRAY(SELECT k.id FROM tr_keys k WHERE k.id <@ t.r)) FROM tr_ranges t$q$);
CREATE TEMP TABLE tr_seq AS
SELECT r, pg_temp.keys_of(ARRAY(SELECT k.id FROM tr_keys k WHERE k.id <@ t.r)) AS keys FROM tr_ranges t;
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_bitmapscan;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;

-- 3. A generic plan: the range is a Param of a prepared statement.
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
PREPARE tr_q(tstzrange) AS SELECT pg_temp.keys_of(ARRAY(SELECT id FROM tr_keys WHERE id <@ $1));
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF) EXECUTE tr_q('[2025-01-10 00:00+00, 2025-01-10 01:00+00)')$q$);
CREATE FUNCTION pg_temp.generic(r tstzrange) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	RETURN pg_temp.keys_of(ARRAY(SELECT id FROM tr_keys WHERE id <@ r));
END $$;
CREATE TEMP TABLE tr_generic AS SELECT r, pg_temp.generic(r) AS keys FROM tr_ranges;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET plan_cache_mode;

-- 4. Constants, each range planned on its own.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF) SELECT id FROM tr_keys WHERE id <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00')$q$);
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF) SELECT id FROM tr_keys WHERE id <@ '[2025-01-10 00:00:00.000001+00, 2025-01-10 00:00:00.000999+00]'$q$);
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF) SELECT id FROM tr_keys WHERE id <@ 'empty'$q$);
CREATE FUNCTION pg_temp.constant(r tstzrange) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	keys text;
BEGIN
	EXECUTE format('SELECT pg_temp.keys_of(ARRAY(SELECT id FROM tr_keys WHERE id <@ %L::tstzrange))', r) INTO keys;
	RETURN keys;
END $$;
CREATE TEMP TABLE tr_const AS SELECT r, pg_temp.constant(r) AS keys FROM tr_ranges;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- every way gives the reference's keys, range by range
SELECT count(*) AS ranges,
	   count(*) FILTER (WHERE i.keys IS DISTINCT FROM f.keys) AS index_wrong,
	   count(*) FILTER (WHERE fn.keys IS DISTINCT FROM f.keys) AS function_wrong,
	   count(*) FILTER (WHERE s.keys IS DISTINCT FROM f.keys) AS seqscan_wrong,
	   count(*) FILTER (WHERE g.keys IS DISTINCT FROM f.keys) AS generic_wrong,
	   count(*) FILTER (WHERE c.keys IS DISTINCT FROM f.keys) AS constant_wrong
  FROM (SELECT row_number() OVER () AS n, * FROM tr_ref) f
  JOIN (SELECT row_number() OVER () AS n, * FROM tr_index) i USING (n)
  JOIN (SELECT row_number() OVER () AS n, * FROM tr_index_fn) fn USING (n)
  JOIN (SELECT row_number() OVER () AS n, * FROM tr_seq) s USING (n)
  JOIN (SELECT row_number() OVER () AS n, * FROM tr_generic) g USING (n)
  JOIN (SELECT row_number() OVER () AS n, * FROM tr_const) c USING (n)
 WHERE f.r IS NOT DISTINCT FROM i.r AND f.r IS NOT DISTINCT FROM s.r AND f.r IS NOT DISTINCT FROM g.r
   AND f.r IS NOT DISTINCT FROM c.r AND f.r IS NOT DISTINCT FROM fn.r;

-- The end of a millisecond: both bounds in one millisecond hold its keys only
-- when they take in its start; a range between two milliseconds holds none.
SELECT r, count(k.id) AS keys, (array_agg(k.id ORDER BY k.id))[1] AS first,
	   (array_agg(k.id ORDER BY k.id DESC))[1] AS last
  FROM (VALUES (tstzrange('2025-01-10 00:00:00+00', '2025-01-10 00:00:00.001+00')),
			   (tstzrange('2025-01-09 23:59:59.999001+00', '2025-01-10 00:00:00+00', '[]')),
			   (tstzrange('2025-01-09 23:59:59.999001+00', '2025-01-10 00:00:00+00', '[)')),
			   (tstzrange('2025-01-10 00:00:00.000001+00', '2025-01-10 00:00:00.000999+00', '[]'))) v(r)
  LEFT JOIN tr_keys k ON k.id <@ v.r
 GROUP BY r ORDER BY r;

-- A striped key carries its block's start: a range that begins inside a
-- block leaves that block out; widen it to the block's start.
SELECT count(*) FILTER (WHERE id <@ tstzrange('2025-01-10 00:30+00', '2025-01-10 02:00+00')) AS from_inside_the_block,
	   count(*) FILTER (WHERE id <@ tstzrange(date_trunc('hour', timestamptz '2025-01-10 00:30+00'), '2025-01-10 02:00+00')) AS from_its_start
  FROM tr_keys WHERE uuid_version(id) = 8 AND uuid_time(id) = '2025-01-10 00:00+00';

-- The bounds themselves
SELECT r, uuid_time_range_lower(r) AS lower, uuid_time_range_upper(r) AS upper
  FROM (VALUES (tstzrange('2025-01-10 00:00+00', '2025-01-11 00:00+00')),
			   (tstzrange('2025-01-10 00:00:00.0005+00', '2025-01-10 00:00:00.0015+00', '(]')),
			   (tstzrange(NULL, NULL)), (tstzrange('-infinity', 'infinity')),
			   (tstzrange('1960-01-01 00:00+00', '1970-01-01 00:00+00')),
			   (tstzrange('1960-01-01 00:00+00', '1970-01-01 00:00+00', '[]')),
			   (tstzrange('10889-08-02 05:31:50.655+00', NULL)), (tstzrange('10889-08-02 05:31:50.656+00', NULL)),
			   ('empty'), (NULL)) v(r);
SELECT NULL::uuid <@ tstzrange(NULL, NULL) AS null_key, uuid_v7_nextval() <@ NULL::tstzrange AS null_range;

-- An untyped literal is read as a tstzrange
SELECT uuid_v7_min('2025-01-10 00:00+00') <@ '[2025-01-10 00:00+00, 2025-01-10 00:00:00.001+00)' AS literal_range;

-- The estimate is that of the key's range, not a default: a day of two
-- days' keys is about half of them, an hour about a 48th
SELECT (SELECT round(reltuples) FROM pg_class WHERE relname = 'tr_keys') AS rows,
	   pg_temp.est('SELECT * FROM tr_keys WHERE id <@ tstzrange(''2025-01-09 00:00+00'', ''2025-01-10 00:00+00'')') BETWEEN 1300 AND 1700 AS day_estimated,
	   pg_temp.est('SELECT * FROM tr_keys WHERE uuid_time_in(id, tstzrange(''2025-01-09 00:00+00'', ''2025-01-10 00:00+00''))') BETWEEN 1300 AND 1700 AS function_day_estimated,
	   pg_temp.est('SELECT * FROM tr_keys WHERE id <@ tstzrange(''2025-01-09 00:00+00'', ''2025-01-09 01:00+00'')') BETWEEN 20 AND 130 AS hour_estimated;

-- A BRIN index serves it through a bitmap scan
CREATE TABLE tr_brin (id uuid);
INSERT INTO tr_brin SELECT id FROM tr_keys ORDER BY id;
CREATE INDEX tr_brin_id ON tr_brin USING brin (id);
ANALYZE tr_brin;
SET enable_seqscan = off;
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF) SELECT count(*) FROM tr_brin WHERE id <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00')$q$);
SELECT count(*) AS brin_keys,
	   (SELECT count(*) FROM tr_keys WHERE pg_temp.ref_time(id) <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00')) AS reference_keys
  FROM tr_brin WHERE id <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00');
-- a hash index cannot: a sequential scan
CREATE INDEX tr_brin_hash ON tr_brin USING hash (id);
DROP INDEX tr_brin_id;
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF) SELECT count(*) FROM tr_brin WHERE id <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00')$q$);
RESET enable_seqscan;
DROP TABLE tr_brin;

-- An expression the indexed table's own row feeds, or a volatile one, is no
-- index condition
SET enable_seqscan = off;
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF) SELECT * FROM tr_keys WHERE id <@ tstzrange(uuid_time(id), NULL)$q$);
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF) SELECT * FROM tr_keys WHERE id <@ tstzrange(clock_timestamp() - interval '1 day', NULL)$q$);
RESET enable_seqscan;

-- Partition pruning works on the partition key's own conditions: id <@ r
-- scans every partition (each by its index); the bounds of the range prune.
CREATE TABLE tr_part (id uuid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE tr_part_0109 PARTITION OF tr_part
	FOR VALUES FROM (uuid_v7_min('2025-01-09 00:00+00')) TO (uuid_v7_min('2025-01-10 00:00+00'));
CREATE TABLE tr_part_0110 PARTITION OF tr_part
	FOR VALUES FROM (uuid_v7_min('2025-01-10 00:00+00')) TO (uuid_v7_min('2025-01-11 00:00+00'));
INSERT INTO tr_part SELECT id FROM tr_keys WHERE uuid_version(id) = 7 AND id <@ tstzrange('2025-01-09 00:00+00', '2025-01-11 00:00+00');
ANALYZE tr_part;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF) SELECT * FROM tr_part WHERE id <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00')$q$);
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF) SELECT * FROM tr_part WHERE id <@ tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00')
	AND id >= uuid_time_range_lower(tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00'))
	AND id < uuid_time_range_upper(tstzrange('2025-01-10 00:00+00', '2025-01-10 01:00+00'))$q$);
-- with a Param, at executor start-up
SET plan_cache_mode = force_generic_plan;
PREPARE tr_p(tstzrange) AS SELECT count(*) FROM tr_part WHERE id <@ $1
	AND id >= uuid_time_range_lower($1) AND id < uuid_time_range_upper($1);
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF) EXECUTE tr_p('[2025-01-10 00:00+00, 2025-01-10 01:00+00)')$q$);
EXECUTE tr_p('[2025-01-10 00:00+00, 2025-01-10 01:00+00)');
SELECT count(*) AS reference FROM tr_keys WHERE uuid_version(id) = 7
   AND pg_temp.ref_time(id) <@ '[2025-01-10 00:00+00, 2025-01-10 01:00+00)'::tstzrange;
RESET plan_cache_mode;
RESET enable_seqscan;
RESET enable_bitmapscan;
DROP TABLE tr_part;

-- The index condition calls our functions in our schema, whatever the
-- search_path: a function of the same name elsewhere is never called
CREATE SCHEMA tr_evil;
CREATE FUNCTION tr_evil.uuid_time_range_lower(tstzrange) RETURNS uuid LANGUAGE sql AS $$ SELECT '00000000-0000-0000-0000-000000000000'::uuid $$;
CREATE FUNCTION tr_evil.uuid_time_range_upper(tstzrange) RETURNS uuid LANGUAGE sql AS $$ SELECT 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid $$;
SET search_path = tr_evil, public;
SET enable_seqscan = off;
SET plan_cache_mode = force_generic_plan;
PREPARE tr_s(tstzrange) AS SELECT count(*) FROM tr_keys WHERE id <@ $1;
SELECT pg_temp.plan($q$EXPLAIN (COSTS OFF, VERBOSE) EXECUTE tr_s('[2025-01-10 00:00+00, 2025-01-10 01:00+00)')$q$);
RESET plan_cache_mode;
RESET enable_seqscan;
RESET search_path;
DROP SCHEMA tr_evil CASCADE;



-- pg_partman's encoder and decoder: the bound of a time is uuid_v7_min's
-- (below every version 7 and striped key of that millisecond and later), the
-- time of a key given as text uuid_time's
SELECT count(*) FILTER (WHERE uuid_time_decoder(id::text) IS DISTINCT FROM uuid_time(id)) AS decoder_wrong,
	   count(*) FILTER (WHERE uuid_time(id) < '10889-08-02 05:31:50.655+00' AND (id < uuid_time_encoder(uuid_time(id))
							OR id >= uuid_time_encoder(uuid_time(id) + interval '1 millisecond'))) AS encoder_bound_wrong
  FROM tr_keys;
SELECT uuid_time_encoder('2025-01-10 00:00+00') = uuid_v7_min('2025-01-10 00:00+00') AS encoder_is_v7_min,
	   uuid_time_decoder(NULL) AS null_decoded, uuid_time_encoder(NULL) AS null_encoded,
	   pg_temp.err($$SELECT uuid_time_decoder('not a uuid')$$) AS bad_text;
DROP TABLE tr_keys, tr_ranges;
