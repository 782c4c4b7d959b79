/*-------------------------------------------------------------------------
 *
 * collector.c
 *	  The collector's settings, its static background worker and the
 *	  worker's sampling loop.
 *
 * Every ordered_uuid.sample_interval ms (ticks on a fixed schedule, so a slow
 * round does not make the interval drift) the worker samples every process
 * with ou_sample_all -- plain reads, nothing held -- and then, under the
 * collector's own LWLock only, adds the round to the shared tables (when
 * the LWLock is not free at once, the round waits in a local buffer, see
 * below):
 *   - the wait profile, keyed by (database, backend type, wait event), with
 *     wait event 0 standing for "running on CPU";
 *   - per relation, the relation extension lock waits: waiter-samples,
 *     distinct episodes (pid, waitStart) -- an episode is new when it was
 *     not seen in the previous round --, the most waiters in one round and
 *     the time of the last round that saw one;
 *   - when ordered_uuid.profile_queries or profile_pids is on, the same
 *     samples in the detailed profile, keyed also by role, query id and pid
 *     (a separate table, so that wait_profile stays complete when the
 *     detailed keys overflow theirs);
 *   - when ordered_uuid.history_size > 0, every sample in the history ring.
 * Each sample stands for the time since the previous round (at most ten
 * intervals, so a long stall of the worker does not inflate a wait; a worker
 * starved of CPU on a busy machine still estimates well); with an unloaded
 * worker that is the interval, so est_time = samples x interval.
 * Between rounds (every 100 ms, or every interval when that is longer, or at
 * once while behind) it follows the WAL for split counts (collector_wal.c),
 * in slices that end at the next sampling deadline, and in any case applies
 * its slot's bound at least every 100 ms.  The schedule follows
 * the wall clock; a clock set back never stalls it for more than an
 * interval.
 *
 * Locking (the rules: collector_shmem.c): sampling holds nothing of ours.
 * The worker takes the collector's LWLock only in ou_collector_merge, with
 * ou_lock_try_exclusive(), never waiting; the functions that add a round
 * Assert that it is held exclusively.  ticks, worker_pid and worker_started
 * are written under the spinlock mutex alone.  The rounds kept while the
 * LWLock is not free (ou_pending) and the previous round's episodes are
 * the worker's local memory.
 *
 * IDENTIFICATION
 *	  src/collector.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "collector_defs.h"
#include "compat.h"
#include "waitsample.h"

int			ou_sample_interval = 10;
int			ou_max_entries = 5000;
bool		ou_track_splits = true;
bool		ou_save_statistics = true;
bool		ou_profile_queries = false;
bool		ou_profile_pids = false;
int			ou_history_size = 0;

/* how often the worker reads new WAL when it is not behind */
#define OU_WAL_POLL_US	(100 * 1000)
/* how often the worker tries again for the LWLock while it keeps work */
#define OU_RETRY_MS		1
/* the most samples the worker keeps while the LWLock is not free */
#define OU_PENDING_SAMPLES	65536

/* one wait episode on an extension lock, remembered from round to round */
typedef struct OuEpisode
{
	int			pid;
	TimestampTz wait_start;
} OuEpisode;

/* a round kept until the LWLock is free: its samples, in ou_pending */
typedef struct OuPendingRound
{
	int			n;				/* samples of the round */
	int64		weight_us;		/* what each stands for */
	TimestampTz now;			/* the round's time */
	uint32		resets;			/* OuShared.resets when it was sampled */
} OuPendingRound;

/* the rounds not yet in the shared tables (the worker's local memory) */
static OuWaitSample *ou_pending = NULL;	/* OU_PENDING_SAMPLES samples */
static OuPendingRound *ou_pending_rounds = NULL;	/* as many rounds */
static int	ou_npending = 0;	/* samples kept */
static int	ou_npending_rounds = 0;
static uint64 ou_pending_dropped = 0;	/* samples of rounds left out */
static uint32 ou_pending_dropped_resets = 0;	/* OuShared.resets then */

/* the extension-lock episodes of the last round added, and room for the next */
static OuEpisode *ou_prev = NULL;
static OuEpisode *ou_cur = NULL;
static int	ou_nprev = 0;

