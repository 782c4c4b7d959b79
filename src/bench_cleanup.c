/*-------------------------------------------------------------------------
 *
 * bench_cleanup.c
 *	  Dropping what benchmark runs create: a run's scratch schema at its
 *	  end or after a failure (the clean-up worker), and the schemas of dead
 *	  runs (bench_cleanup(), and the start of every run).
 *
 * Everything here runs in a background worker connected as the role of the
 * run, under search_path = pg_catalog, pg_temp with every function and
 * operator named with its schema, statement and transaction timeouts off,
 * lock_timeout = the run's ordered_uuid.bench_lock_timeout and transactions
 * read-write (the database's or role's settings must not stop a clean-up
 * half way, and nobody's lock may hold it: bench_lockwait.c).  Only
 * tables, materialized views and sequences in a run's schema are dropped,
 * each in a subtransaction and without CASCADE; the schema itself goes only
 * when it is then empty.  So whatever else somebody put there, or made
 * depend on a scratch table, is never dropped: the schema stays and a
 * WARNING says so.
 *
 * Dead runs: a live run's leader holds the run lock (bench_protocol.h), so
 * a schema ordered_uuid_run_<id> whose lock can be taken belongs to a run
 * whose leader is gone.  The start of a run considers only the schemas the
 * current role owns; bench_cleanup() those owned by any role whose
 * privileges the current role has.  Dead runs' relations are dropped with a
 * short lock_timeout: a schema that somebody holds a lock in is skipped with
 * a WARNING, so nobody can make a run or bench_cleanup() wait by naming a
 * schema of their own like a run's and locking a table in it.
 *
 * The clean-up worker is a benchmark worker too: it is started under the
 * cap lock, counted against ordered_uuid.bench_max_workers (bench_proc.c),
 * and not started when the cap is reached.  When it cannot have a lock in
 * time it warns (in the server log), naming the lock and its holders, and
 * exits: its worker slot is free again, and the schema is a dead run's.
 *
 * IDENTIFICATION
 *	  src/bench_cleanup.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type_d.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/timestamp.h"

#include "bench_protocol.h"
#include "compat.h"

PGDLLEXPORT void ou_bench_cleanup_main(Datum main_arg);

/* how long a failing run's leader waits for the clean-up worker */
#define OU_CLEANUP_WAIT_MS		30000
/* lock_timeout while dropping a dead run's relations */
#define OU_DEAD_RUN_LOCK_TIMEOUT	"1s"

/* what the clean-up worker gets in bgw_extra */
typedef struct OuBenchCleanupArgs
{
	Oid			dbid;
	Oid			roleid;
	int			lock_timeout_ms;
	char		schema[NAMEDATALEN];
} OuBenchCleanupArgs;

StaticAssertDecl(sizeof(OuBenchCleanupArgs) <= BGW_EXTRALEN,
				 "clean-up arguments must fit into bgw_extra");

/*
 * ou_bench_run_id_from_schema
 *		The run id of a run's schema name (ordered_uuid_run_ and 16 hex
 *		digits); false for any other name.
 */
bool
ou_bench_run_id_from_schema(const char *schema, uint64 *run_id)
{
	size_t		plen = strlen(OU_BENCH_RUN_PREFIX);
	uint64		id = 0;
	const char *p;

	if (strncmp(schema, OU_BENCH_RUN_PREFIX, plen) != 0 || strlen(schema) != plen + 16)
		return false;
	for (p = schema + plen; *p; p++)
	{
		int			d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			return false;
		id = (id << 4) | (uint64) d;
	}
	*run_id = id;
	return true;
}

/*
 * ou_bench_try_sql
 *		Run one utility statement in a subtransaction; on error, WARN (with
 *		the error's message as detail) and return false.  An error because
 *		a lock could not be had (lock_timeout) is not warned of but only
 *		reported in *busy, the locks others hold in schema (allocated in
 *		keep): the caller gives up the whole schema, with one WARNING.  Must
 *		be called inside a transaction, with SPI connected.
 */
