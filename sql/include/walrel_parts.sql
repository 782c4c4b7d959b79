--
-- The WAL per relation and what it adds up to (sql/collector_walrel.sql and
-- collector_limits.sql include this file after walrel_blocks.sql):
-- pg_temp.snapshot() takes a consistent copy of relation_wal_stats (snap)
-- and relation_wal_info() (snap_info); pg_temp.parts() checks the copy.
--

-- A consistent copy of the view and the totals: the worker adds a slice
-- under its lock, so two reads of wal_reached that agree enclose a copy of
-- the same WAL.
CREATE TEMP TABLE snap AS SELECT * FROM relation_wal_stats WHERE false;
CREATE TEMP TABLE snap_info AS SELECT * FROM relation_wal_info() WHERE false;
CREATE FUNCTION pg_temp.snapshot() RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	r0 pg_lsn;
BEGIN
	FOR i IN 1..300 LOOP
		TRUNCATE snap, snap_info;
		r0 := (SELECT wal_reached FROM relation_wal_info());
		INSERT INTO snap SELECT * FROM relation_wal_stats;
		INSERT INTO snap_info SELECT * FROM relation_wal_info();
		IF (SELECT wal_reached FROM snap_info) = r0 THEN
			RETURN true;
		END IF;
		PERFORM pg_sleep(0.05);
	END LOOP;
	RETURN false;
END $$;

-- parts_add_up: the rows, plus the records without block references, plus
-- the counts pruned and evicted, equal the totals of the WAL read, for the
-- records as the rows count them (relation_records), the bytes, the
-- full-page images and their bytes.  read_equal: those totals and the
-- records read equal pg_walinspect's over the same WAL: its records and
-- their length, its images and their length, its block references counted
-- once per record and relation fork plus its records without one (on PG14,
-- which has no pg_walinspect, true).
CREATE FUNCTION pg_temp.parts(OUT parts_add_up bool, OUT read_equal bool) LANGUAGE sql AS $$
	SELECT (SELECT (coalesce(sum(s.records), 0) + i.no_block_records + i.pruned_records + i.evicted_records,
					coalesce(sum(s.wal_bytes), 0) + i.no_block_bytes + i.pruned_bytes + i.evicted_bytes,
					coalesce(sum(s.fpis), 0) + i.pruned_fpis + i.evicted_fpis,
					coalesce(sum(s.fpi_bytes), 0) + i.pruned_fpi_bytes + i.evicted_fpi_bytes)
				   = (i.relation_records, i.wal_bytes, i.fpis, i.fpi_bytes)
			  FROM snap s),
		   current_setting('server_version_num')::int < 150000 OR
		   (WITH b AS (SELECT * FROM pg_temp.wal_blocks(i.wal_start, i.wal_reached))
			SELECT (w.records, w.bytes, count(DISTINCT (b.start_lsn, b.spc, b.db, b.rel, b.fork))
					+ w.records - count(DISTINCT b.start_lsn), count(b.fpi_length),
					coalesce(sum(b.fpi_length), 0))
				   = (i.records, i.wal_bytes, i.relation_records, i.fpis, i.fpi_bytes)
			  FROM pg_temp.wal_totals(i.wal_start, i.wal_reached) w LEFT JOIN b ON true
			 GROUP BY w.records, w.bytes)
	  FROM snap_info i
$$;
