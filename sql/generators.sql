--
-- Generators: block layout, wrap-around, version/variant bits, monotonicity,
-- errors and privileges.  Nothing random is printed: only prefixes that the
-- inputs determine, counts and booleans.
--
SET timezone = 'UTC';

\i sql/include/block_layout.sql
-- The expected block prefix (hex) for value v.
CREATE FUNCTION pg_temp.expected_prefix(v numeric, block_size int, block_count int)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT lpad(to_hex(pg_temp.expected_block(v, block_size, block_count)::bigint),
				2 * pg_temp.prefix_bytes(block_count), '0')
$$;

\i sql/include/err.sql

CREATE SEQUENCE gen_seq;

-- The generated prefix for sequence value v (nextval returns v, the layout
-- uses v - 1), as hex of the prefix bytes.
CREATE FUNCTION pg_temp.seq_prefix(v bigint, block_size int, block_count int)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	u uuid;
	nbytes int := CASE WHEN block_count <= 256 THEN 1 WHEN block_count <= 65536 THEN 2
					   WHEN block_count <= 16777216 THEN 3 ELSE 4 END;
BEGIN
	PERFORM setval('gen_seq', v, false);
	u := uuid_sequence_nextval('gen_seq', block_size, block_count);
	RETURN substr(replace(u::text, '-', ''), 1, 2 * nbytes);
END $$;

-- Layout against the independent formula, over block sizes and counts from 1
-- to the int maximum (including counts above 2^30 and 2^24) and sequence
-- values from the start to the top of bigint.
ALTER SEQUENCE gen_seq MAXVALUE 9223372036854775807;
SELECT bs, bc, v, pg_temp.seq_prefix(v, bs, bc) AS prefix,
	   pg_temp.seq_prefix(v, bs, bc) = pg_temp.expected_prefix(v - 1, bs, bc) AS ok
FROM (VALUES (65536), (1), (1000), (7), (2147483647)) AS s(bs),
	 (VALUES (65536), (1), (256), (257), (1000), (16777217), (1073741825), (2147483647)) AS c(bc),
	 (VALUES (1::bigint), (2), (65537), (123456789012), (9223372036854775807)) AS x(v)
WHERE pg_temp.seq_prefix(v, bs, bc) <> pg_temp.expected_prefix(v - 1, bs, bc)
   OR (bs, bc) IN ((65536, 65536), (1, 1073741825), (2147483647, 2147483647))
ORDER BY bs, bc, v;

-- Wrap-around: with 2 values per block and 256 blocks, values 1..1024 walk
-- the 256 blocks twice; uuid_block_id reads the prefix back.
SELECT setval('gen_seq', 1, false);
SELECT count(*) AS values, count(DISTINCT blk) AS blocks,
	   bool_and(blk = ((n - 1) / 2) % 256) AS block_is_v_div_2_mod_256,
	   count(*) FILTER (WHERE blk = 0) AS in_block_0
FROM (SELECT n, uuid_block_id(uuid_sequence_nextval('gen_seq', 2, 256), 256) AS blk
	  FROM generate_series(1, 1024) AS n) AS s;

-- Effective block size: 1000 blocks need a 2-byte prefix (65536 blocks), so
-- a block holds 65536 * 1000 / 65536 = 1000 values and the cycle is still
-- block_size * block_count values long.
SELECT v, pg_temp.seq_prefix(v, 65536, 1000) AS prefix
FROM (VALUES (1::bigint), (1000), (1001), (2001), (65536000), (65536001)) AS x(v);

-- Version 4 and the RFC variant on every block-prefixed value; version 7 and
-- the variant on every v7 value.
SELECT count(*) FILTER (WHERE substr(u::text, 15, 1) <> '4' OR substr(u::text, 20, 1) NOT IN ('8', '9', 'a', 'b')) AS bad_seq
FROM (SELECT uuid_sequence_nextval('gen_seq', 1, 2147483647) AS u FROM generate_series(1, 10000)) AS s;
SELECT count(*) FILTER (WHERE substr(u::text, 15, 1) <> '4' OR substr(u::text, 20, 1) NOT IN ('8', '9', 'a', 'b')) AS bad_time
FROM (SELECT uuid_time_nextval(1, 1) AS u FROM generate_series(1, 10000)) AS s;
SELECT count(*) FILTER (WHERE substr(u::text, 15, 1) <> '7' OR substr(u::text, 20, 1) NOT IN ('8', '9', 'a', 'b')) AS bad_v7
FROM (SELECT uuid_v7_nextval() AS u FROM generate_series(1, 10000)) AS s;

