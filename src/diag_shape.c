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
 * IDENTIFICATION
 *	  src/diag_shape.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "access/relation.h"
#include "catalog/pg_am.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_class.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "compat.h"
#include "util.h"

PG_FUNCTION_INFO_V1(index_shape);

/*
 * index_shape(index regclass) RETURNS TABLE(leaf_pages bigint,
 *	internal_pages bigint, levels int, avg_leaf_density float8,
 *	leaf_fragmentation float8, deleted_pages bigint, empty_pages bigint)
 *
 * Allowed to superusers, members of pg_stat_scan_tables (as pgstatindex)
 * and the owner of the index.
 */
Datum
index_shape(PG_FUNCTION_ARGS)
{
	Oid			relid;
	Relation	rel;
	BufferAccessStrategy bstrategy;
	BlockNumber nblocks;
	BlockNumber blkno;
	Buffer		buf;
	Page		page;
	BTMetaPageData *meta;
	uint32		root_level = 0;
	bool		has_root;
	int64		leaf_pages = 0,
				internal_pages = 0,
				deleted_pages = 0,
				empty_pages = 0,
				fragments = 0;
	double		max_avail = 0,
				free_space = 0;
	TupleDesc	tupdesc;
	Datum		values[7];
	bool		nulls[7] = {false};

	ou_check_not_null(fcinfo, 0, "index");
	relid = PG_GETARG_OID(0);

	if (!superuser() && !has_privs_of_role(GetUserId(), ROLE_PG_STAT_SCAN_TABLES) &&
		!(get_rel_name(relid) != NULL && ou_rel_ownercheck(relid, GetUserId())))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for index_shape"),
				 errhint("Only superusers, roles with privileges of the \"pg_stat_scan_tables\" role and the index's owner may call it.")));

	rel = try_relation_open(relid, AccessShareLock);
	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	if (rel->rd_rel->relkind != RELKIND_INDEX || rel->rd_rel->relam != BTREE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a B-tree index", RelationGetRelationName(rel))));
	if (RELATION_IS_OTHER_TEMP(rel))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot access temporary indexes of other sessions")));

	bstrategy = GetAccessStrategy(BAS_BULKREAD);
	nblocks = RelationGetNumberOfBlocks(rel);

	/* The metapage: is there a root, and at which level. */
	has_root = false;
	if (nblocks > 0)
	{
		buf = ReadBufferExtended(rel, MAIN_FORKNUM, BTREE_METAPAGE, RBM_NORMAL, bstrategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		meta = BTPageGetMeta(page);
		if (meta->btm_magic != BTREE_MAGIC)
			ereport(ERROR,
					(errcode(ERRCODE_INDEX_CORRUPTED),
					 errmsg("index \"%s\" is not a btree", RelationGetRelationName(rel))));
		has_root = (meta->btm_root != P_NONE);
		root_level = meta->btm_level;
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
			empty_pages++;
		else if (P_ISDELETED(opaque))
			deleted_pages++;
		else if (P_IGNORE(opaque))
			empty_pages++;		/* half-dead */
		else if (P_ISLEAF(opaque))
		{
			max_avail += BLCKSZ - (BLCKSZ - ((PageHeader) page)->pd_special + SizeOfPageHeaderData);
			free_space += PageGetExactFreeSpace(page);
			leaf_pages++;
			/* A right sibling physically before the page: a "fragment". */
			if (opaque->btpo_next != P_NONE && opaque->btpo_next < blkno)
				fragments++;
		}
		else
			internal_pages++;
		UnlockReleaseBuffer(buf);
	}
	FreeAccessStrategy(bstrategy);
	relation_close(rel, AccessShareLock);

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	values[0] = Int64GetDatum(leaf_pages);
	values[1] = Int64GetDatum(internal_pages);
	values[2] = Int32GetDatum(has_root ? (int32) root_level + 1 : 0);
	if (max_avail > 0)
		values[3] = Float8GetDatum(ou_round(100.0 - free_space / max_avail * 100.0, 2));
	else
		nulls[3] = true;
	if (leaf_pages > 0)
		values[4] = Float8GetDatum(ou_round((double) fragments / (double) leaf_pages * 100.0, 2));
	else
		nulls[4] = true;
	values[5] = Int64GetDatum(deleted_pages);
	values[6] = Int64GetDatum(empty_pages);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
