/*-------------------------------------------------------------------------
 *
 * collector_shmem.c
 *	  The collector's shared memory: its size, the request (shmem_request_hook
 *	  on 15+, _PG_init on 14), its initialisation from shmem_startup_hook,
 *	  and the LWLock that guards it.
 *
 * Note about locking issues (the rules of every collector_*.c file):
 *
 * - ou_shared->lock, an LWLock of our own tranche, protects the shared
 *   hash tables, the history ring, collector_walrel.c's totals and every
 *   field of OuShared that is not named below.  Entering, changing or removing an entry, writing the ring
 *   or a counter of OuShared needs it exclusively; reading needs it shared.
 *   Only the worker and ordered_uuid_reset() write.  Every function that
 *   writes Asserts that the lock is held exclusively (OU_LOCKED_EXCLUSIVE).
 * - The worker never waits for the lock: it tries ou_lock_try_exclusive()
 *   and, when that fails, keeps its work in local memory and tries again a
 *   millisecond later (collector.c, collector_wal.c), with
 *   worker_wants_lock set.  Readers enter through ou_lock_shared(), which
 *   first waits while worker_wants_lock is set, at most OU_READER_YIELD_MS:
 *   an LWLock lets a shared request pass a queued exclusive one, so readers
 *   one after another would keep the worker out.  Readers copy what they
 *   need and release the lock before they build rows.  ordered_uuid_reset()
 *   takes it exclusively and waits like any backend.
 * - mutex, a spinlock, protects worker_pid, worker_started, ticks and
 *   wal_retention: the worker writes them without the LWLock, so that they
 *   show while it cannot have it.  ordered_uuid_reset() zeroes ticks with
 *   both held.  A spinlock cannot be asserted held: each function takes it
 *   around the few instructions that touch these fields.
 * - Order: the LWLock, then mutex; never the reverse.  Nothing else is taken
 *   under mutex, and no other LWLock under ours.
 * - stats_restored, stats_saved_at, stats_saved_tli, stats_check_tli and
 *   stats_start_reason (where this start's statistics come from) are
 *   written by the restore in the postmaster before any other process
 *   exists (collector_restore.c), then only under the LWLock held
 *   exclusively: by ou_collector_clear() and the worker's timeline check.
 *   Only the worker writes stats_check_tli after startup, so it reads it
 *   without a lock.
 * - No lock: worker_wants_lock and resets are atomics (resets is bumped by
 *   a reset under the LWLock and read by the worker without it, to drop the
 *   rounds it kept from before).  lock and max_entries never change after
 *   startup.  Only the worker writes wal_reached and wal_retention, so it
 *   reads them without a lock (asserted: ou_am_collector_worker()).
 * - The history ring is copied without the lock, the count of samples
 *   written read (shared) before and after (collector_detail.c): a reader
 *   leaves out the slots overwritten meanwhile.
 * - What a reader sees: each copy it makes under one hold (a table, or
 *   collector_info()'s counters) is of one moment between two writers'
 *   holds, and a writer adds a whole round or slice in one hold;
 *   worker_pid, ticks and wal_retention are of a moment near it.
 *
 * Lifetime: everything is allocated once, in the main shared memory at
 * server start (under AddinShmemInitLock), and lives until shutdown: four
 * hash tables of ordered_uuid.max_entries entries each, never grown (the
 * wait profile, the extension lock statistics, the split counts, the WAL
 * per relation of collector_walrel.c), and two parts that only their
 * settings create (all PGC_POSTMASTER, since they size this memory): the
 * detailed wait profile, a fifth table (profile_queries or profile_pids
 * on), and the ring of history_size samples.  A new key finds room by
 * evicting the least recently used entries of a full table
 * (collector_evict.c).  A clean shutdown saves the tables to disk, and the
 * next start fills them from there before any other process runs
 * (collector_save.c, collector_restore.c).
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

#include "collector_defs.h"
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

	Assert(LWLockHeldByMeInMode(AddinShmemInitLock, LW_EXCLUSIVE));
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

	Assert(!LWLockHeldByMe(ou_shared->lock));
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
 *		false: the worker keeps its work and tries again soon.  The
 *		worker's alone: a reader that set worker_wants_lock would make
 *		every reader wait for nothing.
 */
bool
ou_lock_try_exclusive(void)
{
	Assert(!LWLockHeldByMe(ou_shared->lock));
	Assert(ou_am_collector_worker());
	if (!LWLockConditionalAcquire(ou_shared->lock, LW_EXCLUSIVE))
	{
		pg_atomic_write_u32(&ou_shared->worker_wants_lock, 1);
		return false;
	}
	pg_atomic_write_u32(&ou_shared->worker_wants_lock, 0);
	return true;
}

/*
 * ou_collector_clear
 *		Empty every table, the history and the counters that describe them,
 *		which begin again now (ordered_uuid_reset(), and restored statistics
 *		that cannot go on: collector_restore.c); reason becomes
 *		collector_info().stats_start_reason.  The rounds the worker still
 *		keeps for the tables are dropped (OuShared.resets).  The split counts
 *		begin where the WAL has been read.
 */
void
ou_collector_clear(const char *reason)
{
	Assert(OU_LOCKED_EXCLUSIVE());
	(void) ou_table_remove_if(ou_profile_htab, NULL, NULL);
	(void) ou_table_remove_if(ou_extend_htab, NULL, NULL);
	(void) ou_table_remove_if(ou_split_htab, NULL, NULL);
	ou_walrel_clear();
	if (ou_detail_htab != NULL)
		(void) ou_table_remove_if(ou_detail_htab, NULL, NULL);
	pg_atomic_fetch_add_u32(&ou_shared->resets, 1);
	SpinLockAcquire(&ou_shared->mutex);
	ou_shared->ticks = 0;
	SpinLockRelease(&ou_shared->mutex);
	memset(&ou_shared->profile, 0, sizeof(OuTableCounters));
	memset(&ou_shared->extend, 0, sizeof(OuTableCounters));
	memset(&ou_shared->split, 0, sizeof(OuTableCounters));
	memset(&ou_shared->detail, 0, sizeof(OuTableCounters));
	ou_shared->split_pruned = 0;
	ou_shared->history_written = 0;
	ou_shared->wal_start = ou_shared->wal_reached;
	ou_shared->wal_records = 0;
	ou_shared->wal_skipped_bytes = 0;
	ou_shared->stats_reset = GetCurrentTimestamp();
	ou_shared->stats_restored = false;
	ou_shared->stats_saved_at = 0;
	strlcpy(ou_shared->stats_start_reason, reason, OU_REASON_LEN);
}

/*
 * ou_am_collector_worker
 *		Whether this process is the collector's worker, for the Asserts of
 *		what only the worker may do.  Takes mutex: never call it with mutex
 *		held.
 */
bool
ou_am_collector_worker(void)
{
	bool		mine;

	SpinLockAcquire(&ou_shared->mutex);
	mine = ou_shared->worker_pid == MyProcPid;
	SpinLockRelease(&ou_shared->mutex);
	return mine;
}