-- The random part is random: no duplicates among values sharing one prefix.
SELECT count(DISTINCT u) = 100000 AS all_distinct, count(DISTINCT substr(u::text, 1, 4)) AS prefixes
FROM (SELECT uuid_sequence_nextval('gen_seq', 1000000, 65536) AS u FROM generate_series(1, 100000)) AS s;

-- The time generator's prefix is the current Unix time / interval_length.
SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS t0 \gset
SELECT uuid_time_nextval() AS u1, uuid_time_nextval(1, 2147483647) AS u2 \gset
SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS t1 \gset
SELECT substr(replace(:'u1', '-', ''), 1, 4) IN (pg_temp.expected_prefix(:t0, 60, 65536), pg_temp.expected_prefix(:t1, 60, 65536)) AS time_prefix_ok,
	   substr(replace(:'u2', '-', ''), 1, 8) IN (pg_temp.expected_prefix(:t0, 1, 2147483647), pg_temp.expected_prefix(:t1, 1, 2147483647)) AS time_prefix_4byte_ok;

-- uuid_v7_nextval is strictly increasing.  200,000 values take less real time
-- than 200,000 minimum clock steps, so the generator runs ahead of the wall
-- clock and every later value is made with the clock "behind" the last one.
SELECT count(*) AS values, count(*) FILTER (WHERE u <= prev) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev
	  FROM (SELECT n, uuid_v7_nextval() AS u FROM generate_series(1, 200000) AS n) AS g) AS s;

-- uuid_v7_time: a fixed value, a round trip, and NULL for other versions.
SELECT uuid_v7_time('018cc251-f400-7000-8000-000000000000') AS v7_2024,
	   uuid_v7_time('018cc251-f400-7abc-bfff-ffffffffffff') AS v7_2024_max_random,
	   uuid_v7_time('00000000-0000-7000-8000-000000000000') AS v7_epoch,
	   uuid_v7_time('018cc251-f400-4000-8000-000000000000') IS NULL AS v4_is_null,
	   uuid_v7_time('018cc251-f400-7000-c000-000000000000') IS NULL AS other_variant_is_null,
	   uuid_v7_time(NULL) IS NULL AS null_is_null;
SELECT clock_timestamp() AS before \gset
SELECT uuid_v7_nextval() AS v7 \gset
SELECT uuid_v7_time(:'v7') >= date_trunc('milliseconds', :'before'::timestamptz)
   AND uuid_v7_time(:'v7') < clock_timestamp() + interval '1 second' AS round_trip_ok;

