--
-- write_path_report() without shared_preload_libraries = 'ordered_uuid'
-- (the normal suite): what it cannot see is a row of its own, with the
-- setting that would let it see; what needs no collector (S4: pg_stats and
-- the table's own rows) is still reported.  A role sees only what the views
-- it reads show it.  Only the suite's own relations are printed (other
-- suites' tables share this database).
--

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
SELECT rank > 0 AS ranked, scenario, relation, finding, value >= threshold AS past_threshold,
	   change IS NOT NULL AS has_change
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
DROP OWNED BY regress_report_plain;
DROP ROLE regress_report_plain;
DROP TABLE rpt_interleaved, rpt_unanalyzed;
