/*-------------------------------------------------------------------------
 *
 * diag_newest.c
 *	  index_newest_pages(index regclass, below uuid, max_pages int): how full
 *	  the leaf pages of a uuid B-tree's newest time-ordered keys are, and
 *	  whether the index holds keys above them, read from at most max_pages
 *	  pages and a descent from the root.
 *
 * Time-ordered keys (RFC 9562 versions 7 and 8: uuid_v7_nextval(), core's
 * uuidv7(), uuid_striped_nextval()) begin with their time, so the newest
 * sort last among them.  In a table that only ever took such keys they are
 * the index's right edge, where nbtree splits the rightmost page 90:10 and
 * the pages end 90 % full.  In a table that held random keys before its
 * default became such a generator, the random keys lie on both sides of the
 * newest keys (about 99.4 % of version 4 keys sort above a key of 2025):
 * every split there is a 50:50 split, and the pages the newest keys leave
 * behind end half full unless the generator fills them
 * (uuid_striped_nextval(n, right_edge => false)).  This function measures
 * that directly:
 *
 * - it descends from the root to the leaf page where `below' would be
 *	 inserted (below: by default the first key of the minute after now),
 *	 and takes the largest key under `below' there or on the pages to its
 *	 left: the newest key's page, the one being filled, not measured;
 * - keys_above: that page is not the index's rightmost leaf page, or holds
 *	 keys at or above `below' (or NULLs, which sort last);
 * - then it walks left from that page, over at most max_pages leaf pages,
 *	 while at least half of a page's entries are version 7 or 8 keys, and
 *	 reports their entries, their time-ordered entries and their average
 *	 density (pgstatindex's rule, as index_shape()).
 *
 * No code of the table's owner runs: only an index whose first column is
 * PostgreSQL's uuid, ascending with NULLs last, indexed with an operator
 * class of pg_catalog (whose order is the bytes' order: uuid_cmp is
 * memcmp), is read, and keys are compared here with memcmp.  It reads what
 * a SELECT of the column would show the caller: SELECT on the column, and
 * nothing of a table whose row-level security applies to the caller
 * (state 'hidden').  It takes ACCESS SHARE on the table, then the index,
 * only if it can at once (state 'locked' otherwise, as index_key_scatter()),
 * holds one buffer lock at a time and releases everything before it
 * returns.  The descent moves right past pages split or deleted meanwhile,
 * as nbtree's own does; the walk left reads each page once, so a page split
 * during the walk may be counted from one side only: the figures are a
 * snapshot, not a consistent read.
 *
 * IDENTIFICATION
 *	  src/diag_newest.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/itup.h"
#include "access/nbtree.h"
#include "access/relation.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "diag.h"
#include "generators.h"
#include "util.h"

PG_FUNCTION_INFO_V1(index_newest_pages);

#define OU_NEWEST_COLS		7
/* the most leaf pages one call reads behind the newest key */
#define OU_NEWEST_MAX_PAGES	100000
/* the default bound: keys whose time is before now + this */
#define OU_NEWEST_AHEAD_US	INT64CONST(60000000)

/* What one call found. */
typedef struct OuNewest
{
	const char *state;			/* ok, locked, hidden, no keys below, no ordered
								 * keys */
	TimestampTz newest_time;	/* the newest time-ordered key's time */
	int32		pages;			/* leaf pages measured behind its page */
	int64		tuples;			/* their entries */
	int64		ordered;		/* those of version 7 or 8 */
	double		free_space;		/* their free bytes */
	double		max_avail;		/* their usable bytes */
	bool		keys_above;		/* the index holds keys at or above below */
} OuNewest;

/* The version field of a key of the RFC 9562 variant: 7 and 8 are ordered. */
static bool
ou_newest_ordered(const pg_uuid_t *u)
{
	int			version = u->data[6] >> 4;

	return (u->data[8] & 0xc0) == 0x80 && (version == 7 || version == 8);
}

/*
 * ou_newest_check_index
 *		Refuse an index this function cannot read without running code that
 *		is not core's; return its first column.  Takes no lock.
 */
