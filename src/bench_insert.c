/*-------------------------------------------------------------------------
 *
 * bench_insert.c
 *	  bench_insert(): scenario S1 of doc/scenarios.md, what a primary-key
 *	  generator costs an insert-only table (rows/s, WAL and full-page images
 *	  per row, leaf splits, index size and leaf density).
 *
 * For each generator expression, in the order given, worker 1 creates a
 * fresh table with a uuid (or bigint) primary key in the run's scratch
 * schema; the workers optionally prefill it (in batches, so a big prefill
 * costs only the table it builds); the leader CHECKPOINTs (when allowed) so
 * that full-page images are comparable; then all workers insert the rows,
 * one row per statement with the generator as the key (the word "bigint"
 * means a bigint sequence), committing every rows_per_xact rows; worker 1
 * measures the index, and the table is dropped unless keep.  The generator
 * is written into the INSERT statements, not into a column default, so the
 * scratch tables never depend on the extension.  See bench.h for the
 * machinery.
 *
 * With repeats => N, each generator runs N times, each time into a fresh
 * (prefilled) table, the repetitions interleaved across the generators in
 * the order of bench_stats.c (repetition 1 of every generator, then
 * repetition 2 in the reverse order, ...).  Each generator's row then holds
 * the median of every per-run figure, the minimum and maximum of its
 * seconds and rows/s, each repetition's rows/s and where each repetition
 * ran in the call's sequence of runs; the wait-event profile covers all its
 * repetitions, and with keep only its last repetition's table is kept.
 *
 * bench_insert_distributed() does the same on a Citus coordinator with
 * tables distributed by the key (create_distributed_table, shard_count
 * shards): the generator is evaluated here and the rows sent to the nodes,
 * as for any INSERT through the coordinator.  The writes happen on the
 * nodes, so its WAL figures add their pg_stat_wal counters (all sessions:
 * run it on a quiet cluster), read once the statistics are complete
 * (OU_STATS_SETTLE_MS after the set-up and after the run), to the workers'
 * own WAL here; every node is CHECKPOINTed before the run, and the index is
 * measured on its shards (citus.c).
 *
 * IDENTIFICATION
 *	  src/bench_insert.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parser.h"
#include "storage/latch.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "bench.h"
#include "bench_insert.h"
#include "citus.h"
#include "compat.h"
#include "util.h"

PG_FUNCTION_INFO_V1(bench_insert);
PG_FUNCTION_INFO_V1(bench_insert_distributed);

/*
 * bench_insert's columns; bench_insert_distributed has the first 13, and so
 * has bench_insert_result before SQL version 1.3.0 (see OU_INSERT_OLD_NARGS)
 */
#define OU_BENCH_INSERT_COLS	20
#define OU_BENCH_DIST_COLS		13

/*
 * bench_insert's arguments before SQL version 1.3.0, which added repeats:
 * the library may be called through that declaration between its
 * installation and ALTER EXTENSION ... UPDATE.  Such a call runs each
 * generator once, as those versions did.
 */
#define OU_INSERT_OLD_NARGS		7

/* most shards create_distributed_table() accepts */
#define OU_MAX_SHARD_COUNT		64000

/*
 * How long the WAL statistics of the other nodes take to be complete: their
 * backends that served the run (Citus keeps its connections open) report
 * pending statistics when idle, at the latest PGSTAT_IDLE_INTERVAL (10 s,
 * PostgreSQL 15+) after their last transaction.
 */
#define OU_STATS_SETTLE_MS		10500

/*
 * ou_replace_seq
 *		The generator expression with every "$seq" replaced by the scratch
 *		sequence as a regclass literal; "bigint" becomes nextval() of it.
 */
char *
ou_replace_seq(const char *gen, const char *qseq)
{
	StringInfoData buf;
	const char *p = gen;
	const char *hit;
	char	   *lit = psprintf("%s::pg_catalog.regclass", quote_literal_cstr(qseq));

	while (*p == ' ')
		p++;
	if (pg_strcasecmp(p, "bigint") == 0)
		return psprintf("pg_catalog.nextval(%s)", lit);

	initStringInfo(&buf);
	p = gen;
	while ((hit = strstr(p, "$seq")) != NULL)
	{
		appendBinaryStringInfo(&buf, p, hit - p);
		appendStringInfoString(&buf, lit);
		p = hit + 4;
	}
	appendStringInfoString(&buf, p);
	return buf.data;
}

