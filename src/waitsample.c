/*-------------------------------------------------------------------------
 *
 * waitsample.c
 *	  Sampling the wait state of server processes from shared memory, without
 *	  preload and without talking to them: used by the collector's worker and
 *	  by a benchmark leader watching its own workers.
 *
 * What one sample holds and how it is read:
 *   - pid, database, role and wait_event_info are plain reads of the
 *     process's PGPROC (as pg_stat_activity reads them: no lock).
 *   - backend_type, the state and the query id come from core's snapshot
 *     of the backend status array, the public interface pg_stat_activity
 *     reads (pgstat_fetch_stat_numbackends and the local entries), matched
 *     to PGPROCs by pid, taken in a round only when that round needs it
 *     (ou_sample_all); a process's backend type is remembered from one
 *     snapshot to the next.  A process without an entry is not sampled:
 *     processes that never connect (shared-memory-only workers) have none;
 *     nor is one whose latch its pid no longer owns (before PG 17 an exited
 *     process leaves its pid in its PGPROC).  ou_sample_proc alone (a
 *     benchmark's leader) reads PGPROC only.
 *   - "active" (on CPU) means: wait_event_info == 0, and the process is not
 *     a client backend whose status says idle (a client between two
 *     messages).  Code paths that block without reporting a wait event also
 *     count as active; that is the usual reading of "no wait event".
 *   - queryid is core's query id of the top-level statement (st_query_id
 *     of the snapshot, which core copies with the entry's change-count
 *     protocol), kept only while
 *     the process's state is active: between statements the status still
 *     holds the previous statement's id, which must not be charged with the
 *     client's think time.  0 when no id was computed (compute_query_id).
 *   - For a process waiting on a relation extension lock (Lock / extend),
 *     the relation is found race-free: read proc->waitLock (written only
 *     under its lock-manager partition lock, in exclusive mode), copy its
 *     tag, take that tag's partition lock in shared mode, re-check that the
 *     process still waits on that LOCK with that tag, read waitStart,
 *     release.  Never pg_locks, which
 *     takes every partition lock.
 *
 * IDENTIFICATION
 *	  src/waitsample.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pgstat.h"
#include "port/atomics.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "utils/backend_status.h"
#include "utils/memutils.h"

#include "compat.h"
#include "waitsample.h"

/* one process's backend status, from core's snapshot of them */
typedef struct OuStatus
{
	int			pid;
	BackendType backend_type;
	BackendState state;
	int64		queryid;
} OuStatus;

static int
ou_status_cmp(const void *a, const void *b)
{
	int			l = ((const OuStatus *) a)->pid;
	int			r = ((const OuStatus *) b)->pid;

	return l < r ? -1 : (l > r ? 1 : 0);
}

/*
 * ou_status_load
 *		Every live process's backend status, sorted by pid, into out (room
 *		for max), returning how many: core's local snapshot of its backend
 *		status array (what pg_stat_activity reads, built with the array's
 *		change-count protocol), copied and then discarded, so that the next
 *		call takes a new one.
 */
static int
ou_status_load(OuStatus *out, int max)
{
	int			nbe = pgstat_fetch_stat_numbackends();
	int			i,
				n = 0;

	for (i = 1; i <= nbe && n < max; i++)
	{
		LocalPgBackendStatus *lbe = ou_local_beentry(i);
		PgBackendStatus *be;

		if (lbe == NULL)
			continue;
		be = &lbe->backendStatus;
		if (be->st_procpid <= 0)
			continue;
		out[n].pid = be->st_procpid;
		out[n].backend_type = be->st_backendType;
		out[n].state = be->st_state;
		out[n].queryid = (int64) be->st_query_id;
		n++;
	}
	pgstat_clear_backend_activity_snapshot();
	qsort(out, n, sizeof(OuStatus), ou_status_cmp);
	return n;
}

/* the status of pid among st[0..n), sorted by pid, or NULL */
static const OuStatus *
ou_status_find(const OuStatus *st, int n, int pid)
{
	OuStatus	key;

	key.pid = pid;
	return bsearch(&key, st, n, sizeof(OuStatus), ou_status_cmp);
}

