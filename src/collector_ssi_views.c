/*-------------------------------------------------------------------------
 *
 * collector_ssi_views.c
 *	  The SQL-callable side of the collector's serialization failures and
 *	  predicate locks (collector_ssi.c): the rows of the views
 *	  serialization_failure_stats and predicate_lock_stats and the row of
 *	  serialization_info(), with the visibility rules of the other views
 *	  (collector_views.c: a row of a database the caller may not CONNECT to
 *	  only for pg_read_all_stats).
 *
 * Locking (the rules: collector_shmem.c): the failure counts are atomics,
 * read with no lock; the predicate lock table and the sampling totals are
 * copied under the collector's LWLock in shared mode, and the rows built
 * after it is released.
 *
 * IDENTIFICATION
 *	  src/collector_ssi_views.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "collector_defs.h"
#include "compat.h"
#include "util.h"

PG_FUNCTION_INFO_V1(ordered_uuid_serialization_failures);
PG_FUNCTION_INFO_V1(ordered_uuid_predicate_lock_stats);
PG_FUNCTION_INFO_V1(ordered_uuid_serialization_info);

/* a copy of one failure slot */
typedef struct OuSsiRow
{
	Oid			dbid;			/* InvalidOid: the overflow row */
	uint64		ssi;
	uint64		other;
	TimestampTz last;
} OuSsiRow;

/*
 * A row of serialization_failure_stats: database, ssi_failures,
 * other_failures, last_failure, datid.  The overflow row (databases that
 * found no slot of their own) has database and datid NULL.
 */
static void
ou_ssi_failure_row(const void *entry, OuVisibility *vis, Datum *values, bool *nulls)
{
	const OuSsiRow *r = entry;

	nulls[0] = !ou_db_name(r->dbid, &values[0]);
	values[1] = Int64GetDatum((int64) r->ssi);
	values[2] = Int64GetDatum((int64) r->other);
	values[3] = TimestampTzGetDatum(r->last);
	nulls[3] = r->last == 0;
	values[4] = ObjectIdGetDatum(r->dbid);
	nulls[4] = !OidIsValid(r->dbid);
}

/*
 * ou_ssi_copy_slot
 *		Read one slot's atomics into a row; false when it holds nothing to
 *		show (free, or the overflow slot without failures).
 */
static bool
ou_ssi_copy_slot(OuSsiDb *slot, bool overflow, OuSsiRow *r)
{
	r->dbid = overflow ? InvalidOid : pg_atomic_read_u32(&slot->dbid);
	if (!overflow && !OidIsValid(r->dbid))
		return false;
	r->ssi = pg_atomic_read_u64(&slot->ssi);
	r->other = pg_atomic_read_u64(&slot->other);
	r->last = (TimestampTz) pg_atomic_read_u64(&slot->last);
	return !overflow || r->ssi + r->other > 0;
}

/*
 * ordered_uuid_serialization_failures
 *		Rows of the view serialization_failure_stats: one per database that
 *		had a serialization failure since the server started (zeroed by a
 *		reset), and one for the databases beyond the slots, if any.
 */
Datum
ordered_uuid_serialization_failures(PG_FUNCTION_ARGS)
{
	OuSsiRow   *rows;
	int			n = 0,
				i;

	ou_collector_check_loaded();
	rows = palloc(sizeof(OuSsiRow) * (OU_SSI_DATABASES + 1));
	for (i = 0; i < OU_SSI_DATABASES; i++)
		if (ou_ssi_copy_slot(&ou_ssi->dbs[i], false, &rows[n]))
			n++;
	if (ou_ssi_copy_slot(&ou_ssi->overflow, true, &rows[n]))
		n++;
	ou_emit_rows(fcinfo, (const char *) rows, n, sizeof(OuSsiRow),
				 offsetof(OuSsiRow, dbid), ou_ssi_failure_row);
	return (Datum) 0;
}

/*
 * A row of predicate_lock_stats: relation, samples, page_locks,
 * shared_page_locks, max_sessions, hot_page, relation_locks, tuple_locks,
 * last_seen, database, datid, relid.  relation is NULL unless it is a
 * relation of the current database that still exists.
 */
static void
ou_pred_row(const void *entry, OuVisibility *vis, Datum *values, bool *nulls)
{
	const OuPredEntry *e = entry;

	if (e->key.dbid == MyDatabaseId &&
		SearchSysCacheExists1(RELOID, ObjectIdGetDatum(e->key.relid)))
		values[0] = ObjectIdGetDatum(e->key.relid);
	else
		nulls[0] = true;
	values[1] = Int64GetDatum((int64) e->samples);
	values[2] = Int64GetDatum((int64) e->page_locks);
	values[3] = Int64GetDatum((int64) e->shared_page_locks);
	values[4] = Int32GetDatum(e->max_sessions);
	values[5] = Int64GetDatum((int64) e->hot_page);
	nulls[5] = e->hot_page == InvalidBlockNumber;
	values[6] = Int64GetDatum((int64) e->relation_locks);
	values[7] = Int64GetDatum((int64) e->tuple_locks);
	values[8] = TimestampTzGetDatum(e->last_seen);
	nulls[9] = !ou_db_name(e->key.dbid, &values[9]);
	values[10] = ObjectIdGetDatum(e->key.dbid);
	values[11] = ObjectIdGetDatum(e->key.relid);
}

/*
 * ordered_uuid_predicate_lock_stats
 *		Rows of the view predicate_lock_stats.
 */
Datum
ordered_uuid_predicate_lock_stats(PG_FUNCTION_ARGS)
{
	ou_collector_check_loaded();
	ou_emit_table(fcinfo, ou_pred_htab, sizeof(OuPredEntry),
				  offsetof(OuPredEntry, key.dbid), ou_pred_row);
	return (Datum) 0;
}

/*
 * ordered_uuid_serialization_info
 *		One row: the predicate lock sampling (its interval, samples, locks
 *		seen, the time it took, the table's use) and the failure slots
 *		taken.
 */
Datum
ordered_uuid_serialization_info(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[11];
	bool		nulls[11];
	OuPredTotals t;
	OuTableCounters table;
	long		entries;
	int			taken = 0,
				i;

	ou_collector_check_loaded();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	ou_check_result_columns(tupdesc, lengthof(values), lengthof(values), "serialization_info");

	ou_lock_shared();
	t = ou_ssi->totals;
	table = ou_ssi->table;
	entries = hash_get_num_entries(ou_pred_htab);
	LWLockRelease(ou_shared->lock);
	for (i = 0; i < OU_SSI_DATABASES; i++)
		if (OidIsValid(pg_atomic_read_u32(&ou_ssi->dbs[i].dbid)))
			taken++;

	memset(nulls, 0, sizeof(nulls));
	values[0] = ou_interval_us((int64) ou_pred_interval * 1000);
	values[1] = Int64GetDatum((int64) t.samples);
	values[2] = Int64GetDatum((int64) t.locks);
	values[3] = ou_interval_us(t.sample_us);
	values[4] = ou_interval_us(t.max_sample_us);
	values[5] = TimestampTzGetDatum(t.last_sample);
	nulls[5] = t.last_sample == 0;
	values[6] = Int64GetDatum((int64) entries);
	values[7] = Int64GetDatum((int64) table.evicted);
	values[8] = Int64GetDatum((int64) table.dropped);
	values[9] = Int32GetDatum(taken);
	values[10] = Int32GetDatum(OU_SSI_DATABASES);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
