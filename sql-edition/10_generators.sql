--
-- Generators and the keys of a given time, in SQL and PL/pgSQL.  Each
-- function's declaration (arguments, defaults, result, labels, comment) is
-- the C edition's, from extension/10_generators.sql; the bodies below give
-- the same results.  Random bits come from gen_random_uuid(), the
-- pg_strong_random() source the C edition's buffer draws from.  PL/pgSQL
-- bodies pin search_path to pg_catalog, pg_temp and name the edition's own
-- objects by their schema (@extschema@).

-- ou:add
-- Helpers of the bodies below, not for direct use.
--
-- _ou_arg_error: the error for a bad int argument, worded as the C
-- edition's (util.c): 22004 for NULL, else 22023 naming the range.  Called
-- only on the error path, so the checks cost nothing when they pass.
CREATE FUNCTION @extschema@._ou_arg_error(name text, v bigint, lo bigint, hi bigint)
RETURNS void
VOLATILE PARALLEL SAFE
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF v IS NULL THEN
		RAISE EXCEPTION '% must not be null', name USING ERRCODE = '22004';
	END IF;
	IF hi IN (2147483647, 9223372036854775807) THEN
		RAISE EXCEPTION '% must be at least %', name, lo
			USING ERRCODE = '22023', DETAIL = format('The value given was %s.', v);
	END IF;
	RAISE EXCEPTION '% must be between % and %', name, lo, hi
		USING ERRCODE = '22023', DETAIL = format('The value given was %s.', v);
END
$fn$;

-- _ou_unix_us: the Unix time of the finite ts in microseconds, exactly (as
-- numeric; counted from 2000, PostgreSQL's epoch, where no timestamp's
-- distance overflows, which extract(epoch ...) does near the end of the
-- range).
CREATE FUNCTION @extschema@._ou_unix_us(ts timestamptz)
RETURNS numeric
IMMUTABLE PARALLEL SAFE
LANGUAGE sql
AS $$
SELECT (EXTRACT(epoch FROM ts OPERATOR(pg_catalog.-) '2000-01-01 00:00:00+00'::pg_catalog.timestamptz) OPERATOR(pg_catalog.*) 1000000)
	   OPERATOR(pg_catalog.+) 946684800000000
$$;

-- _ou_v7_us: the Unix time of ts in microseconds (exact: numeric), when ts
-- lies in a millisecond that a version 7 UUID holds; 22008 otherwise, the
-- infinities included.
CREATE FUNCTION @extschema@._ou_v7_us(ts timestamptz)
RETURNS numeric
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF NOT (ts >= timestamptz '1970-01-01 00:00:00+00' AND ts < timestamptz '10889-08-02 05:31:50.656+00') THEN
		RAISE EXCEPTION 'timestamp out of range for UUID version 7'
			USING ERRCODE = '22008',
				  DETAIL = 'UUID version 7 holds the milliseconds from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.';
	END IF;
	RETURN @extschema@._ou_unix_us(ts);
END
$fn$;

-- _ou_v7_key: a version 7 UUID of Unix microsecond us (checked by
-- _ou_v7_us): its millisecond, the microseconds as the 12-bit fraction
-- (4.096 steps a microsecond), 62 random bits.
CREATE FUNCTION @extschema@._ou_v7_key(us numeric)
RETURNS uuid
VOLATILE PARALLEL SAFE
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	r text := gen_random_uuid()::text;
BEGIN
	RETURN (lpad(to_hex(floor(us / 1000)::bigint), 12, '0')
			|| to_hex(28672 | floor(mod(us, 1000) * 4096 / 1000)::int)
			|| substr(r, 20, 4) || substr(r, 25, 12))::uuid;
END
$fn$;

-- _ou_ms_time: the timestamptz of Unix millisecond ms (0 to 2^48 - 1), exact:
-- whole days and milliseconds, no floating point.
CREATE FUNCTION @extschema@._ou_ms_time(ms bigint)
RETURNS timestamptz
IMMUTABLE PARALLEL SAFE
LANGUAGE sql
AS $$
SELECT pg_catalog.timezone('UTC', (TIMESTAMP '1970-01-01 00:00:00'
	OPERATOR(pg_catalog.+) ((ms OPERATOR(pg_catalog./) 86400000) OPERATOR(pg_catalog.*) INTERVAL '1 day'))
	OPERATOR(pg_catalog.+) ((ms OPERATOR(pg_catalog.%) 86400000) OPERATOR(pg_catalog.*) INTERVAL '1 millisecond'))
