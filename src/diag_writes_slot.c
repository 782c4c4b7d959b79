/*-------------------------------------------------------------------------
 *
 * diag_writes_slot.c
 *	  The replication slot with which explain_writes() holds the WAL of the
 *	  statement it measures until it has read it.
 *
 * A caller that may hold WAL with a replication slot (superuser or the
 * REPLICATION attribute, the rule of core's CheckSlotPermissions) gets an
 * ephemeral physical slot, ordered_uuid_explain_writes_<pid>, reserving the
 * WAL from the last checkpoint's redo position on, when wal_level and
 * max_replication_slots allow one and a slot is free at that instant.  A
 * full slot array, or a slot of that name that already exists, means no
 * slot, never an error.
 *
 * Core lets a backend have one acquired slot, MyReplicationSlot, and the
 * statement may create or use slots of its own (pg_create_..._slot(),
 * pg_replication_slot_advance(), ...), which set and clear it.  So while
 * the statement runs, ours is kept aside (still in use by this backend,
 * still holding the WAL), and MyReplicationSlot is left to the statement.
 * It is dropped afterwards by pointing MyReplicationSlot at it for the
 * moment of ReplicationSlotRelease() (an ephemeral slot is dropped when
 * released).  A slot is not transactional, and after an error nothing
 * that takes locks may run before the (sub)transaction is aborted: then
 * the abort drops it, from a subtransaction callback when the aborted
 * subtransaction is the call's own or an enclosing one (a caught error:
 * PL/pgSQL's EXCEPTION, a savepoint), from a transaction callback when the
 * whole transaction ends; both run after the abort released the lightweight
 * locks.  A backend that exits drops it too.  A call inside the measured
 * statement runs without a slot of its own: the outer call's holds its WAL.
 *
 * IDENTIFICATION
 *	  src/diag_writes_slot.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "miscadmin.h"
#include "replication/slot.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/spin.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "compat.h"
#include "diag.h"

/* the name of our slot (set by the first call that may have one) */
static char ou_wal_slot_name[NAMEDATALEN];
static bool ou_exit_hook_set = false;
static bool ou_xact_callbacks_set = false;

/* a call holds our slot, since subtransaction ou_held_subid */
static bool ou_held = false;
static SubTransactionId ou_held_subid = InvalidSubTransactionId;

/* Is slot the one we created (in use by this backend, under our name)? */
static bool
ou_slot_is_ours(ReplicationSlot *slot)
{
	bool		ours;

	SpinLockAcquire(&slot->mutex);
	ours = slot->in_use && OU_SLOT_ACTIVE_IS_MINE(slot) &&
		slot->data.persistency == RS_EPHEMERAL &&
		strcmp(NameStr(slot->data.name), ou_wal_slot_name) == 0;
	SpinLockRelease(&slot->mutex);
	return ours;
}

/*
 * Our slot, wherever it is (kept aside, or handed back as
 * MyReplicationSlot and then replaced by the statement's own), or NULL if
 * there is none (never created, dropped, or dropped by the statement).
 */
static ReplicationSlot *
ou_find_our_slot(void)
{
	if (ou_wal_slot_name[0] == '\0')
		return NULL;
	for (int i = 0; i < max_replication_slots; i++)
	{
		ReplicationSlot *slot = &ReplicationSlotCtl->replication_slots[i];

		if (ou_slot_is_ours(slot))
			return slot;
	}
	return NULL;
}

/* Drop slot (ephemeral: dropped when released); leave any other alone. */
static void
ou_drop_slot(ReplicationSlot *slot)
{
	ReplicationSlot *acquired = MyReplicationSlot;

	MyReplicationSlot = slot;
	ReplicationSlotRelease();
	MyReplicationSlot = (acquired == slot) ? NULL : acquired;
}

/*
 * At exit: core releases MyReplicationSlot after this (once the transaction
 * is aborted), so ours is handed to it when no other slot is acquired;
 * otherwise the locks are released, as core's exit does, and ours dropped.
 */
