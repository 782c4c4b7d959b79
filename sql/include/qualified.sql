--
-- pg_temp.unqualified(sql): what in an SQL text that write_path_report()
-- gives a user to run (a change or a verify) the session's search_path could
-- resolve to another role's object, as a list; NULL when nothing.  Flagged:
-- a function called without its schema, an operator not written
-- OPERATOR(pg_catalog.x), a cast to a type without its schema (SQL's
-- keyword types aside: character, character varying), and the constructs
-- that look an operator up by name (IN, NULLIF, BETWEEN, LIKE, ILIKE,
-- SIMILAR TO, IS DISTINCT FROM).  String literals, quoted identifiers and
-- comments are skipped as the server's lexer skips them (a literal or a
-- quoted name becomes the name x0; what is qualified, 0); => names an
-- argument.  Checked on its own below, on a text of each kind (the
-- definition is not echoed into the suites' output).
--
\set ECHO none
CREATE FUNCTION pg_temp.unqualified(sql text) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$
	SELECT string_agg(DISTINCT m[1], ', ')
	  FROM regexp_matches(
			   regexp_replace(
				   regexp_replace(
					   regexp_replace(
						   regexp_replace(sql, $r$'(?:[^']|'')*'|--[^\n]*|"(?:[^"]|"")*"$r$, ' x0 ', 'g'),
						   'OPERATOR\s*\(\s*pg_catalog\s*\.\s*[^)\s]+\s*\)', ' 0 ', 'gi'),
					   '=>', ' ', 'g'),
				   '\m[A-Za-z_]\w*\s*\.\s*[A-Za-z_]\w*\s*\(', ' 0 ', 'g'),
			   $r$(::\s*(?!pg_catalog\s*\.|character\M)[A-Za-z_]\w*|[-+*/<>=~!@#%^&|?]+|\m(?!(?:filter|any|all|as|and|or|not|where|select|from|on|greatest|least|coalesce|values|exists)\M)[A-Za-z_]\w*\s*\(|\m(?:in|nullif|between|like|ilike|similar|distinct)\M)$r$,
			   'gi') m
$f$;
-- pg_temp.row_sql_qualified(change, verify): a report row's SQL to run, its
-- change where that is a statement and its verify, names everything with
-- its schema
CREATE FUNCTION pg_temp.row_sql_qualified(change text, verify text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $f$
	SELECT pg_temp.unqualified(CASE WHEN change ~ '^(ALTER|ANALYZE|CLUSTER|CREATE|GRANT|SELECT|SET) '
									THEN change END) IS NULL
	   AND pg_temp.unqualified(verify) IS NULL
$f$;
\set ECHO all

-- the check itself: a qualified text passes, each kind of unqualified
-- name is found, and the lexer's literals and comments are not read
SELECT kind, pg_temp.unqualified(t) AS unqualified
  FROM (VALUES
	('qualified', 'SELECT pg_catalog.sum(x) OPERATOR(pg_catalog./) GREATEST(pg_catalog.sum(y), 1) '
				  'FROM "my schema".f(''a = b''::pg_catalog.regclass, n => 1) WHERE z OPERATOR(pg_catalog.=) '
				  'ANY (ARRAY[''IN ('')''])::character varying; -- x = nullif(y)'),
	('function, operator', 'SELECT sum(x) FROM s.v WHERE a = 1'),
	('qualified, then a subquery', 'SELECT s.f((SELECT 1), OPERATOR(pg_catalog.-) (2))'),
	('quoted name', 'SELECT "f"(1)'),
	('cast, constructs', 'SELECT s.f(x::regclass) WHERE a IN (1, 2) OR NULLIF(b, 0) IS NULL OR c LIKE ''x''')) v(kind, t);
