/*-------------------------------------------------------------------------
 *
 * diag_writes_wal.c
 *	  explain_writes()'s reading of the WAL: which records belong to the
 *	  statement, and what they wrote per relation file.
 *
 * Attribution: a record belongs to the statement when its xid is one of
 * this transaction's, committed or aborted.  TransactionIdIsCurrentTransactionId
 * knows the top-level transaction and the subtransactions still open or
 * committed into it, but forgets a subtransaction once it aborts (a PL/pgSQL
 * EXCEPTION block that caught an error).  Every xid assigned while the
 * statement ran lies in [next xid before, next xid after); for those,
 * pg_subtrans (which keeps the parent of every subtransaction, aborted or
 * not, at least back to this transaction's xmin) tells whether its topmost
 * transaction is ours.
 *
 * Per relation file (the first block reference of a record names it):
 * records, bytes, full-page images of any of its blocks (block 0 included),
 * B-tree splits, and blocks_added: the distinct main-fork blocks the
 * statement wrote from scratch.  A file the statement created (CREATE
 * INDEX, REINDEX, CLUSTER, VACUUM FULL, TRUNCATE, REFRESH) started empty, so
 * every block written to it is added; in an older file, a block flagged
 * will-init is, except block 0 of an index (its metapage or GiST's root,
 * which exist from the index's creation and are only rewritten).  Core
 * creates a relation's file before the transaction may have an xid, so its
 * XLOG_SMGR_CREATE record can carry none: one without an xid is the
 * statement's when the file now belongs to a relation to which this
 * transaction gave its file (the relation cache says so; another session's
 * new file cannot be one).
 *
 * IDENTIFICATION
 *	  src/diag_writes_wal.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/rmgr.h"
#include "access/subtrans.h"
#include "access/transam.h"
#include "access/xact.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/hsearch.h"

#include "compat.h"
#include "diag.h"
#include "walscan.h"

/* A main-fork block of a relation file, for counting distinct blocks. */
typedef struct OuBlockKey
{
	OuRelFileLocator loc;
	BlockNumber blk;
} OuBlockKey;

/* Before the statement runs: the first xid it could be assigned. */
void
ou_stmt_xids_begin(OuStmtXids *x)
{
	memset(x, 0, sizeof(*x));
	x->first = XidFromFullTransactionId(ReadNextFullTransactionId());
	x->last = InvalidTransactionId;
}

/* After it ran: the end of the xids assigned meanwhile, and our top xid. */
void
ou_stmt_xids_end(OuStmtXids *x)
{
	x->next = XidFromFullTransactionId(ReadNextFullTransactionId());
	x->top = GetTopTransactionIdIfAny();
}

/*
 * Is xid this transaction's (the top-level one or any subtransaction,
 * committed, open or aborted)?
 */
static bool
ou_stmt_xid_is_ours(OuStmtXids *x, TransactionId xid)
{
	bool		ours;

	if (!TransactionIdIsNormal(xid) || !TransactionIdIsValid(x->top))
		return false;
	if (xid == x->last)
		return x->last_ours;
	ours = TransactionIdIsCurrentTransactionId(xid);
	/* An xid assigned during the statement: ask pg_subtrans. */
	if (!ours && TransactionIdFollowsOrEquals(xid, x->first) &&
		TransactionIdPrecedes(xid, x->next))
		ours = TransactionIdEquals(SubTransGetTopmostTransaction(xid), x->top);
	x->last = xid;
	x->last_ours = ours;
	return ours;
}

/*
 * Is the file an XLOG_SMGR_CREATE record without an xid made one that this
 * transaction gave to a relation?  Only a relation we can lock at once can
 * be ours (we hold a lock on what we create); nothing waits here.
 */
static bool
ou_file_created_here(const OuRelFileLocator *loc)
{
	Oid			relid = ou_wal_relid(loc);
	Relation	rel;
	bool		ours;

	if (!OidIsValid(relid) || !ConditionalLockRelationOid(relid, AccessShareLock))
		return false;
	rel = RelationIdGetRelation(relid);
	ours = RelationIsValid(rel) && OU_REL_FILE_NEW_IN_XACT(rel);
	if (RelationIsValid(rel))
		RelationClose(rel);
	UnlockRelationOid(relid, AccessShareLock);
	return ours;
}

/* Find or add the counters of a relation file. */
static OuRelWrites *
ou_rel_entry(HTAB *h, const OuRelFileLocator *loc)
{
	bool		found;
	OuRelWrites *w = hash_search(h, loc, HASH_ENTER, &found);

	if (!found)
	{
		w->records = w->bytes = w->fpi = w->leaf = w->upper = w->added = 0;
		w->created = false;
	}
	return w;
}

