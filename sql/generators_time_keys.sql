--
-- Time-addressed keys: the version 7 bounds of a time (uuid_v7_min/max),
-- keys of a given time (uuid_v7_from_time, uuid_v7_nextval(shift)), the block
-- ids and block ranges of uuid_time_nextval, and the bounds of a block.
-- Checked against independent arithmetic on the UUID text, against
-- PostgreSQL 18's uuidv7() where the server has it, and in plans: partition
-- pruning and index scans by time.  Nothing random is printed.
--
SET timezone = 'UTC';

\i sql/include/err.sql

-- The timestamptz of us microseconds after the Unix epoch, exactly (days and
-- microseconds are added separately so no float rounding creeps in).
CREATE FUNCTION pg_temp.ts_of(us bigint) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
	SELECT timestamptz '1970-01-01 00:00:00+00' + div(us, 86400000000)::int * interval '1 day'
		   + mod(us, 86400000000) * interval '1 microsecond'
$$;

-- The expected text of a version 7 UUID of Unix millisecond ms, with the
-- given tail (the 20 hex digits after the time), independent of the C code.
CREATE FUNCTION pg_temp.v7_text(ms bigint, tail text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(tail, 1, 4) || '-'
		   || substr(tail, 5, 4) || '-' || substr(tail, 9, 12)
	FROM (SELECT lpad(to_hex(ms), 12, '0') AS h) s
$$;

-- Test times, in Unix microseconds: the ends of the range, both sides of
-- millisecond boundaries, and 5000 times spread over the whole 48-bit range.
CREATE TEMP TABLE tk_times AS
SELECT us FROM (VALUES (0::bigint), (1), (999), (1000), (1001), (1999), (2000),
					   (1704067199999999), (1704067200000000), (1704067200000001),
					   (281474976710654999), (281474976710655000), (281474976710655999)) AS v(us)
UNION
SELECT mod(g * 77777777777777, 281474976710656000) + mod(g, 1000) FROM generate_series(1, 5000) AS g;

-- Sanity of the helper itself: the timestamps are the intended microseconds.
SELECT count(*) AS times, count(*) FILTER (WHERE extract(epoch FROM pg_temp.ts_of(us)) * 1000000 <> us) AS helper_wrong
FROM tk_times;

-- uuid_v7_min/max: exactly the expected text (all bits zero / one besides
-- the time, version and variant), they round-trip through uuid_v7_time to the
-- millisecond, and the neighbouring milliseconds are strictly outside.
SELECT count(*) FILTER (WHERE uuid_v7_min(t)::text <> pg_temp.v7_text(us / 1000, '70008000000000000000')) AS min_wrong,
	   count(*) FILTER (WHERE uuid_v7_max(t)::text <> pg_temp.v7_text(us / 1000, '7fffbfffffffffffffff')) AS max_wrong,
	   count(*) FILTER (WHERE uuid_v7_time(uuid_v7_min(t)) <> pg_temp.ts_of(us / 1000 * 1000)
						   OR uuid_v7_time(uuid_v7_max(t)) <> pg_temp.ts_of(us / 1000 * 1000)) AS round_trip_wrong,
	   count(*) FILTER (WHERE us >= 1000 AND NOT uuid_v7_max(pg_temp.ts_of(us / 1000 * 1000 - 1)) < uuid_v7_min(t)) AS previous_ms_not_below,
	   count(*) FILTER (WHERE us < 281474976710655000 AND NOT uuid_v7_max(t) < uuid_v7_min(pg_temp.ts_of(us / 1000 * 1000 + 1000))) AS next_ms_not_above,
	   count(*) FILTER (WHERE uuid_v7_min(t) <> uuid_v7_min(pg_temp.ts_of(us / 1000 * 1000 + 999))) AS min_differs_within_ms
FROM (SELECT us, pg_temp.ts_of(us) AS t FROM tk_times) AS s;

-- Fixed values (these are deterministic, not random).
SELECT uuid_v7_min('2024-01-01 00:00:00+00') = '018cc251-f400-7000-8000-000000000000' AS min_2024,
	   uuid_v7_max('2024-01-01 00:00:00.000999+00') = '018cc251-f400-7fff-bfff-ffffffffffff' AS max_2024,
	   uuid_v7_min('1970-01-01 00:00:00+00') = '00000000-0000-7000-8000-000000000000' AS min_epoch,
	   uuid_v7_max('10889-08-02 05:31:50.655999+00') = 'ffffffff-ffff-7fff-bfff-ffffffffffff' AS max_last_ms,
	   uuid_v7_min('2024-01-01 01:00:00+01') = uuid_v7_min('2024-01-01 00:00:00+00') AS an_instant_not_a_wall_time,
	   uuid_v7_min(NULL) IS NULL AND uuid_v7_max(NULL) IS NULL AS strict;

-- uuid_v7_from_time: the millisecond, the microseconds as the 12-bit
-- fraction (floor(us * 4096 / 1000)), version and variant, between the
-- bounds, and random otherwise.
SELECT count(*) FILTER (WHERE substr(u::text, 1, 13) <> substr(pg_temp.v7_text(us / 1000, '70008000000000000000'), 1, 13)) AS ms_wrong,
	   count(*) FILTER (WHERE substr(u::text, 15, 4) <> '7' || lpad(to_hex((us % 1000 * 4096 / 1000)::int), 3, '0')) AS fraction_wrong,
	   count(*) FILTER (WHERE substr(u::text, 20, 1) NOT IN ('8', '9', 'a', 'b')) AS variant_wrong,
	   count(*) FILTER (WHERE u < uuid_v7_min(t) OR u > uuid_v7_max(t)) AS outside_bounds,
	   count(DISTINCT substr(u::text, 20)) = count(*) AS random_tails_distinct
FROM (SELECT us, t, uuid_v7_from_time(t) AS u FROM (SELECT us, pg_temp.ts_of(us) AS t FROM tk_times) AS s) AS s;

-- Keys made for microseconds in one millisecond sort by the microseconds.
SELECT count(*) FILTER (WHERE NOT u > prev) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY us) AS prev
	  FROM (SELECT us, uuid_v7_from_time(pg_temp.ts_of(1704067200000000 + us)) AS u
			FROM generate_series(0, 999, 3) AS us) AS g) AS s;

