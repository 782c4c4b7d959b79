/*-------------------------------------------------------------------------
 *
 * walscan.c
 *	  Reading WAL in a backend or background worker (PostgreSQL 14-18) and
 *	  classifying B-tree split records.  The API is described in walscan.h.
 *
 * Nothing here waits for WAL: our page_read callback bounds every read by
 * the flush pointer (replay pointer on a standby), and opens the segment
 * file itself so that a segment removed by a checkpoint is reported to the
 * caller instead of raising an error (no version has a no-wait page reader
 * for the backend), also when it was removed, or recycled and overwritten,
 * while it was open.  The first record at or after a start position is found
 * with core's XLogFindNextRecord from 15 on (compat.h).  Every record's main
 * data is checked for length before it is decoded.
 *
 * Whole pages are read ahead, up to OU_READ_AHEAD_PAGES in one read, so that
 * a reader of every page (the collector) makes one read call for many pages
 * instead of one a page.  Only pages wholly below the WAL available are kept
 * (a page wholly flushed, or replayed, never changes), and each read is
 * checked against segment removal as a single page's is.
 *
 * IDENTIFICATION
 *	  src/walscan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "access/nbtxlog.h"
#include "access/rmgr.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/memutils.h"

#include "walscan.h"

#define OU_READ_AHEAD_PAGES 16

/* Private state kept next to the public struct. */
typedef struct OuWalScanPriv
{
	OuWalScan	pub;
	MemoryContextCallback cb;	/* frees the reader when the context goes */
	/* pages read ahead: ahead_len bytes from ahead_start, of ahead_tli */
	char	   *ahead;			/* OU_READ_AHEAD_PAGES pages, or NULL */
	XLogRecPtr	ahead_start;
	uint32		ahead_len;		/* 0: none */
	TimeLineID	ahead_tli;
} OuWalScanPriv;

static int	ou_page_read(XLogReaderState *state, XLogRecPtr targetPagePtr, int reqLen,
						 XLogRecPtr targetRecPtr, char *cur_page);
static void ou_wal_scan_reset_cb(void *arg);

/* WAL available now: flush pointer, or replay pointer on a standby. */
XLogRecPtr
ou_wal_flush_lsn(void)
{
	TimeLineID	tli;

	return ou_wal_available_upto(&tli);
}

/*
 * The end of the WAL inserted so far, as a position XLogFlush() can reach.
 * GetXLogInsertRecPtr() points past the header of a page that may not exist
 * yet when the insert position is at a page boundary; flushing there fails
 * ("xlog flush request ... is not satisfied"), so step back to the boundary.
 */
XLogRecPtr
ou_wal_insert_end_lsn(void)
{
	XLogRecPtr	ptr = GetXLogInsertRecPtr();
	uint32		off = ptr % XLOG_BLCKSZ;

	if (XLogSegmentOffset(ptr, wal_segment_size) == SizeOfXLogLongPHD)
		ptr -= SizeOfXLogLongPHD;
	else if (off == SizeOfXLogShortPHD)
		ptr -= SizeOfXLogShortPHD;
	return ptr;
}

/*
 * Start a scan (see walscan.h).  Nothing is read until ou_wal_scan_next().
 */
OuWalScan *
ou_wal_scan_begin(XLogRecPtr start, XLogRecPtr end, bool skip_removed)
{
	OuWalScanPriv *priv = palloc0(sizeof(OuWalScanPriv));
	OuWalScan  *scan = &priv->pub;

	scan->start_lsn = start;
	scan->end_lsn = end;
	scan->skip_removed = skip_removed;
	scan->need_find = true;
	scan->find_lsn = start;
	scan->next_lsn = start;

	scan->reader = XLogReaderAllocate(wal_segment_size, NULL,
									  XL_ROUTINE(.page_read = ou_page_read,
												 .segment_open = wal_segment_open,
												 .segment_close = wal_segment_close),
									  scan);
	if (scan->reader == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("Failed while allocating a WAL reading processor.")));

	/* Close the segment file and free the reader if the context goes away. */
	priv->cb.func = ou_wal_scan_reset_cb;
	priv->cb.arg = scan;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, &priv->cb);
	return scan;
}

