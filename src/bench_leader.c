/*-------------------------------------------------------------------------
 *
 * bench_leader.c
 *	  The leader's side of a benchmark run: the run's shared memory and
 *	  workers, the commands, the waits, and the way out.
 *
 * A benchmark function cannot commit in its caller's transaction, and what
 * it created there would be invisible to other sessions until the caller
 * commits.  So all benchmark SQL, even with one client, runs in dynamic
 * background workers connected to the caller's database AS THE CALLING
 * ROLE (GetUserId()), within that role's limits (NOLOGIN, CONNECT, the
 * role's and the database's connection limits are checked first, in
 * bench_args.c, because PostgreSQL does not count background workers
 * against them).
 *
 * The leader never runs SQL and never opens or locks a scratch relation,
 * so a worker dropping one can never wait for the leader.  It holds the
 * run lock (bench_protocol.h) from the start to the end of the run, so
 * that another run can tell a live run's schema from a dead one's.
 *
 * Clean-up on error or cancel: ou_bench_abort() (called by the benchmark
 * in PG_CATCH) terminates the workers, then has a clean-up worker
 * (bench_cleanup.c) drop the run's schema, and waits for it (bounded).  If
 * the leader's segment goes away without that (FATAL), the DSM detach
 * callback terminates the workers and starts the same clean-up worker
 * without waiting.  If even that cannot start, the schema is a dead run's:
 * the next benchmark in the database, or bench_cleanup(), drops it.
 *
 * IDENTIFICATION
 *	  src/bench_leader.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type_d.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/bgwriter.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/procarray.h"
#include "storage/shm_toc.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "bench_protocol.h"
#include "compat.h"
#include "util.h"

/* progress NOTICEs at most this often */
#define OU_PROGRESS_MS			5000
/* how long the way out may wait for workers to stop */
#define OU_STOP_WAIT_MS			10000

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
	bool		created;		/* SETUP was sent: the schema may exist */
	bool		locked;			/* holds the run lock */
	LOCKTAG		tag;			/* the run lock */
	char		fname[NAMEDATALEN];
	char		phase[256];
	TimestampTz last_notice;
};

static void ou_bench_on_detach(dsm_segment *seg, Datum arg);
static void ou_bench_command(OuBenchRun *run, OuBenchCmd cmd);
static void ou_bench_wait(OuBenchRun *run, int only_worker, int64 rows_total,
						  OuBenchSampleFn sample, void *sample_arg, int sample_ms);

/*
 * ou_bench_init_bgworker
 *		A dynamic background worker of this library that connects to a
 *		database and is never restarted, running function_name; the caller
 *		names it and fills bgw_main_arg / bgw_extra / bgw_notify_pid.
 */
void
ou_bench_init_bgworker(BackgroundWorker *w, const char *function_name)
{
	memset(w, 0, sizeof(*w));
	w->bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	w->bgw_start_time = BgWorkerStart_ConsistentState;
	w->bgw_restart_time = BGW_NEVER_RESTART;
	strlcpy(w->bgw_library_name, "ordered_uuid", sizeof(w->bgw_library_name));
	strlcpy(w->bgw_function_name, function_name, sizeof(w->bgw_function_name));
}

/*
 * ou_bench_start
 *		Start a run: check the role, create the DSM segment, take the run
 *		lock, start nworkers workers connected as the calling role, and have
 *		the first one drop dead runs' schemas and create this run's schema.
 *		Fails before anything is created when the role may not run it or
 *		the worker slots do not suffice.
 *
 * fn_oid is the calling SQL function (its schema is the extension's, put
 * right after pg_catalog on the search_path of the caller's generator
 * expressions).  schema is the run's scratch schema (from
 * ou_bench_new_schema), or NULL for a run that creates nothing
 * (bench_cleanup).  text_cap is the size of the text area: the most bytes
 * (ou_bench_text_size) one command's statements take.
 */
