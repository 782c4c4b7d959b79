--
-- Text forms of a key: ULID (Crockford's base32) and RFC 4648 base32hex,
-- the same 16 bytes both ways.  Checked against fixed vectors, against
-- encoders written here from the alphabets alone, and, on PostgreSQL 19,
-- against core's encode(id::bytea, 'base32hex').
--
SET timezone = 'UTC';

\i sql/include/err.sql

-- Reference encoders, independent of the C code: the 128 bits with two zero
-- bits in front (ULID) or behind (base32hex), 5 bits a character.
CREATE FUNCTION pg_temp.b32(id uuid, alphabet text, front boolean) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT string_agg(substr(alphabet, substring(b FROM 5 * i + 1 FOR 5)::int + 1, 1), '' ORDER BY i)
	  FROM (SELECT CASE WHEN front THEN B'00' || ('x' || replace(id::text, '-', ''))::bit(128)
						ELSE ('x' || replace(id::text, '-', ''))::bit(128) || B'00' END AS b) s,
		   generate_series(0, 25) i
$$;
CREATE FUNCTION pg_temp.ref_ulid(id uuid) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT pg_temp.b32(id, '0123456789ABCDEFGHJKMNPQRSTVWXYZ', true)
$$;
-- base32hex: core's encode on PostgreSQL 19, the reference before
CREATE FUNCTION pg_temp.core_base32hex(id uuid) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	t text;
BEGIN
	IF current_setting('server_version_num')::int >= 190000 THEN
		EXECUTE 'SELECT pg_catalog.rtrim(pg_catalog.encode($1::bytea, ''base32hex''), ''='')' INTO t USING id;
		RETURN t;
	END IF;
	RETURN pg_temp.b32(id, '0123456789ABCDEFGHIJKLMNOPQRSTUV', false);
END $$;

-- Fixed vectors (Python's base64.b32hexencode and a Crockford encoder of the
-- 128-bit integer); the ULID specification's example
SELECT v.id, uuid_to_ulid(v.id) AS ulid, uuid_to_ulid(v.id) = v.ulid AS ulid_ok,
	   uuid_to_base32hex(v.id) AS base32hex, uuid_to_base32hex(v.id) = v.b32 AS base32hex_ok
  FROM (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, '00000000000000000000000000', '00000000000000000000000000'),
			   ('ffffffff-ffff-ffff-ffff-ffffffffffff', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'VVVVVVVVVVVVVVVVVVVVVVVVVS'),
			   ('01944d82-b800-7000-8000-000000000000', '01JH6R5E00E008000000000000', '06A4R0LO01O010000000000000'),
			   ('01563e3a-b5d3-d676-4c61-efb99302bd5b', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '05B3SELLQFB7CJ31TUSP60LTBC'),
			   ('01234567-89ab-cdef-0123-456789abcdef', '014D2PF2DBSQQG28T5CY4TQKFF', '04HKAPS9LF6UU0938LJOJAUDTS'),
			   ('f0e1d2c3-b4a5-9687-7869-5a4b3c2d1e0f', '7GW79C7D55JT3QGTAT9CY2T7GF', 'U3GT5GTKKMB8EU39B95JOB8U1S')) v(id, ulid, b32);
SELECT uuid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS spec_example, uuid_from_ulid('01arz3ndektsv4rrffq69g5fav') AS lower_case;

-- 5000 keys: every bit pattern the md5s give, and keys of the generators
CREATE TEMP TABLE tx_keys AS
SELECT md5(g::text)::uuid AS id FROM generate_series(1, 4000) g
UNION ALL SELECT uuid_v7_nextval() FROM generate_series(1, 500)
UNION ALL SELECT uuid_striped_nextval() FROM generate_series(1, 500);
SELECT count(*) AS keys,
	   count(*) FILTER (WHERE uuid_to_ulid(id) <> pg_temp.ref_ulid(id)) AS ulid_differs,
	   count(*) FILTER (WHERE uuid_to_base32hex(id) <> pg_temp.core_base32hex(id)) AS base32hex_differs,
	   count(*) FILTER (WHERE uuid_from_ulid(uuid_to_ulid(id)) <> id) AS ulid_round_trip_wrong,
	   count(*) FILTER (WHERE uuid_from_ulid(lower(uuid_to_ulid(id))) <> id) AS lower_ulid_wrong,
	   count(*) FILTER (WHERE uuid_from_base32hex(uuid_to_base32hex(id)) <> id) AS base32hex_round_trip_wrong,
	   count(*) FILTER (WHERE uuid_from_base32hex(lower(uuid_to_base32hex(id)) || '======') <> id) AS padded_lower_wrong,
	   count(*) FILTER (WHERE length(uuid_to_ulid(id)) <> 26 OR length(uuid_to_base32hex(id)) <> 26) AS length_wrong
  FROM tx_keys;

