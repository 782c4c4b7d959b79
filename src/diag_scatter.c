/*-------------------------------------------------------------------------
 *
 * diag_scatter.c
 *	  index_key_scatter(index regclass): how scattered over the heap the rows
 *	  of an index's most common keys lie, read through the index without the
 *	  planner or the executor, so that no code of the table's owner runs.
 *
 * write_path_report() judges scenario S4 with it on tables the caller did not
 * name.  A query over such a table would run its owner's code as the caller:
 * planning folds IMMUTABLE functions of its index expressions, partial-index
 * predicates and expression statistics, and executing it runs policies,
 * domain checks and the key type's operators.  So the sample is read here
 * with the access methods alone:
 *
 * - the keys are the most common values that ANALYZE stored in pg_statistic,
 *	 as Datums (nothing is cast or parsed);
 * - they are looked up through the index with an equality scan key whose
 *	 operator comes from the index's operator family;
 * - only an index whose leading column is a plain column of one of
 *	 PostgreSQL's own base types, with an operator class of pg_catalog, no
 *	 predicate, on a plain table or materialized view, is read: its
 *	 comparisons are then core's own functions (a role cannot add members to
 *	 an operator family of pg_catalog, nor create a type there);
 * - the heap is only fetched to tell whether a row is visible, and not even
 *	 that on a page the visibility map says is all visible (as an index-only
 *	 scan does); no column is decoded.
 *
 * It reads what pg_stats would show the caller: SELECT on the key column,
 * and nothing of a table whose row-level security applies to the caller
 * (its statistics are hidden, as in pg_stats, and reading its rows would
 * bypass the policy).
 *
 * Locks: it takes ACCESS SHARE on the table, then on the index, only if it
 * can at once (ConditionalLockRelationOid, as autovacuum skips a table it
 * cannot lock: diag_access.c), and releases both before it returns, so that a report over
 * thousands of tables holds at most two relation locks at a time and never
 * waits behind another session.  A lock it cannot have is the state
 * 'locked'.  The rows it reads are capped (max_rows index entries, whatever
 * the statistics estimate).
 *
 * IDENTIFICATION
 *	  src/diag_scatter.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/relation.h"
#include "access/relscan.h"
#include "access/skey.h"
#include "access/tableam.h"
#include "access/visibilitymap.h"
#include "catalog/index.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "compat.h"
#include "diag.h"
#include "util.h"

PG_FUNCTION_INFO_V1(index_key_scatter);

#define OU_SCATTER_COLS 10

/* What one call found. */
typedef struct OuScatter
{
	const char *state;			/* ok, locked, no statistics, ... */
	int64		pages;			/* the table's size in blocks */
	double		rows_per_page;	/* pg_class.reltuples / relpages */
	float4		n_distinct;		/* pg_statistic.stadistinct */
	float4		correlation;	/* NaN: none stored */
	int32		keys;			/* keys read */
	int64		rows;			/* visible rows of those keys */
	int64		blocks;			/* distinct heap blocks, summed over keys */
	int64		packed;			/* blocks the rows would fill packed */
	bool		capped;			/* stopped at max_rows */
	bool		have_stats;		/* n_distinct and correlation are set */
} OuScatter;

/* The index's leading column and how to search it. */
typedef struct OuScatterKey
{
	Oid			table;			/* the index's table */
	AttrNumber	attnum;			/* in the table */
	Oid			typid;			/* the column's type */
	RegProcedure eqproc;		/* the opfamily's equality function */
	Oid			collation;		/* the index column's */
} OuScatterKey;

/* A relation's pg_class row, copied from the cache. */
static void
ou_scatter_class(Oid relid, FormData_pg_class *out)
{
	HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));

	if (!HeapTupleIsValid(tup))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	memcpy(out, GETSTRUCT(tup), sizeof(*out));
	ReleaseSysCache(tup);
}

