--
-- pg_partman 5 with ordered_uuid keys: create_parent() with
-- uuid_time_encoder/uuid_time_decoder on a table whose key defaults to
-- uuid_striped_nextval() (and one to uuid_v7_nextval()), rows in the
-- partitions of their time, pruning, run_maintenance() and retention.
-- Partition names and times depend on today's date: only invariants are
-- printed.
--
SET client_min_messages = warning;
CREATE DATABASE peers_partman;
\c peers_partman
SET timezone = 'UTC';
CREATE SCHEMA ordered_uuid;
CREATE EXTENSION ordered_uuid SCHEMA ordered_uuid;
SET search_path = public, ordered_uuid;
CREATE SCHEMA partman;
CREATE EXTENSION pg_partman SCHEMA partman;

-- The recipe of doc/generators.md (its retention comes below): striped
-- keys, whose time is their block's start; backfilled version 7 keys of the
-- days before land in their days too
CREATE TABLE public.events (id uuid NOT NULL DEFAULT uuid_striped_nextval(), payload text) PARTITION BY RANGE (id);
CREATE INDEX ON public.events (id);
SELECT partman.create_parent(p_parent_table := 'public.events', p_control := 'id', p_interval := '1 day',
							 p_time_encoder := 'ordered_uuid.uuid_time_encoder',
							 p_time_decoder := 'ordered_uuid.uuid_time_decoder');
INSERT INTO events (payload) SELECT 'now' FROM generate_series(1, 100);
INSERT INTO events (id, payload)
SELECT uuid_v7_from_time(now() - d * interval '1 day'), d || ' days ago' FROM generate_series(1, 3) d, generate_series(1, 10);
ANALYZE events;

-- The same with version 7 keys
CREATE TABLE public.sessions (id uuid NOT NULL DEFAULT uuid_v7_nextval(), payload text) PARTITION BY RANGE (id);
SELECT partman.create_parent(p_parent_table := 'public.sessions', p_control := 'id', p_interval := '1 day',
							 p_time_encoder := 'ordered_uuid.uuid_time_encoder',
							 p_time_decoder := 'ordered_uuid.uuid_time_decoder');
INSERT INTO sessions (payload) SELECT 'now' FROM generate_series(1, 100);

-- The partitions: four days back, today, four ahead, whole days, each bound
-- uuid_v7_min of a midnight (the decoder reads the bounds back)
CREATE FUNCTION pg_temp.parts(parent text)
RETURNS TABLE (relid regclass, starts timestamptz, ends timestamptz, bound text) LANGUAGE sql AS $$
	SELECT format('%I.%I', p.partition_schemaname, p.partition_tablename)::regclass,
		   (partman.show_partition_info(format('%I.%I', p.partition_schemaname, p.partition_tablename))).child_start_time,
		   (partman.show_partition_info(format('%I.%I', p.partition_schemaname, p.partition_tablename))).child_end_time,
		   pg_get_expr(c.relpartbound, c.oid)
	  FROM partman.show_partitions(parent) p
	  JOIN pg_class c ON c.oid = format('%I.%I', p.partition_schemaname, p.partition_tablename)::regclass
$$;
SELECT parent, count(*) AS partitions,
	   count(*) FILTER (WHERE starts = date_trunc('day', starts) AND ends = starts + interval '1 day') AS whole_days,
	   min(starts) = date_trunc('day', now()) - interval '4 days' AS first_is_4_days_back,
	   max(starts) = date_trunc('day', now()) + interval '4 days' AS last_is_4_days_ahead,
	   count(*) FILTER (WHERE bound <> format('FOR VALUES FROM (%L) TO (%L)', uuid_v7_min(starts), uuid_v7_min(ends))) AS bounds_not_v7_min
  FROM (VALUES ('public.events'), ('public.sessions')) v(parent), pg_temp.parts(parent)
 GROUP BY parent ORDER BY parent;

-- Every row in the partition of its time, none in the default partition
SELECT 'events' AS t, count(*) AS keys,
	   count(*) FILTER (WHERE uuid_time(e.id) >= p.starts AND uuid_time(e.id) < p.ends) AS in_their_day
  FROM events e JOIN pg_temp.parts('public.events') p ON p.relid = e.tableoid
UNION ALL
SELECT 'sessions', count(*), count(*) FILTER (WHERE uuid_time(s.id) >= p.starts AND uuid_time(s.id) < p.ends)
  FROM sessions s JOIN pg_temp.parts('public.sessions') p ON p.relid = s.tableoid;
SELECT (SELECT count(*) FROM events_default) AS events_default, (SELECT count(*) FROM sessions_default) AS sessions_default;

-- Pruning: id <@ times alone scans every partition; with the bounds of the
-- range, only today's, when the executor starts (the range is relative to
-- now())
CREATE FUNCTION pg_temp.scans(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	scanned int := 0;
	removed text := '0';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF line ~ 'Scan on events_' AND line !~ 'Bitmap Index' THEN
			scanned := scanned + 1;
		END IF;
		IF line ~ 'Subplans Removed' THEN
			removed := substring(line FROM '[0-9]+');
		END IF;
	END LOOP;
	RETURN format('%s partitions scanned, %s removed', scanned, removed);
END $$;
SELECT pg_temp.scans($$SELECT count(*) FROM events
	WHERE id <@ tstzrange(date_trunc('day', now()), date_trunc('day', now()) + interval '1 day')$$) AS operator_alone;
SELECT pg_temp.scans($$SELECT count(*) FROM events
	WHERE id <@ tstzrange(date_trunc('day', now()), date_trunc('day', now()) + interval '1 day')
	  AND id >= uuid_time_range_lower(tstzrange(date_trunc('day', now()), date_trunc('day', now()) + interval '1 day'))
	  AND id < uuid_time_range_upper(tstzrange(date_trunc('day', now()), date_trunc('day', now()) + interval '1 day'))$$) AS with_bounds;
SELECT count(*) AS todays_rows FROM events
 WHERE id <@ tstzrange(date_trunc('day', now()), date_trunc('day', now()) + interval '1 day')
   AND id >= uuid_time_range_lower(tstzrange(date_trunc('day', now()), date_trunc('day', now()) + interval '1 day'))
   AND id < uuid_time_range_upper(tstzrange(date_trunc('day', now()), date_trunc('day', now()) + interval '1 day'));

-- Maintenance and retention: partitions that ended more than 2 days ago go,
-- with their rows
SELECT partman.run_maintenance('public.events');
UPDATE partman.part_config SET retention = '2 days', retention_keep_table = false WHERE parent_table = 'public.events';
SELECT partman.run_maintenance('public.events');
SELECT count(*) AS partitions, min(starts) = date_trunc('day', now()) - interval '2 days' AS first_is_2_days_back,
	   max(starts) = date_trunc('day', now()) + interval '4 days' AS last_is_4_days_ahead
  FROM pg_temp.parts('public.events');
SELECT count(*) AS rows_left, count(*) FILTER (WHERE uuid_time(id) < date_trunc('day', now()) - interval '2 days') AS older_left
  FROM events;

\c regression
DROP DATABASE peers_partman;
