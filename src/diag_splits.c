/*-------------------------------------------------------------------------
 *
 * diag_splits.c
 *	  index_splits(start_lsn, end_lsn): exact B-tree split counts per index,
 *	  from the WAL.
 *
 * IDENTIFICATION
 *	  src/diag_splits.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog_internal.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/hsearch.h"
#include "utils/pg_lsn.h"
#include "utils/tuplestore.h"

#include "citus.h"
#include "diag.h"
#include "util.h"
#include "walscan.h"

PG_FUNCTION_INFO_V1(index_splits);

/* The hint of both errors for WAL no longer on disk. */
#define OU_SPLITS_REMOVED_HINT \
	"Use a later start_lsn (pg_ls_waldir() lists the WAL still on disk), or keep more WAL with wal_keep_size or a replication slot."


/*
 * Check and complete a user-supplied LSN range: start must not be NULL, nor
 * before the oldest WAL on disk, nor beyond the WAL inserted so far (WAL
 * inserted but not yet flushed is flushed first); a NULL end (or one beyond
 * the WAL on disk) means the flush pointer now; start <= end.
 */
static void
ou_check_lsn_range(FunctionCallInfo fcinfo, XLogRecPtr *start, XLogRecPtr *end)
{
	XLogRecPtr	flush = ou_wal_flush_lsn();
	XLogRecPtr	oldest;

	ou_check_not_null(fcinfo, 0, "start_lsn");
	*start = PG_GETARG_LSN(0);
	if (*start > flush && !RecoveryInProgress() && *start <= GetXLogInsertRecPtr())
	{
		/* e.g. pg_current_wal_insert_lsn() itself: make it readable */
		XLogFlush(ou_wal_insert_end_lsn());
		flush = Max(ou_wal_flush_lsn(), *start);
	}
	oldest = ou_wal_oldest_lsn();
	if (*start < oldest)
	{
		char		fname[MAXFNAMELEN];
		TimeLineID	tli;
		XLogSegNo	segno;

		(void) ou_wal_available_upto(&tli);
		XLByteToSeg(*start, segno, wal_segment_size);
		XLogFileName(fname, tli, segno, wal_segment_size);
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("requested WAL segment %s has already been removed", fname),
				 errdetail("start_lsn is %X/%X; the oldest WAL on disk starts at %X/%X.",
						   LSN_FORMAT_ARGS(*start), LSN_FORMAT_ARGS(oldest)),
				 errhint("%s", OU_SPLITS_REMOVED_HINT)));
	}
	if (*start > flush)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("start_lsn %X/%X is in the future", LSN_FORMAT_ARGS(*start)),
				 errdetail("WAL is available up to %X/%X.", LSN_FORMAT_ARGS(flush)),
				 errhint("Take start_lsn from pg_current_wal_insert_lsn() before the work to measure.")));
	if (PG_NARGS() < 2 || PG_ARGISNULL(1))
		*end = flush;
	else
	{
		*end = PG_GETARG_LSN(1);
		if (*start > *end)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("start_lsn %X/%X is after end_lsn %X/%X",
							LSN_FORMAT_ARGS(*start), LSN_FORMAT_ARGS(*end))));
		if (*end > flush)
			*end = flush;
	}
}

/*
 * index_splits(start_lsn pg_lsn, end_lsn pg_lsn DEFAULT NULL)
 *	RETURNS TABLE(index regclass, relfilenode oid, leaf_splits bigint,
 *				  upper_splits bigint, root_splits bigint)
 *
 * Records of other databases cannot be mapped to a relation and are left
 * out; shared catalogs' indexes are included.
 */
Datum
index_splits(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	XLogRecPtr	start;
	XLogRecPtr	end;
	HTAB	   *counts;
	HASH_SEQ_STATUS seq;
	OuSplitTally *c;
	OuWalScan  *scan;
	OuWalScanStatus st;

	ou_check_lsn_range(fcinfo, &start, &end);
	/* On a Citus coordinator, the indexes of Citus tables are elsewhere. */
	ou_citus_notice_node_only("index_splits");
	ou_init_materialized_srf(fcinfo);

	counts = ou_split_tally_create("index_splits counts", 64);

	scan = ou_wal_scan_begin(start, end, false);
	/* only this database's indexes (and shared ones) can be named */
	while ((st = ou_wal_scan_next(scan)) == OU_WAL_RECORD)
		(void) ou_split_tally_count(counts, scan->reader, true);
	if (st == OU_WAL_REMOVED)
		ou_wal_scan_error_removed(scan, OU_SPLITS_REMOVED_HINT);
	ou_wal_scan_end(scan);

	hash_seq_init(&seq, counts);
	while ((c = hash_seq_search(&seq)) != NULL)
	{
		Datum		values[5];
		bool		nulls[5] = {false};
		Oid			relid;

		CHECK_FOR_INTERRUPTS();
		relid = ou_wal_relid(&c->key);
		if (OidIsValid(relid))
			values[0] = ObjectIdGetDatum(relid);
		else
			nulls[0] = true;
		values[1] = ObjectIdGetDatum(c->key.relNumber);
		values[2] = Int64GetDatum((int64) c->leaf_splits);
		values[3] = Int64GetDatum((int64) c->upper_splits);
		values[4] = Int64GetDatum((int64) c->root_splits);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
