--
-- Benchmarks against a hostile role in the same database: search_path and
-- operator hijacks, connection limits, leftovers of dead runs, faults,
-- resource limits.  Runs in databases of its own (it changes database
-- settings).  Only booleans, counts and SQLSTATEs are printed.  Runs that are
-- cancelled or terminated midway are specs/bench_interrupts.spec.
--
SELECT pg_catalog.current_database() AS origdb \gset
CREATE ROLE regress_sec_owner LOGIN;
CREATE ROLE regress_sec_lim1 LOGIN CONNECTION LIMIT 1;
CREATE ROLE regress_sec_lim0 LOGIN CONNECTION LIMIT 0;
CREATE DATABASE regress_ou_attack OWNER regress_sec_owner;
GRANT CREATE ON DATABASE regress_ou_attack TO regress_sec_lim1, regress_sec_lim0;
\c regress_ou_attack
CREATE EXTENSION ordered_uuid;
-- the benchmarks are not PUBLIC's: let the test's roles run them, and lift
-- the server-wide cap
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO PUBLIC;
ALTER DATABASE regress_ou_attack SET ordered_uuid.bench_max_workers = 1000;
CREATE EXTENSION dblink;

-- 1. The database owner (not a superuser) plants operators and functions
-- that make whoever calls them a superuser's accomplice, and puts them
-- first on the database's default search_path.  (Roles are switched with
-- SET SESSION AUTHORIZATION, never by connecting as them: the suite runs on
-- servers whose local connections use peer authentication.)
SET SESSION AUTHORIZATION regress_sec_owner;
CREATE SCHEMA m;
GRANT USAGE ON SCHEMA m TO PUBLIC;
CREATE TABLE m.calls (fn text, who name);
GRANT ALL ON m.calls TO PUBLIC;
CREATE FUNCTION m.escalate(fn text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO m.calls VALUES (fn, current_user);
	IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user) THEN
		EXECUTE 'ALTER ROLE regress_sec_owner SUPERUSER';
	END IF;
END $$;
CREATE FUNCTION m.eq_char("char", "char") RETURNS bool LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('= "char"'); RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE FUNCTION m.eq_name(name, name) RETURNS bool LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('= name'); RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE FUNCTION m.eq_name_text(name, text) RETURNS bool LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('= name text'); RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE FUNCTION m.eq_text(text, text) RETURNS bool LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('= text'); RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE FUNCTION m.eq_oid(oid, oid) RETURNS bool LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('= oid'); RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE FUNCTION m.ne_char("char", "char") RETURNS bool LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('<> "char"'); RETURN $1 OPERATOR(pg_catalog.<>) $2; END $$;
CREATE OPERATOR m.= (LEFTARG = "char", RIGHTARG = "char", FUNCTION = m.eq_char);
CREATE OPERATOR m.= (LEFTARG = name, RIGHTARG = name, FUNCTION = m.eq_name);
CREATE OPERATOR m.= (LEFTARG = name, RIGHTARG = text, FUNCTION = m.eq_name_text);
CREATE OPERATOR m.= (LEFTARG = text, RIGHTARG = text, FUNCTION = m.eq_text);
CREATE OPERATOR m.= (LEFTARG = oid, RIGHTARG = oid, FUNCTION = m.eq_oid);
CREATE OPERATOR m.<> (LEFTARG = "char", RIGHTARG = "char", FUNCTION = m.ne_char);
-- functions shadowing ones the extension calls
CREATE FUNCTION m.starts_with(text, text) RETURNS bool LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('starts_with'); RETURN pg_catalog.starts_with($1, $2); END $$;
CREATE FUNCTION m.pg_has_role(oid, text) RETURNS bool LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('pg_has_role'); RETURN pg_catalog.pg_has_role($1, $2); END $$;
CREATE FUNCTION m.pg_relation_size(regclass) RETURNS bigint LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('pg_relation_size'); RETURN pg_catalog.pg_relation_size($1); END $$;
CREATE FUNCTION m.repeat(text, integer) RETURNS text LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('repeat'); RETURN pg_catalog.repeat($1, $2); END $$;
CREATE FUNCTION m.generate_series(integer, bigint) RETURNS SETOF bigint LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('generate_series'); RETURN QUERY SELECT pg_catalog.generate_series($1::bigint, $2); END $$;
CREATE FUNCTION m.nextval(regclass) RETURNS bigint LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('nextval'); RETURN pg_catalog.nextval($1); END $$;
CREATE FUNCTION m.index_shape(regclass) RETURNS TABLE (leaf_pages bigint, avg_leaf_density float8) LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('index_shape'); RETURN QUERY SELECT 1::bigint, 1::float8; END $$;
-- ... and those bench_locality's reads and counts call
CREATE FUNCTION m.length(text) RETURNS integer LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('length'); RETURN pg_catalog.length($1); END $$;
CREATE FUNCTION m.pg_stat_get_xact_blocks_fetched(oid) RETURNS bigint LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('pg_stat_get_xact_blocks_fetched'); RETURN 0; END $$;
CREATE FUNCTION m.eq_int48(integer, bigint) RETURNS bool LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('= int4 int8'); RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE FUNCTION m.mod_int8(bigint, bigint) RETURNS bigint LANGUAGE plpgsql AS
$$ BEGIN PERFORM m.escalate('% int8'); RETURN $1 OPERATOR(pg_catalog.%) $2; END $$;
CREATE OPERATOR m.= (LEFTARG = integer, RIGHTARG = bigint, FUNCTION = m.eq_int48);
CREATE OPERATOR m.% (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = m.mod_int8);
ALTER DATABASE regress_ou_attack SET search_path = m, pg_catalog, public;
RESET SESSION AUTHORIZATION;

