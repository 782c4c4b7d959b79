/*-------------------------------------------------------------------------
 *
 * bench_serializable.c
 *	  bench_serializable(): scenario S5 of doc/scenarios.md, what a
 *	  primary-key generator costs transactions that insert a row and read
 *	  rows back by key at an isolation level (SERIALIZABLE, or REPEATABLE
 *	  READ / READ COMMITTED to compare): serialization failures, their share,
 *	  the retries they needed, rows/s, and the WAL and leaf density of the
 *	  key's index.
 *
 * A run is one generator at one client count: worker 1 creates a fresh
 * table (the generator's key, a primary key, autovacuum off) in the run's
 * scratch schema, the clients prefill it (so that each session's keys are
 * already in the index, as a long-lived session's are) and it is ANALYZEd,
 * the leader CHECKPOINTs (when allowed), then the clients run transactions
 * (bench_xact.c) for seconds, from a common start; worker 1 measures the
 * index, and the table is dropped unless kept.  Every generator runs at
 * every client count, repeats times, each time into a fresh table, the runs
 * interleaved as bench_insert's (bench_stats.c): repetition 1 of every
 * (client count, generator) in order, repetition 2 in the reverse order,
 * and so on.  The workers of the largest client count are started once;
 * a run at fewer clients uses the first ones.  One row per client count and
 * generator: medians of the runs, with the spread of the failure share and
 * of rows/s.
 *
 * The failures the clients retry are logged as a client's are, so the
 * collector (serialization_failure_stats) counts them like any other
 * session's.
 *
 * IDENTIFICATION
 *	  src/bench_serializable.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "bench.h"
#include "util.h"

PG_FUNCTION_INFO_V1(bench_serializable);

#define OU_SERIAL_COLS			21
/* most client counts of one call, and the most clients of one */
#define OU_SERIAL_MAX_COUNTS	64
#define OU_SERIAL_MAX_CLIENTS	1024
/* rows per prefill statement */
#define OU_SERIAL_PREFILL_BATCH 10000

/* what one bench_serializable call asks for */
typedef struct OuSerialArgs
{
	int			ngens;
	char	  **gens;			/* the generator expressions, as given */
	int			ncounts;
	int		   *clients;		/* the client counts, as given */
	int			max_clients;
	OuBenchXactArgs xact;
	const char *isolation;		/* as written in the result */
	const char *pattern;
	int64		prefill;
	int			repeats;
	bool		keep;
	char	   *schema;
	char	   *kept;
	uint64		run_id;
	Size		text_cap;
} OuSerialArgs;

/* one run's figures, unrounded */
typedef struct OuSerialFigures
{
	double		xacts;
	double		failures;
	double		failure_pct;
	double		retried_pct;
	int64		max_retries;
	double		rows_per_sec;
	double		wal_bytes_per_row;
	double		avg_leaf_density;
	double		seconds;
	int			order;			/* position in the call's runs, from 1 */
} OuSerialFigures;

/*
 * ou_serial_choice
 *		A text argument that must be one of names[0..n) (compared without
 *		case when nocase): *name gets that name, the result its values[].
 *		Anything else is an error with hint.
 */
static int
ou_serial_choice(FunctionCallInfo fcinfo, int argno, const char *arg,
				 const char *const *names, const int *values, int n, bool nocase,
				 const char *hint, const char **name)
{
	char	   *s;
	int			i;

	ou_check_not_null(fcinfo, argno, arg);
	s = TextDatumGetCString(PG_GETARG_DATUM(argno));
	for (i = 0; i < n; i++)
		if ((nocase ? pg_strcasecmp(s, names[i]) : strcmp(s, names[i])) == 0)
		{
			*name = names[i];
			return values[i];
		}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid %s \"%s\"", arg, s),
			 errhint("%s", hint)));
	return values[0];			/* keep compiler quiet */
}

/* the isolation argument: as SET TRANSACTION takes it, without case */
static const char *const ou_serial_levels[] = {"serializable", "repeatable read", "read committed"};
static const int ou_serial_level_values[] = {XACT_SERIALIZABLE, XACT_REPEATABLE_READ,
	XACT_READ_COMMITTED};

