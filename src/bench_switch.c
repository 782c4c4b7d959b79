/*-------------------------------------------------------------------------
 *
 * bench_switch.c
 *	  bench_switch(): scenario S1 on a table that already holds random keys
 *	  when its default becomes an ordered generator, against a fresh table
 *	  with the same default: the index pages the new rows add and how full
 *	  those pages are, WAL and full-page images per row, rows/s.
 *
 * For each generator expression, in each repetition, two tables are made
 * and measured as bench_insert() does (bench_insert.c: a CHECKPOINT before
 * the measured inserts, one row per statement, the index measured after):
 * one prefilled with prefill rows of from_generator (gen_random_uuid() by
 * default), the other empty.  The pages the measured inserts add are the
 * index's growth; the leaf pages among them are those numbered from the
 * index's size before the inserts on (an insert-only index appends every
 * page a split makes), and their density is the new keys' region's.  The
 * switched table's growth over the fresh table's, in the same repetition,
 * is pages_vs_fresh: 1.80 for uuid_v7_nextval() or uuid_striped_nextval()
 * after 1M random keys, whose new keys land among the random ones where
 * every split is 50:50 (src/generators_striped.c, "Not the edge").  The
 * runs of a call are interleaved over generators and tables as
 * bench_insert's repetitions are (bench_stats.c).  One result row per
 * generator and table: the switched table's first.
 *
 * IDENTIFICATION
 *	  src/bench_switch.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "bench.h"
#include "bench_insert.h"
#include "util.h"

PG_FUNCTION_INFO_V1(bench_switch);

#define OU_BENCH_SWITCH_COLS	21

/* what one bench_switch call asks for */
typedef struct OuSwitchArgs
{
	int64		prefill;
	int64		rows;
	char	   *from_gen;
	int			clients;
	int			rows_per_xact;
	int			repeats;
	bool		keep;
	char	   *schema;
	char	   *kept;			/* the schema's name if kept */
	uint64		run_id;
	int			ngens;
	/* per generator g: st[2 g] the switched table, st[2 g + 1] the fresh one */
	OuGenStmts **st;
	Size		text_cap;		/* the largest command's statements */
} OuSwitchArgs;

/*
 * ou_switch_generator
 *		Check generator expression number g (a text Datum) and build the
 *		statements of its two tables into a.
 */
static void
ou_switch_generator(OuSwitchArgs *a, int g, Datum d, bool isnull)
{
	char	   *gen = ou_generator_arg(d, isnull, NULL, g);

	a->st[2 * g] = ou_gen_stmts(gen, a->from_gen, 2 * g + 1, a->schema, false, 0);
	a->st[2 * g + 1] = ou_gen_stmts(gen, NULL, 2 * g + 2, a->schema, false, 0);
	for (int t = 2 * g; t <= 2 * g + 1; t++)
	{
		a->text_cap = Max(a->text_cap, ou_bench_text_size(a->st[t]->create));
		a->text_cap = Max(a->text_cap, ou_bench_text_size(a->st[t]->prefill));
		a->text_cap = Max(a->text_cap, ou_bench_text_size(a->st[t]->insert));
		a->text_cap = Max(a->text_cap, strlen(a->st[t]->index) + 1);
	}
}

/*
 * ou_switch_args
 *		Check bench_switch's arguments and build every statement of the run.
 */
static void
ou_switch_args(FunctionCallInfo fcinfo, OuSwitchArgs *a)
{
	ArrayType  *gens_arr;
	Datum	   *gens;
	bool	   *gen_nulls;

	memset(a, 0, sizeof(*a));
	a->prefill = ou_bench_arg_int(fcinfo, 1, "prefill", 1, PG_INT64_MAX);
	a->rows = ou_bench_arg_int(fcinfo, 2, "rows", 1, PG_INT64_MAX);
	a->clients = (int) ou_bench_arg_int(fcinfo, 4, "clients", 1, PG_INT32_MAX);
	a->rows_per_xact = (int) ou_bench_arg_int(fcinfo, 5, "rows_per_xact", 1, PG_INT32_MAX);
	a->repeats = (int) ou_bench_arg_int(fcinfo, 6, "repeats", 1, OU_MAX_REPEATS);
	a->keep = ou_bench_arg_bool(fcinfo, 7, "keep");
	a->from_gen = ou_generator_arg(PG_GETARG_DATUM(3), PG_ARGISNULL(3), "from_generator", 0);

	ou_check_not_null(fcinfo, 0, "generators");
	gens_arr = PG_GETARG_ARRAYTYPE_P(0);
	if (ARR_NDIM(gens_arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("generators must be a one-dimensional array")));
	deconstruct_array(gens_arr, TEXTOID, -1, false, TYPALIGN_INT, &gens, &gen_nulls, &a->ngens);
	if (a->ngens == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("generators must not be empty")));
	if ((int64) 2 * a->ngens * a->repeats > OU_MAX_RUNS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many runs for one bench_switch call"),
				 errdetail("%d generators, each into two tables, with %d repetitions make " INT64_FORMAT " runs; at most %d are allowed.",
						   a->ngens, a->repeats, (int64) 2 * a->ngens * a->repeats, OU_MAX_RUNS)));

	a->schema = ou_bench_new_schema(&a->run_id, &a->kept);
	a->st = palloc(sizeof(OuGenStmts *) * 2 * a->ngens);
	for (int g = 0; g < a->ngens; g++)
		ou_switch_generator(a, g, gens[g], gen_nulls[g]);
}

