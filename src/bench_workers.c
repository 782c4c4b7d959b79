/*-------------------------------------------------------------------------
 *
 * bench_workers.c
 *	  Dynamic background workers, shared memory and clean-up behind the
 *	  in-database benchmarks (bench_insert, bench_bulk_load,
 *	  bench_multi_table).
 *
 * A benchmark function cannot commit in its caller's transaction, and
 * anything it created there would be invisible to other sessions until the
 * caller commits.  So all benchmark SQL, even with one client, runs in
 * dynamic background workers connected to the caller's database AS THE
 * CALLING ROLE (GetUserId()), with the caller's search_path behind
 * pg_catalog and the extension's schema: generator expressions run with
 * exactly the caller's privileges, and the default generators (unqualified
 * names of our functions) always mean ours, never a same-named function that
 * another role created in a schema earlier on the caller's path.
 *
 * One run = one DSM segment (shm_toc: a shared header with a slot per worker,
 * and a text area for SQL) and a fixed set of workers, registered together
 * when the run starts, so a shortage of worker slots is found before any
 * scratch table exists.  The leader drives the workers with commands:
 *
 *	 SQL	  worker 0 runs statements, each in its own transaction (DDL, prefill)
 *	 PREPARE  every worker prepares the statements it will loop over
 *	 RUN	  every worker loops over its share of the rows, committing every
 *			  per_xact executions; all start when the command is broadcast
 *	 MEASURE  worker 0 measures a B-tree index (index_shape(): leaf pages,
 *			  leaf density)
 *	 DROP	  worker 0 drops the run's scratch objects
 *	 EXIT	  every worker exits
 *
 * The leader never opens or locks a scratch relation, so a worker dropping
 * one can never wait for the leader.
 *
 * Clean-up on error or cancel: ou_bench_abort() (called by the benchmark in
 * PG_CATCH) terminates the workers, then starts a separate clean-up worker
 * (ou_bench_cleanup_main) that drops every scratch object whose name starts
 * with the run's prefix, and waits for it (bounded).  If the leader dies
 * without reaching PG_CATCH (FATAL), the DSM detach callback terminates the
 * workers and starts the same clean-up worker without waiting.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#define OU_COMPAT_BENCH
#include "compat.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type_d.h"
#include "executor/instrument.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "postmaster/bgworker.h"
#include "postmaster/bgwriter.h"
#include "access/xlog.h"
#include "storage/condition_variable.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "ordered_uuid.h"

PGDLLEXPORT void ou_bench_worker_main(Datum main_arg);
PGDLLEXPORT void ou_bench_cleanup_main(Datum main_arg);

#define OU_BENCH_MAGIC			0x6F754231
#define OU_BENCH_KEY_SHARED		1
#define OU_BENCH_KEY_TEXT		2

#define OU_ERRLEN				1024
#define OU_SEARCH_PATH_LEN		1024

/* progress NOTICEs at most this often */
#define OU_PROGRESS_MS			5000
/* how long clean-up may wait for workers to stop, and for the drop */
#define OU_STOP_WAIT_MS			10000
#define OU_CLEANUP_WAIT_MS		30000

typedef enum OuBenchCmd
{
	OU_CMD_NONE = 0,
	OU_CMD_SQL,
	OU_CMD_PREPARE,
	OU_CMD_RUN,
	OU_CMD_MEASURE,
	OU_CMD_DROP,
	OU_CMD_EXIT
} OuBenchCmd;

/* one worker's slot in shared memory */
typedef struct OuBenchSlot
{
	pg_atomic_uint32 done_seq;	/* last command this worker completed */
	pg_atomic_uint64 rows_done; /* rows inserted by the current RUN */
	int			pid;			/* set once connected */
	PGPROC	   *proc;			/* its PGPROC, set once connected */
	bool		running;		/* inside the loop of a RUN */
	bool		failed;			/* an error is in err* */
	int			sqlerrcode;
	char		errmsg[OU_ERRLEN];
	char		errdetail[OU_ERRLEN];
	char		errhint[OU_ERRLEN];
	TimestampTz finished;		/* end of its last RUN */
	WalUsage	wal;			/* WAL written by its last RUN */
	BufferUsage buf;			/* buffers used by its last RUN */
	OuBenchIndexShape shape;	/* result of its last MEASURE */
} OuBenchSlot;

/* the shared header of a run */
typedef struct OuBenchShared
{
	Oid			dbid;
	Oid			roleid;
	PGPROC	   *leader;
	int			nworkers;
	ConditionVariable cv;		/* broadcast when cmd_seq changes */
	pg_atomic_uint32 cmd_seq;
	pg_atomic_uint32 abort;		/* set when the leader gives up */
	/* the current command */
	OuBenchCmd	cmd;
	int			nstmts;			/* NUL-separated strings in the text area */
	bool		with_count;		/* PREPARE: statements take $1 int8 = rows */
	int64		rows;			/* RUN: rows over all workers */
	int			batch;			/* RUN: at most this many rows per execution */
	int			per_xact;		/* RUN: executions per transaction */
	TimestampTz go_time;		/* RUN: when the command was broadcast */
	char		search_path[OU_SEARCH_PATH_LEN];
	char		extschema[NAMEDATALEN]; /* the extension's schema */
	char		fname[NAMEDATALEN];
	OuBenchSlot slots[FLEXIBLE_ARRAY_MEMBER];
} OuBenchShared;

/* what the clean-up worker gets in bgw_extra */
typedef struct OuBenchCleanupArgs
{
	Oid			dbid;
	Oid			roleid;
	char		prefix[NAMEDATALEN];
} OuBenchCleanupArgs;