/* the read_pattern argument */
static const char *const ou_serial_patterns[] = {"own", "recent", "range"};
static const int ou_serial_pattern_values[] = {OU_READ_OWN, OU_READ_RECENT, OU_READ_RANGE};

/*
 * ou_serial_clients
 *		The clients argument: a one-dimensional array of 1 to
 *		OU_SERIAL_MAX_COUNTS client counts, each 1 to OU_SERIAL_MAX_CLIENTS.
 */
static void
ou_serial_clients(FunctionCallInfo fcinfo, int argno, OuSerialArgs *a)
{
	ArrayType  *arr;
	Datum	   *d;
	bool	   *nulls;
	int			i;

	ou_check_not_null(fcinfo, argno, "clients");
	arr = PG_GETARG_ARRAYTYPE_P(argno);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients must be a one-dimensional array")));
	deconstruct_array(arr, INT4OID, sizeof(int32), true, TYPALIGN_INT, &d, &nulls, &a->ncounts);
	if (a->ncounts == 0 || a->ncounts > OU_SERIAL_MAX_COUNTS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients must hold 1 to %d client counts", OU_SERIAL_MAX_COUNTS)));
	a->clients = palloc(sizeof(int) * a->ncounts);
	for (i = 0; i < a->ncounts; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("clients must not contain nulls")));
		a->clients[i] = (int) ou_check_range("clients", DatumGetInt32(d[i]), 1,
											 OU_SERIAL_MAX_CLIENTS);
		a->max_clients = Max(a->max_clients, a->clients[i]);
	}
}

/* the prefix of the relations of generator g (from 0) at client count c */
static char *
ou_serial_prefix(int g, int c)
{
	return psprintf("g%d_c%d_", g + 1, c + 1);
}

/*
 * ou_serial_expr
 *		Generator g's expression for the table of prefix: $seq is its
 *		scratch sequence.
 */
static char *
ou_serial_expr(OuSerialArgs *a, int g, const char *prefix)
{
	return ou_bench_replace_seq(a->gens[g],
								ou_bench_qualified(a->schema, psprintf("%ss", prefix)));
}

/*
 * ou_serial_create
 *		The statements that make generator g's table (prefix): a sequence
 *		for $seq, the table with the generator's type as key, autovacuum
 *		off, and its primary key.
 */
static List *
ou_serial_create(OuSerialArgs *a, int g, const char *prefix)
{
	char	   *qtbl = ou_bench_qualified(a->schema, psprintf("%st", prefix));
	char	   *qseq = ou_bench_qualified(a->schema, psprintf("%ss", prefix));

	return list_make4(ou_bench_stmt(false, "CREATE SEQUENCE %s", qseq),
					  ou_bench_stmt(true, "CREATE TABLE %s WITH (autovacuum_enabled = off) AS"
									" SELECT (%s) AS id WITH NO DATA", qtbl, ou_serial_expr(a, g, prefix)),
					  ou_bench_stmt(false, "ALTER TABLE %s ADD CONSTRAINT %s PRIMARY KEY (id)",
									qtbl, quote_identifier(psprintf("%st_pkey", prefix))),
					  ou_bench_stmt(false, "ALTER SEQUENCE %s OWNED BY %s.id", qseq, qtbl));
}

/*
 * ou_serial_prefill
 *		The prefill statement of generator g's table (prefix): $1 rows.
 */
static List *
ou_serial_prefill(OuSerialArgs *a, int g, const char *prefix)
{
	return list_make1(ou_bench_stmt(true, "INSERT INTO %s (id) SELECT (%s)"
									" FROM pg_catalog.generate_series(1, $1)",
									ou_bench_qualified(a->schema, psprintf("%st", prefix)),
									ou_serial_expr(a, g, prefix)));
}

/*
 * ou_serial_xact_stmts
 *		The statements of the transactions (bench_xact.c): the insert, the
 *		read by key, the read of the last keys, the table's name.
 */