/* Free the reader (and close its segment file); the struct stays valid. */
void
ou_wal_scan_end(OuWalScan *scan)
{
	if (scan->reader != NULL)
	{
		XLogReaderFree(scan->reader);
		scan->reader = NULL;
	}
}

static void
ou_wal_scan_reset_cb(void *arg)
{
	ou_wal_scan_end((OuWalScan *) arg);
}

/*
 * The start of the oldest WAL segment still in pg_wal, or InvalidXLogRecPtr
 * when there is none.
 */
XLogRecPtr
ou_wal_oldest_lsn(void)
{
	DIR		   *dir;
	struct dirent *de;
	XLogSegNo	oldest = 0;
	bool		found = false;
	XLogRecPtr	result = InvalidXLogRecPtr;

	dir = AllocateDir(XLOGDIR);
	while ((de = ReadDir(dir, XLOGDIR)) != NULL)
	{
		TimeLineID	tli;
		XLogSegNo	segno;

		CHECK_FOR_INTERRUPTS();
		if (!IsXLogFileName(de->d_name))
			continue;
		XLogFromFileName(de->d_name, &tli, &segno, wal_segment_size);
		if (!found || segno < oldest)
			oldest = segno;
		found = true;
	}
	FreeDir(dir);
	if (found)
		XLogSegNoOffsetToRecPtr(oldest, 0, wal_segment_size, result);
	return result;
}

/*
 * ERROR for OU_WAL_REMOVED, for SQL-callable functions, with a hint that
 * fits the caller (what to change so that the WAL is still there).
 */
void
ou_wal_scan_error_removed(OuWalScan *scan, const char *hint)
{
	char		fname[MAXFNAMELEN];
	XLogSegNo	segno;

	XLByteToSeg(scan->removed_lsn, segno, wal_segment_size);
	XLogFileName(fname, scan->missing_tli, segno, wal_segment_size);
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_FILE),
			 errmsg("requested WAL segment %s has already been removed", fname),
			 errdetail("The WAL from %X/%X on is no longer in pg_wal.",
					   LSN_FORMAT_ARGS(scan->removed_lsn)),
			 errhint("%s", hint)));
}

/* page_read's answer for a segment that is gone: -1 and page_removed */
static int
ou_page_removed(OuWalScan *scan, XLogSegNo segno, TimeLineID tli)
{
	scan->page_removed = true;
	scan->missing_segno = segno;
	scan->missing_tli = tli;
	return -1;
}

/*
 * Copy the page at page of timeline tli into buf from the pages read ahead;
 * false if it is not among them.
 */
static bool
ou_read_ahead_copy(OuWalScanPriv *priv, XLogRecPtr page, TimeLineID tli, char *buf)
{
	if (priv->ahead_len == 0 || priv->ahead_tli != tli ||
		page < priv->ahead_start || page + XLOG_BLCKSZ > priv->ahead_start + priv->ahead_len)
		return false;
	memcpy(buf, priv->ahead + (page - priv->ahead_start), XLOG_BLCKSZ);
	return true;
}

/*
 * How many bytes to read ahead from page: the whole pages below upto, at
 * most OU_READ_AHEAD_PAGES, within page's segment; 0 when page itself is
 * not whole below upto (it is read alone: its end may still change).
 */
static uint32
ou_read_ahead_len(XLogReaderState *state, XLogRecPtr page, XLogRecPtr upto)
{
	XLogRecPtr	whole = upto - upto % XLOG_BLCKSZ;
	uint64		len;

	if (page + XLOG_BLCKSZ > whole)
		return 0;
	len = Min(whole - page, (uint64) OU_READ_AHEAD_PAGES * XLOG_BLCKSZ);
	len = Min(len, (uint64) (state->segcxt.ws_segsize -
							 XLogSegmentOffset(page, state->segcxt.ws_segsize)));
	return (uint32) len;
}