-- A superuser connects (the database's settings apply to its session and
-- to every background worker), sets a safe search_path of its own, and
-- runs every benchmark, once cancelled by statement_timeout so that the
-- clean-up worker runs too.
\c regress_ou_attack
SHOW search_path;
SET search_path = pg_catalog, public;
\i sql/include/err.sql
SELECT generator, rows FROM public.bench_insert(ARRAY['uuid_v7_nextval()', 'uuid_sequence_nextval($seq)', 'bigint'],
												rows => 200, clients => 2, prefill => 100);
SELECT rows FROM public.bench_bulk_load(2, 500, 100);
SELECT tables, rows FROM public.bench_multi_table(3, 2, 30);
SELECT variant, scan, rows_per_group FROM public.bench_locality(groups => 20, rows_per_group => 5, clients => 2,
																sample_groups => 5) ORDER BY variant;
SET statement_timeout = '1s';
SELECT rows FROM public.bench_insert(ARRAY['gen_random_uuid()'], rows => 1000000000, clients => 2);
RESET statement_timeout;
-- at most the cancelled run's schema was left to drop
SELECT public.bench_cleanup() BETWEEN 0 AND 1 AS cleanup_ran;
-- nothing of the owner's was called, and the owner is no superuser
SELECT count(*) AS hostile_calls FROM m.calls;
SELECT rolsuper AS owner_is_superuser FROM pg_roles WHERE rolname = 'regress_sec_owner';
SELECT count(*) AS scratch_schemas FROM pg_namespace WHERE nspname LIKE 'ordered\_uuid\_%';

-- 2. Connection limits count the workers: existing sessions + clients.
SET ROLE regress_sec_lim1;
SELECT pg_temp.err($$SELECT public.bench_insert(ARRAY['bigint'], 10, clients => 2)$$);
SELECT generator, rows FROM public.bench_insert(ARRAY['bigint'], 10, clients => 1);
RESET ROLE;
SET ROLE regress_sec_lim0;
SELECT pg_temp.err($$SELECT public.bench_insert(ARRAY['bigint'], 10)$$);
SELECT pg_temp.err($$SELECT public.bench_cleanup()$$);
RESET ROLE;
-- the database's limit: this session is one of its connections
ALTER DATABASE regress_ou_attack CONNECTION LIMIT 1;
SET ROLE regress_sec_lim1;
SELECT pg_temp.err($$SELECT public.bench_insert(ARRAY['bigint'], 10)$$);
RESET ROLE;
ALTER DATABASE regress_ou_attack CONNECTION LIMIT -1;
-- superusers are exempt, as when they connect
ALTER ROLE CURRENT_USER CONNECTION LIMIT 0;
SELECT generator, rows FROM public.bench_insert(ARRAY['bigint'], 10, clients => 2);
ALTER ROLE CURRENT_USER CONNECTION LIMIT -1;