/*
 * ou_extend_lock_target
 *		For proc, seen waiting on Lock / extend: the relation whose extension
 *		lock it waits on, and when the wait began.  False if the wait ended
 *		(or changed) before it could be attributed.
 */
static bool
ou_extend_lock_target(PGPROC *proc, OuWaitSample *out)
{
	LOCK	   *lk;
	LOCKTAG		tag;
	uint32		hash;
	LWLock	   *partitionLock;
	bool		ok = false;

	lk = ((volatile PGPROC *) proc)->waitLock;
	if (lk == NULL)
		return false;			/* just woken up */
	memcpy(&tag, (void *) &((volatile LOCK *) lk)->tag, sizeof(LOCKTAG));
	if (tag.locktag_type != LOCKTAG_RELATION_EXTEND)
		return false;

	/* waitLock is written under the exclusive partition lock of its tag */
	hash = LockTagHashCode(&tag);
	partitionLock = LockHashPartitionLock(hash);
	LWLockAcquire(partitionLock, LW_SHARED);
	if (((volatile PGPROC *) proc)->waitLock == lk &&
		memcmp(&tag, (void *) &((volatile LOCK *) lk)->tag, sizeof(LOCKTAG)) == 0)
	{
		out->extend_dbid = tag.locktag_field1;
		out->extend_relid = tag.locktag_field2;
		out->wait_start = (TimestampTz) pg_atomic_read_u64(&proc->waitStart);
		ok = true;
	}
	LWLockRelease(partitionLock);
	return ok;
}

/*
 * ou_sample_proc
 *		Sample one process from its PGPROC alone: pid, database, role, wait
 *		event and, for a relation extension lock wait, the relation.  No
 *		backend type or query id (B_INVALID, 0); "active" means not waiting.
 *		Returns false (and leaves *out undefined) if the PGPROC is unused.
 */
bool
ou_sample_proc(PGPROC *proc, OuWaitSample *out)
{
	volatile PGPROC *vproc = proc;
	int			pid = vproc->pid;

	if (pid == 0)
		return false;

	memset(out, 0, sizeof(*out));
	out->pid = pid;
	out->procno = (int) (proc - ProcGlobal->allProcs);
	out->dbid = vproc->databaseId;
	out->roleid = vproc->roleId;
	out->wait_event_info = vproc->wait_event_info;
	out->backend_type = B_INVALID;
	out->extend_dbid = InvalidOid;
	out->extend_relid = InvalidOid;
	out->active = out->wait_event_info == 0;
	if (out->wait_event_info == OU_WAIT_EXTEND_LOCK)
		(void) ou_extend_lock_target(proc, out);
	return true;
}

/*
 * ou_sample_max_procs
 *		How many samples ou_sample_all may return at most.
 */
int
ou_sample_max_procs(void)
{
	return (int) ProcGlobal->allProcCount;
}

/*
 * What the last snapshot said of the process at each PGPROC (index: its
 * number in ProcGlobal->allProcs): its pid, whether it had a status entry,
 * and its backend type, which stays the same for the process's life.
 */
typedef struct OuProcMemo
{
	int			pid;			/* 0: nothing known */
	bool		has_status;
	uint8		no_status;		/* snapshots in a row without a status */
	BackendType backend_type;
} OuProcMemo;

static OuProcMemo *ou_memo = NULL;

/*
 * A process with no status entry is new (its entry comes once it has
 * connected) or never gets one (a background worker without a database
 * connection, like autoprewarm's leader).  Each of the next
 * OU_NEW_STATUS_SNAPSHOTS rounds takes a snapshot for it; after that, it
 * makes a round take one only every OU_STATUSLESS_RECHECK rounds.
 */
#define OU_NEW_STATUS_SNAPSHOTS	10
#define OU_STATUSLESS_RECHECK	100
static int	ou_rounds_without_snapshot = 0;

/*
 * ou_sample_procs
 *		ou_sample_proc of every process but the caller, into out[0..max);
 *		returns how many.  Sets *need when the memo cannot complete them
 *		(see ou_sample_all); leaves out a process that exited (its latch
 *		no longer owned by its pid: before 17 an exited process leaves its
 *		pid in its PGPROC) or that the memo knows to have no status.
 */
