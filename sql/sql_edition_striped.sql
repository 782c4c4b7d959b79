--
-- The SQL edition's striped keys: unique without process numbers or shared
-- memory.  Every key takes its own value of the sequence uuid_striped_seq
-- (a chunk of 65,536 a session, its cache): a front key the slot of its
-- value, a fill key that of the value 800 before it, so no two keys share
-- block, stripe, slot and pass while the sequence hands out each value once.
-- A session alone at the right edge (its chunk the newest) makes no fill
-- keys; one behind it fills, to the density the C edition's keys reach.
-- Sessions of both editions at once never make keys that share all but the
-- random bits (the SQL edition's high stripe bits are never 0).  A role
-- that may make keys cannot reset the sequence.  (Sixteen sessions at once,
-- and successive sessions on one process id: scripts/test-sql-edition.sh.)
--
SELECT current_database() AS regress_db, current_user AS superuser \gset
\set db regress_ou_sqled_striped
\set owner regress_ou_sqled_striped_owner
\i sql/include/sql_edition_setup.sql
\set ECHO none
\i sql/include/striped_fields.sql
\set ECHO all
CREATE TABLE sqled.alone (id uuid PRIMARY KEY DEFAULT sqled.uuid_striped_nextval(), n int);

-- One session alone: its chunks are the newest, so it is at the right edge
-- (no fill keys) and its keys ascend; 140,000 keys take three chunks, three
-- stripes; the high stripe bits are never 0.
INSERT INTO sqled.alone (n) SELECT g FROM generate_series(1, 140000) g;
SELECT count(*) AS keys, count(DISTINCT pg_temp.all_but_random(id)) AS distinct_but_random,
	   count(*) FILTER (WHERE (pg_temp.fields(id)).pass = 1) AS fill_keys,
	   count(DISTINCT (pg_temp.fields(id)).stripe & 4095) AS stripes,
	   count(*) FILTER (WHERE (pg_temp.fields(id)).stripe >> 12 = 0) AS high_stripe_bits_0,
	   (SELECT count(*) FROM (SELECT id < lead(id) OVER (ORDER BY n) AS up FROM sqled.alone) x WHERE NOT up) AS not_ascending,
	   (SELECT avg_leaf_density >= 89 FROM sqled.index_shape('sqled.alone_pkey')) AS density_at_least_89
  FROM sqled.alone;

-- A session behind another's chunk fills: about 22 fill keys to 24 front
-- keys once it is 800 values into its chunk, each filling the slot right
-- after one of its own front keys.
\c - :superuser
SET client_min_messages = warning;
CREATE EXTENSION dblink;
RESET client_min_messages;
\set ECHO none
\i sql/include/striped_fields.sql
\set ECHO all
SELECT format('dbname=%s user=%s host=%s port=%s', current_database(), :'owner',
			  current_setting('unix_socket_directories'), current_setting('port')) AS conn \gset
SET ROLE :owner;
CREATE TABLE sqled.behind (id uuid PRIMARY KEY, n int);
INSERT INTO sqled.behind VALUES (sqled.uuid_striped_nextval(), 0);
RESET ROLE;
SELECT dblink_connect('newer', :'conn');
SELECT * FROM dblink('newer', 'SELECT sqled.uuid_striped_nextval() IS NOT NULL') AS t(made boolean);
SET ROLE :owner;
INSERT INTO sqled.behind SELECT sqled.uuid_striped_nextval(), g FROM generate_series(1, 20000) g;
RESET ROLE;
CREATE TEMP TABLE behind_fields AS
SELECT f.*, pg_temp.all_but_random(b.id) AS abr FROM sqled.behind b, pg_temp.fields(b.id) f;
SELECT count(*) AS keys, count(DISTINCT abr) AS distinct_but_random,
	   count(*) FILTER (WHERE pass = 1) BETWEEN 8500 AND 9500 AS fill_keys_about_9000,
	   (SELECT count(*) FROM behind_fields fill
		 WHERE fill.pass = 1
		   AND NOT EXISTS (SELECT FROM behind_fields front
							WHERE front.pass = 0 AND front.stripe = fill.stripe
							  AND front.block_ms = fill.block_ms AND front.slot = fill.slot - 1)) AS fills_without_their_front
  FROM behind_fields;

-- right_edge => false: a session fills all the same where its chunk is the
-- newest (for an index that holds keys above the new ones).  A new session,
-- alone at the right edge, makes 20,000 keys.
SET ROLE :owner;
CREATE TABLE sqled.not_edge (id uuid PRIMARY KEY DEFAULT sqled.uuid_striped_nextval(3600, right_edge => false), n int);
RESET ROLE;
SELECT dblink_connect('fresh', :'conn');
SELECT * FROM dblink('fresh', 'INSERT INTO sqled.not_edge (n) SELECT g FROM generate_series(1, 20000) g') AS t(r text);
SELECT dblink_disconnect('fresh');
SELECT count(*) AS keys, count(DISTINCT pg_temp.all_but_random(id)) AS distinct_but_random,
	   count(*) FILTER (WHERE (pg_temp.fields(id)).pass = 1) BETWEEN 8500 AND 9500 AS fill_keys_about_9000
  FROM sqled.not_edge;

-- Four sessions at once, 25,000 rows each, into a table keyed by
-- uuid_striped_nextval(), then into one keyed by gen_random_uuid(): no two
-- keys share all but the random bits, each session its own stripe, the
-- index at least 85 % full and 10 points fuller than random keys' (the C
-- edition's own check: specs/generators_striped_sessions.spec).
SET ROLE :owner;
CREATE TABLE sqled.four (id uuid PRIMARY KEY DEFAULT sqled.uuid_striped_nextval(), n int);
CREATE TABLE sqled.four_random (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
RESET ROLE;
CREATE FUNCTION pg_temp.at_once(tbl text, sessions int, rows_each int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	FOR s IN 1 .. sessions LOOP
		PERFORM dblink_connect('s' || s, current_setting('regress.conn'));
	END LOOP;
	FOR s IN 1 .. sessions LOOP
		PERFORM dblink_send_query('s' || s, format('INSERT INTO %s (n) SELECT g FROM generate_series(1, %s) g',
												   tbl, rows_each));
	END LOOP;
	FOR s IN 1 .. sessions LOOP
		PERFORM * FROM dblink_get_result('s' || s) AS t(r text);
		PERFORM dblink_disconnect('s' || s);
	END LOOP;
END $$;
SET regress.conn = :'conn';
SELECT pg_temp.at_once('sqled.four', 4, 25000);
SELECT pg_temp.at_once('sqled.four_random', 4, 25000);
SELECT count(*) AS keys, count(DISTINCT pg_temp.all_but_random(id)) AS distinct_but_random,
	   count(DISTINCT (pg_temp.fields(id)).stripe) AS stripes
  FROM sqled.four;
SELECT s.avg_leaf_density >= 85 AS striped_density_at_least_85,
	   s.avg_leaf_density >= r.avg_leaf_density + 10 AS denser_than_random_by_10_points
  FROM public.pgstatindex('sqled.four_pkey') s, public.pgstatindex('sqled.four_random_pkey') r;

-- Both editions at once into one table: two sessions of each.
SET ROLE :owner;
CREATE TABLE sqled.both (id uuid PRIMARY KEY, n int);
RESET ROLE;
CREATE FUNCTION pg_temp.both_at_once() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	FOR s IN 1 .. 4 LOOP
		PERFORM dblink_connect('s' || s, current_setting('regress.conn'));
		PERFORM dblink_send_query('s' || s, format(
			'INSERT INTO sqled.both SELECT %s.uuid_striped_nextval(), g FROM generate_series(1, 20000) g',
			CASE WHEN s % 2 = 0 THEN 'sqled' ELSE 'c_ed' END));
	END LOOP;
	FOR s IN 1 .. 4 LOOP
		PERFORM * FROM dblink_get_result('s' || s) AS t(r text);
		PERFORM dblink_disconnect('s' || s);
	END LOOP;
END $$;
SELECT pg_temp.both_at_once();
SELECT (pg_temp.fields(id)).stripe >> 12 > 0 AS high_stripe_bits_set, count(*) AS keys,
	   count(DISTINCT pg_temp.all_but_random(id)) AS distinct_but_random
  FROM sqled.both GROUP BY 1 ORDER BY 1;
SELECT count(DISTINCT pg_temp.all_but_random(id)) AS distinct_but_random_of_all FROM sqled.both;

-- What another role may do: make keys (USAGE on the sequence), nothing
-- that could make the sequence repeat a value, nothing in the schema.
CREATE ROLE regress_ou_sqled_hostile;
\i sql/include/err.sql
SET ROLE regress_ou_sqled_hostile;
SELECT sqled.uuid_version(sqled.uuid_striped_nextval()) AS makes_keys;
SELECT pg_temp.err($$SELECT setval('sqled.uuid_striped_seq', 137438953472)$$) AS setval;
SELECT pg_temp.err($$ALTER SEQUENCE sqled.uuid_striped_seq RESTART$$) AS alter_sequence;
SELECT pg_temp.err($$DROP SEQUENCE sqled.uuid_striped_seq CASCADE$$) AS drop_sequence;
SELECT pg_temp.err($$CREATE OR REPLACE FUNCTION sqled.uuid_time(uuid) RETURNS timestamptz LANGUAGE sql AS 'SELECT now()'$$) AS replace_function;
SELECT pg_temp.err($$CREATE FUNCTION sqled.uuid_time(text) RETURNS timestamptz LANGUAGE sql AS 'SELECT now()'$$) AS add_function;
RESET ROLE;

\c :regress_db :superuser
DROP DATABASE regress_ou_sqled_striped;
DROP ROLE regress_ou_sqled_striped_owner, regress_ou_sqled_hostile;