/*
 * page_read callback: like read_local_xlog_page, but never waits.  Returns
 * -1 (and sets page_end) when the requested bytes are not on disk yet (or
 * lie beyond end_lsn), -1 and page_removed when the segment is gone.
 */
static int
ou_page_read(XLogReaderState *state, XLogRecPtr targetPagePtr, int reqLen,
			 XLogRecPtr targetRecPtr, char *cur_page)
{
	OuWalScan  *scan = (OuWalScan *) state->private_data;
	OuWalScanPriv *priv = (OuWalScanPriv *) scan;
	TimeLineID	curtli;
	TimeLineID	tli;
	XLogRecPtr	upto;
	XLogSegNo	segno;
	WALReadError errinfo;
	int			count;
	uint32		ahead;

	CHECK_FOR_INTERRUPTS();

	upto = ou_wal_available_upto(&curtli);
	if (!XLogRecPtrIsInvalid(scan->end_lsn) && scan->end_lsn < upto)
		upto = scan->end_lsn;

	ou_xlog_determine_timeline(state, targetPagePtr, reqLen, curtli);
	if (state->currTLI == curtli)
		tli = curtli;
	else
	{
		/* A page of an older timeline: readable up to its switch point. */
		tli = state->currTLI;
		if (state->currTLIValidUntil < upto)
			upto = state->currTLIValidUntil;
	}

	if (targetPagePtr + XLOG_BLCKSZ <= upto)
		count = XLOG_BLCKSZ;
	else if (targetPagePtr + reqLen > upto)
	{
		scan->page_end = true;
		return -1;
	}
	else
		count = upto - targetPagePtr;

	if (ou_read_ahead_copy(priv, targetPagePtr, tli, cur_page))
		return count;

	/*
	 * Open the segment ourselves (WALRead then finds it open), so that a
	 * removed segment is something we can report rather than an ERROR.
	 */
	XLByteToSeg(targetPagePtr, segno, state->segcxt.ws_segsize);
	if (state->seg.ws_file < 0 || state->seg.ws_segno != segno ||
		state->seg.ws_tli != tli)
	{
		char		path[MAXPGPATH];
		int			fd;

		if (state->seg.ws_file >= 0)
		{
			close(state->seg.ws_file);
			state->seg.ws_file = -1;
		}
		XLogFilePath(path, tli, segno, state->segcxt.ws_segsize);
		fd = BasicOpenFile(path, O_RDONLY | PG_BINARY);
		if (fd < 0)
		{
			if (errno == ENOENT)
				return ou_page_removed(scan, segno, tli);
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", path)));
		}
		state->seg.ws_file = fd;
		state->seg.ws_segno = segno;
		state->seg.ws_tli = tli;
	}

	ahead = ou_read_ahead_len(state, targetPagePtr, upto);
	if (ahead > 0)
	{
		if (priv->ahead == NULL)
			priv->ahead = MemoryContextAlloc(GetMemoryChunkContext(priv),
											 OU_READ_AHEAD_PAGES * XLOG_BLCKSZ);
		priv->ahead_len = 0;
		if (!WALRead(state, priv->ahead, targetPagePtr, ahead, tli, &errinfo))
			WALReadRaiseError(&errinfo);
	}
	else if (!WALRead(state, cur_page, targetPagePtr, XLOG_BLCKSZ, tli, &errinfo))
		WALReadRaiseError(&errinfo);

	/*
	 * A segment open since before a checkpoint removed it may have been
	 * recycled meanwhile: renamed to a future segment and overwritten with
	 * its WAL.  So check after reading, as walsenders do: once its number
	 * is removed, what was read may be anyone's, and the segment is gone.
	 */
	if (segno <= XLogGetLastRemovedSegno())
	{
		close(state->seg.ws_file);
		state->seg.ws_file = -1;
		return ou_page_removed(scan, segno, tli);
	}
	if (ahead > 0)
	{
		priv->ahead_start = targetPagePtr;
		priv->ahead_len = ahead;
		priv->ahead_tli = tli;
		memcpy(cur_page, priv->ahead, XLOG_BLCKSZ);
	}
	return count;
}