-- Against PostgreSQL 18's own version 7 UUIDs where the server has them (the
-- check answers true elsewhere): uuid_extract_timestamp reads our bounds as
-- their millisecond, and our bounds bracket every core uuidv7() of a
-- millisecond, strictly excluding the neighbouring milliseconds.
CREATE FUNCTION pg_temp.core_agrees() RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	bad bigint;
BEGIN
	IF current_setting('server_version_num')::int < 180000 THEN
		RETURN true;
	END IF;
	EXECUTE $q$
		SELECT count(*) FILTER (WHERE uuid_extract_timestamp(uuid_v7_min(pg_temp.ts_of(us))) <> pg_temp.ts_of(us / 1000 * 1000)
								   OR uuid_extract_timestamp(uuid_v7_max(pg_temp.ts_of(us))) <> pg_temp.ts_of(us / 1000 * 1000))
		FROM tk_times $q$ INTO bad;
	IF bad <> 0 THEN
		RETURN false;
	END IF;
	EXECUTE $q$
		SELECT count(*) FILTER (WHERE NOT (u BETWEEN uuid_v7_min(t) AND uuid_v7_max(t))
								   OR NOT u > uuid_v7_max(t - interval '1 millisecond')
								   OR NOT u < uuid_v7_min(t + interval '1 millisecond')
								   OR uuid_v7_time(u) <> t)
		FROM (SELECT u, uuid_extract_timestamp(u) AS t
			  FROM (SELECT uuidv7() AS u FROM generate_series(1, 20000)) AS g) AS s $q$ INTO bad;
	RETURN bad = 0;
