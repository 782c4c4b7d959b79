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
 * against them; each worker checks them again once it is connected).
 * Commands go through the channel (bench_channel.c); what each command
 * asks for and returns is in bench_command.c.  A worker's errors, warnings
 * and notices arrive through its message queue and are raised here with
 * every field, as a parallel worker's are in the leader of a parallel
 * query; the worker and the phase are added to their context.
 *
 * Runs start one after the other: the leader takes the cap lock
 * (bench_proc.c), checks the limits, registers its workers and keeps the
 * lock until they are connected, so that the next leader's count sees them
 * and the cap (ordered_uuid.bench_max_workers) holds for runs that start
 * together.
 *
 * The run's shared memory (bench_protocol.h) and who writes what when:
 * - The leader creates the DSM segment and fills OuBenchShared before it
 *   starts the workers.  It writes a command's parameters (OuBenchShared's
 *   command fields, the text area) only between commands: after every
 *   worker that took part in the previous one acknowledged it, before it
 *   publishes the next.  The channel's spinlock orders them before the
 *   workers' reads (bench_channel.c).
 * - Worker i writes its own slot alone, but for rows_done, an atomic that
 *   the leader zeroes before a RUN and reads at any time (progress).  pid
 *   and proc are written once, when the worker has connected, proc first
 *   with a write barrier between; running flags its RUN loop; the leader
 *   reads these at any time, after a read barrier.  Every other field holds
 *   a command's result, written before the worker acknowledges the command
 *   and read by the leader only after the acknowledgement (with a read
 *   barrier between: bench_channel.c).
 * - No lock protects the header or the slots: the protocol fixes who
 *   writes what when, and the barriers order the rest.
 * - Lifetime: the segment stays until the last of its processes detaches:
 *   the leader, at the end of the run (ou_bench_release) or of its
 *   transaction or session (ou_bench_on_detach, which then stops the
 *   workers), and each worker, when it exits.  A worker that finds the
 *   segment gone, or the run aborted, exits at once.
 *
 * The leader never runs SQL and never opens or locks a scratch relation,
 * so a worker dropping one can never wait for the leader.  It holds the
 * run lock (bench_protocol.h) from the start to the end of the run, so
 * that another run can tell a live run's schema from a dead one's.
 *
 * The workers are sessions of their own: a lock the caller's transaction
 * holds can make one wait for the leader while the leader waits for it, a
 * cycle the deadlock detector cannot see, also through other sessions (a
 * worker waits for a session that waits for the caller).  The leader looks
 * for it while it waits (ou_bench_check_deadlock) and raises a deadlock
 * error.
 *
 * Clean-up on error or cancel: ou_bench_abort() (called by the benchmark
 * in PG_CATCH) terminates the workers and detaches their message queues
 * (so that none stays blocked sending), then has a clean-up worker
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
#include "libpq/pqformat.h"
#include "libpq/pqmq.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/bgwriter.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "storage/shm_mq.h"
#include "storage/shm_toc.h"
#include "tcop/tcopprot.h"
#include "utils/array.h"
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

static void ou_bench_on_detach(dsm_segment *seg, Datum arg);

/*
 * ou_bench_create_segment
 *		The run's DSM segment: the shared header, the channel, the workers'
 *		message queues (this process their receiver), the caller's
 *		search_path and the text area.  Returns the run, in TopMemoryContext.
 */
