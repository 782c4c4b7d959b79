/*-------------------------------------------------------------------------
 *
 * ordered_uuid_test.c
 *	  ordered_uuid_test, the test module: C functions that only the tests
 *	  use, built and installed by the test harness (test/module/Makefile),
 *	  never part of a release's library.
 *
 * ou_extension_lock takes a relation extension lock held until the end of
 * the transaction block, so that the test of extension lock waits is
 * deterministic on every version (on PG16+ extension waits are rare).
 * ou_test_wal_scan probes the WAL scanner's worker-facing behaviour (skipping
 * removed WAL, END being repeatable), which no SQL function of the extension
 * exercises; the module carries its own copy of src/walscan.c.
 * ou_test_uuid_burst calls a generator millions of times in a C loop, so that
 * a session runs ahead of the wall clock as SQL hardly lets it.
 * ou_test_striped_edge moves the right edges of the striped keys, so that a
 * test decides which session is at them; ou_test_proc_number says which
 * process number (hence stripe) a process has.
 * ou_test_hold_bgworker_registration holds BackgroundWorkerLock shared, so
 * that leaders that start benchmark runs meanwhile can count workers but not
 * register theirs: a test decides when registration happens.
 * ou_test_hold_collector_lock holds the collector's LWLock in shared mode, as
 * a reader of its views stuck inside its copy would: the worker must go on.
 * ou_test_collector_fill fills the collector's tables with made-up entries
 * of databases that do not exist, which no sample or WAL record touches
 * again: their counts must come back unchanged from a clean restart, at any
 * size up to the largest max_entries.
 * ou_test_slow_wal_flush holds WALWriteLock most of the time, so that commits
 * wait for their WAL's flush as on a slow disk, although pg_regress's
 * temporary instances run with fsync off (write_path_report's S3).
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
#include "access/xact.h"
#include "catalog/pg_authid_d.h"
#include "catalog/pg_tablespace_d.h"
#include "catalog/pg_type.h"
#include "common/relpath.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lmgr.h"
#include "storage/lockdefs.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/pg_lsn.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "collector_defs.h"
#include "compat.h"
#include "generators.h"
#include "walscan.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(ou_extension_lock);

/*
 * ou_extension_lock(rel regclass) RETURNS void
 *
 * Takes rel's extension lock and returns holding it until the transaction
 * block ends.  An isolation spec holds the lock this way across steps, so
 * that the tester sees the inserts that queue behind it as blocked.  Until
 * then the session must take no other heavyweight lock, not even by
 * opening a relation: core asserts that no process holding an extension
 * lock does.
 */
