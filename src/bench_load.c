/*-------------------------------------------------------------------------
 *
 * bench_load.c
 *	  bench_bulk_load() (scenario S2: concurrent COPY-like batches into one
 *	  unindexed table, and the relation extension lock) and
 *	  bench_multi_table() (scenario S3: single-row transactions spread over
 *	  many tables, logged or unlogged), both with the wait-event profile of
 *	  the run.  The scenarios are described in doc/scenarios.md.
 *
 * bench_cleanup() drops what dead runs left behind.
 *
 * The profile needs no preload: the leader samples its workers while it
 * waits for them (bench_sample.c).
 *
 * IDENTIFICATION
 *	  src/bench_load.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "bench.h"
#include "compat.h"
#include "util.h"

PG_FUNCTION_INFO_V1(bench_bulk_load);
PG_FUNCTION_INFO_V1(bench_multi_table);
PG_FUNCTION_INFO_V1(bench_cleanup);

/* bulk load: rows per INSERT (a COPY-like batch) and batches per commit */
#define OU_BULK_BATCH		1000
#define OU_BULK_PER_XACT	10
/* a heap tuple's header plus the bigint and the 4-byte varlena header */
#define OU_BULK_ROW_OVERHEAD 36
#define OU_BULK_MIN_ROW		40
#define OU_BULK_MAX_ROW		8000

/*
 * ou_result_tupdesc
 *		The composite result type of a one-row benchmark function.
 */
static TupleDesc
ou_result_tupdesc(FunctionCallInfo fcinfo, int natts)
{
	TupleDesc	tupdesc;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (tupdesc->natts != natts)
		elog(ERROR, "result type has %d columns, expected %d", tupdesc->natts, natts);
	return BlessTupleDesc(tupdesc);
}

/*
 * ou_load_run
 *		The run both functions make: clients workers; worker 1 creates the
 *		tables (create); the leader CHECKPOINTs; every worker prepares the
 *		insert statements (with $1 = rows per execution when with_count) and
 *		inserts rows rows in total, batch rows per execution, committing
 *		every per_xact executions, sampled by the leader; the tables are
 *		dropped unless kept (renamed kept).
 */
static OuBenchResult
ou_load_run(FunctionCallInfo fcinfo, const char *fname, int clients, const char *schema,
			uint64 run_id, List *create, List *insert, bool with_count, int64 rows,
			int batch, int per_xact, OuSampler *sampler, const char *what, const char *kept)
{
	OuBenchResult r;
	OuBenchRun *run;
	Size		text_cap = Max(ou_bench_text_size(create), ou_bench_text_size(insert));

	run = ou_bench_start(fname, fcinfo->flinfo->fn_oid, clients, schema, run_id, text_cap);
	PG_TRY();
	{
		ou_bench_phase(run, "creating %s", what);
		ou_bench_sql(run, create);
		ou_bench_phase(run, "checkpoint");
		ou_bench_checkpoint();
		ou_bench_phase(run, "preparing the inserts into %s", what);
		ou_bench_prepare(run, insert, with_count);
		ou_bench_phase(run, "inserting into %s with %d clients", what, clients);
		r = ou_bench_exec(run, rows, batch, per_xact, ou_sampler_sample, sampler, OU_SAMPLE_MS);
		ou_bench_finish(run, kept);
	}
	PG_CATCH();
	{
		ou_bench_abort(run);
		PG_RE_THROW();
	}
	PG_END_TRY();
	return r;
}

#define OU_BULK_COLS	10

/*
 * bench_bulk_load
 *		SQL function: clients workers each insert rows_per_client rows of
 *		row_bytes bytes into one unindexed scratch table, in INSERT ...
 *		SELECT batches of OU_BULK_BATCH rows (COPY-like), committing every
 *		OU_BULK_PER_XACT batches.
 */
