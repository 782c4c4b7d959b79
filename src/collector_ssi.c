/*-------------------------------------------------------------------------
 *
 * collector_ssi.c
 *	  The collector's view of SERIALIZABLE transactions (scenario S5): its
 *	  shared state, the serialization failures (SQLSTATE 40001) of every
 *	  database, counted as the server logs them, and what the samples of the
 *	  predicate (SIREAD) locks keep per relation.
 *
 * Counting failures.  PostgreSQL has no counter of serialization failures.
 * Every error a backend reports passes through EmitErrorReport(), which
 * calls emit_log_hook for each message that goes to the server log; the
 * preloaded library installs one in every process (ou_ssi_install_hook,
 * from _PG_init) that counts the errors of SQLSTATE 40001 of its database:
 * "ssi" when the message is SSI's own ("could not serialize access due to
 * read/write dependencies among transactions", told apart by its
 * untranslated text, edata->message_id, or by its translation when an error
 * raised again from a copy has none), "other" for the rest of 40001
 * (concurrent update or delete under REPEATABLE READ or SERIALIZABLE,
 * recovery conflicts on a standby).  What it sees, and what it misses:
 * - an error a client gets is counted once, when it is logged, whether the
 *   client retries or not; an error raised in a parallel worker is counted
 *   by its leader, which raises it again (not in the worker, IsParallelWorker);
 * - an error caught inside the server without being logged is not:
 *   a PL/pgSQL EXCEPTION block that handles it, a C function's PG_CATCH;
 * - nothing is counted in a session whose log_min_messages is fatal or
 *   panic: such a message does not go to the log, and the hook is not called;
 * - no 40001 message of PostgreSQL 14 to 19 names a relation (SSI's
 *   failures come from a cycle of transactions, not from one relation), so
 *   there is no count per relation: the predicate locks below say where.
 * The hook runs inside error reporting, in any process, at any time: it
 * must not fail, and may hold LWLocks already (ours too).  So it takes no
 * lock: each database has a slot of atomics in a fixed array
 * (OU_SSI_DATABASES slots, probed from the database's OID; a slot is taken
 * once by a compare-and-exchange of its database OID and never given back
 * before shutdown); a database that finds no free slot counts into the
 * overflow counters, shown as a row of its own, never lost.
 *
 * Sampling predicate locks (the worker's part: collector_ssi_sample.c).
 * Every ordered_uuid.predicate_lock_interval ms (0: never) the worker copies
 * the predicate lock table with GetPredicateLockStatusData(), what pg_locks
 * shows of SIReadLocks.  It holds every predicate lock partition lock in
 * shared mode while it copies, which delays SERIALIZABLE transactions that
 * take a new predicate lock at that moment; so it is taken rarely (once a
 * second by default, and never more than 0.5 % of the time), its time is
 * measured (serialization_info()), and nothing else is done under it.
 * For each relation it keeps: the samples that saw a predicate lock on it,
 * its page locks as (page, process) pairs -- the committed transactions of
 * one session whose locks outlive them count once, so a page counts as
 * shared only when two or more sessions hold locks on it --, the pairs on
 * pages that two or more sessions held at once, the most sessions on one
 * page and which page (the latest sample's), and its relation and tuple
 * locks.  A page that the sessions of a workload share in most samples is
 * the page they all read and write: the last leaf page of an index on an
 * ascending key (S5).  The table is bounded like the others
 * (ordered_uuid.max_entries, the least recently used entries evicted:
 * collector_evict.c).
 *
 * Locking (the rules: collector_shmem.c).  The failure slots and the
 * overflow counters are atomics, written by any process with no lock, read
 * by anyone; a reset exchanges them with 0, so a failure counted at that
 * moment is either before or after it, never lost in between.  The
 * predicate lock table and the sampling totals in OuSsiShared are part of
 * the collector's shared state under its LWLock: the worker adds a sample
 * only while it holds the LWLock exclusively (collector_ssi_sample.c),
 * ordered_uuid_reset() clears them likewise (ou_ssi_clear), readers copy
 * them in shared mode (collector_ssi_views.c).
 *
 * This shared state is a struct of its own (OuSsiShared, its own shared
 * memory segment), apart from OuShared.  A clean shutdown saves it with the
 * collector's other tables, and the next start restores it
 * (collector_save.c, collector_restore.c): the predicate lock table as a
 * table of its own, and the failure counts of every slot that has any,
 * each put back into the slot its database finds then (ou_ssi_add_failures).
 * A slot whose counts a reset zeroed is not saved, so a restart after a
 * reset gives back the slots of databases that failed no more since.
 *
 * IDENTIFICATION
 *	  src/collector_ssi.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "miscadmin.h"
#include "storage/shmem.h"
#include "utils/elog.h"
#include "utils/timestamp.h"

#include "collector_defs.h"
#include "compat.h"

/* SSI's own failure, as PostgreSQL 14 to 19 word it (untranslated) */
#define OU_SSI_MESSAGE "could not serialize access due to read/write dependencies among transactions"

