--
-- The collector: needs shared_preload_libraries = 'ordered_uuid'.  Without
-- it every function here raises SQLSTATE 55000
-- (object_not_in_prerequisite_state) with a hint naming
-- shared_preload_libraries.
--
-- Visibility: rows of a database the caller may not CONNECT to are shown
-- only to members of pg_read_all_stats (checked in C, so calling the
-- functions directly shows no more than the views).  ordered_uuid_reset()
-- is superuser-only, like pg_stat_statements_reset(): EXECUTE is revoked
-- from PUBLIC and may be granted by a superuser.

CREATE FUNCTION ordered_uuid_wait_profile(
	OUT database name, OUT backend_type text, OUT wait_event_type text,
	OUT wait_event text, OUT samples bigint, OUT est_time interval,
	OUT datid oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_wait_profile'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_wait_profile() IS
'the collector''s wait profile: samples per database, backend type and wait event (CPU = running, not waiting); the rows of the view wait_profile';

CREATE VIEW wait_profile AS
	SELECT database, backend_type, wait_event_type, wait_event, samples, est_time, datid
	  FROM @extschema@.ordered_uuid_wait_profile();

COMMENT ON VIEW wait_profile IS
'where every process spent its time since the last reset, sampled every ordered_uuid.sample_interval ms (est_time = samples x interval)';

CREATE FUNCTION ordered_uuid_extend_lock_stats(
	OUT relation regclass, OUT waits bigint, OUT samples bigint,
	OUT est_wait_time interval, OUT max_waiters integer,
	OUT last_wait timestamptz, OUT database name, OUT datid oid, OUT relid oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_extend_lock_stats'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_extend_lock_stats() IS
'the collector''s relation extension lock statistics per relation; the rows of the view extend_lock_stats';

CREATE VIEW extend_lock_stats AS
	SELECT relation, waits, samples, est_wait_time, max_waiters, last_wait, database, datid, relid
	  FROM @extschema@.ordered_uuid_extend_lock_stats();

COMMENT ON VIEW extend_lock_stats IS
'relation extension lock waits per relation since the last reset (relation is NULL for other databases and dropped relations: see datid, relid)';

CREATE FUNCTION ordered_uuid_index_split_stats(
	OUT index regclass, OUT leaf_splits bigint, OUT upper_splits bigint,
	OUT root_splits bigint, OUT database name, OUT datid oid,
	OUT tablespace oid, OUT relfilenode oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_index_split_stats'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_index_split_stats() IS
'the collector''s cumulative B-tree split counts per index, from following the WAL; the rows of the view index_split_stats';

CREATE VIEW index_split_stats AS
	SELECT index, leaf_splits, upper_splits, root_splits, database, datid, tablespace, relfilenode
	  FROM @extschema@.ordered_uuid_index_split_stats();

COMMENT ON VIEW index_split_stats IS
'B-tree page splits per index since the last reset (index is NULL for other databases and for relfilenodes that no longer map: see datid, relfilenode)';

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
	OUT wal_lag interval, OUT wal_retention text, OUT stats_restored boolean,
	OUT stats_saved_at timestamptz, OUT stats_start_reason text)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_collector_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION collector_info() IS
'the collector''s own state: worker pid, sampling rounds, entries used out of max_entries, samples dropped and entries evicted per table, split entries pruned with their dropped relations, WAL followed and skipped, state (running, recovery, stopped), how far behind the WAL it is, how it keeps the WAL it has not read, and whether its statistics go on from those saved at the last clean shutdown (and why not)';

CREATE FUNCTION ordered_uuid_reset()
RETURNS void
AS 'MODULE_PATHNAME', 'ordered_uuid_reset'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED
SUPPORT execute_privilege_support;

COMMENT ON FUNCTION ordered_uuid_reset() IS
'clear the collector''s statistics (wait_profile, wait_profile_detail, wait_history, extend_lock_stats, index_split_stats, relation_wal_stats and the dropped counters); superuser only unless granted';

REVOKE ALL ON FUNCTION ordered_uuid_reset() FROM PUBLIC;

-- readable by everyone, like pg_stat_activity (the rows are filtered in C)
GRANT SELECT ON wait_profile, extend_lock_stats, index_split_stats TO PUBLIC;

-- The optional parts (1.1.0): the detailed wait profile and the history.
-- New objects rather than new columns of wait_profile / collector_info(),
-- whose OUT columns could change only by DROP, breaking users' views on
-- them.  With their settings off they raise 55000 (collector_detail_info()
-- always answers).  A process whose wait event pg_stat_activity hides from
-- the caller (another role's, or one without a role, unless the caller is a
-- member of that role or of pg_read_all_stats) is folded into anonymous rows
-- of wait_profile_detail and left out of wait_history (in C).

CREATE FUNCTION ordered_uuid_wait_profile_detail(
	OUT database name, OUT backend_type text, OUT wait_event_type text,
	OUT wait_event text, OUT samples bigint, OUT est_time interval,
	OUT datid oid, OUT queryid bigint, OUT pid integer, OUT userid oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_wait_profile_detail'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_wait_profile_detail() IS
'the collector''s detailed wait profile: samples per database, backend type, wait event, role, and query id and pid when ordered_uuid.profile_queries / profile_pids are on; the rows of the view wait_profile_detail';

CREATE VIEW wait_profile_detail AS
	SELECT database, backend_type, wait_event_type, wait_event, samples, est_time, datid,
		   queryid, pid, userid
	  FROM @extschema@.ordered_uuid_wait_profile_detail();

COMMENT ON VIEW wait_profile_detail IS
'wait_profile per role, query id (joinable to pg_stat_statements.queryid) and process, as ordered_uuid.profile_queries and profile_pids ask at server start';

CREATE FUNCTION ordered_uuid_wait_history(
	OUT sample_time timestamptz, OUT pid integer, OUT database name,
	OUT backend_type text, OUT wait_event_type text, OUT wait_event text,
	OUT queryid bigint, OUT datid oid, OUT userid oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_wait_history'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_wait_history() IS
'the collector''s history ring: the last ordered_uuid.history_size samples, oldest first; the rows of the view wait_history';

CREATE VIEW wait_history AS
	SELECT sample_time, pid, database, backend_type, wait_event_type, wait_event, queryid,
		   datid, userid
	  FROM @extschema@.ordered_uuid_wait_history();

COMMENT ON VIEW wait_history IS
'the most recent samples of every process''s wait state (ordered_uuid.history_size of them), oldest first';

CREATE FUNCTION collector_detail_info(
	OUT profile_queries boolean, OUT profile_pids boolean,
	OUT detail_entries bigint, OUT detail_dropped bigint,
	OUT history_size integer, OUT history_entries bigint,
	OUT history_overwritten bigint, OUT detail_evicted bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_collector_detail_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION collector_detail_info() IS
'the collector''s optional parts: dimensions of the detailed wait profile, its entries, dropped samples and evicted entries, and the history ring''s size, samples held and samples overwritten since the last reset';

GRANT SELECT ON wait_profile_detail, wait_history TO PUBLIC;

-- The WAL per relation (1.4.0): which relation writes the WAL and its
-- full-page images, from the records the collector reads for the split
-- counts.  A record's bytes go to the relation of its first block reference;
-- relation_wal_info() holds what the rows add up to (1.5.2: with the counts
-- of the entries evicted, however many were).

CREATE FUNCTION ordered_uuid_relation_wal_stats(
	OUT relation regclass, OUT fork text, OUT records bigint,
	OUT wal_bytes bigint, OUT fpis bigint, OUT fpi_bytes bigint,
	OUT last_fpi timestamptz, OUT database name, OUT datid oid,
	OUT tablespace oid, OUT relfilenode oid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ordered_uuid_relation_wal_stats'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ordered_uuid_relation_wal_stats() IS
'the collector''s WAL per relation file and fork, from following the WAL; the rows of the view relation_wal_stats';

CREATE VIEW relation_wal_stats AS
	SELECT relation, fork, records, wal_bytes, fpis, fpi_bytes, last_fpi, database, datid,
		   tablespace, relfilenode
	  FROM @extschema@.ordered_uuid_relation_wal_stats();

COMMENT ON VIEW relation_wal_stats IS
'WAL records, WAL bytes (each record''s to the relation of its first block), full-page images and their bytes per relation and fork since the last reset (relation is NULL for other databases and for relfilenodes that no longer map: see datid, relfilenode)';

CREATE FUNCTION relation_wal_info(
	OUT wal_start pg_lsn, OUT wal_reached pg_lsn, OUT records bigint,
	OUT wal_bytes bigint, OUT fpis bigint, OUT fpi_bytes bigint,
	OUT no_block_records bigint, OUT no_block_bytes bigint,
	OUT pruned_records bigint, OUT pruned_bytes bigint,
	OUT pruned_fpis bigint, OUT pruned_fpi_bytes bigint,
	OUT entries bigint, OUT evicted bigint, OUT dropped_records bigint,
	OUT evicted_records bigint, OUT evicted_bytes bigint,
	OUT evicted_fpis bigint, OUT evicted_fpi_bytes bigint,
	OUT relation_records bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_relation_wal_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION relation_wal_info() IS
'the WAL the collector read since the last reset and how relation_wal_stats adds up to it: records without block references, counts pruned with their dropped relations and evicted for lack of room, entries used, evicted, records dropped, and the records as the rows count them (once per relation fork)';

GRANT SELECT ON relation_wal_stats TO PUBLIC;