static List *
ou_serial_xact_stmts(OuSerialArgs *a, int g, const char *prefix)
{
	char	   *tbl = psprintf("%st", prefix);
	char	   *qtbl = ou_bench_qualified(a->schema, tbl);

	return list_make4(ou_bench_stmt(true, "INSERT INTO %s (id) VALUES ((%s)) RETURNING id",
									qtbl, ou_serial_expr(a, g, prefix)),
					  ou_bench_stmt(false, "SELECT t.id FROM %s AS t WHERE t.id OPERATOR(pg_catalog.=) $1",
									qtbl),
					  ou_bench_stmt(false, "SELECT t.id FROM %s AS t ORDER BY t.id DESC LIMIT $1",
									qtbl),
					  ou_bench_stmt(false, "%s", tbl));
}

/*
 * ou_serial_args
 *		Check bench_serializable's arguments.
 */
static void
ou_serial_args(FunctionCallInfo fcinfo, OuSerialArgs *a)
{
	int			g;

	memset(a, 0, sizeof(*a));
	a->gens = ou_bench_arg_generators(fcinfo, 0, &a->ngens);
	ou_serial_clients(fcinfo, 1, a);
	a->xact.seconds = (int) ou_bench_arg_int(fcinfo, 2, "seconds", 1, 3600);
	a->xact.isolation = ou_serial_choice(fcinfo, 3, "isolation", ou_serial_levels,
										 ou_serial_level_values, lengthof(ou_serial_levels), true,
										 "Use serializable, repeatable read or read committed.",
										 &a->isolation);
	a->xact.pattern = ou_serial_choice(fcinfo, 4, "read_pattern", ou_serial_patterns,
									   ou_serial_pattern_values, lengthof(ou_serial_patterns), false,
									   "Use own (the row just inserted), recent (it and the client's last rows) or range (the last keys of the index).",
									   &a->pattern);
	a->xact.read_rows = (int) ou_bench_arg_int(fcinfo, 5, "read_rows", 1, 1000);
	a->prefill = ou_bench_arg_int(fcinfo, 6, "prefill", 0, PG_INT64_MAX);
	a->repeats = (int) ou_bench_arg_int(fcinfo, 7, "repeats", 1, OU_MAX_REPEATS);
	a->keep = ou_bench_arg_bool(fcinfo, 8, "keep");
	if ((int64) a->ngens * a->ncounts * a->repeats > OU_MAX_RUNS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many runs for one bench_serializable call"),
				 errdetail("%d generators at %d client counts with %d repetitions make " INT64_FORMAT " runs; at most %d are allowed.",
						   a->ngens, a->ncounts, a->repeats,
						   (int64) a->ngens * a->ncounts * a->repeats, OU_MAX_RUNS)));

	a->schema = ou_bench_new_schema(&a->run_id, &a->kept);
	/* room for the largest command's statements */
	for (g = 0; g < a->ngens; g++)
	{
		int			c;

		for (c = 0; c < a->ncounts; c++)
		{
			char	   *prefix = ou_serial_prefix(g, c);

			a->text_cap = Max(a->text_cap, ou_bench_text_size(ou_serial_create(a, g, prefix)));
			a->text_cap = Max(a->text_cap, ou_bench_text_size(ou_serial_prefill(a, g, prefix)));
			a->text_cap = Max(a->text_cap, ou_bench_text_size(ou_serial_xact_stmts(a, g, prefix)));
		}
	}
}

/*
 * ou_serial_one
 *		One run: generator g at client count c (repetition rep, the call's
 *		run number order); fills f.
 */