END $$;
SELECT pg_temp.core_agrees() AS core_agrees;

-- uuid_v7_nextval(shift): the current time moved by shift, in calendar
-- arithmetic, to the millisecond.  The clock never runs behind the wall
-- clock, and runs ahead of it only by the time 245 ns steps take.
SELECT clock_timestamp() AS t0 \gset
SELECT uuid_v7_nextval(interval '-1 day') AS day_back, uuid_v7_nextval(interval '1 month') AS month_ahead,
	   uuid_v7_nextval(interval '-10 years 3 hours') AS years_back, uuid_v7_nextval(interval '8000 years') AS far_ahead,
	   uuid_v7_nextval(interval '0') AS unshifted \gset
SELECT clock_timestamp() AS t1 \gset
SELECT uuid_v7_time(:'day_back') BETWEEN date_trunc('milliseconds', :'t0'::timestamptz - interval '1 day')
									 AND :'t1'::timestamptz - interval '1 day' + interval '1 second' AS day_back_ok,
	   uuid_v7_time(:'month_ahead') BETWEEN date_trunc('milliseconds', :'t0'::timestamptz + interval '1 month')
										AND :'t1'::timestamptz + interval '1 month' + interval '1 second' AS month_ahead_ok,
	   uuid_v7_time(:'years_back') BETWEEN date_trunc('milliseconds', :'t0'::timestamptz + interval '-10 years 3 hours')
									   AND :'t1'::timestamptz + interval '-10 years 3 hours' + interval '1 second' AS years_back_ok,
	   uuid_v7_time(:'far_ahead') BETWEEN date_trunc('milliseconds', :'t0'::timestamptz + interval '8000 years')
									  AND :'t1'::timestamptz + interval '8000 years' + interval '1 second' AS far_ahead_ok,
	   uuid_v7_time(:'unshifted') BETWEEN date_trunc('milliseconds', :'t0'::timestamptz)
									  AND :'t1'::timestamptz + interval '1 second' AS unshifted_ok,
	   substr(:'far_ahead', 15, 1) = '7' AND substr(:'far_ahead', 20, 1) IN ('8', '9', 'a', 'b') AS far_ahead_version_variant;

-- Both forms read one per-session clock, as core's two uuidv7() do: values
-- made alternately with and without a zero shift form one strictly
-- increasing sequence.  (Two clocks would each give the same reading to both
-- calls of a row, leaving their order to the random bits.)
SELECT count(*) AS pairs,
	   count(*) FILTER (WHERE NOT a < b) AS shifted_not_after_plain,
	   count(*) FILTER (WHERE NOT b < next_a) AS plain_not_after_shifted
FROM (SELECT a, b, lead(a) OVER (ORDER BY n) AS next_a
	  FROM (SELECT n, uuid_v7_nextval() AS a, uuid_v7_nextval(interval '0') AS b
			FROM generate_series(1, 100000) AS n) AS g) AS s;

-- Values made with one shift increase within a session.
SELECT count(*) FILTER (WHERE NOT u > prev) AS shifted_not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev
	  FROM (SELECT n, uuid_v7_nextval(interval '-1 hour') AS u FROM generate_series(1, 100000) AS n) AS g) AS s;

-- Where core has uuidv7(shift), ours lands on the same time (to a second).
CREATE FUNCTION pg_temp.core_shift_agrees() RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	ok boolean;
BEGIN
	IF current_setting('server_version_num')::int < 180000 THEN
		RETURN true;
	END IF;
	EXECUTE $q$
		SELECT bool_and(abs(extract(epoch FROM uuid_v7_time(uuid_v7_nextval(s)) - uuid_extract_timestamp(uuidv7(s)))) < 1)
		FROM (VALUES (interval '-1 day'), (interval '1 month'), (interval '-50 years'), (interval '8000 years')) AS v(s) $q$
		INTO ok;
	RETURN ok;
END $$;
SELECT pg_temp.core_shift_agrees() AS core_shift_agrees;

