-- test/generators_time_range.sql -- pgTAP: the catalog contract of the keys
-- made in a time range (uuid <@ tstzrange and its functions): signatures,
-- volatility, strictness, parallel labels, the planner support and the
-- estimator, privileges.  Run by pg_prove in a database that has pgtap and
-- ordered_uuid installed.
BEGIN;
SELECT plan(24);

SELECT has_function('uuid_time', ARRAY['uuid']);
SELECT has_function('uuid_time_in', ARRAY['uuid', 'tstzrange']);
SELECT has_function('uuid_time_range_lower', ARRAY['tstzrange']);
SELECT has_function('uuid_time_range_upper', ARRAY['tstzrange']);
SELECT function_returns('uuid_time', ARRAY['uuid'], 'timestamp with time zone');
SELECT function_returns('uuid_time_in', ARRAY['uuid', 'tstzrange'], 'boolean');
SELECT function_returns('uuid_time_range_lower', ARRAY['tstzrange'], 'uuid');
SELECT function_returns('uuid_time_range_upper', ARRAY['tstzrange'], 'uuid');
SELECT has_operator('uuid', '<@', 'tstzrange', 'boolean');
SELECT function_returns('uuid_time_encoder', ARRAY['timestamp with time zone'], 'uuid');
SELECT function_returns('uuid_time_decoder', ARRAY['text'], 'timestamp with time zone');

-- IMMUTABLE STRICT PARALLEL SAFE, none SECURITY DEFINER, no settings of
-- their own: what an index condition and a partition bound may call
SELECT is(
	(SELECT string_agg(p.oid::regprocedure::text || ':' || p.provolatile::text || p.proisstrict::text || p.proparallel::text
					   || p.prosecdef::text || coalesce(p.proconfig::text, '-'), ' ' ORDER BY p.oid::regprocedure::text COLLATE "C")
	   FROM pg_proc p
	  WHERE p.oid IN ('uuid_time(uuid)'::regprocedure, 'uuid_time_in(uuid, tstzrange)'::regprocedure,
					  'uuid_time_range_lower(tstzrange)'::regprocedure, 'uuid_time_range_upper(tstzrange)'::regprocedure,
					  'uuid_time_in_support(internal)'::regprocedure,
					  'uuid_time_encoder(timestamptz)'::regprocedure, 'uuid_time_decoder(text)'::regprocedure)),
	'uuid_time(uuid):itruesfalse- uuid_time_decoder(text):itruesfalse- '
	'uuid_time_encoder(timestamp with time zone):itruesfalse- uuid_time_in(uuid,tstzrange):itruesfalse- '
	'uuid_time_in_support(internal):itruesfalse- '
	'uuid_time_range_lower(tstzrange):itruesfalse- uuid_time_range_upper(tstzrange):itruesfalse-',
	'immutable, strict, parallel safe, not security definer, no settings');
SELECT is((SELECT provolatile::text || proisstrict::text || proparallel::text || prosecdef::text
			 FROM pg_proc WHERE oid = 'uuid_time_in_sel(internal, oid, internal, integer)'::regprocedure),
		  'struesfalse', 'the estimator is stable, strict, parallel safe, not security definer');

-- the planner support and the estimator are ours, in our schema
SELECT is((SELECT prosupport::regprocedure::text FROM pg_proc WHERE oid = 'uuid_time_in(uuid, tstzrange)'::regprocedure),
		  'uuid_time_in_support(internal)', 'uuid_time_in has its planner support function');
SELECT is((SELECT o.oprcode::regprocedure::text || ' ' || o.oprrest::regprocedure::text || ' ' || o.oprjoin::text
			 FROM pg_operator o WHERE o.oprname = '<@' AND o.oprleft = 'uuid'::regtype AND o.oprright = 'tstzrange'::regtype),
		  'uuid_time_in(uuid,tstzrange) uuid_time_in_sel(internal,oid,internal,integer) -',
		  'the operator calls uuid_time_in and estimates with uuid_time_in_sel');
SELECT is((SELECT count(*)::int FROM pg_proc p
			WHERE p.oid IN ('uuid_time(uuid)'::regprocedure, 'uuid_time_in(uuid, tstzrange)'::regprocedure,
							'uuid_time_range_lower(tstzrange)'::regprocedure, 'uuid_time_range_upper(tstzrange)'::regprocedure,
							'uuid_time_in_support(internal)'::regprocedure,
							'uuid_time_in_sel(internal, oid, internal, integer)'::regprocedure)
			  AND p.pronamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'ordered_uuid')),
		  6, 'all in the extension''s schema');

-- Privileges: anyone may call them (EXECUTE for PUBLIC, the default), owned
-- by the extension's owner, nothing else granted
SELECT function_privs_are('uuid_time', ARRAY['uuid'], 'public', ARRAY['EXECUTE']);
SELECT function_privs_are('uuid_time_in', ARRAY['uuid', 'tstzrange'], 'public', ARRAY['EXECUTE']);
SELECT function_privs_are('uuid_time_range_lower', ARRAY['tstzrange'], 'public', ARRAY['EXECUTE']);
SELECT function_privs_are('uuid_time_range_upper', ARRAY['tstzrange'], 'public', ARRAY['EXECUTE']);
SELECT is((SELECT count(*)::int FROM pg_proc p, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
			WHERE p.oid IN ('uuid_time(uuid)'::regprocedure, 'uuid_time_in(uuid, tstzrange)'::regprocedure,
							'uuid_time_range_lower(tstzrange)'::regprocedure, 'uuid_time_range_upper(tstzrange)'::regprocedure,
							'uuid_time_in_support(internal)'::regprocedure,
							'uuid_time_in_sel(internal, oid, internal, integer)'::regprocedure)
			  AND a.privilege_type <> 'EXECUTE'),
		  0, 'nothing but EXECUTE is granted on them');

-- the comments say what each is
SELECT isnt(obj_description('uuid_time_in(uuid, tstzrange)'::regprocedure, 'pg_proc'), NULL, 'uuid_time_in has a comment');
SELECT isnt(obj_description((SELECT o.oid FROM pg_operator o WHERE o.oprname = '<@' AND o.oprleft = 'uuid'::regtype
								AND o.oprright = 'tstzrange'::regtype), 'pg_operator'), NULL, 'the operator has a comment');
-- the operator is found for an untyped range literal
SELECT ok(uuid_v7_min('2025-01-10 00:00+00') <@ '[2025-01-10 00:00+00, 2025-01-11 00:00+00)', 'an untyped literal is a tstzrange');

SELECT * FROM finish();
ROLLBACK;