static void
ou_drop_slot_at_exit(int code, Datum arg)
{
	ReplicationSlot *slot = ou_find_our_slot();

	if (slot == NULL || slot == MyReplicationSlot)
		return;
	if (MyReplicationSlot == NULL)
	{
		MyReplicationSlot = slot;
		return;
	}
	LWLockReleaseAll();
	ou_drop_slot(slot);
}

/* Create and reserve, in a subtransaction; false when no slot is free. */
static bool
ou_create_wal_slot(const char *name)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	volatile bool held = false;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		ou_create_ephemeral_slot(name);
		ReplicationSlotReserveWal();
		ReleaseCurrentSubTransaction();
		held = true;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		if (MyReplicationSlot != NULL)
			ReplicationSlotRelease();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
		if (edata->sqlerrcode != ERRCODE_CONFIGURATION_LIMIT_EXCEEDED &&
			edata->sqlerrcode != ERRCODE_DUPLICATE_OBJECT)
			ReThrowError(edata);
		FreeErrorData(edata);
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	return held;
}

/*
 * ou_drop_held
 *		The call that held our slot is over: drop the slot, if the statement
 *		did not.
 */
static void
ou_drop_held(void)
{
	ReplicationSlot *slot;

	ou_held = false;
	slot = ou_find_our_slot();
	if (slot != NULL)
		ou_drop_slot(slot);
}

/*
 * ou_slot_xact_callback
 *		The transaction ends while a call holds our slot (its error ended
 *		the transaction, or was swallowed without a subtransaction): drop it.
 */
static void
ou_slot_xact_callback(XactEvent event, void *arg)
{
	if (ou_held && (event == XACT_EVENT_ABORT || event == XACT_EVENT_COMMIT ||
					event == XACT_EVENT_PREPARE))
		ou_drop_held();
}

/*
 * ou_slot_subxact_callback
 *		A subtransaction aborts: when it is the one the holding call runs in
 *		or an enclosing one (the call's error was caught), drop our slot.
 *		Subtransactions that the measured statement starts have later ids,
 *		and their aborts leave the slot to the call.
 */
static void
ou_slot_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
						 SubTransactionId parentSubid, void *arg)
{
	if (ou_held && event == SUBXACT_EVENT_ABORT_SUB && mySubid <= ou_held_subid)
		ou_drop_held();
}

/*
 * ou_hold_wal
 *		Hold the WAL from the last checkpoint's redo position on with a slot
 *		of our own, kept aside, when the caller may and a slot is free;
 *		returns whether it did.  ou_release_wal() drops it, or the abort of
 *		the call's (sub)transaction after an error.  Inside the statement of
 *		a call that holds it, returns false: that slot holds the WAL.
 */
bool
ou_hold_wal(void)
{
	ReplicationSlot *left;

	if (ou_held)
		return false;
	/* never left by a call that ended, but cheap to make sure */
	left = ou_find_our_slot();
	if (left != NULL)
		ou_drop_slot(left);
	if (RecoveryInProgress() || max_replication_slots == 0 ||
		wal_level < WAL_LEVEL_REPLICA || MyReplicationSlot != NULL)
		return false;
	if (!superuser() && !has_rolreplication(GetUserId()))
		return false;
	snprintf(ou_wal_slot_name, sizeof(ou_wal_slot_name),
			 "ordered_uuid_explain_writes_%d", MyProcPid);
	if (!ou_create_wal_slot(ou_wal_slot_name))
		return false;
	if (!ou_exit_hook_set)
	{
		before_shmem_exit(ou_drop_slot_at_exit, (Datum) 0);
		ou_exit_hook_set = true;
	}
	if (!ou_xact_callbacks_set)
	{
		RegisterXactCallback(ou_slot_xact_callback, NULL);
		RegisterSubXactCallback(ou_slot_subxact_callback, NULL);
		ou_xact_callbacks_set = true;
	}
	MyReplicationSlot = NULL;	/* kept aside: it stays in use by us */
	ou_held = true;
	ou_held_subid = GetCurrentSubTransactionId();
	return true;
}

/*
 * ou_release_wal
 *		Drop the slot of ou_hold_wal() at the end of a call that did not
 *		fail (if the statement did not drop it).
 */
void
ou_release_wal(void)
{
	if (ou_held)
		ou_drop_held();
}
