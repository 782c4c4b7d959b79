-- test/generators_text.sql -- pgTAP: the catalog contract of the text forms
-- of a key (ULID, base32hex): signatures, volatility, strictness, parallel
-- labels, privileges.  Run by pg_prove in a database that has pgtap and
-- ordered_uuid installed.
BEGIN;
SELECT plan(11);

SELECT has_function('uuid_to_ulid', ARRAY['uuid']);
SELECT has_function('uuid_from_ulid', ARRAY['text']);
SELECT has_function('uuid_to_base32hex', ARRAY['uuid']);
SELECT has_function('uuid_from_base32hex', ARRAY['text']);

-- IMMUTABLE STRICT PARALLEL SAFE (usable in indexes, generated columns and
-- partition bounds), not SECURITY DEFINER, no settings of their own, C
SELECT is(
	(SELECT string_agg(p.oid::regprocedure::text || ':' || pg_get_function_result(p.oid) || ':' || p.provolatile::text
					   || p.proisstrict::text || p.proparallel::text || p.prosecdef::text || coalesce(p.proconfig::text, '-')
					   || (SELECT l.lanname FROM pg_language l WHERE l.oid = p.prolang),
					   ' ' ORDER BY p.oid::regprocedure::text COLLATE "C")
	   FROM pg_proc p
	  WHERE p.oid IN ('uuid_to_ulid(uuid)'::regprocedure, 'uuid_from_ulid(text)'::regprocedure,
					  'uuid_to_base32hex(uuid)'::regprocedure, 'uuid_from_base32hex(text)'::regprocedure)),
	'uuid_from_base32hex(text):uuid:itruesfalse-c uuid_from_ulid(text):uuid:itruesfalse-c '
	'uuid_to_base32hex(uuid):text:itruesfalse-c uuid_to_ulid(uuid):text:itruesfalse-c',
	'immutable, strict, parallel safe, not security definer, no settings, C');

SELECT function_privs_are('uuid_to_ulid', ARRAY['uuid'], 'public', ARRAY['EXECUTE']);
SELECT function_privs_are('uuid_from_ulid', ARRAY['text'], 'public', ARRAY['EXECUTE']);
SELECT function_privs_are('uuid_to_base32hex', ARRAY['uuid'], 'public', ARRAY['EXECUTE']);
SELECT function_privs_are('uuid_from_base32hex', ARRAY['text'], 'public', ARRAY['EXECUTE']);
SELECT is((SELECT count(*)::int FROM pg_proc p
			WHERE p.oid IN ('uuid_to_ulid(uuid)'::regprocedure, 'uuid_from_ulid(text)'::regprocedure,
							'uuid_to_base32hex(uuid)'::regprocedure, 'uuid_from_base32hex(text)'::regprocedure)
			  AND obj_description(p.oid, 'pg_proc') IS NOT NULL), 4, 'each has a comment');
-- usable in an expression index: the text form of a key, indexed
CREATE TEMP TABLE tap_text (id uuid);
CREATE INDEX ON tap_text (uuid_to_ulid(id));
SELECT pass('uuid_to_ulid can be indexed');

SELECT * FROM finish();
ROLLBACK;