/*
 * ou_check_generator
 *		The generator (after $seq replacement) must be one SQL expression:
 *		it is pasted into DDL, so anything else (a second statement, a FROM
 *		clause) is refused here, in the leader, before any worker runs it.
 *		It would run with the caller's privileges anyway; this keeps the
 *		scratch DDL what it says.  Syntax errors keep their SQLSTATE.
 */
void
ou_check_generator(const char *gen, const char *expr)
{
	MemoryContext cxt = CurrentMemoryContext;
	List	   *raw = NIL;
	bool		ok = false;

	PG_TRY();
	{
		raw = raw_parser(psprintf("SELECT (%s)", expr), RAW_PARSE_DEFAULT);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		/* the parser's error, with its position inside the expression */
		ereport(ERROR,
				(errcode(edata->sqlerrcode),
				 errmsg_internal("%s", edata->message),
				 edata->detail ? errdetail_internal("%s", edata->detail) : 0,
				 edata->hint ? errhint("%s", edata->hint) : 0,
				 edata->cursorpos > 8 ? internalerrposition(edata->cursorpos - 8) : 0,
				 internalerrquery(expr),
				 errcontext("generator expression \"%s\"", gen)));
	}
	PG_END_TRY();

	if (list_length(raw) == 1 && IsA(linitial_node(RawStmt, raw)->stmt, SelectStmt))
	{
		SelectStmt *sel = (SelectStmt *) linitial_node(RawStmt, raw)->stmt;

		ok = list_length(sel->targetList) == 1 &&
			linitial_node(ResTarget, sel->targetList)->name == NULL &&
			sel->fromClause == NIL && sel->whereClause == NULL &&
			sel->groupClause == NIL && sel->havingClause == NULL &&
			sel->windowClause == NIL && sel->valuesLists == NIL &&
			sel->sortClause == NIL && sel->limitOffset == NULL &&
			sel->limitCount == NULL && sel->lockingClause == NIL &&
			sel->withClause == NULL && sel->op == SETOP_NONE &&
			sel->distinctClause == NIL && sel->intoClause == NULL;
	}
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid generator expression \"%s\"", gen),
				 errdetail("A generator must be a single SQL expression, or the word bigint.")));
}

/* rows per prefill statement, and prefill statements per transaction */
#define OU_PREFILL_BATCH		10000
#define OU_PREFILL_PER_XACT		1

/*
 * ou_generator_arg
 *		A generator expression as a C string: not NULL, not empty, at most
 *		OU_MAX_GENERATOR_LEN bytes, one SQL expression (ou_check_generator).
 *		arg NULL: element number g (from 0) of the argument generators; else
 *		the argument called arg.
 */
char *
ou_generator_arg(Datum d, bool isnull, const char *arg, int g)
{
	char	   *gen;
	Size		len;

	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 arg ? errmsg("%s must not be null", arg) :
				 errmsg("generators must not contain nulls")));
	len = VARSIZE_ANY_EXHDR(DatumGetPointer(d));
	if (len == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 arg ? errmsg("%s must not be an empty string", arg) :
				 errmsg("generators must not contain empty strings")));
	if (len > OU_MAX_GENERATOR_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 arg ? errmsg("%s is too long", arg) :
				 errmsg("generator expression %d is too long", g + 1),
				 errdetail("A generator expression may have at most %d bytes; this one has %zu.",
						   OU_MAX_GENERATOR_LEN, len)));
	gen = TextDatumGetCString(d);
	ou_check_generator(gen, ou_replace_seq(gen, "s.s"));
	return gen;
}

/*
 * ou_gen_stmts
 *		The statements for generator number g (from 1) in schema; the table
 *		is prefilled with prefill_gen's keys (NULL: the generator's own).
 */