static void
ou_newest_check_index(Oid indexid, OuDiagIndexColumn *col)
{
	HeapTuple	tup;
	Form_pg_opclass opc;
	Oid			relam;
	char		relkind;

	ou_diag_index_column(indexid, col);
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(indexid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", indexid);
	relam = ((Form_pg_class) GETSTRUCT(tup))->relam;
	ReleaseSysCache(tup);
	if (relam != BTREE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a B-tree index", get_rel_name(indexid))));
	relkind = get_rel_relkind(col->table);
	if (relkind != RELKIND_RELATION && relkind != RELKIND_MATVIEW)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table or materialized view", get_rel_name(col->table))));

	tup = SearchSysCache1(CLAOID, ObjectIdGetDatum(col->opclass));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator class %u", col->opclass);
	opc = (Form_pg_opclass) GETSTRUCT(tup);
	if (col->attnum == 0 || get_atttype(col->table, col->attnum) != UUIDOID ||
		opc->opcintype != UUIDOID || opc->opcnamespace != PG_CATALOG_NAMESPACE || col->option != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" is not an ascending index of a uuid column", get_rel_name(indexid)),
				 errdetail("Only an index whose first column is a uuid column, ascending with NULLs last and indexed with an operator class of pg_catalog, is read.")));
	ReleaseSysCache(tup);
}

/*
 * ou_newest_cmp
 *		The order of index tuple itup's key against below: < 0, 0, > 0.  A
 *		pivot tuple without key (the first of an internal page: minus
 *		infinity) sorts first, NULL last.
 */
static int
ou_newest_cmp(Relation index, IndexTuple itup, const pg_uuid_t *below)
{
	bool		isnull;
	Datum		d;

	if (BTreeTupleGetNAtts(itup, index) == 0)
		return -1;
	d = index_getattr(itup, 1, RelationGetDescr(index), &isnull);
	if (isnull)
		return 1;
	return memcmp(DatumGetUUIDP(d)->data, below->data, UUID_LEN);
}

/* The key of the tuple at off of a leaf page (not NULL: see callers). */
static const pg_uuid_t *
ou_newest_key(Relation index, Page page, OffsetNumber off, bool *isnull)
{
	IndexTuple	itup = (IndexTuple) PageGetItem(page, PageGetItemId(page, off));

	return DatumGetUUIDP(index_getattr(itup, 1, RelationGetDescr(index), isnull));
}

/*
 * ou_newest_last_below
 *		The offset of the last entry of a page whose key sorts below below,
 *		InvalidOffsetNumber if none does.
 */
static OffsetNumber
ou_newest_last_below(Relation index, Page page, BTPageOpaque opaque, const pg_uuid_t *below)
{
	OffsetNumber off;

	for (off = PageGetMaxOffsetNumber(page); off >= P_FIRSTDATAKEY(opaque); off--)
	{
		IndexTuple	itup = (IndexTuple) PageGetItem(page, PageGetItemId(page, off));

		if (ou_newest_cmp(index, itup, below) < 0)
			return off;
	}
	return InvalidOffsetNumber;
}

/* Read and share-lock block blkno of the index. */
static Buffer
ou_newest_read(Relation index, BlockNumber blkno)
{
	Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, blkno, RBM_NORMAL, NULL);

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	return buf;
}

/*
 * ou_newest_descend
 *		The leaf page where below would be inserted, share-locked; moves
 *		right past pages deleted or split meanwhile (those whose high key is
 *		below below).  InvalidBuffer when the index has no root yet.
 */
static Buffer
ou_newest_descend(Relation index, const pg_uuid_t *below)
{
	Buffer		buf = ou_newest_read(index, BTREE_METAPAGE);
	BTMetaPageData *meta = BTPageGetMeta(BufferGetPage(buf));
	BlockNumber blkno = meta->btm_fastroot;

	if (meta->btm_magic != BTREE_MAGIC)
		ereport(ERROR,
				(errcode(ERRCODE_INDEX_CORRUPTED),
				 errmsg("index \"%s\" is not a btree", RelationGetRelationName(index))));
	UnlockReleaseBuffer(buf);
	if (blkno == P_NONE)
		return InvalidBuffer;

	for (;;)
	{
		Page		page;
		BTPageOpaque opaque;
		OffsetNumber off;

		CHECK_FOR_INTERRUPTS();
		buf = ou_newest_read(index, blkno);
		page = BufferGetPage(buf);
		opaque = (BTPageOpaque) PageGetSpecialPointer(page);
		if (!P_RIGHTMOST(opaque) &&
			(P_IGNORE(opaque) ||
			 ou_newest_cmp(index, (IndexTuple) PageGetItem(page, PageGetItemId(page, P_HIKEY)),
						   below) < 0))
		{
			blkno = opaque->btpo_next;
			UnlockReleaseBuffer(buf);
			continue;
		}
		if (P_ISLEAF(opaque))
			return buf;
		/* the last downlink whose separator sorts below below */
		off = ou_newest_last_below(index, page, opaque, below);
		if (off == InvalidOffsetNumber)
			elog(ERROR, "internal page %u of index \"%s\" has no downlink",
				 blkno, RelationGetRelationName(index));
		blkno = BTreeTupleGetDownLink((IndexTuple) PageGetItem(page, PageGetItemId(page, off)));
		UnlockReleaseBuffer(buf);
	}
}