$$;

-- _ou_prefix_bytes: the bytes of the block prefix for block_count: the bits
-- that count block_count values (at least 1), rounded up to whole bytes.
CREATE FUNCTION @extschema@._ou_prefix_bytes(block_count int)
RETURNS int
IMMUTABLE PARALLEL SAFE
LANGUAGE sql
AS $$
SELECT CASE WHEN block_count OPERATOR(pg_catalog.<=) 256 THEN 1
			WHEN block_count OPERATOR(pg_catalog.<=) 65536 THEN 2
			WHEN block_count OPERATOR(pg_catalog.<=) 16777216 THEN 3 ELSE 4 END
$$;

-- _ou_block_of: the block id of the value v (doc/generators.md, The
-- block-prefixed layout): v / effective block size, wrapping after
-- 2^(8 * prefix bytes) blocks; in bigint, as block_size * block_count < 2^62.
CREATE FUNCTION @extschema@._ou_block_of(v bigint, block_size int, block_count int)
RETURNS bigint
IMMUTABLE PARALLEL SAFE
LANGUAGE sql
AS $$
SELECT (v OPERATOR(pg_catalog./) GREATEST(1, block_size::pg_catalog.int8 OPERATOR(pg_catalog.*) block_count
		OPERATOR(pg_catalog./) (1::pg_catalog.int8 OPERATOR(pg_catalog.<<) (8 OPERATOR(pg_catalog.*) @extschema@._ou_prefix_bytes(block_count)))))
	   OPERATOR(pg_catalog.&) ((1::pg_catalog.int8 OPERATOR(pg_catalog.<<) (8 OPERATOR(pg_catalog.*) @extschema@._ou_prefix_bytes(block_count)))
							   OPERATOR(pg_catalog.-) 1)
$$;

-- _ou_block_key: a block-prefixed UUID of the value v: the block id in the
-- first bytes, the rest of gen_random_uuid(), whose version (4) and variant
-- bits lie beyond the prefix.
CREATE FUNCTION @extschema@._ou_block_key(v bigint, block_size int, block_count int)
RETURNS uuid
VOLATILE PARALLEL SAFE
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	nbytes int := @extschema@._ou_prefix_bytes(block_count);
BEGIN
	RETURN (lpad(to_hex(@extschema@._ou_block_of(v, block_size, block_count)), 2 * nbytes, '0')
			|| substr(replace(gen_random_uuid()::text, '-', ''), 2 * nbytes + 1))::uuid;
END
$fn$;

-- ou:body uuid_sequence_nextval(regclass, int, int)
-- The block id from nextval(seq) - 1, whose errors are nextval()'s own.  A
-- value above 2^48 may be a Citus node's copy of the sequence: refused
-- there, as in the C edition (citus.c).
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	next bigint;
	citus_range boolean;
	dist boolean := false;
