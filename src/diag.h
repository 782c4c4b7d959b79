/*-------------------------------------------------------------------------
 *
 * diag.h
 *	  What the diagnostics share.  Each of diag_shape.c, diag_splits.c,
 *	  diag_scatter.c, diag_newest.c and diag_explain_writes.c holds one SQL
 *	  function (the two that read an index's entries for a caller share
 *	  diag_access.c); those that read the WAL use walscan.h, and explain_writes() reads it through
 *	  diag_writes_wal.c, holding it meanwhile with the slot of
 *	  diag_writes_slot.c.  Who may call them is decided by GRANT alone
 *	  (extension/20_diag.sql): no C check overrides it.
 *
 * IDENTIFICATION
 *	  src/diag.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_DIAG_H
#define ORDERED_UUID_DIAG_H

#include "utils/hsearch.h"
#include "utils/relcache.h"

#include "access/transam.h"

#include "compat.h"

/* What one statement's WAL wrote to one relation file (diag_writes_wal.c). */
typedef struct OuRelWrites
{
	OuRelFileLocator key;
	int64		records;
	int64		bytes;
	int64		fpi;			/* full-page images of its blocks */
	int64		leaf;			/* B-tree leaf splits */
	int64		upper;			/* B-tree upper splits */
	int64		added;			/* distinct main-fork blocks written from scratch */
	bool		created;		/* the statement created the file */
} OuRelWrites;

/* The xids that may be the statement's (diag_writes_wal.c). */
typedef struct OuStmtXids
{
	TransactionId first;		/* next xid before the statement */
	TransactionId next;			/* next xid after it */
	TransactionId top;			/* this transaction's xid (Invalid: none) */
	TransactionId last;			/* cache of the last answer */
	bool		last_ours;
} OuStmtXids;

/* The shape of a B-tree index, pgstatindex's counts (diag_shape.c). */
typedef struct OuIndexShape
{
	int64		leaf_pages;
	int64		internal_pages;
	int32		levels;			/* 0: no root yet */
	double		avg_leaf_density;	/* -1: no leaf pages */
	double		leaf_fragmentation; /* -1: no leaf pages */
	int64		deleted_pages;
	int64		empty_pages;
	BlockNumber nblocks;		/* the index's size in blocks */
	/* ou_index_shape_from: the leaf pages from a block on, apart */
	int64		added_leaf_pages;
	double		added_leaf_density; /* -1: none */
} OuIndexShape;

extern void ou_index_shape_of(Oid relid, OuIndexShape *out);
extern void ou_index_shape_from(Oid relid, BlockNumber from, OuIndexShape *out);

/* An index's first column as pg_index records it (diag_access.c). */
typedef struct OuDiagIndexColumn
{
	Oid			table;			/* the index's table */
	AttrNumber	attnum;			/* in the table; 0: an expression */
	Oid			opclass;
	Oid			collation;
	int16		option;			/* INDOPTION_DESC, INDOPTION_NULLS_FIRST */
	bool		partial;		/* the index has a predicate */
} OuDiagIndexColumn;

/* diag_access.c: reading an index's entries for a caller */
extern void ou_diag_index_column(Oid indexid, OuDiagIndexColumn *col);
extern void ou_diag_check_column_select(Oid table, AttrNumber attnum, const char *fname);
extern bool ou_diag_lock_index(Oid tableid, Oid indexid, Relation *heap, Relation *index);

extern void ou_stmt_xids_begin(OuStmtXids *x);
extern void ou_stmt_xids_end(OuStmtXids *x);
extern HTAB *ou_writes_scan(XLogRecPtr start, XLogRecPtr end, OuStmtXids *xids,
							OuRelWrites *other, const char *hint);

/* diag_writes_slot.c: the slot that holds the statement's WAL meanwhile */
extern bool ou_hold_wal(void);
extern void ou_release_wal(void);

#endif							/* ORDERED_UUID_DIAG_H */
