/*-------------------------------------------------------------------------
 *
 * diag_access.c
 *	  What the diagnostics that read an index's entries for a caller who
 *	  did not create it share (index_key_scatter() in diag_scatter.c,
 *	  index_newest_pages() in diag_newest.c): the index's first column as
 *	  pg_index records it, the caller's right to read that column, and
 *	  ACCESS SHARE locks on the table and the index taken only if they can
 *	  be had at once.
 *
 * A report over thousands of tables then holds at most two relation locks
 * at a time and never waits behind another session (a lock it cannot have
 * is a state of its own in the caller's row), and it shows no more of a
 * table than a SELECT of the column would.
 *
 * IDENTIFICATION
 *	  src/diag_access.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "diag.h"

/*
 * ou_diag_index_column
 *		The table of index indexid and the first column's number, operator
 *		class, collation and options (DESC, NULLS FIRST), and whether the
 *		index has a predicate; 42809 if indexid is no index.  Takes no lock.
 */
void
ou_diag_index_column(Oid indexid, OuDiagIndexColumn *col)
{
	HeapTuple	tup;
	Form_pg_index ix;
	bool		isnull;
	Datum		d;

	tup = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(indexid));
	if (!HeapTupleIsValid(tup))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("relation with OID %u is not an index", indexid)));
	ix = (Form_pg_index) GETSTRUCT(tup);
	col->table = ix->indrelid;
	col->attnum = ix->indkey.values[0];
	col->partial = !heap_attisnull(tup, Anum_pg_index_indpred, NULL);
	d = SysCacheGetAttr(INDEXRELID, tup, Anum_pg_index_indclass, &isnull);
	Assert(!isnull);
	col->opclass = ((oidvector *) DatumGetPointer(d))->values[0];
	d = SysCacheGetAttr(INDEXRELID, tup, Anum_pg_index_indcollation, &isnull);
	Assert(!isnull);
	col->collation = ((oidvector *) DatumGetPointer(d))->values[0];
	d = SysCacheGetAttr(INDEXRELID, tup, Anum_pg_index_indoption, &isnull);
	Assert(!isnull);
	col->option = ((int2vector *) DatumGetPointer(d))->values[0];
	ReleaseSysCache(tup);
}

/*
 * ou_diag_check_column_select
 *		What a SELECT of the column would show: the caller needs SELECT on
 *		the table or on column attnum (42501, naming fname, otherwise).
 */
void
ou_diag_check_column_select(Oid table, AttrNumber attnum, const char *fname)
{
	if (pg_class_aclcheck(table, GetUserId(), ACL_SELECT) != ACLCHECK_OK &&
		pg_attribute_aclcheck(table, attnum, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for table %s", get_rel_name(table)),
				 errdetail("%s() needs SELECT on the index's first column.", fname)));
}

/*
 * ou_diag_lock_index
 *		Lock the table, then the index, in ACCESS SHARE mode if that can be
 *		done at once, and open them.  False (nothing held) when a lock is
 *		taken by another session or a relation is gone.  The caller closes
 *		both with relation_close(..., AccessShareLock).
 */
bool
ou_diag_lock_index(Oid tableid, Oid indexid, Relation *heap, Relation *index)
{
	if (!ConditionalLockRelationOid(tableid, AccessShareLock))
		return false;
	*heap = try_relation_open(tableid, NoLock);
	if (*heap == NULL)
	{
		UnlockRelationOid(tableid, AccessShareLock);
		return false;
	}
	if (!ConditionalLockRelationOid(indexid, AccessShareLock))
	{
		relation_close(*heap, AccessShareLock);
		return false;
	}
	*index = try_relation_open(indexid, NoLock);
	if (*index == NULL || IndexGetRelation(indexid, true) != tableid)
	{
		if (*index != NULL)
			relation_close(*index, NoLock);
		UnlockRelationOid(indexid, AccessShareLock);
		relation_close(*heap, AccessShareLock);
		return false;
	}
	return true;
}