-- The zero-argument form and the defaults that use it are unchanged.
CREATE TABLE tk_default (id uuid PRIMARY KEY DEFAULT uuid_v7_nextval(), n int);
INSERT INTO tk_default (n) SELECT generate_series(1, 100);
SELECT count(*) AS rows, bool_and(uuid_v7_time(id) IS NOT NULL) AS all_v7 FROM tk_default;
SELECT pg_get_expr(d.adbin, d.adrelid) AS column_default
FROM pg_attrdef d WHERE d.adrelid = 'tk_default'::regclass;
DROP TABLE tk_default;

-- Range errors, with their SQLSTATEs: one microsecond outside the range on
-- either side, the infinities, shifts that leave the range.
SELECT stmt, pg_temp.err(stmt) FROM (VALUES
	('SELECT uuid_v7_min(''1969-12-31 23:59:59.999999+00'')'),
	('SELECT uuid_v7_max(''10889-08-02 05:31:50.656+00'')'),
	('SELECT uuid_v7_min(''infinity'')'),
	('SELECT uuid_v7_max(''-infinity'')'),
	('SELECT uuid_v7_from_time(''1969-12-31 23:59:59.999999+00'')'),
	('SELECT uuid_v7_from_time(''10889-08-02 05:31:50.656+00'')'),
	('SELECT uuid_v7_from_time(NULL)'),
	('SELECT uuid_v7_nextval(interval ''-1000 years'')'),
	('SELECT uuid_v7_nextval(interval ''9000 years'')'),
	('SELECT uuid_v7_nextval(interval ''300000 years'')'),
	('SELECT uuid_v7_nextval(NULL)')
) AS t(stmt);
-- and the ends themselves are valid
SELECT pg_temp.err('SELECT uuid_v7_from_time(''1970-01-01 00:00:00+00'')') AS first_us,
	   pg_temp.err('SELECT uuid_v7_from_time(''10889-08-02 05:31:50.655999+00'')') AS last_us;

-- Infinite intervals exist from PostgreSQL 17 on; they are errors (22008).
SELECT current_setting('server_version_num')::int < 170000
	   OR (pg_temp.err('SELECT uuid_v7_nextval(''infinity''::interval)') LIKE '22008: interval out of range for UUID version 7'
		   AND pg_temp.err('SELECT uuid_v7_nextval(''-infinity''::interval)') LIKE '22008: interval out of range for UUID version 7')
	   AS infinite_shift_rejected;

--
-- Block-prefixed time keys.
--

-- The layout, stated independently: pg_temp.expected_block().
\i sql/include/block_layout.sql

CREATE TEMP TABLE tk_layouts AS
SELECT * FROM (VALUES (60, 65536), (1, 256), (3600, 24), (60, 1000), (1, 16777216), (7, 2147483647),
					  (2147483647, 2147483647), (86400, 65536)) AS l(len, cnt);

-- uuid_time_block_id against the formula, for times on both sides of second
-- boundaries (rounding down to the second), over wrap-arounds.
SELECT len, cnt, count(*) AS times,
	   count(*) FILTER (WHERE uuid_time_block_id(pg_temp.ts_of(us), len, cnt)
							  <> pg_temp.expected_block(div(us, 1000000), len, cnt)) AS wrong
FROM tk_layouts,
	 (SELECT us FROM tk_times WHERE us < 2000000000000000
	  UNION SELECT s * 1000000 + d FROM generate_series(0::bigint, 600000, 997) AS s, (VALUES (-1), (0), (1)) AS v(d)
	  WHERE s * 1000000 + d >= 0) AS t
GROUP BY len, cnt ORDER BY len, cnt;

-- Wrap-around: with 1-second blocks and 256 of them, second 256 is block 0
-- again, and second 255 of the first cycle is block 255.
SELECT uuid_time_block_id('1970-01-01 00:04:16+00', 1, 256) AS s256,
	   uuid_time_block_id('1970-01-01 00:04:15.999999+00', 1, 256) AS s255,
	   uuid_time_block_id('2024-01-01 00:00:00+00') AS default_layout_2024;