-- uuid_version: the version nibble of RFC-variant UUIDs, NULL otherwise,
-- checked against the bytes themselves over generated and arbitrary values,
-- and against core's uuid_extract_version where it exists (17+).
CREATE TEMP TABLE gen_versions AS
SELECT u FROM (
	SELECT gen_random_uuid() FROM generate_series(1, 500)
	UNION ALL SELECT uuid_v7_nextval() FROM generate_series(1, 500)
	UNION ALL SELECT uuid_striped_nextval() FROM generate_series(1, 500)
	UNION ALL SELECT uuid_time_nextval() FROM generate_series(1, 500)
	UNION ALL SELECT md5(g::text)::uuid FROM generate_series(1, 2000) g
	UNION ALL VALUES ('00000000-0000-0000-0000-000000000000'::uuid),
					 ('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)) v(u);
SELECT count(*) AS values_checked,
	   bool_and(uuid_version(u) IS NOT DISTINCT FROM
				CASE WHEN (get_byte(uuid_send(u), 8) & 192) = 128
					 THEN (get_byte(uuid_send(u), 6) >> 4)::smallint END) AS matches_bytes,
	   count(*) FILTER (WHERE uuid_version(u) IS NULL) > 0 AS some_other_variants
  FROM gen_versions;
SELECT uuid_version(gen_random_uuid()) AS v4, uuid_version(uuid_v7_nextval()) AS v7,
	   uuid_version(uuid_striped_nextval()) AS v8,
	   uuid_version('00000000-0000-0000-0000-000000000000') IS NULL AS nil_is_null;
DO $$
BEGIN
	IF current_setting('server_version_num')::int >= 170000 THEN
		-- planned only here: uuid_extract_version does not exist before 17
		IF EXISTS (SELECT 1 FROM gen_versions
					WHERE uuid_version(u) IS DISTINCT FROM uuid_extract_version(u)) THEN
			RAISE EXCEPTION 'uuid_version and uuid_extract_version disagree';
		END IF;
	END IF;
END $$;
DROP TABLE gen_versions;

-- uuid_block_id
SELECT uuid_block_id('12345678-0000-4000-8000-000000000000') AS two_bytes,
	   uuid_block_id('12345678-0000-4000-8000-000000000000', 256) AS one_byte,
	   uuid_block_id('12345678-0000-4000-8000-000000000000', 16777216) AS three_bytes,
	   uuid_block_id('12345678-0000-4000-8000-000000000000', 16777217) AS four_bytes,
	   uuid_block_id(NULL) IS NULL AS strict;

-- Errors, with their SQLSTATEs.
CREATE TABLE gen_not_a_seq (i int);
CREATE SEQUENCE gen_small MAXVALUE 2;
SELECT stmt, pg_temp.err(stmt) FROM (VALUES
	('SELECT uuid_sequence_nextval(''gen_seq'', 0)'),
	('SELECT uuid_sequence_nextval(''gen_seq'', -1)'),
	('SELECT uuid_sequence_nextval(''gen_seq'', 1, 0)'),
	('SELECT uuid_sequence_nextval(''gen_seq'', -2147483648, -2147483648)'),
	('SELECT uuid_sequence_nextval(NULL)'),
	('SELECT uuid_sequence_nextval(''gen_seq'', NULL)'),
	('SELECT uuid_sequence_nextval(''gen_seq'', 1, NULL)'),
	('SELECT uuid_sequence_nextval(''gen_no_such_seq'')'),
	('SELECT uuid_sequence_nextval(0)'),
	('SELECT uuid_sequence_nextval(''gen_small'') FROM generate_series(1, 3)'),
	('SELECT uuid_time_nextval(0)'),
	('SELECT uuid_time_nextval(60, -5)'),
	('SELECT uuid_time_nextval(NULL)'),
	('SELECT uuid_time_nextval(60, NULL)'),
	('SELECT uuid_block_id(gen_random_uuid(), 0)'),
	('SELECT uuid_block_id(''ffffffff-0000-4000-8000-000000000000'', 2147483647)'),
	('SELECT uuid_block_id(''7fffffff-0000-4000-8000-000000000000'', 2147483647)')
) AS t(stmt);

-- A table is not a sequence: nextval's own error (its wording varies by version).
SELECT left(pg_temp.err('SELECT uuid_sequence_nextval(''gen_not_a_seq'')'), 6) AS not_a_sequence;

-- Privileges: nextval's own rules apply to the sequence generator.
CREATE ROLE regress_ou_gen_user;
GRANT USAGE ON SCHEMA public TO regress_ou_gen_user;
CREATE SEQUENCE gen_private_seq;
SET ROLE regress_ou_gen_user;
SELECT pg_temp.err('SELECT uuid_sequence_nextval(''gen_private_seq'')') AS without_usage;
SELECT uuid_v7_time(uuid_v7_nextval()) IS NOT NULL AS v7_for_anyone,
	   uuid_time_nextval() IS NOT NULL AS time_for_anyone;
RESET ROLE;
GRANT USAGE ON SEQUENCE gen_private_seq TO regress_ou_gen_user;
SET ROLE regress_ou_gen_user;
SELECT uuid_block_id(uuid_sequence_nextval('gen_private_seq')) AS with_usage;
RESET ROLE;
REVOKE ALL ON SEQUENCE gen_private_seq FROM regress_ou_gen_user;
REVOKE ALL ON SCHEMA public FROM regress_ou_gen_user;
DROP ROLE regress_ou_gen_user;

-- As primary-key defaults: values follow insertion order (v7 and sequence),
-- and the sequence generator's rows share one block.
CREATE SEQUENCE gen_pk_seq;
CREATE TABLE gen_pk_v7 (id uuid PRIMARY KEY DEFAULT uuid_v7_nextval(), n int);
CREATE TABLE gen_pk_seq_t (id uuid PRIMARY KEY DEFAULT uuid_sequence_nextval('gen_pk_seq'), n int);
CREATE TABLE gen_pk_time (id uuid PRIMARY KEY DEFAULT uuid_time_nextval(), n int);
INSERT INTO gen_pk_v7 (n) SELECT generate_series(1, 5000);
INSERT INTO gen_pk_seq_t (n) SELECT generate_series(1, 5000);
INSERT INTO gen_pk_time (n) SELECT generate_series(1, 5000);
SELECT (SELECT count(*) FROM gen_pk_v7) AS v7_rows,
	   (SELECT bool_and(r1 = r2) FROM (SELECT row_number() OVER (ORDER BY id) r1, row_number() OVER (ORDER BY n) r2 FROM gen_pk_v7) s) AS v7_in_insert_order,
	   (SELECT count(DISTINCT uuid_block_id(id)) FROM gen_pk_seq_t) AS seq_blocks,
	   (SELECT count(DISTINCT uuid_block_id(id)) <= 2 FROM gen_pk_time) AS time_blocks_at_most_2;

DROP TABLE gen_pk_v7, gen_pk_seq_t, gen_pk_time, gen_not_a_seq;
DROP SEQUENCE gen_seq, gen_small, gen_private_seq, gen_pk_seq;
