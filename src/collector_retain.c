/*-------------------------------------------------------------------------
 *
 * collector_retain.c
 *	  The replication slot with which the collector's worker keeps the WAL it
 *	  has not read yet, so that a checkpoint does not recycle it first.
 *
 * While it follows the WAL, the worker owns an ephemeral physical slot,
 * ordered_uuid_collector (never made persistent: core drops it when the
 * worker exits, for whatever reason, and removes it at startup if it finds
 * it on disk after a crash; so a server without the library, or without a
 * worker, holds no WAL for it).  Its restart_lsn follows what the worker has
 * read, segment by segment, as a walsender's slot follows its standby's
 * flush position; core keeps every segment from there on (KeepLogSeg).
 *
 * ordered_uuid.max_wal_keep_size bounds what it keeps: when the worker is
 * more than that behind the WAL on disk, restart_lsn moves to that distance
 * behind it, a checkpoint may then recycle what lies before, and the worker
 * skips it and counts it (collector_info().wal_skipped_bytes), as without a
 * slot (a LOG message says when it lets go).  0 means no slot.  The bound
 * is applied by the worker before each slice it reads, every
 * OU_WAL_CLOCK_EVERY records within one and at least every 100 ms between
 * slices (collector_wal.c, collector.c), never waiting for the LWLock; core's
 * max_slot_wal_keep_size, when set, applies too (it invalidates the slot and
 * terminates the worker, which starts again a second later with a new slot).
 *
 * No slot, never an error, when wal_level is minimal, when no slot is free
 * (max_replication_slots), or when a slot of that name exists already (never
 * used nor dropped: it is not ours); collector_info().wal_retention says
 * which.  The worker asks for its slot only when it starts following the WAL
 * (its start, track_splits turned on) and when max_wal_keep_size is turned
 * from 0, never on a timer: a slot an administrator frees, say to recreate a
 * standby's, stays free for them.
 *
 * Locking: everything here runs in the worker, never under the collector's
 * LWLock (asserted: it takes core's ReplicationSlotControlLock).  The worker
 * alone writes OuShared.wal_retention, under the collector's spinlock mutex
 * so that readers see it while the LWLock is busy, and reads it without
 * (asserted: ou_am_collector_worker()).  The slot's restart_lsn is written
 * under the slot's own spinlock, as a walsender does; core's functions take
 * what else they need.
 *
 * IDENTIFICATION
 *	  src/collector_retain.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "replication/slot.h"
#include "storage/lwlock.h"
#include "storage/spin.h"
#include "utils/guc.h"

#include "collector_defs.h"
#include "compat.h"
#include "walscan.h"

#define OU_RETAIN_SLOT_NAME "ordered_uuid_collector"

double		ou_max_wal_keep_size = 1024;	/* MB; -1 no bound, 0 no slot */

/* ordered_uuid.max_wal_keep_size in bytes (when > 0) */
static uint64
ou_retain_bound_bytes(void)
{
	return (uint64) ceil(ou_max_wal_keep_size * 1024.0 * 1024.0);
}

/* publish the retention state (under the spinlock: the worker never waits for the LWLock) */
static void
ou_retain_set_state(OuRetention state)
{
	SpinLockAcquire(&ou_shared->mutex);
	ou_shared->wal_retention = state;
	SpinLockRelease(&ou_shared->mutex);
}

/*
 * ou_retain_why_not
 *		Why no slot can be had now (OU_RETAIN_HOLDING when one can): the
 *		setting, wal_level, a slot of our name, no free slot.
 */
static OuRetention
ou_retain_why_not(void)
{
	bool		free_slot = false;
	int			i;

	if (ou_max_wal_keep_size == 0)
		return OU_RETAIN_OFF;
	if (wal_level < WAL_LEVEL_REPLICA)
		return OU_RETAIN_WAL_LEVEL;
	if (max_replication_slots == 0)
		return OU_RETAIN_NO_FREE_SLOT;
	Assert(!LWLockHeldByMe(ou_shared->lock));
	LWLockAcquire(ReplicationSlotControlLock, LW_SHARED);
	if (SearchNamedReplicationSlot(OU_RETAIN_SLOT_NAME, false) != NULL)
	{
		LWLockRelease(ReplicationSlotControlLock);
		return OU_RETAIN_NAME_IN_USE;
	}
	for (i = 0; i < max_replication_slots && !free_slot; i++)
		free_slot = !ReplicationSlotCtl->replication_slots[i].in_use;
	LWLockRelease(ReplicationSlotControlLock);
	return free_slot ? OU_RETAIN_HOLDING : OU_RETAIN_NO_FREE_SLOT;
}

/*
 * ou_retain_create
 *		Create and reserve our slot, in a transaction so that an error
 *		(the last free slot or the name taken a moment ago) leaves nothing
 *		held; returns whether we have it.
 */