static bool
ou_bench_try_sql(const char *sql, const char *what, const char *schema, char **busy,
				 MemoryContext keep)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	bool		ok = true;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		if (SPI_execute(sql, false, 0) < 0)
			elog(ERROR, "SPI_execute failed: %s", sql);
		ReleaseCurrentSubTransaction();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		if (edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE)
		{
			char	   *held = ou_lockwait_holders(schema);

			*busy = MemoryContextStrdup(keep, held ? held :
										"none now (released since, or the lock was on another object)");
		}
		else
			ereport(WARNING,
					(errcode(ERRCODE_WARNING),
					 errmsg("could not drop %s", what),
					 errdetail_internal("%s", edata->message)));
		FreeErrorData(edata);
		ok = false;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	return ok;
}

/*
 * ou_bench_drop_schema
 *		Drop the tables, materialized views and sequences of schema whose
 *		names start with prefix (sequences last: a table may own one),
 *		OU_DROP_PER_XACT to a transaction (so that thousands of
 *		tables do not exhaust the lock table), each without CASCADE; then,
 *		with whole, the schema itself (without CASCADE).  Returns
 *		OU_DROP_DONE when everything asked for is gone (also when the schema
 *		does not exist).  The first lock that cannot be had within
 *		lock_timeout ends it (OU_DROP_BUSY): the rest of the schema is
 *		skipped, with one WARNING naming the lock and its holders, as every
 *		other lock held in it would be waited for too; without warn_busy
 *		(the schema was skipped, and said so, earlier in the same run), with
 *		none.  Call it outside a transaction.
 */
