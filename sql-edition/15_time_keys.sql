--
-- Keys made in a time range, and the text forms of a key, in SQL and
-- PL/pgSQL.  id <@ tstzrange is an operator whose function is an SQL
-- function the planner inlines: what it plans is the range of the key
-- itself (id >= lower AND id < upper), which a B-tree or BRIN index on the
-- key serves, plus the check that the key carries a time.  No planner
-- support function (C) is needed.

-- ou:body uuid_time(uuid)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	b bytea := uuid_send(id);
BEGIN
	IF get_byte(b, 6) >> 4 NOT IN (7, 8) OR get_byte(b, 8) & 192 <> 128 THEN
		RETURN NULL;
	END IF;
	RETURN @extschema@._ou_ms_time(('x' || encode(substr(b, 1, 6), 'hex'))::bit(48)::bigint);
END
$fn$;

-- ou:add before uuid_time_range_lower(tstzrange)
-- _ou_range_ms: the first and last Unix millisecond in times that a key can
-- carry (0 to 2^48 - 1), or NULLs when there is none (empty, wholly
-- outside, between two milliseconds); a bound at -infinity or infinity is
-- as good as none.  Exact: microseconds as numeric.
CREATE FUNCTION @extschema@._ou_range_ms(times tstzrange, OUT first bigint, OUT last bigint)
RETURNS record
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	us numeric;
BEGIN
	IF isempty(times) THEN
		RETURN;
	END IF;
	first := 0;
	IF NOT lower_inf(times) AND lower(times) <> timestamptz '-infinity' THEN
		IF lower(times) = timestamptz 'infinity' THEN
			first := NULL;
			RETURN;
		END IF;
		us := @extschema@._ou_unix_us(lower(times));
		first := greatest(0, CASE WHEN lower_inc(times) THEN ceil(us / 1000) ELSE floor(us / 1000) + 1 END);
	END IF;
	last := 281474976710655;
	IF NOT upper_inf(times) AND upper(times) <> timestamptz 'infinity' THEN
		IF upper(times) = timestamptz '-infinity' THEN
			first := NULL;
			last := NULL;
			RETURN;
		END IF;
		us := @extschema@._ou_unix_us(upper(times));
		last := least(281474976710655, CASE WHEN upper_inc(times) THEN floor(us / 1000) ELSE ceil(us / 1000) - 1 END);
	END IF;
	IF first > last THEN
		first := NULL;
		last := NULL;
	END IF;
END
$fn$;

-- _ou_v7_start: uuid_v7_min's key of Unix millisecond ms (every bit after the
-- time zero but the version's and variant's); one past the last
-- millisecond, the largest UUID.
CREATE FUNCTION @extschema@._ou_v7_start(ms bigint)
RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF ms > 281474976710655 THEN
		RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid;
	END IF;
	RETURN (lpad(to_hex(ms), 12, '0') || '70008000000000000000')::uuid;
END
$fn$;

-- ou:body uuid_time_range_lower(tstzrange)
-- When times holds no millisecond a key can carry, both bounds are the key
-- of millisecond 0, so that nothing lies between them.
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	RETURN @extschema@._ou_v7_start(coalesce((@extschema@._ou_range_ms(times)).first, 0));
END
$fn$;

-- ou:body uuid_time_range_upper(tstzrange)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	r record := @extschema@._ou_range_ms(times);
BEGIN
	RETURN @extschema@._ou_v7_start(CASE WHEN r.first IS NULL THEN 0 ELSE r.last + 1 END);
END
$fn$;

-- ou:c-only uuid_time_in_support(internal)

-- ou:body uuid_time_in(uuid, tstzrange) CALLED ON NULL INPUT
-- Inlined by the planner wherever it is called (so not labelled STRICT: a
-- strict SQL function whose body is an AND is not inlined; a NULL argument
-- gives NULL all the same).  The first two conditions are the range of the
-- key, which an index on the key serves: constants when times is one
-- (folded when the statement is planned), calls of the bound functions on
-- the range expression otherwise (a parameter, now() - ...), evaluated once
-- per scan.  The third keeps the keys that carry a time (version 7 or 8 of
-- the RFC 9562 variant), and a NULL key or range (which the first two make
-- NULL); it is written as IS NOT NULL, whose estimate (0.995 without
-- statistics) leaves the range's estimate as it is.
LANGUAGE sql
AS $$
SELECT $1 OPERATOR(pg_catalog.>=) @extschema@.uuid_time_range_lower($2)
   AND $1 OPERATOR(pg_catalog.<) @extschema@.uuid_time_range_upper($2)
   AND (CASE WHEN ((pg_catalog.get_byte(pg_catalog.uuid_send($1), 6) OPERATOR(pg_catalog.>>) 4)
				   OPERATOR(pg_catalog.=) ANY ('{7,8}'::pg_catalog.int4[])
				   AND (pg_catalog.get_byte(pg_catalog.uuid_send($1), 8) OPERATOR(pg_catalog.&) 192)
				   OPERATOR(pg_catalog.=) 128) IS FALSE
		THEN NULL ELSE true END IS NOT NULL
		OR $2 IS NULL)
$$;

-- ou:c-only uuid_time_in_sel(internal, oid, internal, integer)

