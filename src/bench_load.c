/*-------------------------------------------------------------------------
 *
 * bench_load.c
 *	  bench_bulk_load() (scenario S2: concurrent COPY-like batches into one
 *	  unindexed table, and the relation extension lock) and
 *	  bench_multi_table() (scenario S3: single-row transactions spread over
 *	  many tables, logged or unlogged), both with the wait-event profile of
 *	  the run.
 *
 * The profile needs no preload: while it waits for its workers, the leader
 * samples their PGPROCs every OU_SAMPLE_MS with waitsample.c's
 * ou_sample_proc() (plain reads of wait_event_info; for a relation
 * extension lock wait, the relation and the wait's start, read race-free
 * under the lock-manager partition lock).  Each sample is weighted by the
 * time since the previous one, so the estimated times add up to the
 * workers' wall-clock time.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "compat.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/proc.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "ordered_uuid.h"

PG_FUNCTION_INFO_V1(bench_bulk_load);
PG_FUNCTION_INFO_V1(bench_multi_table);

/* sampling period of the leader, milliseconds */
#define OU_SAMPLE_MS		10
/* distinct wait events kept (more are counted as "other") */
#define OU_MAX_EVENTS		64
/* wait events listed in top_wait_events */
#define OU_TOP_EVENTS		5
/* most workers a run can have (max_worker_processes is at most 262143) */
#define OU_MAX_SAMPLED		1024

/* bulk load: rows per INSERT (a COPY-like batch) and batches per commit */
#define OU_BULK_BATCH		1000
#define OU_BULK_PER_XACT	10
/* a heap tuple's header plus the bigint and the 4-byte varlena header */
#define OU_BULK_ROW_OVERHEAD 36
#define OU_BULK_MIN_ROW		40
#define OU_BULK_MAX_ROW		8000

typedef struct OuWaitTally
{
	uint32		wait_event_info;	/* 0 = on CPU */
	int64		samples;
	double		seconds;
} OuWaitTally;

/* what the leader's sampling found */
typedef struct OuSampler
{
	int			nevents;
	OuWaitTally events[OU_MAX_EVENTS + 1];	/* last one: "other" */
	int64		samples;
	double		seconds;
	int64		extend_waits;	/* distinct (pid, wait start) episodes */
	double		extend_seconds;
	TimestampTz last;
	int			last_pid[OU_MAX_SAMPLED];	/* per worker slot order */
	TimestampTz last_start[OU_MAX_SAMPLED];
	bool		last_extend[OU_MAX_SAMPLED];
} OuSampler;

/*
 * ou_tally
 *		Add a sample of weight secs for a wait event.
 */
static void
ou_tally(OuSampler *s, uint32 wei, double secs)
{
	int			i;

	for (i = 0; i < s->nevents; i++)
		if (s->events[i].wait_event_info == wei)
			break;
	if (i == s->nevents)
	{
		if (s->nevents < OU_MAX_EVENTS)
		{
			s->events[i].wait_event_info = wei;
			s->nevents++;
		}
		else
			i = OU_MAX_EVENTS;	/* "other" */
	}
	s->events[i].samples++;
	s->events[i].seconds += secs;
}

/*
 * ou_sample_workers
 *		OuBenchSampleFn: one sample of every worker inside its RUN loop.
 */
static void
ou_sample_workers(OuBenchRun *run, void *arg)
{
	OuSampler  *s = (OuSampler *) arg;
	PGPROC	   *procs[OU_MAX_SAMPLED];
	int			pids[OU_MAX_SAMPLED];
	TimestampTz now = GetCurrentTimestamp();
	double		secs;
	int			n;
	int			i;

	if (s->last != 0 && !TimestampDifferenceExceeds(s->last, now, OU_SAMPLE_MS - 1))
		return;
	/* weight: the time since the previous sample, at most a few periods */
	secs = s->last == 0 ? OU_SAMPLE_MS / 1000.0 :
		Min((double) (now - s->last) / 1000000.0, 5 * OU_SAMPLE_MS / 1000.0);
	s->last = now;

	n = ou_bench_running_procs(run, procs, pids, OU_MAX_SAMPLED);
	for (i = 0; i < n; i++)
	{
		OuWaitSample ws;
		int			k;

		if (!ou_sample_proc(procs[i], &ws) || ws.pid != pids[i])
			continue;
		s->samples++;
		s->seconds += secs;
		ou_tally(s, ws.wait_event_info, secs);

		/* remember per pid whether it was in an extension-lock wait */
		for (k = 0; k < OU_MAX_SAMPLED && s->last_pid[k] != 0 && s->last_pid[k] != ws.pid; k++)
			;
		if (k == OU_MAX_SAMPLED)
			continue;
		s->last_pid[k] = ws.pid;
		if (ws.wait_event_info == OU_WAIT_EXTEND_LOCK)
		{
			s->extend_seconds += secs;
			/* a new episode: a new start time, or a wait not seen before */
			if (ws.wait_start != 0 ? ws.wait_start != s->last_start[k] : !s->last_extend[k])
				s->extend_waits++;
			if (ws.wait_start != 0)
				s->last_start[k] = ws.wait_start;
			s->last_extend[k] = true;
		}
		else
			s->last_extend[k] = false;
	}
}

