/*-------------------------------------------------------------------------
 *
 * ordered_uuid_test.c
 *	  ordered_uuid_test, the test module: C functions that only the tests
 *	  use, built and installed by the test harness (test/module/Makefile),
 *	  never part of a release's library.
 *
 * ou_hold_extension_lock holds a relation extension lock until a given
 * number of backends wait for it, so that the extend_lock_waits test is
 * deterministic on every version (on PG16+ extension waits are rare).
 * ou_test_wal_scan probes the WAL scanner's worker-facing behaviour (skipping
 * removed WAL, END being repeatable), which no SQL function of the extension
 * exercises; the module carries its own copy of src/walscan.c.
 *
 * A test creates them with
 *	CREATE FUNCTION ... AS 'ordered_uuid_test', 'ou_hold_extension_lock' LANGUAGE C
 * which only a superuser may do; the functions check superuser themselves too.
 *
 * IDENTIFICATION
 *	  test/module/ordered_uuid_test.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/lockdefs.h"
#include "utils/builtins.h"
#include "utils/pg_lsn.h"
#include "utils/timestamp.h"

#include "walscan.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(ou_hold_extension_lock);

/*
 * ou_hold_extension_lock(rel regclass, waiters int, linger_ms int,
 *						  timeout_ms int) RETURNS int
 *
 * Takes rel's extension lock, waits until at least "waiters" backends queue
 * for it (or timeout_ms passes), keeps it linger_ms longer, releases it and
 * returns the largest number of waiters seen.
 */
Datum
ou_hold_extension_lock(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int32		want = PG_GETARG_INT32(1);
	int32		linger_ms = PG_GETARG_INT32(2);
	int32		timeout_ms = PG_GETARG_INT32(3);
	Relation	rel;
	TimestampTz start;
	TimestampTz reached = 0;
	int			most = 0;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may hold a relation extension lock")));

	rel = relation_open(relid, AccessShareLock);
	LockRelationForExtension(rel, ExclusiveLock);
	start = GetCurrentTimestamp();
	for (;;)
	{
		/* The count includes us, the holder. */
		int			n = RelationExtensionLockWaiterCount(rel) - 1;
		TimestampTz now = GetCurrentTimestamp();

		if (n > most)
			most = n;
		if (n >= want && reached == 0)
			reached = now;
		if (reached != 0 && TimestampDifferenceExceeds(reached, now, linger_ms))
			break;
		if (TimestampDifferenceExceeds(start, now, timeout_ms))
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	UnlockRelationForExtension(rel, ExclusiveLock);
	relation_close(rel, AccessShareLock);
	PG_RETURN_INT32(most);
}

PG_FUNCTION_INFO_V1(ou_test_wal_scan);

/*
 * ou_test_wal_scan(start pg_lsn, skip_removed bool, OUT status text,
 *	OUT records bigint, OUT segments_skipped bigint, OUT bytes_skipped bigint,
 *	OUT end_repeats boolean)
 *
 * Scans from start up to the flush pointer (end = InvalidXLogRecPtr, the
 * collector's mode).  end_repeats: after OU_WAL_END another call returns
 * OU_WAL_END again without losing its place.
 */
Datum
ou_test_wal_scan(PG_FUNCTION_ARGS)
{
	XLogRecPtr	start = PG_GETARG_LSN(0);
	bool		skip = PG_GETARG_BOOL(1);
	OuWalScan  *scan;
	OuWalScanStatus st;
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {false};
	bool		repeats = false;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may probe the WAL scanner")));
	scan = ou_wal_scan_begin(start, InvalidXLogRecPtr, skip);
	while ((st = ou_wal_scan_next(scan)) == OU_WAL_RECORD)
		;
	if (st == OU_WAL_END)
	{
		XLogRecPtr	next = scan->next_lsn;
		uint64		n = scan->records;
		OuWalScanStatus again;

		/* Anything flushed meanwhile is read; then END again. */
		while ((again = ou_wal_scan_next(scan)) == OU_WAL_RECORD)
			;
		repeats = (again == OU_WAL_END && scan->next_lsn >= next && scan->records >= n);
	}
	ou_wal_scan_end(scan);

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = CStringGetTextDatum(st == OU_WAL_END ? "end" : "removed");
	values[1] = Int64GetDatum((int64) scan->records);
	values[2] = Int64GetDatum((int64) scan->segments_skipped);
	values[3] = Int64GetDatum((int64) scan->bytes_skipped);
	values[4] = BoolGetDatum(repeats);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
