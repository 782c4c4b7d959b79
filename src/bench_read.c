/*-------------------------------------------------------------------------
 *
 * bench_read.c
 *	  The read side of a benchmark worker (bench_protocol.h): one-row
 *	  queries whose values go back to the leader (VALUES), timed and counted
 *	  reads through a prepared statement (READ), and top-level utility
 *	  statements (VACUUM) that cannot run through SPI.
 *
 * Like everything the workers run of their own, these statements run under
 * search_path = pg_catalog, pg_temp and name every function and operator
 * with its schema.
 *
 * What a READ counts comes from the server's own counters, never from an
 * estimate: the growth of a counter query's columns (for bench_locality,
 * pg_stat_get_xact_blocks_fetched() of the table and of the index: the
 * buffers the reads asked for, relation by relation, which counts a heap
 * block once for each time a scan moved onto it) and of this process's
 * pgBufferUsage, taken in the same transaction as the reads, so nothing is
 * flushed in between.
 *
 * IDENTIFICATION
 *	  src/bench_read.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type_d.h"
#include "executor/instrument.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/plannodes.h"
#include "parser/parser.h"
#include "pgstat.h"
#include "tcop/dest.h"
#include "tcop/utility.h"
#include "utils/memutils.h"
#include "utils/plancache.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "bench_protocol.h"

/*
 * ou_worker_int8_row
 *		The first n columns of the one row a query returned, as int8 (NULL
 *		as 0).  SPI_tuptable holds the row.
 */
static void
ou_worker_int8_row(const char *query, int64 *values, int n)
{
	int			i;

	if (SPI_processed != 1 || SPI_tuptable->tupdesc->natts < n)
		elog(ERROR, "benchmark query did not return one row of %d values: %s", n, query);
	for (i = 0; i < n; i++)
	{
		bool		isnull;
		Datum		d;

		if (TupleDescAttr(SPI_tuptable->tupdesc, i)->atttypid != INT8OID)
			elog(ERROR, "column %d of a benchmark query is not bigint: %s", i + 1, query);
		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, i + 1, &isnull);
		values[i] = isnull ? 0 : DatumGetInt64(d);
	}
}

/*
 * ou_worker_values
 *		Run a one-row query of our own and keep its first sh->nvalues int8
 *		columns in the slot.
 */