static bool
ou_retain_create(void)
{
	MemoryContext cxt = CurrentMemoryContext;
	volatile bool held = false;

	StartTransactionCommand();
	PG_TRY();
	{
		ou_create_ephemeral_slot(OU_RETAIN_SLOT_NAME);
		ReplicationSlotReserveWal();
		held = true;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		AbortCurrentTransaction();
		if (MyReplicationSlot != NULL)
			ReplicationSlotRelease();	/* ephemeral: dropped */
		if (edata->sqlerrcode != ERRCODE_CONFIGURATION_LIMIT_EXCEEDED &&
			edata->sqlerrcode != ERRCODE_DUPLICATE_OBJECT)
			ReThrowError(edata);
		FreeErrorData(edata);
	}
	PG_END_TRY();
	if (held)
		CommitTransactionCommand();
	MemoryContextSwitchTo(cxt);
	return held;
}

/*
 * ou_retain_begin
 *		Have a slot (when the setting and the server allow one) that keeps
 *		the WAL from the last checkpoint's redo position on: called before
 *		the worker picks where it starts reading.
 */
void
ou_retain_begin(void)
{
	OuRetention state;

	Assert(ou_am_collector_worker());
	if (MyReplicationSlot != NULL)
		return;
	state = ou_retain_why_not();
	if (state == OU_RETAIN_HOLDING && !ou_retain_create())
		state = ou_retain_why_not() == OU_RETAIN_NAME_IN_USE ?
			OU_RETAIN_NAME_IN_USE : OU_RETAIN_NO_FREE_SLOT;
	ou_retain_set_state(state);
}

/*
 * ou_retain_end
 *		Drop our slot (track_splits off, the setting turned to 0): nothing
 *		is kept for a reader that does not read.
 */
void
ou_retain_end(OuRetention state)
{
	Assert(ou_am_collector_worker());
	if (MyReplicationSlot != NULL)
		ReplicationSlotRelease();	/* ephemeral: dropped */
	ou_retain_set_state(state);
}

/*
 * ou_retain_advance
 *		The worker has read up to next_lsn: let the slot keep the WAL from
 *		there on, or from ordered_uuid.max_wal_keep_size behind the WAL on
 *		disk when it is further behind than that.  Moves only forward, and
 *		tells core only when the segment of restart_lsn changes.  Also
 *		follows the setting: drops the slot at 0 and asks for one as soon
 *		as it is no longer 0; otherwise a worker without a slot stays so.
 */
void
ou_retain_advance(XLogRecPtr next_lsn)
{
	ReplicationSlot *slot = MyReplicationSlot;
	XLogRecPtr	flush = ou_wal_flush_lsn();
	XLogRecPtr	keep_from = next_lsn;
	XLogRecPtr	old;
	OuRetention state = OU_RETAIN_HOLDING;
	XLogSegNo	old_seg,
				new_seg;

	Assert(ou_am_collector_worker());
	Assert(!LWLockHeldByMe(ou_shared->lock));
	if (slot == NULL)
	{
		/* when the setting asks for a slot again; never on a timer */
		if (ou_max_wal_keep_size != 0 &&
			ou_shared->wal_retention == OU_RETAIN_OFF)
			ou_retain_begin();
		else if (ou_max_wal_keep_size == 0)
			ou_retain_set_state(OU_RETAIN_OFF);
		return;
	}
	if (ou_max_wal_keep_size == 0)
	{
		ou_retain_end(OU_RETAIN_OFF);
		return;
	}
	if (ou_max_wal_keep_size > 0 && flush > next_lsn &&
		flush - next_lsn > ou_retain_bound_bytes())
	{
		keep_from = flush - ou_retain_bound_bytes();
		state = OU_RETAIN_RELEASED;
	}

	SpinLockAcquire(&slot->mutex);
	old = slot->data.restart_lsn;
	if (keep_from > old)
		slot->data.restart_lsn = keep_from;
	SpinLockRelease(&slot->mutex);

	if (keep_from > old)
	{
		XLByteToSeg(old, old_seg, wal_segment_size);
		XLByteToSeg(keep_from, new_seg, wal_segment_size);
		if (new_seg != old_seg)
		{
			ReplicationSlotMarkDirty();
			ReplicationSlotsComputeRequiredLSN();
		}
	}
	if (ou_shared->wal_retention == state)
		return;
	if (state == OU_RETAIN_RELEASED)
		ereport(LOG,
				(errmsg("ordered_uuid collector is more than ordered_uuid.max_wal_keep_size (%s) behind the WAL",
						GetConfigOptionByName("ordered_uuid.max_wal_keep_size", NULL, false)),
				 errdetail("A checkpoint may recycle WAL it has not read; the split counts of that WAL are lost and counted as skipped.")));
	ou_retain_set_state(state);
}

/*
 * ou_retention_name
 *		collector_info().wal_retention's word for a state (NULL: not
 *		following the WAL).
 */
const char *
ou_retention_name(OuRetention state)
{
	switch (state)
	{
		case OU_RETAIN_HOLDING:
			return "slot";
		case OU_RETAIN_RELEASED:
			return "slot, released past max_wal_keep_size";
		case OU_RETAIN_OFF:
			return "off";
		case OU_RETAIN_WAL_LEVEL:
			return "none: wal_level is minimal";
		case OU_RETAIN_NO_FREE_SLOT:
			return "none: no free replication slot";
		case OU_RETAIN_NAME_IN_USE:
			return "none: slot name in use";
		case OU_RETAIN_NONE:
			break;
	}
	return NULL;
}