OuBenchRun *
ou_bench_start(const char *fname, Oid fn_oid, int nworkers, const char *schema,
			   uint64 run_id, Size text_cap)
{
	OuBenchRun *run;
	shm_toc_estimator e;
	shm_toc    *toc;
	dsm_segment *seg;
	Size		shared_size = add_size(offsetof(OuBenchShared, slots),
									   mul_size(sizeof(OuBenchSlot), nworkers));
	Size		segsize;
	OuBenchShared *sh;
	const char *extschema;
	const char *sp;
	char	   *caller_path;
	char	   *path;
	int			i;

	/*
	 * Workers are sessions of their own, running as the current user: not
	 * from inside a security-restricted operation (e.g. a maintenance
	 * command running the code of a table's owner).
	 */
	if (InSecurityRestrictedOperation())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("cannot run a benchmark inside a security-restricted operation")));
	if (nworkers > max_worker_processes)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("benchmark needs %d background workers, but max_worker_processes is %d",
						nworkers, max_worker_processes),
				 errhint("Raise max_worker_processes (this needs a restart) or use fewer clients.")));
	ou_bench_check_role(nworkers, schema != NULL);

	extschema = get_namespace_name(get_func_namespace(fn_oid));
	sp = GetConfigOption("search_path", false, false);
	caller_path = psprintf("pg_catalog, %s%s%s", quote_identifier(extschema),
						   (sp && *sp) ? ", " : "", sp ? sp : "");
	text_cap = Max(text_cap, 1);

	shm_toc_initialize_estimator(&e);
	shm_toc_estimate_chunk(&e, shared_size);
	shm_toc_estimate_chunk(&e, strlen(caller_path) + 1);
	shm_toc_estimate_chunk(&e, text_cap);
	shm_toc_estimate_keys(&e, 3);
	segsize = shm_toc_estimate(&e);

	/* Nothing below may fail before the run is protected by PG_TRY. */
	seg = dsm_create(segsize, 0);
	toc = shm_toc_create(OU_BENCH_MAGIC, dsm_segment_address(seg), segsize);
	sh = shm_toc_allocate(toc, shared_size);
	memset(sh, 0, shared_size);
	sh->dbid = MyDatabaseId;
	sh->roleid = GetUserId();
	sh->leader = MyProc;
	sh->nworkers = nworkers;
	sh->run_id = run_id;
	ConditionVariableInit(&sh->cv);
	pg_atomic_init_u32(&sh->cmd_seq, 0);
	pg_atomic_init_u32(&sh->abort, 0);
	strlcpy(sh->fname, fname, NAMEDATALEN);
	strlcpy(sh->extschema, extschema, NAMEDATALEN);
	if (schema)
		strlcpy(sh->schema, schema, NAMEDATALEN);
	for (i = 0; i < nworkers; i++)
	{
		pg_atomic_init_u32(&sh->slots[i].done_seq, 0);
		pg_atomic_init_u64(&sh->slots[i].rows_done, 0);
	}
	shm_toc_insert(toc, OU_BENCH_KEY_SHARED, sh);
	path = shm_toc_allocate(toc, strlen(caller_path) + 1);
	strcpy(path, caller_path);
	shm_toc_insert(toc, OU_BENCH_KEY_PATH, path);

	run = MemoryContextAllocZero(TopMemoryContext, sizeof(OuBenchRun));
	run->handles = MemoryContextAllocZero(TopMemoryContext,
										  sizeof(BackgroundWorkerHandle *) * nworkers);
	run->seg = seg;
	run->sh = sh;
	run->nworkers = nworkers;
	run->text_cap = text_cap;
	run->text = shm_toc_allocate(toc, text_cap);
	shm_toc_insert(toc, OU_BENCH_KEY_TEXT, run->text);
	strlcpy(run->fname, fname, NAMEDATALEN);
	strlcpy(run->phase, "starting workers", sizeof(run->phase));
	run->last_notice = GetCurrentTimestamp();
	on_dsm_detach(seg, ou_bench_on_detach, PointerGetDatum(run));

	PG_TRY();
	{
		OU_SET_RUN_LOCKTAG(run->tag, MyDatabaseId, run_id);
		if (LockAcquire(&run->tag, ExclusiveLock, true, true) == LOCKACQUIRE_NOT_AVAIL)
			elog(ERROR, "benchmark run %s is already locked", schema ? schema : "");
		run->locked = true;

		for (i = 0; i < nworkers; i++)
		{
			BackgroundWorker w;
			MemoryContext oldcxt;
			bool		registered;

			ou_bench_init_bgworker(&w, "ou_bench_worker_main");
			snprintf(w.bgw_name, sizeof(w.bgw_name), "ordered_uuid %s worker %d for PID %d",
					 fname, i + 1, MyProcPid);
			snprintf(w.bgw_type, sizeof(w.bgw_type), "ordered_uuid bench worker");
			w.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(seg));
			w.bgw_notify_pid = MyProcPid;
			memcpy(w.bgw_extra, &i, sizeof(int));
			oldcxt = MemoryContextSwitchTo(TopMemoryContext);
			registered = RegisterDynamicBackgroundWorker(&w, &run->handles[i]);
			MemoryContextSwitchTo(oldcxt);
			if (!registered)
				ereport(ERROR,
						(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
						 errmsg("not enough free background worker slots for %d clients", nworkers),
						 errdetail("The benchmark needs %d background workers, but only %d worker slots were free.",
								   nworkers, i),
						 errhint("Raise max_worker_processes (currently %d; this needs a restart), or use fewer clients.",
								 max_worker_processes)));
		}

		/* the first worker drops dead runs and creates the scratch schema */
		if (schema)
		{
			ou_bench_phase(run, "creating scratch schema %s", schema);
			run->created = true;
		}
		else
			ou_bench_phase(run, "dropping the scratch schemas of dead runs");
		ou_bench_command(run, OU_CMD_SETUP);
		ou_bench_wait(run, 0, 0, NULL, NULL, 0);
	}
	PG_CATCH();
	{
		ou_bench_abort(run);
		PG_RE_THROW();
	}
	PG_END_TRY();
	return run;
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
 * ou_bench_check_worker
 *		Raise the error of worker i if it reported one, or say that it is
 *		gone if it stopped before EXIT (every worker must stay alive, also
 *		those that take no part in the current command and have done it).
 *		Returns whether it completed the current command.
 */