-- The texts sort as the keys (in the C collation: the alphabets are in
-- ASCII order), so version 7 keys' ULIDs sort by time
SELECT bool_and(u_rank = k_rank) AS ulid_sorts_as_key, bool_and(b_rank = k_rank) AS base32hex_sorts_as_key
  FROM (SELECT row_number() OVER (ORDER BY id) AS k_rank,
			   row_number() OVER (ORDER BY uuid_to_ulid(id) COLLATE "C") AS u_rank,
			   row_number() OVER (ORDER BY uuid_to_base32hex(id) COLLATE "C") AS b_rank
		  FROM tx_keys) s;
SELECT bool_and(t_next > t) AS v7_ulids_increase_with_time
  FROM (SELECT uuid_to_ulid(id) COLLATE "C" AS t, lead(uuid_to_ulid(id) COLLATE "C") OVER (ORDER BY uuid_v7_time(id), id) AS t_next
		  FROM tx_keys WHERE uuid_version(id) = 7) s WHERE t_next IS NOT NULL;

-- Strict input: 22P02 for a wrong length, a character outside the alphabet
-- (ULIDs leave out I, L, O and U: they are errors, not 1, 1, 0), a first
-- ULID character above 7, base32hex bits beyond the 128, wrong padding
SELECT s, pg_temp.err(format('SELECT uuid_from_ulid(%L)', s)) AS ulid
  FROM (VALUES (''), ('01ARZ3NDEKTSV4RRFFQ69G5FA'), ('01ARZ3NDEKTSV4RRFFQ69G5FAVV'), ('01ARZ3NDEKTSV4RRFFQ69G5FAI'),
			   ('01ARZ3NDEKTSV4RRFFQ69G5FAL'), ('01ARZ3NDEKTSV4RRFFQ69G5FAO'), ('01ARZ3NDEKTSV4RRFFQ69G5FAU'),
			   ('01ARZ3NDEKTSV4RRFFQ69G5FAi'), ('01ARZ3NDEK-SV4RRFFQ69G5FAV'), (' 1ARZ3NDEKTSV4RRFFQ69G5FAV'),
			   ('81ARZ3NDEKTSV4RRFFQ69G5FAV'), ('Z1ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01ARZ3NDEKTSV4RRFFQ69G5FÄ')) v(s);
SELECT s, pg_temp.err(format('SELECT uuid_from_base32hex(%L)', s)) AS base32hex
  FROM (VALUES (''), ('06A4R0LO01O01000000000000'), ('06A4R0LO01O010000000000000='), ('06A4R0LO01O010000000000000======'),
			   ('06A4R0LO01O010000000000000======='), ('06A4R0LO01O01000000000000W'), ('06A4R0LO01O010000000000001'),
			   ('VVVVVVVVVVVVVVVVVVVVVVVVVV'), ('06A4R0LO01O01000000000000=')) v(s);
-- the largest texts that are keys
SELECT uuid_from_ulid('7zzzzzzzzzzzzzzzzzzzzzzzzz') AS ulid_max, uuid_from_base32hex('vvvvvvvvvvvvvvvvvvvvvvvvvs') AS base32hex_max;
SELECT uuid_to_ulid(NULL) AS null_ulid, uuid_from_ulid(NULL) AS null_from_ulid,
	   uuid_to_base32hex(NULL) AS null_b32, uuid_from_base32hex(NULL) AS null_from_b32;

-- A ULID made by another tool: its first 48 bits are its millisecond, as a
-- version 7 key's, but its version and variant bits are random.  Read as a
-- uuid it sorts by that time; uuid_v7_time and uuid_time give a time only
-- when those bits happen to say version 7 (or 8) of the RFC variant.
SELECT u AS ulid, uuid_from_ulid(u) AS id, uuid_version(uuid_from_ulid(u)) AS version,
	   uuid_v7_time(uuid_from_ulid(u)) AS v7_time, uuid_time(uuid_from_ulid(u)) AS key_time
  FROM (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01JH6R5E00E008000000000000'), ('01JH6R5E00XXXXXXXXXXXXXXXX')) v(u);
-- its millisecond, whatever those bits: from the first 10 characters
SELECT uuid_v7_time(uuid_from_ulid(substr('01ARZ3NDEKTSV4RRFFQ69G5FAV', 1, 10) || 'E008000000000000')) AS ulid_time;
-- A version 7 key's ULID is a valid ULID of the key's time: other tools read
-- its first 10 characters as the same millisecond
SELECT count(*) FILTER (WHERE uuid_v7_time(uuid_from_ulid(substr(uuid_to_ulid(id), 1, 10) || 'E008000000000000')) <> uuid_v7_time(id))
	   AS ulid_time_differs
  FROM tx_keys WHERE uuid_version(id) = 7;