/*
 * Read on from the first record of find_lsn's segment to the first record
 * starting at or after find_lsn.  For a find_lsn inside the zeroed padding
 * that follows a WAL switch record (whose pages have no valid header, so
 * XLogFindNextRecord cannot start there): the switch record ends at the next
 * segment, where reading goes on.  Returns NULL as ou_find_first_record does.
 */
static XLogRecord *
ou_find_from_segment_start(OuWalScan *scan, char **errormsg)
{
	XLogReaderState *state = scan->reader;
	XLogSegNo	segno;
	XLogRecPtr	seg_start;
	XLogRecord *rec;

	XLByteToSeg(scan->find_lsn, segno, wal_segment_size);
	XLogSegNoOffsetToRecPtr(segno, 0, wal_segment_size, seg_start);
	if (XLogRecPtrIsInvalid(ou_xlog_find_next_record(state, seg_start)))
		return NULL;
	do
	{
		CHECK_FOR_INTERRUPTS();
		rec = XLogReadRecord(state, errormsg);
	} while (rec != NULL && state->ReadRecPtr < scan->find_lsn);
	return rec;
}

/*
 * Position the reader on the first record starting at or after find_lsn and
 * read it (XLogFindNextRecord: core's from 15 on, compat.c's copy on 14).
 * Where no record can be found from find_lsn's page (a page of a switch
 * record's padding), read on from the segment's first record instead.
 * Returns that record, or NULL with page_end / page_removed set.
 */
static XLogRecord *
ou_find_first_record(OuWalScan *scan)
{
	XLogReaderState *state = scan->reader;
	XLogRecord *rec;
	char	   *errormsg = NULL;

	if (!XLogRecPtrIsInvalid(ou_xlog_find_next_record(state, scan->find_lsn)))
		rec = XLogReadRecord(state, &errormsg);
	else
		rec = NULL;
	if (rec == NULL && !scan->page_end && !scan->page_removed &&
		XLogSegmentOffset(scan->find_lsn, wal_segment_size) >= XLOG_BLCKSZ)
	{
		errormsg = NULL;
		rec = ou_find_from_segment_start(scan, &errormsg);
	}
	if (rec == NULL && !scan->page_end && !scan->page_removed)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("could not read WAL at or after %X/%X%s%s",
						LSN_FORMAT_ARGS(scan->find_lsn),
						errormsg ? ": " : (state->errormsg_buf[0] ? ": " : ""),
						errormsg ? errormsg : state->errormsg_buf)));
	return rec;
}

/*
 * ou_resume_lsn
 *		Where reading goes on after the last record read, which ended at
 *		lsn.  XLogBeginRead takes a record's start (14 and 15 assert it; 16
 *		and later also take a page's start): a record that ends at a page
 *		boundary, as a WAL switch record does at its segment's end, leaves
 *		the next one after that page's header, where core's reader itself
 *		goes on (the long header on a segment's first page).
 */
static XLogRecPtr
ou_resume_lsn(XLogRecPtr lsn)
{
	if (lsn % XLOG_BLCKSZ != 0)
		return lsn;
	return lsn + (XLogSegmentOffset(lsn, wal_segment_size) == 0 ?
				  SizeOfXLogLongPHD : SizeOfXLogShortPHD);
}

/*
 * After XLogReadRecord returned no record: OU_WAL_END or OU_WAL_REMOVED to
 * return, or OU_WAL_RECORD to read on (the scan jumped over removed WAL and
 * is to find the first record after it).
 */