static OuBenchRun *
ou_bench_create_segment(const char *fname, int nworkers, const char *caller_path,
						Size text_cap)
{
	Size		shared_size = add_size(offsetof(OuBenchShared, slots),
									   mul_size(sizeof(OuBenchSlot), nworkers));
	Size		queues_size = mul_size(OU_BENCH_QUEUE_SIZE, nworkers);
	shm_toc_estimator e;
	shm_toc    *toc;
	Size		segsize;
	OuBenchRun *run;
	char	   *path;
	char	   *queues;
	int			i;

	shm_toc_initialize_estimator(&e);
	shm_toc_estimate_chunk(&e, shared_size);
	shm_toc_estimate_chunk(&e, ou_chan_size(nworkers));
	shm_toc_estimate_chunk(&e, queues_size);
	shm_toc_estimate_chunk(&e, strlen(caller_path) + 1);
	shm_toc_estimate_chunk(&e, text_cap);
	shm_toc_estimate_keys(&e, 5);
	segsize = shm_toc_estimate(&e);

	run = MemoryContextAllocZero(TopMemoryContext, sizeof(OuBenchRun));
	run->handles = MemoryContextAllocZero(TopMemoryContext,
										  sizeof(BackgroundWorkerHandle *) * nworkers);
	run->queues = MemoryContextAllocZero(TopMemoryContext,
										 sizeof(shm_mq_handle *) * nworkers);
	run->msgcxt = AllocSetContextCreate(TopMemoryContext, "ordered_uuid bench messages",
										ALLOCSET_SMALL_SIZES);
	run->seg = dsm_create(segsize, 0);
	toc = shm_toc_create(OU_BENCH_MAGIC, dsm_segment_address(run->seg), segsize);
	run->sh = shm_toc_allocate(toc, shared_size);
	memset(run->sh, 0, shared_size);
	for (i = 0; i < nworkers; i++)
		pg_atomic_init_u64(&run->sh->slots[i].rows_done, 0);
	shm_toc_insert(toc, OU_BENCH_KEY_SHARED, run->sh);
	run->chan = shm_toc_allocate(toc, ou_chan_size(nworkers));
	ou_chan_init(run->chan, nworkers);
	shm_toc_insert(toc, OU_BENCH_KEY_CHAN, run->chan);
	queues = shm_toc_allocate(toc, queues_size);
	for (i = 0; i < nworkers; i++)
		shm_mq_set_receiver(shm_mq_create(queues + (Size) i * OU_BENCH_QUEUE_SIZE,
										  OU_BENCH_QUEUE_SIZE), MyProc);
	shm_toc_insert(toc, OU_BENCH_KEY_QUEUES, queues);
	path = shm_toc_allocate(toc, strlen(caller_path) + 1);
	strcpy(path, caller_path);
	shm_toc_insert(toc, OU_BENCH_KEY_PATH, path);
	run->text_cap = text_cap;
	run->text = shm_toc_allocate(toc, text_cap);
	shm_toc_insert(toc, OU_BENCH_KEY_TEXT, run->text);
	run->nworkers = nworkers;
	strlcpy(run->fname, fname, NAMEDATALEN);
	strlcpy(run->phase, "starting workers", sizeof(run->phase));
	run->phase_started = GetCurrentTimestamp();
	run->last_notice = run->phase_started;
	run->last_deadlock_check = run->phase_started;
	return run;
}

/*
 * ou_bench_launch
 *		Register the run's workers and attach to their message queues.
 */
static void
ou_bench_launch(OuBenchRun *run)
{
	char	   *queues = shm_toc_lookup(shm_toc_attach(OU_BENCH_MAGIC,
													   dsm_segment_address(run->seg)),
										OU_BENCH_KEY_QUEUES, false);
	int			i;

	for (i = 0; i < run->nworkers; i++)
	{
		BackgroundWorker w;
		MemoryContext oldcxt;
		bool		registered;

		ou_bench_init_bgworker(&w, "ou_bench_worker_main");
		snprintf(w.bgw_name, sizeof(w.bgw_name), "ordered_uuid %s worker %d for PID %d",
				 run->fname, i + 1, MyProcPid);
		w.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(run->seg));
		w.bgw_notify_pid = MyProcPid;
		memcpy(w.bgw_extra, &i, sizeof(int));
		oldcxt = MemoryContextSwitchTo(TopMemoryContext);
		registered = RegisterDynamicBackgroundWorker(&w, &run->handles[i]);
		if (registered)
			run->queues[i] = shm_mq_attach((shm_mq *) (queues + (Size) i * OU_BENCH_QUEUE_SIZE),
										   run->seg, run->handles[i]);
		MemoryContextSwitchTo(oldcxt);
		if (!registered)
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("not enough free background worker slots for %d clients", run->nworkers),
					 errdetail("The benchmark needs %d background workers, but only %d worker slots were free.",
							   run->nworkers, i),
					 errhint("Raise max_worker_processes (currently %d; this needs a restart), or use fewer clients.",
							 max_worker_processes)));
	}
}

