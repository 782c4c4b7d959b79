/*-------------------------------------------------------------------------
 *
 * collector_wal.c
 *	  The collector's cumulative B-tree split counts, from following the WAL
 *	  with the walscan.c API (the same classification as index_splits():
 *	  leaf = SPLIT_L/SPLIT_R at level 0, upper = level > 0, root = NEWROOT
 *	  with level > 0).
 *
 * The worker keeps one scan open.  It starts where the previous incarnation
 * of the worker stopped (after a worker restart) or at the current flush
 * position (after a server start), reads what is on disk in slices that end
 * at the next sampling deadline, and adds each slice's counts to the shared
 * table keyed by (database, tablespace, relfilenode).  WAL recycled before it
 * was read is skipped and counted (collector_info().wal_skipped_bytes),
 * never an error.  The relfilenode is mapped to an index at read time.
 *
 * Entries of dead relfilenodes are pruned as the WAL says they die: a commit
 * record lists the relfilenodes its transaction dropped (DROP, TRUNCATE,
 * REINDEX, VACUUM FULL, CLUSTER, a rewriting ALTER TABLE: the old ones), an
 * abort record those its transaction had created.  Their entries leave the
 * table (collector_info().split_pruned), so that churn does not fill it; a
 * table full of live indexes evicts its least recently used entry instead
 * (collector_evict.c).
 *
 * IDENTIFICATION
 *	  src/collector_wal.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/rmgr.h"
#include "access/xact.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "collector.h"
#include "compat.h"
#include "walscan.h"

static MemoryContext ou_wal_cxt = NULL;
static OuWalScan *ou_scan = NULL;
static uint64 ou_scan_skipped_reported = 0;
static uint64 ou_scan_records_reported = 0;

/*
 * relfilenodes the current slice saw die, pruned at its flush, and whether
 * each had counts of the slice (an entry too, pruned before it was shared)
 */
static OuRelFileLocator *ou_dead = NULL;
static bool *ou_dead_local = NULL;
static int	ou_ndead = 0;
static int	ou_dead_cap = 0;

/* a few records at least per slice, so a busy sampler still makes progress */
#define OU_WAL_MIN_RECORDS 256
/* check the clock every this many records */
#define OU_WAL_CLOCK_EVERY 64

/*
 * ou_splits_follow_stop
 *		Close the scan (ordered_uuid.track_splits turned off): the splits
 *		made while it is off are not counted.
 */
void
ou_splits_follow_stop(void)
{
	if (ou_wal_cxt == NULL)
		return;
	MemoryContextDelete(ou_wal_cxt);
	ou_wal_cxt = NULL;
	ou_scan = NULL;
	ou_dead = NULL;
	ou_dead_local = NULL;
	ou_ndead = ou_dead_cap = 0;
	/* when turned on again, start afresh at the flush position */
	LWLockAcquire(ou_shared->lock, LW_EXCLUSIVE);
	ou_shared->wal_reached = InvalidXLogRecPtr;
	LWLockRelease(ou_shared->lock);
}