-- The generator uses the block uuid_time_block_id names for the current time.
SELECT clock_timestamp() AS t0 \gset
SELECT uuid_time_nextval() AS g1, uuid_time_nextval(1, 256) AS g2, uuid_time_nextval(3600, 24) AS g3 \gset
SELECT clock_timestamp() AS t1 \gset
SELECT uuid_block_id(:'g1') IN (uuid_time_block_id(:'t0'), uuid_time_block_id(:'t1')) AS default_matches,
	   uuid_block_id(:'g2', 256) IN (uuid_time_block_id(:'t0', 1, 256), uuid_time_block_id(:'t1', 1, 256)) AS one_second_matches,
	   uuid_block_id(:'g3', 24) IN (uuid_time_block_id(:'t0', 3600, 24), uuid_time_block_id(:'t1', 3600, 24)) AS effective_size_matches;

-- uuid_time_block_range: the latest occurrence of the block starting at or
-- before the reference.  Its first and last microsecond are in the block, the
-- microseconds around it are in the neighbouring blocks, it lasts one
-- effective block, and the next occurrence starts after the reference.
CREATE FUNCTION pg_temp.nblocks(cnt int) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN cnt <= 256 THEN 256 WHEN cnt <= 65536 THEN 65536 WHEN cnt <= 16777216 THEN 16777216
				ELSE 4294967296 END
$$;
SELECT len, cnt, count(*) AS ranges, count(*) FILTER (WHERE r IS NULL) AS no_range,
	   count(*) FILTER (WHERE uuid_time_block_id(lower(r), len, cnt) <> b
						   OR uuid_time_block_id(upper(r) - interval '1 microsecond', len, cnt) <> b) AS ends_not_in_block,
	   count(*) FILTER (WHERE CASE WHEN lower(r) = '1970-01-01 00:00:00+00' THEN false
							   ELSE uuid_time_block_id(lower(r) - interval '1 microsecond', len, cnt) <> (b - 1 + nb) % nb END
						   OR uuid_time_block_id(upper(r), len, cnt) <> (b + 1) % nb) AS neighbours_wrong,
	   count(*) FILTER (WHERE NOT (lower(r) <= ref AND lower(r) + (upper(r) - lower(r)) * nb > ref)) AS not_latest,
	   count(*) FILTER (WHERE extract(epoch FROM upper(r)) - extract(epoch FROM lower(r))
							  <> greatest(1, floor(len::numeric * cnt / nb))) AS length_wrong,
	   count(*) FILTER (WHERE lower_inc(r) IS NOT TRUE OR upper_inc(r) IS NOT FALSE) AS bounds_not_half_open
FROM (SELECT len, cnt, b, ref, pg_temp.nblocks(cnt) AS nb, uuid_time_block_range(b, len, cnt, ref) AS r
	  FROM tk_layouts,
		   (VALUES (0), (1), (255), (17), (200)) AS bl(b),
		   (VALUES (timestamptz '2024-01-01 00:00:00+00'), ('2024-01-01 00:00:59.999999+00'), ('2031-07-15 12:34:56.5+00'),
				   ('2000-02-29 23:59:59+00')) AS rf(ref)
	  WHERE (len, cnt) <> (2147483647, 2147483647)) AS s
GROUP BY len, cnt ORDER BY len, cnt;

-- The block of a time and the range of that block contain the time; the
-- default reference is now().
SELECT uuid_time_block_range(uuid_time_block_id('2024-01-01 12:00:30+00'), reference => '2024-01-01 12:00:30+00')
	   = tstzrange('2024-01-01 12:00:00+00', '2024-01-01 12:01:00+00') AS minute_of_a_time,
	   uuid_time_block_range(uuid_time_block_id(now())) @> now() AS current_block_contains_now,
	   uuid_time_block_range(0, 60, 1000, '2024-01-01 00:00:00+00')
	   = tstzrange(pg_temp.ts_of((1704067200 - 1704067200 % 65536) * 1000000::bigint),
				   pg_temp.ts_of((1704067200 - 1704067200 % 65536 + 1) * 1000000::bigint)) AS effective_block_of_one_second;

