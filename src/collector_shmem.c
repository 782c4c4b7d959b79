/*-------------------------------------------------------------------------
 *
 * collector_shmem.c
 *	  The collector's shared memory: its size, the request (shmem_request_hook
 *	  on 15+, _PG_init on 14), its initialisation from shmem_startup_hook,
 *	  and the LWLock that guards it.
 *
 * Four fixed-size shared hash tables (ordered_uuid.max_entries entries
 * each, allocated at startup, never grown): the wait profile, the extension
 * lock statistics, the split counts and the WAL per relation
 * (collector_walrel.c).  A new key finds room by evicting
 * the least recently used entries of a full table (collector_evict.c).  Two more parts exist only when their settings
 * (all PGC_POSTMASTER, since they size this memory) ask for them: the
 * detailed wait profile, a fourth table of max_entries entries
 * (ordered_uuid.profile_queries or profile_pids on), and the history ring of
 * ordered_uuid.history_size samples (OuShared.history_written counts the
 * samples written; the ring holds the last history_size of them).  Who
 * takes the LWLock in which mode, and the exceptions, is the Locking:
 * paragraph above OuShared in collector.h; ou_lock_shared() and
 * ou_lock_try_exclusive() are the two ways in, for readers and the worker.
 *
 * IDENTIFICATION
 *	  src/collector_shmem.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/shmem.h"

#include "collector.h"
#include "compat.h"

#define OU_TRANCHE "ordered_uuid"

OuShared   *ou_shared = NULL;
HTAB	   *ou_profile_htab = NULL;
HTAB	   *ou_extend_htab = NULL;
HTAB	   *ou_split_htab = NULL;
HTAB	   *ou_detail_htab = NULL;
OuHistoryItem *ou_history = NULL;

#ifdef OU_HAVE_SHMEM_REQUEST_HOOK
static shmem_request_hook_type ou_prev_shmem_request_hook = NULL;
#endif
static shmem_startup_hook_type ou_prev_shmem_startup_hook = NULL;

/*
 * ou_shmem_size
 *		Bytes needed for OuShared, the tables and the history ring.
 */
static Size
ou_shmem_size(void)
{
	Size		size = MAXALIGN(sizeof(OuShared));

	size = add_size(size, hash_estimate_size(ou_max_entries, sizeof(OuProfileEntry)));
	size = add_size(size, hash_estimate_size(ou_max_entries, sizeof(OuExtendEntry)));
	size = add_size(size, hash_estimate_size(ou_max_entries, sizeof(OuSplitEntry)));
	size = add_size(size, ou_walrel_shmem_size(ou_max_entries));
	if (OU_DETAIL_ON())
		size = add_size(size, hash_estimate_size(ou_max_entries, sizeof(OuDetailEntry)));
	if (ou_history_size > 0)
		size = add_size(size, MAXALIGN(mul_size(ou_history_size, sizeof(OuHistoryItem))));
	return size;
}

/*
 * ou_shmem_request
 *		Ask for our shared memory and our LWLock.
 */
static void
ou_shmem_request(void)
{
#ifdef OU_HAVE_SHMEM_REQUEST_HOOK
	if (ou_prev_shmem_request_hook)
		ou_prev_shmem_request_hook();
#endif
	RequestAddinShmemSpace(ou_shmem_size());
	RequestNamedLWLockTranche(OU_TRANCHE, 1);
}

/*
 * ou_init_table
 *		Create (or attach to) one fixed-size shared hash table.
 */
static HTAB *
ou_init_table(const char *name, Size keysize, Size entrysize)
{
	HASHCTL		info;

	memset(&info, 0, sizeof(info));
	info.keysize = keysize;
	info.entrysize = entrysize;
	return ou_shmem_init_hash(name, ou_max_entries, &info,
							  HASH_ELEM | HASH_BLOBS | HASH_FIXED_SIZE);
}

/*
 * ou_shmem_startup
 *		Create or attach to the shared state (postmaster, at every
 *		(re)initialisation of shared memory).
 */
