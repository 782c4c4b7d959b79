/*-------------------------------------------------------------------------
 *
 * collector_ssi_sample.c
 *	  The collector worker's samples of the predicate (SIREAD) locks
 *	  (scenario S5; the shared state and what it means: collector_ssi.c):
 *	  when a sample is due, copy the predicate lock table, make of it the
 *	  per-relation counts of the sample, and add them to the shared table.
 *
 * The copy is GetPredicateLockStatusData(), what pg_locks shows of
 * SIReadLocks: it holds every predicate lock partition lock (shared) and
 * SerializableXactHashLock (shared) while it copies, and nothing else runs
 * under them.  A lock's session is the pid of its transaction
 * (SERIALIZABLEXACT.pid; 0 for the transactions PostgreSQL has summarized),
 * so that the locks which a session's committed transactions leave behind
 * count as that session's.
 *
 * Locking (the rules: collector_shmem.c): the counts of a sample are the
 * worker's own memory until they are added under the collector's LWLock,
 * taken exclusively with ou_lock_try_exclusive(), never waiting; a sample
 * that cannot be added at once waits (the next one is not taken meanwhile)
 * and is dropped if a reset came since.  The LWLock is never held while the
 * predicate locks are copied.
 *
 * IDENTIFICATION
 *	  src/collector_ssi_sample.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "portability/instr_time.h"
#include "storage/predicate_internals.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "collector_defs.h"

/*
 * The copy holds the predicate lock partitions for as long as it takes,
 * which grows with the lock table's size (max_pred_locks_per_transaction)
 * and the locks in it: 0.3 ms for the default table empty, 3 ms nearly
 * full, 48 ms for 50,000 locks in a table ten times the default (measured,
 * doc/collector.md).  So after a copy that took t, the next one waits at
 * least OU_PRED_DUTY x t: the locks are held at most 1/OU_PRED_DUTY of the
 * time, whatever the interval.
 */
#define OU_PRED_DUTY	200

/* the worker's sample not yet added to the shared table */
static MemoryContext ou_pred_cxt = NULL;
static OuPredEntry *ou_pred_pending = NULL;
static int	ou_pred_npending = 0;
static bool ou_pred_have_pending = false;
static OuPredTotals ou_pred_pending_totals;
static uint32 ou_pred_pending_resets = 0;
static TimestampTz ou_pred_next = 0;

/* one predicate lock of a sample, as the worker sorts them */
typedef struct OuPredLock
{
	Oid			dbid;
	Oid			relid;
	int32		kind;			/* PREDLOCKTAG_RELATION, _PAGE or _TUPLE */
	uint32		page;			/* page locks: the block */
	int32		pid;			/* of the transaction's process (0: summarized) */
} OuPredLock;

/*
 * ou_pred_lock_cmp
 *		qsort comparator: by database, relation, kind, page, pid.
 */
static int
ou_pred_lock_cmp(const void *a, const void *b)
{
	const OuPredLock *x = a;
	const OuPredLock *y = b;

	if (x->dbid != y->dbid)
		return x->dbid < y->dbid ? -1 : 1;
	if (x->relid != y->relid)
		return x->relid < y->relid ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->page != y->page)
		return x->page < y->page ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return 0;
}

/*
 * ou_pred_relation
 *		One relation's share of a sample: locks[0..n) are its locks, sorted;
 *		fills e (key and counts; samples = 1).
 */
static void
ou_pred_relation(const OuPredLock *locks, int n, OuPredEntry *e)
{
	int			i = 0;

	memset(e, 0, sizeof(*e));
	e->key.dbid = locks[0].dbid;
	e->key.relid = locks[0].relid;
	e->samples = 1;
	e->hot_page = InvalidBlockNumber;
	while (i < n)
	{
		int			j = i;
		int			sessions = 0;

		/* the locks of one page (or all relation or tuple locks) */
		while (j < n && locks[j].kind == locks[i].kind &&
			   (locks[i].kind != PREDLOCKTAG_PAGE || locks[j].page == locks[i].page))
		{
			if (j == i || locks[j].pid != locks[j - 1].pid)
				sessions++;
			j++;
		}
		if (locks[i].kind == PREDLOCKTAG_RELATION)
			e->relation_locks += j - i;
		else if (locks[i].kind == PREDLOCKTAG_TUPLE)
			e->tuple_locks += j - i;
		else
		{
			e->page_locks += sessions;
			if (sessions >= 2)
				e->shared_page_locks += sessions;
			if (sessions > e->max_sessions)
			{
				e->max_sessions = sessions;
				e->hot_page = locks[i].page;
			}
		}
		i = j;
	}
}

/*
 * ou_pred_sample
 *		Copy the predicate lock table (the only moment its locks are held)
 *		and make of it the per-relation counts of one sample, kept in the
 *		worker's memory until ou_pred_merge adds them.
 */