static OuWalScanStatus
ou_wal_scan_no_record(OuWalScan *scan, const char *errormsg)
{
	XLogReaderState *state = scan->reader;

	if (scan->page_removed)
	{
		XLogSegNo	oldest = XLogGetLastRemovedSegno() + 1;
		XLogRecPtr	from = scan->need_find ? scan->find_lsn : scan->next_lsn;
		XLogRecPtr	to;

		XLogSegNoOffsetToRecPtr(scan->missing_segno, 0, wal_segment_size,
								scan->removed_lsn);
		if (!scan->skip_removed)
		{
			/* Retry from the same place if called again. */
			if (!scan->need_find)
				scan->need_begin = true;
			return OU_WAL_REMOVED;
		}
		/* Jump to the oldest segment still there, and find a record. */
		if (oldest <= scan->missing_segno)
			oldest = scan->missing_segno + 1;
		XLogSegNoOffsetToRecPtr(oldest, 0, wal_segment_size, to);
		scan->segments_skipped += oldest - scan->missing_segno;
		if (to > from)
			scan->bytes_skipped += to - from;
		scan->need_find = true;
		scan->need_begin = false;
		scan->find_lsn = to;
		scan->next_lsn = to;
		return OU_WAL_RECORD;
	}
	if (scan->page_end)
	{
		if (!scan->need_find)
			scan->need_begin = true;
		return OU_WAL_END;
	}
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("could not read WAL at %X/%X%s%s",
					LSN_FORMAT_ARGS(state->EndRecPtr),
					errormsg ? ": " : "", errormsg ? errormsg : "")));
	pg_unreachable();
}

/*
 * Take the record just read as the current one, unless it ends past
 * end_lsn (pg_walinspect's rule: only records that end at or before it).
 */
static inline OuWalScanStatus
ou_wal_scan_take(OuWalScan *scan)
{
	XLogReaderState *state = scan->reader;

	scan->need_find = false;
	if (!XLogRecPtrIsInvalid(scan->end_lsn) && state->EndRecPtr > scan->end_lsn)
	{
		/* Not returned: a later call starts again at its (known) start. */
		scan->next_lsn = state->ReadRecPtr;
		scan->need_begin = true;
		return OU_WAL_END;
	}
	scan->record_lsn = state->ReadRecPtr;
	scan->next_lsn = state->EndRecPtr;
	scan->records++;
	scan->record_bytes += XLogRecGetTotalLen(state);
	return OU_WAL_RECORD;
}

/* ou_wal_scan_next when a record must be found, or reading begun again */
static pg_noinline OuWalScanStatus
ou_wal_scan_next_slow(OuWalScan *scan)
{
	XLogReaderState *state = scan->reader;

	if (state == NULL)
		elog(ERROR, "WAL scan already ended");

	for (;;)
	{
		XLogRecord *rec;
		char	   *errormsg = NULL;
		OuWalScanStatus st;

		CHECK_FOR_INTERRUPTS();
		scan->page_end = false;
		scan->page_removed = false;

		if (scan->need_find)
			rec = ou_find_first_record(scan);
		else
		{
			if (scan->need_begin)
			{
				XLogBeginRead(state, ou_resume_lsn(scan->next_lsn));
				scan->need_begin = false;
			}
			rec = XLogReadRecord(state, &errormsg);
		}
		if (rec != NULL)
			return ou_wal_scan_take(scan);
		st = ou_wal_scan_no_record(scan, errormsg);
		if (st != OU_WAL_RECORD)
			return st;
	}
}

/*
 * Read the next record (see walscan.h for the statuses).  The common case,
 * reading on from the record before, is kept short: the collector calls
 * this for every record it follows.
 */
OuWalScanStatus
ou_wal_scan_next(OuWalScan *scan)
{
	XLogRecord *rec;
	char	   *errormsg = NULL;
	OuWalScanStatus st;

	if (scan->reader == NULL || scan->need_find || scan->need_begin)
		return ou_wal_scan_next_slow(scan);
	CHECK_FOR_INTERRUPTS();
	scan->page_end = false;
	scan->page_removed = false;
	rec = XLogReadRecord(scan->reader, &errormsg);
	if (likely(rec != NULL))
		return ou_wal_scan_take(scan);
	st = ou_wal_scan_no_record(scan, errormsg);
	return st == OU_WAL_RECORD ? ou_wal_scan_next_slow(scan) : st;
}

/*
 * ERROR for a record whose main data is shorter than its type requires
 * (corrupt WAL, or a record this code misreads): never read past it.
 */
