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
 * table keyed by (database, tablespace, relfilenode).  It never waits for
 * the LWLock: when it is not free, the slice's counts stay local and no
 * more WAL is read until they are in, so at most one slice waits; the
 * slot's bound is applied all the same, before each slice, every
 * OU_WAL_CLOCK_EVERY records within one, and while a slice waits.  A
 * replication slot keeps the WAL it has not read (collector_retain.c); WAL
 * recycled before it was read all the same (no slot, or behind by more than
 * ordered_uuid.max_wal_keep_size) is skipped and counted
 * (collector_info().wal_skipped_bytes), never an error.  The relfilenode is
 * mapped to an index at read time.
 *
 * Entries of dead relfilenodes are pruned as the WAL says they die: a commit
 * record lists the relfilenodes its transaction dropped (DROP, TRUNCATE,
 * REINDEX, VACUUM FULL, CLUSTER, a rewriting ALTER TABLE: the old ones), an
 * abort record those its transaction had created.  Their entries leave the
 * table (collector_info().split_pruned), so that churn does not fill it; a
 * table full of live indexes evicts its least recently used entry instead
 * (collector_evict.c).  A database's drop record (DROP DATABASE, and ALTER
 * DATABASE ... SET TABLESPACE for the tablespace it leaves) lists no
 * relfilenodes, only the database and the tablespaces whose directories of
 * it went: every entry of that database in those tablespaces is pruned.
 *
 * The same records feed the WAL per relation (collector_walrel.c: one call
 * per record, one per flush, with the relfilenodes and directories that
 * died in the slice).
 *
 * ordered_uuid.track_splits turned off closes the scan; turned back on, the
 * counting starts afresh at the flush position: the entries counted before
 * are emptied (the splits made meanwhile are not counted, so they would not
 * be the splits since collector_info().wal_start), and wal_start moves there.
 *
 * Locking (the rules: collector_shmem.c): everything here runs in the
 * worker.  It takes the collector's LWLock only with ou_lock_try_exclusive()
 * (ou_splits_flush, ou_splits_follow_stop), and writes the split table and
 * the wal_* fields of OuShared only under it; ou_splits_publish_open Asserts
 * it.  wal_reached, which only the worker writes, it reads without a lock
 * (ou_splits_open).  The scan, the slice's local counts and the dead
 * relfilenodes are the worker's own memory.
 *
 * IDENTIFICATION
 *	  src/collector_wal.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/rmgr.h"
#include "access/xact.h"
#include "commands/dbcommands_xlog.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "collector_defs.h"
#include "compat.h"
#include "walscan.h"

static MemoryContext ou_wal_cxt = NULL;
static OuWalScan *ou_scan = NULL;
static uint64 ou_scan_skipped_reported = 0;
static uint64 ou_scan_records_reported = 0;

/* a slice's counts not yet in the shared table, and when it caught up */
static HTAB *ou_local = NULL;
static TimestampTz ou_local_caught_up = 0;
/* the scan's start, not yet published (wal_start, wal_reached) */
static bool ou_open_unpublished = false;
static bool ou_open_afresh = false;
static XLogRecPtr ou_open_start = InvalidXLogRecPtr;
/* wal_reached is to be published as invalid (track_splits off) */
static bool ou_stop_unpublished = false;

/*
 * relfilenodes the current slice saw die, pruned at its flush, and whether
 * each had counts of the slice (an entry too, pruned before it was shared)
 */
static OuRelFileLocator *ou_dead = NULL;
static bool *ou_dead_local = NULL;
static int	ou_ndead = 0;
static int	ou_dead_cap = 0;

/* the (database, tablespace) pairs whose directories the slice saw go */
static OuRelFileLocator *ou_dead_dirs = NULL;
static int	ou_ndead_dirs = 0;
static int	ou_dead_dirs_cap = 0;

static bool ou_in_dead_dir(const void *entry, const void *arg);

/* a few records at least per slice, so a busy sampler still makes progress */
#define OU_WAL_MIN_RECORDS 256
/* check the clock and the slot's bound every this many records */
#define OU_WAL_CLOCK_EVERY 512

