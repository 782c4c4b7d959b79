/*-------------------------------------------------------------------------
 *
 * collector_walrel_views.c
 *	  The SQL-callable side of the collector's WAL per relation
 *	  (collector_walrel.c): the rows of the view relation_wal_stats and the
 *	  totals of relation_wal_info(), with the visibility rules of the other
 *	  views (collector_views.c).
 *
 * Locking (the rules: collector_shmem.c): the table and its totals are
 * copied under the collector's LWLock in shared mode, and the rows built
 * after it is released.
 *
 * IDENTIFICATION
 *	  src/collector_walrel_views.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/relpath.h"
#include "commands/dbcommands.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/pg_lsn.h"

#include "citus.h"
#include "collector_defs.h"
#include "compat.h"
#include "util.h"
#include "walscan.h"

PG_FUNCTION_INFO_V1(ordered_uuid_relation_wal_stats);
PG_FUNCTION_INFO_V1(ordered_uuid_relation_wal_info);

/*
 * A row of relation_wal_stats: relation, fork, records, wal_bytes, fpis,
 * fpi_bytes, last_fpi, database, datid, tablespace, relfilenode.
 * relation is NULL unless the relfilenode maps to a relation of the current
 * database (it no longer does after REINDEX, TRUNCATE, ...).
 */
static void
ou_walrel_row(const void *entry, OuVisibility *vis, Datum *values, bool *nulls)
{
	const OuWalRelEntry *e = entry;
	Oid			relid = InvalidOid;
	char	   *dbname;

	if (e->key.loc.dbOid == MyDatabaseId || !OidIsValid(e->key.loc.dbOid))
		relid = ou_wal_relid(&e->key.loc);
	if (OidIsValid(relid))
		values[0] = ObjectIdGetDatum(relid);
	else
		nulls[0] = true;
	if (e->key.forknum >= 0 && e->key.forknum <= MAX_FORKNUM)
		values[1] = CStringGetTextDatum(forkNames[e->key.forknum]);
	else
		nulls[1] = true;
	values[2] = Int64GetDatum((int64) e->records);
	values[3] = Int64GetDatum((int64) e->wal_bytes);
	values[4] = Int64GetDatum((int64) e->fpis);
	values[5] = Int64GetDatum((int64) e->fpi_bytes);
	values[6] = TimestampTzGetDatum(e->last_fpi);
	nulls[6] = e->last_fpi == 0;
	dbname = OidIsValid(e->key.loc.dbOid) ? get_database_name(e->key.loc.dbOid) : NULL;
	if (dbname != NULL)
		values[7] = DirectFunctionCall1(namein, CStringGetDatum(dbname));
	else
		nulls[7] = true;
	values[8] = ObjectIdGetDatum(e->key.loc.dbOid);
	values[9] = ObjectIdGetDatum(e->key.loc.spcOid);
	values[10] = ObjectIdGetDatum(e->key.loc.relNumber);
}

/*
 * ordered_uuid_relation_wal_stats
 *		Rows of the view relation_wal_stats.  On a Citus coordinator with
 *		Citus tables, a NOTICE says that their shards' WAL is counted on the
 *		nodes that hold them.
 */
Datum
ordered_uuid_relation_wal_stats(PG_FUNCTION_ARGS)
{
	ou_collector_check_loaded();
	ou_citus_notice_node_only("relation_wal_stats");
	ou_emit_table(fcinfo, ou_walrel_htab, sizeof(OuWalRelEntry),
				  offsetof(OuWalRelEntry, key.loc.dbOid), ou_walrel_row);
	return (Datum) 0;
}

/*
 * ordered_uuid_relation_wal_info
 *		One row: the WAL read since the last reset (wal_start to
 *		wal_reached) and how the rows of relation_wal_stats add up to it.
 */
Datum
ordered_uuid_relation_wal_info(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[20];
	bool		nulls[20];
	OuWalRelTotals t;
	XLogRecPtr	start,
				reached;
	long		entries;
	int			i = 0;

	ou_collector_check_loaded();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	/* SQL versions 1.4.0 and 1.5.0 declare the first 15 columns */
	ou_check_result_columns(tupdesc, 15, lengthof(values), "relation_wal_info");

	ou_lock_shared();
	t = *ou_walrel_totals;
	start = ou_shared->wal_start;
	reached = ou_shared->wal_reached;
	entries = hash_get_num_entries(ou_walrel_htab);
	LWLockRelease(ou_shared->lock);

	memset(nulls, 0, sizeof(nulls));
	nulls[0] = start == InvalidXLogRecPtr;
	values[i++] = LSNGetDatum(start);
	nulls[1] = reached == InvalidXLogRecPtr;
	values[i++] = LSNGetDatum(reached);
	values[i++] = Int64GetDatum((int64) t.records);
	values[i++] = Int64GetDatum((int64) t.wal_bytes);
	values[i++] = Int64GetDatum((int64) t.fpis);
	values[i++] = Int64GetDatum((int64) t.fpi_bytes);
	values[i++] = Int64GetDatum((int64) t.no_block_records);
	values[i++] = Int64GetDatum((int64) t.no_block_bytes);
	values[i++] = Int64GetDatum((int64) t.pruned_records);
	values[i++] = Int64GetDatum((int64) t.pruned_bytes);
	values[i++] = Int64GetDatum((int64) t.pruned_fpis);
	values[i++] = Int64GetDatum((int64) t.pruned_fpi_bytes);
	values[i++] = Int64GetDatum((int64) entries);
	values[i++] = Int64GetDatum((int64) t.table.evicted);
	values[i++] = Int64GetDatum((int64) t.table.dropped);
	/* 1.5.2: the counts evicted, and the records as the rows count them */
	values[i++] = Int64GetDatum((int64) t.evicted_records);
	values[i++] = Int64GetDatum((int64) t.evicted_bytes);
	values[i++] = Int64GetDatum((int64) t.evicted_fpis);
	values[i++] = Int64GetDatum((int64) t.evicted_fpi_bytes);
	values[i++] = Int64GetDatum((int64) t.relation_records);
	Assert(i == lengthof(values));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