/* Is typid one of pg_catalog's base types? */
static bool
ou_scatter_core_type(Oid typid)
{
	HeapTuple	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	Form_pg_type typ;
	bool		core;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for type %u", typid);
	typ = (Form_pg_type) GETSTRUCT(tup);
	core = typ->typtype == TYPTYPE_BASE && typ->typnamespace == PG_CATALOG_NAMESPACE;
	ReleaseSysCache(tup);
	return core;
}

/*
 * ou_scatter_check_index
 *		Find index's table and leading column, and refuse an index whose
 *		search would run code that is not core's, or whose entries are not
 *		every row's.  Takes no lock.
 */
static void
ou_scatter_check_index(Oid indexid, OuScatterKey *key)
{
	HeapTuple	tup;
	Form_pg_opclass opc;
	FormData_pg_class rel;
	OuDiagIndexColumn col;
	Oid			eqop,
				family;

	ou_diag_index_column(indexid, &col);
	key->table = col.table;
	key->attnum = col.attnum;
	key->collation = col.collation;

	ou_scatter_class(indexid, &rel);
	if (rel.relam != BTREE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a B-tree index", NameStr(rel.relname))));
	ou_scatter_class(key->table, &rel);
	if (rel.relkind != RELKIND_RELATION && rel.relkind != RELKIND_MATVIEW)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table or materialized view", NameStr(rel.relname))));
	if (key->attnum == 0 || col.partial)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" has a predicate or an expression as its first column",
						get_rel_name(indexid)),
				 errdetail("Only an index of every row whose first column is a plain column is read.")));

	key->typid = get_atttype(key->table, key->attnum);
	tup = SearchSysCache1(CLAOID, ObjectIdGetDatum(col.opclass));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator class %u", col.opclass);
	opc = (Form_pg_opclass) GETSTRUCT(tup);
	if (opc->opcnamespace != PG_CATALOG_NAMESPACE || opc->opcintype != key->typid ||
		!ou_scatter_core_type(key->typid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" is not searched with PostgreSQL's own operators",
						get_rel_name(indexid)),
				 errdetail("Only a column of a base type of pg_catalog, indexed with an operator class of pg_catalog for that type, is read: other types and operator classes run their owner's code.")));
	family = opc->opcfamily;
	ReleaseSysCache(tup);
	eqop = get_opfamily_member(family, key->typid, key->typid, BTEqualStrategyNumber);
	if (!OidIsValid(eqop))
		elog(ERROR, "missing equality operator for index %u", indexid);
	key->eqproc = get_opcode(eqop);
}

/* Sort callback for block numbers. */
static int
ou_block_cmp(const void *a, const void *b)
{
	BlockNumber x = *(const BlockNumber *) a;
	BlockNumber y = *(const BlockNumber *) b;

	return (x > y) - (x < y);
}

/* An index scan of the sample, and the visibility map page it last read. */
typedef struct OuScatterScan
{
	Relation	heap;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	Buffer		vmbuffer;
} OuScatterScan;

/*
 * ou_scatter_visible
 *		Is the row of the index entry just read visible?  As an index-only
 *		scan does: a row on a page that the visibility map says is all
 *		visible is, without a heap fetch (the common case on a vacuumed
 *		table); any other is fetched.  Either way the row stays on the index
 *		entry's block (a HOT chain does not leave its page).
 */
static bool
ou_scatter_visible(OuScatterScan *ss, ItemPointer tid)
{
	if (VM_ALL_VISIBLE(ss->heap, ItemPointerGetBlockNumber(tid), &ss->vmbuffer))
		return true;
	return index_fetch_heap(ss->scan, ss->slot);
}

/*
 * ou_scatter_read_key
 *		Read one key's index entries, at most *budget of them, and add its
 *		visible rows, their distinct heap blocks and the blocks they would
 *		fill packed to out.  The key's block numbers go into keycxt, which the
 *		caller resets after each key; the scan itself runs in the caller's
 *		context, since the index AM keeps what it allocates there (its
 *		rescan and first read allocate) from one key to the next.
 */
