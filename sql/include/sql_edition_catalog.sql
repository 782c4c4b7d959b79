--
-- sql/include/sql_edition_catalog.sql: pg_temp.catalog(schema), everything
-- of the SQL edition in a schema that a user or client can see, with the
-- schema's name written S where it qualifies a name: each function with its arguments, result, kind,
-- labels, language, settings, body, grants and comment; the operator with
-- its function; the sequence's and the view's definitions, grants and
-- comments (not the sequence's start, which each install draws at random).
-- Two installs are the same when their catalogs are.
--
CREATE FUNCTION pg_temp.catalog(nsp name) RETURNS TABLE (object text, properties text) LANGUAGE sql AS $$
	SELECT o.object, replace(o.properties, quote_ident(nsp) || '.', 'S.')
	  FROM (SELECT 'function ' || p.proname || '(' || oidvectortypes(p.proargtypes) || ')' AS object,
				   concat_ws(' | ', pg_get_function_arguments(p.oid), pg_get_function_result(p.oid),
							 p.prokind, p.provolatile, p.proparallel, p.proisstrict, p.prosecdef, l.lanname,
							 p.proconfig::text, p.prosrc, p.proacl::text, obj_description(p.oid, 'pg_proc')) AS properties
			  FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
			 WHERE p.pronamespace = nsp::regnamespace
			UNION ALL
			SELECT 'operator ' || o.oprname || '(' || o.oprleft::regtype || ', ' || o.oprright::regtype || ')',
				   concat_ws(' | ', o.oprcode::regprocedure::text, o.oprresult::regtype::text, o.oprrest::text,
							 obj_description(o.oid, 'pg_operator'))
			  FROM pg_operator o WHERE o.oprnamespace = nsp::regnamespace
			UNION ALL
			SELECT 'relation ' || c.relname,
				   concat_ws(' | ', c.relkind, c.relacl::text, obj_description(c.oid, 'pg_class'),
							 CASE c.relkind WHEN 'v' THEN pg_get_viewdef(c.oid) END,
							 (SELECT concat_ws(' ', s.seqtypid::regtype, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle)
								FROM pg_sequence s WHERE s.seqrelid = c.oid))
			  FROM pg_class c WHERE c.relnamespace = nsp::regnamespace AND c.relkind IN ('S', 'v')) o
$$;
-- The differences between the catalogs of two schemas, as rows.
CREATE FUNCTION pg_temp.catalog_diff(a name, b name) RETURNS TABLE (side text, object text, properties text) LANGUAGE sql AS $$
	(SELECT 'only ' || a, * FROM pg_temp.catalog(a) EXCEPT SELECT 'only ' || a, * FROM pg_temp.catalog(b))
	UNION ALL
	(SELECT 'only ' || b, * FROM pg_temp.catalog(b) EXCEPT SELECT 'only ' || b, * FROM pg_temp.catalog(a))
	ORDER BY 2, 1
$$;
