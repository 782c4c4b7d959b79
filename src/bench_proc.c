/*-------------------------------------------------------------------------
 *
 * bench_proc.c
 *	  The process and transaction plumbing under the benchmark engine: the
 *	  shape of its background workers, a worker's connection, transactions
 *	  and search_path, and the count of the benchmark workers running in
 *	  the cluster.  It calls nothing of the engine above it.
 *
 * Counting: PostgreSQL counts no background worker against a role's or a
 * database's connection limit, so the engine counts its own (bench_args.c).
 * A benchmark worker is a process whose background-worker type (the
 * bgw_type that pg_stat_activity shows as backend_type) is
 * OU_BENCH_WORKER_TYPE: its PGPROC is found in ProcGlobal->allProcs, its
 * type by GetBackgroundWorkerTypeByPid() (under BackgroundWorkerLock), and
 * BackendPidGetProc() (under ProcArrayLock) makes sure that the PGPROC is
 * that live process's.  All of these are public on PostgreSQL 14 to 18 and
 * need no shared memory of the library's own, so the count holds without
 * shared_preload_libraries.  A worker registered but not yet connected is
 * not seen, so the count and the registration of a run's workers are one
 * step: a leader takes the cap lock (below), counts, registers its workers
 * and holds the lock until they are connected (in the ProcArray, with their
 * role and database set), so that the next leader's count sees them.  The
 * clean-up worker is started the same way.  A worker also counts again once
 * it is connected, as a connecting backend does.
 *
 * The cap lock is a heavyweight lock of the library's own, taken at
 * session level and only conditionally (retried every 10 ms within a bound,
 * as lazy_truncate_heap retries its lock), so that no wait for it is
 * unbounded: an advisory lock tag in no database (field1 = InvalidOid) with
 * a field4 that the SQL advisory lock functions never use, so no role can
 * take or hold it.  It needs no shared memory of the library's, so it holds
 * without shared_preload_libraries on every supported version.
 *
 * IDENTIFICATION
 *	  src/bench_proc.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "storage/lock.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "bench_protocol.h"

/* field4 of the cap lock's advisory tag (the run lock's is OU_RUN_LOCK_FIELD4) */
#define OU_CAP_LOCK_FIELD4		0x6F76

/* longest the cap lock is held while workers connect, milliseconds */
#define OU_CAP_HOLD_MAX_MS		10000

/* whether this process holds the cap lock */
static bool ou_cap_held = false;

/* worker-local state */
static const char *ou_caller_path = NULL;
static char ou_current_path = '\0';
static OuChan *ou_worker_chan = NULL;
static const char *ou_caller_messages = NULL;

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
	snprintf(w->bgw_type, sizeof(w->bgw_type), "%s", OU_BENCH_WORKER_TYPE);
}

/*
 * ou_bench_count_workers
 *		Benchmark workers running now, other than this process: of role
 *		roleid and in database dbid (InvalidOid: any).
 */
int
ou_bench_count_workers(Oid roleid, Oid dbid)
{
	int			count = 0;
	uint32		i;

	pg_memory_barrier();
	for (i = 0; i < ProcGlobal->allProcCount; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];
		int			pid = proc->pid;
		const char *type;

		if (pid == 0 || pid == MyProcPid)
			continue;
		if ((OidIsValid(roleid) && proc->roleId != roleid) ||
			(OidIsValid(dbid) && proc->databaseId != dbid))
			continue;
		type = GetBackgroundWorkerTypeByPid(pid);
		if (type == NULL || strcmp(type, OU_BENCH_WORKER_TYPE) != 0)
			continue;
		if (BackendPidGetProc(pid) != proc)
			continue;
		count++;
	}
	return count;
}

/*
 * ou_bench_cap_locktag
 *		The cap lock's tag: server-wide, no SQL function can name it.
 */
static void
ou_bench_cap_locktag(LOCKTAG *tag)
{
	SET_LOCKTAG_ADVISORY(*tag, InvalidOid, 0, 0, OU_CAP_LOCK_FIELD4);
}

/*
 * ou_bench_cap_lock
 *		Take the cap lock (see the top of the file), trying every 10 ms for
 *		at most wait_ms (0: once); returns whether this process holds it.
 *		Interrupts are processed while it waits, unless held.  activity, if
 *		not NULL, is shown in pg_stat_activity meanwhile.
 */