OuSsiShared *ou_ssi = NULL;
HTAB	   *ou_pred_htab = NULL;
int			ou_pred_interval = 1000;

static emit_log_hook_type ou_prev_emit_log_hook = NULL;

/* a key is hashed as bytes and built field by field: no padding in it */
StaticAssertDecl(sizeof(OuPredKey) == 2 * sizeof(Oid), "OuPredKey has padding");

/*
 * ou_ssi_shmem_size
 *		Bytes of OuSsiShared and the predicate lock table (part of the
 *		collector's request).
 */
Size
ou_ssi_shmem_size(int max_entries)
{
	return add_size(MAXALIGN(sizeof(OuSsiShared)),
					hash_estimate_size(max_entries, sizeof(OuPredEntry)));
}

/*
 * ou_ssi_shmem_init
 *		Create or attach to OuSsiShared and the predicate lock table, at
 *		startup.
 */
void
ou_ssi_shmem_init(int max_entries)
{
	HASHCTL		info;
	bool		found;
	int			i;

	Assert(LWLockHeldByMeInMode(AddinShmemInitLock, LW_EXCLUSIVE));
	ou_ssi = ShmemInitStruct("ordered_uuid serialization", sizeof(OuSsiShared), &found);
	if (!found)
	{
		memset(ou_ssi, 0, sizeof(OuSsiShared));
		for (i = 0; i < OU_SSI_DATABASES; i++)
		{
			pg_atomic_init_u32(&ou_ssi->dbs[i].dbid, InvalidOid);
			pg_atomic_init_u64(&ou_ssi->dbs[i].ssi, 0);
			pg_atomic_init_u64(&ou_ssi->dbs[i].other, 0);
			pg_atomic_init_u64(&ou_ssi->dbs[i].last, 0);
		}
		pg_atomic_init_u64(&ou_ssi->overflow.ssi, 0);
		pg_atomic_init_u64(&ou_ssi->overflow.other, 0);
		pg_atomic_init_u64(&ou_ssi->overflow.last, 0);
		pg_atomic_init_u32(&ou_ssi->overflow.dbid, InvalidOid);
	}
	memset(&info, 0, sizeof(info));
	info.keysize = sizeof(OuPredKey);
	info.entrysize = sizeof(OuPredEntry);
	ou_pred_htab = ou_shmem_init_hash("ordered_uuid predicate lock stats", max_entries,
									  &info, HASH_ELEM | HASH_BLOBS | HASH_FIXED_SIZE);
}

/*
 * ou_ssi_slot
 *		The failure slot of database dbid: found, or taken now; the overflow
 *		slot when every slot belongs to another database.  Lock-free.
 */
static OuSsiDb *
ou_ssi_slot(Oid dbid)
{
	uint32		start = (uint32) dbid % OU_SSI_DATABASES;
	uint32		i;

	for (i = 0; i < OU_SSI_DATABASES; i++)
	{
		OuSsiDb    *slot = &ou_ssi->dbs[(start + i) % OU_SSI_DATABASES];
		uint32		have = pg_atomic_read_u32(&slot->dbid);

		if (have == InvalidOid)
		{
			uint32		expected = InvalidOid;

			if (pg_atomic_compare_exchange_u32(&slot->dbid, &expected, dbid))
				return slot;
			have = expected;	/* another process took it meanwhile */
		}
		if (have == dbid)
			return slot;
	}
	return &ou_ssi->overflow;
}

/*
 * ou_ssi_is_rw_dependency
 *		Is this failure SSI's own?  By its untranslated text when the error
 *		has it, else by its text in the server's language: an error raised
 *		again from a copy (ThrowErrorData: a parallel worker's in its
 *		leader, a benchmark worker's) has no message_id.
 */