/*
 * ou_newest_find
 *		From the leaf page buf (share-locked) where below would go: say
 *		whether the index holds keys at or above below, then find the newest
 *		key below below, stepping left past pages that hold none, and its
 *		time if it is time-ordered.  Returns the newest key's page (locked),
 *		or InvalidBuffer when no key sorts below below.
 */
static Buffer
ou_newest_find(Relation index, Buffer buf, const pg_uuid_t *below, OuNewest *out)
{
	Page		page = BufferGetPage(buf);
	BTPageOpaque opaque = (BTPageOpaque) PageGetSpecialPointer(page);
	OffsetNumber off = ou_newest_last_below(index, page, opaque, below);

	out->keys_above = !P_RIGHTMOST(opaque) || off < PageGetMaxOffsetNumber(page);
	while (off == InvalidOffsetNumber)
	{
		BlockNumber prev = opaque->btpo_prev;

		UnlockReleaseBuffer(buf);
		if (prev == P_NONE)
			return InvalidBuffer;
		CHECK_FOR_INTERRUPTS();
		buf = ou_newest_read(index, prev);
		page = BufferGetPage(buf);
		opaque = (BTPageOpaque) PageGetSpecialPointer(page);
		if (!P_IGNORE(opaque))
			off = ou_newest_last_below(index, page, opaque, below);
	}

	/* the newest time-ordered key of that page */
	for (; off >= P_FIRSTDATAKEY(opaque); off--)
	{
		bool		isnull;
		const pg_uuid_t *key = ou_newest_key(index, page, off, &isnull);

		if (!isnull && ou_newest_ordered(key))
		{
			uint64		ms = 0;

			for (int i = 0; i < 6; i++)
				ms = (ms << 8) | key->data[i];
			out->newest_time = (TimestampTz) (ms * 1000) - OU_UNIX_EPOCH_OFFSET_US;
			out->state = "ok";
			break;
		}
	}
	return buf;
}

/*
 * ou_newest_walk
 *		Walk left from the newest key's page buf (locked; released here)
 *		over at most max_pages leaf pages while at least half of a page's
 *		entries are time-ordered, adding up their entries and space.
 */
static void
ou_newest_walk(Relation index, Buffer buf, int32 max_pages, OuNewest *out)
{
	BlockNumber prev = ((BTPageOpaque) PageGetSpecialPointer(BufferGetPage(buf)))->btpo_prev;

	UnlockReleaseBuffer(buf);
	while (prev != P_NONE && out->pages < max_pages)
	{
		Page		page;
		BTPageOpaque opaque;
		int64		tuples = 0;
		int64		ordered = 0;

		CHECK_FOR_INTERRUPTS();
		buf = ou_newest_read(index, prev);
		page = BufferGetPage(buf);
		opaque = (BTPageOpaque) PageGetSpecialPointer(page);
		prev = opaque->btpo_prev;
		if (P_IGNORE(opaque) || !P_ISLEAF(opaque))
		{
			UnlockReleaseBuffer(buf);
			continue;
		}
		for (OffsetNumber off = P_FIRSTDATAKEY(opaque); off <= PageGetMaxOffsetNumber(page); off++)
		{
			bool		isnull;
			const pg_uuid_t *key = ou_newest_key(index, page, off, &isnull);

			tuples++;
			if (!isnull && ou_newest_ordered(key))
				ordered++;
		}
		if (ordered * 2 < tuples || tuples == 0)
		{
			/* the time-ordered keys' region ends here */
			UnlockReleaseBuffer(buf);
			break;
		}
		out->pages++;
		out->tuples += tuples;
		out->ordered += ordered;
		out->max_avail += BLCKSZ - (BLCKSZ - ((PageHeader) page)->pd_special + SizeOfPageHeaderData);
		out->free_space += PageGetExactFreeSpace(page);
		UnlockReleaseBuffer(buf);
	}
}