-- A block that has not begun since 1970 by the reference has no range.
SELECT uuid_time_block_range(100, 60, 65536, '1970-01-01 01:39:59+00') IS NULL AS not_yet,
	   uuid_time_block_range(100, 60, 65536, '1970-01-01 01:40:00+00') = tstzrange('1970-01-01 01:40:00+00', '1970-01-01 01:41:00+00') AS just_begun,
	   uuid_time_block_range(0, 60, 65536, '1969-12-31 23:59:59+00') IS NULL AS before_1970,
	   uuid_time_block_range(NULL) IS NULL AND uuid_time_block_id(NULL) IS NULL AS strict;

-- References in the last years of the timestamp range: the microseconds
-- since 1970 of those from 294247-01-10 on do not fit in 64 bits, and the
-- range of the last block ends past the last timestamp (+infinity then).
-- Expected: the ref's own block and the one before it, by the layout's
-- formula in numeric arithmetic, the bounds as whole seconds added to 2000
-- (extract(epoch) of a timestamptz is off there: its 1970-based microseconds
-- overflow too).
CREATE FUNCTION pg_temp.unix_s(ts timestamptz) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
	SELECT floor(extract(epoch FROM ts - timestamptz '2000-01-01 00:00:00+00')) + 946684800
$$;
CREATE FUNCTION pg_temp.ts_of_s(s numeric) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN s > pg_temp.unix_s('294276-12-31 23:59:59.999999+00') THEN 'infinity'
				ELSE timestamptz '2000-01-01 00:00:00+00' + div(s - 946684800, 86400)::int * interval '1 day'
					 + mod(s - 946684800, 86400)::int * interval '1 second' END
$$;
SELECT len, cnt, count(*) AS ranges, count(*) FILTER (WHERE r IS DISTINCT FROM want) AS wrong,
	   count(*) FILTER (WHERE upper(r) = 'infinity') AS ending_at_infinity
FROM (SELECT len, cnt,
			 uuid_time_block_range(((idx - back) % nb)::int, len, cnt, ref) AS r,
			 tstzrange(pg_temp.ts_of_s((idx - back) * eff), pg_temp.ts_of_s((idx - back + 1) * eff)) AS want
	  FROM (SELECT len, cnt, ref, nb, eff, floor(pg_temp.unix_s(ref) / eff) AS idx
			FROM (SELECT len, cnt, pg_temp.nblocks(cnt) AS nb, greatest(1, floor(len::numeric * cnt / pg_temp.nblocks(cnt))) AS eff
				  FROM (SELECT * FROM tk_layouts WHERE cnt <= 16777216 UNION ALL VALUES (2147483647, 256)) AS tl) AS l,
				 (VALUES (timestamptz '294246-06-01 12:00:00+00'), ('294247-01-10 04:00:54.775807+00'),
						 ('294247-01-10 04:00:54.775808+00'), ('294247-01-10 04:00:55+00'), ('294275-01-01 00:00:00+00'),
						 ('294276-12-31 23:59:00+00'), ('294276-12-31 23:59:59.999999+00')) AS rf(ref)) AS i,
		   (VALUES (0), (1)) AS bk(back)) AS s
GROUP BY len, cnt ORDER BY len, cnt;
SELECT uuid_time_block_range(0, 1, 256, '294275-01-01 00:00:00+00') AS issue_example,
	   uuid_time_block_range(255, 1, 256, '294276-12-31 23:59:59.999999+00') AS last_second;

