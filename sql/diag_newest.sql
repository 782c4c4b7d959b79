--
-- index_newest_pages(): the leaf pages behind a uuid index's newest
-- time-ordered keys, and whether the index holds keys above them
-- (src/diag_newest.c).  Its counts against pgstattuple's on tables of known
-- keys, its states, its errors and what another role may read.  The keys
-- are made from fixed times and md5(), so the pages are the same on every
-- run; no figure that depends on the clock is printed.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgstattuple;
CREATE EXTENSION IF NOT EXISTS dblink;
RESET client_min_messages;

-- random (version 4) keys from md5, and ascending version 7 keys one
-- millisecond apart from 2025-01-01
CREATE FUNCTION pg_temp.random_key(n int) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
	SELECT (substr(h, 1, 12) || '4' || substr(h, 14, 3) || '8' || substr(h, 18, 15))::uuid
	  FROM (SELECT md5(n::text) AS h) x
$$;
CREATE FUNCTION pg_temp.v7_key(n int) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
	SELECT uuid_v7_min('2025-01-01 00:00:00+00'::timestamptz + n * interval '1 millisecond')
$$;

-- Ordered keys alone: every leaf page but the newest (the rightmost, still
-- being filled) is behind the newest key, with every entry but that page's.
-- The walk's pages, entries and density against pgstatindex's for the
-- whole index.
CREATE TABLE only_ordered (id uuid PRIMARY KEY);
INSERT INTO only_ordered SELECT pg_temp.v7_key(n) FROM generate_series(1, 30000) n;
SELECT p.state, p.keys_above, p.leaf_pages = s.leaf_pages - 1 AS every_leaf_but_the_newest,
	   p.tuples BETWEEN 30000 - 291 AND 30000 - 1 AS entries_but_the_newest_pages,
	   p.ordered_tuples = p.tuples AS all_time_ordered,
	   abs(p.avg_leaf_density - s.avg_leaf_density) < 1 AS density_as_pgstatindex
FROM index_newest_pages('only_ordered_pkey', max_pages => 100000) p, pgstatindex('only_ordered_pkey') s;
-- max_pages caps the walk
SELECT leaf_pages FROM index_newest_pages('only_ordered_pkey', max_pages => 10);
-- below: the newest key under it is that of 00:00:04.999, 5 s into the year
SELECT state, newest_time AT TIME ZONE 'UTC' AS newest_time, keys_above
FROM index_newest_pages('only_ordered_pkey', uuid_v7_min('2025-01-01 00:00:05+00'));

-- 20,000 random keys, then 10,000 ordered ones: the ordered keys land among
-- the random ones, below most of them, where every split is 50:50.  The walk
-- stops where the random keys take over, having seen all ordered keys but
-- those of the newest page and of the page it stops at; their pages are
-- about half full.
CREATE TABLE switched (id uuid PRIMARY KEY);
INSERT INTO switched SELECT pg_temp.random_key(n) FROM generate_series(1, 20000) n;
INSERT INTO switched SELECT pg_temp.v7_key(n) FROM generate_series(1, 10000) n;
SELECT state, newest_time AT TIME ZONE 'UTC' AS newest_time, keys_above,
	   ordered_tuples BETWEEN 10000 - 2 * 291 AND 10000 AS nearly_every_ordered_key,
	   ordered_tuples * 2 >= tuples AS mostly_ordered,
	   avg_leaf_density BETWEEN 45 AND 60 AS half_full
FROM index_newest_pages('switched_pkey', max_pages => 1000);

-- States: no key below below; keys, none of them time-ordered; an empty
-- index (nothing above either); a NULL key sorts last, above every key.
SELECT state, keys_above, leaf_pages FROM index_newest_pages('switched_pkey', '00000000-0000-0000-0000-000000000000');
CREATE TABLE only_random (id uuid PRIMARY KEY);
INSERT INTO only_random SELECT pg_temp.random_key(n) FROM generate_series(1, 1000) n;
SELECT state, newest_time, keys_above, leaf_pages FROM index_newest_pages('only_random_pkey');
CREATE TABLE empty_keys (id uuid PRIMARY KEY);
SELECT state, keys_above FROM index_newest_pages('empty_keys_pkey');
CREATE TABLE with_null (id uuid UNIQUE);
INSERT INTO with_null SELECT pg_temp.v7_key(n) FROM generate_series(1, 100) n;
SELECT state, keys_above FROM index_newest_pages('with_null_id_key');
INSERT INTO with_null VALUES (NULL);
SELECT state, keys_above FROM index_newest_pages('with_null_id_key');

-- Locked by another session: it does not wait ('locked').
SELECT format('dbname=%s user=%s host=%s port=%s', current_database(), current_user,
			  current_setting('unix_socket_directories'), current_setting('port')) AS conn \gset
SELECT dblink_connect('locker', :'conn');
SELECT dblink_exec('locker', 'BEGIN');
SELECT dblink_exec('locker', 'LOCK TABLE only_ordered IN ACCESS EXCLUSIVE MODE');
SELECT state, keys_above, leaf_pages FROM index_newest_pages('only_ordered_pkey');
SELECT dblink_exec('locker', 'ROLLBACK');
SELECT dblink_disconnect('locker');

-- Another role reads what a SELECT of the column would show it: nothing
-- without SELECT (42501), and nothing of a table whose row-level security
-- applies to it ('hidden').
CREATE ROLE regress_ou_newest;
\set VERBOSITY sqlstate
SET ROLE regress_ou_newest;
SELECT state FROM index_newest_pages('only_ordered_pkey');
RESET ROLE;
\set VERBOSITY default
GRANT SELECT (id) ON only_ordered TO regress_ou_newest;
SET ROLE regress_ou_newest;
SELECT state, keys_above FROM index_newest_pages('only_ordered_pkey');
RESET ROLE;
ALTER TABLE only_ordered ENABLE ROW LEVEL SECURITY;
CREATE POLICY few ON only_ordered USING (id < pg_temp.v7_key(10));
SET ROLE regress_ou_newest;
SELECT state, keys_above, leaf_pages FROM index_newest_pages('only_ordered_pkey');
RESET ROLE;

-- Errors: not an index, not a B-tree, not an ascending uuid column, bad
-- arguments.
CREATE TABLE other_keys (id uuid, t text, d uuid);
CREATE INDEX other_keys_hash ON other_keys USING hash (id);
CREATE INDEX other_keys_text ON other_keys (t);
CREATE INDEX other_keys_desc ON other_keys (d DESC);
\set VERBOSITY sqlstate
SELECT * FROM index_newest_pages('other_keys');
SELECT * FROM index_newest_pages('other_keys_hash');
SELECT * FROM index_newest_pages('other_keys_text');
SELECT * FROM index_newest_pages('other_keys_desc');
SELECT * FROM index_newest_pages(NULL);
SELECT * FROM index_newest_pages('only_ordered_pkey', max_pages => 0);
SELECT * FROM index_newest_pages('only_ordered_pkey', max_pages => NULL);
\set VERBOSITY default

DROP TABLE only_ordered, switched, only_random, empty_keys, with_null, other_keys;
DROP ROLE regress_ou_newest;