static void
ou_serial_one(OuBenchRun *run, OuSerialArgs *a, int g, int c, int rep, int order,
			  OuSerialFigures *f)
{
	char	   *prefix = ou_serial_prefix(g, c);
	char	   *qtbl = ou_bench_qualified(a->schema, psprintf("%st", prefix));
	char	   *label;
	OuBenchXactResult r;
	OuBenchIndexShape shape;
	int64		attempts;

	label = psprintf("repetition %d of %d, %d clients, generator %d of %d (%s)", rep + 1,
					 a->repeats, a->clients[c], g + 1, a->ngens, a->gens[g]);
	ou_bench_phase(run, "%s: creating the table", label);
	ou_bench_sql(run, ou_serial_create(a, g, prefix));
	ou_bench_set_active(run, a->clients[c]);
	if (a->prefill > 0)
	{
		ou_bench_phase(run, "%s: prefilling", label);
		ou_bench_prepare(run, ou_serial_prefill(a, g, prefix), true);
		(void) ou_bench_exec(run, a->prefill, OU_SERIAL_PREFILL_BATCH, 1, NULL, NULL, 0);
	}
	ou_bench_sql(run, list_make1(ou_bench_stmt(false, "ANALYZE %s", qtbl)));
	ou_bench_phase(run, "%s: checkpoint", label);
	ou_bench_checkpoint();

	ou_bench_phase(run, "%s: %s transactions", label, a->isolation);
	r = ou_bench_xacts(run, ou_serial_xact_stmts(a, g, prefix), &a->xact);

	ou_bench_phase(run, "%s: measuring the index", label);
	shape = ou_bench_measure(run, psprintf("%st_pkey", prefix));
	if (!a->keep || rep < a->repeats - 1)
	{
		ou_bench_phase(run, "%s: dropping the table", label);
		ou_bench_drop(run, prefix);
	}

	attempts = r.x.xacts + r.x.failures;
	f->xacts = (double) r.x.xacts;
	f->failures = (double) r.x.failures;
	f->failure_pct = attempts > 0 ? 100.0 * r.x.failures / attempts : 0;
	f->retried_pct = r.x.xacts > 0 ? 100.0 * r.x.retried / r.x.xacts : 0;
	f->max_retries = r.x.max_retries;
	f->rows_per_sec = r.x.xacts / r.seconds;
	f->wal_bytes_per_row = r.x.xacts > 0 ? (double) r.wal_bytes / r.x.xacts : 0;
	f->avg_leaf_density = shape.avg_leaf_density;
	f->seconds = r.seconds;
	f->order = order;
}

/*
 * ou_serial_runs
 *		Every run of the call, interleaved (bench_stats.c) over the variants
 *		(client count c, generator g), c outer: figs[(c * ngens + g) *
 *		repeats + rep].
 */
static void
ou_serial_runs(OuBenchRun *run, OuSerialArgs *a, MemoryContext runcxt, OuSerialFigures *figs)
{
	int			nvariants = a->ncounts * a->ngens;
	int			order = 0;
	int			rep;
	int			pos;

	for (rep = 0; rep < a->repeats; rep++)
	{
		for (pos = 0; pos < nvariants; pos++)
		{
			int			v = ou_interleaved(rep, pos, nvariants);
			MemoryContext oldcxt;

			CHECK_FOR_INTERRUPTS();
			MemoryContextReset(runcxt);
			oldcxt = MemoryContextSwitchTo(runcxt);
			ou_serial_one(run, a, v % a->ngens, v / a->ngens, rep, ++order,
						  &figs[v * a->repeats + rep]);
			MemoryContextSwitchTo(oldcxt);
		}
	}
}

#define OU_SERIAL_MEDIAN(f, n, field) (OU_SPREAD((f), (n), OuSerialFigures, field).median)

/*
 * ou_serial_row
 *		The result row of generator g at client count c from its n runs f.
 */