-- 3. Leftovers of dead runs: a run schema whose leader is gone is dropped
-- by bench_cleanup() or the next benchmark, by a role that may drop it;
-- kept runs and what a run did not create are never dropped.
CREATE SCHEMA ordered_uuid_run_00000000000000aa;
CREATE TABLE ordered_uuid_run_00000000000000aa.g1_t (id uuid PRIMARY KEY);
CREATE SEQUENCE ordered_uuid_run_00000000000000aa.g1_s;
CREATE SCHEMA ordered_uuid_kept_00000000000000bb;
CREATE TABLE ordered_uuid_kept_00000000000000bb.g1_t (id uuid);
CREATE SCHEMA ordered_uuid_run_00000000000000cc AUTHORIZATION regress_sec_lim1;
SET ROLE regress_sec_lim1;
CREATE TABLE ordered_uuid_run_00000000000000cc.t (id bigint);
RESET ROLE;
CREATE SCHEMA ordered_uuid_run_00000000000000dd;
CREATE TABLE ordered_uuid_run_00000000000000dd.t (id bigint);
CREATE VIEW ordered_uuid_run_00000000000000dd.v AS SELECT id FROM ordered_uuid_run_00000000000000dd.t;
CREATE SCHEMA ordered_uuid_run_00000000000000ee;
CREATE TABLE ordered_uuid_run_00000000000000ee.t (id bigint);
-- she may drop only her own
SET ROLE regress_sec_lim1;
SELECT public.bench_cleanup() AS dropped_by_her;
RESET ROLE;
SELECT public.bench_cleanup() AS dropped_by_superuser;
SELECT nspname FROM pg_namespace WHERE nspname LIKE 'ordered\_uuid\_%' ORDER BY 1;
SELECT count(*) AS tables_left FROM pg_class
 WHERE relnamespace = 'ordered_uuid_run_00000000000000dd'::regnamespace AND relkind = 'r';
-- the next benchmark drops them too
CREATE SCHEMA ordered_uuid_run_00000000000000ff;
CREATE TABLE ordered_uuid_run_00000000000000ff.t (id bigint);
SELECT generator, rows FROM public.bench_insert(ARRAY['bigint'], 10);
SELECT nspname FROM pg_namespace WHERE nspname LIKE 'ordered\_uuid\_%' ORDER BY 1;
SET client_min_messages = warning;
DROP SCHEMA ordered_uuid_run_00000000000000dd CASCADE;
DROP SCHEMA ordered_uuid_kept_00000000000000bb CASCADE;
RESET client_min_messages;

-- 4. Limits on what one call may ask for: generator text is capped, and
-- $seq expansion cannot overflow the run's shared memory.
SELECT pg_temp.err(format('SELECT public.bench_insert(ARRAY[%L], 10)', 'uuid_v7_nextval()' || repeat(' ', 8200)));
SELECT generator = 'uuid_sequence_nextval(coalesce(' || repeat('$seq, ', 1300) || '$seq))' AS long_generator, rows
  FROM public.bench_insert(ARRAY['uuid_sequence_nextval(coalesce(' || repeat('$seq, ', 1300) || '$seq))'], 10);