static bool
ou_ssi_is_rw_dependency(const ErrorData *edata)
{
	if (edata->message_id != NULL)
		return strcmp(edata->message_id, OU_SSI_MESSAGE) == 0;
	return edata->message != NULL && strcmp(edata->message, _(OU_SSI_MESSAGE)) == 0;
}

/*
 * ou_ssi_emit_log
 *		emit_log_hook: count a serialization failure that is being logged
 *		(see the top of the file), then call the previous hook.  Takes no
 *		lock and cannot fail.
 */
static void
ou_ssi_emit_log(ErrorData *edata)
{
	if (edata->sqlerrcode == ERRCODE_T_R_SERIALIZATION_FAILURE &&
		edata->elevel >= ERROR && edata->elevel <= FATAL &&
		ou_ssi != NULL && OidIsValid(MyDatabaseId) && !IsParallelWorker())
	{
		OuSsiDb    *slot = ou_ssi_slot(MyDatabaseId);

		if (ou_ssi_is_rw_dependency(edata))
			pg_atomic_fetch_add_u64(&slot->ssi, 1);
		else
			pg_atomic_fetch_add_u64(&slot->other, 1);
		pg_atomic_write_u64(&slot->last, (uint64) GetCurrentTimestamp());
	}
	if (ou_prev_emit_log_hook)
		ou_prev_emit_log_hook(edata);
}

/*
 * ou_ssi_install_hook
 *		From _PG_init, while shared_preload_libraries is processed: every
 *		process of the server inherits the hook.
 */
void
ou_ssi_install_hook(void)
{
	ou_prev_emit_log_hook = emit_log_hook;
	emit_log_hook = ou_ssi_emit_log;
}

/*
 * ou_pred_add_counts
 *		Add the predicate lock counts of entry from to into: summed, the
 *		most sessions on one page the larger; the hot page (when from has
 *		one) and the time last seen are from's when it is the later
 *		(a new sample, collector_ssi_sample.c; a saved entry of a key seen
 *		twice, collector_restore.c).
 */
void
ou_pred_add_counts(OuPredEntry *into, const OuPredEntry *from, bool later)
{
	into->samples += from->samples;
	into->page_locks += from->page_locks;
	into->shared_page_locks += from->shared_page_locks;
	into->relation_locks += from->relation_locks;
	into->tuple_locks += from->tuple_locks;
	if (from->max_sessions > into->max_sessions)
		into->max_sessions = from->max_sessions;
	if (later)
	{
		if (from->hot_page != InvalidBlockNumber)
			into->hot_page = from->hot_page;
		into->last_seen = from->last_seen;
	}
}

/*
 * ou_ssi_add_failures
 *		Add failure counts to database dbid's slot (InvalidOid: the overflow
 *		slot), its last failure the later of the two: a restore of the
 *		counts saved at the last clean shutdown (collector_restore.c).
 */
void
ou_ssi_add_failures(Oid dbid, uint64 ssi, uint64 other, TimestampTz last)
{
	OuSsiDb    *slot = OidIsValid(dbid) ? ou_ssi_slot(dbid) : &ou_ssi->overflow;

	pg_atomic_fetch_add_u64(&slot->ssi, ssi);
	pg_atomic_fetch_add_u64(&slot->other, other);
	if ((uint64) last > pg_atomic_read_u64(&slot->last))
		pg_atomic_write_u64(&slot->last, (uint64) last);
}

/*
 * ou_ssi_clear
 *		A reset: the failure counts to 0 (the slots keep their databases),
 *		the predicate lock table and the sampling counters emptied.
 */
void
ou_ssi_clear(void)
{
	int			i;

	Assert(OU_LOCKED_EXCLUSIVE());
	for (i = 0; i < OU_SSI_DATABASES; i++)
	{
		(void) pg_atomic_exchange_u64(&ou_ssi->dbs[i].ssi, 0);
		(void) pg_atomic_exchange_u64(&ou_ssi->dbs[i].other, 0);
		(void) pg_atomic_exchange_u64(&ou_ssi->dbs[i].last, 0);
	}
	(void) pg_atomic_exchange_u64(&ou_ssi->overflow.ssi, 0);
	(void) pg_atomic_exchange_u64(&ou_ssi->overflow.other, 0);
	(void) pg_atomic_exchange_u64(&ou_ssi->overflow.last, 0);
	(void) ou_table_remove_if(ou_pred_htab, NULL, NULL);
	memset(&ou_ssi->totals, 0, sizeof(OuPredTotals));
	memset(&ou_ssi->table, 0, sizeof(OuTableCounters));
}
