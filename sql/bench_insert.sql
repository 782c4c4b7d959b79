--
-- bench_insert (S1 of doc/scenarios.md): structure and invariants with tiny
-- sizes, never timings.
-- Independent checks: row counts of kept tables, pgstattuple's pgstatindex()
-- for leaf pages and density, pg_relation_size() for the index size, the
-- catalog for scratch tables left behind, and a log table written by a
-- generator itself for the role it ran as.
--
SET client_min_messages = warning;	-- whether or not an earlier test made it
CREATE EXTENSION IF NOT EXISTS pgstattuple;
RESET client_min_messages;

\i sql/include/bench_helpers.sql

-- The default generators, one client: one row each, in the order given.
SELECT generator, rows, seconds > 0 AS timed, rows_per_sec > 0 AS rate,
	   wal_bytes_per_row > 16 AS wal, fpi_per_row * 64 <= wal_bytes_per_row AS fpi,
	   leaf_splits_per_1k > 0 AS splits, index_bytes > 8192 AS index,
	   avg_leaf_density BETWEEN 50 AND 100 AS density,
	   blks_dirtied_per_row > 0 AS dirtied, kept_table IS NULL AS dropped
  FROM bench_insert(rows => 5000);
SELECT * FROM bench_leftovers;

-- The bigint key has the smallest index; an increasing key fills its
-- leaves (rightmost splits leave them ~90% full), a random one does not.
-- 20,000 rows make ~80 leaf pages: with a handful, a random key's density
-- varies too much from run to run to compare.
SELECT generator, rank() OVER (ORDER BY index_bytes) AS size_rank,
	   avg_leaf_density > 85 AS dense_leaves
  FROM bench_insert(ARRAY['gen_random_uuid()', 'bigint', 'uuid_v7_nextval()'], 20000)
 ORDER BY generator COLLATE "C";

-- Several clients, small transactions, prefill, keep: the rows are all
-- there, and the figures agree with pgstatindex() and pg_relation_size()
-- (index_shape() counts exact free space as pgstatindex() does since PG 18;
-- older pgstatindex() leaves out one line pointer per page: within 0.1).
CREATE TEMP TABLE kept AS
SELECT *, 500 AS prefill
  FROM bench_insert(ARRAY['uuid_time_nextval()', 'uuid_sequence_nextval($seq, 64)'],
					rows => 3001, clients => 3, rows_per_xact => 7,
					prefill => 500, keep => true);
INSERT INTO kept
SELECT *, 0 FROM bench_insert(ARRAY['gen_random_uuid()'], 3000, keep => true);
DO $$
DECLARE
	k record;
	n bigint;
	s record;
	splits numeric;
BEGIN
	FOR k IN SELECT * FROM kept ORDER BY generator COLLATE "C" LOOP
		EXECUTE format('SELECT count(*) FROM %s', k.kept_table) INTO n;
		SELECT * INTO s FROM pgstatindex(k.kept_table || '_pkey');
		splits := round(k.leaf_splits_per_1k * k.rows / 1000);
		RAISE NOTICE '%: % rows + % prefilled = % in the table; index size agrees: %; density agrees: %; leaf splits %',
			k.generator, k.rows, k.prefill, n,
			k.index_bytes = pg_relation_size((k.kept_table || '_pkey')::regclass),
			abs(k.avg_leaf_density - s.avg_leaf_density) < 0.1,
			CASE WHEN k.prefill = 0 AND splits = s.leaf_pages - 1 THEN '= leaf pages - 1'
				 WHEN k.prefill > 0 AND splits > 0 AND splits < s.leaf_pages - 1 THEN '< leaf pages - 1 (prefill)'
				 ELSE 'WRONG: ' || splits || ' of ' || s.leaf_pages END;
	END LOOP;
