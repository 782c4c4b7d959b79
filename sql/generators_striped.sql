--
-- uuid_striped_nextval: the version 8 layout (block start, stripe, slot),
-- the front/fill slot sequence against an independent statement of its
-- rule, monotonicity, ordering across blocks, the right edge, and errors
-- (concurrent sessions: specs/generators_striped_sessions.spec).  Sessions
-- with a fresh generator state are dblink connections.
-- Nothing random or time-dependent is printed: only counts and booleans.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS dblink;
RESET client_min_messages;

SELECT format('dbname=%s user=%s host=%s port=%s', current_database(), current_user,
			  current_setting('unix_socket_directories'), current_setting('port')) AS conn \gset

\i sql/include/striped_fields.sql

-- The right edge of the striped keys (the largest block start and stripe
-- any session has made a key in): a test module function sets it, so that
-- the tests decide whether a session is at the edge.  Set above every key,
-- no session is; at 0, the next session to make a key is.  edge_shared:
-- whether the server has a shared edge (PostgreSQL 17+, or the library
-- preloaded); without one every session behaves as one not at the edge.
CREATE FUNCTION ou_test_striped_edge(bigint) RETURNS bigint
	AS 'ordered_uuid_test', 'ou_test_striped_edge' LANGUAGE C STRICT;
SELECT current_setting('server_version_num')::int >= 170000 OR
	   current_setting('shared_preload_libraries') ~ 'ordered_uuid' AS edge_shared \gset
SELECT ou_test_striped_edge(9223372036854775807) IS NULL = NOT :'edge_shared'::bool AS edge_as_expected;

-- The rule, stated independently: a session makes front keys (pass 0)
-- until it has made 416 (384 + 32) more front keys than it has passed over
-- for filling, then fill keys (pass 1) until it is only 384 ahead: runs of
-- 32; front keys whose index (from 0) is 11 mod 12 are passed over without a
-- fill key.  Returns, for the n-th key of a fresh session, its pass and the
-- index of its front key.
CREATE FUNCTION pg_temp.rule(n int) RETURNS TABLE (k int, pass int, front int)
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	fronts int := 0;
	filled int := 0;
	filling bool := false;
BEGIN
	FOR i IN 1 .. n LOOP
		k := i;
		IF filling THEN
			filling := fronts - filled > 384;
		ELSE
			filling := fronts - filled >= 416;
		END IF;
		IF filling THEN
			pass := 1;
			front := filled;
			filled := filled + 1;
			IF filled % 12 = 11 THEN
				filled := filled + 1;
			END IF;
		ELSE
			pass := 0;
			front := fronts;
			fronts := fronts + 1;
		END IF;
		RETURN NEXT;
	END LOOP;
END
$$;

-- 6000 keys from a fresh session, in the order it made them.
SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS t0 \gset
SELECT dblink_connect('fresh', :'conn');
CREATE TEMP TABLE made AS
SELECT k, u, f.*
FROM dblink('fresh', 'SELECT k, uuid_striped_nextval() FROM generate_series(1, 6000) AS k')
	 AS t(k int, u uuid), LATERAL pg_temp.fields(u) AS f;
SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS t1 \gset
CREATE TEMP TABLE expected AS SELECT * FROM pg_temp.rule(6000);
-- number each session's front keys 0, 1, 2, ... in the order they were made
CREATE TEMP TABLE fronts AS
SELECT (row_number() OVER (ORDER BY k) - 1)::int AS front, k, u, clock_us FROM made WHERE pass = 0;

-- Version 8 and the RFC 9562 variant (binary 10) on every value; one stripe.
SELECT count(*) AS values,
	   count(*) FILTER (WHERE version <> 8) AS not_version_8,
	   count(*) FILTER (WHERE variant <> 2) AS not_variant_10,
	   count(DISTINCT stripe) AS stripes,
	   count(DISTINCT u) AS distinct_values
FROM made;