Datum
ou_extension_lock(PG_FUNCTION_ARGS)
{
	Relation	rel;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may hold a relation extension lock")));
	if (!IsTransactionBlock())
		ereport(ERROR,
				(errcode(ERRCODE_NO_ACTIVE_SQL_TRANSACTION),
				 errmsg("a relation extension lock is held past the statement only in a transaction block")));
	rel = relation_open(PG_GETARG_OID(0), AccessShareLock);
	LockRelationForExtension(rel, ExclusiveLock);
	relation_close(rel, NoLock);
	PG_RETURN_VOID();
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

PG_FUNCTION_INFO_V1(ou_test_uuid_burst);

/*
 * ou_test_uuid_burst(fn regprocedure, n bigint, args int[], upto uuid,
 *	OUT lowest uuid, OUT highest uuid, OUT at_or_below bigint)
 *
 * Calls the generator fn (taking as many int arguments as args holds) n times
 * in a C loop, as fast as the generator itself allows, and returns the lowest
 * and the highest value made and how many values sort at or below upto (0
 * when upto is NULL).  A session can outrun the wall clock this way, which
 * SQL's own per-row overhead hardly lets it do.
 */
Datum
ou_test_uuid_burst(PG_FUNCTION_ARGS)
{
	Oid			fn = PG_GETARG_OID(0);
	int64		n = PG_GETARG_INT64(1);
	ArrayType  *args = PG_GETARG_ARRAYTYPE_P(2);
	pg_uuid_t  *upto = PG_ARGISNULL(3) ? NULL : PG_GETARG_UUID_P(3);
	int32	   *argv = (int32 *) ARR_DATA_PTR(args);
	int			nargs = ArrayGetNItems(ARR_NDIM(args), ARR_DIMS(args));
	FmgrInfo	flinfo;
	pg_uuid_t	lowest;
	pg_uuid_t	highest;
	int64		below = 0;
	TupleDesc	tupdesc;
	Datum		values[3];
	bool		nulls[3] = {false};
	MemoryContext burst;
	MemoryContext old;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may run a generator burst")));
	if (n < 1 || nargs > 2 || ARR_HASNULL(args) || ARR_ELEMTYPE(args) != INT4OID)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a burst takes n >= 1 and at most two non-null int arguments")));
	fmgr_info(fn, &flinfo);
	if (flinfo.fn_nargs != nargs)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the generator takes %d arguments, not %d", flinfo.fn_nargs, nargs)));

	burst = AllocSetContextCreate(CurrentMemoryContext, "generator burst", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(burst);
	for (int64 i = 0; i < n; i++)
	{
		pg_uuid_t  *u;

		if (nargs == 0)
			u = DatumGetUUIDP(FunctionCall0Coll(&flinfo, InvalidOid));
		else if (nargs == 1)
			u = DatumGetUUIDP(FunctionCall1(&flinfo, Int32GetDatum(argv[0])));
		else
			u = DatumGetUUIDP(FunctionCall2(&flinfo, Int32GetDatum(argv[0]), Int32GetDatum(argv[1])));
		if (i == 0 || memcmp(u->data, lowest.data, UUID_LEN) < 0)
			lowest = *u;
		if (i == 0 || memcmp(u->data, highest.data, UUID_LEN) > 0)
			highest = *u;
		if (upto != NULL && memcmp(u->data, upto->data, UUID_LEN) <= 0)
			below++;
		if ((i & 0xFFFF) == 0xFFFF)
		{
			MemoryContextReset(burst);
			CHECK_FOR_INTERRUPTS();
		}
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(burst);

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = UUIDPGetDatum(memcpy(palloc(sizeof(pg_uuid_t)), &lowest, sizeof(pg_uuid_t)));
	values[1] = UUIDPGetDatum(memcpy(palloc(sizeof(pg_uuid_t)), &highest, sizeof(pg_uuid_t)));
	values[2] = Int64GetDatum(below);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

PG_FUNCTION_INFO_V1(ou_test_striped_edge);

/* new edges, as the extension's library makes them: all free */
static void
ou_test_edge_init(void *ptr)
{
	for (int i = 0; i < OU_EDGE_SLOTS; i++)
		pg_atomic_init_u64(&((OuEdges *) ptr)->slot[i], 0);
}

/*
 * ou_test_striped_edge(new bigint) RETURNS bigint
 *
 * Sets every right edge of the striped keys (src/generators_edge.c: one
 * word per interval_length, see generators.h) to new and returns the old
 * value of the default interval's; NULL, setting nothing, where the server
 * has no shared edges (PostgreSQL 14-16 without the library preloaded).  A
 * test sets them to the largest value, which no interval's keys can reach,
 * so that no session is at an edge, or to 0 so that the next session to
 * make a key of an interval is at its edge.
 */
Datum
ou_test_striped_edge(PG_FUNCTION_ARGS)
{
	const char *preload = GetConfigOption("shared_preload_libraries", false, false);
	OuEdges    *edges = NULL;
	uint64		old;
	bool		found;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may move the striped keys' edge")));
	if (preload != NULL && strstr(preload, "ordered_uuid") != NULL)
	{
		LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
		edges = ShmemInitStruct(OU_EDGE_NAME, sizeof(OuEdges), &found);
		LWLockRelease(AddinShmemInitLock);
		if (!found)
			elog(ERROR, "the preloaded library has no striped edges");
	}
	else
		edges = OU_NAMED_SHMEM(OU_EDGE_NAME, sizeof(OuEdges), ou_test_edge_init);
	if (edges == NULL)
		PG_RETURN_NULL();
	old = pg_atomic_exchange_u64(&edges->slot[0], (uint64) PG_GETARG_INT64(0));
	for (int i = 1; i < OU_EDGE_SLOTS; i++)
		pg_atomic_write_u64(&edges->slot[i], (uint64) PG_GETARG_INT64(0));
	PG_RETURN_INT64((int64) old);
}

PG_FUNCTION_INFO_V1(ou_test_proc_number);

/*
 * ou_test_proc_number() RETURNS int
 *
 * The number of this process's PGPROC, from which uuid_striped_nextval
 * takes its stripe: tests read it here, independently of the keys.
 */
Datum
ou_test_proc_number(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(OU_MY_PROC_NUMBER());
}

/*
 * ou_test_hold_lwlock
 *		Hold lock in mode, run start once (unless NULL), then run until (a
 *		one-column text query, pg_stat_activity read anew each time) every
 *		10 ms until it returns a value, at most timeout_ms; release the lock
 *		and return that value (NULL after the timeout).  Interrupts are held
 *		meanwhile, as with every LWLock, hence the timeout.
 */
static text *
ou_test_hold_lwlock(LWLock *lock, LWLockMode mode, const char *start,
					const char *until, int timeout_ms)
{
	char	   *result = NULL;
	MemoryContext outer = CurrentMemoryContext;
	int			waited;

	SPI_connect();
	LWLockAcquire(lock, mode);
	if (start != NULL && SPI_execute(start, false, 0) < 0)
		elog(ERROR, "could not run: %s", start);
	for (waited = 0; waited < timeout_ms; waited += 10)
	{
		pgstat_clear_snapshot();	/* pg_stat_activity anew */
		if (SPI_execute(until, true, 0) != SPI_OK_SELECT)
			elog(ERROR, "could not run: %s", until);
		if (SPI_processed > 0)
			result = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		if (result != NULL)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	LWLockRelease(lock);
	if (result != NULL)
		result = MemoryContextStrdup(outer, result);
	SPI_finish();
	return result == NULL ? NULL : cstring_to_text(result);
}

PG_FUNCTION_INFO_V1(ou_test_hold_bgworker_registration);

/*
 * ou_test_hold_bgworker_registration(start text, until text, timeout_ms int)
 *		RETURNS text
 *
 * Holds BackgroundWorkerLock in shared mode (GetBackgroundWorkerTypeByPid,
 * which counting workers uses, takes it shared too; registering a worker
 * needs it exclusive), runs start once, then runs until (a one-column text
 * query, pg_stat_activity read anew each time) every 10 ms until it returns
 * a value, at most timeout_ms; releases
 * the lock and returns that value (NULL after the timeout).  Interrupts are
 * held meanwhile, as with every LWLock, hence the timeout.
 */
Datum
ou_test_hold_bgworker_registration(PG_FUNCTION_ARGS)
{
	char	   *start = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *until = text_to_cstring(PG_GETARG_TEXT_PP(1));
	int			timeout_ms = PG_GETARG_INT32(2);
	text	   *result;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may hold BackgroundWorkerLock")));
	result = ou_test_hold_lwlock(BackgroundWorkerLock, LW_SHARED, start, until, timeout_ms);
	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(result);
}

PG_FUNCTION_INFO_V1(ou_test_hold_collector_lock);

/*
 * ou_test_hold_collector_lock(until text, timeout_ms int) RETURNS text
 *
 * Holds the collector's LWLock in shared mode, as a reader of its views
 * does while it copies a table, until until returns a value (as
 * ou_test_hold_bgworker_registration): a reader that stays inside the copy,
 * which the worker must not wait for.  Needs the library preloaded.
 */
Datum
ou_test_hold_collector_lock(PG_FUNCTION_ARGS)
{
	char	   *until = text_to_cstring(PG_GETARG_TEXT_PP(0));
	int			timeout_ms = PG_GETARG_INT32(1);
	OuShared   *shared;
	bool		found;
	text	   *result;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may hold the collector's lock")));
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared = ShmemInitStruct("ordered_uuid collector", sizeof(OuShared), &found);
	LWLockRelease(AddinShmemInitLock);
	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the ordered_uuid collector is not running")));
	result = ou_test_hold_lwlock(shared->lock, LW_SHARED, NULL, until, timeout_ms);
	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(result);
}

PG_FUNCTION_INFO_V1(ou_test_slow_wal_flush);

/*
 * ou_test_slow_wal_flush(hold_us int, free_us int, until text, timeout_ms int)
 *		RETURNS int
 *
 * Plays a slow WAL device on a server that pg_regress runs with fsync off:
 * holds WALWriteLock, which every WAL write and flush takes, for hold_us
 * microseconds, lets it go for free_us, and again, until until (a one-column
 * text query, pg_locks and pg_stat_activity read anew each time, run every
 * 100 cycles while the lock is free) returns a value, at most timeout_ms.  A
 * commit meanwhile waits for the lock (LWLock / WALWrite) as behind a slow
 * flush; free_us shorter than a commit lets few through each time.  Returns
 * the cycles.
 */
Datum
ou_test_slow_wal_flush(PG_FUNCTION_ARGS)
{
	int			hold_us = PG_GETARG_INT32(0);
	int			free_us = PG_GETARG_INT32(1);
	char	   *until = text_to_cstring(PG_GETARG_TEXT_PP(2));
	int			timeout_ms = PG_GETARG_INT32(3);
	TimestampTz end;
	int			cycles = 0;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may hold WALWriteLock")));
	if (hold_us < 1 || free_us < 1 || timeout_ms < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("hold_us, free_us and timeout_ms must be positive")));
	end = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), timeout_ms);
	SPI_connect();
	while (GetCurrentTimestamp() < end)
	{
		if (cycles % 100 == 0)
		{
			pgstat_clear_snapshot();
			if (SPI_execute(until, true, 0) != SPI_OK_SELECT)
				elog(ERROR, "could not run: %s", until);
			if (SPI_processed > 0 &&
				SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1) != NULL)
				break;
		}
		LWLockAcquire(WALWriteLock, LW_EXCLUSIVE);
		pg_usleep(hold_us);
		LWLockRelease(WALWriteLock);
		cycles++;
		pg_usleep(free_us);
		CHECK_FOR_INTERRUPTS();
	}
	SPI_finish();
	PG_RETURN_INT32(cycles);
}

PG_FUNCTION_INFO_V1(ou_test_collector_fill);

/* the first database OID of the made-up entries (no real one comes near) */
#define OU_TEST_FILL_DB		4200000000U

/* the collector's shared state and tables, attached to by their names */
typedef struct OuTestCollector
{
	OuShared   *shared;
	int			max_entries;
	HTAB	   *profile;
	HTAB	   *extend;
	HTAB	   *split;
	HTAB	   *walrel;
	HTAB	   *detail;			/* NULL while the detailed profile is off */
} OuTestCollector;

/* attach to one of the collector's shared tables, by its name */
static HTAB *
ou_test_collector_table(const char *name, Size keysize, Size entrysize, int max_entries)
{
	HASHCTL		info;

	memset(&info, 0, sizeof(info));
	info.keysize = keysize;
	info.entrysize = entrysize;
	return ou_shmem_init_hash(name, max_entries, &info, HASH_ELEM | HASH_BLOBS | HASH_FIXED_SIZE);
}

/* attach to the collector's shared memory (an ERROR without it) */
static void
ou_test_collector_attach(OuTestCollector *c)
{
	bool		found;
	bool		detail = strcmp(GetConfigOption("ordered_uuid.profile_queries", false, false), "on") == 0 ||
		strcmp(GetConfigOption("ordered_uuid.profile_pids", false, false), "on") == 0;

	c->max_entries = atoi(GetConfigOption("ordered_uuid.max_entries", false, false));
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	c->shared = ShmemInitStruct("ordered_uuid collector", sizeof(OuShared), &found);
	if (!found)
	{
		LWLockRelease(AddinShmemInitLock);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the ordered_uuid collector is not running")));
	}
	c->profile = ou_test_collector_table("ordered_uuid wait profile", sizeof(OuProfileKey),
										 sizeof(OuProfileEntry), c->max_entries);
	c->extend = ou_test_collector_table("ordered_uuid extension lock stats", sizeof(OuExtendKey),
										sizeof(OuExtendEntry), c->max_entries);
	c->split = ou_test_collector_table("ordered_uuid index split stats", sizeof(OuRelFileLocator),
									   sizeof(OuSplitEntry), c->max_entries);
	c->walrel = ou_test_collector_table("ordered_uuid relation WAL stats", sizeof(OuWalRelKey),
										sizeof(OuWalRelEntry), c->max_entries);
	c->detail = !detail ? NULL :
		ou_test_collector_table("ordered_uuid detailed wait profile", sizeof(OuDetailKey),
								sizeof(OuDetailEntry), c->max_entries);
	LWLockRelease(AddinShmemInitLock);
}

/* the new entry of key in htab, zeroed after the key; NULL when full or there */
static void *
ou_test_fill_enter(OuTestCollector *c, HTAB *htab, const void *key, Size keysize,
				   Size entrysize, Size used_offset)
{
	bool		found;
	char	   *e;

	if (hash_get_num_entries(htab) >= c->max_entries)
		return NULL;
	e = hash_search(htab, key, HASH_ENTER_NULL, &found);
	if (e == NULL || found)
		return NULL;
	memset(e + keysize, 0, entrysize - keysize);
	c->shared->use_clock++;
	memcpy(e + used_offset, &c->shared->use_clock, sizeof(uint64));
	return e;
}

/* copy ent (its last_used set anew) into its new entry of htab; 1, or 0 if none */
static int
ou_test_fill_copy(OuTestCollector *c, HTAB *htab, void *ent, Size keysize, Size entrysize,
				  Size used_offset)
{
	char	   *e;

	if (htab == NULL || (e = ou_test_fill_enter(c, htab, ent, keysize, entrysize, used_offset)) == NULL)
		return 0;
	memcpy((char *) ent + used_offset, e + used_offset, sizeof(uint64));
	memcpy(e, ent, entrysize);
	return 1;
}

/* made-up entry i of the tables that are not yet full; returns how many */
static int
ou_test_fill_one(OuTestCollector *c, int i)
{
	Oid			db = OU_TEST_FILL_DB + (Oid) i;
	OuProfileEntry pe;
	OuExtendEntry ee;
	OuSplitEntry se;
	OuWalRelEntry we;
	OuDetailEntry de;

	memset(&pe, 0, sizeof(pe));
	memset(&ee, 0, sizeof(ee));
	memset(&se, 0, sizeof(se));
	memset(&we, 0, sizeof(we));
	memset(&de, 0, sizeof(de));
	pe.key.dbid = de.key.dbid = db;
	pe.key.backend_type = de.key.backend_type = B_BACKEND;
	/* the collector's own tranche: an extension's, its id given out at start */
	pe.key.wait_event_info = i % 10 == 0 ? PG_WAIT_LWLOCK | c->shared->lock->tranche : 0;
	pe.samples = de.samples = i + 1;
	pe.time_us = de.time_us = (int64) (i + 1) * 10000;
	de.key.roleid = BOOTSTRAP_SUPERUSERID;
	de.key.queryid = i + 1;
	ee.key.dbid = db;
	ee.key.relid = (Oid) i + 1;
	ee.samples = ee.waits = i + 1;
	ee.time_us = (int64) (i + 1) * 10000;
	ee.max_waiters = 1;
	ee.last_wait = c->shared->stats_reset;
	se.key.spcOid = DEFAULTTABLESPACE_OID;
	se.key.dbOid = db;
	se.key.relNumber = (Oid) i + 1;
	se.leaf_splits = i + 1;
	se.root_splits = 1;
	we.key.loc = se.key;
	we.key.forknum = MAIN_FORKNUM;
	we.records = i + 1;
	we.wal_bytes = (uint64) (i + 1) * 100;
	return ou_test_fill_copy(c, c->profile, &pe, sizeof(pe.key), sizeof(pe),
							 offsetof(OuProfileEntry, last_used)) +
		ou_test_fill_copy(c, c->extend, &ee, sizeof(ee.key), sizeof(ee),
						  offsetof(OuExtendEntry, last_used)) +
		ou_test_fill_copy(c, c->split, &se, sizeof(se.key), sizeof(se),
						  offsetof(OuSplitEntry, last_used)) +
		ou_test_fill_copy(c, c->walrel, &we, sizeof(we.key), sizeof(we),
						  offsetof(OuWalRelEntry, last_used)) +
		ou_test_fill_copy(c, c->detail, &de, sizeof(de.key), sizeof(de),
						  offsetof(OuDetailEntry, last_used));
}

/*
 * ou_test_collector_fill(n int, stats_reset timestamptz) RETURNS bigint
 *
 * Enters up to n made-up entries into each of the collector's tables (the
 * detailed profile too when it is on), as far as max_entries leaves room:
 * entry i is of database OU_TEST_FILL_DB + i, counts i + 1 (a wait_profile
 * entry in ten on the collector's own LWLock tranche, whose id core gives
 * out at start, the others CPU), entered in
 * order of i (the highest i are the most recently used).  Sets stats_reset
 * when it is not NULL.  Returns the entries entered.  The relation_wal_stats
 * rows then no longer add up to relation_wal_info().  Needs the library
 * preloaded.
 */
Datum
ou_test_collector_fill(PG_FUNCTION_ARGS)
{
	int			n = PG_GETARG_INT32(0);
	OuTestCollector c;
	int64		entered = 0;
	int			i;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may fill the collector's tables")));
	ou_test_collector_attach(&c);
	LWLockAcquire(c.shared->lock, LW_EXCLUSIVE);
	for (i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		entered += ou_test_fill_one(&c, i);
	}
	if (!PG_ARGISNULL(1))
		c.shared->stats_reset = PG_GETARG_TIMESTAMPTZ(1);
	LWLockRelease(c.shared->lock);
	PG_RETURN_INT64(entered);
}