-- uuid_block_min/max bracket exactly the values of a block: every value of
-- block b made by the sequence generator lies between them, and the bounds
-- of neighbouring blocks do not overlap.
CREATE SEQUENCE tk_seq;
SELECT count(*) AS values,
	   count(*) FILTER (WHERE NOT u BETWEEN uuid_block_min(b, 256) AND uuid_block_max(b, 256)) AS outside_own_block,
	   count(*) FILTER (WHERE b > 0 AND NOT u > uuid_block_max(b - 1, 256)) AS not_above_previous,
	   count(*) FILTER (WHERE b < 255 AND NOT u < uuid_block_min(b + 1, 256)) AS not_below_next
FROM (SELECT u, uuid_block_id(u, 256) AS b
	  FROM (SELECT uuid_sequence_nextval('tk_seq', 3, 256) AS u FROM generate_series(1, 768)) AS g) AS s;
SELECT uuid_block_min(5) = '00050000-0000-4000-8000-000000000000' AS min_2byte,
	   uuid_block_max(5) = '0005ffff-ffff-4fff-bfff-ffffffffffff' AS max_2byte,
	   uuid_block_min(171, 256) = 'ab000000-0000-4000-8000-000000000000' AS min_1byte,
	   uuid_block_max(1193046, 16777216) = '123456ff-ffff-4fff-bfff-ffffffffffff' AS max_3byte,
	   uuid_block_min(2147483647, 2147483647) = '7fffffff-0000-4000-8000-000000000000' AS min_4byte,
	   uuid_block_id(uuid_block_max(65535)) = 65535 AS round_trip,
	   uuid_block_min(NULL) IS NULL AS strict;

-- Errors of the block functions.
SELECT stmt, pg_temp.err(stmt) FROM (VALUES
	('SELECT uuid_time_block_id(''1969-12-31 23:59:59.999999+00'')'),
	('SELECT uuid_time_block_id(''infinity'')'),
	('SELECT uuid_time_block_id(now(), 0)'),
	('SELECT uuid_time_block_id(now(), 60, -1)'),
	('SELECT uuid_time_block_id(''2040-01-01 00:00:00+00'', 1, 2147483647)'),
	('SELECT uuid_time_block_range(-1)'),
	('SELECT uuid_time_block_range(256, 60, 256)'),
	('SELECT uuid_time_block_range(0, 60, 65536, ''infinity'')'),
	('SELECT uuid_time_block_range(0, 0)'),
	('SELECT uuid_block_min(65536)'),
	('SELECT uuid_block_max(-1, 256)'),
	('SELECT uuid_block_max(0, 0)')
) AS t(stmt);

--
-- Scanning and partitioning a version 7 key by time.
--