StaticAssertDecl(sizeof(OuBenchCleanupArgs) <= BGW_EXTRALEN,
				 "clean-up arguments must fit into bgw_extra");

/* the leader's view of a run; lives in TopMemoryContext */
struct OuBenchRun
{
	dsm_segment *seg;
	OuBenchShared *sh;
	char	   *text;
	Size		text_cap;
	int			nworkers;
	BackgroundWorkerHandle **handles;
	uint32		seq;
	bool		done;			/* finished or cleaned up: nothing left to do */
	bool		created;		/* SQL ran: scratch objects may exist */
	char		fname[NAMEDATALEN];
	char		prefix[NAMEDATALEN];
	char		phase[256];
	TimestampTz last_notice;
};

/* worker-local state */
static SPIPlanPtr *ou_plans = NULL;
static int	ou_nplans = 0;

static void ou_bench_on_detach(dsm_segment *seg, Datum arg);
static void ou_bench_launch_cleanup(OuBenchRun *run, bool wait);
static void ou_bench_drop_prefix(const char *prefix);

/* ---------------------------------------------------------------------
 * Leader side
 * ---------------------------------------------------------------------
 */

/*
 * ou_bench_start
 *		Create a run: DSM segment, and nworkers workers connected as the
 *		calling role.  Fails before anything is created when the worker
 *		slots do not suffice.
 *
 * fn_oid is the calling SQL function (its schema is the extension's, put
 * right after pg_catalog on the workers' search_path); text_cap is the size of the text
 * area for SQL statements.
 */
OuBenchRun *
ou_bench_start(const char *fname, Oid fn_oid, int nworkers, Size text_cap)
{
	OuBenchRun *run;
	shm_toc_estimator e;
	shm_toc    *toc;
	Size		shared_size = add_size(offsetof(OuBenchShared, slots),
									   mul_size(sizeof(OuBenchSlot), nworkers));
	Size		segsize;
	OuBenchShared *sh;
	MemoryContext oldcxt;
	const char *sp;
	int			i;

	/*
	 * Workers are sessions of their own, running as the current user: not
	 * from inside a security-restricted operation (e.g. a maintenance
	 * command running the code of a table's owner).
	 */
	if (InSecurityRestrictedOperation())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("cannot run %s inside a security-restricted operation", fname)));
	if (nworkers > max_worker_processes)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("%s needs %d background workers but max_worker_processes is %d",
						fname, nworkers, max_worker_processes),
				 errhint("Raise max_worker_processes (this needs a restart) or use fewer clients.")));
	if (get_namespace_oid(OU_BENCH_SCHEMA, true) == InvalidOid)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("schema \"%s\" for benchmark scratch tables does not exist", OU_BENCH_SCHEMA),
				 errhint("It is created by CREATE EXTENSION ordered_uuid; reinstall the extension.")));

	shm_toc_initialize_estimator(&e);
	shm_toc_estimate_chunk(&e, shared_size);
	shm_toc_estimate_chunk(&e, text_cap);
	shm_toc_estimate_keys(&e, 2);
	segsize = shm_toc_estimate(&e);

	oldcxt = MemoryContextSwitchTo(TopMemoryContext);
	run = palloc0(sizeof(OuBenchRun));
	run->handles = palloc0(sizeof(BackgroundWorkerHandle *) * nworkers);
	run->nworkers = nworkers;
	run->text_cap = text_cap;
	strlcpy(run->fname, fname, NAMEDATALEN);
	snprintf(run->prefix, NAMEDATALEN, "%s_%d_%x_",
			 strncmp(fname, "bench_", 6) == 0 ? fname + 6 : fname,
			 MyProcPid, (unsigned int) (GetCurrentTimestamp() / 1000));
	strlcpy(run->phase, "starting workers", sizeof(run->phase));
	run->last_notice = GetCurrentTimestamp();

	run->seg = dsm_create(segsize, 0);
	toc = shm_toc_create(OU_BENCH_MAGIC, dsm_segment_address(run->seg), segsize);
	sh = shm_toc_allocate(toc, shared_size);
	memset(sh, 0, shared_size);
	sh->dbid = MyDatabaseId;
	sh->roleid = GetUserId();
	sh->leader = MyProc;
	sh->nworkers = nworkers;
	ConditionVariableInit(&sh->cv);
	pg_atomic_init_u32(&sh->cmd_seq, 0);
	pg_atomic_init_u32(&sh->abort, 0);
	strlcpy(sh->fname, fname, NAMEDATALEN);
	strlcpy(sh->extschema, get_namespace_name(get_func_namespace(fn_oid)), NAMEDATALEN);
	sp = GetConfigOption("search_path", false, false);
	if (snprintf(sh->search_path, OU_SEARCH_PATH_LEN, "pg_catalog, %s%s%s",
				 quote_identifier(sh->extschema), (sp && *sp) ? ", " : "",
				 sp ? sp : "") >= OU_SEARCH_PATH_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("search_path is too long for a benchmark run"),
				 errdetail("The workers' search_path (pg_catalog, the extension's schema, then the caller's) must fit in %d bytes.",
						   OU_SEARCH_PATH_LEN - 1)));
	for (i = 0; i < nworkers; i++)
	{
		pg_atomic_init_u32(&sh->slots[i].done_seq, 0);
		pg_atomic_init_u64(&sh->slots[i].rows_done, 0);
	}
	shm_toc_insert(toc, OU_BENCH_KEY_SHARED, sh);
	run->text = shm_toc_allocate(toc, text_cap);
	shm_toc_insert(toc, OU_BENCH_KEY_TEXT, run->text);
	run->sh = sh;
	on_dsm_detach(run->seg, ou_bench_on_detach, PointerGetDatum(run));

	for (i = 0; i < nworkers; i++)
	{
		BackgroundWorker w;

		memset(&w, 0, sizeof(w));
		w.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
		w.bgw_start_time = BgWorkerStart_ConsistentState;
		w.bgw_restart_time = BGW_NEVER_RESTART;
		snprintf(w.bgw_library_name, sizeof(w.bgw_library_name), "ordered_uuid");
		snprintf(w.bgw_function_name, sizeof(w.bgw_function_name), "ou_bench_worker_main");
		snprintf(w.bgw_name, sizeof(w.bgw_name), "ordered_uuid %s worker %d for PID %d",
				 fname, i + 1, MyProcPid);
		snprintf(w.bgw_type, sizeof(w.bgw_type), "ordered_uuid bench worker");
		w.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(run->seg));
		w.bgw_notify_pid = MyProcPid;
		memcpy(w.bgw_extra, &i, sizeof(int));
		if (!RegisterDynamicBackgroundWorker(&w, &run->handles[i]))
		{
			int			started = i;

			MemoryContextSwitchTo(oldcxt);
			ou_bench_abort(run);
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("not enough free background worker slots for %s", fname),
					 errdetail("%s needs %d background workers, but only %d worker slots were free.",
							   fname, nworkers, started),
					 errhint("Raise max_worker_processes (currently %d; this needs a restart), or use fewer clients.",
							 max_worker_processes)));
		}
	}
	MemoryContextSwitchTo(oldcxt);
	return run;
}

