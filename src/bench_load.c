/*-------------------------------------------------------------------------
 *
 * bench_load.c
 *	  bench_bulk_load() (scenario S2: concurrent COPY-like batches into one
 *	  unindexed table, and the relation extension lock) and
 *	  bench_multi_table() (scenario S3: single-row transactions spread over
 *	  many tables, logged or unlogged), both with the wait-event profile of
 *	  the run.  The scenarios are described in doc/scenarios.md.
 *
 * The profile needs no preload: the leader samples its workers while it
 * waits for them (bench_sample.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "ordered_uuid.h"

PG_FUNCTION_INFO_V1(bench_bulk_load);
PG_FUNCTION_INFO_V1(bench_multi_table);

/* bulk load: rows per INSERT (a COPY-like batch) and batches per commit */
#define OU_BULK_BATCH		1000
#define OU_BULK_PER_XACT	10
/* a heap tuple's header plus the bigint and the 4-byte varlena header */
#define OU_BULK_ROW_OVERHEAD 36
#define OU_BULK_MIN_ROW		40
#define OU_BULK_MAX_ROW		8000

/*
 * ou_interval
 *		An interval of secs seconds.
 */
static Interval *
ou_interval(double secs)
{
	Interval   *iv = palloc0(sizeof(Interval));

	iv->time = (TimeOffset) (secs * USECS_PER_SEC);
	return iv;
}

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
	OuBenchRun *run;
	char	   *qtbl = NULL;
	Datum		values[OU_BULK_COLS];
	bool		nulls[OU_BULK_COLS];

	if (rows_per_client > PG_INT64_MAX / clients)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients * rows_per_client is out of range")));

	run = ou_bench_start("bench_bulk_load", fcinfo->flinfo->fn_oid, clients, 8192);
	PG_TRY();
	{
		char	   *tbl = psprintf("%st", ou_bench_prefix(run));
		List	   *stmts = NIL;

		qtbl = psprintf("%s.%s", quote_identifier(OU_BENCH_SCHEMA), quote_identifier(tbl));
		ou_bench_phase(run, "creating the table");
		/* PLAIN storage: the payload is neither compressed nor moved to TOAST */
		stmts = lappend(stmts, psprintf("CREATE TABLE %s (id bigint, payload text)", qtbl));
		stmts = lappend(stmts, psprintf("ALTER TABLE %s ALTER COLUMN payload SET STORAGE PLAIN", qtbl));
		ou_bench_sql(run, stmts);
		ou_bench_phase(run, "checkpoint");
		ou_bench_checkpoint("bench_bulk_load");
		ou_bench_prepare(run,
						 list_make1(psprintf("INSERT INTO %s (id, payload) SELECT g, pg_catalog.repeat('x', %d)"
											 " FROM pg_catalog.generate_series(1, $1) g",
											 qtbl, row_bytes - OU_BULK_ROW_OVERHEAD)),
						 true);
		ou_bench_phase(run, "loading with %d clients", clients);
		r = ou_bench_exec(run, rows_per_client * clients, OU_BULK_BATCH, OU_BULK_PER_XACT,
						  ou_sampler_sample, sampler, OU_SAMPLE_MS);
		if (!keep)
		{
			ou_bench_phase(run, "dropping the table");
			ou_bench_drop(run, ou_bench_prefix(run));
		}
		ou_bench_finish(run);
	}
	PG_CATCH();
	{
		ou_bench_abort(run);
		PG_RE_THROW();
	}
	PG_END_TRY();

	memset(nulls, 0, sizeof(nulls));
	values[0] = Int32GetDatum(clients);
	values[1] = Int64GetDatum(r.rows);
	values[2] = Float8GetDatum(ou_round(r.seconds, 3));
	values[3] = Float8GetDatum(ou_round(r.rows / r.seconds, 1));
	values[4] = Float8GetDatum(ou_round((double) r.rows * row_bytes / (1024.0 * 1024.0) / r.seconds, 2));
	values[5] = Int64GetDatum(sampler->extend_waits);
	values[6] = IntervalPGetDatum(ou_interval(sampler->extend_seconds));
	values[7] = Int64GetDatum(sampler->samples);
	values[8] = CStringGetTextDatum(ou_sampler_top(sampler));
	if (keep)
		values[9] = CStringGetTextDatum(qtbl);
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
	OuBenchRun *run;
	Datum		values[OU_MULTI_COLS];
	bool		nulls[OU_MULTI_COLS];
	char	   *first = NULL;

	run = ou_bench_start("bench_multi_table", fcinfo->flinfo->fn_oid, clients,
						 (Size) tables * 256 + 8192);
	PG_TRY();
	{
		List	   *create = NIL;
		List	   *insert = NIL;
		int			i;

		for (i = 0; i < tables; i++)
		{
			char	   *qtbl = psprintf("%s.%s", quote_identifier(OU_BENCH_SCHEMA),
										quote_identifier(psprintf("%st%d", ou_bench_prefix(run), i + 1)));

			if (i == 0)
				first = qtbl;
			create = lappend(create, psprintf("CREATE %sTABLE %s (id bigint, v text)",
											  unlogged ? "UNLOGGED " : "", qtbl));
			insert = lappend(insert, psprintf("INSERT INTO %s (id, v) VALUES (1, 'x')", qtbl));
		}
		ou_bench_phase(run, "creating %d %stables", tables, unlogged ? "unlogged " : "");
		ou_bench_sql(run, create);
		ou_bench_phase(run, "checkpoint");
		ou_bench_checkpoint("bench_multi_table");
		ou_bench_prepare(run, insert, false);
		ou_bench_phase(run, "inserting into %d tables with %d clients", tables, clients);
		r = ou_bench_exec(run, rows, 1, 1, ou_sampler_sample, sampler, OU_SAMPLE_MS);
		if (!keep)
		{
			ou_bench_phase(run, "dropping the tables");
			ou_bench_drop(run, ou_bench_prefix(run));
		}
		ou_bench_finish(run);
	}
	PG_CATCH();
	{
		ou_bench_abort(run);
		PG_RE_THROW();
	}
	PG_END_TRY();

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
		values[9] = CStringGetTextDatum(psprintf("%s .. t%d", first, tables));
	else
		nulls[9] = true;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