/*
 * ou_splits_follow_stop
 *		Close the scan (ordered_uuid.track_splits turned off): the splits
 *		made while it is off are not counted.
 */
void
ou_splits_follow_stop(void)
{
	if (ou_wal_cxt == NULL)
	{
		/* publish the stop when the LWLock is free: never wait for it */
		if (ou_stop_unpublished && ou_lock_try_exclusive())
		{
			ou_shared->wal_reached = InvalidXLogRecPtr;
			LWLockRelease(ou_shared->lock);
			ou_stop_unpublished = false;
		}
		return;
	}
	MemoryContextDelete(ou_wal_cxt);
	ou_wal_cxt = NULL;
	ou_scan = NULL;
	ou_local = NULL;			/* in ou_wal_cxt */
	ou_walrel_discard_local();
	ou_open_unpublished = false;
	ou_dead = NULL;
	ou_dead_local = NULL;
	ou_ndead = ou_dead_cap = 0;
	ou_dead_dirs = NULL;
	ou_ndead_dirs = ou_dead_dirs_cap = 0;
	/* nothing is kept for a reader that does not read */
	ou_retain_end(OU_RETAIN_NONE);
	/* when turned on again, start afresh at the flush position */
	ou_stop_unpublished = true;
	ou_splits_follow_stop();
}

/* a slice's local split counts (OuSplitEntry), in the WAL context */
static HTAB *
ou_splits_local_create(void)
{
	HASHCTL		info;

	memset(&info, 0, sizeof(info));
	info.keysize = sizeof(OuRelFileLocator);
	info.entrysize = sizeof(OuSplitEntry);
	info.hcxt = ou_wal_cxt;
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
 * ou_splits_publish_open
 *		Publish the start of a scan opened since the last flush: on a
 *		server start, or when track_splits was turned back on, the table is
 *		emptied and wal_start moves to the start (what was counted before
 *		is not the splits since the new start, which misses those made
 *		while it was off).
 */
static void
ou_splits_publish_open(void)
{
	Assert(OU_LOCKED_EXCLUSIVE());
	if (!ou_open_unpublished)
		return;
	if (ou_open_afresh || ou_shared->wal_start == InvalidXLogRecPtr)
	{
		(void) ou_table_remove_if(ou_split_htab, NULL, NULL);
		ou_walrel_clear();
		ou_shared->wal_start = ou_open_start;
	}
	ou_shared->wal_reached = ou_open_start;
	ou_open_unpublished = false;
	ou_stop_unpublished = false;
}

/*
 * ou_splits_flush
 *		Add a slice's local counts to the shared table, after pruning the
 *		relfilenodes that died in it, the least recently split first (so
 *		that an eviction the slice causes takes the right entries), if the
 *		LWLock can be had now; returns false, the counts kept, when not.
 *		caught_up, when not 0, is a time by which all the WAL flushed has
 *		now been read.
 */
static bool
ou_splits_flush(HTAB *local, TimestampTz caught_up)
{
	HASH_SEQ_STATUS seq;
	OuSplitEntry *l;
	OuSplitEntry **order;
	long		nlocal = hash_get_num_entries(local),
				n = 0,
				k;
	int			i;

	if (!ou_lock_try_exclusive())
		return false;
	ou_splits_publish_open();
	order = palloc(sizeof(OuSplitEntry *) * Max(nlocal, 1));
	hash_seq_init(&seq, local);
	while ((l = hash_seq_search(&seq)) != NULL)
		order[n++] = l;
	qsort(order, n, sizeof(OuSplitEntry *), ou_split_recency_cmp);

	ou_walrel_flush(ou_dead, ou_ndead, ou_dead_dirs, ou_ndead_dirs);
	/* the dead first: local counts are of what came after their death */
	for (i = 0; i < ou_ndead; i++)
		if (hash_search(ou_split_htab, &ou_dead[i], HASH_REMOVE, NULL) != NULL ||
			ou_dead_local[i])
			ou_shared->split_pruned++;
	ou_ndead = 0;
	if (ou_ndead_dirs > 0)
		ou_shared->split_pruned += ou_table_remove_if(ou_split_htab, ou_in_dead_dir, NULL);
	ou_ndead_dirs = 0;
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
	if (caught_up != 0)
		ou_shared->wal_caught_up = caught_up;
	LWLockRelease(ou_shared->lock);
	ou_scan_records_reported = ou_scan->records;
	ou_scan_skipped_reported = ou_scan->bytes_skipped;
	pfree(order);
	return true;
}

/* allocate (ptr NULL) or grow an array of the WAL context */
static void *
ou_array_resize(void *ptr, Size size)
{
	return ptr == NULL ? MemoryContextAlloc(ou_wal_cxt, size) : repalloc(ptr, size);
}

/*
 * ou_dead_add
 *		Remember a relfilenode that died in the current slice, and whether
 *		the slice had counts of it, for the flush to prune.
 */
static void
ou_dead_add(const OuRelFileLocator *loc, bool had_local)
{
	if (ou_ndead == ou_dead_cap)
	{
		ou_dead_cap = Max(64, ou_dead_cap * 2);
		ou_dead = ou_array_resize(ou_dead, sizeof(OuRelFileLocator) * ou_dead_cap);
		ou_dead_local = ou_array_resize(ou_dead_local, sizeof(bool) * ou_dead_cap);
	}
	ou_dead[ou_ndead] = *loc;
	ou_dead_local[ou_ndead] = had_local;
	ou_ndead++;
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
		OuRelFileLocator loc;

		ou_relfile_copy(&loc, &dead[i]);
		ou_dead_add(&loc, hash_search(local, &loc, HASH_REMOVE, NULL) != NULL);
	}
}

