/*-------------------------------------------------------------------------
 *
 * diag_explain_writes.c
 *	  explain_writes(statement): run one statement as the caller (like
 *	  EXPLAIN ANALYZE) and report what it wrote, per relation, from the WAL
 *	  records of this transaction in the LSN range of the statement, plus a
 *	  total row from the backend's own WAL and buffer counters.
 *
 * Attribution rule: other sessions write WAL in the same LSN range; a record
 * belongs to the statement when its xid is one of this transaction's
 * (TransactionIdIsCurrentTransactionId: the top transaction or any of its
 * subtransactions).  Records written without an xid (heap pruning, hint-bit
 * full-page images during a SELECT) cannot be told apart from other
 * sessions' and are counted only in the total row, which comes from
 * pgWalUsage (exact for this backend, parallel workers included).
 *
 * The statement's WAL must still be on disk when it is read: a big
 * statement can write more than max_wal_size, and checkpoints then recycle
 * its first segments.  So while the statement runs and its WAL is read, the
 * backend holds it with an ephemeral physical replication slot of its own
 * (ordered_uuid_explain_writes_<pid>, dropped at the end or on error), when
 * wal_level and max_replication_slots allow one and a slot is free;
 * otherwise the error for removed WAL names the settings to raise.
 *
 * IDENTIFICATION
 *	  src/diag_explain_writes.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/rmgr.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "executor/instrument.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "parser/parser.h"
#include "portability/instr_time.h"
#include "replication/slot.h"
#include "storage/lwlock.h"
#include "tcop/dest.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"

#include "compat.h"
#include "diag.h"
#include "util.h"
#include "walscan.h"

PG_FUNCTION_INFO_V1(explain_writes);

#define OU_EW_COLS 15

typedef struct OuRelWrites
{
	OuRelFileLocator key;
	int64		records;
	int64		bytes;
	int64		fpi;
	int64		leaf;
	int64		upper;
	int64		added;
} OuRelWrites;

/* 'table', 'index', 'toast', ... for a relation OID. */
static const char *
ou_rel_kind(Oid relid)
{
	char		relkind = get_rel_relkind(relid);

	if (IsCatalogRelationOid(relid))
		return "catalog";
	switch (relkind)
	{
		case RELKIND_RELATION:
		case RELKIND_PARTITIONED_TABLE:
			return "table";
		case RELKIND_TOASTVALUE:
			return "toast";
		case RELKIND_INDEX:
		case RELKIND_PARTITIONED_INDEX:
			{
				Oid			tab = IndexGetRelation(relid, true);

				if (OidIsValid(tab) && get_rel_relkind(tab) == RELKIND_TOASTVALUE)
					return "toast index";
				return "index";
			}
		case RELKIND_MATVIEW:
			return "materialized view";
		case RELKIND_SEQUENCE:
			return "sequence";
		default:
			return "other";
	}
}

/* Resource managers of index access methods (their block 0 is a metapage). */
static bool
ou_rmgr_is_index(RmgrId rmid)
{
	return rmid == RM_BTREE_ID || rmid == RM_HASH_ID || rmid == RM_GIN_ID ||
		rmid == RM_GIST_ID || rmid == RM_SPGIST_ID || rmid == RM_BRIN_ID;
}

/* Find or add the counters of a relfilenode. */
static OuRelWrites *
ou_rel_entry(HTAB *h, const OuRelFileLocator *loc)
{
	bool		found;
	OuRelWrites *w = hash_search(h, loc, HASH_ENTER, &found);

	if (!found)
		w->records = w->bytes = w->fpi = w->leaf = w->upper = w->added = 0;
	return w;
}

/*
 * ou_hold_wal
 *		Create an ephemeral physical replication slot reserving the WAL from
 *		the last checkpoint's redo position on, if one can be had; returns
 *		whether it did.  ReplicationSlotRelease() drops it.
 */
static bool
ou_hold_wal(void)
{
	char		name[NAMEDATALEN];
	bool		free_slot = false;
	int			i;

	if (RecoveryInProgress() || max_replication_slots == 0 ||
		wal_level < WAL_LEVEL_REPLICA || MyReplicationSlot != NULL)
		return false;
	LWLockAcquire(ReplicationSlotControlLock, LW_SHARED);
	for (i = 0; i < max_replication_slots && !free_slot; i++)
		free_slot = !ReplicationSlotCtl->replication_slots[i].in_use;
	LWLockRelease(ReplicationSlotControlLock);
	if (!free_slot)
		return false;
	snprintf(name, sizeof(name), "ordered_uuid_explain_writes_%d", MyProcPid);
	ou_create_ephemeral_slot(name);
	ReplicationSlotReserveWal();
	return true;
}