bool
ou_bench_cap_lock(int wait_ms, const char *activity)
{
	LOCKTAG		tag;
	TimestampTz start = GetCurrentTimestamp();
	bool		reported = false;

	if (ou_cap_held)
		return true;
	ou_bench_cap_locktag(&tag);
	for (;;)
	{
		if (LockAcquire(&tag, ExclusiveLock, true, true) != LOCKACQUIRE_NOT_AVAIL)
		{
			ou_cap_held = true;
			return true;
		}
		if (wait_ms <= 0 || TimestampDifferenceExceeds(start, GetCurrentTimestamp(), wait_ms))
			return false;
		if (activity && !reported)
		{
			pgstat_report_activity(STATE_RUNNING, activity);
			reported = true;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * ou_bench_cap_unlock
 *		Release the cap lock, if this process holds it.
 */
void
ou_bench_cap_unlock(void)
{
	LOCKTAG		tag;

	if (!ou_cap_held)
		return;
	ou_bench_cap_locktag(&tag);
	LockRelease(&tag, ExclusiveLock, true);
	ou_cap_held = false;
}

/*
 * ou_bench_wait_connected
 *		Wait, at most timeout_ms and never more than OU_CAP_HOLD_MAX_MS
 *		(the cap lock is held meanwhile, and the caller's own setting must
 *		not let it keep other roles' runs waiting longer), until every
 *		worker of handles[0..n) (NULL entries skipped) has either stopped or
 *		connected far enough to be counted: in the ProcArray with its role
 *		and database set.  Returns whether they all did.  Interrupts are
 *		processed, unless held.
 */
bool
ou_bench_wait_connected(BackgroundWorkerHandle **handles, int n, int timeout_ms)
{
	TimestampTz start = GetCurrentTimestamp();

	timeout_ms = Min(timeout_ms, OU_CAP_HOLD_MAX_MS);

	for (;;)
	{
		bool		all = true;
		int			i;

		for (i = 0; i < n && all; i++)
		{
			pid_t		pid;
			PGPROC	   *proc;

			if (handles[i] == NULL)
				continue;
			switch (GetBackgroundWorkerPid(handles[i], &pid))
			{
				case BGWH_STOPPED:
				case BGWH_POSTMASTER_DIED:
					break;
				case BGWH_STARTED:
					proc = BackendPidGetProc(pid);
					if (proc == NULL || !OidIsValid(((volatile PGPROC *) proc)->roleId) ||
						!OidIsValid(((volatile PGPROC *) proc)->databaseId))
						all = false;
					break;
				case BGWH_NOT_YET_STARTED:
					all = false;
					break;
			}
		}
		if (all)
			return true;
		if (TimestampDifferenceExceeds(start, GetCurrentTimestamp(), timeout_ms))
			return false;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * ou_worker_connect
 *		Connect this worker (a benchmark's, or a clean-up worker) to database
 *		dbid as role roleid, the run's caller.  The database's and the role's
 *		settings (ALTER DATABASE / ALTER ROLE ... SET) apply to a background
 *		worker's session as to a client's, and a "role" among them (which the
 *		database owner may set) would make the worker act as that role, not
 *		as the caller: reset it, as SET ROLE NONE does, and make sure.
 */
void
ou_worker_connect(Oid dbid, Oid roleid)
{
	BackgroundWorkerInitializeConnectionByOid(dbid, roleid, 0);
	SetConfigOption("role", "none", PGC_USERSET, PGC_S_SESSION);
	if (GetUserId() != roleid)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
				 errmsg("benchmark worker cannot act as role \"%s\"",
						GetUserNameFromId(roleid, true)),
				 errdetail("The settings of the database or of the role make it role \"%s\".",
						   GetUserNameFromId(GetUserId(), true))));
}

/*
 * ou_worker_begin_xact / ou_worker_end_xact
 *		A transaction with SPI and a snapshot, as in worker_spi.
 */
void
ou_worker_begin_xact(void)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
}

void
ou_worker_end_xact(void)
{
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/*
 * ou_worker_set_run
 *		A benchmark worker's run: the caller's search_path and
 *		client_min_messages (for statements marked OU_PATH_CALLER) and the
 *		channel whose abort flag long commands check.
 */
void
ou_worker_set_run(const char *caller_path, const char *caller_messages, OuChan *chan)
{
	ou_caller_path = caller_path;
	ou_caller_messages = caller_messages;
	ou_worker_chan = chan;
}

/*
 * ou_worker_check_abort
 *		Fail if the leader gave up (called inside long commands).
 */
void
ou_worker_check_abort(void)
{
	if (ou_worker_chan && ou_chan_aborted(ou_worker_chan))
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("benchmark stopped by its leader")));
}

/*
 * ou_worker_use_path
 *		Set the search_path for statements marked with which
 *		(OU_PATH_SAFE or OU_PATH_CALLER), and which messages reach the
 *		leader: a statement with the caller's expressions sends what the
 *		caller's client_min_messages lets through; our own SQL sends only
 *		warnings and errors (not "does not exist, skipping").  Call it
 *		outside a transaction.
 */
void
ou_worker_use_path(char which)
{
	if (which != OU_PATH_SAFE && which != OU_PATH_CALLER)
		elog(ERROR, "benchmark statement has no search_path mark");
	if (which == OU_PATH_CALLER && ou_caller_path == NULL)
		elog(ERROR, "benchmark worker has no caller's search_path");
	if (which == ou_current_path)
		return;
	SetConfigOption("search_path",
					which == OU_PATH_CALLER ? ou_caller_path : OU_SAFE_SEARCH_PATH,
					PGC_USERSET, PGC_S_SESSION);
	SetConfigOption("client_min_messages",
					which == OU_PATH_CALLER && ou_caller_messages ? ou_caller_messages : "warning",
					PGC_USERSET, PGC_S_SESSION);
	ou_current_path = which;
}

/*
 * ou_worker_text
 *		The i-th statement of the text area (its mark first).
 */
const char *
ou_worker_text(const char *text, int i)
{
	while (i-- > 0)
		text += strlen(text) + 1;
	return text;
}
