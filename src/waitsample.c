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
 *   - backend_type comes from the process's slot of the shared backend
 *     status array (located once through the shared memory index), checked
 *     against the pid.  A process without a matching slot is not sampled:
 *     before PG 17 an exited process leaves its pid in its PGPROC, and
 *     processes that never connect (shared-memory-only workers) have none.
 *   - "active" (on CPU) means: wait_event_info == 0, and the process is not
 *     a client backend whose status says idle (a client between two
 *     messages).  Code paths that block without reporting a wait event also
 *     count as active; that is the usual reading of "no wait event".
 *   - queryid is core's query id of the top-level statement (st_query_id,
 *     read with the status entry's change-count protocol), kept only while
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

#include "port/atomics.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

#include "compat.h"
#include "waitsample.h"

/* the shared backend status array, once found */
static PgBackendStatus *ou_status_array = NULL;

/*
 * ou_backend_status_array
 *		The server's shared PgBackendStatus array.  backend_status.c keeps
 *		its pointer static, but the array is registered in the shared memory
 *		index under a fixed name and size, so ShmemInitStruct finds it.
 */
static PgBackendStatus *
ou_backend_status_array(void)
{
	if (ou_status_array == NULL)
	{
		bool		found;
		Size		size = mul_size(sizeof(PgBackendStatus), OU_NUM_BACKEND_STAT_SLOTS);
		void	   *p = ShmemInitStruct("Backend Status Array", size, &found);

		if (!found)
			elog(ERROR, "backend status array not found in shared memory");
		ou_status_array = (PgBackendStatus *) p;
	}
	return ou_status_array;
}

/*
 * ou_status_for
 *		The backend status slot of proc (whose pid is pid), or NULL.  The
 *		slot's pid is compared with pid, so a slot being reused is ignored.
 */
static volatile PgBackendStatus *
ou_status_for(PGPROC *proc, int pid)
{
	PgBackendStatus *arr = ou_backend_status_array();
	int			nslots = OU_NUM_BACKEND_STAT_SLOTS;
	int			slot = ou_proc_status_slot(proc);
	int			i;

	if (slot >= 0 && slot < nslots)
	{
		volatile PgBackendStatus *st = &arr[slot];

		if (st->st_procpid == pid)
			return st;
	}
	/* auxiliary processes (before 17): their slots follow MaxBackends */
	for (i = MaxBackends; i < nslots; i++)
	{
		volatile PgBackendStatus *st = &arr[i];

		if (st->st_procpid == pid)
			return st;
	}
	return NULL;
}

/*
 * ou_status_query_id
 *		The query id of the statement st's process is running, or 0 (not
 *		running a statement, no id computed, or the entry kept changing).
 */
static int64
ou_status_query_id(volatile PgBackendStatus *st)
{
	int			tries;

	for (tries = 0; tries < 3; tries++)
	{
		int			before,
					after;
		BackendState state;
		int64		queryid;

		pgstat_begin_read_activity(st, before);
		state = st->st_state;
		queryid = (int64) st->st_query_id;
		pgstat_end_read_activity(st, after);
		if (pgstat_read_activity_complete(before, after))
			return state == STATE_RUNNING ? queryid : 0;
	}
	return 0;
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
 *		Sample one process.  Returns false (and leaves *out undefined) if the
 *		PGPROC is unused, a prepared transaction, or has no backend status.
 */
bool
ou_sample_proc(PGPROC *proc, OuWaitSample *out)
{
	volatile PGPROC *vproc = proc;
	volatile PgBackendStatus *st;
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

	/*
	 * Before 17 an exited process leaves its pid in PGPROC; its status slot
	 * is cleared, so a process without a matching slot is not sampled.
	 */
	st = ou_status_for(proc, pid);
	if (st == NULL)
		return false;
	out->backend_type = st->st_backendType;
	out->queryid = ou_status_query_id(st);

	if (out->wait_event_info == 0)
		out->active = !(out->backend_type == B_BACKEND &&
						st->st_state == STATE_IDLE);
	else if (out->wait_event_info == OU_WAIT_EXTEND_LOCK)
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
 * ou_sample_all
 *		Sample every live process except the caller itself into out[0..max),
 *		returning how many were written.  Only plain reads of PGPROC (plus a
 *		partition lock taken briefly for each extension-lock waiter): no lock
 *		is held between processes, so callers do their hash work afterwards
 *		with nothing held.
 */
int
ou_sample_all(OuWaitSample *out, int max)
{
	uint32		nprocs = ProcGlobal->allProcCount;
	uint32		i;
	int			n = 0;

	for (i = 0; i < nprocs && n < max; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];

		CHECK_FOR_INTERRUPTS();
		if (proc == MyProc)
			continue;
		if (ou_sample_proc(proc, &out[n]))
			n++;
	}
	return n;
}