OuGenStmts *
ou_gen_stmts(const char *gen, const char *prefill_gen, int g, const char *schema, bool unlogged,
			 int32 shard_count)
{
	OuGenStmts *st = palloc0(sizeof(OuGenStmts));
	char	   *qseq;
	char	   *expr;

	st->gen = pstrdup(gen);
	st->prefix = psprintf("g%d_", g);
	st->qtbl = ou_bench_qualified(schema, psprintf("%st", st->prefix));
	st->index = psprintf("%st_pkey", st->prefix);
	qseq = ou_bench_qualified(schema, psprintf("%ss", st->prefix));
	expr = ou_replace_seq(gen, qseq);

	st->create = list_make4(ou_bench_stmt(false, "CREATE SEQUENCE %s", qseq),
							ou_bench_stmt(true, "CREATE %sTABLE %s AS SELECT (%s) AS id WITH NO DATA",
										  unlogged ? "UNLOGGED " : "", st->qtbl, expr),
							ou_bench_stmt(false, "ALTER TABLE %s ADD CONSTRAINT %s PRIMARY KEY (id)",
										  st->qtbl, quote_identifier(st->index)),
							ou_bench_stmt(false, "ALTER SEQUENCE %s OWNED BY %s.id", qseq, st->qtbl));
	/* distributed: hash-distributed on the key, in a colocation group of its own */
	if (shard_count > 0)
		st->create = lappend(st->create,
							 ou_bench_stmt(false, "SELECT pg_catalog.create_distributed_table(%s::pg_catalog.regclass,"
										   " 'id', colocate_with => 'none', shard_count => %d)",
										   quote_literal_cstr(st->qtbl), shard_count));
	st->prefill = list_make1(ou_bench_stmt(true, "INSERT INTO %s (id) SELECT (%s) FROM pg_catalog.generate_series(1, $1)",
										   st->qtbl,
										   prefill_gen ? ou_replace_seq(prefill_gen, qseq) : expr));
	st->insert = list_make1(ou_bench_stmt(true, "INSERT INTO %s (id) VALUES ((%s))", st->qtbl, expr));
	return st;
}

/*
 * ou_bench_settle
 *		Wait OU_STATS_SETTLE_MS (interruptible), so that the other nodes'
 *		pg_stat_wal holds everything written so far.
 */
