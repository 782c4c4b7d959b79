/*-------------------------------------------------------------------------
 *
 * walscan.h
 *	  Reading WAL inside a backend or a background worker, on PostgreSQL
 *	  14-18, and recognising B-tree page splits in it.
 *
 * API (used by index_splits(), explain_writes() and the collector):
 *
 *	OuWalScan *scan = ou_wal_scan_begin(start, end, skip_removed);
 *	OuWalScanStatus st;
 *	while ((st = ou_wal_scan_next(scan)) == OU_WAL_RECORD)
 *	{
 *		XLogReaderState *r = scan->reader;		(XLogRecGet*() macros work)
 *		OuRelFileLocator loc;
 *		switch (ou_wal_btree_split_kind(r, &loc, NULL)) ...
 *	}
 *	if (st == OU_WAL_REMOVED)					(only when !skip_removed)
 *		ou_wal_scan_error_removed(scan, hint);	(ERROR, SQLSTATE 58P01 + hint)
 *	ou_wal_scan_end(scan);
 *
 * - start: any LSN.  The scan returns the records that START at or after it
 *	 (XLogFindNextRecord: core's from 15 on, a copy of its logic in compat.c
 *	 on 14, whose backend lacks it).  A start inside the zeroed pages after
 *	 a WAL switch record (no page header there) reads on from its segment's
 *	 first record, past the switch, to the records of the next segment.
 * - end: the scan returns only records that END at or before it (the rule of
 *	 pg_walinspect), then OU_WAL_END.  InvalidXLogRecPtr = follow the flush
 *	 pointer (replay pointer on a standby): the scan returns every complete
 *	 record on disk, then OU_WAL_END.  Nothing ever waits for WAL: a record
 *	 not yet flushed is simply not returned yet.
 * - After OU_WAL_END, calling ou_wal_scan_next() again continues from
 *	 scan->next_lsn (the end of the last record returned): a background
 *	 worker can keep one scan open and poll it to follow the WAL.  It may
 *	 also end the scan and begin a new one at scan->next_lsn later, which is
 *	 a record boundary.
 * - WAL already removed (recycled by a checkpoint): with skip_removed =
 *	 false, ou_wal_scan_next() returns OU_WAL_REMOVED (the scan cannot go on);
 *	 with skip_removed = true, it jumps to the oldest segment still on disk,
 *	 adds what it jumped over to scan->bytes_skipped / segments_skipped, and
 *	 continues (what a collector wants).  A segment removed or recycled
 *	 while it was open counts as removed (checked after each read, as
 *	 walsenders do).  It never raises an error for a missing segment; other
 *	 I/O errors are ERRORs.
 * - No privilege checks inside (the SQL-callable wrappers check).  No SRF,
 *	 transaction or snapshot assumptions: usable from a background worker
 *	 (catalog look-ups such as ou_wal_relid() need a transaction, though).
 *	 CHECK_FOR_INTERRUPTS() is called for every record and page.
 * - Memory: the scan lives in the memory context current at
 *	 ou_wal_scan_begin(); resetting or deleting that context (e.g. on ERROR)
 *	 closes the open WAL segment file and frees the reader.
 *
 * IDENTIFICATION
 *	  src/walscan.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_WALSCAN_H
#define ORDERED_UUID_WALSCAN_H

#include "access/nbtxlog.h"
#include "access/rmgr.h"
#include "utils/hsearch.h"

#include "compat.h"

typedef enum OuWalScanStatus
{
	OU_WAL_RECORD,				/* a record is in scan->reader */
	OU_WAL_END,					/* no more (complete, on disk) WAL up to end */
	OU_WAL_REMOVED				/* the next WAL needed was already removed */
} OuWalScanStatus;