BEGIN
	IF block_size IS NULL OR block_size < 1 THEN
		PERFORM @extschema@._ou_arg_error('block_size', block_size, 1, 2147483647);
	END IF;
	IF block_count IS NULL OR block_count < 1 THEN
		PERFORM @extschema@._ou_arg_error('block_count', block_count, 1, 2147483647);
	END IF;
	IF seq IS NULL THEN
		RAISE EXCEPTION 'seq must not be null' USING ERRCODE = '22004';
	END IF;
	next := nextval(seq);
	IF next > 281474976710656 THEN
		SELECT s.seqtypid = 'int8'::regtype AND s.seqmin > 281474976710656
			   AND ((s.seqmin - 1) & 281474976710655) = 0 AND s.seqmax = s.seqmin + 281474976710656
			   AND next BETWEEN s.seqmin AND s.seqmax
		  INTO citus_range FROM pg_sequence s WHERE s.seqrelid = seq;
		IF citus_range AND EXISTS (SELECT FROM pg_extension e WHERE e.extname = 'citus') THEN
			EXECUTE 'SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_object AS o'
					' WHERE o.classid OPERATOR(pg_catalog.=) ''pg_catalog.pg_class''::pg_catalog.regclass'
					'   AND o.objid OPERATOR(pg_catalog.=) $1)'
				INTO dist USING seq::oid;
		END IF;
		IF dist THEN
			RAISE EXCEPTION 'uuid_sequence_nextval cannot use sequence "%" on this Citus node',
				(SELECT c.relname FROM pg_class c WHERE c.oid = seq)
				USING ERRCODE = '0A000',
					  DETAIL = format('Citus gave this node''s copy of the sequence a range of its own, starting at %s (group %s times 2^48, plus 1): its keys would fall into blocks unrelated to the order of the keys made on the coordinator.',
									  (SELECT s.seqmin FROM pg_sequence s WHERE s.seqrelid = seq),
									  ((SELECT s.seqmin FROM pg_sequence s WHERE s.seqrelid = seq) - 1) >> 48),
					  HINT = CASE WHEN current_setting('application_name') LIKE 'citus\_internal%'
							 THEN 'The coordinator sent this statement to the nodes, as Citus does with an INSERT ... SELECT between colocated tables, so the column default is evaluated on each node. Use uuid_v7_nextval() or uuid_time_nextval() as the default, which need no sequence, or have the coordinator make the keys: select the rows into a table on the coordinator (a temporary table) and insert them from there.'
							 ELSE 'Insert through the coordinator, which evaluates the column default and sends the key to the nodes, or use uuid_v7_nextval() or uuid_time_nextval(), which need no sequence.' END;
		END IF;
	END IF;
	-- sequences start at 1; wrap instead of overflowing at the minimum
	RETURN @extschema@._ou_block_key(CASE WHEN next = -9223372036854775808 THEN 9223372036854775807
										  ELSE next - 1 END, block_size, block_count);
END
$fn$;

-- ou:body uuid_time_nextval(int, int)
-- The block id from the clock's whole Unix seconds.
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF interval_length IS NULL OR interval_length < 1 THEN
		PERFORM @extschema@._ou_arg_error('interval_length', interval_length, 1, 2147483647);
	END IF;
	IF interval_count IS NULL OR interval_count < 1 THEN
		PERFORM @extschema@._ou_arg_error('interval_count', interval_count, 1, 2147483647);
	END IF;
	RETURN @extschema@._ou_block_key(floor(extract(epoch FROM clock_timestamp()))::bigint,
									 interval_length, interval_count);
END
$fn$;

-- ou:body uuid_v7_nextval() if pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 180000
-- PostgreSQL 18 and later: core's uuidv7(), the same layout (RFC 9562's
-- method 3, a 12-bit sub-millisecond fraction) from a clock of the backend
-- that never repeats nor goes back.  Inlined into the caller.
LANGUAGE sql
AS $$ SELECT pg_catalog.uuidv7() $$;

-- ou:body uuid_v7_nextval()
-- PostgreSQL 14-17: the clock's microsecond as the millisecond and a 12-bit
-- fraction (4.096 steps a microsecond, so every microsecond has its own),
-- then 62 random bits.  Strictly increasing within a session without any
-- session state: each call waits, if need be, until the clock has left its
-- microsecond (at most 1 us), so the next call reads a later one.  (Like
-- uuid_striped_nextval, it sets no search_path, which would cost a few
-- microseconds a call: every name in it is qualified.)
LANGUAGE plpgsql
AS $fn$
DECLARE
	t pg_catalog.timestamptz := pg_catalog.clock_timestamp();
	us bigint := (pg_catalog.date_part('epoch', t) OPERATOR(pg_catalog.*) 1000000)::bigint;
	r pg_catalog.text := pg_catalog.gen_random_uuid()::pg_catalog.text;