/*
 * ou_bench_prefix
 *		The prefix of every scratch object name of this run.
 */
const char *
ou_bench_prefix(OuBenchRun *run)
{
	return run->prefix;
}

/*
 * ou_bench_phase
 *		Set the phase shown in pg_stat_activity and in progress NOTICEs.
 */
void
ou_bench_phase(OuBenchRun *run, const char *fmt,...)
{
	va_list		ap;
	char		activity[512];

	va_start(ap, fmt);
	vsnprintf(run->phase, sizeof(run->phase), fmt, ap);
	va_end(ap);
	snprintf(activity, sizeof(activity), "%s: %s", run->fname, run->phase);
	pgstat_report_activity(STATE_RUNNING, activity);
}

/*
 * ou_bench_rethrow
 *		Raise the error a worker reported, with its SQLSTATE.
 */
static void
ou_bench_rethrow(OuBenchRun *run, int i)
{
	OuBenchSlot *slot = &run->sh->slots[i];

	pg_read_barrier();
	ereport(ERROR,
			(errcode(slot->sqlerrcode),
			 errmsg_internal("%s", slot->errmsg),
			 slot->errdetail[0] ? errdetail_internal("%s", slot->errdetail) : 0,
			 slot->errhint[0] ? errhint("%s", slot->errhint) : 0,
			 errcontext("%s worker %d, %s", run->fname, i + 1, run->phase)));
}

/*
 * ou_bench_wait
 *		Wait until the workers that take part in command seq have done it,
 *		reporting progress, calling the sampler, and raising the first error
 *		a worker reported.  Interrupts (cancel, statement_timeout) are
 *		processed: the benchmark's PG_CATCH then cleans up.
 */