static HTAB *
ou_hash(const char *name, Size keysize, Size entrysize)
{
	HASHCTL		ctl;

	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = keysize;
	ctl.entrysize = entrysize;
	ctl.hcxt = CurrentMemoryContext;
	return hash_create(name, 64, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/* Full-page images and blocks added, per block reference of the record. */
static void
ou_count_blocks(XLogReaderState *r, HTAB *rels, HTAB *blocks)
{
	bool		index_rmgr;
	int			id;

	index_rmgr = XLogRecGetRmid(r) == RM_BTREE_ID || XLogRecGetRmid(r) == RM_HASH_ID ||
		XLogRecGetRmid(r) == RM_GIN_ID || XLogRecGetRmid(r) == RM_GIST_ID ||
		XLogRecGetRmid(r) == RM_SPGIST_ID || XLogRecGetRmid(r) == RM_BRIN_ID;

	for (id = 0; id <= OU_REC_MAX_BLOCK_ID(r); id++)
	{
		OuBlockKey bk;
		ForkNumber	fork;
		OuRelWrites *w;
		bool		added;
		bool		found;

		memset(&bk, 0, sizeof(bk));
		if (!ou_rec_block_tag(r, id, &bk.loc, &fork, &bk.blk))
			continue;
		w = ou_rel_entry(rels, &bk.loc);
		if (XLogRecHasBlockImage(r, id))
			w->fpi++;
		if (fork != MAIN_FORKNUM)
			continue;
		if (w->created)
			added = true;
		else
			added = (OU_REC_BLOCK_FLAGS(r, id) & BKPBLOCK_WILL_INIT) &&
				!(bk.blk == 0 && index_rmgr);
		if (!added)
			continue;
		(void) hash_search(blocks, &bk, HASH_ENTER, &found);
		if (!found)
			w->added++;
	}
}

/*
 * ou_writes_scan
 *		Read the WAL from start to end and return, per relation file, what
 *		this transaction's records in it wrote (OuRelWrites entries, in the
 *		current memory context); records of ours that name no block go to
 *		*other.  hint: for the error when the WAL was removed meanwhile.
 */
HTAB *
ou_writes_scan(XLogRecPtr start, XLogRecPtr end, OuStmtXids *xids,
			   OuRelWrites *other, const char *hint)
{
	HTAB	   *rels = ou_hash("explain_writes relations", sizeof(OuRelFileLocator),
							   sizeof(OuRelWrites));
	HTAB	   *blocks = ou_hash("explain_writes blocks", sizeof(OuBlockKey),
								 sizeof(OuBlockKey));
	OuWalScan  *scan;
	OuWalScanStatus st;

	memset(other, 0, sizeof(*other));
	scan = ou_wal_scan_begin(start, end, false);
	while ((st = ou_wal_scan_next(scan)) == OU_WAL_RECORD)
	{
		XLogReaderState *r = scan->reader;
		OuRelFileLocator loc;
		ForkNumber	fork;
		BlockNumber blk;
		OuRelWrites *w;
		OuSplitKind kind;

		if (!ou_stmt_xid_is_ours(xids, XLogRecGetXid(r)) &&
			!(XLogRecGetXid(r) == InvalidTransactionId &&
			  ou_rec_smgr_create(r, &loc) && ou_file_created_here(&loc)))
			continue;

		/* The record belongs to the relation of its first block ... */
		memset(&loc, 0, sizeof(loc));
		if (OU_REC_MAX_BLOCK_ID(r) >= 0 && ou_rec_block_tag(r, 0, &loc, &fork, &blk))
			w = ou_rel_entry(rels, &loc);
		/* ... or to the file it creates: every block written to it is new. */
		else if (ou_rec_smgr_create(r, &loc))
		{
			w = ou_rel_entry(rels, &loc);
			w->created = true;
		}
		else
			w = other;
		w->records++;
		w->bytes += XLogRecGetTotalLen(r);

		kind = ou_wal_btree_split_kind(r, &loc, NULL);
		if (kind == OU_SPLIT_LEAF)
			w->leaf++;
		else if (kind == OU_SPLIT_UPPER)
			w->upper++;
		ou_count_blocks(r, rels, blocks);
	}
	if (st == OU_WAL_REMOVED)
		ou_wal_scan_error_removed(scan, hint);
	ou_wal_scan_end(scan);
	hash_destroy(blocks);
	return rels;
}