END $$;
-- kept tables belong to the caller, in a kept schema of each run that the
-- caller owns, and do not depend on the extension; the caller drops them
SELECT count(*) AS kept_tables, bool_and(c.relowner = current_user::regrole) AS owned_by_caller,
	   bool_and(n.nspowner = current_user::regrole) AS schema_owned_by_caller,
	   count(DISTINCT n.oid) AS kept_schemas
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname LIKE 'ordered\_uuid\_kept\_%' AND c.relkind = 'r';
SELECT count(*) AS dependencies_on_extension
  FROM pg_depend d JOIN pg_class c ON d.classid = 'pg_class'::regclass AND d.objid = c.oid
  JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname LIKE 'ordered\_uuid\_kept\_%'
   AND d.refobjid IN (SELECT objid FROM pg_depend WHERE refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ordered_uuid'));
SET client_min_messages = warning;
DO $$
DECLARE k record;
BEGIN
	FOR k IN SELECT DISTINCT split_part(kept_table, '.', 1) AS s FROM kept LOOP
		EXECUTE format('DROP SCHEMA %s CASCADE', k.s);
	END LOOP;
END $$;
RESET client_min_messages;
SELECT * FROM bench_leftovers;

-- Unlogged tables write (almost) no WAL: commit records, the scratch
-- sequence, and on PG 18 (data checksums on by default) a few hint-bit
-- page images of catalog pages.
SELECT generator, wal_bytes_per_row < 16 AS little_wal, fpi_per_row < 0.01 AS almost_no_fpi
  FROM bench_insert(ARRAY['uuid_v7_nextval()'], 2000, unlogged => true);

-- Cancel (statement_timeout) stops the workers and drops the scratch
-- tables before the error reaches the client.
SET statement_timeout = '1s';
SELECT * FROM bench_insert(ARRAY['gen_random_uuid()'], rows => 1000000000, clients => 2);
RESET statement_timeout;
SELECT * FROM bench_leftovers;

-- While it runs, pg_stat_activity shows the phase (the leader) and what the
-- workers do; seen from inside, by a generator.
CREATE TABLE bench_seen (backend_type text, activity text);
CREATE FUNCTION bench_look() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	INSERT INTO bench_seen SELECT backend_type, query FROM pg_stat_activity
	 WHERE query LIKE 'bench\_insert:%';
	RETURN gen_random_uuid();
END $$;
SELECT generator, rows FROM bench_insert(ARRAY['bench_look()'], 3);
SELECT DISTINCT backend_type, activity FROM bench_seen ORDER BY 1, 2;
DROP TABLE bench_seen;
DROP FUNCTION bench_look();

-- repeats: each generator runs that many times, each time into a fresh
-- table, the repetitions interleaved: repetition 1 of every generator in the
-- order given, repetition 2 in the reverse order, and so on.  The leader's
-- phase, recorded by the only row of each run, shows the order they ran in,
-- and run_order says the same.
CREATE TABLE bench_order (n serial, activity text);
CREATE FUNCTION bench_note() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	INSERT INTO bench_order (activity) SELECT query FROM pg_stat_activity
	 WHERE backend_type = 'client backend' AND query LIKE 'bench\_insert:%';
	RETURN gen_random_uuid();
END $$;
SELECT generator, rows, runs, run_order, array_length(rows_per_sec_runs, 1) AS rates
  FROM bench_insert(ARRAY['bench_note()', '(bench_note())', '((bench_note()))'], 1, repeats => 3);
SELECT n, activity FROM bench_order ORDER BY n;
DROP TABLE bench_order;
DROP FUNCTION bench_note();
SELECT * FROM bench_leftovers;

-- Each figure is the median of the generator's runs, with the minimum and
-- maximum of rows/s and seconds: checked against each run's own rate
-- (rows_per_sec_runs, in the order of the repetitions).  An odd number of
-- runs has the middle one as median, an even number the mean of the two
-- middle ones (within twice the rounding to 1 decimal).
CREATE TEMP TABLE spread AS
SELECT * FROM bench_insert(ARRAY['uuid_v7_nextval()', 'gen_random_uuid()'], 2000, repeats => 3)
UNION ALL
SELECT * FROM bench_insert(ARRAY['bigint'], 2000, repeats => 2);
SELECT generator, runs, run_order, array_length(rows_per_sec_runs, 1) = runs AS one_rate_per_run,
	   rows_per_sec_min = (SELECT min(r) FROM unnest(rows_per_sec_runs) r) AS min_is_slowest,
	   rows_per_sec_max = (SELECT max(r) FROM unnest(rows_per_sec_runs) r) AS max_is_fastest,
	   abs(rows_per_sec - (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY r)
							 FROM unnest(rows_per_sec_runs) r)) < 0.2 AS median,
	   runs = 2 OR rows_per_sec IN (SELECT r FROM unnest(rows_per_sec_runs) r) AS odd_median_is_a_run,
	   seconds_min <= seconds AND seconds <= seconds_max AS seconds_spread,
	   rows_per_sec_min > 0 AND seconds_min > 0 AS positive
  FROM spread ORDER BY generator COLLATE "C";
