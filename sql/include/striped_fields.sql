-- sql/include/striped_fields.sql: pg_temp.fields(u), the fields of a value of
-- uuid_striped_nextval() (generators_striped, generators_striped_reuse).
--
-- The fields of a value, read back from its text form: block start (Unix
-- ms), version, stripe (its 12 bits after the version and its 6 bits after
-- the slot), variant, slot, and the clock of the slot (block start + slot / 2
-- microseconds).
CREATE FUNCTION pg_temp.fields(u uuid, OUT block_ms bigint, OUT version int, OUT stripe int,
							   OUT variant int, OUT slot bigint, OUT pass int, OUT clock_us bigint)
LANGUAGE sql IMMUTABLE AS $$
	SELECT b, v, st | (((lo >> 18) & 63)::int << 12), va, sl, (sl % 2)::int, b * 1000 + sl / 2
	FROM (SELECT ('x' || substr(h, 1, 12))::bit(48)::bigint AS b,
				 ('x' || substr(h, 13, 1))::bit(4)::int AS v,
				 ('x' || substr(h, 14, 3))::bit(12)::int AS st,
				 ('x' || substr(h, 17, 1))::bit(4)::int >> 2 AS va,
				 (('x' || substr(h, 17, 16))::bit(64)::bigint & ((1::bigint << 62) - 1)) >> 24 AS sl,
				 ('x' || substr(h, 17, 16))::bit(64)::bigint AS lo
		  FROM (SELECT replace(u::text, '-', '') AS h) AS x) AS y
$$;

-- All of a value but its 18 random bits (block, version, stripe, variant,
-- slot and pass), as bytea: two keys that share it can only be told apart
-- by chance.
CREATE FUNCTION pg_temp.all_but_random(u uuid) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $$
	SELECT set_byte(substring(uuid_send(u) FROM 1 FOR 14), 13, get_byte(uuid_send(u), 13) & 252)
$$;