/*
 * ou_switch_runs
 *		Every run of the call, interleaved over the 2 ngens tables
 *		(bench_stats.c): figs[t * repeats + rep] gets table t's repetition
 *		rep, samplers[t] its waits.  Each run's allocations go into runcxt,
 *		reset per run.
 */
static void
ou_switch_runs(OuBenchRun *run, OuSwitchArgs *a, MemoryContext runcxt,
			   OuInsertFigures *figs, OuSampler **samplers)
{
	int			ntables = 2 * a->ngens;
	int			order = 0;

	for (int rep = 0; rep < a->repeats; rep++)
	{
		for (int pos = 0; pos < ntables; pos++)
		{
			int			t = ou_interleaved(rep, pos, ntables);
			OuInsertRun ir;
			MemoryContext oldcxt;

			CHECK_FOR_INTERRUPTS();
			MemoryContextReset(runcxt);
			oldcxt = MemoryContextSwitchTo(runcxt);
			memset(&ir, 0, sizeof(ir));
			ir.st = a->st[t];
			ir.label = psprintf("repetition %d of %d, generator %d of %d (%s), %s table",
								rep + 1, a->repeats, t / 2 + 1, a->ngens, ir.st->gen,
								t % 2 == 0 ? "switched" : "fresh");
			ir.prefill = t % 2 == 0 ? a->prefill : 0;
			ir.rows = a->rows;
			ir.rows_per_xact = a->rows_per_xact;
			ir.drop = !a->keep || rep < a->repeats - 1;
			ir.measure_added = true;
			ir.order = ++order;
			ou_bench_insert_measured(run, &ir, samplers[t], &figs[t * a->repeats + rep]);
			MemoryContextSwitchTo(oldcxt);
		}
	}
}

/*
 * ou_switch_runs_columns
 *		The last three columns of a row from its n runs' figures f: each
 *		run's rows/s and pages added, and where it ran in the call's runs.
 */