-- 5. No memory left behind by failing calls (a long search_path, a worker
-- error after the run started).
SET search_path = pg_catalog, public, a0123456789012345678901234567890123456789, b0123456789012345678901234567890123456789,
	c0123456789012345678901234567890123456789, d0123456789012345678901234567890123456789, e0123456789012345678901234567890123456789,
	f0123456789012345678901234567890123456789, g0123456789012345678901234567890123456789, h0123456789012345678901234567890123456789,
	i0123456789012345678901234567890123456789, j0123456789012345678901234567890123456789, k0123456789012345678901234567890123456789,
	l0123456789012345678901234567890123456789, m0123456789012345678901234567890123456789, n0123456789012345678901234567890123456789,
	o0123456789012345678901234567890123456789, p0123456789012345678901234567890123456789, q0123456789012345678901234567890123456789,
	r0123456789012345678901234567890123456789, s0123456789012345678901234567890123456789, t0123456789012345678901234567890123456789,
	u0123456789012345678901234567890123456789, v0123456789012345678901234567890123456789, w0123456789012345678901234567890123456789,
	x0123456789012345678901234567890123456789, y0123456789012345678901234567890123456789, z0123456789012345678901234567890123456789;
SELECT length(current_setting('search_path')) > 1024 AS long_search_path;
CREATE FUNCTION pg_temp.fail_n(n int) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1..n LOOP
		PERFORM pg_temp.err($q$SELECT public.bench_insert(ARRAY['(1/0)::text::uuid'], 1, prefill => 1)$q$);
	END LOOP;
	RETURN (SELECT used_bytes FROM pg_backend_memory_contexts WHERE name = 'TopMemoryContext');
END $$;
SELECT pg_temp.err($q$SELECT public.bench_insert(ARRAY['(1/0)::text::uuid'], 1, prefill => 1)$q$);
SELECT pg_temp.fail_n(5) AS before \gset
SELECT pg_temp.fail_n(100) - :before < 8192 AS no_leak;
RESET search_path;

-- 6. The database's settings reach every new session, the workers' too (a
-- read-only default set while a run goes is in specs/bench_interrupts.spec).
SET search_path = pg_catalog, public;
-- A "role" the database owner sets does not make a superuser's workers act
-- as the owner: they are the caller, who has SET ROLE NONE.
SET SESSION AUTHORIZATION regress_sec_owner;
ALTER DATABASE regress_ou_attack SET role = 'regress_sec_owner';
RESET SESSION AUTHORIZATION;
\c regress_ou_attack
SET search_path = pg_catalog, public;
SELECT current_user = 'regress_sec_owner' AS owner_at_login;
SET ROLE NONE;
SET client_min_messages = warning;
SELECT count(*) AS variants FROM public.bench_locality(10, 5, clients => 1, sample_groups => 2, keep => true);
RESET client_min_messages;
SELECT count(*) AS kept, bool_and(n.nspowner = r.oid) AS owned_by_caller,
	   bool_and(NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid AND c.relowner <> r.oid))
	   AS tables_owned_by_caller
  FROM pg_namespace n, pg_roles r
 WHERE n.nspname LIKE 'ordered\_uuid\_kept\_%' AND r.rolname = current_user;
ALTER DATABASE regress_ou_attack RESET role;
SET client_min_messages = warning;
DO $$ BEGIN EXECUTE (SELECT string_agg(format('DROP SCHEMA %I CASCADE', nspname), '; ')
					  FROM pg_namespace WHERE nspname LIKE 'ordered\_uuid\_kept\_%'); END $$;
RESET client_min_messages;
SELECT count(*) AS hostile_calls_at_end FROM m.calls;

