/*----
 * testing.c
 *	  A test-only entry point: hold a relation extension lock until a given
 *	  number of backends wait for it, so that the extend_lock_waits test is
 *	  deterministic on every version (on PG16+ extension waits are rare).
 *
 * Not part of the extension's SQL: a test creates it with
 *	CREATE FUNCTION ... AS 'ordered_uuid', 'ou_hold_extension_lock' LANGUAGE C
 * which only a superuser may do; the function checks superuser itself too.
 *----
 */
#include "postgres.h"

#include "access/relation.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/lockdefs.h"
#include "utils/timestamp.h"

#include "ordered_uuid.h"

PG_FUNCTION_INFO_V1(ou_hold_extension_lock);

/*
 * ou_hold_extension_lock(rel regclass, waiters int, linger_ms int,
 *						  timeout_ms int) RETURNS int
 *
 * Takes rel's extension lock, waits until at least "waiters" backends queue
 * for it (or timeout_ms passes), keeps it linger_ms longer, releases it and
 * returns the largest number of waiters seen.
 */
Datum
ou_hold_extension_lock(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int32		want = PG_GETARG_INT32(1);
	int32		linger_ms = PG_GETARG_INT32(2);
	int32		timeout_ms = PG_GETARG_INT32(3);
	Relation	rel;
	TimestampTz start;
	TimestampTz reached = 0;
	int			most = 0;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may hold a relation extension lock")));

	rel = relation_open(relid, AccessShareLock);
	LockRelationForExtension(rel, ExclusiveLock);
	start = GetCurrentTimestamp();
	for (;;)
	{
		/* The count includes us, the holder. */
		int			n = RelationExtensionLockWaiterCount(rel) - 1;
		TimestampTz now = GetCurrentTimestamp();

		if (n > most)
			most = n;
		if (n >= want && reached == 0)
			reached = now;
		if (reached != 0 && TimestampDifferenceExceeds(reached, now, linger_ms))
			break;
		if (TimestampDifferenceExceeds(start, now, timeout_ms))
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	UnlockRelationForExtension(rel, ExclusiveLock);
	relation_close(rel, AccessShareLock);
	PG_RETURN_INT32(most);
}