void
ou_wal_bad_record(XLogReaderState *r, const char *what, size_t need)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("invalid %s record at %X/%X", what, LSN_FORMAT_ARGS(r->ReadRecPtr)),
			 errdetail("Its main data is %u bytes long; at least %zu are needed.",
					   (unsigned) XLogRecGetDataLen(r), need)));
}

/*
 * Classify the current record as a B-tree split (see walscan.h).
 */
OuSplitKind
ou_wal_btree_split_kind(XLogReaderState *r, OuRelFileLocator *loc, uint32 *level)
{
	uint8		info;
	uint32		lvl;
	OuSplitKind kind;
	ForkNumber	fork;
	BlockNumber blk;

	if (!ou_wal_btree_split_record(r))
		return OU_SPLIT_NONE;
	info = XLogRecGetInfo(r) & ~XLR_INFO_MASK;
	if (info == XLOG_BTREE_SPLIT_L || info == XLOG_BTREE_SPLIT_R)
	{
		xl_btree_split xlrec;

		if (XLogRecGetDataLen(r) < SizeOfBtreeSplit)
			ou_wal_bad_record(r, "btree split", SizeOfBtreeSplit);
		memset(&xlrec, 0, sizeof(xlrec));
		memcpy(&xlrec, XLogRecGetData(r), SizeOfBtreeSplit);
		lvl = xlrec.level;
		kind = (lvl == 0) ? OU_SPLIT_LEAF : OU_SPLIT_UPPER;
	}
	else
	{
		/* XLOG_BTREE_NEWROOT */
		xl_btree_newroot xlrec;

		if (XLogRecGetDataLen(r) < SizeOfBtreeNewroot)
			ou_wal_bad_record(r, "btree newroot", SizeOfBtreeNewroot);
		memset(&xlrec, 0, sizeof(xlrec));
		memcpy(&xlrec, XLogRecGetData(r), SizeOfBtreeNewroot);
		lvl = xlrec.level;
		if (lvl == 0)
			return OU_SPLIT_NONE;	/* first root of an empty index */
		kind = OU_SPLIT_ROOT;
	}

	if (!ou_rec_block_tag(r, 0, loc, &fork, &blk))
		return OU_SPLIT_NONE;	/* cannot happen for these records */
	if (level != NULL)
		*level = lvl;
	return kind;
}

/*
 * ou_split_tally_create
 *		An empty table of OuSplitTally entries in the current memory context.
 */
HTAB *
ou_split_tally_create(const char *name, long nelem)
{
	HASHCTL		ctl;

	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(OuRelFileLocator);
	ctl.entrysize = sizeof(OuSplitTally);
	ctl.hcxt = CurrentMemoryContext;
	return hash_create(name, nelem, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/*
 * ou_split_tally_count
 *		Count the current record in tally if it is a B-tree split (with
 *		this_db_only, only of an index of this database or a shared one);
 *		returns whether it counted.
 */
bool
ou_split_tally_count(HTAB *tally, XLogReaderState *r, bool this_db_only)
{
	OuRelFileLocator loc;
	OuSplitKind kind;
	OuSplitTally *t;
	bool		found;

	memset(&loc, 0, sizeof(loc));
	kind = ou_wal_btree_split_kind(r, &loc, NULL);
	if (kind == OU_SPLIT_NONE)
		return false;
	if (this_db_only && loc.dbOid != MyDatabaseId && OidIsValid(loc.dbOid))
		return false;
	t = hash_search(tally, &loc, HASH_ENTER, &found);
	if (!found)
		t->leaf_splits = t->upper_splits = t->root_splits = 0;
	if (kind == OU_SPLIT_LEAF)
		t->leaf_splits++;
	else if (kind == OU_SPLIT_UPPER)
		t->upper_splits++;
	else
		t->root_splits++;
	return true;
}

/*
 * Relation OID for a relfilenode of this database (or a shared one).
 */
Oid
ou_wal_relid(const OuRelFileLocator *loc)
{
	if (loc->dbOid != MyDatabaseId && OidIsValid(loc->dbOid))
		return InvalidOid;
	return ou_relid_by_relfilenode(loc->spcOid, loc->relNumber);
}