OuDropResult
ou_bench_drop_schema(const char *schema, const char *prefix, bool whole, bool warn_busy)
{
	MemoryContext outer = CurrentMemoryContext;
	List	   *failed = NIL;	/* names that could not be dropped */
	bool		gone = false;
	char	   *busy = NULL;

	for (;;)
	{
		Oid			argtypes[3] = {OIDOID, TEXTOID, NAMEARRAYOID};
		Datum		args[3];
		Datum	   *fdatums;
		Oid			nspid;
		List	   *names = NIL;
		List	   *kinds = NIL;
		ListCell   *lc,
				   *lc2;
		uint64		i;
		int			nf = 0;

		CHECK_FOR_INTERRUPTS();
		ou_worker_begin_xact();
		nspid = get_namespace_oid(schema, true);
		if (!OidIsValid(nspid))
		{
			ou_worker_end_xact();
			return OU_DROP_DONE;
		}
		fdatums = palloc(sizeof(Datum) * Max(list_length(failed), 1));
		foreach(lc, failed)
			fdatums[nf++] = CStringGetDatum((char *) lfirst(lc));
		args[0] = ObjectIdGetDatum(nspid);
		args[1] = CStringGetTextDatum(prefix);
		args[2] = PointerGetDatum(construct_array(fdatums, nf, NAMEOID, NAMEDATALEN, false,
												  TYPALIGN_CHAR));
		if (SPI_execute_with_args("SELECT c.relname, c.relkind"
								  " FROM pg_catalog.pg_class c"
								  " WHERE c.relnamespace OPERATOR(pg_catalog.=) $1"
								  "   AND pg_catalog.starts_with(c.relname::pg_catalog.text, $2)"
								  "   AND (c.relkind OPERATOR(pg_catalog.=) 'r'"
								  "        OR c.relkind OPERATOR(pg_catalog.=) 'm'"
								  "        OR c.relkind OPERATOR(pg_catalog.=) 'S')"
								  "   AND NOT c.relname OPERATOR(pg_catalog.=) ANY ($3)"
								  " ORDER BY c.relkind OPERATOR(pg_catalog.=) 'S', 1"
								  " LIMIT " CppAsString2(OU_DROP_PER_XACT),
								  3, argtypes, args, NULL, true, 0) != SPI_OK_SELECT)
			elog(ERROR, "could not list the relations of schema %s", schema);
		for (i = 0; i < SPI_processed; i++)
		{
			bool		isnull;
			MemoryContext old = MemoryContextSwitchTo(outer);

			names = lappend(names, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
			kinds = lappend_int(kinds,
								DatumGetChar(SPI_getbinval(SPI_tuptable->vals[i],
														   SPI_tuptable->tupdesc, 2, &isnull)));
			MemoryContextSwitchTo(old);
		}
		forboth(lc, names, lc2, kinds)
		{
			char	   *qname = ou_bench_qualified(schema, (char *) lfirst(lc));
			char		kind = (char) lfirst_int(lc2);
			const char *what = kind == 'S' ? "sequence" : kind == 'm' ? "materialized view" : "table";

			if (!ou_bench_try_sql(psprintf("DROP %s IF EXISTS %s", what, qname),
								  psprintf("scratch %s %s", what, qname), schema, &busy, outer))
			{
				MemoryContext old = MemoryContextSwitchTo(outer);

				failed = lappend(failed, pstrdup((char *) lfirst(lc)));
				MemoryContextSwitchTo(old);
				if (busy)
					break;
			}
		}
		if (names == NIL && whole && failed == NIL)
			gone = ou_bench_try_sql(psprintf("DROP SCHEMA IF EXISTS %s", quote_identifier(schema)),
									psprintf("scratch schema %s", quote_identifier(schema)),
									schema, &busy, outer);
		ou_worker_end_xact();
		if (busy && !warn_busy)
			return OU_DROP_BUSY;
		if (busy)
		{
			ereport(WARNING,
					(errcode(ERRCODE_WARNING),
					 errmsg("skipped scratch schema \"%s\"", schema),
					 errdetail("A lock was not granted within lock_timeout (%s). Locks that other sessions hold in the schema: %s.",
							   GetConfigOptionByName("lock_timeout", NULL, false), busy),
					 errhint("Once the lock is released, SELECT bench_cleanup() drops it.")));
			return OU_DROP_BUSY;
		}
		if (names == NIL)
			break;
	}
	return failed == NIL && (gone || !whole) ? OU_DROP_DONE : OU_DROP_FOREIGN;
}

/*
 * ou_bench_drop_dead_runs
 *		Drop the schemas of dead runs that the current role owns or, with
 *		any_owner, that it may drop (owned by a role whose privileges it has);
 *		returns how many.  Call it outside a transaction.
 */
int64
ou_bench_drop_dead_runs(bool any_owner)
{
	MemoryContext outer = CurrentMemoryContext;
	List	   *schemas = NIL;
	ListCell   *lc;
	uint64		i;
	int64		dropped = 0;
	char	   *lock_timeout;

	ou_worker_begin_xact();
	if (SPI_execute(psprintf("SELECT n.nspname FROM pg_catalog.pg_namespace n"
							 " WHERE pg_catalog.starts_with(n.nspname::pg_catalog.text, '" OU_BENCH_RUN_PREFIX "')"
							 "   AND %s"
							 " ORDER BY 1",
							 any_owner ? "pg_catalog.pg_has_role(n.nspowner, 'USAGE')" :
							 psprintf("n.nspowner OPERATOR(pg_catalog.=) %u::pg_catalog.oid", GetUserId())),
					true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not list the schemas of benchmark runs");
	for (i = 0; i < SPI_processed; i++)
	{
		MemoryContext old = MemoryContextSwitchTo(outer);

		schemas = lappend(schemas, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
		MemoryContextSwitchTo(old);
	}
	ou_worker_end_xact();

	lock_timeout = pstrdup(GetConfigOption("lock_timeout", false, false));
	SetConfigOption("lock_timeout", OU_DEAD_RUN_LOCK_TIMEOUT, PGC_USERSET, PGC_S_SESSION);
	foreach(lc, schemas)
	{
		const char *schema = (const char *) lfirst(lc);
		uint64		run_id;
		LOCKTAG		tag;
		bool		dead;

		CHECK_FOR_INTERRUPTS();
		if (!ou_bench_run_id_from_schema(schema, &run_id))
			continue;
		OU_SET_RUN_LOCKTAG(tag, MyDatabaseId, run_id);
		StartTransactionCommand();
		dead = LockAcquire(&tag, ExclusiveLock, false, true) != LOCKACQUIRE_NOT_AVAIL;
		if (dead)
			LockRelease(&tag, ExclusiveLock, false);
		CommitTransactionCommand();
		if (dead && ou_bench_drop_schema(schema, "", true, true) == OU_DROP_DONE)
			dropped++;
	}
	SetConfigOption("lock_timeout", lock_timeout, PGC_USERSET, PGC_S_SESSION);
	return dropped;
}

/*
 * ou_bench_launch_cleanup
 *		Start a worker, connected as the run's role to its database, that
 *		drops the run's scratch schema; with wait, wait for it (bounded,
 *		interrupts not processed).  It is started under the cap lock and
 *		counted against the run's ordered_uuid.bench_max_workers, like a
 *		run's workers (bench_proc.c); without wait (the leader's session is
 *		ending) the lock is tried only once.  Never raises an error: at worst
 *		it warns that the schema is left for the next benchmark or
 *		bench_cleanup().
 */
void
ou_bench_launch_cleanup(OuBenchShared *sh, bool wait)
{
	BackgroundWorker w;
	BackgroundWorkerHandle *h = NULL;
	OuBenchCleanupArgs args;
	const char *why = NULL;

	memset(&args, 0, sizeof(args));
	args.dbid = sh->dbid;
	args.roleid = sh->roleid;
	args.lock_timeout_ms = sh->lock_timeout_ms;
	strlcpy(args.schema, sh->schema, NAMEDATALEN);
	ou_bench_init_bgworker(&w, "ou_bench_cleanup_main");
	snprintf(w.bgw_name, sizeof(w.bgw_name), "ordered_uuid %s clean-up for PID %d",
			 sh->fname, MyProcPid);
	w.bgw_main_arg = (Datum) 0;
	w.bgw_notify_pid = wait ? MyProcPid : 0;
	memcpy(w.bgw_extra, &args, sizeof(args));

	if (!ou_bench_cap_lock(wait ? sh->lock_timeout_ms : 0, NULL))
		why = "Another benchmark run was starting its workers.";
	else if (sh->limits.max_workers >= 0 &&
			 ou_bench_count_workers(InvalidOid, InvalidOid) + 1 > sh->limits.max_workers)
		why = "Benchmark runs hold all the background workers that ordered_uuid.bench_max_workers allows.";
	else if (!RegisterDynamicBackgroundWorker(&w, &h))
		why = "No background worker slot was free.";
	else
		(void) ou_bench_wait_connected(&h, 1, sh->lock_timeout_ms);
	ou_bench_cap_unlock();
	if (why)
	{
		ereport(WARNING,
				(errcode(ERRCODE_WARNING),
				 errmsg("could not start a worker to drop scratch schema \"%s\"", sh->schema),
				 errdetail("%s", why),
				 errhint("The next benchmark in this database drops it, or SELECT bench_cleanup().")));
		return;
	}
	if (wait && !ou_chan_wait_stopped(&h, 1, OU_CLEANUP_WAIT_MS))
		ereport(WARNING,
				(errcode(ERRCODE_WARNING),
				 errmsg("scratch schema \"%s\" is still being dropped in the background", sh->schema)));
	pfree(h);
}

/*
 * ou_bench_cleanup_main
 *		Entry point of the clean-up worker: connect as the run's role and
 *		drop the run's schema, with settings that no database or role
 *		default can turn against it.
 */
void
ou_bench_cleanup_main(Datum main_arg)
{
	OuBenchCleanupArgs args;

	memcpy(&args, MyBgworkerEntry->bgw_extra, sizeof(args));
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	ou_worker_connect(args.dbid, args.roleid);
	SetConfigOption("search_path", OU_SAFE_SEARCH_PATH, PGC_USERSET, PGC_S_SESSION);
	SetConfigOption("statement_timeout", "0", PGC_USERSET, PGC_S_SESSION);
	SetConfigOption("lock_timeout", psprintf("%d", args.lock_timeout_ms), PGC_USERSET, PGC_S_SESSION);
	SetConfigOption("idle_in_transaction_session_timeout", "0", PGC_USERSET, PGC_S_SESSION);
	OU_DISABLE_TRANSACTION_TIMEOUT();
	/* a read-only default would make every DROP fail */
	SetConfigOption("default_transaction_read_only", "off", PGC_USERSET, PGC_S_SESSION);
	pgstat_report_activity(STATE_RUNNING, "ordered_uuid: dropping a benchmark scratch schema");
	(void) ou_bench_drop_schema(args.schema, "", true, true);
	pgstat_report_activity(STATE_IDLE, NULL);
	proc_exit(0);
}