-- The block start is a whole hour (the default interval_length, 3600 s) in
-- Unix milliseconds, and the slot's clock lies inside its block.
SELECT bool_and(block_ms % 3600000 = 0) AS block_on_the_hour,
	   bool_and(clock_us >= block_ms * 1000 AND clock_us < (block_ms + 3600000) * 1000) AS clock_in_block
FROM made;

-- Passes follow the rule, key by key.
SELECT count(*) FILTER (WHERE e.pass = 0) AS fronts, count(*) FILTER (WHERE e.pass = 1) AS fills,
	   bool_and(m.pass = e.pass) AS passes_as_the_rule
FROM made m JOIN expected e USING (k);

-- Front keys: their clock is the wall clock during the call (or at most one
-- microsecond per key ahead of it), strictly increasing; the keys too.
SELECT bool_and(clock_us >= :t0 AND clock_us <= :t1 + 6000) AS front_clock_is_wall_clock,
	   count(*) FILTER (WHERE clock_us <= prev_clock OR u <= prev_u) AS fronts_not_increasing
FROM (SELECT clock_us, u, lag(clock_us) OVER (ORDER BY k) AS prev_clock, lag(u) OVER (ORDER BY k) AS prev_u
	  FROM fronts) AS s;

-- Fill keys: each carries the clock of the front key the rule names, so it
-- sorts right after that front key and before the next one; fill keys are
-- increasing too, and front keys 11, 23, 35, ... are never filled.
SELECT count(*) AS fills,
	   bool_and(m.clock_us = f.clock_us AND m.block_ms * 1000 + m.slot / 2 = f.clock_us) AS fill_has_its_front_clock,
	   bool_and(m.u > f.u AND m.u < nf.u) AS fill_between_its_front_and_the_next,
	   count(*) FILTER (WHERE e.front % 12 = 11) AS filled_11_mod_12,
	   count(*) FILTER (WHERE m.u <= lag_u) AS fills_not_increasing
FROM (SELECT *, lag(u) OVER (ORDER BY k) AS lag_u FROM made WHERE pass = 1) AS m
JOIN expected e USING (k)
JOIN fronts f ON f.front = e.front
JOIN fronts nf ON nf.front = e.front + 1;
SELECT dblink_disconnect('fresh');

-- Ordering across blocks: with 1-second blocks, values made after a pause of
-- more than a second are in a later block and sort after all earlier ones
-- (a fresh session, whose first keys are all front keys).  Four sessions
-- inserting at the same time: specs/generators_striped_sessions.spec.
SELECT dblink_connect('s1', :'conn');
SELECT count(*) AS values, count(DISTINCT block_ms) >= 2 AS two_blocks_or_more,
	   bool_and(block_ms % 1000 = 0) AS block_on_the_second,
	   min(u::text) FILTER (WHERE k > 10) > max(u::text) FILTER (WHERE k <= 10) AS later_block_sorts_after