/*
 * ou_bench_start
 *		Start a run: check the role and the limits, create the DSM segment,
 *		take the run lock, start nworkers workers connected as the calling
 *		role, and have the first one drop dead runs' schemas and create
 *		this run's schema.  Fails before anything is created when the role
 *		may not run it, the transaction is read-only, or the limits or the
 *		worker slots do not suffice.
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
	OuBenchShared *sh;
	OuBenchLimits limits;
	const char *extschema;
	const char *sp;
	char	   *caller_path;

	/*
	 * Workers are sessions of their own, running as the current user: not
	 * from inside a security-restricted operation (e.g. a maintenance
	 * command running the code of a table's owner).
	 */
	if (InSecurityRestrictedOperation())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("cannot run a benchmark inside a security-restricted operation")));
	/* the workers write, in transactions of their own */
	PreventCommandIfReadOnly(fname);
	PreventCommandDuringRecovery(fname);
	if (nworkers > max_worker_processes)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("benchmark needs %d background workers, but max_worker_processes is %d",
						nworkers, max_worker_processes),
				 errhint("Raise max_worker_processes (this needs a restart) or use fewer clients.")));

	/*
	 * Count and register under the cap lock, and hold it until the workers
	 * are connected, so that other runs' counts see them (bench_proc.c).
	 */
	if (!ou_bench_cap_lock(ou_bench_lock_timeout(),
						   psprintf("%s: waiting for other benchmark runs to start their workers", fname)))
		ereport(ERROR,
				(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
				 errmsg("could not start benchmark workers within %d ms", ou_bench_lock_timeout()),
				 errdetail("Other benchmark runs were starting their workers all the time. Runs start one after the other, so that together they stay within ordered_uuid.bench_max_workers."),
				 errhint("Try again, or raise ordered_uuid.bench_lock_timeout.")));
	PG_TRY();
	{
		limits = ou_bench_check_role(nworkers, schema != NULL);
	}
	PG_CATCH();
	{
		ou_bench_cap_unlock();
		PG_RE_THROW();
	}
	PG_END_TRY();

	extschema = get_namespace_name(get_func_namespace(fn_oid));
	sp = GetConfigOption("search_path", false, false);
	caller_path = psprintf("pg_catalog, %s%s%s", quote_identifier(extschema),
						   (sp && *sp) ? ", " : "", sp ? sp : "");

	/* Nothing below may fail before the run is protected by PG_TRY. */
	/* room for a kept schema's name too (ou_bench_finish) */
	run = ou_bench_create_segment(fname, nworkers, caller_path, Max(text_cap, NAMEDATALEN));
	sh = run->sh;
	sh->dbid = MyDatabaseId;
	sh->roleid = GetUserId();
	sh->leader = MyProc;
	sh->nworkers = nworkers;
	sh->nactive = nworkers;
	sh->run_id = run_id;
	sh->limits = limits;
	sh->lock_timeout_ms = ou_bench_lock_timeout();
	strlcpy(sh->client_min_messages, GetConfigOption("client_min_messages", false, false),
			sizeof(sh->client_min_messages));
	strlcpy(sh->fname, fname, NAMEDATALEN);
	strlcpy(sh->extschema, extschema, NAMEDATALEN);
	if (schema)
		strlcpy(sh->schema, schema, NAMEDATALEN);
	on_dsm_detach(run->seg, ou_bench_on_detach, PointerGetDatum(run));

	PG_TRY();
	{
		OU_SET_RUN_LOCKTAG(run->tag, MyDatabaseId, run_id);
		if (LockAcquire(&run->tag, ExclusiveLock, true, true) == LOCKACQUIRE_NOT_AVAIL)
			elog(ERROR, "benchmark run %s is already locked", schema ? schema : "");
		run->locked = true;
		ou_bench_launch(run);
		if (!ou_bench_wait_connected(run->handles, nworkers, sh->lock_timeout_ms))
			ereport(ERROR,
					(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
					 errmsg("benchmark workers did not connect in time"),
					 errdetail("A run's workers must be connected before other runs start theirs: the wait is bounded by ordered_uuid.bench_lock_timeout and 10 s."),
					 errhint("Look for sessions that hold locks on the catalogs (pg_locks), or raise ordered_uuid.bench_lock_timeout.")));
		ou_bench_cap_unlock();

		/* the first worker drops dead runs and creates the scratch schema */
		if (schema)
		{
			ou_bench_phase(run, "creating scratch schema %s", schema);
			run->created = true;
		}
		else
			ou_bench_phase(run, "dropping the scratch schemas of dead runs");
		ou_bench_send(run, OU_CMD_SETUP, 0, 0, NULL, NULL, 0);
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
 *		Set the phase shown in pg_stat_activity, in progress NOTICEs and in
 *		the context of the workers' messages.  It holds generator texts, so
 *		what does not fit is clipped on a character boundary.  The phase's
 *		progress NOTICEs count from here: the first comes OU_PROGRESS_MS
 *		after it began, and says how long it has been running.
 */
void
ou_bench_phase(OuBenchRun *run, const char *fmt,...)
{
	va_list		ap;
	char		activity[512];
	int			len;

	va_start(ap, fmt);
	vsnprintf(run->phase, sizeof(run->phase), fmt, ap);
	va_end(ap);
	len = strlen(run->phase);
	run->phase[pg_mbcliplen(run->phase, len, len)] = '\0';
	snprintf(activity, sizeof(activity), "%s: %s", run->fname, run->phase);
	pgstat_report_activity(STATE_RUNNING, activity);
	run->phase_started = GetCurrentTimestamp();
	run->last_notice = run->phase_started;
}

/*
 * ou_bench_relay
 *		Raise here a message worker i sent: an error (FATAL made ERROR), a
 *		warning or a notice, with every field it has (SQLSTATE, message,
 *		detail, hint, context, position, internal query), and the worker and
 *		the phase added to its context, as parallel.c does.  It is parsed in
 *		a context of its own, reset after each message (ThrowErrorData
 *		copies what it keeps), so that a notice per row costs no memory.
 */
static void
ou_bench_relay(OuBenchRun *run, int i, const char *data, Size nbytes)
{
	MemoryContext oldcxt = MemoryContextSwitchTo(run->msgcxt);
	StringInfoData msg;
	char		msgtype;

	initStringInfo(&msg);
	appendBinaryStringInfo(&msg, data, nbytes);
	msgtype = pq_getmsgbyte(&msg);
	if (msgtype == 'E' || msgtype == 'N')
	{
		ErrorData	edata;
		char	   *where = psprintf("%s worker %d, %s", run->fname, i + 1, run->phase);

		pq_parse_errornotice(&msg, &edata);
		edata.elevel = Min(edata.elevel, ERROR);
		edata.context = edata.context ? psprintf("%s\n%s", edata.context, where) : where;
		MemoryContextSwitchTo(oldcxt);
		ThrowErrorData(&edata);
	}
	/* anything else a worker's session may send is of no use here */
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(run->msgcxt);
}

/*
 * ou_bench_drain
 *		Relay every message the workers have sent so far.
 */
static void
ou_bench_drain(OuBenchRun *run)
{
	int			i;

	for (i = 0; i < run->nworkers; i++)
	{
		while (run->queues[i] != NULL)
		{
			Size		nbytes;
			void	   *data;
			shm_mq_result res = shm_mq_receive(run->queues[i], &nbytes, &data, true);

			if (res == SHM_MQ_WOULD_BLOCK)
				break;
			if (res == SHM_MQ_DETACHED)
			{
				shm_mq_detach(run->queues[i]);
				run->queues[i] = NULL;
				break;
			}
			ou_bench_relay(run, i, data, nbytes);
		}
	}
}

/*
 * ou_bench_progress
 *		A progress NOTICE and pg_stat_activity line, every OU_PROGRESS_MS
 *		of a phase (counted from its start, ou_bench_phase); the NOTICE
 *		only while ordered_uuid.bench_progress is on.
 */
static void
ou_bench_progress(OuBenchRun *run)
{
	OuBenchShared *sh = run->sh;
	TimestampTz now = GetCurrentTimestamp();
	char		activity[512];

	if (!TimestampDifferenceExceeds(run->last_notice, now, OU_PROGRESS_MS))
		return;
	if (run->wait_rows > 0)
	{
		int64		done = 0;
		double		secs = (double) (now - sh->go_time) / 1000000.0;
		int			i;

		for (i = 0; i < run->nworkers; i++)
			done += (int64) pg_atomic_read_u64(&sh->slots[i].rows_done);
		ereport(ou_bench_progress_on() ? NOTICE : DEBUG1,
				(errcode(ERRCODE_SUCCESSFUL_COMPLETION),
				 errmsg("%s: " INT64_FORMAT " of " INT64_FORMAT " rows, %.0f rows/s",
						run->phase, done, run->wait_rows,
						secs > 0 ? done / secs : 0.0)));
		snprintf(activity, sizeof(activity), "%s: %s: " INT64_FORMAT " of " INT64_FORMAT " rows",
				 run->fname, run->phase, done, run->wait_rows);
	}
	else
	{
		ereport(ou_bench_progress_on() ? NOTICE : DEBUG1,
				(errcode(ERRCODE_SUCCESSFUL_COMPLETION),
				 errmsg("%s: running for %.0f s",
						run->phase, (double) (now - run->phase_started) / 1000000.0)));
		snprintf(activity, sizeof(activity), "%s: %s", run->fname, run->phase);
	}
	pgstat_report_activity(STATE_RUNNING, activity);
	run->last_notice = now;
}

/*
 * ou_bench_check_deadlock
 *		At most every deadlock_timeout: raise a deadlock error if a worker
 *		waits for a lock that this session (the caller's transaction)
 *		holds, or for another session that (through others) waits for one.
 *		The leader waits for its workers, not for a lock, so the deadlock
 *		detector cannot see that cycle; pg_blocking_pids() can.
 */
static void
ou_bench_check_deadlock(OuBenchRun *run)
{
	TimestampTz now = GetCurrentTimestamp();
	int		   *skip;
	int			i;

	if (!TimestampDifferenceExceeds(run->last_deadlock_check, now, DeadlockTimeout))
		return;
	run->last_deadlock_check = now;
	/* the chains are not followed through this run's own workers */
	skip = palloc(sizeof(int) * Max(run->nworkers, 1));
	for (i = 0; i < run->nworkers; i++)
		skip[i] = run->sh->slots[i].pid;
	for (i = 0; i < run->nworkers; i++)
	{
		OuBenchSlot *slot = &run->sh->slots[i];
		int			pid = slot->pid;
		int			via;

		pg_read_barrier();
		/* only a worker waiting for a lock now is worth the lock table's scan */
		if (pid == 0 ||
			(((volatile PGPROC *) slot->proc)->wait_event_info & 0xFF000000) != PG_WAIT_LOCK)
			continue;
		if (!ou_lockwait_reaches_me(pid, skip, run->nworkers, &via))
			continue;
		if (via == pid)
			ereport(ERROR,
					(errcode(ERRCODE_T_R_DEADLOCK_DETECTED),
					 errmsg("deadlock detected"),
					 errdetail("Benchmark worker %d waits for a lock that this session holds, while this session waits for the worker.",
							   i + 1),
					 errhint("Run the benchmark outside a transaction that holds locks on what its generators use."),
					 errcontext("%s, %s", run->fname, run->phase)));
		ereport(ERROR,
				(errcode(ERRCODE_T_R_DEADLOCK_DETECTED),
				 errmsg("deadlock detected"),
				 errdetail("Benchmark worker %d waits for process %d, which waits for a lock that this session holds (directly or through other sessions), while this session waits for the worker.",
						   i + 1, via),
				 errhint("Run the benchmark outside a transaction that holds locks on what its generators use."),
				 errcontext("%s, %s", run->fname, run->phase)));
	}
	pfree(skip);
}

/*
 * ou_bench_poll
 *		One round of the leader's wait (OuChanPollFn): relay the workers'
 *		messages (raising a worker's error), sample, report progress, and
 *		check that no worker waits for the leader's own locks.
 */
static void
ou_bench_poll(void *arg)
{
	OuBenchRun *run = (OuBenchRun *) arg;

	ou_bench_drain(run);
	ou_bench_check_deadlock(run);
	if (run->wait_sample)
		run->wait_sample(run, run->wait_arg);
	ou_bench_progress(run);
}

/*
 * ou_bench_gone
 *		Worker i stopped while it was still needed, without an error
 *		(OuChanGoneFn; its messages were relayed first).
 */
static void
ou_bench_gone(void *arg, int i)
{
	OuBenchRun *run = (OuBenchRun *) arg;
	OuBenchSlot *slot = &run->sh->slots[i];

	pg_read_barrier();
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
}

/*
 * ou_bench_send
 *		Publish a command (its parameters are already in shared memory and
 *		the text area) and wait until the workers that take part in it (all,
 *		or only only_worker) have done it, reporting progress (rows_total:
 *		the rows a RUN inserts), calling the sampler every sample_ms, and
 *		raising the first error a worker reported, also one that takes no
 *		part.  Interrupts (cancel, statement_timeout) are processed: the
 *		benchmark's PG_CATCH then cleans up.
 */
void
ou_bench_send(OuBenchRun *run, OuBenchCmd cmd, int only_worker, int64 rows_total,
			  OuBenchSampleFn sample, void *sample_arg, int sample_ms)
{
	run->wait_rows = rows_total;
	run->wait_sample = sample;
	run->wait_arg = sample_arg;
	(void) ou_chan_publish(run->chan, (int) cmd);
	ou_chan_wait(run->chan, run->handles, only_worker, ou_bench_poll, ou_bench_gone,
				 run, sample ? sample_ms : 100);
	run->wait_sample = NULL;
}

/*
 * ou_bench_set_text
 *		Copy a list of statements (from ou_bench_stmt) into the text area.
 *		The benchmark sized the area for its largest command, so running
 *		out of room is a bug.
 */
void
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
 * ou_bench_terminate
 *		Tell the workers to give up, and terminate them.
 */
static void
ou_bench_terminate(OuBenchRun *run)
{
	int			i;

	ou_chan_abort(run->chan);
	for (i = 0; i < run->nworkers; i++)
		if (run->handles[i])
			TerminateBackgroundWorker(run->handles[i]);
}

/*
 * ou_bench_detach_queues
 *		Stop receiving the workers' messages.  A worker blocked sending one
 *		into a full queue (a long notice, or its FATAL message, sent with
 *		interrupts held) sees the queue detached and goes on, so that it
 *		can exit and release its locks; parallel.c detaches its workers'
 *		error queues before waiting for them for the same reason.
 */
static void
ou_bench_detach_queues(OuBenchRun *run)
{
	int			i;

	for (i = 0; i < run->nworkers; i++)
		if (run->queues[i])
		{
			shm_mq_detach(run->queues[i]);
			run->queues[i] = NULL;
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
	ou_bench_cap_unlock();
	if (run->locked)
	{
		LockRelease(&run->tag, ExclusiveLock, true);
		run->locked = false;
	}
	ou_bench_detach_queues(run);
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
	pfree(run->queues);
	MemoryContextDelete(run->msgcxt);
	pfree(run);
}

/*
 * ou_bench_finish
 *		Normal end of a run: the first worker renames the run's schema to
 *		kept (from ou_bench_new_schema) or, without kept, drops it, then the
 *		workers exit, and the leader waits for them so that their worker
 *		slots are free again when the function returns.
 */
void
ou_bench_finish(OuBenchRun *run, const char *kept)
{
	char	   *schema = pstrdup(run->sh->schema);

	if (schema[0] != '\0')
	{
		ou_bench_phase(run, kept ? "keeping the scratch schema" : "dropping the scratch schema");
		ou_bench_set_text(run, list_make1(kept ? pstrdup(kept) : ""));
		run->sh->drop_schema = !kept;
		ou_bench_send(run, kept ? OU_CMD_KEEP : OU_CMD_DROP, 0, 0, NULL, NULL, 0);
		/* a lock not had in time was warned of by the worker */
		if (!kept && run->sh->slots[0].count == OU_DROP_FOREIGN)
			ereport(WARNING,
					(errcode(ERRCODE_WARNING),
					 errmsg("scratch schema \"%s\" was not dropped", schema),
					 errdetail("It holds objects that the benchmark did not create."),
					 errhint("Look at its contents, then DROP SCHEMA %s CASCADE.",
							 quote_identifier(schema))));
	}
	ou_bench_phase(run, "stopping workers");
	ou_bench_send(run, OU_CMD_EXIT, -1, 0, NULL, NULL, 0);
	(void) ou_chan_wait_stopped(run->handles, run->nworkers, OU_STOP_WAIT_MS);
	ou_bench_release(run);
}

/*
 * ou_bench_abort
 *		End of a run after an error or cancel (call it in PG_CATCH before
 *		re-throwing): stop the workers, drop the run's schema (whatever keep
 *		said), wait for both, bounded.  Interrupts are held so that a second
 *		cancel cannot leave things half done.  What the workers still send
 *		is not relayed: their queues are detached first, so that none of
 *		them stays blocked sending, holding locks the clean-up would wait
 *		for.
 */
void
ou_bench_abort(OuBenchRun *run)
{
	if (run->done)
		return;
	HOLD_INTERRUPTS();
	ou_bench_terminate(run);
	ou_bench_detach_queues(run);
	(void) ou_chan_wait_stopped(run->handles, run->nworkers, OU_STOP_WAIT_MS);
	if (run->created)
		ou_bench_launch_cleanup(run->sh, true);
	ou_bench_cap_unlock();
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
		ou_bench_launch_cleanup(run->sh, false);
	ou_bench_cap_unlock();
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
		RequestCheckpoint(OU_CHECKPOINT_FAST | CHECKPOINT_FORCE | CHECKPOINT_WAIT);
	else
		ereport(NOTICE,
				(errcode(ERRCODE_WARNING),
				 errmsg("no CHECKPOINT before the measured run, so full-page-image figures are not comparable"),
				 errhint("Run the benchmark as a superuser or a member of pg_checkpoint (PostgreSQL 15+).")));
}