static void
ou_bench_settle(OuBenchRun *run, const char *label, const char *what)
{
	TimestampTz start = GetCurrentTimestamp();

	ou_bench_phase(run, "%s: waiting for the nodes' WAL statistics %s", label, what);
	while (!TimestampDifferenceExceeds(start, GetCurrentTimestamp(), OU_STATS_SETTLE_MS))
	{
		CHECK_FOR_INTERRUPTS();
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/* what one bench_insert call asks for */
typedef struct OuInsertArgs
{
	int64		rows;
	int			clients;
	int			rows_per_xact;
	int64		prefill;
	bool		unlogged;
	int32		shard_count;	/* distributed: shards of each table */
	bool		keep;
	int			repeats;		/* runs of each generator, interleaved */
	bool		distributed;
	List	   *nodes;			/* distributed: the other nodes */
	char	   *schema;
	char	   *kept;			/* the schema's name if kept */
	uint64		run_id;
	int			ngens;
	OuGenStmts **st;			/* per generator */
	Size		text_cap;		/* the largest command's statements */
} OuInsertArgs;

/*
 * ou_bench_insert_args
 *		Check bench_insert's arguments and build every statement of the run
 *		(so that its shared memory fits them).
 */
static void
ou_bench_insert_args(FunctionCallInfo fcinfo, bool distributed, OuInsertArgs *a)
{
	ArrayType  *gens_arr;
	Datum	   *gens;
	bool	   *gen_nulls;
	int			g;

	memset(a, 0, sizeof(*a));
	a->distributed = distributed;
	a->rows = ou_bench_arg_int(fcinfo, 1, "rows", 1, PG_INT64_MAX);
	a->clients = (int) ou_bench_arg_int(fcinfo, 2, "clients", 1, PG_INT32_MAX);
	a->rows_per_xact = (int) ou_bench_arg_int(fcinfo, 3, "rows_per_xact", 1, PG_INT32_MAX);
	a->prefill = ou_bench_arg_int(fcinfo, 4, "prefill", 0, PG_INT64_MAX);
	if (distributed)
		a->shard_count = (int32) ou_bench_arg_int(fcinfo, 5, "shard_count", 1, OU_MAX_SHARD_COUNT);
	else
		a->unlogged = ou_bench_arg_bool(fcinfo, 5, "unlogged");
	a->keep = ou_bench_arg_bool(fcinfo, 6, "keep");
	/* bench_insert_distributed, and bench_insert before 1.3.0, have no repeats */
	a->repeats = (distributed || PG_NARGS() <= OU_INSERT_OLD_NARGS) ? 1 :
		(int) ou_bench_arg_int(fcinfo, OU_INSERT_OLD_NARGS, "repeats", 1, OU_MAX_REPEATS);
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

	if ((int64) a->ngens * a->repeats > OU_MAX_RUNS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many runs for one bench_insert call"),
				 errdetail("%d generators with %d repetitions make " INT64_FORMAT " runs; at most %d are allowed.",
						   a->ngens, a->repeats, (int64) a->ngens * a->repeats, OU_MAX_RUNS)));

	a->schema = ou_bench_new_schema(&a->run_id, &a->kept);
	a->st = palloc(sizeof(OuGenStmts *) * a->ngens);
	for (g = 0; g < a->ngens; g++)
	{
		char	   *gen = ou_generator_arg(gens[g], gen_nulls[g], NULL, g);

		a->st[g] = ou_gen_stmts(gen, NULL, g + 1, a->schema, a->unlogged, a->shard_count);
		a->text_cap = Max(a->text_cap, ou_bench_text_size(a->st[g]->create));
		a->text_cap = Max(a->text_cap, ou_bench_text_size(a->st[g]->prefill));
		a->text_cap = Max(a->text_cap, ou_bench_text_size(a->st[g]->insert));
		a->text_cap = Max(a->text_cap, strlen(a->st[g]->index) + 1);
	}
}

/*
 * ou_insert_figures
 *		One run's figures from what it measured.
 */
static void
ou_insert_figures(OuBenchResult *r, int64 splits, OuBenchIndexShape *before,
				  OuBenchIndexShape *after, int order, OuInsertFigures *f)
{
	f->rows = r->rows;
	f->seconds = r->seconds;
	f->rows_per_sec = r->rows / r->seconds;
	f->wal_bytes_per_row = (double) r->wal_bytes / r->rows;
	f->fpi_per_row = (double) r->wal_fpi / r->rows;
	f->leaf_splits_per_1k = 1000.0 * splits / r->rows;
	f->index_bytes = (double) after->index_bytes;
	f->avg_leaf_density = after->avg_leaf_density;
	f->blks_dirtied_per_row = (double) r->blks_dirtied / r->rows;
	f->blks_written_per_row = (double) r->blks_written / r->rows;
	f->trees = after->trees;
	f->order = order;
	f->pages_added = (double) (after->index_bytes - before->index_bytes) / BLCKSZ;
	f->added_leaf_density = after->added_leaf_density;
}

/*
 * ou_spread_of
 *		The spread of the double at offset off of n runs' figures.
 */
OuSpread
ou_spread_of(OuInsertFigures *f, int n, size_t off)
{
	double	   *v = palloc(sizeof(double) * n);
	int			i;

	for (i = 0; i < n; i++)
		v[i] = *(double *) ((char *) &f[i] + off);
	return ou_spread(v, n);
}

/*
 * ou_bench_insert_spread
 *		bench_insert's columns beyond bench_insert_distributed's: the runs,
 *		the spread of seconds and rows/s, each run's rows/s and where each
 *		ran in the call's sequence of runs.
 */
static void
ou_bench_insert_spread(OuInsertFigures *f, int n, Datum *values)
{
	OuSpread	secs = ou_spread_of(f, n, offsetof(OuInsertFigures, seconds));
	OuSpread	rate = ou_spread_of(f, n, offsetof(OuInsertFigures, rows_per_sec));
	Datum	   *rates = palloc(sizeof(Datum) * n);
	Datum	   *orders = palloc(sizeof(Datum) * n);
	int			i;

	for (i = 0; i < n; i++)
	{
		rates[i] = Float8GetDatum(ou_round(f[i].rows_per_sec, 1));
		orders[i] = Int32GetDatum(f[i].order);
	}
	values[13] = Int32GetDatum(n);
	values[14] = Float8GetDatum(ou_round(rate.min, 1));
	values[15] = Float8GetDatum(ou_round(rate.max, 1));
	values[16] = Float8GetDatum(ou_round(secs.min, 3));
	values[17] = Float8GetDatum(ou_round(secs.max, 3));
	values[18] = PointerGetDatum(construct_array(rates, n, FLOAT8OID, sizeof(float8),
												 FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	values[19] = PointerGetDatum(construct_array(orders, n, INT4OID, sizeof(int32),
												 true, TYPALIGN_INT));
}

/*
 * ou_bench_insert_row
 *		The result row of generator g from its n runs' figures f (in
 *		repetition order): the median of each figure, and for bench_insert
 *		the spread.
 */
static void
ou_bench_insert_row(OuInsertArgs *a, int g, OuInsertFigures *f, int n, OuSampler *sampler,
					Datum *values, bool *nulls)
{
	memset(nulls, 0, sizeof(bool) * OU_BENCH_INSERT_COLS);
	values[0] = CStringGetTextDatum(a->st[g]->gen);
	values[1] = Int64GetDatum(f[0].rows);
	values[2] = Float8GetDatum(ou_round(OU_MEDIAN(f, n, seconds), 3));
	values[3] = Float8GetDatum(ou_round(OU_MEDIAN(f, n, rows_per_sec), 1));
	values[4] = Float8GetDatum(ou_round(OU_MEDIAN(f, n, wal_bytes_per_row), 1));
	values[5] = Float8GetDatum(ou_round_sig(OU_MEDIAN(f, n, fpi_per_row), 3));
	values[6] = Float8GetDatum(ou_round(OU_MEDIAN(f, n, leaf_splits_per_1k), 2));
	values[7] = Int64GetDatum((int64) rint(OU_MEDIAN(f, n, index_bytes)));
	values[8] = Float8GetDatum(ou_round(OU_MEDIAN(f, n, avg_leaf_density), 2));
	if (a->distributed)
	{
		/* the shards, and the nodes whose WAL counts (this one too) */
		values[9] = Int32GetDatum((int32) f[0].trees);
		values[10] = Int32GetDatum(list_length(a->nodes) + 1);
	}
	else
	{
		values[9] = Float8GetDatum(ou_round_sig(OU_MEDIAN(f, n, blks_dirtied_per_row), 3));
		values[10] = Float8GetDatum(ou_round_sig(OU_MEDIAN(f, n, blks_written_per_row), 3));
		ou_bench_insert_spread(f, n, values);
	}
	values[11] = CStringGetTextDatum(ou_sampler_top(sampler));
	if (a->keep)
		values[12] = CStringGetTextDatum(ou_bench_qualified(a->kept,
															psprintf("%st", a->st[g]->prefix)));
	else
		nulls[12] = true;
}

/*
 * ou_bench_insert_measured
 *		One measured run (bench_insert.h): a fresh table (prefilled), a
 *		CHECKPOINT, the measured inserts, the index measured, the table
 *		dropped unless ir->drop is false; fills f.  The leader samples the
 *		workers' waits into sampler.
 */
void
ou_bench_insert_measured(OuBenchRun *run, const OuInsertRun *ir, OuSampler *sampler,
						 OuInsertFigures *f)
{
	const OuGenStmts *st = ir->st;
	OuBenchIndexShape before;
	OuBenchIndexShape after;
	OuBenchResult r;
	OuCitusWal	wal0;
	OuCitusWal	wal1;
	int64		splits;

	/* a fresh table with a primary key of the generator's type */
	ou_bench_phase(run, "%s: creating the table", ir->label);
	ou_bench_sql(run, st->create);
	memset(&before, 0, sizeof(before));
	if (ir->prefill > 0)
	{
		ou_bench_phase(run, "%s: prefilling", ir->label);
		ou_bench_prepare(run, st->prefill, true);
		(void) ou_bench_exec(run, ir->prefill, OU_PREFILL_BATCH, OU_PREFILL_PER_XACT,
							 NULL, NULL, 0);
	}
	if (ir->prefill > 0 || ir->measure_added)
		before = ou_bench_measure(run, st->index);

	/* the other nodes: what the set-up wrote counts before the run */
	memset(&wal0, 0, sizeof(wal0));
	memset(&wal1, 0, sizeof(wal1));
	if (ir->nodes != NIL)
		ou_bench_settle(run, ir->label, "before the run");

	ou_bench_phase(run, "%s: checkpoint", ir->label);
	ou_bench_checkpoint();
	if (ir->nodes != NIL && OU_MAY_CHECKPOINT())
		ou_citus_run_on_nodes(ir->nodes, "CHECKPOINT", "run CHECKPOINT", NULL);
	if (ir->nodes != NIL)
		wal0 = ou_citus_nodes_wal(ir->nodes);
	ou_bench_phase(run, "%s: preparing", ir->label);
	ou_bench_prepare(run, st->insert, false);

	ou_bench_phase(run, "%s: inserting", ir->label);
	r = ou_bench_exec(run, ir->rows, 1, ir->rows_per_xact, ou_sampler_sample, sampler, OU_SAMPLE_MS);
	if (ir->nodes != NIL)
	{
		ou_bench_settle(run, ir->label, "after the run");
		wal1 = ou_citus_nodes_wal(ir->nodes);
	}
	/* this node's share is the workers' own WAL (Citus's local execution included) */
	r.wal_records += wal1.records - wal0.records;
	r.wal_fpi += wal1.fpi - wal0.fpi;
	r.wal_bytes += (uint64) (wal1.bytes - wal0.bytes);

	ou_bench_phase(run, "%s: measuring the index", ir->label);
	after = ir->measure_added ?
		ou_bench_measure_from(run, st->index, before.index_bytes / BLCKSZ) :
		ou_bench_measure(run, st->index);
	/* an insert-only index never deletes pages: each split adds one leaf */
	splits = Max(after.split_leaves - before.split_leaves, 0);
	if (ir->drop)
	{
		ou_bench_phase(run, "%s: dropping the table", ir->label);
		ou_bench_drop(run, st->prefix);
	}
	ou_insert_figures(&r, splits, &before, &after, ir->order, f);
}

/*
 * ou_bench_insert_one
 *		Run rep (from 0) of generator g, the call's run number order (from
 *		1), into f.
 */
static void
ou_bench_insert_one(OuBenchRun *run, OuInsertArgs *a, int g, int rep, int order,
					OuSampler *sampler, OuInsertFigures *f)
{
	OuInsertRun ir;

	memset(&ir, 0, sizeof(ir));
	ir.st = a->st[g];
	/* the phase names the repetition only when there are several */
	ir.label = a->repeats > 1 ?
		psprintf("repetition %d of %d, generator %d of %d (%s)", rep + 1, a->repeats,
				 g + 1, a->ngens, ir.st->gen) :
		psprintf("generator %d of %d (%s)", g + 1, a->ngens, ir.st->gen);
	ir.prefill = a->prefill;
	ir.rows = a->rows;
	ir.rows_per_xact = a->rows_per_xact;
	ir.nodes = a->nodes;
	ir.drop = !a->keep || rep < a->repeats - 1;
	ir.order = order;
	ou_bench_insert_measured(run, &ir, sampler, f);
}

/*
 * ou_bench_insert_runs
 *		Every run of the call, interleaved (bench_stats.c): figs[g *
 *		repeats + rep] gets generator g's repetition rep, samplers[g] its
 *		waits.  Each run's allocations go into runcxt, reset per run.
 */
static void
ou_bench_insert_runs(OuBenchRun *run, OuInsertArgs *a, MemoryContext runcxt,
					 OuInsertFigures *figs, OuSampler **samplers)
{
	int			order = 0;
	int			rep;
	int			pos;

	for (rep = 0; rep < a->repeats; rep++)
	{
		for (pos = 0; pos < a->ngens; pos++)
		{
			int			g = ou_interleaved(rep, pos, a->ngens);
			MemoryContext oldcxt;

			CHECK_FOR_INTERRUPTS();
			MemoryContextReset(runcxt);
			oldcxt = MemoryContextSwitchTo(runcxt);
			ou_bench_insert_one(run, a, g, rep, ++order, samplers[g],
								&figs[g * a->repeats + rep]);
			MemoryContextSwitchTo(oldcxt);
		}
	}
}

/*
 * ou_bench_insert_run
 *		bench_insert() (distributed = false) and bench_insert_distributed():
 *		see the file header and doc/bench.md.  Their arguments differ only in
 *		the sixth (unlogged, or shard_count) and bench_insert's eighth
 *		(repeats).
 */
static Datum
ou_bench_insert_run(FunctionCallInfo fcinfo, bool distributed)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	OuInsertArgs a;
	MemoryContext oldcxt;
	MemoryContext runcxt;
	OuBenchRun *run;
	OuInsertFigures *figs;
	OuSampler **samplers;
	int			g;

	ou_bench_insert_args(fcinfo, distributed, &a);
	figs = palloc0(sizeof(OuInsertFigures) * a.ngens * a.repeats);
	samplers = palloc(sizeof(OuSampler *) * a.ngens);
	for (g = 0; g < a.ngens; g++)
		samplers[g] = ou_sampler_create();

	/*
	 * the result set, materialized; bench_insert_result before 1.3.0 has
	 * only the first columns, which the rows are then formed from
	 */
	(void) ou_bench_materialize(fcinfo, distributed ? "bench_insert_distributed" : "bench_insert",
								distributed ? OU_BENCH_DIST_COLS : OU_BENCH_INSERT_COLS,
								distributed ? 0 : OU_BENCH_DIST_COLS);
	runcxt = AllocSetContextCreate(CurrentMemoryContext, "bench_insert per run",
								   ALLOCSET_DEFAULT_SIZES);

	/* the other nodes, whose WAL a distributed run adds up */
	if (distributed)
		a.nodes = ou_citus_other_nodes();

	run = ou_bench_start(distributed ? "bench_insert_distributed" : "bench_insert",
						 fcinfo->flinfo->fn_oid, a.clients, a.schema, a.run_id, a.text_cap);
	PG_TRY();
	{
		if (distributed)
			ou_bench_set_distributed(run);
		ou_bench_insert_runs(run, &a, runcxt, figs, samplers);
		ou_bench_finish(run, a.keep ? a.kept : NULL);
	}
	PG_CATCH();
	{
		ou_bench_abort(run);
		PG_RE_THROW();
	}
	PG_END_TRY();

	/* one row per generator, in the order given */
	for (g = 0; g < a.ngens; g++)
	{
		Datum		values[OU_BENCH_INSERT_COLS];
		bool		nulls[OU_BENCH_INSERT_COLS];

		MemoryContextReset(runcxt);
		oldcxt = MemoryContextSwitchTo(runcxt);
		ou_bench_insert_row(&a, g, &figs[g * a.repeats], a.repeats, samplers[g], values, nulls);
		MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextSwitchTo(oldcxt);
	}
	MemoryContextDelete(runcxt);
	return (Datum) 0;
}

/*
 * bench_insert
 *		SQL function: S1 on local tables (see the file header).
 */
Datum
bench_insert(PG_FUNCTION_ARGS)
{
	return ou_bench_insert_run(fcinfo, false);
}

/*
 * bench_insert_distributed
 *		SQL function: S1 on Citus distributed tables, from the coordinator.
 *		The WAL figures add the other nodes' pg_stat_wal (all their
 *		sessions) to the coordinator's workers' own WAL.
 */
Datum
bench_insert_distributed(PG_FUNCTION_ARGS)
{
	if (!ou_citus_installed())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bench_insert_distributed needs Citus"),
				 errdetail("Extension \"citus\" is not installed in this database."),
				 errhint("Use bench_insert() to measure local tables.")));
	if (!ou_citus_is_coordinator())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bench_insert_distributed must run on the Citus coordinator"),
				 errdetail("It creates distributed tables, which Citus creates from the coordinator.")));
	return ou_bench_insert_run(fcinfo, true);
}