static bool
ou_bench_check_worker(OuBenchRun *run, int i)
{
	OuBenchSlot *slot = &run->sh->slots[i];
	pid_t		pid;

	pg_read_barrier();
	if (slot->failed)
		ou_bench_rethrow(run, i);
	if (run->sh->cmd == OU_CMD_EXIT ||
		GetBackgroundWorkerPid(run->handles[i], &pid) != BGWH_STOPPED)
		return pg_atomic_read_u32(&slot->done_seq) == run->seq;

	/* gone before EXIT: it may still have reported an error on its way */
	pg_read_barrier();
	if (slot->failed)
		ou_bench_rethrow(run, i);
	if (slot->pid == 0)
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("benchmark worker %d exited before it connected to the database", i + 1),
				 errdetail("It was to connect as role \"%s\"; the server log says why it could not.",
						   GetUserNameFromId(run->sh->roleid, true)),
				 errcontext("%s, %s", run->fname, run->phase)));
	ereport(ERROR,
			(errcode(ERRCODE_OPERATOR_INTERVENTION),
			 errmsg("benchmark worker %d (PID %d) stopped unexpectedly", i + 1, slot->pid),
			 errdetail("It was terminated, or it crashed, without reporting an error."),
			 errcontext("%s, %s", run->fname, run->phase)));
	return false;				/* keep compiler quiet */
}

/*
 * ou_bench_wait
 *		Wait until the workers that take part in command seq (all, or only
 *		only_worker) have done it, reporting progress, calling the sampler,
 *		and raising the first error a worker reported, also one that takes
 *		no part.  Interrupts (cancel, statement_timeout) are processed: the
 *		benchmark's PG_CATCH then cleans up.
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
			bool		done = ou_bench_check_worker(run, i);

			if (!done && (only_worker < 0 || i == only_worker))
				all_done = false;
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
						 errmsg("%s: " INT64_FORMAT " of " INT64_FORMAT " rows, %.0f rows/s",
								run->phase, done, rows_total,
								secs > 0 ? done / secs : 0.0)));
				snprintf(activity, sizeof(activity), "%s: %s: " INT64_FORMAT " of " INT64_FORMAT " rows",
						 run->fname, run->phase, done, rows_total);
			}
			else
			{
				ereport(NOTICE,
						(errcode(ERRCODE_SUCCESSFUL_COMPLETION),
						 errmsg("%s: running for %.0f s",
								run->phase, (double) (now - started) / 1000000.0)));
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
 *		Copy a list of statements (from ou_bench_stmt) into the text area.
 *		The benchmark sized the area for its largest command, so running
 *		out of room is a bug.
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
			elog(ERROR, "benchmark statements need more than the %zu bytes reserved for them",
				 run->text_cap);
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
	ou_bench_command(run, OU_CMD_SQL);
	ou_bench_wait(run, 0, 0, NULL, NULL, 0);
}

/*
 * ou_bench_prepare
 *		Every worker prepares the statements (with one int8 parameter, the
 *		number of rows to insert, when with_count).  All statements must run
 *		under the same search_path.
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
 *		Worker 1 measures the B-tree index index_name of the run's schema.
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
 * ou_bench_set_distributed
 *		The run's tables are Citus distributed tables: from now on MEASURE
 *		adds up the shards of an index on the nodes, and each transaction
 *		of a RUN is a transaction block (bench_worker.c says why).
 */