static void
ou_put_row(ReturnSetInfo *rsinfo, Datum *values, bool *nulls)
{
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * explain_writes(statement text) RETURNS TABLE(relation regclass,
 *	relfilenode oid, kind text, wal_records, wal_bytes, wal_fpi, leaf_splits,
 *	upper_splits, blocks_added, rows bigint, seconds float8,
 *	shared_blks_hit, shared_blks_read, shared_blks_dirtied,
 *	shared_blks_written bigint)
 */
Datum
explain_writes(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *sql;
	BufferUsage b0,
				bd;
	WalUsage	w0,
				wd;
	instr_time	t0,
				t1;
	XLogRecPtr	start,
				end;
	uint64		nrows;
	bool		scan_wal;
	HTAB	   *rels;
	HASHCTL		ctl;
	HASH_SEQ_STATUS seq;
	OuRelWrites *w;
	OuRelWrites other;
	int64		sum_leaf = 0,
				sum_upper = 0,
				sum_added = 0;
	SPIExecuteOptions opts;
	Datum		values[OU_EW_COLS];
	bool		nulls[OU_EW_COLS];
	int			i;
	int			ret;
	int			nstmts;
	bool		held;

	ou_check_wal_read_privilege("explain_writes");
	ou_check_not_null(fcinfo, 0, "statement");
	sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	/* One statement, as the name says: its writes are what the rows describe. */
	nstmts = list_length(raw_parser(sql, RAW_PARSE_DEFAULT));
	if (nstmts > 1)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("explain_writes takes a single statement"),
				 errdetail("The text holds %d statements.", nstmts)));
	ou_init_materialized_srf(fcinfo);

	/* On a standby nothing can write WAL: only the total row. */
	scan_wal = !RecoveryInProgress();
	held = scan_wal && ou_hold_wal();
	PG_TRY();
	{

	/* Run the statement, between counter snapshots. */
	start = scan_wal ? GetXLogInsertRecPtr() : InvalidXLogRecPtr;
	b0 = pgBufferUsage;
	w0 = pgWalUsage;
	INSTR_TIME_SET_CURRENT(t0);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	memset(&opts, 0, sizeof(opts));
	opts.read_only = false;
	opts.dest = None_Receiver;	/* like EXPLAIN ANALYZE: rows are discarded */
	ret = SPI_execute_extended(sql, &opts);
	if (ret < 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("explain_writes cannot run this statement: %s",
						SPI_result_code_string(ret)),
				 errhint("Transaction control and COPY FROM STDIN or TO STDOUT cannot be run inside a function.")));
	nrows = SPI_processed;
	SPI_finish();

	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	memset(&bd, 0, sizeof(bd));
	memset(&wd, 0, sizeof(wd));
	BufferUsageAccumDiff(&bd, &pgBufferUsage, &b0);
	WalUsageAccumDiff(&wd, &pgWalUsage, &w0);

	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(OuRelFileLocator);
	ctl.entrysize = sizeof(OuRelWrites);
	ctl.hcxt = CurrentMemoryContext;
	rels = hash_create("explain_writes relations", 64, &ctl,
					   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	memset(&other, 0, sizeof(other));

	if (scan_wal)
	{
		OuWalScan  *scan;
		OuWalScanStatus st;

		/* Our records are not committed yet: make sure they are on disk. */
		end = ou_wal_insert_end_lsn();
		if (end > start)
			XLogFlush(end);

		scan = ou_wal_scan_begin(start, end, false);
		while ((st = ou_wal_scan_next(scan)) == OU_WAL_RECORD)
		{
			XLogReaderState *r = scan->reader;
			OuRelFileLocator loc;
			ForkNumber	fork;
			BlockNumber blk;
			OuSplitKind kind;
			int			id;

			if (!TransactionIdIsCurrentTransactionId(XLogRecGetXid(r)))
				continue;

			/* The record belongs to the relation of its first block. */
			memset(&loc, 0, sizeof(loc));
			if (OU_REC_MAX_BLOCK_ID(r) < 0 || !ou_rec_block_tag(r, 0, &loc, &fork, &blk))
			{
				other.records++;
				other.bytes += XLogRecGetTotalLen(r);
				continue;
			}
			w = ou_rel_entry(rels, &loc);
			w->records++;
			w->bytes += XLogRecGetTotalLen(r);

			kind = ou_wal_btree_split_kind(r, &loc, NULL);
			if (kind == OU_SPLIT_LEAF)
				w->leaf++;
			else if (kind == OU_SPLIT_UPPER)
				w->upper++;

			/* Full-page images and pages initialised, per block reference. */
			for (id = 0; id <= OU_REC_MAX_BLOCK_ID(r); id++)
			{
				OuRelWrites *wb;

				memset(&loc, 0, sizeof(loc));
				if (!ou_rec_block_tag(r, id, &loc, &fork, &blk))
					continue;
				/* An index AM's block 0 is its metapage, rewritten, not added. */
				if (blk == 0 && ou_rmgr_is_index(XLogRecGetRmid(r)))
					continue;
				if (!XLogRecHasBlockImage(r, id) &&
					!(fork == MAIN_FORKNUM && (OU_REC_BLOCK_FLAGS(r, id) & BKPBLOCK_WILL_INIT)))
					continue;
				wb = ou_rel_entry(rels, &loc);
				if (XLogRecHasBlockImage(r, id))
					wb->fpi++;
				if (fork == MAIN_FORKNUM && (OU_REC_BLOCK_FLAGS(r, id) & BKPBLOCK_WILL_INIT))
					wb->added++;
			}
		}
		if (st == OU_WAL_REMOVED)
			ou_wal_scan_error_removed(scan, held ?
									  "The replication slot that held it was invalidated: raise max_slot_wal_keep_size." :
									  "No replication slot could hold it: raise max_wal_size or wal_keep_size, or free a replication slot (max_replication_slots; wal_level must be replica or logical).");
		ou_wal_scan_end(scan);
	}
	}
	PG_FINALLY();
	{
		if (held && MyReplicationSlot != NULL)
			ReplicationSlotRelease();
	}
	PG_END_TRY();

	/* One row per relation. */
	hash_seq_init(&seq, rels);
	while ((w = hash_seq_search(&seq)) != NULL)
	{
		Oid			relid;

		CHECK_FOR_INTERRUPTS();
		for (i = 0; i < OU_EW_COLS; i++)
			nulls[i] = true;
		relid = ou_wal_relid(&w->key);
		if (OidIsValid(relid))
		{
			values[0] = ObjectIdGetDatum(relid);
			nulls[0] = false;
			values[2] = CStringGetTextDatum(ou_rel_kind(relid));
		}
		else
			values[2] = CStringGetTextDatum("unknown");
		nulls[2] = false;
		values[1] = ObjectIdGetDatum(w->key.relNumber);
		values[3] = Int64GetDatum(w->records);
		values[4] = Int64GetDatum(w->bytes);
		values[5] = Int64GetDatum(w->fpi);
		values[6] = Int64GetDatum(w->leaf);
		values[7] = Int64GetDatum(w->upper);
		values[8] = Int64GetDatum(w->added);
		for (i = 1; i <= 8; i++)
			nulls[i] = false;
		ou_put_row(rsinfo, values, nulls);
		sum_leaf += w->leaf;
		sum_upper += w->upper;
		sum_added += w->added;
	}

	/* This transaction's records that touch no block (rare). */
	if (other.records > 0)
	{
		for (i = 0; i < OU_EW_COLS; i++)
			nulls[i] = true;
		values[2] = CStringGetTextDatum("other");
		values[3] = Int64GetDatum(other.records);
		values[4] = Int64GetDatum(other.bytes);
		values[5] = Int64GetDatum(0);
		values[6] = Int64GetDatum(0);
		values[7] = Int64GetDatum(0);
		values[8] = Int64GetDatum(0);
		for (i = 2; i <= 8; i++)
			nulls[i] = false;
		ou_put_row(rsinfo, values, nulls);
	}

	/* The total row: this backend's counters. */
	for (i = 0; i < OU_EW_COLS; i++)
		nulls[i] = false;
	nulls[0] = nulls[1] = true;
	values[2] = CStringGetTextDatum("total");
	values[3] = Int64GetDatum((int64) wd.wal_records);
	values[4] = Int64GetDatum((int64) wd.wal_bytes);
	values[5] = Int64GetDatum((int64) wd.wal_fpi);
	values[6] = Int64GetDatum(sum_leaf);
	values[7] = Int64GetDatum(sum_upper);
	values[8] = Int64GetDatum(sum_added);
	values[9] = Int64GetDatum((int64) nrows);
	values[10] = Float8GetDatum(ou_round(INSTR_TIME_GET_DOUBLE(t1), 3));
	values[11] = Int64GetDatum(bd.shared_blks_hit);
	values[12] = Int64GetDatum(bd.shared_blks_read);
	values[13] = Int64GetDatum(bd.shared_blks_dirtied);
	values[14] = Int64GetDatum(bd.shared_blks_written);
	ou_put_row(rsinfo, values, nulls);

	return (Datum) 0;
}
