-- ordered_uuid 0.1.0 -> 1.0.0
--
-- Every SQL change since 0.1.0, so that ALTER EXTENSION ordered_uuid UPDATE
-- gives the same catalog as a fresh 1.0.0 install (checked by the upgrade
-- test, sql/upgrade.sql).  Never drops a generator: tables use them as
-- column defaults.

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ordered_uuid UPDATE TO '1.0.0'" to load this file. \quit

-- The collector's detailed wait profile and history ring (new objects: the
-- OUT columns of wait_profile's function and of collector_info() are left
-- as they are, so users' views on them keep working).
COMMENT ON FUNCTION ordered_uuid_reset() IS
'clear the collector''s statistics (wait_profile, wait_profile_detail, wait_history, extend_lock_stats, index_split_stats and the dropped counters); superuser only unless granted';

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
    OUT history_overwritten bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'ordered_uuid_collector_detail_info'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION collector_detail_info() IS
'the collector''s optional parts: dimensions of the detailed wait profile, its entries and dropped samples, and the history ring''s size, samples held and samples overwritten since the last reset';

GRANT SELECT ON wait_profile_detail, wait_history TO PUBLIC;