/* index_newest_pages()'s row. */
static Datum
ou_newest_datum(FunctionCallInfo fcinfo, const OuNewest *n)
{
	TupleDesc	tupdesc;
	Datum		values[OU_NEWEST_COLS];
	bool		nulls[OU_NEWEST_COLS] = {false};
	bool		found = strcmp(n->state, "ok") == 0;
	bool		read = strcmp(n->state, "locked") != 0 && strcmp(n->state, "hidden") != 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	ou_check_result_columns(tupdesc, OU_NEWEST_COLS, OU_NEWEST_COLS, "index_newest_pages");
	values[0] = CStringGetTextDatum(n->state);
	values[1] = TimestampTzGetDatum(n->newest_time);
	nulls[1] = !found;
	values[2] = BoolGetDatum(n->keys_above);
	nulls[2] = !read;
	values[3] = Int32GetDatum(n->pages);
	values[4] = Int64GetDatum(n->tuples);
	values[5] = Int64GetDatum(n->ordered);
	nulls[3] = nulls[4] = nulls[5] = !found;
	values[6] = Float8GetDatum(n->max_avail > 0 ?
							   ou_round(100.0 - n->free_space / n->max_avail * 100.0, 2) : 0);
	nulls[6] = !found || n->max_avail <= 0;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * ou_newest_default_below
 *		The first key of the minute after now: 48 bits of Unix milliseconds,
 *		every other bit zero.
 */
static void
ou_newest_default_below(pg_uuid_t *below)
{
	int64		us = GetCurrentTimestamp() + OU_UNIX_EPOCH_OFFSET_US + OU_NEWEST_AHEAD_US;
	uint64		ms = (uint64) Max(us, 0) / 1000;

	memset(below, 0, sizeof(*below));
	for (int i = 0; i < 6; i++)
		below->data[i] = (uint8) (ms >> (8 * (5 - i)));
}

/*
 * index_newest_pages(index regclass, below uuid, max_pages int)
 *		The state (ok, locked, hidden, no keys below, no ordered keys), the newest
 *		time-ordered key's time, whether the index holds keys above below,
 *		and the leaf pages behind the newest key's page: how many, their
 *		entries, their time-ordered entries and their average density.
 */
Datum
index_newest_pages(PG_FUNCTION_ARGS)
{
	Oid			indexid;
	int32		max_pages = ou_getarg_int32(fcinfo, 2, "max_pages", 1, OU_NEWEST_MAX_PAGES);
	OuDiagIndexColumn col;
	pg_uuid_t	below;
	OuNewest	out;
	Relation	heap,
				index;
	Buffer		buf;

	ou_check_not_null(fcinfo, 0, "index");
	indexid = PG_GETARG_OID(0);
	memset(&out, 0, sizeof(out));
	if (PG_ARGISNULL(1))
		ou_newest_default_below(&below);
	else
		memcpy(&below, PG_GETARG_UUID_P(1), sizeof(below));
	ou_newest_check_index(indexid, &col);
	ou_diag_check_column_select(col.table, col.attnum, "index_newest_pages");
	if (!ou_diag_lock_index(col.table, indexid, &heap, &index))
	{
		out.state = "locked";
		return ou_newest_datum(fcinfo, &out);
	}
	if (RELATION_IS_OTHER_TEMP(heap))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot access temporary tables of other sessions")));
	out.state = "no keys below";
	if (check_enable_rls(col.table, InvalidOid, true) == RLS_ENABLED)
		out.state = "hidden";
	else if ((buf = ou_newest_descend(index, &below)) != InvalidBuffer &&
			 (buf = ou_newest_find(index, buf, &below, &out)) != InvalidBuffer)
	{
		if (strcmp(out.state, "ok") != 0)
		{
			out.state = "no ordered keys";
			UnlockReleaseBuffer(buf);
		}
		else
			ou_newest_walk(index, buf, max_pages, &out);
	}
	relation_close(index, AccessShareLock);
	relation_close(heap, AccessShareLock);
	return ou_newest_datum(fcinfo, &out);
}