BEGIN
	WHILE pg_catalog.clock_timestamp() OPERATOR(pg_catalog.=) t LOOP
	END LOOP;
	RETURN (pg_catalog.lpad(pg_catalog.to_hex(us OPERATOR(pg_catalog./) 1000), 12, '0')
			OPERATOR(pg_catalog.||) pg_catalog.to_hex(28672 OPERATOR(pg_catalog.|)
				((us OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096 OPERATOR(pg_catalog./) 1000)::int)
			OPERATOR(pg_catalog.||) pg_catalog.substr(r, 20, 4)
			OPERATOR(pg_catalog.||) pg_catalog.substr(r, 25, 12))::pg_catalog.uuid;
END
$fn$;

-- ou:body uuid_block_id(uuid, int)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	block bigint;
BEGIN
	IF block_count < 1 THEN
		PERFORM @extschema@._ou_arg_error('block_count', block_count, 1, 2147483647);
	END IF;
	block := ('x' || lpad(substr(encode(uuid_send(id), 'hex'), 1, 2 * @extschema@._ou_prefix_bytes(block_count)),
						  16, '0'))::bit(64)::bigint;
	IF block > 2147483647 THEN
		RAISE EXCEPTION 'block id % is out of range for type integer', block USING ERRCODE = '22003';
	END IF;
	RETURN block;
END
$fn$;

-- ou:body uuid_v7_time(uuid)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	b bytea := uuid_send(id);
BEGIN
	IF get_byte(b, 6) >> 4 <> 7 OR get_byte(b, 8) & 192 <> 128 THEN
		RETURN NULL;
	END IF;
	RETURN @extschema@._ou_ms_time(('x' || encode(substr(b, 1, 6), 'hex'))::bit(48)::bigint);
END
$fn$;

-- ou:body uuid_version(uuid)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	b bytea := uuid_send(id);
BEGIN
	IF get_byte(b, 8) & 192 <> 128 THEN
		RETURN NULL;
	END IF;
	RETURN (get_byte(b, 6) >> 4)::smallint;
END
$fn$;

-- ou:body uuid_v7_nextval(interval)
-- The clock of uuid_v7_nextval() on 14-17 (each call leaves its microsecond
-- behind, so values made with one shift increase within a session), moved
-- by shift with timestamptz + interval; its errors are the C edition's.
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	t timestamptz;
BEGIN
	IF shift IS NULL THEN
		RAISE EXCEPTION 'shift must not be null' USING ERRCODE = '22004';
	END IF;
	IF NOT isfinite(shift) THEN
		RAISE EXCEPTION 'interval out of range for UUID version 7'
			USING ERRCODE = '22008', DETAIL = 'An infinite shift has no time to store in a UUID.';
	END IF;
	t := clock_timestamp();
	WHILE clock_timestamp() = t LOOP
	END LOOP;
	RETURN @extschema@._ou_v7_key(@extschema@._ou_v7_us(t + shift));
END
$fn$;

-- ou:body uuid_v7_min(timestamptz)
-- (PL/pgSQL, not an SQL function the planner would inline, so that plans
-- show uuid_v7_min(...) as written; constant arguments are folded all the
-- same.)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	RETURN @extschema@._ou_v7_bound(ts, '70008000000000000000');
END
$fn$;

-- ou:body uuid_v7_max(timestamptz)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	RETURN @extschema@._ou_v7_bound(ts, '7fffbfffffffffffffff');
END
$fn$;

-- ou:add before uuid_v7_min(timestamptz)
-- _ou_v7_bound: the version 7 UUID of the millisecond of ts whose other 80
-- bits (version and variant among them) are the hex rest.
CREATE FUNCTION @extschema@._ou_v7_bound(ts timestamptz, rest text)
RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	RETURN (lpad(to_hex(floor(@extschema@._ou_v7_us(ts) / 1000)::bigint), 12, '0') || rest)::uuid;
END
$fn$;

-- ou:body uuid_v7_from_time(timestamptz)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF ts IS NULL THEN
		RAISE EXCEPTION 'ts must not be null' USING ERRCODE = '22004';
	END IF;
	RETURN @extschema@._ou_v7_key(@extschema@._ou_v7_us(ts));
END
$fn$;

-- ou:body uuid_time_block_id(timestamptz, int, int)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	block bigint;
BEGIN
	IF interval_length < 1 THEN
		PERFORM @extschema@._ou_arg_error('interval_length', interval_length, 1, 2147483647);
	END IF;
	IF interval_count < 1 THEN
		PERFORM @extschema@._ou_arg_error('interval_count', interval_count, 1, 2147483647);
	END IF;
	IF NOT isfinite(ts) OR ts < timestamptz '1970-01-01 00:00:00+00' THEN
		RAISE EXCEPTION 'timestamp out of range for block-prefixed UUIDs'
			USING ERRCODE = '22008',
				  DETAIL = 'The block ids of uuid_time_nextval count the seconds since 1970-01-01 00:00:00 UTC.';
	END IF;
	block := @extschema@._ou_block_of(floor(@extschema@._ou_unix_us(ts) / 1000000)::bigint,
									  interval_length, interval_count);
	IF block > 2147483647 THEN
		RAISE EXCEPTION 'block id % is out of range for type integer', block USING ERRCODE = '22003';
	END IF;
	RETURN block;
END
$fn$;

-- ou:body uuid_time_block_range(int, int, int, timestamptz)
-- Bounds past the end of the timestamp range are infinity, as in the C
-- edition; times are whole days and seconds after 1970, exact.
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	nbytes int;
	nblocks bigint;
	block_len bigint;
	cur bigint;
	start bigint;
	bounds timestamptz[];
	s bigint;
BEGIN
	IF interval_length < 1 THEN
		PERFORM @extschema@._ou_arg_error('interval_length', interval_length, 1, 2147483647);
	END IF;
	IF interval_count < 1 THEN
		PERFORM @extschema@._ou_arg_error('interval_count', interval_count, 1, 2147483647);
	END IF;
	nbytes := @extschema@._ou_prefix_bytes(interval_count);
	nblocks := 1::bigint << (8 * nbytes);
	block_len := greatest(1, interval_length::bigint * interval_count / nblocks);
	IF block < 0 OR block >= nblocks THEN
		RAISE EXCEPTION 'block id % is out of range for block_count %', block, interval_count
			USING ERRCODE = '22023',
				  DETAIL = format('The block ids of a %s-byte prefix run from 0 to %s.', nbytes, nblocks - 1);
	END IF;
	IF NOT isfinite(reference) THEN
		RAISE EXCEPTION 'reference must be a finite timestamp' USING ERRCODE = '22008';
	END IF;
	IF reference < timestamptz '1970-01-01 00:00:00+00' THEN
		RETURN NULL;
	END IF;
	cur := floor(@extschema@._ou_unix_us(reference) / 1000000)::bigint / block_len;
	IF cur < block THEN
		RETURN NULL;
	END IF;
	start := cur - (cur - block) % nblocks;
	FOREACH s IN ARRAY ARRAY[start * block_len, (start + 1) * block_len] LOOP
		bounds := bounds || CASE WHEN (s::numeric - 946684800) * 1000000 >= 9223371331200000000
								 THEN timestamptz 'infinity'
								 ELSE timezone('UTC', TIMESTAMP '1970-01-01 00:00:00' + (s / 86400) * INTERVAL '1 day'
														  + (s % 86400) * INTERVAL '1 second') END;
	END LOOP;
	RETURN tstzrange(bounds[1], bounds[2], '[)');
END
$fn$;

-- ou:body uuid_block_min(int, int)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	RETURN @extschema@._ou_block_bound(block, block_count, '0', '40008000');
END
$fn$;

-- ou:body uuid_block_max(int, int)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	RETURN @extschema@._ou_block_bound(block, block_count, 'f', '4fffbfff');
END
$fn$;

-- ou:add before uuid_block_min(int, int)
-- _ou_block_bound: the smallest (fill '0') or largest (fill 'f') block-
-- prefixed UUID of a block id, mid the hex of its bytes 6 to 9 (version 4,
-- the variant); 22023 for a block id outside the prefix.
CREATE FUNCTION @extschema@._ou_block_bound(block int, block_count int, fill text, mid text)
RETURNS uuid
IMMUTABLE PARALLEL SAFE
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	nbytes int;
BEGIN
	IF block_count < 1 THEN
		PERFORM @extschema@._ou_arg_error('block_count', block_count, 1, 2147483647);
	END IF;
	nbytes := @extschema@._ou_prefix_bytes(block_count);
	IF block < 0 OR block >= (1::bigint << (8 * nbytes)) THEN
		RAISE EXCEPTION 'block id % is out of range for block_count %', block, block_count
			USING ERRCODE = '22023',
				  DETAIL = format('The block ids of a %s-byte prefix run from 0 to %s.', nbytes,
								  (1::bigint << (8 * nbytes)) - 1);
	END IF;
	RETURN (lpad(to_hex(block), 2 * nbytes, '0') || repeat(fill, 12 - 2 * nbytes) || mid || repeat(fill, 12))::uuid;
END
$fn$;

-- ou:add before uuid_striped_nextval(int)
-- The striped keys' slots (uuid_striped_nextval, below).  Not for direct use:
-- its values must never repeat within a block, so never reset it
-- (setval, ALTER SEQUENCE ... RESTART).  Every role that makes striped keys
-- needs USAGE (nextval, and reading its last value); only its owner may
-- set it.  pg_dump keeps its value, also as a member of the extension.  Its
-- values run from 2^37 to 2^43 - 1 in chunks of 65,536 (its cache), from a
-- random chunk: two installs (two schemas, databases or servers) hand out
-- different values, so that their keys differ in more than the random bits
-- unless they have made trillions.
DO $ou$
BEGIN
	EXECUTE pg_catalog.format('CREATE SEQUENCE @extschema@.uuid_striped_seq AS bigint'
							  ' MINVALUE 137438953472 MAXVALUE 8796093022207 START %s CACHE 65536 CYCLE',
							  137438953472 OPERATOR(pg_catalog.+) (65536 OPERATOR(pg_catalog.*)
							  ((('x' OPERATOR(pg_catalog.||) pg_catalog.left(pg_catalog.gen_random_uuid()::pg_catalog.text, 8))
								::pg_catalog.bit(32)::pg_catalog.int8) OPERATOR(pg_catalog.%) 132120576)));
END
$ou$;

COMMENT ON SEQUENCE @extschema@.uuid_striped_seq IS
'the slots of uuid_striped_nextval(): never reset it, or keys of one block can repeat';

GRANT USAGE ON SEQUENCE @extschema@.uuid_striped_seq TO PUBLIC;

DO $ou$
BEGIN
	-- a member of an extension being created: dump its value with the data
	IF EXISTS (SELECT FROM pg_catalog.pg_depend d
				WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
				  AND d.objid OPERATOR(pg_catalog.=) '@extschema@.uuid_striped_seq'::pg_catalog.regclass
				  AND d.deptype OPERATOR(pg_catalog.=) 'e') THEN
		PERFORM pg_catalog.pg_extension_config_dump('@extschema@.uuid_striped_seq', '');
	END IF;
END
$ou$;

-- _ou_striped: the striped key, for both forms of uuid_striped_nextval
-- (right_edge false: every session makes fill keys, for an index that holds
-- keys above the new ones).
-- The layout of the C edition (doc/generators.md, The striped layout): the
-- block start in the first 48 bits, version 8, a 12-bit stripe, the variant,
-- a 38-bit slot and 6 more stripe bits, 18 random bits.  What fills them
-- differs, since SQL has neither the process number nor shared memory: every
-- key takes a value n of uuid_striped_seq, whose cache hands each session
-- 65,536 consecutive values (a chunk); the stripe is the chunk's number
-- (bits 16-27 of n), the slot 2 * (n mod 2^37) + pass and the high stripe
-- bits n >> 37 (1 to 63: never the 0 of a C edition key on a server of at
-- most 4,096 processes).  A front key (pass 0) takes the slot of its own n; a
-- fill key (pass 1) that of n - 800, a front key of the same chunk 384 to
-- 416 front keys earlier: the passes take turns in runs of 32 values, the
-- first 800 values of a chunk are front keys, and so is every fill-run value
-- whose target is one in 23 (those fronts, and these, stay unfilled, as one
-- in twelve of the C edition's do).  A session whose chunk is the newest
-- (no value after it handed out: the right edge of the index) makes no fill
-- keys.  No two keys share block, stripe, slot and pass as long as the
-- sequence hands out each value once: every key is made of its own n.  No
-- session state, nothing another role can set.
CREATE FUNCTION @extschema@._ou_striped(interval_length int, right_edge boolean)
RETURNS uuid
VOLATILE PARALLEL UNSAFE
-- It sets no search_path, which would cost a few microseconds a call; every
-- name in it is qualified, so the caller's search_path plays no part.
LANGUAGE plpgsql
AS $fn$
DECLARE
	n bigint;
	t bigint;
	pass int;
BEGIN
	IF interval_length IS NULL OR interval_length OPERATOR(pg_catalog.<) 1
	   OR interval_length OPERATOR(pg_catalog.>) 86400 THEN
		PERFORM @extschema@._ou_arg_error('interval_length', interval_length, 1, 86400);
	END IF;
	IF right_edge IS NULL THEN
		RAISE EXCEPTION 'right_edge must not be null' USING ERRCODE = '22004';
	END IF;
	n := pg_catalog.nextval('@extschema@.uuid_striped_seq'::pg_catalog.regclass);
	-- a fill value (an odd run of 32, 800 or more into its chunk, its target
	-- not one in 23) of a session whose chunk is not the newest, or that may
	-- not take the right edge: a fill key
	IF ((n OPERATOR(pg_catalog.-) 137438953472) OPERATOR(pg_catalog.%) 65536 OPERATOR(pg_catalog./) 32)
		 OPERATOR(pg_catalog.%) 2 OPERATOR(pg_catalog.=) 1
	   AND (n OPERATOR(pg_catalog.-) 137438953472) OPERATOR(pg_catalog.%) 65536 OPERATOR(pg_catalog.>=) 800
	   AND (n OPERATOR(pg_catalog.-) 800) OPERATOR(pg_catalog.%) 23 OPERATOR(pg_catalog.<>) 22
	   AND (NOT right_edge
			OR pg_catalog.pg_sequence_last_value('@extschema@.uuid_striped_seq'::pg_catalog.regclass)
			   OPERATOR(pg_catalog.>) (n OPERATOR(pg_catalog.-) ((n OPERATOR(pg_catalog.-) 137438953472) OPERATOR(pg_catalog.%) 65536)
									   OPERATOR(pg_catalog.+) 65535)) THEN
		t := n OPERATOR(pg_catalog.-) 800;
		pass := 1;
	ELSE
		t := n;
		pass := 0;
	END IF;
	-- block start (ms), version and stripe, variant and slot (2 * (t mod 2^37)
	-- + pass, 38 bits), high stripe bits (t >> 37) and 18 random bits
	RETURN (pg_catalog.lpad(pg_catalog.to_hex(
				(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000000)::bigint
				OPERATOR(pg_catalog./) (interval_length OPERATOR(pg_catalog.*) 1000000::bigint)
				OPERATOR(pg_catalog.*) interval_length OPERATOR(pg_catalog.*) 1000), 12, '0')
			OPERATOR(pg_catalog.||) pg_catalog.to_hex(32768 OPERATOR(pg_catalog.|)
				((t OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 4095))
			OPERATOR(pg_catalog.||) pg_catalog.to_hex(2147483648 OPERATOR(pg_catalog.|)
				((2 OPERATOR(pg_catalog.*) (t OPERATOR(pg_catalog.&) 137438953471) OPERATOR(pg_catalog.+) pass)
				 OPERATOR(pg_catalog.>>) 8))
			OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(
				(((2 OPERATOR(pg_catalog.*) (t OPERATOR(pg_catalog.&) 137438953471) OPERATOR(pg_catalog.+) pass)
				  OPERATOR(pg_catalog.&) 255) OPERATOR(pg_catalog.<<) 24)
				OPERATOR(pg_catalog.|) ((t OPERATOR(pg_catalog.>>) 37) OPERATOR(pg_catalog.<<) 18)
				OPERATOR(pg_catalog.|) (('x' OPERATOR(pg_catalog.||)
					pg_catalog.substr(pg_catalog.gen_random_uuid()::pg_catalog.text, 32, 5))::bit(20)::int
					OPERATOR(pg_catalog.&) 262143)), 8, '0'))::pg_catalog.uuid;
END
$fn$;

-- ou:body uuid_striped_nextval(int) PARALLEL UNSAFE
-- _ou_striped(interval_length, true), inlined into the caller.
LANGUAGE sql
AS $$ SELECT @extschema@._ou_striped($1, true) $$;

-- ou:body uuid_striped_nextval(int, boolean) PARALLEL UNSAFE
LANGUAGE sql
AS $$ SELECT @extschema@._ou_striped($1, $2) $$;