static int
ou_sample_procs(OuWaitSample *out, int max, bool want_queryid, bool *need)
{
	uint32		nprocs = ProcGlobal->allProcCount;
	uint32		i;
	int			n = 0;
	bool		statusless = false;

	*need = want_queryid;
	for (i = 0; i < nprocs && n < max; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];
		OuProcMemo *m = &ou_memo[i];
		OuWaitSample *s = &out[n];

		CHECK_FOR_INTERRUPTS();
		if (proc == MyProc || !ou_sample_proc(proc, s))
			continue;
		if (((volatile Latch *) &proc->procLatch)->owner_pid != s->pid)
			continue;			/* exited (or not started yet) */
		if (m->pid != s->pid)
			*need = true;		/* new here */
		else if (!m->has_status && m->no_status < OU_NEW_STATUS_SNAPSHOTS)
			*need = true;		/* new, and still without a status */
		else if (!m->has_status)
			statusless = true;	/* without a status for a while */
		else if (s->wait_event_info == 0 && m->backend_type == B_BACKEND)
			*need = true;		/* running, or idle between two messages? */
		n++;
	}
	if (statusless && ++ou_rounds_without_snapshot >= OU_STATUSLESS_RECHECK)
		*need = true;
	if (*need)
		ou_rounds_without_snapshot = 0;
	return n;
}

/*
 * ou_sample_all
 *		Sample every live process except the caller itself into out[0..max),
 *		returning how many were written: ou_sample_proc's plain reads of
 *		PGPROC (plus a partition lock taken briefly for each extension-lock
 *		waiter), completed with the backend type, the state and, when
 *		want_queryid, the query id from core's backend status snapshot
 *		(ou_status_load).  The snapshot costs a copy of every process's
 *		status, so it is taken only when needed: for query ids, for a new
 *		process, to tell a client backend on CPU from one idle between two
 *		messages, or for a process without a status (see
 *		OU_NEW_STATUS_SNAPSHOTS).  Otherwise the backend
 *		type comes from the memo of the last snapshot, and a process not
 *		waiting is on CPU.  No lock is held between processes, so callers
 *		do their hash work afterwards with nothing held.
 */
int
ou_sample_all(OuWaitSample *out, int max, bool want_queryid)
{
	uint32		nprocs = ProcGlobal->allProcCount;
	OuStatus   *status;
	int			nstatus,
				n,
				k,
				kept = 0;
	bool		need;

	if (ou_memo == NULL)
		ou_memo = MemoryContextAllocZero(TopMemoryContext, sizeof(OuProcMemo) * nprocs);
	n = ou_sample_procs(out, max, want_queryid, &need);
	if (!need)
	{
		for (k = 0; k < n; k++)
		{
			const OuProcMemo *m = &ou_memo[out[k].procno];

			if (!m->has_status)
				continue;		/* as in the last snapshot: not sampled */
			out[k].backend_type = m->backend_type;
			out[kept++] = out[k];
		}
		return kept;
	}

	status = palloc(sizeof(OuStatus) * nprocs);
	nstatus = ou_status_load(status, (int) nprocs);
	for (k = 0; k < n; k++)
	{
		OuWaitSample *s = &out[k];
		const OuStatus *st = ou_status_find(status, nstatus, s->pid);
		OuProcMemo *m = &ou_memo[s->procno];

		if (m->pid != s->pid || st != NULL)
			m->no_status = 0;
		else if (m->no_status < PG_UINT8_MAX)
			m->no_status++;
		m->pid = s->pid;
		m->has_status = st != NULL;
		m->backend_type = st != NULL ? st->backend_type : B_INVALID;
		/* no status: exited, or never connects; not sampled */
		if (st == NULL)
			continue;
		s->backend_type = st->backend_type;
		/* between statements the status keeps the previous statement's id */
		s->queryid = want_queryid && st->state == STATE_RUNNING ? st->queryid : 0;
		if (s->wait_event_info == 0)
			s->active = !(s->backend_type == B_BACKEND && st->state == STATE_IDLE);
		out[kept++] = *s;
	}
	pfree(status);
	return kept;
}