/*
 * ou_in_dead_dir
 *		Whether a split entry's relfilenode lies in a (database, tablespace)
 *		directory that the current slice saw go (ou_table_remove_if's
 *		predicate).
 */
static bool
ou_in_dead_dir(const void *entry, const void *arg)
{
	const OuRelFileLocator *key = entry;	/* at the start of the entry */
	int			i;

	for (i = 0; i < ou_ndead_dirs; i++)
		if (key->dbOid == ou_dead_dirs[i].dbOid && key->spcOid == ou_dead_dirs[i].spcOid)
			return true;
	return false;
}

/*
 * ou_splits_note_dead_dirs
 *		If the current record is a database's drop record (DROP DATABASE,
 *		or ALTER DATABASE ... SET TABLESPACE for the tablespace it left),
 *		remember its (database, tablespace) pairs for the flush and move
 *		this slice's counts of files in them to the dead.
 */
static void
ou_splits_note_dead_dirs(HTAB *local, XLogReaderState *r)
{
	xl_dbase_drop_rec *rec;
	HASH_SEQ_STATUS seq;
	OuSplitEntry *e;
	int			i;

	if (XLogRecGetRmid(r) != RM_DBASE_ID ||
		(XLogRecGetInfo(r) & ~XLR_INFO_MASK) != XLOG_DBASE_DROP ||
		XLogRecGetDataLen(r) < MinSizeOfDbaseDropRec)
		return;
	rec = (xl_dbase_drop_rec *) XLogRecGetData(r);
	if (rec->ntablespaces < 0 ||
		XLogRecGetDataLen(r) < MinSizeOfDbaseDropRec + sizeof(Oid) * rec->ntablespaces)
		return;
	for (i = 0; i < rec->ntablespaces; i++)
	{
		if (ou_ndead_dirs == ou_dead_dirs_cap)
		{
			ou_dead_dirs_cap = Max(8, ou_dead_dirs_cap * 2);
			ou_dead_dirs = ou_array_resize(ou_dead_dirs, sizeof(OuRelFileLocator) * ou_dead_dirs_cap);
		}
		memset(&ou_dead_dirs[ou_ndead_dirs], 0, sizeof(OuRelFileLocator));
		ou_dead_dirs[ou_ndead_dirs].dbOid = rec->db_id;
		ou_dead_dirs[ou_ndead_dirs].spcOid = rec->tablespace_ids[i];
		ou_ndead_dirs++;
	}
	hash_seq_init(&seq, local);
	while ((e = hash_seq_search(&seq)) != NULL)
		if (ou_in_dead_dir(e, NULL))
		{
			OuRelFileLocator loc = e->key;

			(void) hash_search(local, &loc, HASH_REMOVE, NULL);
			ou_dead_add(&loc, true);
		}
}

