/*-------------------------------------------------------------------------
 *
 * diag_shape.c
 *	  index_shape(index regclass): the page-level shape of a B-tree (leaf and
 *	  internal pages, levels, leaf density and fragmentation), read through a
 *	  bulk-read ring so that it does not flood shared buffers.
 *
 * The counting rules are pgstatindex's (pgstattuple 1.5+), so the two agree;
 * free space is PageGetExactFreeSpace(), as pgstatindex counts it since PG18
 * (before, it left out one line pointer per page: up to 0.05 points denser).
 *
 * An index of a Citus table is an empty shell on the coordinator: its shape
 * is that of its shard indexes on the nodes, added up (citus.c).
 *
 * IDENTIFICATION
 *	  src/diag_shape.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "access/relation.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "citus.h"
#include "compat.h"
#include "diag.h"
#include "util.h"

PG_FUNCTION_INFO_V1(index_shape);

/* index_shape()'s row. */
static Datum
ou_index_shape_datum(FunctionCallInfo fcinfo, const OuIndexShape *sh)
{
	TupleDesc	tupdesc;
	Datum		values[7];
	bool		nulls[7] = {false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = Int64GetDatum(sh->leaf_pages);
	values[1] = Int64GetDatum(sh->internal_pages);
	values[2] = Int32GetDatum(sh->levels);
	values[3] = Float8GetDatum(sh->avg_leaf_density);
	nulls[3] = sh->avg_leaf_density < 0;
	values[4] = Float8GetDatum(sh->leaf_fragmentation);
	nulls[4] = sh->leaf_fragmentation < 0;
	values[5] = Int64GetDatum(sh->deleted_pages);
	values[6] = Int64GetDatum(sh->empty_pages);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * ou_index_shape_citus
 *		index_shape()'s row for an index of a Citus table: the shapes of its
 *		shard indexes on the nodes, added up (ou_citus_index_shape).
 */
static Datum
ou_index_shape_citus(FunctionCallInfo fcinfo, Oid indexid, Oid tableid)
{
	OuCitusIndexShape cs;
	OuIndexShape sh;

	ou_citus_index_shape(indexid, tableid,
						 get_namespace_name(get_func_namespace(fcinfo->flinfo->fn_oid)), &cs);
	memset(&sh, 0, sizeof(sh));
	sh.leaf_pages = cs.leaf_pages;
	sh.internal_pages = cs.internal_pages;
	sh.levels = cs.levels;
	sh.avg_leaf_density = cs.avg_leaf_density;
	sh.leaf_fragmentation = cs.leaf_fragmentation;
	sh.deleted_pages = cs.deleted_pages;
	sh.empty_pages = cs.empty_pages;
	return ou_index_shape_datum(fcinfo, &sh);
}

/*
 * ou_index_shape_read
 *		Read every page of B-tree rel (opened and locked by the caller) and
 *		fill out with pgstatindex's counts; the leaf pages numbered from
 *		block from on are counted apart too (InvalidBlockNumber: none).
 */
static void
ou_index_shape_read(Relation rel, BlockNumber from, OuIndexShape *out)
{
	BufferAccessStrategy bstrategy = GetAccessStrategy(BAS_BULKREAD);
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	BlockNumber blkno;
	Buffer		buf;
	Page		page;
	int64		fragments = 0;
	double		max_avail = 0,
				free_space = 0,
				added_avail = 0,
				added_free = 0;

	memset(out, 0, sizeof(*out));
	out->nblocks = nblocks;

	/* The metapage: is there a root, and at which level. */
	if (nblocks > 0)
	{
		BTMetaPageData *meta;

		buf = ReadBufferExtended(rel, MAIN_FORKNUM, BTREE_METAPAGE, RBM_NORMAL, bstrategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		meta = BTPageGetMeta(page);
		if (meta->btm_magic != BTREE_MAGIC)
			ereport(ERROR,
					(errcode(ERRCODE_INDEX_CORRUPTED),
					 errmsg("index \"%s\" is not a btree", RelationGetRelationName(rel))));
		if (meta->btm_root != P_NONE)
			out->levels = (int32) meta->btm_level + 1;
		UnlockReleaseBuffer(buf);
	}

	for (blkno = 1; blkno < nblocks; blkno++)
	{
		BTPageOpaque opaque;

		CHECK_FOR_INTERRUPTS();
		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, bstrategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		opaque = (BTPageOpaque) PageGetSpecialPointer(page);

		if (PageIsNew(page))
			out->empty_pages++;
		else if (P_ISDELETED(opaque))
			out->deleted_pages++;
		else if (P_IGNORE(opaque))
			out->empty_pages++; /* half-dead */
		else if (P_ISLEAF(opaque))
		{
			double		avail = BLCKSZ - (BLCKSZ - ((PageHeader) page)->pd_special + SizeOfPageHeaderData);

			max_avail += avail;
			free_space += PageGetExactFreeSpace(page);
			out->leaf_pages++;
			if (blkno >= from)
			{
				added_avail += avail;
				added_free += PageGetExactFreeSpace(page);
				out->added_leaf_pages++;
			}
			/* A right sibling physically before the page: a "fragment". */
			if (opaque->btpo_next != P_NONE && opaque->btpo_next < blkno)
				fragments++;
		}
		else
			out->internal_pages++;
		UnlockReleaseBuffer(buf);
	}
	FreeAccessStrategy(bstrategy);

	out->avg_leaf_density = max_avail > 0 ?
		ou_round(100.0 - free_space / max_avail * 100.0, 2) : -1;
	out->leaf_fragmentation = out->leaf_pages > 0 ?
		ou_round((double) fragments / (double) out->leaf_pages * 100.0, 2) : -1;
	out->added_leaf_density = added_avail > 0 ?
		ou_round(100.0 - added_free / added_avail * 100.0, 2) : -1;
}

/*
 * ou_index_shape_open
 *		Open relid as a B-tree index of this session that index_shape() can
 *		read, or raise the error that says why not.
 */
static Relation
ou_index_shape_open(Oid relid)
{
	Relation	rel = try_relation_open(relid, AccessShareLock);

	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	/* like core's "is a partitioned table": it has no pages to read */
	if (rel->rd_rel->relkind == RELKIND_PARTITIONED_INDEX && rel->rd_rel->relam == BTREE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is a partitioned index", RelationGetRelationName(rel)),
				 errdetail("A partitioned index holds no entries: each partition has an index of its own."),
				 errhint("Call index_shape() on the index of each partition: pg_partition_tree() of this index lists them.")));
	if (rel->rd_rel->relkind != RELKIND_INDEX || rel->rd_rel->relam != BTREE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a B-tree index", RelationGetRelationName(rel))));
	if (RELATION_IS_OTHER_TEMP(rel))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot access temporary indexes of other sessions")));
	return rel;
}

/*
 * ou_index_shape_of
 *		The shape of a local B-tree index, for C callers (the benchmarks
 *		measure their own scratch indexes with it, whoever runs them).  No
 *		privilege check: the SQL function's EXECUTE privilege decides for
 *		SQL callers.
 */
void
ou_index_shape_of(Oid relid, OuIndexShape *out)
{
	ou_index_shape_from(relid, InvalidBlockNumber, out);
}

/*
 * ou_index_shape_from
 *		ou_index_shape_of, and the leaf pages numbered from block from on
 *		apart (added_leaf_pages, added_leaf_density): on an index that only
 *		had inserts since it had from blocks, the pages those inserts split
 *		off (new pages are appended; none is reused without a deletion).
 */
void
ou_index_shape_from(Oid relid, BlockNumber from, OuIndexShape *out)
{
	Relation	rel = ou_index_shape_open(relid);

	ou_index_shape_read(rel, from, out);
	relation_close(rel, AccessShareLock);
}

/*
 * index_shape(index regclass) RETURNS TABLE(leaf_pages bigint,
 *	internal_pages bigint, levels int, avg_leaf_density float8,
 *	leaf_fragmentation float8, deleted_pages bigint, empty_pages bigint)
 *
 * Who may call it is decided by GRANT (EXECUTE is granted to
 * pg_stat_scan_tables, as pgstatindex's is).
 */
Datum
index_shape(PG_FUNCTION_ARGS)
{
	Oid			relid;
	Relation	rel;
	OuIndexShape sh;

	ou_check_not_null(fcinfo, 0, "index");
	relid = PG_GETARG_OID(0);
	rel = ou_index_shape_open(relid);

	/* An index of a Citus table is an empty shell: add up its shards. */
	if (ou_citus_table(rel->rd_index->indrelid))
	{
		Oid			tableid = rel->rd_index->indrelid;

		relation_close(rel, AccessShareLock);
		return ou_index_shape_citus(fcinfo, relid, tableid);
	}
	ou_index_shape_read(rel, InvalidBlockNumber, &sh);
	relation_close(rel, AccessShareLock);

	return ou_index_shape_datum(fcinfo, &sh);
}
