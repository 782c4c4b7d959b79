--
-- uuid_striped_nextval on a server whose process array is larger than
-- 4,096 entries (sql/generators_striped_procs.conf): two processes whose
-- process numbers are 4,096 apart make keys at the same moment, and no key
-- of one shares block, stripe, slot and pass (all of a key but its 18
-- random bits) with a key of the other.  Before 1.2.2 the stripe was the
-- process number modulo 4,096: both had one stripe, and about 1 in 64 of
-- their keys made in the same microsecond repeated a key of the other but
-- for 18 random bits.
--
-- How the two processes are placed depends on how PostgreSQL hands out
-- process numbers:
-- - 16 and later hand client connections their numbers in turn: this test
--   holds one session and opens and closes others until one gets a number
--   4,096 away from it;
-- - 14 and 15 give a new connection the number the last one left, and a
--   new background worker the highest free one: this session (the highest
--   client number) runs a parallel query whose worker gets the highest free
--   background worker number, this session's plus 4,096.
-- Either way the test reads the process numbers themselves (the test
-- module's ou_test_proc_number), independently of the keys, and says
-- whether the placement worked.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS dblink;
RESET client_min_messages;
\i sql/include/striped_fields.sql

CREATE FUNCTION ou_test_proc_number() RETURNS int
	AS 'ordered_uuid_test', 'ou_test_proc_number' LANGUAGE C PARALLEL SAFE;

SELECT format('dbname=%s user=%s host=%s port=%s', current_database(), current_user,
			  current_setting('unix_socket_directories'), current_setting('port')) AS conn \gset
SELECT current_setting('server_version_num')::int >= 160000 AS in_turn \gset

-- the keys, with the process number of the process that made each
CREATE UNLOGGED TABLE k (u uuid, p int);

\if :in_turn
-- Hold session h; open sessions until one has h's number plus or minus
-- 4,096 (at most two turns of the 4,200 numbers), and keep it as s.  Then h
-- and s make 3,000,000 keys each at the same moment: both wait for an
-- advisory lock that this session holds (at most 30 s), then start
-- together.
CREATE FUNCTION pg_temp.keys_in_turn(conn text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	h int;
	s int;
BEGIN
	PERFORM dblink_connect('h', conn);
	SELECT p INTO h FROM dblink('h', 'SELECT ou_test_proc_number()') AS t(p int);
	FOR i IN 1 .. 8400 LOOP
		PERFORM dblink_connect('s', conn);
		SELECT p INTO s FROM dblink('s', 'SELECT ou_test_proc_number()') AS t(p int);
		EXIT WHEN abs(s - h) = 4096;
		PERFORM dblink_disconnect('s');
		s := NULL;
	END LOOP;
	IF s IS NULL THEN
		PERFORM dblink_disconnect('h');
		RETURN false;
	END IF;
	PERFORM pg_advisory_lock(7401);
	PERFORM dblink_send_query(c, format($q$
		INSERT INTO k SELECT uuid_striped_nextval(), ou_test_proc_number()
		FROM (SELECT pg_advisory_xact_lock_shared(7401)) AS l, generate_series(1, 3000000)$q$))
	FROM unnest(ARRAY['h', 's']) AS c;
	FOR i IN 1 .. 3000 LOOP
		PERFORM pg_stat_clear_snapshot();
		EXIT WHEN (SELECT count(*) FROM pg_locks
				   WHERE locktype = 'advisory' AND objid = 7401 AND NOT granted) >= 2;
		PERFORM pg_sleep(0.01);
	END LOOP;
	PERFORM pg_advisory_unlock(7401);
	PERFORM * FROM dblink_get_result('h') AS t(r text);
	PERFORM * FROM dblink_get_result('s') AS t(r text);
	PERFORM dblink_disconnect('h'), dblink_disconnect('s');
	RETURN true;
END
$$;
SELECT pg_temp.keys_in_turn(:'conn') AS placed \gset
\else
-- This session, the highest client number, leads a parallel query with one
-- worker (the first, 4,096 above it) over 6,000,000 rows: both make a key
-- for each row they read, at the same moment.
CREATE UNLOGGED TABLE src AS SELECT g FROM generate_series(1, 6000000) AS g;
ALTER TABLE src SET (parallel_workers = 1);
ANALYZE src;
SELECT ou_test_proc_number() AS me \gset
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET max_parallel_workers_per_gather = 1;
CREATE UNLOGGED TABLE made AS
	SELECT uuid_striped_nextval() AS u, ou_test_proc_number() AS p
	FROM src;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET max_parallel_workers_per_gather;
SELECT EXISTS (SELECT FROM made WHERE p = :me + 4096) AS placed \gset
INSERT INTO k SELECT * FROM made;
DROP TABLE made, src;
\endif
SELECT :'placed' AS placed;

-- Two processes, 4,096 apart, each with keys, made at the same time (the
-- clocks of their lowest and highest keys overlap); their stripes are their
-- process numbers, which share the low 12 bits.  How many keys each makes
-- is not asserted: on 14 and 15 the leader also writes every row into the
-- table and makes a key only when its worker's queue is empty, so its share
-- depends on the machine's load (one run of 14 left it under half a
-- million keys, one of 15 under 50,000).  The million keys together, made
-- over the same moments, are what the check below needs.
SELECT count(*) AS processes,
	   max(p) - min(p) AS apart,
	   min(n) > 0 AS each_made_keys,
	   max((pg_temp.fields(lowest)).clock_us) < min((pg_temp.fields(highest)).clock_us) AS made_at_the_same_time,
	   bool_and((pg_temp.fields(lowest)).stripe = p AND (pg_temp.fields(highest)).stripe = p) AS stripe_is_the_process_number
FROM (SELECT p, count(*) AS n, min(u::text COLLATE "C")::uuid AS lowest,
			 max(u::text COLLATE "C")::uuid AS highest
	  FROM k GROUP BY p) AS per_process;
-- No two keys share all but their random bits.
SELECT count(*) AS keys, count(*) - count(DISTINCT pg_temp.all_but_random(u)) AS sharing_all_but_random_bits
FROM k \gset
SELECT :keys >= 1000000 AS a_million_keys_or_more, :sharing_all_but_random_bits AS sharing_all_but_random_bits;

DROP TABLE k;
DROP FUNCTION ou_test_proc_number();