void
ou_bench_set_distributed(OuBenchRun *run)
{
	run->sh->distributed = true;
}

/*
 * ou_bench_values
 *		Worker 1 runs query (from ou_bench_stmt, our own SQL), which must
 *		return one row whose first nvalues columns are int8, and returns
 *		them in values (NULL as 0).
 */
void
ou_bench_values(OuBenchRun *run, const char *query, int64 *values, int nvalues)
{
	Assert(nvalues >= 1 && nvalues <= OU_BENCH_MAX_VALUES);
	ou_bench_set_text(run, list_make1((char *) query));
	run->sh->nvalues = nvalues;
	ou_bench_command(run, OU_CMD_VALUES);
	ou_bench_wait(run, 0, 0, NULL, NULL, 0);
	memcpy(values, run->sh->slots[0].values, sizeof(int64) * nvalues);
}

/*
 * ou_bench_read
 *		Worker 1 measures a read statement (our own SQL, from ou_bench_stmt,
 *		with one int8 parameter, the key; its first column an int8 that is
 *		summed as rows): in one transaction it runs setup (SET LOCAL
 *		statements; may be empty), reads sample keys evenly spaced over 0 ..
 *		nkeys - 1 once to warm the cache, then reads them again, pass after
 *		pass, until min_ms have passed.  counters is a one-row query of int8
 *		columns (per-relation block counters, say) run before and after the
 *		measured passes; their growth is returned with the reads, rows,
 *		shared buffers used, time and the plan's scan node.
 */
OuBenchRead
ou_bench_read(OuBenchRun *run, const char *setup, const char *counters, const char *query,
			  int64 nkeys, int64 sample, int min_ms)
{
	Assert(nkeys >= 1 && sample >= 1 && sample <= nkeys);
	ou_bench_set_text(run, list_make3((char *) setup, (char *) counters, (char *) query));
	run->sh->read_keys = nkeys;
	run->sh->read_sample = sample;
	run->sh->read_ms = min_ms;
	ou_bench_command(run, OU_CMD_READ);
	ou_bench_wait(run, 0, 0, NULL, NULL, 0);
	return run->sh->slots[0].read;
}

/*
 * ou_bench_drop
 *		Worker 1 drops the tables, materialized views and sequences of the
 *		run's schema whose names start with prefix.
 */
void
ou_bench_drop(OuBenchRun *run, const char *prefix)
{
	ou_bench_set_text(run, list_make1((char *) prefix));
	run->sh->drop_schema = false;
	ou_bench_command(run, OU_CMD_DROP);
	ou_bench_wait(run, 0, 0, NULL, NULL, 0);
}

/*
 * ou_bench_cleanup_dead
 *		How many dead runs' schemas the first worker dropped when the run
 *		started.
 */