static void
ou_switch_runs_columns(OuInsertFigures *f, int n, Datum *values)
{
	Datum	   *rates = palloc(sizeof(Datum) * n);
	Datum	   *pages = palloc(sizeof(Datum) * n);
	Datum	   *orders = palloc(sizeof(Datum) * n);

	for (int i = 0; i < n; i++)
	{
		rates[i] = Float8GetDatum(ou_round(f[i].rows_per_sec, 1));
		pages[i] = Int64GetDatum((int64) rint(f[i].pages_added));
		orders[i] = Int32GetDatum(f[i].order);
	}
	values[0] = PointerGetDatum(construct_array(rates, n, FLOAT8OID, sizeof(float8),
												FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	values[1] = PointerGetDatum(construct_array(pages, n, INT8OID, sizeof(int64),
												FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	values[2] = PointerGetDatum(construct_array(orders, n, INT4OID, sizeof(int32),
												true, TYPALIGN_INT));
}

/*
 * ou_switch_row
 *		The result row of table t (2 g: generator g's switched table, 2 g + 1
 *		its fresh one) from the figures of every table: medians, the spread
 *		of rows/s and, for a switched table, its growth over the fresh
 *		table's, repetition by repetition.
 */
static void
ou_switch_row(OuSwitchArgs *a, int t, OuInsertFigures *figs, OuSampler *sampler,
			  Datum *values, bool *nulls)
{
	int			n = a->repeats;
	OuInsertFigures *f = &figs[t * n];
	OuSpread	rate = ou_spread_of(f, n, offsetof(OuInsertFigures, rows_per_sec));

	memset(nulls, 0, sizeof(bool) * OU_BENCH_SWITCH_COLS);
	values[0] = CStringGetTextDatum(a->st[t]->gen);
	values[1] = Int64GetDatum(t % 2 == 0 ? a->prefill : 0);
	values[2] = Int64GetDatum(f[0].rows);
	values[3] = Float8GetDatum(ou_round(OU_MEDIAN(f, n, seconds), 3));
	values[4] = Float8GetDatum(ou_round(rate.median, 1));
	values[5] = Float8GetDatum(ou_round(rate.min, 1));
	values[6] = Float8GetDatum(ou_round(rate.max, 1));
	values[7] = Float8GetDatum(ou_round(OU_MEDIAN(f, n, wal_bytes_per_row), 1));
	values[8] = Float8GetDatum(ou_round_sig(OU_MEDIAN(f, n, fpi_per_row), 3));
	values[9] = Float8GetDatum(ou_round(OU_MEDIAN(f, n, leaf_splits_per_1k), 2));
	values[10] = Int64GetDatum((int64) rint(OU_MEDIAN(f, n, pages_added)));
	values[11] = Float8GetDatum(ou_round(OU_MEDIAN(f, n, added_leaf_density), 2));
	if (t % 2 == 0)
	{
		double	   *ratio = palloc(sizeof(double) * n);
		OuSpread	sp;

		for (int rep = 0; rep < n; rep++)
			ratio[rep] = figs[(t + 1) * n + rep].pages_added > 0 ?
				f[rep].pages_added / figs[(t + 1) * n + rep].pages_added : 0;
		sp = ou_spread(ratio, n);
		values[12] = Float8GetDatum(ou_round(sp.median, 2));
		values[13] = Float8GetDatum(ou_round(sp.min, 2));
		values[14] = Float8GetDatum(ou_round(sp.max, 2));
	}
	else
		nulls[12] = nulls[13] = nulls[14] = true;
	values[15] = Int32GetDatum(n);
	values[16] = CStringGetTextDatum(ou_sampler_top(sampler));
	if (a->keep)
		values[17] = CStringGetTextDatum(ou_bench_qualified(a->kept, psprintf("%st", a->st[t]->prefix)));
	else
		nulls[17] = true;
	ou_switch_runs_columns(f, n, values + 18);
}

/*
 * bench_switch(generators text[], prefill bigint, rows bigint,
 *	from_generator text, clients int, rows_per_xact int, repeats int,
 *	keep bool) RETURNS SETOF bench_switch_result
 *		See the file header and doc/bench.md.
 */
Datum
bench_switch(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	OuSwitchArgs a;
	MemoryContext oldcxt;
	MemoryContext runcxt;
	OuBenchRun *run;
	OuInsertFigures *figs;
	OuSampler **samplers;
	int			ntables;

	ou_switch_args(fcinfo, &a);
	ntables = 2 * a.ngens;
	figs = palloc0(sizeof(OuInsertFigures) * ntables * a.repeats);
	samplers = palloc(sizeof(OuSampler *) * ntables);
	for (int t = 0; t < ntables; t++)
		samplers[t] = ou_sampler_create();

	(void) ou_bench_materialize(fcinfo, "bench_switch", OU_BENCH_SWITCH_COLS, 0);
	runcxt = AllocSetContextCreate(CurrentMemoryContext, "bench_switch per run",
								   ALLOCSET_DEFAULT_SIZES);
	run = ou_bench_start("bench_switch", fcinfo->flinfo->fn_oid, a.clients, a.schema, a.run_id,
						 a.text_cap);
	PG_TRY();
	{
		ou_switch_runs(run, &a, runcxt, figs, samplers);
		ou_bench_finish(run, a.keep ? a.kept : NULL);
	}
	PG_CATCH();
	{
		ou_bench_abort(run);
		PG_RE_THROW();
	}
	PG_END_TRY();

	/* per generator in the order given: the switched table, then the fresh one */
	for (int t = 0; t < ntables; t++)
	{
		Datum		values[OU_BENCH_SWITCH_COLS];
		bool		nulls[OU_BENCH_SWITCH_COLS];

		MemoryContextReset(runcxt);
		oldcxt = MemoryContextSwitchTo(runcxt);
		ou_switch_row(&a, t, figs, samplers[t], values, nulls);
		MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextSwitchTo(oldcxt);
	}
	MemoryContextDelete(runcxt);
	return (Datum) 0;
}
