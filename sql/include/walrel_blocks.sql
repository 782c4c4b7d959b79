--
-- pg_temp.wal_blocks(s, e): one row per block reference of the records
-- between s and e, from pg_walinspect (independent of the collector): the
-- record's start and length, the block id, the relation file and fork, and
-- the image's stored length (NULL without an image).  PG16+:
-- pg_get_wal_block_info; PG15: pg_get_wal_records_info's block_ref text
-- (blkref #N: rel SPC/DB/REL fork F blk B (FPW); hole: offset: O, length: L
-- [, compression saved: S]: the image's length is BLCKSZ - L - S).  PG14 has
-- no pg_walinspect: no rows (the lifecycle test compares with pg_waldump).
-- pg_temp.wal_totals(s, e): the count and the length of those records
-- (pg_get_wal_records_info on 15+; NULLs on 14).
--
DO $$
BEGIN
	IF current_setting('server_version_num')::int >= 150000 THEN
		CREATE EXTENSION IF NOT EXISTS pg_walinspect;
		CREATE FUNCTION pg_temp.wal_totals(s pg_lsn, e pg_lsn, OUT records bigint, OUT bytes bigint)
		LANGUAGE sql AS $f$
			SELECT count(*), sum(record_length)::bigint FROM pg_get_wal_records_info(s, e)
		$f$;
	ELSE
		CREATE FUNCTION pg_temp.wal_totals(s pg_lsn, e pg_lsn, OUT records bigint, OUT bytes bigint)
		LANGUAGE sql AS $f$ SELECT NULL::bigint, NULL::bigint $f$;
	END IF;
	IF current_setting('server_version_num')::int >= 160000 THEN
		CREATE FUNCTION pg_temp.wal_blocks(s pg_lsn, e pg_lsn)
		RETURNS TABLE (start_lsn pg_lsn, record_length int, block_id int, spc oid, db oid,
					   rel oid, fork text, fpi_length int) LANGUAGE sql AS $f$
			SELECT b.start_lsn, b.record_length, b.block_id::int, b.reltablespace, b.reldatabase,
				   b.relfilenode, (ARRAY['main', 'fsm', 'vm', 'init'])[b.relforknumber + 1],
				   CASE WHEN b.block_fpi_info IS NOT NULL THEN b.block_fpi_length END
			  FROM pg_get_wal_block_info(s, e, false) b
		$f$;
	ELSIF current_setting('server_version_num')::int >= 150000 THEN
		CREATE FUNCTION pg_temp.wal_blocks(s pg_lsn, e pg_lsn)
		RETURNS TABLE (start_lsn pg_lsn, record_length int, block_id int, spc oid, db oid,
					   rel oid, fork text, fpi_length int) LANGUAGE sql AS $f$
			SELECT r.start_lsn, r.record_length, m[1]::int, m[2]::oid, m[3]::oid, m[4]::oid, m[5],
				   CASE WHEN m[6] IS NOT NULL
						THEN current_setting('block_size')::int - m[6]::int - coalesce(m[7]::int, 0) END
			  FROM pg_get_wal_records_info(s, e) r,
				   regexp_matches(r.block_ref,
								  'blkref #(\d+): rel (\d+)/(\d+)/(\d+) fork (\w+) blk \d+(?: \(FPW[^)]*\); hole: offset: \d+, length: (\d+)(?:, compression saved: (\d+))?)?',
								  'g') m
		$f$;
	ELSE
		CREATE FUNCTION pg_temp.wal_blocks(s pg_lsn, e pg_lsn)
		RETURNS TABLE (start_lsn pg_lsn, record_length int, block_id int, spc oid, db oid,
					   rel oid, fork text, fpi_length int) LANGUAGE sql AS $f$
			SELECT NULL::pg_lsn, 0, 0, 0::oid, 0::oid, 0::oid, ''::text, 0 WHERE false
		$f$;
	END IF;
END
$$;
