--
-- write_path_report() runs no code of a table's owner (sql/diag_report_owner_code.conf:
-- the library preloaded, a small lock table).  A hostile role, regress_evil,
-- plants every kind of code PostgreSQL lets an owner attach to a table the
-- report may judge: a function that records current_user and the vector,
-- called from partial-index predicates, index expressions, expression
-- statistics, CHECK constraints, generated columns, defaults, triggers,
-- row-level security policies, domains, a composite key type with its own
-- cast and operator, a materialized view's query, and children (inheritance
-- and partitions) of another owner's tables.  Each table is large enough
-- and scattered enough to be a candidate for S4, and one has a random key
-- whose full-page images make it a candidate for S1.  A superuser and a plain
-- role then call the report, and nothing may be recorded.  Reading S4's rows
-- through a query made the planner fold the IMMUTABLE functions of the
-- predicates, expressions and statistics as the caller (1.5.1 recorded
-- postgres and regress_owner_plain here).
--
\i sql/include/collector_helpers.sql

CREATE ROLE regress_evil;
CREATE ROLE regress_owner_plain;
CREATE SCHEMA evil AUTHORIZATION regress_evil;
SET ROLE regress_evil;
GRANT USAGE ON SCHEMA evil TO PUBLIC;
CREATE TABLE evil.log (who name, vector text);
GRANT INSERT ON evil.log TO PUBLIC;
CREATE FUNCTION evil.rec(vector text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO evil.log VALUES (current_user, vector);
	RETURN true;
END $$;
CREATE FUNCTION evil.imm(vector text, n int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	PERFORM evil.rec(vector);
	RETURN n;
END $$;
CREATE FUNCTION evil.trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM evil.rec('trigger');
	RETURN NULL;
END $$;
CREATE FUNCTION evil.key_default() RETURNS uuid LANGUAGE plpgsql AS $$
BEGIN
	PERFORM evil.rec('key default');
	RETURN gen_random_uuid();
END $$;
-- a scattered table of 20,000 rows, 100 groups interleaved (about 300 pages)
CREATE PROCEDURE evil.fill(tbl regclass) LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('INSERT INTO %s (grp, seq) SELECT i %% 100, i FROM generate_series(0, 19999) i', tbl);
END $$;

CREATE TABLE evil.t_partial (grp int, seq int, pad text DEFAULT repeat('x', 80));
CALL evil.fill('evil.t_partial');
CREATE INDEX ON evil.t_partial (grp);
CREATE INDEX ON evil.t_partial (grp) WHERE evil.imm('partial-index predicate', 1) = 1;

CREATE TABLE evil.t_expr (grp int, seq int, pad text DEFAULT repeat('x', 80));
CALL evil.fill('evil.t_expr');
CREATE INDEX ON evil.t_expr (grp);
CREATE INDEX ON evil.t_expr ((grp + evil.imm('index expression', 0)));
CREATE INDEX ON evil.t_expr (seq, (grp + evil.imm('index expression, second column', 0)));

CREATE TABLE evil.t_stats (grp int, seq int, pad text DEFAULT repeat('x', 80));
CALL evil.fill('evil.t_stats');
CREATE INDEX ON evil.t_stats (grp);
CREATE STATISTICS evil.t_stats_expr ON (grp + evil.imm('expression statistics', 0)), seq FROM evil.t_stats;

CREATE TABLE evil.t_check (grp int CHECK (evil.imm('check constraint', 1) = 1), seq int,
						   pad text DEFAULT repeat('x', 80));
CALL evil.fill('evil.t_check');
CREATE INDEX ON evil.t_check (grp);

CREATE TABLE evil.t_generated (grp int, seq int, pad text DEFAULT repeat('x', 80),
							   g int GENERATED ALWAYS AS (grp + evil.imm('generated column', 0)) STORED);
CALL evil.fill('evil.t_generated');
CREATE INDEX ON evil.t_generated (grp);

CREATE TABLE evil.t_default (grp int, seq int,
							 pad text DEFAULT repeat('x', 80) || evil.rec('column default')::text);
CALL evil.fill('evil.t_default');
CREATE INDEX ON evil.t_default (grp);

CREATE TABLE evil.t_trigger (grp int, seq int, pad text DEFAULT repeat('x', 80));
CALL evil.fill('evil.t_trigger');
CREATE INDEX ON evil.t_trigger (grp);
CREATE TRIGGER t_row BEFORE INSERT OR UPDATE OR DELETE ON evil.t_trigger
	FOR EACH ROW EXECUTE FUNCTION evil.trg();
CREATE TRIGGER t_stmt AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON evil.t_trigger
	FOR EACH STATEMENT EXECUTE FUNCTION evil.trg();

CREATE TABLE evil.t_policy (grp int, seq int, pad text DEFAULT repeat('x', 80));
CALL evil.fill('evil.t_policy');
CREATE INDEX ON evil.t_policy (grp);
ALTER TABLE evil.t_policy ENABLE ROW LEVEL SECURITY;
ALTER TABLE evil.t_policy FORCE ROW LEVEL SECURITY;
CREATE POLICY p ON evil.t_policy USING (evil.rec('row-level security policy'));

CREATE DOMAIN evil.grp_domain AS int CHECK (evil.rec('domain check'));
CREATE TABLE evil.t_domain (grp evil.grp_domain, seq int, pad text DEFAULT repeat('x', 80));
CALL evil.fill('evil.t_domain');
CREATE INDEX ON evil.t_domain (grp);

-- a key type of the role's own, with a cast from text and an equality operator
CREATE TYPE evil.pair AS (a int, b int);
CREATE FUNCTION evil.pair_in(text) RETURNS evil.pair LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	PERFORM evil.rec('cast to the key type');
	RETURN ROW(1, 1)::evil.pair;
END $$;
CREATE CAST (text AS evil.pair) WITH FUNCTION evil.pair_in(text);
CREATE FUNCTION evil.pair_eq(evil.pair, evil.pair) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	PERFORM evil.rec('operator of the key type');
	RETURN true;
END $$;
CREATE OPERATOR evil.= (LEFTARG = evil.pair, RIGHTARG = evil.pair, FUNCTION = evil.pair_eq);
CREATE TABLE evil.t_composite (grp evil.pair, seq int, pad text DEFAULT repeat('x', 80));
INSERT INTO evil.t_composite (grp, seq) SELECT ROW(i % 100, 0)::evil.pair, i FROM generate_series(0, 19999) i;
CREATE INDEX ON evil.t_composite (grp);

CREATE MATERIALIZED VIEW evil.mv AS
	SELECT i % 100 AS grp, i AS seq, repeat('x', 80) AS pad, evil.rec('materialized view query') AS r
	  FROM generate_series(0, 19999) i;
CREATE INDEX ON evil.mv (grp);
CREATE VIEW evil.v AS SELECT grp, seq, evil.rec('view') AS r FROM evil.t_partial;
RESET ROLE;

-- children of another owner's tables: an inheritance child and a partition
-- owned by regress_evil, with an index expression and a policy
CREATE TABLE t_parent (grp int, seq int, pad text DEFAULT repeat('x', 80));
INSERT INTO t_parent (grp, seq) SELECT i % 100, i FROM generate_series(0, 19999) i;
CREATE INDEX ON t_parent (grp);
CREATE TABLE evil.t_child () INHERITS (t_parent);
ALTER TABLE evil.t_child OWNER TO regress_evil;
CREATE TABLE p_parent (grp int, seq int, pad text DEFAULT repeat('x', 80)) PARTITION BY RANGE (seq);
CREATE TABLE evil.p_child PARTITION OF p_parent FOR VALUES FROM (0) TO (100000);
ALTER TABLE evil.p_child OWNER TO regress_evil;
SET ROLE regress_evil;
CALL evil.fill('evil.t_child');
CREATE INDEX ON evil.t_child (grp);
CREATE INDEX ON evil.t_child ((grp + evil.imm('index expression of an inheritance child', 0)));
ALTER TABLE evil.t_child ENABLE ROW LEVEL SECURITY;
CREATE POLICY p ON evil.t_child USING (evil.rec('policy of an inheritance child'));
CALL evil.fill('evil.p_child');
CREATE INDEX ON evil.p_child (grp);
CREATE INDEX ON evil.p_child ((grp + evil.imm('index expression of a partition', 0)));

-- S1: a random key whose index writes full-page images after a checkpoint,
-- with an expression index and a default of the role's own
CREATE TABLE evil.t_s1 (id uuid PRIMARY KEY DEFAULT evil.key_default(), n int);
CREATE INDEX ON evil.t_s1 ((n + evil.imm('index expression of the S1 table', 0)));
INSERT INTO evil.t_s1 (n) SELECT g FROM generate_series(1, 50000) g;
-- the lure: everyone may read all of it
GRANT SELECT ON ALL TABLES IN SCHEMA evil TO PUBLIC;
RESET ROLE;
GRANT SELECT ON t_parent, p_parent TO PUBLIC;
ANALYZE t_parent, p_parent, evil.t_partial, evil.t_expr, evil.t_stats, evil.t_check, evil.t_generated,
	evil.t_default, evil.t_trigger, evil.t_policy, evil.t_domain, evil.t_composite, evil.mv,
	evil.t_child, evil.t_s1;
SELECT ordered_uuid_reset();
CHECKPOINT;
SET ROLE regress_evil;
INSERT INTO evil.t_s1 (n) SELECT g FROM generate_series(1, 10000) g;
RESET ROLE;
SELECT pg_temp.wait_wal(pg_current_wal_insert_lsn()) AS collector_read_it;
-- what the owner's own statements recorded is not the report's
TRUNCATE evil.log;

-- the report, as a superuser and as a plain role; the findings and rows about
-- the planted tables
CREATE FUNCTION pg_temp.planted_rows()
RETURNS TABLE (scenario text, relation regclass, finding text)
LANGUAGE sql AS $$
	SELECT scenario, relation, finding FROM write_path_report()
	 WHERE relation::text ~ '^(evil\.|t_parent|p_parent)'
	 ORDER BY relation::text COLLATE "C", scenario
$$;
SELECT * FROM pg_temp.planted_rows();
SET ROLE regress_owner_plain;
SELECT * FROM pg_temp.planted_rows();
-- and with the plain role's search_path where the owner's operators are
SET search_path = evil, public;
SELECT count(*) > 0 AS reported FROM public.write_path_report();
RESET search_path;
RESET ROLE;

-- nothing of the owner's ran
SELECT who, vector FROM evil.log ORDER BY 1, 2;

-- no lock is held past each table's read: in one transaction, after the
-- report, this session holds no lock on any of the tables it judged
BEGIN;
SELECT count(*) > 0 AS reported FROM write_path_report();
SELECT count(*) AS locks_still_held
  FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
 WHERE l.pid = pg_backend_pid() AND l.locktype = 'relation'
   AND (c.relnamespace = 'evil'::regnamespace OR c.relname ~ '^(t_parent|p_parent)');
COMMIT;

SET client_min_messages = warning;
DROP TABLE t_parent, p_parent CASCADE;
DROP SCHEMA evil CASCADE;
DROP ROLE regress_evil;
DROP ROLE regress_owner_plain;