/*
 * ou_check_max_wal_keep_size
 *		ordered_uuid.max_wal_keep_size is -1, 0 or a positive size: no other
 *		negative value means anything.
 */
static bool
ou_check_max_wal_keep_size(double *newval, void **extra, GucSource source)
{
	if (*newval >= 0 || *newval == -1)
		return true;
	GUC_check_errdetail("It must be -1 (no bound), 0 (no slot) or a positive size.");
	return false;
}

/*
 * ou_collector_define_gucs
 *		The collector's settings (only defined when preloaded).
 */
void
ou_collector_define_gucs(void)
{
	DefineCustomIntVariable("ordered_uuid.sample_interval",
							"Interval between two samples of every process's wait state.",
							NULL,
							&ou_sample_interval,
							10, 1, 60000,
							PGC_SIGHUP,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomIntVariable("ordered_uuid.max_entries",
							"Capacity of each of the collector's shared tables (wait profile, extension lock statistics, split counts, detailed wait profile).",
							"When a table is full, its least recently used entries are evicted to make room for a new key.",
							&ou_max_entries,
							5000, 1, 1000000,
							PGC_POSTMASTER,
							0,
							NULL, NULL, NULL);
	DefineCustomBoolVariable("ordered_uuid.track_splits",
							 "Follow the WAL to count B-tree page splits per index.",
							 NULL,
							 &ou_track_splits,
							 true,
							 PGC_SIGHUP,
							 0,
							 NULL, NULL, NULL);

	DefineCustomBoolVariable("ordered_uuid.save_statistics",
							 "Save the collector's statistics at a clean shutdown and restore them at the next start.",
							 "Off: nothing is saved, and a file saved before is removed at the next start.",
							 &ou_save_statistics,
							 true,
							 PGC_SIGHUP,
							 0,
							 NULL, NULL, NULL);

	/*
	 * A real number of MB, so that a size below 1MB ('512kB') is that size,
	 * not an integer rounded to 0, which means "no slot".
	 */
	DefineCustomRealVariable("ordered_uuid.max_wal_keep_size",
							 "Most WAL the collector's replication slot keeps for it while it is behind.",
							 "Beyond it a checkpoint may recycle WAL the collector has not read; it skips and counts it. -1 keeps without bound, 0 uses no slot.",
							 &ou_max_wal_keep_size,
							 1024, -1, MAX_KILOBYTES,
							 PGC_SIGHUP,
							 GUC_UNIT_MB,
							 ou_check_max_wal_keep_size, NULL, NULL);

	/*
	 * The detailed profile's dimensions and the history's size decide what
	 * shared memory exists and what a key means, so they are fixed at start:
	 * a key never mixes "with" and "without" a dimension.
	 */
	DefineCustomBoolVariable("ordered_uuid.profile_queries",
							 "Keep the detailed wait profile per query id (wait_profile_detail.queryid).",
							 "Query ids are core's (compute_query_id); with this on, compute_query_id = auto computes them.",
							 &ou_profile_queries,
							 false,
							 PGC_POSTMASTER,
							 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("ordered_uuid.profile_pids",
							 "Keep the detailed wait profile per process (wait_profile_detail.pid).",
							 NULL,
							 &ou_profile_pids,
							 false,
							 PGC_POSTMASTER,
							 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("ordered_uuid.history_size",
							"Number of recent samples kept in the wait history ring (0 = no history).",
							NULL,
							&ou_history_size,
							0, 0, 1000000,
							PGC_POSTMASTER,
							0,
							NULL, NULL, NULL);
	ou_mark_guc_prefix_reserved("ordered_uuid");
}

/*
 * ou_collector_enable_query_id
 *		With ordered_uuid.profile_queries on, ask core to compute query ids
 *		when compute_query_id = auto, as pg_stat_statements does (off still
 *		means off).
 */
void
ou_collector_enable_query_id(void)
{
	if (ou_profile_queries)
		EnableQueryId();
}

/*
 * ou_collector_register_worker
 *		Register the static worker; it is restarted one second after it dies.
 *		Not in binary-upgrade mode (pg_upgrade's servers, started with -b),
 *		where core does not register its logical replication launcher
 *		either: the postmaster would start the worker there too, and its
 *		replication slot in the new cluster would leave pg_upgrade (17 and
 *		later) none for the old cluster's logical slots.
 */
void
ou_collector_register_worker(void)
{
	BackgroundWorker worker;

	if (IsBinaryUpgrade)
		return;
	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker.bgw_restart_time = 1;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "ordered_uuid");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "ou_collector_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "ordered_uuid collector");
	snprintf(worker.bgw_type, BGW_MAXLEN, "ordered_uuid collector");
	worker.bgw_main_arg = (Datum) 0;
	worker.bgw_notify_pid = 0;
	RegisterBackgroundWorker(&worker);
}

/*
 * ou_episode_seen
 *		Was (pid, wait_start) among the previous round's episodes?
 */
static bool
ou_episode_seen(const OuEpisode *prev, int nprev, int pid, TimestampTz wait_start)
{
	int			i;

	for (i = 0; i < nprev; i++)
		if (prev[i].pid == pid && prev[i].wait_start == wait_start)
			return true;
	return false;
}

/*
 * ou_detail_add
 *		Count one sample in the detailed profile.
 */
static void
ou_detail_add(const OuWaitSample *s, int64 weight_us)
{
	OuDetailKey key;
	OuDetailEntry *de;
	bool		found;

	Assert(OU_LOCKED_EXCLUSIVE());
	memset(&key, 0, sizeof(key));
	key.dbid = s->dbid;
	key.backend_type = (int32) s->backend_type;
	key.wait_event_info = s->wait_event_info;
	key.roleid = s->roleid;
	if (ou_profile_pids)
		key.pid = s->pid;
	if (ou_profile_queries)
		key.queryid = s->queryid;
	de = ou_table_enter(ou_detail_htab, &key, offsetof(OuDetailEntry, last_used),
						&ou_shared->detail, &found);
	if (de == NULL)
	{
		ou_shared->detail.dropped++;
		return;
	}
	if (!found)
	{
		de->samples = 0;
		de->time_us = 0;
	}
	de->samples++;
	de->time_us += weight_us;
}

/*
 * ou_history_add
 *		Write one sample into the history ring, over the oldest one when it
 *		is full.
 */
static void
ou_history_add(const OuWaitSample *s, TimestampTz now)
{
	OuHistoryItem *h = &ou_history[ou_shared->history_written % (uint64) ou_history_size];

	Assert(OU_LOCKED_EXCLUSIVE());
	h->sample_time = now;
	h->queryid = s->queryid;
	h->pid = s->pid;
	h->dbid = s->dbid;
	h->roleid = s->roleid;
	h->backend_type = (int32) s->backend_type;
	h->wait_event_info = s->wait_event_info;
	ou_shared->history_written++;
}

/*
 * ou_collector_round
 *		Add one round of samples (s[0..n)) to the shared tables.  Fills
 *		cur[] with this round's extension-lock episodes and returns how
 *		many.
 */
static int
ou_collector_round(const OuWaitSample *s, int n, int64 weight_us, TimestampTz now,
				   const OuEpisode *prev, int nprev, OuEpisode *cur)
{
	int			ncur = 0;
	int			i,
				j;

	Assert(OU_LOCKED_EXCLUSIVE());
	for (i = 0; i < n; i++)
	{
		OuProfileKey key;
		OuProfileEntry *pe;
		bool		found;

		CHECK_FOR_INTERRUPTS();	/* held off under the LWLock: cheap no-op */
		memset(&key, 0, sizeof(key));
		key.dbid = s[i].dbid;
		key.backend_type = (int32) s[i].backend_type;
		key.wait_event_info = s[i].wait_event_info;
		pe = ou_table_enter(ou_profile_htab, &key, offsetof(OuProfileEntry, last_used),
							&ou_shared->profile, &found);
		if (pe == NULL)
			ou_shared->profile.dropped++;
		else
		{
			if (!found)
			{
				pe->samples = 0;
				pe->time_us = 0;
			}
			pe->samples++;
			pe->time_us += weight_us;
		}

		if (ou_detail_htab != NULL)
			ou_detail_add(&s[i], weight_us);
		if (ou_history != NULL)
			ou_history_add(&s[i], now);

		if (OidIsValid(s[i].extend_relid))
		{
			OuExtendKey ekey;
			OuExtendEntry *ee;
			int			waiters = 0;

			/* waiters on the same relation in this round */
			for (j = 0; j < n; j++)
				if (s[j].extend_relid == s[i].extend_relid &&
					s[j].extend_dbid == s[i].extend_dbid)
					waiters++;

			memset(&ekey, 0, sizeof(ekey));
			ekey.dbid = s[i].extend_dbid;
			ekey.relid = s[i].extend_relid;
			ee = ou_table_enter(ou_extend_htab, &ekey, offsetof(OuExtendEntry, last_used),
								&ou_shared->extend, &found);
			if (ee == NULL)
				ou_shared->extend.dropped++;
			else
			{
				if (!found)
				{
					ee->samples = 0;
					ee->waits = 0;
					ee->time_us = 0;
					ee->max_waiters = 0;
					ee->last_wait = 0;
				}
				ee->samples++;
				ee->time_us += weight_us;
				if (waiters > ee->max_waiters)
					ee->max_waiters = waiters;
				ee->last_wait = now;
				/* waitStart is 0 for a moment at first: count it later */
				if (s[i].wait_start != 0 &&
					!ou_episode_seen(prev, nprev, s[i].pid, s[i].wait_start))
					ee->waits++;
			}
			if (s[i].wait_start != 0)
			{
				cur[ncur].pid = s[i].pid;
				cur[ncur].wait_start = s[i].wait_start;
				ncur++;
			}
		}
	}
	return ncur;
}

/*
 * ou_collector_keep
 *		Count a round in OuShared.ticks and keep its samples that count
 *		(not idle clients) for ou_collector_merge; a round that does not
 *		fit is left out and its samples counted as dropped.
 */
static void
ou_collector_keep(const OuWaitSample *s, int n, int64 weight_us, TimestampTz now)
{
	uint32		resets = pg_atomic_read_u32(&ou_shared->resets);
	OuPendingRound *r;
	int			i,
				kept = 0;

	SpinLockAcquire(&ou_shared->mutex);
	ou_shared->ticks++;
	SpinLockRelease(&ou_shared->mutex);

	for (i = 0; i < n; i++)
		if (s[i].wait_event_info != 0 || s[i].active)
			kept++;				/* else an idle client between two messages */
	if (kept == 0)
		return;
	if (ou_npending + kept > OU_PENDING_SAMPLES)
	{
		if (ou_pending_dropped_resets != resets)
			ou_pending_dropped = 0;
		ou_pending_dropped_resets = resets;
		ou_pending_dropped += kept;
		return;
	}
	r = &ou_pending_rounds[ou_npending_rounds++];
	r->n = kept;
	r->weight_us = weight_us;
	r->now = now;
	r->resets = resets;
	for (i = 0; i < n; i++)
		if (s[i].wait_event_info != 0 || s[i].active)
			ou_pending[ou_npending++] = s[i];
}

/*
 * ou_collector_merge
 *		Add the rounds kept to the shared tables, in order, if the LWLock
 *		can be had now; returns false when rounds are still kept.  Rounds
 *		sampled before a reset that came since are dropped.
 */
static bool
ou_collector_merge(void)
{
	uint32		resets;
	const OuWaitSample *s = ou_pending;
	int			i;

	if (ou_npending_rounds == 0 && ou_pending_dropped == 0)
		return true;
	if (!ou_lock_try_exclusive())
		return false;
	resets = pg_atomic_read_u32(&ou_shared->resets);
	for (i = 0; i < ou_npending_rounds; i++)
	{
		const OuPendingRound *r = &ou_pending_rounds[i];

		if (r->resets == resets)
		{
			OuEpisode  *tmp = ou_prev;

			ou_nprev = ou_collector_round(s, r->n, r->weight_us, r->now,
										  ou_prev, ou_nprev, ou_cur);
			ou_prev = ou_cur;
			ou_cur = tmp;
		}
		s += r->n;
	}
	if (ou_pending_dropped > 0 && ou_pending_dropped_resets == resets)
	{
		ou_shared->profile.dropped += ou_pending_dropped;
		if (ou_detail_htab != NULL)
			ou_shared->detail.dropped += ou_pending_dropped;
	}
	LWLockRelease(ou_shared->lock);
	ou_npending = ou_npending_rounds = 0;
	ou_pending_dropped = 0;
	return true;
}

/*
 * ou_collector_exit
 *		At worker exit: there is no worker until the next one starts.
 */
static void
ou_collector_exit(int code, Datum arg)
{
	if (ou_shared == NULL)
		return;
	SpinLockAcquire(&ou_shared->mutex);
	if (ou_shared->worker_pid == MyProcPid)
		ou_shared->worker_pid = 0;
	SpinLockRelease(&ou_shared->mutex);
	pg_atomic_write_u32(&ou_shared->worker_wants_lock, 0);
}

/*
 * ou_collector_main
 *		Entry point of the collector's background worker.
 */
void
ou_collector_main(Datum main_arg)
{
	int			maxprocs;
	OuWaitSample *samples;
	TimestampTz next,
				last_round = 0,
				last_wal = 0;
	bool		wal_behind = false;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();

	/* no database: but a PGPROC in the proc array and a pg_stat_activity row */
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);

	if (ou_shared == NULL)
		elog(ERROR, "ordered_uuid shared memory is not initialised");

	maxprocs = ou_sample_max_procs();
	samples = palloc(sizeof(OuWaitSample) * maxprocs);
	ou_prev = palloc(sizeof(OuEpisode) * maxprocs);
	ou_cur = palloc(sizeof(OuEpisode) * maxprocs);
	ou_pending = palloc(sizeof(OuWaitSample) * OU_PENDING_SAMPLES);
	ou_pending_rounds = palloc(sizeof(OuPendingRound) * OU_PENDING_SAMPLES);

	before_shmem_exit(ou_collector_exit, (Datum) 0);
	SpinLockAcquire(&ou_shared->mutex);
	ou_shared->worker_pid = MyProcPid;
	ou_shared->worker_started = GetCurrentTimestamp();
	SpinLockRelease(&ou_shared->mutex);
	/* statistics restored at the start: still this timeline's? */
	ou_restore_check_timeline();

	next = GetCurrentTimestamp();
	for (;;)
	{
		TimestampTz now;
		int64		interval_us;
		long		sleep_ms;
		bool		kept;

		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			int			old_interval = ou_sample_interval;

			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			/* a new interval takes effect now, not after the old one */
			if (ou_sample_interval != old_interval)
				next = GetCurrentTimestamp() + (int64) ou_sample_interval * 1000;
			/* no slot wanted: drop it now, not at the next slice */
			if (ou_max_wal_keep_size == 0 && ou_track_splits)
				ou_retain_end(OU_RETAIN_OFF);
		}
		interval_us = (int64) ou_sample_interval * 1000;

		now = GetCurrentTimestamp();
		if (next > now + interval_us)
			next = now + interval_us;	/* the clock was set back */
		if (now >= next)
		{
			int			n = ou_sample_all(samples, maxprocs,
										  ou_profile_queries || ou_history_size > 0);
			int64		weight;

			/* a sample stands for the time since the previous round */
			weight = last_round == 0 ? interval_us : now - last_round;
			if (weight > 10 * interval_us)
				weight = 10 * interval_us;
			if (weight < 0)
				weight = 0;
			last_round = now;

			ou_collector_keep(samples, n, weight, now);

			next += interval_us;
			if (next <= now)
				next = now + interval_us;	/* fell behind: skip, don't catch up */
		}
		kept = !ou_collector_merge();

		/* follow the WAL every 100 ms, or at once when behind */
		if (ou_track_splits)
		{
			now = GetCurrentTimestamp();
			if (wal_behind || now - last_wal >= Max(OU_WAL_POLL_US, interval_us) ||
				now < last_wal)
			{
				wal_behind = ou_splits_follow(next);
				last_wal = now;
			}
			else
				ou_splits_keep_bound();
		}
		else
			ou_splits_follow_stop();

		/* while work waits for the LWLock, come back for it soon */
		now = GetCurrentTimestamp();
		sleep_ms = next > now ? (long) ((next - now + 999) / 1000) : 0;
		if ((kept || wal_behind) && sleep_ms > OU_RETRY_MS)
			sleep_ms = OU_RETRY_MS;
		/* the slot's bound is applied at least every OU_WAL_POLL_US */
		if (ou_track_splits && sleep_ms > OU_WAL_POLL_US / 1000)
			sleep_ms = OU_WAL_POLL_US / 1000;
		if (sleep_ms > 0)
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 sleep_ms, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}