/* a slice's local split counts (OuSplitEntry), in the current context */
static HTAB *
ou_splits_local_create(void)
{
	HASHCTL		info;

	memset(&info, 0, sizeof(info));
	info.keysize = sizeof(OuRelFileLocator);
	info.entrysize = sizeof(OuSplitEntry);
	info.hcxt = CurrentMemoryContext;
	return hash_create("ordered_uuid collector splits", 32, &info,
					   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/*
 * ou_splits_count
 *		If the current record is a B-tree split, count it in the slice's
 *		local table (OuSplitEntry: last_used is the slice's record number of
 *		the index's last split, so the flush enters them in WAL order).
 */
static void
ou_splits_count(HTAB *local, XLogReaderState *r, uint64 recno)
{
	OuRelFileLocator loc;
	OuSplitKind kind;
	OuSplitEntry *e;
	bool		found;

	memset(&loc, 0, sizeof(loc));
	kind = ou_wal_btree_split_kind(r, &loc, NULL);
	if (kind == OU_SPLIT_NONE)
		return;
	e = hash_search(local, &loc, HASH_ENTER, &found);
	if (!found)
		e->leaf_splits = e->upper_splits = e->root_splits = 0;
	if (kind == OU_SPLIT_LEAF)
		e->leaf_splits++;
	else if (kind == OU_SPLIT_UPPER)
		e->upper_splits++;
	else
		e->root_splits++;
	e->last_used = recno;
}

static int
ou_split_recency_cmp(const void *a, const void *b)
{
	uint64		l = (*(OuSplitEntry *const *) a)->last_used;
	uint64		r = (*(OuSplitEntry *const *) b)->last_used;

	return l < r ? -1 : (l > r ? 1 : 0);
}

/*
 * ou_splits_flush
 *		Add a slice's local counts to the shared table, after pruning the
 *		relfilenodes that died in it, the least recently split first (so
 *		that an eviction the slice causes takes the right entries).
 */
static void
ou_splits_flush(HTAB *local)
{
	HASH_SEQ_STATUS seq;
	OuSplitEntry *l;
	OuSplitEntry **order;
	long		nlocal = hash_get_num_entries(local),
				n = 0,
				k;
	int			i;

	order = palloc(sizeof(OuSplitEntry *) * Max(nlocal, 1));
	hash_seq_init(&seq, local);
	while ((l = hash_seq_search(&seq)) != NULL)
		order[n++] = l;
	qsort(order, n, sizeof(OuSplitEntry *), ou_split_recency_cmp);

	LWLockAcquire(ou_shared->lock, LW_EXCLUSIVE);
	/* the dead first: local counts are of what came after their death */
	for (i = 0; i < ou_ndead; i++)
		if (hash_search(ou_split_htab, &ou_dead[i], HASH_REMOVE, NULL) != NULL ||
			ou_dead_local[i])
			ou_shared->split_pruned++;
	ou_ndead = 0;
	for (k = 0; k < n; k++)
	{
		bool		found;
		OuSplitEntry *e;

		CHECK_FOR_INTERRUPTS();
		l = order[k];
		e = ou_table_enter(ou_split_htab, &l->key, offsetof(OuSplitEntry, last_used),
						   &ou_shared->split, &found);
		if (e == NULL)
		{
			ou_shared->split.dropped += l->leaf_splits + l->upper_splits + l->root_splits;
			continue;
		}
		if (!found)
			e->leaf_splits = e->upper_splits = e->root_splits = 0;
		e->leaf_splits += l->leaf_splits;
		e->upper_splits += l->upper_splits;
		e->root_splits += l->root_splits;
	}
	ou_shared->wal_reached = ou_scan->next_lsn;
	ou_shared->wal_records += ou_scan->records - ou_scan_records_reported;
	ou_shared->wal_skipped_bytes += ou_scan->bytes_skipped - ou_scan_skipped_reported;
	LWLockRelease(ou_shared->lock);
	ou_scan_records_reported = ou_scan->records;
	ou_scan_skipped_reported = ou_scan->bytes_skipped;
	pfree(order);
}

/*
 * ou_splits_note_dead
 *		If the current record ends a transaction that dropped relfilenodes
 *		(a commit's dropped relations, an abort's created ones), forget
 *		their counts of this slice and remember them for the flush.
 */
static void
ou_splits_note_dead(HTAB *local, XLogReaderState *r)
{
	uint8		info = XLogRecGetInfo(r) & XLOG_XACT_OPMASK;
	OuCoreRelFile *dead;
	int			ndead,
				i;

	if (XLogRecGetRmid(r) != RM_XACT_ID)
		return;
	if (info == XLOG_XACT_COMMIT || info == XLOG_XACT_COMMIT_PREPARED)
	{
		xl_xact_parsed_commit parsed;

		ParseCommitRecord(XLogRecGetInfo(r), (xl_xact_commit *) XLogRecGetData(r), &parsed);
		ndead = parsed.nrels;
		dead = OU_PARSED_XACT_RELS(parsed);
	}
	else if (info == XLOG_XACT_ABORT || info == XLOG_XACT_ABORT_PREPARED)
	{
		xl_xact_parsed_abort parsed;

		ParseAbortRecord(XLogRecGetInfo(r), (xl_xact_abort *) XLogRecGetData(r), &parsed);
		ndead = parsed.nrels;
		dead = OU_PARSED_XACT_RELS(parsed);
	}
	else
		return;

	for (i = 0; i < ndead; i++)
	{
		if (ou_ndead == ou_dead_cap)
		{
			ou_dead_cap = Max(64, ou_dead_cap * 2);
			if (ou_dead == NULL)
			{
				ou_dead = MemoryContextAlloc(ou_wal_cxt, sizeof(OuRelFileLocator) * ou_dead_cap);
				ou_dead_local = MemoryContextAlloc(ou_wal_cxt, sizeof(bool) * ou_dead_cap);
			}
			else
			{
				ou_dead = repalloc(ou_dead, sizeof(OuRelFileLocator) * ou_dead_cap);
				ou_dead_local = repalloc(ou_dead_local, sizeof(bool) * ou_dead_cap);
			}
		}
		ou_relfile_copy(&ou_dead[ou_ndead], &dead[i]);
		ou_dead_local[ou_ndead] =
			hash_search(local, &ou_dead[ou_ndead], HASH_REMOVE, NULL) != NULL;
		ou_ndead++;
	}
}

/*
 * ou_splits_follow
 *		Read WAL until none is left on disk or deadline passes; returns true
 *		when more WAL may be waiting (the caller comes back soon).
 */
bool
ou_splits_follow(TimestampTz deadline)
{
	MemoryContext oldcxt;
	HTAB	   *local;
	OuWalScanStatus st;
	int			nrec = 0;
	bool		more = false;

	if (ou_scan == NULL)
	{
		XLogRecPtr	start;

		ou_wal_cxt = AllocSetContextCreate(TopMemoryContext, "ordered_uuid collector WAL",
										   ALLOCSET_DEFAULT_SIZES);
		LWLockAcquire(ou_shared->lock, LW_SHARED);
		start = ou_shared->wal_reached;
		LWLockRelease(ou_shared->lock);
		if (start == InvalidXLogRecPtr || start > ou_wal_flush_lsn())
			start = ou_wal_flush_lsn();

		oldcxt = MemoryContextSwitchTo(ou_wal_cxt);
		ou_scan = ou_wal_scan_begin(start, InvalidXLogRecPtr, true);
		MemoryContextSwitchTo(oldcxt);
		ou_scan_skipped_reported = 0;
		ou_scan_records_reported = 0;

		LWLockAcquire(ou_shared->lock, LW_EXCLUSIVE);
		if (ou_shared->wal_start == InvalidXLogRecPtr)
			ou_shared->wal_start = start;
		ou_shared->wal_reached = start;
		LWLockRelease(ou_shared->lock);
	}

	local = ou_splits_local_create();

	oldcxt = MemoryContextSwitchTo(ou_wal_cxt);
	while ((st = ou_wal_scan_next(ou_scan)) == OU_WAL_RECORD)
	{
		ou_splits_count(local, ou_scan->reader, (uint64) nrec);
		ou_splits_note_dead(local, ou_scan->reader);
		if (++nrec >= OU_WAL_MIN_RECORDS && nrec % OU_WAL_CLOCK_EVERY == 0 &&
			GetCurrentTimestamp() >= deadline)
		{
			more = true;
			break;
		}
	}
	MemoryContextSwitchTo(oldcxt);
	/* skip_removed: OU_WAL_REMOVED is never returned */

	ou_splits_flush(local);
	hash_destroy(local);
	return more;
}