-- 7. A schema named like a run's but another role's: a superuser's benchmark
-- leaves it alone (a run drops its own role's dead runs only), and locks
-- held in it delay neither that run nor bench_cleanup(), which skips the
-- whole schema, with one WARNING, at the first table it cannot lock within
-- a second (the statement_timeouts turn a longer wait into a failure here:
-- a second for each of the eight locked tables would be too long).
\c regress_ou_attack
CREATE SCHEMA ordered_uuid_run_00000000000000ab AUTHORIZATION regress_sec_lim1;
SET ROLE regress_sec_lim1;
SELECT format('CREATE TABLE ordered_uuid_run_00000000000000ab.t%s (i int)', g)
  FROM generate_series(1, 8) g \gexec
RESET ROLE;
-- (the locker connects as this superuser, whom peer authentication lets in,
-- and becomes her)
SELECT format('host=%s port=%s dbname=%s user=%s', current_setting('unix_socket_directories'),
			  current_setting('port'), current_database(), current_user) AS lockconn \gset
SELECT dblink_connect('locker', :'lockconn');
SELECT dblink_exec('locker', 'SET SESSION AUTHORIZATION regress_sec_lim1');
SELECT dblink_exec('locker', 'BEGIN');
SELECT dblink_exec('locker', format('LOCK TABLE ordered_uuid_run_00000000000000ab.t%s IN ACCESS SHARE MODE', g))
  FROM generate_series(1, 8) g;
SET statement_timeout = '30s';
SET client_min_messages = error;
SELECT generator, rows FROM public.bench_insert(ARRAY['bigint'], 10);
SET client_min_messages = warning;
SET statement_timeout = '6s';
-- (its detail names the locks and the locker's process id: not printed)
\set VERBOSITY terse
SELECT public.bench_cleanup() AS dropped_while_locked;
\set VERBOSITY default
RESET client_min_messages;
RESET statement_timeout;
SELECT count(*) AS decoy_tables_left FROM pg_class
 WHERE relnamespace = 'ordered_uuid_run_00000000000000ab'::regnamespace;
SELECT dblink_exec('locker', 'COMMIT');
SELECT dblink_disconnect('locker');
-- bench_cleanup() drops the dead runs of every role whose privileges the
-- caller has, as documented
SELECT public.bench_cleanup() AS dropped_once_unlocked;
SELECT count(*) AS run_schemas_left FROM pg_namespace WHERE nspname LIKE 'ordered\_uuid\_%';

-- 8. A lock held on a run's own scratch table while the run drops it: each
-- drop of the table waits ordered_uuid.bench_lock_timeout, then skips the
-- schema; the run says so with one WARNING, not one per drop (only the
-- SQLSTATE is printed: the message names the run's schema).  The run's
-- generator waits for an advisory lock that the holder releases once it
-- holds the table's lock, so that the table exists when it is locked.
CREATE FUNCTION public.gated_key() RETURNS uuid LANGUAGE sql VOLATILE AS
	'SELECT pg_advisory_lock_shared(4713); SELECT pg_advisory_unlock_shared(4713); SELECT gen_random_uuid()';
CREATE FUNCTION public.hold_scratch_table() RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	t regclass;
BEGIN
	FOR i IN 1 .. 1200 LOOP
		EXIT WHEN EXISTS (SELECT FROM pg_locks WHERE locktype = 'advisory' AND objid = 4713
							 AND mode = 'ShareLock' AND NOT granted);
		PERFORM pg_sleep(0.05);
	END LOOP;
	SELECT c.oid INTO t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	 WHERE n.nspname LIKE 'ordered\_uuid\_run\_%' AND c.relname = 'g1_t';
	EXECUTE format('LOCK TABLE %s IN ACCESS SHARE MODE', t);
	PERFORM pg_advisory_unlock(4713);
	RETURN t IS NOT NULL;
END $$;
SELECT dblink_connect('holder', :'lockconn');
SELECT gate FROM dblink('holder', 'SELECT pg_advisory_lock(4713) IS NOT NULL') AS r(gate bool);
SELECT dblink_exec('holder', 'BEGIN');
SELECT dblink_send_query('holder', 'SELECT public.hold_scratch_table()');
SET ordered_uuid.bench_lock_timeout = '1s';
SET client_min_messages = warning;
\set VERBOSITY sqlstate
SELECT generator, rows FROM public.bench_insert(ARRAY['public.gated_key()'], 4);
\set VERBOSITY default
RESET client_min_messages;
RESET ordered_uuid.bench_lock_timeout;
SELECT held AS table_was_held FROM dblink_get_result('holder') AS r(held bool);
SELECT count(*) AS no_more_results FROM dblink_get_result('holder') AS r(held bool);
SELECT dblink_exec('holder', 'COMMIT');
SELECT dblink_disconnect('holder');
SELECT public.bench_cleanup() AS dropped_once_released;
SELECT count(*) AS run_schemas_left FROM pg_namespace WHERE nspname LIKE 'ordered\_uuid\_%';

\c :"origdb"
DROP DATABASE regress_ou_attack;
DROP ROLE regress_sec_owner, regress_sec_lim1, regress_sec_lim0;