/*
 * ou_splits_keep_bound
 *		Between slices (the worker may sleep a whole sample_interval
 *		between two): apply the slot's bound to the WAL written since.
 */
void
ou_splits_keep_bound(void)
{
	if (ou_scan != NULL)
		ou_retain_advance(ou_scan->next_lsn);
}

/*
 * ou_splits_open
 *		Open the scan: have a slot first (it keeps the WAL from the last
 *		redo position on), then start where the previous worker stopped
 *		(wal_reached, which only the worker writes) or, afresh, at the flush
 *		position.  The start is published with the first slice's counts.
 */
static void
ou_splits_open(void)
{
	MemoryContext oldcxt;
	XLogRecPtr	start;

	Assert(ou_am_collector_worker());
	ou_retain_begin();

	ou_wal_cxt = AllocSetContextCreate(TopMemoryContext, "ordered_uuid collector WAL",
									   ALLOCSET_DEFAULT_SIZES);
	start = ou_stop_unpublished ? InvalidXLogRecPtr : ou_shared->wal_reached;
	/* a worker restarted resumes; otherwise the counts start afresh */
	ou_open_afresh = start == InvalidXLogRecPtr;
	if (ou_open_afresh || start > ou_wal_flush_lsn())
		start = ou_wal_flush_lsn();

	oldcxt = MemoryContextSwitchTo(ou_wal_cxt);
	ou_scan = ou_wal_scan_begin(start, InvalidXLogRecPtr, true);
	MemoryContextSwitchTo(oldcxt);
	ou_scan_skipped_reported = 0;
	ou_scan_records_reported = 0;
	ou_open_start = start;
	ou_open_unpublished = true;
}

/*
 * ou_splits_follow
 *		Read WAL until none is left on disk or deadline passes; returns true
 *		when more WAL may be waiting, or a slice's counts wait for the
 *		LWLock (the caller comes back soon).
 */
bool
ou_splits_follow(TimestampTz deadline)
{
	MemoryContext oldcxt;
	OuWalScanStatus st;
	int			nrec = 0;
	bool		more = false;
	TimestampTz began = GetCurrentTimestamp();

	if (ou_scan == NULL)
		ou_splits_open();

	/* what it has read need not be kept any longer; nor, past the bound, the rest */
	ou_retain_advance(ou_scan->next_lsn);

	/* the previous slice first: no more WAL is read while it waits */
	if (ou_local != NULL)
	{
		if (!ou_splits_flush(ou_local, ou_local_caught_up))
			return true;
		hash_destroy(ou_local);
		ou_local = NULL;
	}

	ou_local = ou_splits_local_create();

	oldcxt = MemoryContextSwitchTo(ou_wal_cxt);
	while ((st = ou_wal_scan_next(ou_scan)) == OU_WAL_RECORD)
	{
		XLogReaderState *r = ou_scan->reader;

		/* what matters here is in three resource managers' records */
		switch (XLogRecGetRmid(r))
		{
			case RM_BTREE_ID:
				if (ou_wal_btree_split_record(r))
					ou_splits_count(ou_local, r, (uint64) nrec);
				break;
			case RM_XACT_ID:
				ou_splits_note_dead(ou_local, r);
				break;
			case RM_DBASE_ID:
				ou_splits_note_dead_dirs(ou_local, r);
				break;
		}
		ou_walrel_count(r, (uint64) nrec);
		if (++nrec % OU_WAL_CLOCK_EVERY != 0)
			continue;
		/* a long slice under heavy writes: the bound holds meanwhile */
		ou_retain_advance(ou_scan->next_lsn);
		if (nrec >= OU_WAL_MIN_RECORDS && GetCurrentTimestamp() >= deadline)
		{
			more = true;
			break;
		}
	}
	MemoryContextSwitchTo(oldcxt);
	/* skip_removed: OU_WAL_REMOVED is never returned */

	ou_local_caught_up = more ? 0 : began;
	if (!ou_splits_flush(ou_local, ou_local_caught_up))
		return true;
	hash_destroy(ou_local);
	ou_local = NULL;
	return more;
}