Datum
bench_bulk_load(PG_FUNCTION_ARGS)
{
	int			clients = (int) ou_bench_arg_int(fcinfo, 0, "clients", 1, PG_INT32_MAX);
	int64		rows_per_client = ou_bench_arg_int(fcinfo, 1, "rows_per_client", 1, PG_INT64_MAX);
	int			row_bytes = (int) ou_bench_arg_int(fcinfo, 2, "row_bytes",
												   OU_BULK_MIN_ROW, OU_BULK_MAX_ROW);
	bool		keep = ou_bench_arg_bool(fcinfo, 3, "keep");
	TupleDesc	tupdesc = ou_result_tupdesc(fcinfo, OU_BULK_COLS);
	OuSampler  *sampler = ou_sampler_create();
	OuBenchResult r;
	uint64		run_id;
	char	   *schema;
	char	   *kept;
	char	   *qtbl;
	List	   *create;
	List	   *insert;
	Datum		values[OU_BULK_COLS];
	bool		nulls[OU_BULK_COLS];

	if (rows_per_client > PG_INT64_MAX / clients)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients * rows_per_client is out of range")));

	schema = ou_bench_new_schema(&run_id, &kept);
	qtbl = ou_bench_qualified(schema, "t");
	/* PLAIN storage: the payload is neither compressed nor moved to TOAST */
	create = list_make2(ou_bench_stmt(false, "CREATE TABLE %s (id bigint, payload text)", qtbl),
						ou_bench_stmt(false, "ALTER TABLE %s ALTER COLUMN payload SET STORAGE PLAIN", qtbl));
	insert = list_make1(ou_bench_stmt(false, "INSERT INTO %s (id, payload) SELECT g, pg_catalog.repeat('x', %d)"
									  " FROM pg_catalog.generate_series(1, $1) g",
									  qtbl, row_bytes - OU_BULK_ROW_OVERHEAD));
	r = ou_load_run(fcinfo, "bench_bulk_load", clients, schema, run_id, create, insert, true,
					rows_per_client * clients, OU_BULK_BATCH, OU_BULK_PER_XACT, sampler,
					"the table", keep ? kept : NULL);

	memset(nulls, 0, sizeof(nulls));
	values[0] = Int32GetDatum(clients);
	values[1] = Int64GetDatum(r.rows);
	values[2] = Float8GetDatum(ou_round(r.seconds, 3));
	values[3] = Float8GetDatum(ou_round(r.rows / r.seconds, 1));
	values[4] = Float8GetDatum(ou_round((double) r.rows * row_bytes / (1024.0 * 1024.0) / r.seconds, 2));
	values[5] = Int64GetDatum(sampler->extend_waits);
	values[6] = ou_interval_us((int64) (sampler->extend_seconds * USECS_PER_SEC));
	values[7] = Int64GetDatum(sampler->samples);
	values[8] = CStringGetTextDatum(ou_sampler_top(sampler));
	if (keep)
		values[9] = CStringGetTextDatum(ou_bench_qualified(kept, "t"));
	else
		nulls[9] = true;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

#define OU_MULTI_COLS	10
#define OU_MULTI_MAX_TABLES 10000

/*
 * bench_multi_table
 *		SQL function: clients workers insert rows rows in total, one row per
 *		transaction, each worker taking the tables in turn (from different
 *		starting points), through prepared statements.
 */
Datum
bench_multi_table(PG_FUNCTION_ARGS)
{
	int			tables = (int) ou_bench_arg_int(fcinfo, 0, "tables", 1, OU_MULTI_MAX_TABLES);
	int			clients = (int) ou_bench_arg_int(fcinfo, 1, "clients", 1, PG_INT32_MAX);
	int64		rows = ou_bench_arg_int(fcinfo, 2, "rows", 1, PG_INT64_MAX);
	bool		unlogged = ou_bench_arg_bool(fcinfo, 3, "unlogged");
	bool		keep = ou_bench_arg_bool(fcinfo, 4, "keep");
	TupleDesc	tupdesc = ou_result_tupdesc(fcinfo, OU_MULTI_COLS);
	OuSampler  *sampler = ou_sampler_create();
	OuBenchResult r;
	uint64		run_id;
	char	   *schema;
	char	   *kept;
	List	   *create = NIL;
	List	   *insert = NIL;
	Datum		values[OU_MULTI_COLS];
	bool		nulls[OU_MULTI_COLS];
	int			i;

	schema = ou_bench_new_schema(&run_id, &kept);
	for (i = 0; i < tables; i++)
	{
		char	   *qtbl = ou_bench_qualified(schema, psprintf("t%d", i + 1));

		create = lappend(create, ou_bench_stmt(false, "CREATE %sTABLE %s (id bigint, v text)",
											   unlogged ? "UNLOGGED " : "", qtbl));
		insert = lappend(insert, ou_bench_stmt(false, "INSERT INTO %s (id, v) VALUES (1, 'x')", qtbl));
	}
	r = ou_load_run(fcinfo, "bench_multi_table", clients, schema, run_id, create, insert, false,
					rows, 1, 1, sampler,
					psprintf("%d %stables", tables, unlogged ? "unlogged " : ""),
					keep ? kept : NULL);

	memset(nulls, 0, sizeof(nulls));
	values[0] = Int32GetDatum(tables);
	values[1] = Int32GetDatum(clients);
	values[2] = BoolGetDatum(unlogged);
	values[3] = Int64GetDatum(r.rows);
	values[4] = Float8GetDatum(ou_round(r.seconds, 3));
	values[5] = Float8GetDatum(ou_round(r.rows / r.seconds, 1));
	values[6] = Float8GetDatum(ou_round((double) r.wal_bytes / r.rows, 1));
	values[7] = Int64GetDatum(sampler->samples);
	values[8] = CStringGetTextDatum(ou_sampler_top(sampler));
	if (keep)
		values[9] = CStringGetTextDatum(psprintf("%s .. t%d", ou_bench_qualified(kept, "t1"), tables));
	else
		nulls[9] = true;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * bench_cleanup
 *		SQL function: drop the scratch schemas of benchmark runs whose
 *		leader is gone (a crash, a terminated session) that the current role
 *		may drop; returns how many.  Runs in one worker like a benchmark.
 */
Datum
bench_cleanup(PG_FUNCTION_ARGS)
{
	OuBenchRun *run;
	uint64		run_id;
	int64		dropped = 0;

	(void) ou_bench_new_schema(&run_id, NULL);
	run = ou_bench_start("bench_cleanup", fcinfo->flinfo->fn_oid, 1, NULL, run_id, 1);
	PG_TRY();
	{
		dropped = ou_bench_cleanup_dead(run);
		ou_bench_finish(run, NULL);
	}
	PG_CATCH();
	{
		ou_bench_abort(run);
		PG_RE_THROW();
	}
	PG_END_TRY();
	PG_RETURN_INT64(dropped);
}
