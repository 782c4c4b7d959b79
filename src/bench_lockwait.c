/*-------------------------------------------------------------------------
 *
 * bench_lockwait.c
 *	  Bounded lock waits of the benchmark engine's own SQL: the lock_timeout
 *	  a worker's or clean-up worker's DDL, drops and measurements run
 *	  under (ordered_uuid.bench_lock_timeout), and the lock and the
 *	  processes that an expired wait names; and the chains of lock waits
 *	  from a worker back to its leader's session, which the leader follows
 *	  to find the deadlocks that the deadlock detector cannot see.
 *
 * Any role can lock a relation it may not read for as long as its
 * transaction lasts, by calling a function that locks before it checks
 * privileges (on PostgreSQL 18, pg_sequence_last_value() on a sequence it
 * may not read returns NULL but keeps its lock).  The OIDs of a run's
 * scratch relations are in pg_class for everybody to see, so no schema
 * privilege can hide them from that.  What the engine can do is never to
 * wait for such a lock for long: every statement of its own runs with
 * lock_timeout = ordered_uuid.bench_lock_timeout (only the measured inserts
 * and reads keep the role's setting: their waits on each other are what is
 * measured).  When the timeout expires, the lock wait is already cancelled
 * (ProcessInterrupts cleans it up before raising the error), so the error
 * names what pg_locks then shows: the locks that other processes hold on
 * the run's scratch relations, and those processes.  pg_locks shows every
 * role all of that already.
 *
 * IDENTIFICATION
 *	  src/bench_lockwait.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type_d.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "bench_protocol.h"

/* most locks named */
#define OU_LOCKWAIT_MAX_NAMED	8

/* the worker's lock_timeout before the first bound (its role's setting) */
static char *ou_own_lock_timeout = NULL;

/*
 * ou_lockwait_holders
 *		The locks that other processes hold on relations of schema, as
 *		"relation s.t (RowExclusiveLock, process 123)" joined by "; " (at
 *		most OU_LOCKWAIT_MAX_NAMED), or NULL when there are none.  Runs in a
 *		valid transaction with SPI connected; the result is allocated in
 *		the current memory context (the caller's, not SPI's).
 */
char *
ou_lockwait_holders(const char *schema)
{
	MemoryContext outer = CurrentMemoryContext;
	Oid			argtypes[1] = {TEXTOID};
	Datum		args[1];
	StringInfoData buf;
	uint64		i;

	args[0] = CStringGetTextDatum(schema);
	if (SPI_execute_with_args("SELECT pg_catalog.format('relation %s (%s, process %s)',"
							  "        pg_catalog.format('%I.%I', n.nspname, c.relname), l.mode, l.pid)"
							  " FROM pg_catalog.pg_locks l"
							  " JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) l.relation"
							  " JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace"
							  " WHERE l.locktype OPERATOR(pg_catalog.=) 'relation' AND l.granted"
							  "   AND l.database OPERATOR(pg_catalog.=) (SELECT d.oid FROM pg_catalog.pg_database d"
							  "        WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())"
							  "   AND n.nspname OPERATOR(pg_catalog.=) $1::pg_catalog.name"
							  "   AND l.pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid()"
							  " ORDER BY l.pid, c.relname"
							  " LIMIT " CppAsString2(OU_LOCKWAIT_MAX_NAMED),
							  1, argtypes, args, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_locks");
	if (SPI_processed == 0)
		return NULL;
	initStringInfo(&buf);
	for (i = 0; i < SPI_processed; i++)
	{
		char	   *one = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);

		appendStringInfo(&buf, "%s%s", i > 0 ? "; " : "", one);
	}
	return MemoryContextStrdup(outer, buf.data);
}

/*
 * ou_lockwait_rethrow
 *		In PG_CATCH of a worker's command that ran into its lock_timeout:
 *		end the failed transaction, then raise the error again naming the
 *		locks that other sessions hold in the run's schema, and their
 *		processes.  Never returns.
 */
void
ou_lockwait_rethrow(const char *schema, int timeout_ms)
{
	char	   *held;

	MemoryContextSwitchTo(TopMemoryContext);
	FlushErrorState();
	AbortCurrentTransaction();
	ou_worker_begin_xact();
	held = ou_lockwait_holders(schema);
	ereport(ERROR,
			(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
			 errmsg("benchmark could not obtain a lock within ordered_uuid.bench_lock_timeout (%d ms)",
					timeout_ms),
			 held ? errdetail("Other sessions hold locks on the run's scratch relations: %s.", held) :
			 errdetail("No other session holds a lock on the run's scratch relations now: the lock was on another object, or it has been released since."),
			 errhint("End those sessions' transactions, then run the benchmark again; SELECT bench_cleanup() drops what the run left.")));
}

/*
 * ou_worker_bound_locks
 *		With timeout_ms > 0, make lock_timeout that many milliseconds (the
 *		engine's own statements); with 0, give it back the value it had
 *		(the caller's measured statements).  Call it outside a transaction.
 */
void
ou_worker_bound_locks(int timeout_ms)
{
	if (ou_own_lock_timeout == NULL)
		ou_own_lock_timeout = MemoryContextStrdup(TopMemoryContext,
												  GetConfigOption("lock_timeout", false, false));
	if (timeout_ms > 0)
	{
		char		buf[32];

		snprintf(buf, sizeof(buf), "%d", timeout_ms);
		SetConfigOption("lock_timeout", buf, PGC_USERSET, PGC_S_SESSION);
	}
	else
		SetConfigOption("lock_timeout", ou_own_lock_timeout, PGC_USERSET, PGC_S_SESSION);
}

/*
 * ou_lockwait_reaches_me
 *		Whether process pid waits, directly or through a chain of other
 *		waiting processes, for a lock that this session holds; in *via, the
 *		first process of that chain (pid itself when it waits directly).
 *		The chain is followed breadth first through pg_blocking_pids(), at
 *		most OU_DEADLOCK_MAX_VISITS processes (each a scan of the lock
 *		table); the nskip processes in skip are not followed (a leader's own
 *		workers wait for its commands, not for its locks).
 */
#define OU_DEADLOCK_MAX_VISITS	32

bool
ou_lockwait_reaches_me(int pid, const int *skip, int nskip, int *via)
{
	int			queue[OU_DEADLOCK_MAX_VISITS];
	int			first[OU_DEADLOCK_MAX_VISITS];
	int			head = 0;
	int			tail = 0;

	queue[tail] = pid;
	first[tail++] = pid;
	while (head < tail)
	{
		ArrayType  *blockers;
		Datum	   *pids;
		int			n;
		int			j;
		int			me = queue[head];
		int			origin = first[head++];

		blockers = DatumGetArrayTypeP(DirectFunctionCall1(pg_blocking_pids, Int32GetDatum(me)));
		deconstruct_array(blockers, INT4OID, sizeof(int32), true, TYPALIGN_INT, &pids, NULL, &n);
		for (j = 0; j < n; j++)
		{
			int			b = DatumGetInt32(pids[j]);
			int			k;
			bool		seen = false;

			if (b == MyProcPid)
			{
				*via = me == pid ? pid : origin;
				return true;
			}
			for (k = 0; k < tail && !seen; k++)
				seen = queue[k] == b;
			for (k = 0; k < nskip && !seen; k++)
				seen = skip[k] == b;
			if (!seen && tail < OU_DEADLOCK_MAX_VISITS)
			{
				queue[tail] = b;
				first[tail++] = me == pid ? b : origin;
			}
		}
		pfree(pids);
		pfree(blockers);
	}
	return false;
}