void
ou_worker_values(OuBenchShared *sh, OuBenchSlot *slot, const char *query)
{
	if (query[0] != OU_PATH_SAFE)
		elog(ERROR, "benchmark query must run under the safe search_path");
	ou_worker_use_path(OU_PATH_SAFE);
	ou_worker_begin_xact();
	if (SPI_execute(query + 1, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not run benchmark query: %s", query + 1);
	ou_worker_int8_row(query + 1, slot->values, sh->nvalues);
	ou_worker_end_xact();
}

/*
 * ou_worker_scan_name
 *		The scan node of a cached generic plan: the first scan met going
 *		down the outer side of the plan tree (under an Agg, say).
 */
static const char *
ou_worker_scan_name(SPIPlanPtr plan)
{
	CachedPlan *cplan = SPI_plan_get_cached_plan(plan);
	const char *name = "other";
	Plan	   *node = NULL;

	if (cplan != NULL && list_length(cplan->stmt_list) == 1)
		node = linitial_node(PlannedStmt, cplan->stmt_list)->planTree;
	for (; node != NULL; node = outerPlan(node))
	{
		if (IsA(node, SeqScan))
			name = "Seq Scan";
		else if (IsA(node, IndexScan))
			name = "Index Scan";
		else if (IsA(node, IndexOnlyScan))
			name = "Index Only Scan";
		else if (IsA(node, BitmapHeapScan))
			name = "Bitmap Heap Scan";
		else
			continue;
		break;
	}
	if (cplan != NULL)
		ReleaseCachedPlan(cplan, NULL);
	return name;
}

/*
 * ou_worker_read_pass
 *		Execute the read statement once for each of the sample keys (key i
 *		= i * nkeys / sample); returns the sum of its first column.
 */
static int64
ou_worker_read_pass(OuBenchShared *sh, SPIPlanPtr plan, const char *query)
{
	int64		rows = 0;
	int64		i;

	for (i = 0; i < sh->read_sample; i++)
	{
		Datum		key = Int64GetDatum(i * sh->read_keys / sh->read_sample);
		int64		n;

		CHECK_FOR_INTERRUPTS();
		ou_worker_check_abort();
		if (SPI_execute_plan(plan, &key, NULL, true, 0) != SPI_OK_SELECT)
			elog(ERROR, "could not run benchmark read: %s", query);
		ou_worker_int8_row(query, &n, 1);
		rows += n;
		SPI_freetuptable(SPI_tuptable);
	}
	return rows;
}

/*
 * ou_worker_read
 *		The READ command: statements setup, counters and the read (see
 *		ou_bench_read in bench_leader.c), all in one transaction.  The plan
 *		is prepared once (the setup may ask for a generic plan); the first
 *		pass warms the cache and is not counted.
 */
void
ou_worker_read(OuBenchShared *sh, OuBenchSlot *slot, const char *text)
{
	const char *setup = ou_worker_text(text, 0);
	const char *counters = ou_worker_text(text, 1);
	const char *query = ou_worker_text(text, 2);
	Oid			argtypes[1] = {INT8OID};
	OuBenchRead r;
	int64		before[OU_BENCH_MAX_VALUES];
	BufferUsage buf0;
	BufferUsage buf;
	TimestampTz start;
	TimestampTz now;
	SPIPlanPtr	plan;
	int			i;

	if (setup[0] != OU_PATH_SAFE || counters[0] != OU_PATH_SAFE || query[0] != OU_PATH_SAFE)
		elog(ERROR, "benchmark reads must run under the safe search_path");
	/* the per-relation counters stand still without it */
	if (!pgstat_track_counts)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("benchmark reads are counted with the statistics counters, but track_counts is off"),
				 errhint("Set track_counts = on (a superuser may set it for the session, the role or the database).")));

	memset(&r, 0, sizeof(r));
	ou_worker_use_path(OU_PATH_SAFE);
	pgstat_report_activity(STATE_RUNNING, query + 1);
	ou_worker_begin_xact();
	if (setup[1] != '\0' && SPI_execute(setup + 1, false, 0) < 0)
		elog(ERROR, "could not run benchmark settings: %s", setup + 1);
	plan = SPI_prepare(query + 1, 1, argtypes);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", query + 1);

	(void) ou_worker_read_pass(sh, plan, query + 1);

	if (SPI_execute(counters + 1, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not run benchmark counters: %s", counters + 1);
	r.ncounters = Min(SPI_tuptable->tupdesc->natts, OU_BENCH_MAX_VALUES);
	ou_worker_int8_row(counters + 1, before, r.ncounters);
	SPI_freetuptable(SPI_tuptable);

	buf0 = pgBufferUsage;
	start = GetCurrentTimestamp();
	do
	{
		r.rows += ou_worker_read_pass(sh, plan, query + 1);
		r.reads += sh->read_sample;
		now = GetCurrentTimestamp();
	} while (!TimestampDifferenceExceeds(start, now, sh->read_ms));
	r.seconds = Max(now - start, 1) / 1000000.0;
	memset(&buf, 0, sizeof(buf));
	BufferUsageAccumDiff(&buf, &pgBufferUsage, &buf0);
	r.buffers = buf.shared_blks_hit + buf.shared_blks_read;

	if (SPI_execute(counters + 1, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not run benchmark counters: %s", counters + 1);
	ou_worker_int8_row(counters + 1, r.counters, r.ncounters);
	for (i = 0; i < r.ncounters; i++)
		r.counters[i] -= before[i];

	strlcpy(r.scan, ou_worker_scan_name(plan), sizeof(r.scan));
	SPI_freeplan(plan);
	ou_worker_end_xact();
	pgstat_report_activity(STATE_IDLE, NULL);
	slot->read = r;
}

/*
 * ou_worker_toplevel
 *		Run one utility statement of our own the way a client's statement
 *		runs: at top level, outside SPI and outside any function, in a
 *		transaction of its own (which VACUUM commits and replaces with its
 *		own).  The statement and VACUUM's cross-transaction memory live in
 *		the caller's memory context (the portal's, for a client), which
 *		outlives those transactions.  Call it outside a transaction, with
 *		the safe search_path set.
 */
void
ou_worker_toplevel(const char *sql)
{
	MemoryContext cxt = CurrentMemoryContext;
	MemoryContext save_portal = PortalContext;
	List	   *raw;
	RawStmt    *rs;
	PlannedStmt *ps;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	MemoryContextSwitchTo(cxt);
	raw = raw_parser(sql, RAW_PARSE_DEFAULT);
	if (list_length(raw) != 1)
		elog(ERROR, "a top-level benchmark statement must be one statement: %s", sql);
	rs = linitial_node(RawStmt, raw);
	if (!IsA(rs->stmt, VacuumStmt))
		elog(ERROR, "only VACUUM runs as a top-level benchmark statement: %s", sql);

	ps = makeNode(PlannedStmt);
	ps->commandType = CMD_UTILITY;
	ps->canSetTag = true;
	ps->utilityStmt = rs->stmt;
	ps->stmt_location = rs->stmt_location;
	ps->stmt_len = rs->stmt_len;

	PushActiveSnapshot(GetTransactionSnapshot());
	PortalContext = cxt;
	ProcessUtility(ps, sql, false, PROCESS_UTILITY_TOPLEVEL, NULL, NULL, None_Receiver, NULL);
	PortalContext = save_portal;
	/* VACUUM pops the snapshot and commits; it leaves a fresh transaction */
	if (ActiveSnapshotSet())
		PopActiveSnapshot();
	CommitTransactionCommand();
	MemoryContextSwitchTo(cxt);
}
