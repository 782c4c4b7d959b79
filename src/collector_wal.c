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
 * IDENTIFICATION
 *	  src/collector_wal.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "collector.h"
#include "compat.h"
#include "walscan.h"

static MemoryContext ou_wal_cxt = NULL;
static OuWalScan *ou_scan = NULL;
static uint64 ou_scan_skipped_reported = 0;
static uint64 ou_scan_records_reported = 0;

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
	/* when turned on again, start afresh at the flush position */
	LWLockAcquire(ou_shared->lock, LW_EXCLUSIVE);
	ou_shared->wal_reached = InvalidXLogRecPtr;
	LWLockRelease(ou_shared->lock);
}

/*
 * ou_splits_flush
 *		Add a slice's local counts to the shared table.
 */
static void
ou_splits_flush(HTAB *local)
{
	HASH_SEQ_STATUS seq;
	OuSplitEntry *l;

	LWLockAcquire(ou_shared->lock, LW_EXCLUSIVE);
	hash_seq_init(&seq, local);
	while ((l = hash_seq_search(&seq)) != NULL)
	{
		bool		found;
		OuSplitEntry *e;

		CHECK_FOR_INTERRUPTS();
		e = hash_search(ou_split_htab, &l->key, HASH_ENTER_NULL, &found);

		if (e == NULL)
		{
			ou_shared->split_dropped += l->leaf_splits + l->upper_splits + l->root_splits;
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

	local = ou_split_tally_create("ordered_uuid collector splits", 32);

	oldcxt = MemoryContextSwitchTo(ou_wal_cxt);
	while ((st = ou_wal_scan_next(ou_scan)) == OU_WAL_RECORD)
	{
		(void) ou_split_tally_count(local, ou_scan->reader, false);
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