static void
ou_bench_wait(OuBenchRun *run, int only_worker, int64 rows_total,
			  OuBenchSampleFn sample, void *sample_arg, int sample_ms)
{
	OuBenchShared *sh = run->sh;
	TimestampTz started = GetCurrentTimestamp();

	for (;;)
	{
		bool		all_done = true;
		int			i;
		TimestampTz now;

		CHECK_FOR_INTERRUPTS();

		for (i = 0; i < run->nworkers; i++)
		{
			OuBenchSlot *slot = &sh->slots[i];
			pid_t		pid;

			if (only_worker >= 0 && i != only_worker)
				continue;
			if (pg_atomic_read_u32(&slot->done_seq) == run->seq)
			{
				pg_read_barrier();
				if (slot->failed)
					ou_bench_rethrow(run, i);
				continue;
			}
			all_done = false;
			if (slot->failed)
				ou_bench_rethrow(run, i);
			if (GetBackgroundWorkerPid(run->handles[i], &pid) == BGWH_STOPPED)
			{
				pg_read_barrier();
				if (slot->failed)
					ou_bench_rethrow(run, i);
				if (pg_atomic_read_u32(&slot->done_seq) == run->seq)
					continue;
				ereport(ERROR,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("%s worker %d exited unexpectedly", run->fname, i + 1),
						 errdetail("The worker connects as role \"%s\"; a role that may not log in (NOLOGIN) or has reached its connection limit cannot run benchmarks.",
								   GetUserNameFromId(sh->roleid, true)),
						 errhint("See the server log for the worker's error.")));
			}
		}
		if (all_done)
			break;

		if (sample)
			sample(run, sample_arg);

		now = GetCurrentTimestamp();
		if (TimestampDifferenceExceeds(run->last_notice, now, OU_PROGRESS_MS))
		{
			char		activity[512];

			if (rows_total > 0)
			{
				int64		done = 0;
				double		secs = (double) (now - sh->go_time) / 1000000.0;

				for (i = 0; i < run->nworkers; i++)
					done += (int64) pg_atomic_read_u64(&sh->slots[i].rows_done);
				ereport(NOTICE,
						(errcode(ERRCODE_SUCCESSFUL_COMPLETION),
						 errmsg("%s: %s: " INT64_FORMAT " of " INT64_FORMAT " rows, %.0f rows/s",
								run->fname, run->phase, done, rows_total,
								secs > 0 ? done / secs : 0.0)));
				snprintf(activity, sizeof(activity), "%s: %s: " INT64_FORMAT " of " INT64_FORMAT " rows",
						 run->fname, run->phase, done, rows_total);
			}
			else
			{
				ereport(NOTICE,
						(errcode(ERRCODE_SUCCESSFUL_COMPLETION),
						 errmsg("%s: %s: running for %.0f s",
								run->fname, run->phase, (double) (now - started) / 1000000.0)));
				snprintf(activity, sizeof(activity), "%s: %s", run->fname, run->phase);
			}
			pgstat_report_activity(STATE_RUNNING, activity);
			run->last_notice = now;
		}

		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 sample ? sample_ms : 100, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * ou_bench_command
 *		Publish a command (its parameters are already in shared memory and
 *		the text area) and wake the workers.
 */
static void
ou_bench_command(OuBenchRun *run, OuBenchCmd cmd)
{
	OuBenchShared *sh = run->sh;

	sh->cmd = cmd;
	run->seq++;
	pg_write_barrier();
	pg_atomic_write_u32(&sh->cmd_seq, run->seq);
	ConditionVariableBroadcast(&sh->cv);
}

/*
 * ou_bench_set_text
 *		Copy a list of C strings into the text area, NUL-separated.
 */
static void
ou_bench_set_text(OuBenchRun *run, List *stmts)
{
	ListCell   *lc;
	Size		off = 0;

	foreach(lc, stmts)
	{
		const char *s = (const char *) lfirst(lc);
		Size		len = strlen(s) + 1;

		if (off + len > run->text_cap)
			elog(ERROR, "benchmark SQL does not fit into its shared memory area");
		memcpy(run->text + off, s, len);
		off += len;
	}
	run->sh->nstmts = list_length(stmts);
}

/*
 * ou_bench_sql
 *		Worker 1 runs the statements, each in its own transaction.
 */
void
ou_bench_sql(OuBenchRun *run, List *stmts)
{
	ou_bench_set_text(run, stmts);
	run->created = true;
	ou_bench_command(run, OU_CMD_SQL);
	ou_bench_wait(run, 0, 0, NULL, NULL, 0);
}

/*
 * ou_bench_prepare
 *		Every worker prepares the statements (with one int8 parameter, the
 *		number of rows to insert, when with_count).
 */
void
ou_bench_prepare(OuBenchRun *run, List *stmts, bool with_count)
{
	ou_bench_set_text(run, stmts);
	run->sh->with_count = with_count;
	ou_bench_command(run, OU_CMD_PREPARE);
	ou_bench_wait(run, -1, 0, NULL, NULL, 0);
}

/*
 * ou_bench_exec
 *		All workers insert rows rows in total (an even share each), batch rows
 *		per execution of the prepared statements (taken in turn), committing
 *		every per_xact executions.  They start together.  Returns the sums
 *		of their counters and the time from the start to the last finish.
 */
OuBenchResult
ou_bench_exec(OuBenchRun *run, int64 rows, int batch, int per_xact,
			  OuBenchSampleFn sample, void *sample_arg, int sample_ms)
{
	OuBenchShared *sh = run->sh;
	OuBenchResult r;
	TimestampTz last = 0;
	int			i;

	sh->rows = rows;
	sh->batch = batch;
	sh->per_xact = per_xact;
	for (i = 0; i < run->nworkers; i++)
		pg_atomic_write_u64(&sh->slots[i].rows_done, 0);
	sh->go_time = GetCurrentTimestamp();
	ou_bench_command(run, OU_CMD_RUN);
	ou_bench_wait(run, -1, rows, sample, sample_arg, sample_ms);

	memset(&r, 0, sizeof(r));
	for (i = 0; i < run->nworkers; i++)
	{
		OuBenchSlot *slot = &sh->slots[i];

		r.rows += (int64) pg_atomic_read_u64(&slot->rows_done);
		r.wal_records += slot->wal.wal_records;
		r.wal_fpi += slot->wal.wal_fpi;
		r.wal_bytes += slot->wal.wal_bytes;
		r.blks_dirtied += slot->buf.shared_blks_dirtied;
		r.blks_written += slot->buf.shared_blks_written;
		if (slot->finished > last)
			last = slot->finished;
	}
	r.seconds = Max(last - sh->go_time, 1) / 1000000.0;
	return r;
}

/*
 * ou_bench_measure
 *		Worker 1 measures the B-tree index OU_BENCH_SCHEMA.index_name.
 */
OuBenchIndexShape
ou_bench_measure(OuBenchRun *run, const char *index_name)
{
	ou_bench_set_text(run, list_make1((char *) index_name));
	ou_bench_command(run, OU_CMD_MEASURE);
	ou_bench_wait(run, 0, 0, NULL, NULL, 0);
	return run->sh->slots[0].shape;
}

/*
 * ou_bench_drop
 *		Worker 1 drops the run's scratch objects whose names start with
 *		prefix (which itself should start with the run's prefix).
 */
void
ou_bench_drop(OuBenchRun *run, const char *prefix)
{
	ou_bench_set_text(run, list_make1((char *) prefix));
	ou_bench_command(run, OU_CMD_DROP);
	ou_bench_wait(run, 0, 0, NULL, NULL, 0);
}

/*
 * ou_bench_running_procs
 *		The PGPROCs and pids of the workers that are inside the loop of the
 *		current RUN (for the leader's wait sampling; workers that finished
 *		their share and wait for the others are left out).  The caller
 *		checks that a sample's pid matches.
 */
int
ou_bench_running_procs(OuBenchRun *run, PGPROC **procs, int *pids, int max)
{
	int			n = 0;
	int			i;

	for (i = 0; i < run->nworkers && n < max; i++)
	{
		OuBenchSlot *slot = &run->sh->slots[i];

		if (!slot->running || slot->proc == NULL)
			continue;
		pg_read_barrier();
		procs[n] = slot->proc;
		pids[n] = slot->pid;
		n++;
	}
	return n;
}

/*
 * ou_bench_wait_stopped
 *		Wait, without processing interrupts and at most timeout_ms, until
 *		every worker of the run has exited.  Used on the way out, also
 *		after an error.
 */
static void
ou_bench_wait_stopped(OuBenchRun *run, int timeout_ms)
{
	TimestampTz start = GetCurrentTimestamp();

	for (;;)
	{
		bool		all = true;
		int			i;

		for (i = 0; i < run->nworkers; i++)
		{
			pid_t		pid;

			if (run->handles[i] &&
				GetBackgroundWorkerPid(run->handles[i], &pid) != BGWH_STOPPED)
				all = false;
		}
		if (all || TimestampDifferenceExceeds(start, GetCurrentTimestamp(), timeout_ms))
			return;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 20, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * ou_bench_release
 *		Forget the run: detach from its segment, free leader memory.
 */
static void
ou_bench_release(OuBenchRun *run)
{
	run->done = true;
	if (run->seg)
	{
		dsm_segment *seg = run->seg;

		run->seg = NULL;
		dsm_detach(seg);
	}
	pgstat_report_activity(STATE_RUNNING, debug_query_string ? debug_query_string : "");
	pfree(run->handles);
	pfree(run);
}

/*
 * ou_bench_finish
 *		Normal end of a run: the workers exit, the leader waits for them so
 *		their worker slots are free again when the function returns.
 */
void
ou_bench_finish(OuBenchRun *run)
{
	ou_bench_phase(run, "stopping workers");
	ou_bench_command(run, OU_CMD_EXIT);
	ou_bench_wait(run, -1, 0, NULL, NULL, 0);
	ou_bench_wait_stopped(run, OU_STOP_WAIT_MS);
	ou_bench_release(run);
}

/*
 * ou_bench_abort
 *		End of a run after an error or cancel (call it in PG_CATCH before
 *		re-throwing): stop the workers, drop every scratch object of the run
 *		(whatever keep said), wait for both, bounded.  Interrupts are held so
 *		that a second cancel cannot leave things half done.
 */
void
ou_bench_abort(OuBenchRun *run)
{
	int			i;

	if (run->done)
		return;
	HOLD_INTERRUPTS();
	pg_atomic_write_u32(&run->sh->abort, 1);
	ConditionVariableBroadcast(&run->sh->cv);
	for (i = 0; i < run->nworkers; i++)
		if (run->handles[i])
			TerminateBackgroundWorker(run->handles[i]);
	ou_bench_wait_stopped(run, OU_STOP_WAIT_MS);
	if (run->created)
		ou_bench_launch_cleanup(run, true);
	RESUME_INTERRUPTS();
	ou_bench_release(run);
}

/*
 * ou_bench_on_detach
 *		The leader's segment goes away (transaction abort or process exit)
 *		without ou_bench_finish or ou_bench_abort having run: stop the
 *		workers and leave the dropping to a clean-up worker.
 */
static void
ou_bench_on_detach(dsm_segment *seg, Datum arg)
{
	OuBenchRun *run = (OuBenchRun *) DatumGetPointer(arg);
	int			i;

	if (run->done)
		return;
	run->done = true;
	pg_atomic_write_u32(&run->sh->abort, 1);
	ConditionVariableBroadcast(&run->sh->cv);
	for (i = 0; i < run->nworkers; i++)
		if (run->handles[i])
			TerminateBackgroundWorker(run->handles[i]);
	if (run->created)
		ou_bench_launch_cleanup(run, false);
}

/*
 * ou_bench_launch_cleanup
 *		Start a worker, connected as the run's role, that drops every scratch
 *		object whose name starts with the run's prefix; optionally wait for
 *		it (bounded, interrupts not processed).  Never raises an error: at
 *		worst it warns that scratch tables may be left behind.
 */
static void
ou_bench_launch_cleanup(OuBenchRun *run, bool wait)
{
	BackgroundWorker w;
	BackgroundWorkerHandle *h = NULL;
	OuBenchCleanupArgs args;
	TimestampTz start = GetCurrentTimestamp();

	memset(&w, 0, sizeof(w));
	memset(&args, 0, sizeof(args));
	args.dbid = run->sh->dbid;
	args.roleid = run->sh->roleid;
	strlcpy(args.prefix, run->prefix, NAMEDATALEN);
	w.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	w.bgw_start_time = BgWorkerStart_ConsistentState;
	w.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(w.bgw_library_name, sizeof(w.bgw_library_name), "ordered_uuid");
	snprintf(w.bgw_function_name, sizeof(w.bgw_function_name), "ou_bench_cleanup_main");
	snprintf(w.bgw_name, sizeof(w.bgw_name), "ordered_uuid %s clean-up for PID %d",
			 run->fname, MyProcPid);
	snprintf(w.bgw_type, sizeof(w.bgw_type), "ordered_uuid bench worker");
	w.bgw_main_arg = (Datum) 0;
	w.bgw_notify_pid = wait ? MyProcPid : 0;
	memcpy(w.bgw_extra, &args, sizeof(args));

	if (!RegisterDynamicBackgroundWorker(&w, wait ? &h : NULL))
	{
		ereport(WARNING,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("could not start a worker to drop the scratch tables of %s", run->fname),
				 errhint("Drop the tables in schema %s whose names start with \"%s\".",
						 OU_BENCH_SCHEMA, run->prefix)));
		return;
	}
	if (!wait)
		return;
	for (;;)
	{
		pid_t		pid;

		if (GetBackgroundWorkerPid(h, &pid) == BGWH_STOPPED)
			break;
		if (TimestampDifferenceExceeds(start, GetCurrentTimestamp(), OU_CLEANUP_WAIT_MS))
		{
			ereport(WARNING,
					(errcode(ERRCODE_SUCCESSFUL_COMPLETION),
					 errmsg("scratch tables of %s are still being dropped in the background", run->fname)));
			break;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 20, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	pfree(h);
}

/*
 * ou_bench_checkpoint
 *		CHECKPOINT before a measured run so that full-page-image counts are
 *		comparable, when the caller may (superuser, or pg_checkpoint on PG
 *		15+); otherwise say so.
 */
void
ou_bench_checkpoint(const char *fname)
{
	if (OU_MAY_CHECKPOINT())
		RequestCheckpoint(CHECKPOINT_IMMEDIATE | CHECKPOINT_FORCE | CHECKPOINT_WAIT);
	else
		ereport(NOTICE,
				(errcode(ERRCODE_SUCCESSFUL_COMPLETION),
				 errmsg("%s: no CHECKPOINT before each measured run, so full-page-image figures are not comparable",
						fname),
				 errhint("Run it as a superuser or a member of pg_checkpoint (PostgreSQL 15+).")));
}

/* ---------------------------------------------------------------------
 * Worker side
 * ---------------------------------------------------------------------
 */

/*
 * ou_worker_begin_xact / ou_worker_end_xact
 *		A transaction with SPI and a snapshot, as in worker_spi.
 */
static void
ou_worker_begin_xact(void)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
}

static void
ou_worker_end_xact(void)
{
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/*
 * ou_worker_text
 *		The i-th NUL-separated string of the text area.
 */
static const char *
ou_worker_text(const char *text, int i)
{
	while (i-- > 0)
		text += strlen(text) + 1;
	return text;
}

/*
 * ou_worker_sql
 *		Run each statement of the text area in its own transaction.
 */
static void
ou_worker_sql(OuBenchShared *sh, const char *text)
{
	int			i;

	for (i = 0; i < sh->nstmts; i++)
	{
		const char *stmt = ou_worker_text(text, i);

		CHECK_FOR_INTERRUPTS();
		pgstat_report_activity(STATE_RUNNING, stmt);
		ou_worker_begin_xact();
		if (SPI_execute(stmt, false, 0) < 0)
			elog(ERROR, "SPI_execute failed: %s", stmt);
		ou_worker_end_xact();
	}
}

/*
 * ou_worker_prepare
 *		Prepare (and keep) the statements of the text area.
 */
static void
ou_worker_prepare(OuBenchShared *sh, const char *text)
{
	Oid			argtypes[1] = {INT8OID};
	MemoryContext oldcxt;
	int			i;

	ou_worker_begin_xact();
	for (i = 0; i < ou_nplans; i++)
		SPI_freeplan(ou_plans[i]);
	oldcxt = MemoryContextSwitchTo(TopMemoryContext);
	if (ou_plans)
		pfree(ou_plans);
	ou_plans = palloc0(sizeof(SPIPlanPtr) * Max(sh->nstmts, 1));
	MemoryContextSwitchTo(oldcxt);
	ou_nplans = 0;
	for (i = 0; i < sh->nstmts; i++)
	{
		const char *stmt = ou_worker_text(text, i);
		SPIPlanPtr	plan;

		CHECK_FOR_INTERRUPTS();
		plan = SPI_prepare(stmt, sh->with_count ? 1 : 0, argtypes);
		if (plan == NULL)
			elog(ERROR, "SPI_prepare failed: %s", stmt);
		if (SPI_keepplan(plan) != 0)
			elog(ERROR, "SPI_keepplan failed");
		ou_plans[ou_nplans++] = plan;
	}
	ou_worker_end_xact();
}

/*
 * ou_worker_run
 *		This worker's share of a RUN: loop over the prepared statements,
 *		committing every per_xact executions, and record what the loop cost.
 */
static void
ou_worker_run(OuBenchShared *sh, int me)
{
	OuBenchSlot *slot = &sh->slots[me];
	int64		my_rows = sh->rows / sh->nworkers + (me < sh->rows % sh->nworkers ? 1 : 0);
	int64		done = 0;
	int64		j = (int64) me * Max(ou_nplans, 1) / sh->nworkers;
	WalUsage	wal0 = pgWalUsage;
	BufferUsage buf0 = pgBufferUsage;
	char		activity[256];

	if (ou_nplans == 0)
		elog(ERROR, "benchmark worker has no prepared statements");
	snprintf(activity, sizeof(activity), "%s: inserting " INT64_FORMAT " rows", sh->fname, my_rows);
	pgstat_report_activity(STATE_RUNNING, activity);
	slot->running = true;

	while (done < my_rows)
	{
		int			k;

		ou_worker_begin_xact();
		for (k = 0; k < sh->per_xact && done < my_rows; k++)
		{
			int64		n = Min((int64) sh->batch, my_rows - done);
			Datum		arg = Int64GetDatum(n);
			int			ret;

			CHECK_FOR_INTERRUPTS();
			if (pg_atomic_read_u32(&sh->abort))
				ereport(ERROR,
						(errcode(ERRCODE_QUERY_CANCELED),
						 errmsg("benchmark stopped by its leader")));
			ret = SPI_execute_plan(ou_plans[j % ou_nplans], sh->with_count ? &arg : NULL,
								   NULL, false, 0);
			if (ret != SPI_OK_INSERT)
				elog(ERROR, "benchmark statement returned %d", ret);
			done += n;
			j++;
			pg_atomic_write_u64(&slot->rows_done, (uint64) done);
		}
		ou_worker_end_xact();
	}
	slot->running = false;
	slot->finished = GetCurrentTimestamp();
	memset(&slot->wal, 0, sizeof(slot->wal));
	memset(&slot->buf, 0, sizeof(slot->buf));
	WalUsageAccumDiff(&slot->wal, &pgWalUsage, &wal0);
	BufferUsageAccumDiff(&slot->buf, &pgBufferUsage, &buf0);
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * ou_worker_measure
 *		Leaf pages, average leaf density (index_shape(), index_shape.c: the
 *		rules of pgstattuple's pgstatindex) and size of a scratch B-tree
 *		index.  On an index that only ever had inserts, leaf pages - 1 is
 *		exactly the number of leaf splits (no page was ever deleted).
 */
static void
ou_worker_measure(OuBenchShared *sh, int me, const char *index_name)
{
	OuBenchIndexShape shape;
	char	   *qidx = psprintf("%s.%s", quote_identifier(OU_BENCH_SCHEMA),
								quote_identifier(index_name));
	char	   *sql;
	bool		isnull;

	memset(&shape, 0, sizeof(shape));
	ou_worker_begin_xact();
	sql = psprintf("SELECT s.leaf_pages, s.avg_leaf_density, pg_catalog.pg_relation_size(%s::pg_catalog.regclass)"
				   " FROM %s.index_shape(%s::pg_catalog.regclass) s",
				   quote_literal_cstr(qidx), quote_identifier(sh->extschema), quote_literal_cstr(qidx));
	if (SPI_execute(sql, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not measure index %s", qidx);
	shape.leaf_pages = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	if (isnull)
		shape.leaf_pages = 0;
	shape.avg_leaf_density = DatumGetFloat8(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
	if (isnull || isnan(shape.avg_leaf_density))
		shape.avg_leaf_density = 0;
	shape.index_bytes = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &isnull));
	ou_worker_end_xact();
	sh->slots[me].shape = shape;
}

/*
 * ou_bench_drop_prefix
 *		Drop every table and sequence in the scratch schema that the current
 *		role owns and whose name starts with prefix.  Tables first (their
 *		owned sequences go with them), a transaction per 50 objects so a
 *		large run does not exhaust the lock table.
 */
static void
ou_bench_drop_prefix(const char *prefix)
{
	for (;;)
	{
		Oid			argtypes[3] = {TEXTOID, INT4OID, OIDOID};
		Datum		args[3];
		int			ret;
		uint64		i;
		List	   *names = NIL;
		ListCell   *lc;

		CHECK_FOR_INTERRUPTS();
		ou_worker_begin_xact();
		args[0] = CStringGetTextDatum(prefix);
		args[1] = Int32GetDatum((int32) strlen(prefix));
		args[2] = ObjectIdGetDatum(GetUserId());
		ret = SPI_execute_with_args(
									"SELECT pg_catalog.format('DROP %s IF EXISTS %I.%I',"
									"  CASE c.relkind WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,"
									"  n.nspname, c.relname)"
									" FROM pg_catalog.pg_class c"
									" JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
									" WHERE n.nspname = '" OU_BENCH_SCHEMA "'"
									"   AND pg_catalog.left(c.relname, $2) OPERATOR(pg_catalog.=) $1"
									"   AND c.relowner OPERATOR(pg_catalog.=) $3"
									"   AND c.relkind IN ('r', 'p', 'S')"
									" ORDER BY c.relkind OPERATOR(pg_catalog.<>) 'S' DESC, c.relname"
									" LIMIT 50",
									3, argtypes, args, NULL, true, 0);
		if (ret != SPI_OK_SELECT)
			elog(ERROR, "could not list scratch tables");
		for (i = 0; i < SPI_processed; i++)
			names = lappend(names, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
		foreach(lc, names)
		{
			if (SPI_execute((const char *) lfirst(lc), false, 0) < 0)
				elog(ERROR, "could not drop a scratch table");
		}
		ou_worker_end_xact();
		if (names == NIL)
			break;
	}
}

/*
 * ou_worker_store_error
 *		Copy the error being handled into this worker's slot for the leader.
 */
static void
ou_worker_store_error(OuBenchShared *sh, OuBenchSlot *slot, ErrorData *edata)
{
	slot->sqlerrcode = edata->sqlerrcode;
	strlcpy(slot->errmsg, edata->message ? edata->message : "unknown error", OU_ERRLEN);
	strlcpy(slot->errdetail, edata->detail ? edata->detail : "", OU_ERRLEN);
	strlcpy(slot->errhint, edata->hint ? edata->hint : "", OU_ERRLEN);
	pg_write_barrier();
	slot->failed = true;
	pg_write_barrier();
	SetLatch(&sh->leader->procLatch);
}

/*
 * ou_worker_before_exit
 *		before_shmem_exit callback of a worker: leave the condition variable
 *		(which lives in the run's DSM segment) while the segment is still
 *		mapped.  Without it, a worker terminated while waiting for a command
 *		crashes on PG 14/15, whose ProcKill cancels the sleep after the
 *		segment was detached.
 */
static void
ou_worker_before_exit(int code, Datum arg)
{
	ConditionVariableCancelSleep();
}

/*
 * ou_bench_worker_main
 *		Entry point of a benchmark worker: connect as the run's role, then
 *		execute the leader's commands until EXIT or abort.
 */
void
ou_bench_worker_main(Datum main_arg)
{
	dsm_segment *seg;
	shm_toc    *toc;
	OuBenchShared *sh;
	OuBenchSlot *slot;
	const char *text;
	int			me;
	uint32		seen = 0;
	MemoryContext cmdcxt;

	memcpy(&me, MyBgworkerEntry->bgw_extra, sizeof(int));
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();

	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		proc_exit(0);			/* the leader is gone already */
	before_shmem_exit(ou_worker_before_exit, (Datum) 0);
	toc = shm_toc_attach(OU_BENCH_MAGIC, dsm_segment_address(seg));
	if (toc == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("bad magic number in dynamic shared memory segment")));
	sh = shm_toc_lookup(toc, OU_BENCH_KEY_SHARED, false);
	text = shm_toc_lookup(toc, OU_BENCH_KEY_TEXT, false);
	slot = &sh->slots[me];
	if (pg_atomic_read_u32(&sh->abort))
		proc_exit(0);

	BackgroundWorkerInitializeConnectionByOid(sh->dbid, sh->roleid, 0);
	SetConfigOption("search_path", sh->search_path, PGC_USERSET, PGC_S_SESSION);
	slot->proc = MyProc;
	pg_write_barrier();
	slot->pid = MyProcPid;
	pgstat_report_activity(STATE_IDLE, NULL);

	cmdcxt = AllocSetContextCreate(TopMemoryContext, "ordered_uuid bench command",
								   ALLOCSET_DEFAULT_SIZES);
	for (;;)
	{
		uint32		seq;
		OuBenchCmd	cmd;

		/* wait for the next command */
		for (;;)
		{
			seq = pg_atomic_read_u32(&sh->cmd_seq);
			if (seq != seen || pg_atomic_read_u32(&sh->abort))
				break;
			(void) ConditionVariableTimedSleep(&sh->cv, 1000, PG_WAIT_EXTENSION);
		}
		ConditionVariableCancelSleep();
		if (pg_atomic_read_u32(&sh->abort))
			break;
		pg_read_barrier();
		seen = seq;
		cmd = sh->cmd;

		MemoryContextReset(cmdcxt);
		PG_TRY();
		{
			MemoryContext oldcxt = MemoryContextSwitchTo(cmdcxt);

			switch (cmd)
			{
				case OU_CMD_SQL:
					if (me == 0)
						ou_worker_sql(sh, text);
					break;
				case OU_CMD_PREPARE:
					ou_worker_prepare(sh, text);
					break;
				case OU_CMD_RUN:
					ou_worker_run(sh, me);
					break;
				case OU_CMD_MEASURE:
					if (me == 0)
						ou_worker_measure(sh, me, text);
					break;
				case OU_CMD_DROP:
					if (me == 0)
						ou_bench_drop_prefix(text);
					break;
				case OU_CMD_EXIT:
				case OU_CMD_NONE:
					break;
			}
			MemoryContextSwitchTo(oldcxt);
		}
		PG_CATCH();
		{
			ErrorData  *edata;

			MemoryContextSwitchTo(TopMemoryContext);
			edata = CopyErrorData();
			ou_worker_store_error(sh, slot, edata);
			PG_RE_THROW();
		}
		PG_END_TRY();

		pg_write_barrier();
		pg_atomic_write_u32(&slot->done_seq, seen);
		SetLatch(&sh->leader->procLatch);
		if (cmd == OU_CMD_EXIT)
			break;
	}
	dsm_detach(seg);
	proc_exit(0);
}

/*
 * ou_bench_cleanup_main
 *		Entry point of the clean-up worker: connect as the run's role and
 *		drop the run's scratch objects.
 */
void
ou_bench_cleanup_main(Datum main_arg)
{
	OuBenchCleanupArgs args;

	memcpy(&args, MyBgworkerEntry->bgw_extra, sizeof(args));
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(args.dbid, args.roleid, 0);
	pgstat_report_activity(STATE_RUNNING, "ordered_uuid: dropping benchmark scratch tables");
	ou_bench_drop_prefix(args.prefix);
	pgstat_report_activity(STATE_IDLE, NULL);
	proc_exit(0);
}

/* ---------------------------------------------------------------------
 * Argument checks shared by the benchmark functions
 * ---------------------------------------------------------------------
 */

/*
 * ou_bench_arg_int
 *		An integer argument (int4 or int8) that must not be NULL and must lie
 *		in [min, max]: 22004 / 22023 otherwise, naming the argument.
 */
int64
ou_bench_arg_int(FunctionCallInfo fcinfo, int argno, const char *name, int64 min, int64 max)
{
	int64		v;

	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", name)));
	if (get_fn_expr_argtype(fcinfo->flinfo, argno) == INT8OID)
		v = PG_GETARG_INT64(argno);
	else
		v = PG_GETARG_INT32(argno);
	if (v < min || v > max)
	{
		if (max == PG_INT64_MAX || max == PG_INT32_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s must be at least " INT64_FORMAT, name, min),
					 errdetail("The value given was " INT64_FORMAT ".", v)));
		else
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s must be between " INT64_FORMAT " and " INT64_FORMAT, name, min, max),
					 errdetail("The value given was " INT64_FORMAT ".", v)));
	}
	return v;
}

/*
 * ou_bench_arg_bool
 *		A boolean argument that must not be NULL.
 */
bool
ou_bench_arg_bool(FunctionCallInfo fcinfo, int argno, const char *name)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", name)));
	return PG_GETARG_BOOL(argno);
}