int64
ou_bench_cleanup_dead(OuBenchRun *run)
{
	return run->sh->slots[0].count;
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
 * ou_bench_terminate
 *		Tell the workers to give up, and terminate them.
 */
static void
ou_bench_terminate(OuBenchRun *run)
{
	int			i;

	pg_atomic_write_u32(&run->sh->abort, 1);
	ConditionVariableBroadcast(&run->sh->cv);
	for (i = 0; i < run->nworkers; i++)
		if (run->handles[i])
			TerminateBackgroundWorker(run->handles[i]);
}

/*
 * ou_bench_wait_stopped
 *		Wait, without processing interrupts and at most timeout_ms, until
 *		every worker of handles[0..n) (NULL entries skipped) has exited;
 *		returns whether they all did.  Used on the way out, also after an
 *		error, and by the clean-up launcher.
 */
bool
ou_bench_wait_stopped(BackgroundWorkerHandle **handles, int n, int timeout_ms)
{
	TimestampTz start = GetCurrentTimestamp();

	for (;;)
	{
		bool		all = true;
		int			i;

		for (i = 0; i < n; i++)
		{
			pid_t		pid;

			if (handles[i] &&
				GetBackgroundWorkerPid(handles[i], &pid) != BGWH_STOPPED)
				all = false;
		}
		if (all)
			return true;
		if (TimestampDifferenceExceeds(start, GetCurrentTimestamp(), timeout_ms))
			return false;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 20, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * ou_bench_release
 *		Forget the run: release the run lock, detach from the segment, free
 *		the leader's memory.
 */
static void
ou_bench_release(OuBenchRun *run)
{
	int			i;

	run->done = true;
	if (run->locked)
	{
		LockRelease(&run->tag, ExclusiveLock, true);
		run->locked = false;
	}
	if (run->seg)
	{
		dsm_segment *seg = run->seg;

		run->seg = NULL;
		dsm_detach(seg);
	}
	pgstat_report_activity(STATE_RUNNING, debug_query_string ? debug_query_string : "");
	for (i = 0; i < run->nworkers; i++)
		if (run->handles[i])
			pfree(run->handles[i]);
	pfree(run->handles);
	pfree(run);
}

/*
 * ou_bench_finish
 *		Normal end of a run: the first worker renames the run's schema to
 *		its kept name (keep) or drops it, then the workers exit, and the
 *		leader waits for them so that their worker slots are free again
 *		when the function returns.
 */
void
ou_bench_finish(OuBenchRun *run, bool keep)
{
	char	   *schema = pstrdup(run->sh->schema);

	if (schema[0] != '\0')
	{
		ou_bench_phase(run, keep ? "keeping the scratch schema" : "dropping the scratch schema");
		if (!keep)
		{
			ou_bench_set_text(run, list_make1(""));
			run->sh->drop_schema = true;
		}
		ou_bench_command(run, keep ? OU_CMD_KEEP : OU_CMD_DROP);
		ou_bench_wait(run, 0, 0, NULL, NULL, 0);
		if (!keep && run->sh->slots[0].count > 0)
			ereport(WARNING,
					(errcode(ERRCODE_WARNING),
					 errmsg("scratch schema \"%s\" was not dropped", schema),
					 errdetail("It holds objects that the benchmark did not create."),
					 errhint("Look at its contents, then DROP SCHEMA %s CASCADE.",
							 quote_identifier(schema))));
	}
	ou_bench_phase(run, "stopping workers");
	ou_bench_command(run, OU_CMD_EXIT);
	ou_bench_wait(run, -1, 0, NULL, NULL, 0);
	(void) ou_bench_wait_stopped(run->handles, run->nworkers, OU_STOP_WAIT_MS);
	ou_bench_release(run);
}

/*
 * ou_bench_abort
 *		End of a run after an error or cancel (call it in PG_CATCH before
 *		re-throwing): stop the workers, drop the run's schema (whatever keep
 *		said), wait for both, bounded.  Interrupts are held so that a second
 *		cancel cannot leave things half done.
 */
void
ou_bench_abort(OuBenchRun *run)
{
	if (run->done)
		return;
	HOLD_INTERRUPTS();
	ou_bench_terminate(run);
	(void) ou_bench_wait_stopped(run->handles, run->nworkers, OU_STOP_WAIT_MS);
	if (run->created)
		ou_bench_launch_cleanup(run->sh->dbid, run->sh->roleid, run->sh->schema,
								run->fname, true);
	RESUME_INTERRUPTS();
	ou_bench_release(run);
}

/*
 * ou_bench_on_detach
 *		The leader's segment goes away (transaction abort or process exit)
 *		without ou_bench_finish or ou_bench_abort having run: stop the
 *		workers and leave the dropping to a clean-up worker.  The run lock
 *		goes with the session.
 */
static void
ou_bench_on_detach(dsm_segment *seg, Datum arg)
{
	OuBenchRun *run = (OuBenchRun *) DatumGetPointer(arg);

	if (run->done)
		return;
	run->done = true;
	ou_bench_terminate(run);
	if (run->created)
		ou_bench_launch_cleanup(run->sh->dbid, run->sh->roleid, run->sh->schema,
								run->fname, false);
}

/*
 * ou_bench_checkpoint
 *		CHECKPOINT before a measured run so that full-page-image counts are
 *		comparable, when the caller may (superuser, or pg_checkpoint on PG
 *		15+); otherwise say so.
 */
void
ou_bench_checkpoint(void)
{
	if (OU_MAY_CHECKPOINT())
		RequestCheckpoint(CHECKPOINT_IMMEDIATE | CHECKPOINT_FORCE | CHECKPOINT_WAIT);
	else
		ereport(NOTICE,
				(errcode(ERRCODE_WARNING),
				 errmsg("no CHECKPOINT before the measured run, so full-page-image figures are not comparable"),
				 errhint("Run the benchmark as a superuser or a member of pg_checkpoint (PostgreSQL 15+).")));
}
