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
 * released).  After an error, nothing that takes locks may run before the
 * transaction is aborted: the slot is handed back as MyReplicationSlot,
 * which core releases after a top-level error; if the error was caught, or
 * the statement's own slot is still acquired, the next explain_writes()
 * call or the backend's exit drops it.
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
 * ou_hold_wal
 *		Hold the WAL from the last checkpoint's redo position on with a slot
 *		of our own, kept aside, when the caller may and a slot is free;
 *		returns whether it did.  ou_release_wal() drops it.  A slot left by
 *		an earlier call whose error was caught is dropped first.
 */
bool
ou_hold_wal(void)
{
	ReplicationSlot *left = ou_find_our_slot();

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
	MyReplicationSlot = NULL;	/* kept aside: it stays in use by us */
	return true;
}

/*
 * ou_release_wal
 *		Drop the slot of ou_hold_wal().  After an error (on_error) nothing
 *		that takes locks may run until the transaction is aborted: the slot
 *		is handed back as MyReplicationSlot, which core releases after a
 *		top-level error, when no other slot is acquired; otherwise, or when
 *		the error is caught, the next call or the backend's exit drops it.
 */
void
ou_release_wal(bool on_error)
{
	ReplicationSlot *slot = ou_find_our_slot();

	if (slot == NULL)
		return;					/* the statement dropped it */
	if (!on_error)
		ou_drop_slot(slot);
	else if (MyReplicationSlot == NULL)
		MyReplicationSlot = slot;
}