-- EXPLAIN (COSTS OFF) with the constant UUIDs the planner folded in masked.
CREATE FUNCTION pg_temp.plan(stmt text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || stmt LOOP
		RETURN NEXT regexp_replace(line, '''[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}''', '''<uuid>''', 'g');
	END LOOP;
END $$;

-- A table range-partitioned on its v7 key by month, the partition bounds
-- written with uuid_v7_min; rows made with uuid_v7_from_time for times from
-- December to February (the created column only checks the answers).
CREATE TABLE tk_events (id uuid PRIMARY KEY, created timestamptz NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE tk_events_2024_12 PARTITION OF tk_events
	FOR VALUES FROM (uuid_v7_min('2024-12-01 00:00:00+00')) TO (uuid_v7_min('2025-01-01 00:00:00+00'));
CREATE TABLE tk_events_2025_01 PARTITION OF tk_events
	FOR VALUES FROM (uuid_v7_min('2025-01-01 00:00:00+00')) TO (uuid_v7_min('2025-02-01 00:00:00+00'));
CREATE TABLE tk_events_2025_02 PARTITION OF tk_events
	FOR VALUES FROM (uuid_v7_min('2025-02-01 00:00:00+00')) TO (uuid_v7_min('2025-03-01 00:00:00+00'));
INSERT INTO tk_events
SELECT uuid_v7_from_time(t), t
FROM generate_series(timestamptz '2024-12-01 00:00:00+00', '2025-02-28 23:59:59.999+00', interval '7 minutes 13.0007 seconds') AS t;
INSERT INTO tk_events
SELECT uuid_v7_from_time(t), t
FROM (VALUES (timestamptz '2024-12-31 23:59:59.999999+00'), ('2025-01-01 00:00:00+00'), ('2025-01-31 23:59:59.999999+00'),
			 ('2025-02-01 00:00:00+00')) AS v(t);
ANALYZE tk_events;

-- Every row is in the partition of its month, month ends included.
SELECT tableoid::regclass AS partition, count(*) AS rows,
	   count(*) FILTER (WHERE date_trunc('month', created) <> to_date(right(tableoid::regclass::text, 7), 'YYYY_MM')) AS wrong_month
FROM tk_events GROUP BY tableoid ORDER BY tableoid::regclass::text COLLATE "C";

-- Plan-time pruning: with constant times the bounds are folded and only
-- January's partition is scanned.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT * FROM pg_temp.plan($$SELECT id, created FROM tk_events
	WHERE id >= uuid_v7_min('2025-01-10 00:00:00+00') AND id < uuid_v7_min('2025-01-20 00:00:00+00')$$);
SELECT count(*) AS rows_by_key,
	   (SELECT count(*) FROM tk_events WHERE created >= '2025-01-10 00:00:00+00' AND created < '2025-01-20 00:00:00+00') AS rows_by_time
FROM tk_events WHERE id >= uuid_v7_min('2025-01-10 00:00:00+00') AND id < uuid_v7_min('2025-01-20 00:00:00+00');

-- A range across a month end scans two partitions; the millisecond bounds
-- are exact at the partition edge.
SELECT * FROM pg_temp.plan($$SELECT id FROM tk_events
	WHERE id BETWEEN uuid_v7_min('2024-12-31 23:59:59.999+00') AND uuid_v7_max('2025-01-01 00:00:00+00')$$);
SELECT count(*) AS edge_rows
FROM tk_events WHERE id BETWEEN uuid_v7_min('2024-12-31 23:59:59.999+00') AND uuid_v7_max('2025-01-01 00:00:00+00');

-- A time relative to now() is not a constant: the partitions are pruned when
-- the executor starts (all three are past, so none is scanned).
SELECT * FROM pg_temp.plan($$SELECT id FROM tk_events WHERE id >= uuid_v7_min(now() - interval '1 day')$$);
SELECT count(*) AS rows_since_yesterday FROM tk_events WHERE id >= uuid_v7_min(now() - interval '1 day');

-- An index scan by time on a plain table's v7 primary key, no time column
-- needed; the answer matches the one the time column gives.
CREATE TABLE tk_orders (id uuid PRIMARY KEY, created timestamptz NOT NULL);
INSERT INTO tk_orders
SELECT uuid_v7_from_time(t), t
FROM generate_series(timestamptz '2025-01-01 00:00:00+00', '2025-01-31 00:00:00+00', interval '1 minute 0.0003 seconds') AS t;
ANALYZE tk_orders;
SELECT * FROM pg_temp.plan($$SELECT id, created FROM tk_orders
	WHERE id >= uuid_v7_min('2025-01-15 00:00:00+00') AND id < uuid_v7_min('2025-01-16 00:00:00+00')$$);
SELECT * FROM pg_temp.plan($$SELECT id, created FROM tk_orders WHERE id >= uuid_v7_min(now() - interval '1 day')$$);
SELECT count(*) AS rows_by_key,
	   (SELECT count(*) FROM tk_orders WHERE created >= '2025-01-15 00:00:00+00' AND created < '2025-01-16 00:00:00+00') AS rows_by_time,
	   bool_and(uuid_v7_time(id) = date_trunc('milliseconds', created)) AS keys_carry_their_time
FROM tk_orders WHERE id >= uuid_v7_min('2025-01-15 00:00:00+00') AND id < uuid_v7_min('2025-01-16 00:00:00+00');
RESET enable_seqscan;
RESET enable_bitmapscan;

DROP TABLE tk_events, tk_orders;
DROP SEQUENCE tk_seq;