-- ou:replace operator <@(uuid, tstzrange)
-- No restriction estimator: the planner inlines the function and estimates
-- the range of the key it finds there from the key's statistics.
CREATE OPERATOR @extschema@.<@ (
	LEFTARG = uuid,
	RIGHTARG = tstzrange,
	FUNCTION = @extschema@.uuid_time_in
);

-- ou:add before uuid_to_ulid(uuid)
-- _ou_b32_encode: the 26 characters of the 128 bits of id in alphabet, 5 bits
-- a character, the two bits of padding in front (ULID) or behind
-- (base32hex).
CREATE FUNCTION @extschema@._ou_b32_encode(id uuid, alphabet text, front boolean)
RETURNS text
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE sql
SET search_path = pg_catalog, pg_temp
AS $$
SELECT string_agg(substr(alphabet, substring(b FROM 5 * i + 1 FOR 5)::int + 1, 1), '' ORDER BY i)
  FROM (SELECT CASE WHEN front THEN B'00' || ('x' || encode(uuid_send(id), 'hex'))::bit(128)
					ELSE ('x' || encode(uuid_send(id), 'hex'))::bit(128) || B'00' END AS b) s,
	   generate_series(0, 25) i
$$;

-- _ou_b32_decode: the uuid of the 26 characters of s in alphabet (either
-- case), the two padding bits in front (ULID) or behind (base32hex), which
-- must be zero; 22P02 otherwise, worded as the C edition's (by byte, as it
-- reads them).  form: the name in the message; s is 26 bytes long.
CREATE FUNCTION @extschema@._ou_b32_decode(s text, alphabet text, front boolean, form text)
RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	bytes bytea := convert_to(s, getdatabaseencoding());
	bits varbit := B'';
	c int;
	v int;
BEGIN
	FOR i IN 0 .. 25 LOOP
		c := get_byte(bytes, i);
		IF c BETWEEN 97 AND 122 THEN
			c := c - 32;
		END IF;
		v := CASE WHEN c BETWEEN 32 AND 126 THEN strpos(alphabet, chr(c)) - 1 ELSE -1 END;
		IF v < 0 THEN
			RAISE EXCEPTION 'invalid %: "%"', form, s
				USING ERRCODE = '22P02',
					  DETAIL = format('Character %s is not one of "%s" (either case).', i + 1, alphabet);
		END IF;
		IF front AND i = 0 AND v > 7 THEN
			RAISE EXCEPTION 'invalid %: "%"', form, s
				USING ERRCODE = '22P02', DETAIL = 'The first character of 26 holds 3 bits: it is 0 to 7.';
		END IF;
		IF NOT front AND i = 25 AND v & 3 <> 0 THEN
			RAISE EXCEPTION 'invalid %: "%"', form, s
				USING ERRCODE = '22P02', DETAIL = 'The last character of 26 holds 3 bits and two zero bits.';
		END IF;
		bits := bits || v::bit(5);
	END LOOP;
	bits := substring(bits FROM CASE WHEN front THEN 3 ELSE 1 END FOR 128);
	RETURN (SELECT string_agg(lpad(to_hex(substring(bits FROM 32 * k + 1 FOR 32)::bit(32)::int), 8, '0'), '' ORDER BY k)
			  FROM generate_series(0, 3) k)::uuid;
END
$fn$;

-- ou:body uuid_to_ulid(uuid)
LANGUAGE sql
AS $$ SELECT @extschema@._ou_b32_encode($1, '0123456789ABCDEFGHJKMNPQRSTVWXYZ', true) $$;

-- ou:body uuid_from_ulid(text)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF octet_length(ulid) <> 26 THEN
		RAISE EXCEPTION 'invalid ULID: "%"', ulid
			USING ERRCODE = '22P02', DETAIL = 'A ULID is 26 characters of Crockford''s base32.';
	END IF;
	RETURN @extschema@._ou_b32_decode(ulid, '0123456789ABCDEFGHJKMNPQRSTVWXYZ', true, 'ULID');
END
$fn$;

-- ou:body uuid_to_base32hex(uuid)
LANGUAGE sql
AS $$ SELECT @extschema@._ou_b32_encode($1, '0123456789ABCDEFGHIJKLMNOPQRSTUV', false) $$;

-- ou:body uuid_from_base32hex(text)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	s text := b32;
BEGIN
	IF octet_length(s) = 32 AND right(s, 6) = '======' THEN
		s := left(s, 26);
	ELSIF octet_length(s) <> 26 THEN
		RAISE EXCEPTION 'invalid base32hex UUID: "%"', s
			USING ERRCODE = '22P02',
				  DETAIL = 'A UUID in base32hex is 26 characters of 0-9 and A-V, with or without six "=" of padding.';
	END IF;
	RETURN @extschema@._ou_b32_decode(s, '0123456789ABCDEFGHIJKLMNOPQRSTUV', false, 'base32hex UUID');
END
$fn$;

-- ou:body uuid_time_encoder(timestamptz)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	RETURN @extschema@.uuid_v7_min(ts);
END
$fn$;

-- ou:body uuid_time_decoder(text)
LANGUAGE sql
AS $$ SELECT @extschema@.uuid_time($1::pg_catalog.uuid) $$;