static void
ou_shmem_startup(void)
{
	bool		found;

	if (ou_prev_shmem_startup_hook)
		ou_prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	ou_shared = ShmemInitStruct("ordered_uuid collector", sizeof(OuShared), &found);
	if (!found)
	{
		memset(ou_shared, 0, sizeof(OuShared));
		ou_shared->lock = &(GetNamedLWLockTranche(OU_TRANCHE))->lock;
		SpinLockInit(&ou_shared->mutex);
		pg_atomic_init_u32(&ou_shared->worker_wants_lock, 0);
		pg_atomic_init_u32(&ou_shared->resets, 0);
		ou_shared->max_entries = ou_max_entries;
		ou_shared->stats_reset = GetCurrentTimestamp();
	}
	ou_profile_htab = ou_init_table("ordered_uuid wait profile",
									sizeof(OuProfileKey), sizeof(OuProfileEntry));
	ou_extend_htab = ou_init_table("ordered_uuid extension lock stats",
								   sizeof(OuExtendKey), sizeof(OuExtendEntry));
	ou_split_htab = ou_init_table("ordered_uuid index split stats",
								  sizeof(OuRelFileLocator), sizeof(OuSplitEntry));
	ou_walrel_shmem_init(ou_max_entries);
	if (OU_DETAIL_ON())
		ou_detail_htab = ou_init_table("ordered_uuid detailed wait profile",
									   sizeof(OuDetailKey), sizeof(OuDetailEntry));
	if (ou_history_size > 0)
		ou_history = ShmemInitStruct("ordered_uuid wait history",
									 mul_size(ou_history_size, sizeof(OuHistoryItem)),
									 &found);
	LWLockRelease(AddinShmemInitLock);
}

/*
 * ou_shmem_install_hooks
 *		From _PG_init, while shared_preload_libraries is processed.
 */
void
ou_shmem_install_hooks(void)
{
#ifdef OU_HAVE_SHMEM_REQUEST_HOOK
	ou_prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = ou_shmem_request;
#else
	ou_shmem_request();
#endif
	ou_prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = ou_shmem_startup;
}

/*
 * ou_collector_check_loaded
 *		Error out unless the library was preloaded (the shared state exists).
 */
void
ou_collector_check_loaded(void)
{
	if (ou_shared == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the ordered_uuid collector is not running"),
				 errdetail("The collector's shared memory exists only when ordered_uuid is loaded at server start."),
				 errhint("Add ordered_uuid to shared_preload_libraries and restart the server.")));
}

/*
 * ou_collector_state
 *		What collector_info().state says: "running" while the worker runs,
 *		"recovery" while the server is a standby (or recovering: the worker
 *		starts when recovery ends), "stopped" between a worker's exit and
 *		its restart.
 */
const char *
ou_collector_state(int worker_pid)
{
	if (worker_pid != 0)
		return "running";
	if (RecoveryInProgress())
		return "recovery";
	return "stopped";
}

/*
 * ou_collector_notice_idle
 *		Before a collector view answers during recovery: a NOTICE saying
 *		why it is empty (the worker samples and follows the WAL only on a
 *		server that is not in recovery).
 */
void
ou_collector_notice_idle(void)
{
	if (RecoveryInProgress())
		ereport(NOTICE,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the ordered_uuid collector does not run during recovery"),
				 errdetail("The collector starts when the server is promoted or recovery ends; until then its views hold nothing sampled on this server."),
				 errhint("Query the primary, or see collector_info().state.")));
}

/*
 * ou_lock_shared
 *		A reader's way to the LWLock, in shared mode: while the worker says
 *		it wants the lock (it failed to take it), wait, a millisecond at a
 *		time, until it has had it, or OU_READER_YIELD_MS at most (it may be
 *		gone, or another reader may hold the lock for long); then take it.
 *		Readers hold it only to copy, so the worker gets in as soon as those
 *		inside are done.
 */
void
ou_lock_shared(void)
{
	int			waited;

	for (waited = 0; waited < OU_READER_YIELD_MS &&
		 pg_atomic_read_u32(&ou_shared->worker_wants_lock) != 0; waited++)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 1, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	LWLockAcquire(ou_shared->lock, LW_SHARED);
}

/*
 * ou_lock_try_exclusive
 *		The worker's way to the LWLock: take it exclusively if it is free
 *		now, never wait.  When it is not, say so to the readers
 *		(worker_wants_lock, cleared once the worker has had it) and return
 *		false: the worker keeps its work and tries again soon.
 */
bool
ou_lock_try_exclusive(void)
{
	if (!LWLockConditionalAcquire(ou_shared->lock, LW_EXCLUSIVE))
	{
		pg_atomic_write_u32(&ou_shared->worker_wants_lock, 1);
		return false;
	}
	pg_atomic_write_u32(&ou_shared->worker_wants_lock, 0);
	return true;
}