static void
ou_pred_sample(TimestampTz now)
{
	MemoryContext oldcxt;
	PredicateLockData *data;
	OuPredLock *locks;
	instr_time	start,
				took;
	int			n = 0,
				nrel = 0,
				i;

	MemoryContextReset(ou_pred_cxt);
	oldcxt = MemoryContextSwitchTo(ou_pred_cxt);
	INSTR_TIME_SET_CURRENT(start);
	data = GetPredicateLockStatusData();
	INSTR_TIME_SET_CURRENT(took);
	INSTR_TIME_SUBTRACT(took, start);

	locks = palloc(sizeof(OuPredLock) * Max(data->nelements, 1));
	for (i = 0; i < data->nelements; i++)
	{
		const PREDICATELOCKTARGETTAG *tag = &data->locktags[i];

		CHECK_FOR_INTERRUPTS();
		locks[n].dbid = GET_PREDICATELOCKTARGETTAG_DB(*tag);
		locks[n].relid = GET_PREDICATELOCKTARGETTAG_RELATION(*tag);
		locks[n].kind = (int32) GET_PREDICATELOCKTARGETTAG_TYPE(*tag);
		locks[n].page = locks[n].kind == PREDLOCKTAG_RELATION ? 0 :
			GET_PREDICATELOCKTARGETTAG_PAGE(*tag);
		locks[n].pid = data->xacts[i].pid;
		n++;
	}
	qsort(locks, n, sizeof(OuPredLock), ou_pred_lock_cmp);

	/* one entry per relation */
	ou_pred_pending = palloc(sizeof(OuPredEntry) * Max(n, 1));
	for (i = 0; i < n;)
	{
		int			j = i;

		while (j < n && locks[j].dbid == locks[i].dbid && locks[j].relid == locks[i].relid)
			j++;
		ou_pred_relation(locks + i, j - i, &ou_pred_pending[nrel]);
		ou_pred_pending[nrel].last_seen = now;
		nrel++;
		i = j;
	}
	ou_pred_npending = nrel;
	memset(&ou_pred_pending_totals, 0, sizeof(ou_pred_pending_totals));
	ou_pred_pending_totals.samples = 1;
	ou_pred_pending_totals.locks = (uint64) n;
	ou_pred_pending_totals.sample_us = INSTR_TIME_GET_MICROSEC(took);
	ou_pred_pending_totals.max_sample_us = ou_pred_pending_totals.sample_us;
	ou_pred_pending_totals.last_sample = now;
	ou_pred_pending_resets = pg_atomic_read_u32(&ou_shared->resets);
	ou_pred_have_pending = true;
	MemoryContextSwitchTo(oldcxt);
}

/*
 * ou_pred_add
 *		Add one relation's counts of a sample to its shared entry.
 */
static void
ou_pred_add(const OuPredEntry *s)
{
	OuPredEntry *e;
	bool		found;

	Assert(OU_LOCKED_EXCLUSIVE());
	e = ou_table_enter(ou_pred_htab, &s->key, offsetof(OuPredEntry, last_used),
					   &ou_ssi->table, &found);
	if (e == NULL)
	{
		ou_ssi->table.dropped++;
		return;
	}
	if (!found)
	{
		uint64		used = e->last_used;

		memcpy(e, s, sizeof(OuPredEntry));
		e->last_used = used;
		return;
	}
	ou_pred_add_counts(e, s, true);
}

/*
 * ou_pred_merge
 *		Add the sample kept to the shared table if the LWLock can be had
 *		now; returns false while it is still kept.  A sample taken before a
 *		reset that came since is dropped.
 */
static bool
ou_pred_merge(void)
{
	OuPredTotals *t = &ou_ssi->totals;
	int			i;

	if (!ou_pred_have_pending)
		return true;
	if (!ou_lock_try_exclusive())
		return false;
	if (ou_pred_pending_resets == pg_atomic_read_u32(&ou_shared->resets))
	{
		for (i = 0; i < ou_pred_npending; i++)
			ou_pred_add(&ou_pred_pending[i]);
		t->samples += ou_pred_pending_totals.samples;
		t->locks += ou_pred_pending_totals.locks;
		t->sample_us += ou_pred_pending_totals.sample_us;
		t->max_sample_us = Max(t->max_sample_us, ou_pred_pending_totals.max_sample_us);
		t->last_sample = ou_pred_pending_totals.last_sample;
	}
	LWLockRelease(ou_shared->lock);
	ou_pred_have_pending = false;
	ou_pred_npending = 0;
	return true;
}

/*
 * ou_pred_work
 *		The worker's turn at the predicate locks, between its sampling
 *		rounds: add the sample kept, if any; else take a sample when one is
 *		due (ordered_uuid.predicate_lock_interval, 0 = never, and at least
 *		OU_PRED_DUTY times the last copy's time after it) and add it.
 *		Returns false while a sample waits for the LWLock.  *next_due gets
 *		when the next sample is due (0: none).
 */
bool
ou_pred_work(TimestampTz now, TimestampTz *next_due)
{
	int64		interval_us = (int64) ou_pred_interval * 1000;

	*next_due = 0;
	if (ou_pred_cxt == NULL)
		ou_pred_cxt = AllocSetContextCreate(TopMemoryContext, "ordered_uuid predicate locks",
											ALLOCSET_DEFAULT_SIZES);
	if (ou_pred_have_pending)
		return ou_pred_merge();
	if (interval_us <= 0)
	{
		ou_pred_next = 0;
		return true;
	}
	/* the first sample an interval after the start, and a clock set back */
	if (ou_pred_next == 0 || ou_pred_next > now + interval_us)
		ou_pred_next = now + interval_us;
	if (now >= ou_pred_next)
	{
		ou_pred_sample(now);
		ou_pred_next += interval_us;
		if (ou_pred_next <= now)
			ou_pred_next = now + interval_us;	/* fell behind: skip */
		/* a long copy puts the next one off (OU_PRED_DUTY) */
		ou_pred_next = Max(ou_pred_next, now + OU_PRED_DUTY * ou_pred_pending_totals.sample_us);
		if (!ou_pred_merge())
			return false;
	}
	*next_due = ou_pred_next;
	return true;
}