typedef struct OuWalScan
{
	XLogReaderState *reader;	/* current record: XLogRecGet*(scan->reader) */
	XLogRecPtr	start_lsn;		/* as requested */
	XLogRecPtr	end_lsn;		/* as requested (Invalid = follow flush) */
	XLogRecPtr	record_lsn;		/* start of the current record */
	XLogRecPtr	next_lsn;		/* end of the last record returned; resume here */
	uint64		records;		/* records returned so far */
	uint64		record_bytes;	/* their total length (XLogRecGetTotalLen) */
	uint64		bytes_skipped;	/* WAL jumped over because it was removed */
	uint64		segments_skipped;	/* segments missing when needed */
	XLogRecPtr	removed_lsn;	/* OU_WAL_REMOVED: start of the missing segment */
	/* private */
	bool		skip_removed;
	bool		need_find;		/* locate the first record at/after find_lsn */
	bool		need_begin;		/* XLogBeginRead at next_lsn before reading */
	XLogRecPtr	find_lsn;
	bool		page_end;		/* page_read hit the end of available WAL */
	bool		page_removed;	/* page_read hit a missing segment */
	XLogSegNo	missing_segno;
	TimeLineID	missing_tli;
	XLogRecPtr	read_upto;		/* bound for the current call */
} OuWalScan;

/* Kinds of B-tree split (ou_wal_btree_split_kind). */
typedef enum OuSplitKind
{
	OU_SPLIT_NONE = 0,			/* not a split */
	OU_SPLIT_LEAF,				/* SPLIT_L/SPLIT_R with level 0 */
	OU_SPLIT_UPPER,				/* SPLIT_L/SPLIT_R with level > 0 */
	OU_SPLIT_ROOT				/* NEWROOT with level > 0 (the tree grew) */
} OuSplitKind;

extern OuWalScan *ou_wal_scan_begin(XLogRecPtr start, XLogRecPtr end, bool skip_removed);
extern OuWalScanStatus ou_wal_scan_next(OuWalScan *scan);
extern void ou_wal_scan_end(OuWalScan *scan);
extern void ou_wal_scan_error_removed(OuWalScan *scan, const char *hint);
extern XLogRecPtr ou_wal_oldest_lsn(void);

/*
 * ERROR (XX001) for a record whose main data is shorter than need bytes:
 * every decoder checks XLogRecGetDataLen() first and calls this.
 */
extern void ou_wal_bad_record(XLogReaderState *r, const char *what, size_t need);

/*
 * Classify the current record: the kind of B-tree split, the index's
 * relfilenode (block reference 0: the page split / the new root) and the
 * level of the split page (or of the new root) when level is not NULL.
 * loc is set only for splits.
 */
extern OuSplitKind ou_wal_btree_split_kind(XLogReaderState *r, OuRelFileLocator *loc,
										   uint32 *level);

/*
 * Whether the current record is of a kind ou_wal_btree_split_kind reads (a
 * split or a new root): a reader of every record asks this first, inline.
 */
static inline bool
ou_wal_btree_split_record(XLogReaderState *r)
{
	uint8		info = XLogRecGetInfo(r) & ~XLR_INFO_MASK;

	return XLogRecGetRmid(r) == RM_BTREE_ID &&
		(info == XLOG_BTREE_SPLIT_L || info == XLOG_BTREE_SPLIT_R ||
		 info == XLOG_BTREE_NEWROOT);
}

/*
 * B-tree split counts per index (relation file), as hash table entries keyed
 * by the index's locator: what index_splits() reports and what the
 * collector adds to its shared table.
 */
typedef struct OuSplitTally
{
	OuRelFileLocator key;		/* zeroed before use: HASH_BLOBS */
	uint64		leaf_splits;
	uint64		upper_splits;
	uint64		root_splits;
} OuSplitTally;

extern HTAB *ou_split_tally_create(const char *name, long nelem);
extern bool ou_split_tally_count(HTAB *tally, XLogReaderState *r, bool this_db_only);

/*
 * Map a relfilenode to a relation OID: only for the current database (and
 * shared relations); InvalidOid otherwise or when it no longer maps (after
 * REINDEX, TRUNCATE, VACUUM FULL, DROP).  Needs a transaction.
 */
extern Oid	ou_wal_relid(const OuRelFileLocator *loc);

/*
 * End of the WAL inserted so far, usable with XLogFlush() (a bare
 * GetXLogInsertRecPtr() may point past the header of a page not yet begun).
 */
extern XLogRecPtr ou_wal_insert_end_lsn(void);

/* WAL available now (flush pointer, or replay pointer on a standby). */
extern XLogRecPtr ou_wal_flush_lsn(void);

#endif							/* ORDERED_UUID_WALSCAN_H */
