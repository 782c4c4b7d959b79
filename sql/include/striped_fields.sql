-- sql/include/striped_fields.sql: pg_temp.fields(u), the fields of a value of
-- uuid_striped_nextval() (generators_striped, generators_striped_reuse).
--
-- The fields of a value, read back from its text form: block start (Unix
-- ms), version, stripe, variant, slot, and the clock of the slot (block
-- start + slot / 2 microseconds).
CREATE FUNCTION pg_temp.fields(u uuid, OUT block_ms bigint, OUT version int, OUT stripe int,
							   OUT variant int, OUT slot bigint, OUT pass int, OUT clock_us bigint)
LANGUAGE sql IMMUTABLE AS $$
	SELECT b, v, st, va, sl, (sl % 2)::int, b * 1000 + sl / 2
	FROM (SELECT ('x' || substr(h, 1, 12))::bit(48)::bigint AS b,
				 ('x' || substr(h, 13, 1))::bit(4)::int AS v,
				 ('x' || substr(h, 14, 3))::bit(12)::int AS st,
				 ('x' || substr(h, 17, 1))::bit(4)::int >> 2 AS va,
				 (('x' || substr(h, 17, 16))::bit(64)::bigint & ((1::bigint << 62) - 1)) >> 24 AS sl
		  FROM (SELECT replace(u::text, '-', '') AS h) AS x) AS y
$$;
