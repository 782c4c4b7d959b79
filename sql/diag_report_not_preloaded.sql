--
-- write_path_report() without shared_preload_libraries = 'ordered_uuid'
-- (the normal suite): what it cannot see is a row of its own, with the
-- setting that would let it see; what needs no collector (S4: pg_stats and
-- the table's own rows) is still reported.  A role sees only what the views
-- it reads show it.  Only the suite's own relations are printed (other
-- suites' tables share this database).
--

\i sql/include/qualified.sql

-- the collector's scenarios: one row saying why not, and how
SELECT rank, scenario, relation, finding, change
  FROM write_path_report() WHERE relation IS NULL;

-- S4 needs no collector: 100 groups of 200 rows written interleaved, with
-- an index on the group, analyzed; the same table never analyzed (and kept
-- from autovacuum) is a row saying so
CREATE TABLE rpt_interleaved (grp int, seq int, pad text);
INSERT INTO rpt_interleaved SELECT i % 100, i, repeat('x', 80) FROM generate_series(0, 19999) i;
CREATE INDEX ON rpt_interleaved (grp);
ANALYZE rpt_interleaved;
CREATE TABLE rpt_unanalyzed (grp int, seq int, pad text) WITH (autovacuum_enabled = off);
INSERT INTO rpt_unanalyzed SELECT i % 100, i, repeat('x', 80) FROM generate_series(0, 19999) i;
CREATE INDEX ON rpt_unanalyzed (grp);
-- (has_change: a change, and SQL to run that names every function,
-- operator and type with its schema: sql/include/qualified.sql)
SELECT rank > 0 AS ranked, scenario, relation, finding, value >= threshold AS past_threshold,
	   change IS NOT NULL AND pg_temp.row_sql_qualified(change, verify) AS has_change
  FROM write_path_report() WHERE relation::text LIKE 'rpt\_%' ORDER BY scenario NULLS LAST, relation::text;
-- findings come before what it cannot see
SELECT bool_and(f.rank < b.rank) AS findings_first
  FROM write_path_report() f, write_path_report() b
 WHERE f.scenario IS NOT NULL AND b.scenario IS NULL;

-- EXECUTE for everyone, as the other diagnostics that read only what the
-- caller may read; it runs as the caller
SELECT p.prosecdef AS security_definer, p.proconfig AS settings,
	   has_function_privilege('public', p.oid, 'EXECUTE') AS public_may_execute
  FROM pg_proc p WHERE p.oid = 'write_path_report()'::regprocedure;

-- a role without SELECT on the tables: pg_stats shows it nothing of them,
-- so neither finding nor "cannot see" row names them; with SELECT on one,
-- that one
CREATE ROLE regress_report_plain;
SET ROLE regress_report_plain;
SELECT scenario, relation, finding
  FROM write_path_report() WHERE relation::text LIKE 'rpt\_%';
RESET ROLE;
GRANT SELECT ON rpt_interleaved TO regress_report_plain;
SET ROLE regress_report_plain;
SELECT scenario, relation, finding
  FROM write_path_report() WHERE relation::text LIKE 'rpt\_%';
RESET ROLE;
-- No code of a table's owner runs as the caller.  A domain's CHECK (the
-- key's type, cast from pg_stats' text) and a row security policy call a
-- function that counts its calls; the rows are interleaved, as above, so
-- both tables would be read.  Keys of a type that is not core's own are not
-- judged, and a table with a policy is not read by a role it applies to.
CREATE SEQUENCE rpt_owner_code_calls;
GRANT USAGE, SELECT ON SEQUENCE rpt_owner_code_calls TO PUBLIC;
CREATE FUNCTION rpt_owner_code(int) RETURNS boolean LANGUAGE plpgsql SET search_path = public AS $$
BEGIN
	PERFORM nextval('rpt_owner_code_calls');
	RETURN true;
END $$;
CREATE DOMAIN rpt_grp AS int CHECK (rpt_owner_code(VALUE));
CREATE TABLE rpt_domain (grp rpt_grp, seq int, pad text);
INSERT INTO rpt_domain SELECT i % 100, i, repeat('x', 80) FROM generate_series(0, 19999) i;
CREATE INDEX ON rpt_domain (grp);
ANALYZE rpt_domain;
CREATE TABLE rpt_policy (grp int, seq int, pad text);
INSERT INTO rpt_policy SELECT i % 100, i, repeat('x', 80) FROM generate_series(0, 19999) i;
CREATE INDEX ON rpt_policy (grp);
ANALYZE rpt_policy;
ALTER TABLE rpt_policy ENABLE ROW LEVEL SECURITY;
CREATE POLICY rpt_policy_read ON rpt_policy FOR SELECT USING (rpt_owner_code(grp));
GRANT SELECT ON rpt_domain, rpt_policy TO regress_report_plain;
SELECT last_value AS calls_before FROM rpt_owner_code_calls \gset
SELECT scenario, relation, finding
  FROM write_path_report() WHERE relation IN ('rpt_domain'::regclass, 'rpt_policy'::regclass)
 ORDER BY relation::text;
SET ROLE regress_report_plain;
SELECT count(*) AS plain_findings
  FROM write_path_report() WHERE relation = 'rpt_domain'::regclass OR scenario IS NOT NULL AND relation = 'rpt_policy'::regclass;
RESET ROLE;
SELECT last_value = :calls_before AS owner_code_never_ran FROM rpt_owner_code_calls;
DROP TABLE rpt_domain, rpt_policy;
DROP DOMAIN rpt_grp;
DROP FUNCTION rpt_owner_code(int);
DROP SEQUENCE rpt_owner_code_calls;

-- Row-level security that applies to the caller hides the table's
-- statistics (as pg_stats does) and its rows: a row says so, and names no
-- ANALYZE to run.
CREATE TABLE rpt_rls (grp int, seq int, pad text);
INSERT INTO rpt_rls SELECT i % 100, i, repeat('x', 80) FROM generate_series(0, 19999) i;
CREATE INDEX ON rpt_rls (grp);
ANALYZE rpt_rls;
ALTER TABLE rpt_rls ENABLE ROW LEVEL SECURITY;
CREATE POLICY rpt_rls_none ON rpt_rls USING (false);
GRANT SELECT ON rpt_rls TO regress_report_plain;
SET ROLE regress_report_plain;
SELECT scenario, relation, finding, change
  FROM write_path_report() WHERE relation = 'rpt_rls'::regclass;
SELECT state, keys FROM index_key_scatter('rpt_rls_grp_idx');
RESET ROLE;
-- its owner reads it
SELECT scenario, relation, finding FROM write_path_report() WHERE relation = 'rpt_rls'::regclass;
DROP TABLE rpt_rls;

-- One row a table: two indexes on the group give one finding, and its
-- CLUSTER names an index of every row, never a partial one
CREATE TABLE rpt_two (grp int, seq int, pad text);
INSERT INTO rpt_two SELECT i % 100, i, repeat('x', 80) FROM generate_series(0, 19999) i;
CREATE INDEX rpt_two_a ON rpt_two (grp) WHERE seq >= 0;
CREATE INDEX rpt_two_b ON rpt_two (grp, seq);
CREATE INDEX rpt_two_c ON rpt_two (grp);
ANALYZE rpt_two;
SELECT scenario, relation, finding, change
  FROM write_path_report() WHERE relation = 'rpt_two'::regclass;
-- a table with a partial index alone is not judged
DROP INDEX rpt_two_b, rpt_two_c;
SELECT count(*) AS rows_about_it FROM write_path_report() WHERE relation = 'rpt_two'::regclass;
DROP TABLE rpt_two;

-- The rows read are capped, whatever the statistics say: key 0 had 1,000
-- rows when analyzed, then 60,000 more arrived.  At most max_rows index
-- entries are read (the report's: 50,000, the default), and capped says so.
CREATE TABLE rpt_stale (grp int, seq int, pad text) WITH (autovacuum_enabled = off);
INSERT INTO rpt_stale SELECT CASE WHEN i < 1000 THEN 0 ELSE i % 100 + 1 END, i, repeat('x', 80)
  FROM generate_series(0, 19999) i ORDER BY random();
CREATE INDEX ON rpt_stale (grp);
ANALYZE rpt_stale;
INSERT INTO rpt_stale SELECT 0, i, repeat('x', 80) FROM generate_series(1, 60000) i;
SELECT state, keys, rows, capped FROM index_key_scatter('rpt_stale_grp_idx', 5, 1000);
SELECT state, rows <= 50000 AS at_most_50000, capped FROM index_key_scatter('rpt_stale_grp_idx');
DROP TABLE rpt_stale;

-- index_key_scatter() counts visible rows only: fetched from the heap, or,
-- on a page that the visibility map says is all visible, without a fetch
-- (as an index-only scan).  Half the rows of every group deleted: half the
-- rows and blocks; after VACUUM, the same from the map.
CREATE TABLE rpt_vm (grp int, seq int, pad text) WITH (autovacuum_enabled = off);
INSERT INTO rpt_vm SELECT i % 100, i, repeat('x', 80) FROM generate_series(0, 19999) i;
CREATE INDEX ON rpt_vm (grp);
ANALYZE rpt_vm;
SELECT keys, rows, heap_blocks FROM index_key_scatter('rpt_vm_grp_idx');
DELETE FROM rpt_vm WHERE seq % 200 < 100;
SELECT keys, rows, heap_blocks FROM index_key_scatter('rpt_vm_grp_idx');
VACUUM rpt_vm;
SELECT relallvisible = relpages AS all_visible FROM pg_class WHERE oid = 'rpt_vm'::regclass;
SELECT keys, rows, heap_blocks FROM index_key_scatter('rpt_vm_grp_idx');
DROP TABLE rpt_vm;

-- index_key_scatter() refuses what it cannot read without running code
-- that is not core's, and bad arguments, with the SQLSTATE
\set VERBOSITY sqlstate
CREATE TABLE rpt_kinds (grp int, g2 int, t text);
CREATE INDEX rpt_kinds_hash ON rpt_kinds USING hash (grp);
CREATE INDEX rpt_kinds_expr ON rpt_kinds ((grp + 1));
CREATE INDEX rpt_kinds_part ON rpt_kinds (grp) WHERE g2 > 0;
CREATE INDEX rpt_kinds_pattern ON rpt_kinds (t text_pattern_ops);
CREATE INDEX rpt_kinds_plain ON rpt_kinds (grp);
SELECT index_key_scatter('rpt_kinds');
SELECT index_key_scatter('rpt_kinds_hash');
SELECT index_key_scatter('rpt_kinds_expr');
SELECT index_key_scatter('rpt_kinds_part');
SELECT index_key_scatter('rpt_kinds_plain', 0);
SELECT index_key_scatter('rpt_kinds_plain', 5, 0);
SELECT state FROM index_key_scatter('rpt_kinds_pattern');
SELECT state FROM index_key_scatter('rpt_kinds_plain');
SET ROLE regress_report_plain;
SELECT index_key_scatter('rpt_kinds_plain');
RESET ROLE;
\set VERBOSITY default
DROP TABLE rpt_kinds;

DROP OWNED BY regress_report_plain;
DROP ROLE regress_report_plain;
DROP TABLE rpt_interleaved, rpt_unanalyzed;