static void
ou_scatter_read_key(OuScatterScan *ss, ScanKey skey, MemoryContext keycxt,
					int64 *budget, OuScatter *out)
{
	int64		size = Min(*budget, (int64) 1024);
	BlockNumber *blocks = MemoryContextAlloc(keycxt, sizeof(BlockNumber) * size);
	ItemPointer tid;
	int64		n = 0,
				distinct = 0,
				i;

	index_rescan(ss->scan, skey, 1, NULL, 0);
	while (*budget > 0 && (tid = index_getnext_tid(ss->scan, ForwardScanDirection)) != NULL)
	{
		CHECK_FOR_INTERRUPTS();
		(*budget)--;
		if (!ou_scatter_visible(ss, tid))
			continue;
		if (n == size)
		{
			size *= 2;
			blocks = repalloc_huge(blocks, sizeof(BlockNumber) * size);
		}
		blocks[n++] = ItemPointerGetBlockNumber(tid);
	}
	if (*budget == 0)
		out->capped = true;
	if (n == 0)
		return;
	qsort(blocks, n, sizeof(BlockNumber), ou_block_cmp);
	for (i = 0; i < n; i++)
		if (i == 0 || blocks[i] != blocks[i - 1])
			distinct++;
	out->keys++;
	out->rows += n;
	out->blocks += distinct;
	out->packed += (int64) ceil((double) n / out->rows_per_page);
}

/*
 * ou_scatter_sample
 *		With table and index locked: the key column's statistics, then the
 *		rows of its most common keys, up to max_keys keys and max_rows
 *		index entries.
 */