FROM dblink('s1', 'SELECT k, uuid_striped_nextval(1) FROM generate_series(1, 10) AS k
				   UNION ALL SELECT 10 + k, uuid_striped_nextval(1) FROM pg_sleep(1.1), generate_series(1, 10) AS k')
	 AS t(k int, u uuid),
	 LATERAL pg_temp.fields(u);
SELECT dblink_disconnect('s1');

-- Runs: a session alone at the right edge of an index inserts its front
-- keys through nbtree's cached rightmost leaf, without descending from the
-- root; a fill key, inserted elsewhere, makes it forget that leaf.  Made in
-- runs of 32, the keys of 150,000 rows cost about half a buffer access per
-- row more than uuid_v7_nextval()'s (0.49 on PostgreSQL 18); made alternately,
-- 1.2.  The counts are the statement's own, from EXPLAIN.  This session is
-- kept off the edge for it.
CREATE FUNCTION pg_temp.buffer_accesses(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF) ' || q LOOP
		IF l ~ 'shared hit=' THEN
			RETURN substring(l FROM 'shared hit=(\d+)')::bigint +
				coalesce(substring(l FROM 'shared hit=\d+ read=(\d+)')::bigint, 0);
		END IF;
	END LOOP;
	RETURN NULL;
END
$$;
SELECT ou_test_striped_edge(9223372036854775807) IS NULL = NOT :'edge_shared'::bool AS edge_as_expected;
CREATE TABLE v7_edge (id uuid PRIMARY KEY DEFAULT uuid_v7_nextval(), n int);
CREATE TABLE striped_edge (id uuid PRIMARY KEY DEFAULT uuid_striped_nextval(), n int);
SELECT pg_temp.buffer_accesses('INSERT INTO v7_edge (n) SELECT g FROM generate_series(1, 150000) AS g') AS v7 \gset
SELECT pg_temp.buffer_accesses('INSERT INTO striped_edge (n) SELECT g FROM generate_series(1, 150000) AS g') AS striped \gset
SELECT (:striped - :v7) / 150000.0 BETWEEN 0.2 AND 0.85 AS half_an_access_more_per_row;

-- At the edge: the session whose stripe is the highest of the newest block
-- inserts at the right edge of the index, where nbtree's rightmost split
-- leaves pages 90 % full; it makes no fill keys, so it costs what
-- uuid_v7_nextval() costs (within 0.05 buffer accesses a row) and packs its
-- index as full (89 % or more).  Without a shared edge it fills as above.
SELECT ou_test_striped_edge(0) IS NULL = NOT :'edge_shared'::bool AS edge_as_expected;
CREATE TABLE striped_alone (id uuid PRIMARY KEY DEFAULT uuid_striped_nextval(), n int);
SELECT pg_temp.buffer_accesses('INSERT INTO striped_alone (n) SELECT g FROM generate_series(1, 150000) AS g') AS alone \gset
SELECT (count(*) FILTER (WHERE (pg_temp.fields(id)).pass = 1) = 0) = :'edge_shared'::bool AS fill_keys_only_off_the_edge,
	   CASE WHEN :'edge_shared'::bool THEN abs(:alone - :v7) / 150000.0 < 0.05
			ELSE (:alone - :v7) / 150000.0 BETWEEN 0.2 AND 0.85 END AS accesses_as_expected,
	   (SELECT avg_leaf_density FROM index_shape('striped_alone_pkey')) >=
			CASE WHEN :'edge_shared'::bool THEN 89 ELSE 85 END AS density_as_expected
FROM striped_alone;
DROP TABLE v7_edge, striped_edge, striped_alone;

-- right_edge => false (1.6.0): a session never takes the edge, not even
-- when it would have it (the edge reset to 0), and publishes nothing there:
-- its keys follow the fill rule key by key, as a session off the edge, and
-- the edge is still 0 after 6,000 of them.
SELECT ou_test_striped_edge(0) IS NULL = NOT :'edge_shared'::bool AS edge_as_expected;
SELECT dblink_connect('filling', :'conn');
SELECT count(*) AS values, count(*) FILTER (WHERE m.pass = 1) AS fills,
	   bool_and(m.pass = e.pass) AS passes_as_the_rule
FROM (SELECT t.k, f.pass
		FROM dblink('filling', 'SELECT k, uuid_striped_nextval(3600, right_edge => false) FROM generate_series(1, 6000) AS k')
			 AS t(k int, u uuid), LATERAL pg_temp.fields(u) AS f) AS m
JOIN pg_temp.rule(6000) AS e USING (k);
SELECT dblink_disconnect('filling');
SELECT coalesce(ou_test_striped_edge(0), 0) AS edge_untouched;

-- A table that held random keys when its default became the generator:
-- the new keys land among the random ones, so no split there is a split of
-- the index's rightmost page: every one is 50:50.  50,000 random keys, then
-- 30,000 rows, each table's from a session of its own that would take the
-- edge (reset before it).  Each index's growth in leaf pages, counted by
-- pgstattuple's pgstatindex, against a fresh table's with the one-argument
-- form: that form skips its fill keys where a shared edge says it is the
-- edge and leaves the new pages half full (1.8x; with no shared edge it
-- fills, as every session does there); right_edge => false fills and stays
-- within 15 % of the fresh table.  index_newest_pages() sees the same.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgstattuple;
RESET client_min_messages;
CREATE TABLE switched_old (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
INSERT INTO switched_old (n) SELECT g FROM generate_series(1, 50000) g;
CREATE TABLE switched_new (id uuid PRIMARY KEY, n int);
INSERT INTO switched_new SELECT * FROM switched_old;
CREATE TABLE switched_fresh (id uuid PRIMARY KEY DEFAULT uuid_striped_nextval(), n int);
SELECT (SELECT leaf_pages FROM pgstatindex('switched_old_pkey')) AS old_before,
	   (SELECT leaf_pages FROM pgstatindex('switched_new_pkey')) AS new_before \gset
ALTER TABLE switched_old ALTER COLUMN id SET DEFAULT uuid_striped_nextval();
ALTER TABLE switched_new ALTER COLUMN id SET DEFAULT uuid_striped_nextval(3600, right_edge => false);
SELECT ou_test_striped_edge(0) IS NULL = NOT :'edge_shared'::bool AS edge_as_expected;
SELECT dblink_exec(:'conn', 'INSERT INTO switched_old (n) SELECT g FROM generate_series(1, 30000) g');
SELECT ou_test_striped_edge(0) IS NULL = NOT :'edge_shared'::bool AS edge_as_expected;
SELECT dblink_exec(:'conn', 'INSERT INTO switched_new (n) SELECT g FROM generate_series(1, 30000) g');
SELECT ou_test_striped_edge(0) IS NULL = NOT :'edge_shared'::bool AS edge_as_expected;
SELECT dblink_exec(:'conn', 'INSERT INTO switched_fresh (n) SELECT g FROM generate_series(1, 30000) g');
SELECT CASE WHEN :'edge_shared'::bool THEN o.growth >= 1.5 * f.pages ELSE o.growth <= 1.15 * f.pages END
		   AS one_argument_form_as_expected,
	   n.growth <= 1.15 * f.pages AS right_edge_false_within_15_percent,
	   n.growth >= 0.8 * f.pages AS right_edge_false_counts_every_row
FROM (SELECT leaf_pages - :old_before AS growth FROM pgstatindex('switched_old_pkey')) o,
	 (SELECT leaf_pages - :new_before AS growth FROM pgstatindex('switched_new_pkey')) n,
	 (SELECT leaf_pages AS pages FROM pgstatindex('switched_fresh_pkey')) f;
SELECT t, p.state, p.keys_above, p.leaf_pages,
	   p.ordered_tuples = p.tuples AS all_time_ordered,
	   CASE WHEN t = 'switched_old' AND :'edge_shared'::bool THEN p.avg_leaf_density < 60
			ELSE p.avg_leaf_density >= 85 END AS density_as_expected
FROM unnest(ARRAY['switched_old', 'switched_new', 'switched_fresh']) AS t,
	 LATERAL index_newest_pages((t || '_pkey')::regclass) AS p;
DROP TABLE switched_old, switched_new, switched_fresh;

-- Errors, with their SQLSTATEs; the bounds themselves are accepted.
\set VERBOSITY sqlstate
SELECT uuid_striped_nextval(NULL);
SELECT uuid_striped_nextval(0);
SELECT uuid_striped_nextval(-1);
SELECT uuid_striped_nextval(86401);
SELECT uuid_striped_nextval(3600, NULL);
SELECT uuid_striped_nextval(NULL, false);
SELECT uuid_striped_nextval(0, false);
\set VERBOSITY default
SELECT (pg_temp.fields(uuid_striped_nextval(1))).version AS v1,
	   (pg_temp.fields(uuid_striped_nextval(86400))).block_ms % 86400000 = 0 AS day_block;

DROP FUNCTION ou_test_striped_edge(bigint);
