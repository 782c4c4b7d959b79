--
-- Keys of successive sessions on one PGPROC number.  This server allows two
-- connections (sql/generators_striped_reuse.conf): this session and one
-- dblink session, so each new dblink session takes the PGPROC that the
-- previous one left, as soon as that one has exited.
--
-- uuid_striped_nextval: a session making front keys faster than one a
-- microsecond runs ahead of the wall clock.  Session a does so (3,000,000
-- keys in a C loop, the test module's ou_test_uuid_burst), ends, and session
-- b takes its PGPROC number, hence its stripe, and makes 3,000,000 keys too.
-- No key of b may share block, stripe, slot and pass with a key of a: every
-- key of b must sort after a's highest, i.e. b's clock starts after a's last
-- one.  A session ahead of the wall clock keeps its PGPROC until the clock
-- has caught up.
--
-- uuid_v7_nextval and the block-prefixed generators keep no per-session
-- layout: keys of two sessions can share every bit but the random ones (62
-- and at least 90 of them), which is what they are for.
--
-- With the library preloaded, the right edge of the striped keys lives in
-- the main shared memory on every version: a session alone at it makes no
-- fill keys.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS dblink;
RESET client_min_messages;
\i sql/include/striped_fields.sql

CREATE FUNCTION ou_test_uuid_burst(fn regprocedure, n bigint, args int[], upto uuid,
								   OUT lowest uuid, OUT highest uuid, OUT at_or_below bigint)
	AS 'ordered_uuid_test', 'ou_test_uuid_burst' LANGUAGE C;

SELECT format('dbname=%s user=%s host=%s port=%s', current_database(), current_user,
			  current_setting('unix_socket_directories'), current_setting('port')) AS conn \gset

-- Connect, retrying while the one free connection slot is still held by a
-- session that is ending (at most 30 s).
CREATE FUNCTION pg_temp.connect(name text, conn text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1 .. 3000 LOOP
		BEGIN
			RETURN dblink_connect(name, conn);
		EXCEPTION WHEN sqlclient_unable_to_establish_sqlconnection THEN
			PERFORM pg_sleep(0.01);
		END;
	END LOOP;
	RAISE EXCEPTION 'no connection slot came free in 30 s';
END
$$;

-- Session a: a burst ahead of the wall clock.
SELECT pg_temp.connect('a', :'conn');
CREATE TEMP TABLE a AS
SELECT * FROM dblink('a', $$
	SELECT b.lowest, b.highest, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint
	FROM ou_test_uuid_burst('uuid_striped_nextval(int)', 3000000, '{3600}', NULL) AS b$$)
	AS t(lowest uuid, highest uuid, done_us bigint);
SELECT dblink_disconnect('a');

-- Session b, on a's PGPROC number: how many of its keys sort at or below a's
-- highest key.
SELECT pg_temp.connect('b', :'conn');
CREATE TEMP TABLE b AS
SELECT * FROM dblink('b', format($$
	SELECT b.lowest, b.highest, b.at_or_below
	FROM ou_test_uuid_burst('uuid_striped_nextval(int)', 3000000, '{3600}', %L) AS b$$,
	(SELECT highest FROM a)))
	AS t(lowest uuid, highest uuid, at_or_below bigint);
SELECT dblink_disconnect('b');

SELECT (pg_temp.fields(a.highest)).clock_us > a.done_us AS a_ran_ahead_of_the_wall_clock,
	   (pg_temp.fields(a.lowest)).stripe = (pg_temp.fields(b.lowest)).stripe AS same_stripe,
	   (pg_temp.fields(a.highest)).stripe = (pg_temp.fields(b.highest)).stripe AS one_stripe_each,
	   b.at_or_below AS b_keys_at_or_below_a_highest,
	   b.lowest > a.highest AS b_sorts_after_a
FROM a, b;

-- uuid_v7_nextval and uuid_sequence_nextval: two successive sessions on one
-- PGPROC number make 100,000 keys each that share every non-random bit
-- (the same timestamp; the same block).  The random bits keep all 200,000
-- apart.
CREATE SEQUENCE s;
CREATE TEMP TABLE shared_bits (session text, generator text, u uuid);
CREATE FUNCTION pg_temp.shared_bits(session text, conn text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_temp.connect(session, conn);
	INSERT INTO shared_bits
	SELECT session, g, u FROM dblink(session, $q$
		SELECT 'v7', uuid_v7_from_time('2026-01-01 00:00:00+00') FROM generate_series(1, 100000)
		UNION ALL
		SELECT 'sequence', uuid_sequence_nextval('s', 1000000) FROM generate_series(1, 100000)$q$)
		AS t(g text, u uuid);
	PERFORM dblink_disconnect(session);
END
$$;
SELECT pg_temp.shared_bits('a', :'conn');
SELECT pg_temp.shared_bits('b', :'conn');
-- the bits that are not random: v7's first 64 bits and variant (the random
-- ones being the last 62); the sequence key's block prefix (2 bytes),
-- version and variant
SELECT generator,
	   count(*) AS keys,
	   count(DISTINCT CASE generator WHEN 'v7' THEN substr(u::text, 1, 19)
									 ELSE substr(u::text, 1, 4) || substr(u::text, 15, 1) END) AS distinct_fixed_parts,
	   count(DISTINCT u) AS distinct_keys,
	   count(DISTINCT session) AS sessions
FROM shared_bits GROUP BY generator ORDER BY generator;

-- A session alone at the right edge (the edge reset to 0 first, so the next
-- session to make a key takes it): no fill keys, its index 89 % full or more.
CREATE FUNCTION ou_test_striped_edge(bigint) RETURNS bigint
	AS 'ordered_uuid_test', 'ou_test_striped_edge' LANGUAGE C STRICT;
SELECT ou_test_striped_edge(0) IS NOT NULL AS edge_shared;
CREATE TABLE alone (id uuid PRIMARY KEY DEFAULT uuid_striped_nextval(), n int);
SELECT pg_temp.connect('a', :'conn');
SELECT * FROM dblink('a', 'INSERT INTO alone (n) SELECT g FROM generate_series(1, 100000) AS g') AS t(r text);
SELECT dblink_disconnect('a');
SELECT count(*) AS keys,
	   count(*) FILTER (WHERE (pg_temp.fields(id)).pass = 1) AS fill_keys,
	   (SELECT avg_leaf_density >= 89 FROM index_shape('alone_pkey')) AS density_at_least_89
FROM alone;

DROP TABLE alone;

-- The edge belongs to one interval_length: this session makes a key of
-- 1-second blocks, whose block is newer than every 1-hour block, and a lone
-- session of the default interval is still at its edge: no fill keys.
-- (Before 1.2.2 one edge served every interval: that session filled.)
SELECT ou_test_striped_edge(0) IS NOT NULL AS edge_shared;
SELECT (pg_temp.fields(uuid_striped_nextval(1))).version AS one_second_block_key;
CREATE TABLE alone (id uuid PRIMARY KEY DEFAULT uuid_striped_nextval(), n int);
SELECT pg_temp.connect('a', :'conn');
SELECT * FROM dblink('a', 'INSERT INTO alone (n) SELECT g FROM generate_series(1, 100000) AS g') AS t(r text);
SELECT dblink_disconnect('a');
SELECT count(*) AS keys,
	   count(*) FILTER (WHERE (pg_temp.fields(id)).pass = 1) AS fill_keys
FROM alone;
DROP TABLE alone;
DROP SEQUENCE s;
DROP FUNCTION ou_test_uuid_burst(regprocedure, bigint, int[], uuid);
DROP FUNCTION ou_test_striped_edge(bigint);