DROP TABLE spread;

-- One run (the default): the spread is that run, and run_order the
-- generator's position.
SELECT generator, runs, run_order, rows_per_sec_runs = ARRAY[rows_per_sec] AS its_rate,
	   rows_per_sec_min = rows_per_sec AND rows_per_sec_max = rows_per_sec AS min_max_rate,
	   seconds_min = seconds AND seconds_max = seconds AS min_max_seconds
  FROM bench_insert(ARRAY['bigint', 'uuid_v7_nextval()'], 100);

-- Every repetition gets a fresh prefilled table: with keep, the last
-- repetition's table is kept (the others are dropped) and holds the prefill
-- and one repetition's rows.
CREATE TEMP TABLE kept_reps AS
SELECT * FROM bench_insert(ARRAY['uuid_v7_nextval()', 'bigint'], 300, prefill => 200,
						   keep => true, repeats => 3);
DO $$
DECLARE
	k record;
	n bigint;
BEGIN
	FOR k IN SELECT * FROM kept_reps ORDER BY generator COLLATE "C" LOOP
		EXECUTE format('SELECT count(*) FROM %s', k.kept_table) INTO n;
		RAISE NOTICE '%: % runs, % rows each, % in the kept table', k.generator, k.runs, k.rows, n;
	END LOOP;
END $$;
SELECT count(*) AS kept_tables
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname LIKE 'ordered\_uuid\_kept\_%' AND c.relkind = 'r';
SET client_min_messages = warning;
DO $$
DECLARE k record;
BEGIN
	FOR k IN SELECT DISTINCT split_part(kept_table, '.', 1) AS s FROM kept_reps LOOP
		EXECUTE format('DROP SCHEMA %s CASCADE', k.s);
	END LOOP;
END $$;
RESET client_min_messages;
DROP TABLE kept_reps;
SELECT * FROM bench_leftovers;

-- The leader samples its workers' wait events while they insert: a
-- generator that sleeps 20 ms per row shows up as Timeout:PgSleep.
CREATE FUNCTION bench_sleepy() RETURNS uuid LANGUAGE sql VOLATILE
	AS 'SELECT gen_random_uuid() FROM pg_sleep(0.02)';
SELECT generator, split_part(top_wait_events, ' ', 1) AS top_wait_event,
	   top_wait_events ~ '^(CPU|[A-Za-z]+:[A-Za-z0-9_]+) [0-9.]+%(, (CPU|[A-Za-z]+:[A-Za-z0-9_]+) [0-9.]+%)*$' AS well_formed
  FROM bench_insert(ARRAY['bench_sleepy()'], 20, clients => 2);
DROP FUNCTION bench_sleepy();

