-- ordered_uuid 1.2.0 -> 1.3.0
--
-- The same changes as in extension/*.sql; the upgrade test (sql/upgrade.sql)
-- checks that the catalog becomes that of a fresh install.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.3.0'" to load this file. \quit

-- Collector: collector_info() says how far behind the WAL the collector is
-- (wal_lag_bytes, wal_lag) and how it keeps the WAL it has not read
-- (wal_retention).  New OUT columns change the result type, so the function
-- is dropped and created again: a view of one's own on it must be dropped
-- before the update and created after it, which the error says (DROP ...
-- CASCADE, core's hint, does not apply to an update).  It comes first, so
-- that an update that stops here has said nothing else.
DO $$
DECLARE
	msg text;
	detail text;
BEGIN
	DROP FUNCTION collector_info();
EXCEPTION WHEN dependent_objects_still_exist THEN
	GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
	RAISE EXCEPTION USING ERRCODE = 'dependent_objects_still_exist', MESSAGE = msg, DETAIL = detail,
		HINT = 'This update drops collector_info() and creates it again with new result columns: drop the objects that depend on it, run ALTER EXTENSION ordered_uuid UPDATE, then create them again.';
END $$;

CREATE FUNCTION collector_info(
	OUT worker_pid integer, OUT worker_started timestamptz,
	OUT stats_reset timestamptz, OUT rounds bigint, OUT max_entries integer,
	OUT profile_entries bigint, OUT profile_dropped bigint,
	OUT extend_entries bigint, OUT extend_dropped bigint,
	OUT split_entries bigint, OUT split_dropped bigint,
	OUT wal_start pg_lsn, OUT wal_reached pg_lsn, OUT wal_records bigint,
	OUT wal_skipped_bytes bigint, OUT profile_evicted bigint,
	OUT extend_evicted bigint, OUT split_evicted bigint,
	OUT split_pruned bigint, OUT state text, OUT wal_lag_bytes bigint,
	OUT wal_lag interval, OUT wal_retention text)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_collector_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION collector_info() IS
'the collector''s own state: worker pid, sampling rounds, entries used out of max_entries, samples dropped and entries evicted per table, split entries pruned with their dropped relations, WAL followed and skipped, state (running, recovery, stopped), how far behind the WAL it is, and how it keeps the WAL it has not read';

-- Benchmarks: bench_insert takes repeats (interleaved repetitions of every
-- generator) and reports their spread in new columns.  The new argument
-- changes its signature: the new function is created beside the old one,
-- which is dropped last, and the EXECUTE privileges granted on it go with it.
-- Granting them again here would record them as the extension's own
-- (pg_init_privs), and pg_dump would then leave them out; instead a WARNING
-- names the grantees and the GRANT statements that restore them (WITH GRANT
-- OPTION where the grant had it).  It is the update's last statement, so that
-- an update that fails before it says nothing of privileges.
ALTER TYPE bench_insert_result
	ADD ATTRIBUTE runs int,
	ADD ATTRIBUTE rows_per_sec_min float8,
	ADD ATTRIBUTE rows_per_sec_max float8,
	ADD ATTRIBUTE seconds_min float8,
	ADD ATTRIBUTE seconds_max float8,
	ADD ATTRIBUTE rows_per_sec_runs float8[],
	ADD ATTRIBUTE run_order int[];

CREATE FUNCTION bench_insert(
	generators text[] DEFAULT ARRAY['uuid_v7_nextval()', 'uuid_time_nextval()',
									'uuid_sequence_nextval($seq)', 'gen_random_uuid()', 'bigint'],
	rows bigint DEFAULT 1000000,
	clients int DEFAULT 1,
	rows_per_xact int DEFAULT 1000,
	prefill bigint DEFAULT 0,
	unlogged bool DEFAULT false,
	keep bool DEFAULT false,
	repeats int DEFAULT 1)
RETURNS SETOF bench_insert_result
AS 'MODULE_PATHNAME', 'bench_insert'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool, int) IS
'inserts rows into a fresh table per primary-key generator ($seq = a scratch sequence, bigint = a bigint sequence) and reports rows/s, WAL and full-page images per row, leaf splits, index size and leaf density; with repeats, each generator runs that many times, interleaved with the others, and the figures are medians with the minimum and maximum of rows/s and seconds (scenario S1 of the documentation, doc/scenarios.md)';

REVOKE ALL ON FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool, int) FROM PUBLIC;

DO $$
DECLARE
	grantees text;
	grants text;
	msg text;
	detail text;
BEGIN
	SELECT pg_catalog.string_agg(CASE WHEN a.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
									  ELSE pg_catalog.quote_ident(r.rolname) END,
								 ', ' ORDER BY r.rolname COLLATE pg_catalog."C"),
		   pg_catalog.string_agg(pg_catalog.format('GRANT EXECUTE ON FUNCTION %s.bench_insert(text[], bigint, int, int, bigint, bool, bool, int) TO %s%s;',
												   p.pronamespace::pg_catalog.regnamespace,
												   CASE WHEN a.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
														ELSE pg_catalog.quote_ident(r.rolname) END,
												   CASE WHEN a.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END),
								 ' ' ORDER BY r.rolname COLLATE pg_catalog."C")
	  INTO grantees, grants
	  FROM pg_catalog.pg_extension e
	  JOIN pg_catalog.pg_depend d
		ON d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
	   AND d.refobjid OPERATOR(pg_catalog.=) e.oid
	   AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
	   AND d.deptype OPERATOR(pg_catalog.=) 'e'
	  JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
	 CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
	  LEFT JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) a.grantee
	 WHERE e.extname OPERATOR(pg_catalog.=) 'ordered_uuid'
	   AND p.proname OPERATOR(pg_catalog.=) 'bench_insert'
	   AND p.pronargs OPERATOR(pg_catalog.=) 7
	   AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
	   AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE';
	BEGIN
		DROP FUNCTION bench_insert(text[], bigint, int, int, bigint, bool, bool);
	EXCEPTION WHEN dependent_objects_still_exist THEN
		GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
		RAISE EXCEPTION USING ERRCODE = 'dependent_objects_still_exist', MESSAGE = msg, DETAIL = detail,
			HINT = 'This update drops bench_insert(text[], bigint, int, int, bigint, bool, bool), whose arguments change: drop the objects that depend on it, run ALTER EXTENSION ordered_uuid UPDATE, then create them again on the new bench_insert().';
	END;
	IF grantees IS NOT NULL THEN
		RAISE WARNING 'this update dropped the privileges granted on bench_insert(), whose arguments changed'
			USING DETAIL = pg_catalog.format('EXECUTE had been granted to %s.', grantees),
				  HINT = pg_catalog.format('Grant it again: %s', grants);
	END IF;
END $$;