static void
ou_scatter_sample(Relation heap, Relation index, const OuScatterKey *key,
				  int32 max_keys, int64 max_rows, OuScatter *out)
{
	HeapTuple	stats;
	AttStatsSlot mcv;
	AttStatsSlot corr;
	OuScatterScan ss;
	ScanKeyData skey;
	MemoryContext keycxt;
	Snapshot	snapshot;
	int64		budget = max_rows;
	double		est = 0;
	int			i;

	out->pages = RelationGetNumberOfBlocks(heap);
	if (check_enable_rls(RelationGetRelid(heap), InvalidOid, true) == RLS_ENABLED)
	{
		out->state = "statistics hidden";
		return;
	}
	stats = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(RelationGetRelid(heap)),
							Int16GetDatum(key->attnum), BoolGetDatum(false));
	if (!HeapTupleIsValid(stats))
	{
		out->state = "no statistics";
		return;
	}
	out->have_stats = true;
	out->n_distinct = ((Form_pg_statistic) GETSTRUCT(stats))->stadistinct;
	out->correlation = get_float4_nan();
	if (get_attstatsslot(&corr, stats, STATISTIC_KIND_CORRELATION, InvalidOid, ATTSTATSSLOT_NUMBERS))
	{
		if (corr.nnumbers > 0)
			out->correlation = corr.numbers[0];
		free_attstatsslot(&corr);
	}
	if (heap->rd_rel->reltuples <= 0 || heap->rd_rel->relpages <= 0)
	{
		ReleaseSysCache(stats);
		out->state = "empty";
		return;
	}
	out->rows_per_page = heap->rd_rel->reltuples / heap->rd_rel->relpages;
	if (!get_attstatsslot(&mcv, stats, STATISTIC_KIND_MCV, InvalidOid,
						  ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
	{
		ReleaseSysCache(stats);
		out->state = "no common keys";
		return;
	}
	if (mcv.valuetype != key->typid)
		elog(ERROR, "statistics of index column have type %u, not %u", mcv.valuetype, key->typid);

	snapshot = RegisterSnapshot(GetTransactionSnapshot());
	ss.heap = heap;
	ss.scan = ou_index_beginscan(heap, index, snapshot, 1);
	ss.slot = table_slot_create(heap, NULL);
	ss.vmbuffer = InvalidBuffer;
	keycxt = AllocSetContextCreate(CurrentMemoryContext, "index_key_scatter key", ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < mcv.nvalues && out->keys < max_keys && budget > 0; i++)
	{
		/* the first key always; the next while the estimate stays in bounds */
		est += mcv.numbers[i] * heap->rd_rel->reltuples;
		if (i > 0 && est > max_rows)
			break;
		ScanKeyEntryInitialize(&skey, 0, 1, BTEqualStrategyNumber, InvalidOid,
							   key->collation, key->eqproc, mcv.values[i]);
		ou_scatter_read_key(&ss, &skey, keycxt, &budget, out);
		MemoryContextReset(keycxt);
	}
	MemoryContextDelete(keycxt);
	if (BufferIsValid(ss.vmbuffer))
		ReleaseBuffer(ss.vmbuffer);
	ExecDropSingleTupleTableSlot(ss.slot);
	index_endscan(ss.scan);
	UnregisterSnapshot(snapshot);
	free_attstatsslot(&mcv);
	ReleaseSysCache(stats);
	out->state = "ok";
}

/* index_key_scatter()'s row. */
static Datum
ou_scatter_datum(FunctionCallInfo fcinfo, const OuScatter *s)
{
	TupleDesc	tupdesc;
	Datum		values[OU_SCATTER_COLS];
	bool		nulls[OU_SCATTER_COLS] = {false};
	bool		sampled = strcmp(s->state, "ok") == 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	ou_check_result_columns(tupdesc, OU_SCATTER_COLS, OU_SCATTER_COLS, "index_key_scatter");
	values[0] = CStringGetTextDatum(s->state);
	values[1] = Int64GetDatum(s->pages);
	nulls[1] = s->pages < 0;
	values[2] = Float8GetDatum(ou_round(s->rows_per_page, 2));
	nulls[2] = s->rows_per_page <= 0;
	values[3] = Float4GetDatum(s->n_distinct);
	nulls[3] = !s->have_stats;
	values[4] = Float4GetDatum(s->correlation);
	nulls[4] = !s->have_stats || isnan(s->correlation);
	values[5] = Int32GetDatum(s->keys);
	values[6] = Int64GetDatum(s->rows);
	values[7] = Int64GetDatum(s->blocks);
	values[8] = Int64GetDatum(s->packed);
	values[9] = BoolGetDatum(s->capped);
	for (int i = 5; i < OU_SCATTER_COLS; i++)
		nulls[i] = !sampled;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * index_key_scatter(index regclass, max_keys int, max_rows bigint)
 *		The state of the sample (ok, locked, statistics hidden, no
 *		statistics, empty, no common keys), the table's pages and rows a
 *		page, the key column's n_distinct and correlation, and for 'ok' the
 *		keys read, their rows, the distinct heap blocks of each key added up,
 *		the blocks those rows would fill packed, and whether max_rows cut
 *		the reading short.
 */
Datum
index_key_scatter(PG_FUNCTION_ARGS)
{
	Oid			indexid = PG_GETARG_OID(0);
	int32		max_keys = ou_getarg_int32(fcinfo, 1, "max_keys", 1, 1000);
	int64		max_rows = ou_check_range("max_rows", PG_GETARG_INT64(2), 1, 100000000);
	OuScatterKey key;
	OuScatter	out;
	Relation	heap,
				index;

	memset(&out, 0, sizeof(out));
	out.pages = -1;
	ou_scatter_check_index(indexid, &key);

	/* what pg_stats would show: SELECT on the column */
	ou_diag_check_column_select(key.table, key.attnum, "index_key_scatter");

	if (!ou_diag_lock_index(key.table, indexid, &heap, &index))
	{
		out.state = "locked";
		return ou_scatter_datum(fcinfo, &out);
	}
	if (RELATION_IS_OTHER_TEMP(heap))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot access temporary tables of other sessions")));
	ou_scatter_sample(heap, index, &key, max_keys, max_rows, &out);
	relation_close(index, AccessShareLock);
	relation_close(heap, AccessShareLock);
	return ou_scatter_datum(fcinfo, &out);
}