-- Argument checks.
SELECT pg_temp.err('SELECT bench_insert(rows => 0)');
SELECT pg_temp.err('SELECT bench_insert(clients => 0)');
SELECT pg_temp.err('SELECT bench_insert(rows_per_xact => 0)');
SELECT pg_temp.err('SELECT bench_insert(prefill => -1)');
SELECT pg_temp.err('SELECT bench_insert(rows => NULL)');
SELECT pg_temp.err('SELECT bench_insert(clients => NULL)');
SELECT pg_temp.err('SELECT bench_insert(rows_per_xact => NULL)');
SELECT pg_temp.err('SELECT bench_insert(prefill => NULL)');
SELECT pg_temp.err('SELECT bench_insert(unlogged => NULL)');
SELECT pg_temp.err('SELECT bench_insert(keep => NULL)');
SELECT pg_temp.err('SELECT bench_insert(repeats => 0)');
SELECT pg_temp.err('SELECT bench_insert(repeats => 1001)');
SELECT pg_temp.err('SELECT bench_insert(repeats => NULL)');
-- at most 100,000 runs in one call, refused before anything runs
SELECT pg_temp.err($$SELECT bench_insert(array_fill('bigint'::text, ARRAY[101]), 10, repeats => 1000)$$);
SELECT pg_temp.err('SELECT bench_insert(generators => NULL)');
SELECT pg_temp.err('SELECT bench_insert(generators => ''{}'')');
SELECT pg_temp.err('SELECT bench_insert(generators => ARRAY[NULL])');
SELECT pg_temp.err('SELECT bench_insert(generators => ARRAY[''''])');
-- a generator must be one SQL expression; the errors it raises come back
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['uuid_v7_nextval('], 10)$$);
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['1); DROP TABLE kept; SELECT (1'], 10)$$);
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['1 FROM pg_class'], 10)$$);
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['no_such_function()'], 10)$$);
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['(SELECT 1)'], 10)$$);
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['1/0'], 10)$$);
-- too few worker slots: more than max_worker_processes, or more than are free
-- (the server-wide cap on benchmark workers would refuse first: lift it)
SELECT set_config('ordered_uuid.bench_max_workers', current_setting('max_worker_processes'), false) IS NOT NULL AS cap_lifted;
SELECT pg_temp.err(format('SELECT bench_insert(rows => 10, clients => %s)',
						  current_setting('max_worker_processes')::int + 1));
SELECT pg_temp.err(format('SELECT bench_insert(rows => 10, clients => %s)',
						  current_setting('max_worker_processes')));
SELECT * FROM bench_leftovers;

-- bench_switch (1.6.0): a table of 20,000 random keys switched to each
-- generator, beside a fresh table with the same key; two rows a generator,
-- the switched table's first.  Version 7 keys land among the random ones,
-- where every split is 50:50: the index grows 1.5 times the fresh table's
-- pages or more, its new pages about half full; right_edge => false fills
-- them and stays within 15 % of the fresh table.  On the kept tables:
-- every row is there, and a fresh table's index holds the pages the run
-- added and the metapage it began with, by pg_relation_size().
CREATE TEMP TABLE switched AS
SELECT * FROM bench_switch(ARRAY['uuid_v7_nextval()', 'uuid_striped_nextval(3600, right_edge => false)'],
						   prefill => 20000, rows => 10000, repeats => 2, keep => true);
SELECT generator, prefill, rows, runs, cardinality(rows_per_sec_runs) AS rates,
	   cardinality(pages_added_runs) AS page_counts, cardinality(run_order) AS orders,
	   CASE WHEN prefill = 0 THEN pages_vs_fresh IS NULL
			WHEN generator LIKE 'uuid_v7%' THEN pages_vs_fresh >= 1.5 AND added_leaf_density < 60
			ELSE pages_vs_fresh <= 1.15 AND added_leaf_density >= 85 END AS pages_as_expected,
	   prefill = 0 OR pages_vs_fresh BETWEEN pages_vs_fresh_min AND pages_vs_fresh_max AS in_its_spread,
	   rows_per_sec BETWEEN rows_per_sec_min AND rows_per_sec_max AS rate_in_its_spread
  FROM switched;
-- the four tables ran interleaved: repetition 1 in the order given, 2 reversed
SELECT string_agg(run_order[1] || '/' || run_order[2], ' ' ORDER BY generator COLLATE "C", prefill DESC) AS run_orders
  FROM switched;
DO $$
DECLARE
	k record;
	n bigint;
BEGIN
	FOR k IN SELECT * FROM switched ORDER BY generator COLLATE "C", prefill DESC LOOP
		EXECUTE format('SELECT count(*) FROM %s', k.kept_table) INTO n;
		RAISE NOTICE '%, prefill %: % rows in the kept table; index pages agree: %', k.generator, k.prefill, n,
			k.prefill > 0 OR pg_relation_size((k.kept_table || '_pkey')::regclass) / 8192 = k.pages_added_runs[2] + 1;
	END LOOP;
END $$;
SET client_min_messages = warning;
DO $$
DECLARE k record;
BEGIN
	FOR k IN SELECT DISTINCT split_part(kept_table, '.', 1) AS s FROM switched LOOP
		EXECUTE format('DROP SCHEMA %s CASCADE', k.s);
	END LOOP;
END $$;
RESET client_min_messages;
DROP TABLE switched;
SELECT * FROM bench_leftovers;
SELECT pg_temp.err('SELECT bench_switch(prefill => 0)');
SELECT pg_temp.err('SELECT bench_switch(rows => 0)');
SELECT pg_temp.err('SELECT bench_switch(from_generator => NULL)');
SELECT pg_temp.err($$SELECT bench_switch(from_generator => '')$$);
SELECT pg_temp.err($$SELECT bench_switch(from_generator => '1 FROM pg_class')$$);
SELECT pg_temp.err('SELECT bench_switch(generators => ''{}'')');
SELECT pg_temp.err('SELECT bench_switch(generators => ARRAY[NULL])');
SELECT pg_temp.err($$SELECT bench_switch(ARRAY['1); SELECT (1'])$$);
SELECT pg_temp.err('SELECT bench_switch(repeats => 0)');
SELECT pg_temp.err($$SELECT bench_switch(array_fill('uuid_v7_nextval()'::text, ARRAY[51]), repeats => 1000)$$);
-- keys of another type than the prefill's: the error of the insert, and nothing left
SELECT pg_temp.err($$SELECT bench_switch(ARRAY['bigint'], prefill => 10, rows => 10)$$);
SELECT * FROM bench_leftovers;

-- Generators run as the calling role, with its privileges.
CREATE ROLE regress_bench_alice LOGIN;
CREATE ROLE regress_bench_nologin NOLOGIN;
GRANT EXECUTE ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool, int)
	TO regress_bench_alice, regress_bench_nologin;
CREATE TABLE bench_secret (id uuid);
INSERT INTO bench_secret VALUES (gen_random_uuid());
-- reads a table its caller may not be allowed to read
CREATE FUNCTION bench_peek() RETURNS uuid LANGUAGE sql VOLATILE
	AS 'SELECT gen_random_uuid() FROM bench_secret LIMIT 1';
-- records who runs it
CREATE TABLE bench_who (who name, n bigint);
GRANT INSERT ON bench_who TO regress_bench_alice;
CREATE FUNCTION bench_whoami() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	INSERT INTO bench_who VALUES (current_user, 1);
	RETURN gen_random_uuid();
END $$;
-- the owner of bench_secret may read it through a generator
SELECT generator, rows FROM bench_insert(ARRAY['bench_peek()'], 10);
SET ROLE regress_bench_alice;
-- each run creates a schema of its own: CREATE on the database is needed
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['gen_random_uuid()'], 10)$$);
RESET ROLE;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_bench_alice', current_database()); END $$;
SET ROLE regress_bench_alice;
-- alice may not: permission denied, and nothing left behind
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['bench_peek()'], 10)$$);
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['bench_peek()'], 10, prefill => 5)$$);
-- her generators run as her (and she cannot CHECKPOINT: a NOTICE says so)
SELECT generator, rows FROM bench_insert(ARRAY['bench_whoami()'], 20, clients => 2, rows_per_xact => 3);
RESET ROLE;
SELECT who, sum(n) AS rows FROM bench_who GROUP BY who;
SELECT * FROM bench_leftovers;
-- a role that may not log in cannot run benchmark workers
SET ROLE regress_bench_nologin;
SELECT pg_temp.err($$SELECT bench_insert(ARRAY['bigint'], 10)$$);
RESET ROLE;
SELECT * FROM bench_leftovers;

-- not from inside a security-restricted operation (REFRESH MATERIALIZED VIEW
-- runs the view's query that way)
CREATE MATERIALIZED VIEW bench_mv AS SELECT generator FROM bench_insert(ARRAY['bigint'], 10) WITH NO DATA;
SELECT pg_temp.err('REFRESH MATERIALIZED VIEW bench_mv');
DROP MATERIALIZED VIEW bench_mv;
SELECT * FROM bench_leftovers;

-- The default generators always mean this extension's functions: a function
-- of the same name that another schema puts earlier on the caller's
-- search_path is never called by the workers.
CREATE SCHEMA bench_shadow;
CREATE FUNCTION bench_shadow.uuid_v7_nextval() RETURNS uuid LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'the shadowing function was called'; END $$;
SET search_path = bench_shadow, public;
SELECT generator, rows FROM bench_insert(ARRAY['uuid_v7_nextval()'], 10);
RESET search_path;
DROP FUNCTION bench_shadow.uuid_v7_nextval();
DROP SCHEMA bench_shadow;
SELECT * FROM bench_leftovers;

DROP FUNCTION bench_peek(), bench_whoami();
DROP TABLE bench_secret, bench_who;
DO $$ BEGIN EXECUTE format('REVOKE CREATE ON DATABASE %I FROM regress_bench_alice', current_database()); END $$;
REVOKE EXECUTE ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool, int)
	FROM regress_bench_alice, regress_bench_nologin;
DROP ROLE regress_bench_alice, regress_bench_nologin;
DROP VIEW bench_leftovers;