/*
 * ou_wait_name
 *		"Type:Event" of a wait event, or "CPU".
 */
static const char *
ou_wait_name(uint32 wei)
{
	const char *type;
	const char *event;

	if (wei == 0)
		return "CPU";
	type = pgstat_get_wait_event_type(wei);
	event = pgstat_get_wait_event(wei);
	return psprintf("%s:%s", type ? type : "?", event ? event : "?");
}

static int
ou_tally_cmp(const void *a, const void *b)
{
	const OuWaitTally *x = (const OuWaitTally *) a;
	const OuWaitTally *y = (const OuWaitTally *) b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->wait_event_info < y->wait_event_info ? -1 : x->wait_event_info > y->wait_event_info;
}

/*
 * ou_top_waits
 *		The OU_TOP_EVENTS most sampled wait events with their share of the
 *		samples, e.g. "Lock:extend 61.2%, CPU 20.3%, IO:DataFileExtend 9.1%".
 */
static char *
ou_top_waits(OuSampler *s)
{
	StringInfoData buf;
	int			n = s->nevents + (s->events[OU_MAX_EVENTS].samples > 0 ? 1 : 0);
	int			i;

	initStringInfo(&buf);
	if (s->samples == 0)
		return buf.data;
	if (s->events[OU_MAX_EVENTS].samples > 0)
		s->events[s->nevents] = s->events[OU_MAX_EVENTS];
	qsort(s->events, s->nevents, sizeof(OuWaitTally), ou_tally_cmp);
	for (i = 0; i < n && i < OU_TOP_EVENTS; i++)
		appendStringInfo(&buf, "%s%s %.1f%%", i > 0 ? ", " : "",
						 i == s->nevents ? "other" : ou_wait_name(s->events[i].wait_event_info),
						 100.0 * s->events[i].samples / s->samples);
	return buf.data;
}

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
	OuSampler  *sampler = palloc0(sizeof(OuSampler));
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
		stmts = lappend(stmts, psprintf("CREATE TABLE %s (id bigint, payload text STORAGE PLAIN)", qtbl));
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
						  ou_sample_workers, sampler, OU_SAMPLE_MS);
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
	values[2] = Float8GetDatum(r.seconds);
	values[3] = Float8GetDatum(r.rows / r.seconds);
	values[4] = Float8GetDatum((double) r.rows * row_bytes / (1024.0 * 1024.0) / r.seconds);
	values[5] = Int64GetDatum(sampler->extend_waits);
	values[6] = IntervalPGetDatum(ou_interval(sampler->extend_seconds));
	values[7] = Int64GetDatum(sampler->samples);
	values[8] = CStringGetTextDatum(ou_top_waits(sampler));
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
	OuSampler  *sampler = palloc0(sizeof(OuSampler));
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
		r = ou_bench_exec(run, rows, 1, 1, ou_sample_workers, sampler, OU_SAMPLE_MS);
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
	values[4] = Float8GetDatum(r.seconds);
	values[5] = Float8GetDatum(r.rows / r.seconds);
	values[6] = Float8GetDatum((double) r.wal_bytes / r.rows);
	values[7] = Int64GetDatum(sampler->samples);
	values[8] = CStringGetTextDatum(ou_top_waits(sampler));
	if (keep)
		values[9] = CStringGetTextDatum(psprintf("%s .. t%d", first, tables));
	else
		nulls[9] = true;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