static void
ou_serial_row(OuSerialArgs *a, int g, int c, OuSerialFigures *f, int n,
			  Datum *values, bool *nulls)
{
	OuSpread	pct = OU_SPREAD(f, n, OuSerialFigures, failure_pct);
	OuSpread	rate = OU_SPREAD(f, n, OuSerialFigures, rows_per_sec);
	Datum	   *pcts = palloc(sizeof(Datum) * n);
	Datum	   *orders = palloc(sizeof(Datum) * n);
	int64		max_retries = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		pcts[i] = Float8GetDatum(ou_round_sig(f[i].failure_pct, 3));
		orders[i] = Int32GetDatum(f[i].order);
		max_retries = Max(max_retries, f[i].max_retries);
	}
	memset(nulls, 0, sizeof(bool) * OU_SERIAL_COLS);
	values[0] = CStringGetTextDatum(a->gens[g]);
	values[1] = Int32GetDatum(a->clients[c]);
	values[2] = CStringGetTextDatum(a->isolation);
	values[3] = CStringGetTextDatum(a->pattern);
	values[4] = Int64GetDatum((int64) rint(OU_SERIAL_MEDIAN(f, n, xacts)));
	values[5] = Int64GetDatum((int64) rint(OU_SERIAL_MEDIAN(f, n, failures)));
	values[6] = Float8GetDatum(ou_round_sig(pct.median, 3));
	values[7] = Float8GetDatum(ou_round_sig(OU_SERIAL_MEDIAN(f, n, retried_pct), 3));
	values[8] = Int64GetDatum(max_retries);
	values[9] = Float8GetDatum(ou_round(rate.median, 1));
	values[10] = Float8GetDatum(ou_round(OU_SERIAL_MEDIAN(f, n, wal_bytes_per_row), 1));
	values[11] = Float8GetDatum(ou_round(OU_SERIAL_MEDIAN(f, n, avg_leaf_density), 2));
	values[12] = Float8GetDatum(ou_round(OU_SERIAL_MEDIAN(f, n, seconds), 3));
	values[13] = Int32GetDatum(n);
	values[14] = Float8GetDatum(ou_round_sig(pct.min, 3));
	values[15] = Float8GetDatum(ou_round_sig(pct.max, 3));
	values[16] = Float8GetDatum(ou_round(rate.min, 1));
	values[17] = Float8GetDatum(ou_round(rate.max, 1));
	values[18] = PointerGetDatum(construct_array(pcts, n, FLOAT8OID, sizeof(float8),
												 FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	values[19] = PointerGetDatum(construct_array(orders, n, INT4OID, sizeof(int32),
												 true, TYPALIGN_INT));
	if (a->keep)
		values[20] = CStringGetTextDatum(ou_bench_qualified(a->kept,
															psprintf("%st", ou_serial_prefix(g, c))));
	else
		nulls[20] = true;
}

/*
 * bench_serializable
 *		SQL function: S5 (see the file header and doc/bench.md).
 */
Datum
bench_serializable(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	OuSerialArgs a;
	OuSerialFigures *figs;
	MemoryContext runcxt;
	MemoryContext oldcxt;
	OuBenchRun *run;
	int			c,
				g;

	ou_serial_args(fcinfo, &a);
	figs = palloc0(sizeof(OuSerialFigures) * a.ngens * a.ncounts * a.repeats);
	(void) ou_bench_materialize(fcinfo, "bench_serializable", OU_SERIAL_COLS, 0);
	runcxt = AllocSetContextCreate(CurrentMemoryContext, "bench_serializable per run",
								   ALLOCSET_DEFAULT_SIZES);

	run = ou_bench_start("bench_serializable", fcinfo->flinfo->fn_oid, a.max_clients,
						 a.schema, a.run_id, a.text_cap);
	PG_TRY();
	{
		ou_serial_runs(run, &a, runcxt, figs);
		ou_bench_finish(run, a.keep ? a.kept : NULL);
	}
	PG_CATCH();
	{
		ou_bench_abort(run);
		PG_RE_THROW();
	}
	PG_END_TRY();

	/* one row per client count and generator, in the order given */
	for (c = 0; c < a.ncounts; c++)
	{
		for (g = 0; g < a.ngens; g++)
		{
			Datum		values[OU_SERIAL_COLS];
			bool		nulls[OU_SERIAL_COLS];

			MemoryContextReset(runcxt);
			oldcxt = MemoryContextSwitchTo(runcxt);
			ou_serial_row(&a, g, c, &figs[(c * a.ngens + g) * a.repeats], a.repeats,
						  values, nulls);
			MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
			MemoryContextSwitchTo(oldcxt);
		}
	}
	MemoryContextDelete(runcxt);
	return (Datum) 0;
}
