/*-------------------------------------------------------------------------
 *
 * bench_xact.c
 *	  A benchmark worker's transactions for scenario S5 (the XACTS command,
 *	  bench_protocol.h): each inserts one row and reads rows back by key at
 *	  the run's isolation level; a serialization failure is logged as the
 *	  server logs a client's, and the transaction tried again until it
 *	  commits; no transaction starts after the run's deadline.
 *
 * The text area holds, in this order: the insert (the caller's generator:
 * OU_PATH_CALLER, RETURNING the key), the read of one key ($1 of the key's
 * type), the read of the index's last keys ($1 int8, the LIMIT), and the
 * table's name (unqualified, in the run's schema).  The reads are our own
 * SQL, prepared under OU_PATH_SAFE; they name every table, function and
 * operator with its schema, so they resolve alike under the caller's
 * search_path (pg_catalog first), under which the transactions run for the
 * generator's sake.  Sequential and bitmap scans are off meanwhile, so the
 * reads go through the key's index as an application's lookup in a large
 * table does, whatever the table's size.  How a transaction reads
 * (OuReadPattern):
 * - own: the row it inserted, by its key;
 * - recent: that row and the rows of this worker's last read_rows - 1
 *	 committed transactions, one statement a key;
 * - range: the read_rows last keys of the index (ORDER BY key DESC LIMIT),
 *	 whoever inserted them.
 * A read by key must find its row (else the benchmark is wrong: an error).
 *
 * Retrying.  A transaction that fails with SQLSTATE 40001 is rolled back and,
 * after a random wait, run again with a new key, as a client that retries
 * does: the wait is up to 1 ms after its first failure and doubles with each
 * further one, up to 64 ms ("full jitter").  Without it a worker, which has
 * no network round trip, retries within microseconds, while the transaction
 * it conflicts with is still flushing its commit: it fails again and again
 * (at 4 clients with uuid_v7_nextval() on 2 cores, 135 failures for each
 * commit), which says how fast it retries rather than how often its
 * transactions conflict, and fills the server log.  The failure is
 * counted, and logged -- to the server log only, not to the leader, whose
 * client would see an error -- so that it reaches every emit_log_hook as a
 * client's failure does (the collector counts them: collector_ssi.c).  Any
 * other error ends the worker as usual.  A transaction that has not
 * committed when the deadline passes is not counted (its failures are).
 * Transactions per worker are OU_XACT_MAX_RETRIES retries at most: more is
 * an error, not a hang.
 *
 * IDENTIFICATION
 *	  src/bench_xact.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type_d.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "pgstat.h"
#include "tcop/dest.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "bench_protocol.h"
#include "util.h"

/* most retries of one transaction before the run fails */
#define OU_XACT_MAX_RETRIES		10000
/* the wait before a retry: at most this after the first failure, ... */
#define OU_XACT_BACKOFF_US		1000
/* ... doubling with each further failure, up to this */
#define OU_XACT_BACKOFF_MAX_US	64000

/* a worker's prepared statements and what it knows of the key */
typedef struct OuXactPlans
{
	SPIPlanPtr	insert;
	SPIPlanPtr	by_key;
	SPIPlanPtr	last_keys;
	Oid			keytype;
	int16		typlen;
	bool		typbyval;
} OuXactPlans;

/* a worker's keys of its last committed transactions (recent) */
typedef struct OuXactRing
{
	Datum	   *keys;
	int			size;
	int			n;
	int			next;
	MemoryContext cxt;
} OuXactRing;

/*
 * ou_xact_keep
 *		SPI_prepare and SPI_keepplan, or fail.
 */
static SPIPlanPtr
ou_xact_keep(const char *sql, int nargs, Oid *argtypes)
{
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, argtypes);

	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", sql);
	if (SPI_keepplan(plan) != 0)
		elog(ERROR, "SPI_keepplan failed");
	return plan;
}

/*
 * ou_xact_prepare
 *		Prepare the three statements, each under its search_path, and learn
 *		the key's type from the table.
 */
static void
ou_xact_prepare(OuBenchShared *sh, const char *text, OuXactPlans *p)
{
	const char *insert = ou_worker_text(text, 0);
	const char *by_key = ou_worker_text(text, 1);
	const char *last_keys = ou_worker_text(text, 2);
	const char *table = ou_worker_text(text, 3);
	Oid			int8type = INT8OID;
	Oid			relid;

	if (sh->nstmts != 4 || insert[0] != OU_PATH_CALLER || by_key[0] != OU_PATH_SAFE ||
		last_keys[0] != OU_PATH_SAFE || table[0] != OU_PATH_SAFE)
		elog(ERROR, "benchmark transactions need an insert, two reads and a table");
	ou_worker_use_path(OU_PATH_SAFE);
	ou_worker_begin_xact();
	relid = RangeVarGetRelid(makeRangeVar(sh->schema, pstrdup(table + 1), -1),
							 AccessShareLock, false);
	p->keytype = get_atttype(relid, 1);
	if (!OidIsValid(p->keytype))
		elog(ERROR, "benchmark table %s has no key column", table + 1);
	get_typlenbyval(p->keytype, &p->typlen, &p->typbyval);
	p->by_key = ou_xact_keep(by_key + 1, 1, &p->keytype);
	p->last_keys = ou_xact_keep(last_keys + 1, 1, &int8type);
	ou_worker_end_xact();

	ou_worker_use_path(OU_PATH_CALLER);
	ou_worker_begin_xact();
	p->insert = ou_xact_keep(insert + 1, 0, NULL);
	ou_worker_end_xact();
}

/*
 * ou_xact_read_key
 *		Read the row of key: it must be there.  Returns the rows found (1).
 */
static int64
ou_xact_read_key(OuXactPlans *p, Datum key)
{
	if (SPI_execute_plan(p->by_key, &key, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "benchmark read by key failed");
	if (SPI_processed != 1)
		elog(ERROR, "benchmark read by key found " UINT64_FORMAT " rows, not 1",
			 (uint64) SPI_processed);
	SPI_freetuptable(SPI_tuptable);
	return 1;
}

/*
 * ou_xact_once
 *		One attempt at a transaction: insert, read as the pattern says,
 *		commit.  The new key is copied into keycxt (*key).  Returns the rows
 *		read.  Errors propagate (the caller rolls back).
 */
static int64
ou_xact_once(OuBenchShared *sh, OuXactPlans *p, OuXactRing *ring,
			 MemoryContext keycxt, Datum *key)
{
	int64		rows = 0;
	bool		isnull;
	Datum		d;
	MemoryContext oldcxt;
	int			i;

	ou_worker_begin_xact();
	if (SPI_execute_plan(p->insert, NULL, NULL, false, 0) != SPI_OK_INSERT_RETURNING ||
		SPI_processed != 1)
		elog(ERROR, "benchmark insert did not return one key");
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NOT_NULL_VIOLATION),
				 errmsg("benchmark generator made a NULL key")));
	oldcxt = MemoryContextSwitchTo(keycxt);
	*key = datumCopy(d, p->typbyval, p->typlen);
	MemoryContextSwitchTo(oldcxt);
	SPI_freetuptable(SPI_tuptable);

	switch ((OuReadPattern) sh->xact.pattern)
	{
		case OU_READ_OWN:
			rows += ou_xact_read_key(p, *key);
			break;
		case OU_READ_RECENT:
			rows += ou_xact_read_key(p, *key);
			for (i = 0; i < ring->n; i++)
				rows += ou_xact_read_key(p, ring->keys[i]);
			break;
		case OU_READ_RANGE:
			{
				Datum		limit = Int64GetDatum((int64) sh->xact.read_rows);

				if (SPI_execute_plan(p->last_keys, &limit, NULL, false, 0) != SPI_OK_SELECT)
					elog(ERROR, "benchmark read of the last keys failed");
				rows += (int64) SPI_processed;
				SPI_freetuptable(SPI_tuptable);
			}
			break;
	}
	ou_worker_end_xact();
	return rows;
}

/*
 * ou_xact_log_failure
 *		Log a serialization failure that the worker handles, as the server
 *		logs a client's error (EmitErrorReport: emit_log_hook included), but
 *		not to the leader (whose client would get it as an error): raised
 *		again with no client to send it to, and reported where it is caught.
 */
static void
ou_xact_log_failure(ErrorData *edata)
{
	CommandDest save = whereToSendOutput;
	MemoryContext cxt = CurrentMemoryContext;

	whereToSendOutput = DestNone;
	PG_TRY();
	{
		ThrowErrorData(edata);
	}
	PG_CATCH();
	{
		whereToSendOutput = save;
		MemoryContextSwitchTo(cxt);
		EmitErrorReport();
		FlushErrorState();
	}
	PG_END_TRY();
	whereToSendOutput = save;
}

/*
 * ou_xact_attempt
 *		One attempt (ou_xact_once); on a serialization failure, roll back,
 *		log it and return false; any other error propagates.  *rows gets
 *		the rows read by an attempt that committed.
 */
static bool
ou_xact_attempt(OuBenchShared *sh, OuXactPlans *p, OuXactRing *ring,
				MemoryContext keycxt, Datum *key, int64 *rows)
{
	MemoryContext cxt = CurrentMemoryContext;
	ErrorData  *edata;

	PG_TRY();
	{
		*rows = ou_xact_once(sh, p, ring, keycxt, key);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		if (geterrcode() != ERRCODE_T_R_SERIALIZATION_FAILURE)
			PG_RE_THROW();
		edata = CopyErrorData();
		FlushErrorState();
		AbortCurrentTransaction();
		ou_xact_log_failure(edata);
		FreeErrorData(edata);
		return false;
	}
	PG_END_TRY();
	return true;
}

/*
 * ou_xact_remember
 *		Keep a committed transaction's key among the worker's last ones
 *		(recent reads read them back).
 */
static void
ou_xact_remember(OuXactRing *ring, OuXactPlans *p, Datum key)
{
	MemoryContext oldcxt;

	if (ring->size == 0)
		return;
	if (ring->n == ring->size && !p->typbyval)
		pfree(DatumGetPointer(ring->keys[ring->next]));
	oldcxt = MemoryContextSwitchTo(ring->cxt);
	ring->keys[ring->next] = datumCopy(key, p->typbyval, p->typlen);
	MemoryContextSwitchTo(oldcxt);
	ring->next = (ring->next + 1) % ring->size;
	if (ring->n < ring->size)
		ring->n++;
}

/*
 * ou_xact_backoff
 *		Wait before the retry that follows the failures-th failure of a
 *		transaction in a row: a random time up to OU_XACT_BACKOFF_US,
 *		doubled for each failure after the first, at most
 *		OU_XACT_BACKOFF_MAX_US.
 */
static void
ou_xact_backoff(int64 failures)
{
	uint32		r;
	int64		cap = OU_XACT_BACKOFF_US;

	while (--failures > 0 && cap < OU_XACT_BACKOFF_MAX_US)
		cap *= 2;
	cap = Min(cap, OU_XACT_BACKOFF_MAX_US);
	ou_random_bytes(&r, sizeof(r));
	pg_usleep((long) (r % (uint32) (cap + 1)));
}

/* default_transaction_isolation's value for an XACT_* level */
static const char *
ou_xact_level_name(int level)
{
	switch (level)
	{
		case XACT_READ_UNCOMMITTED:
			return "read uncommitted";
		case XACT_READ_COMMITTED:
			return "read committed";
		case XACT_REPEATABLE_READ:
			return "repeatable read";
		case XACT_SERIALIZABLE:
			return "serializable";
	}
	elog(ERROR, "unknown isolation level %d", level);
	return NULL;				/* keep compiler quiet */
}

/* the settings the transactions run with */
#define OU_XACT_NSETTINGS		3
static const char *const ou_xact_setting_names[OU_XACT_NSETTINGS] = {
	"default_transaction_isolation", "enable_seqscan", "enable_bitmapscan"
};

/*
 * ou_xact_settings
 *		With level: save the session's settings into saved[] and set the
 *		transactions' (that isolation level, no sequential or bitmap
 *		scans).  With NULL: restore saved[].  Outside a transaction.
 */
static void
ou_xact_settings(const char *level, char **saved)
{
	int			i;

	for (i = 0; i < OU_XACT_NSETTINGS; i++)
	{
		const char *name = ou_xact_setting_names[i];

		if (level != NULL)
			saved[i] = pstrdup(GetConfigOption(name, false, false));
		SetConfigOption(name, level == NULL ? saved[i] : (i == 0 ? level : "off"),
						PGC_USERSET, PGC_S_SESSION);
	}
}

/*
 * ou_xact_loop
 *		The transactions until the deadline, counted into x.
 */
static void
ou_xact_loop(OuBenchShared *sh, OuBenchSlot *slot, OuXactPlans *p, OuBenchXacts *x)
{
	MemoryContext keycxt = AllocSetContextCreate(CurrentMemoryContext, "bench transaction key",
												 ALLOCSET_SMALL_SIZES);
	OuXactRing	ring;

	memset(&ring, 0, sizeof(ring));
	if (sh->xact.pattern == OU_READ_RECENT)
	{
		ring.size = Max(sh->xact.read_rows - 1, 0);
		ring.keys = palloc0(sizeof(Datum) * Max(ring.size, 1));
		ring.cxt = AllocSetContextCreate(CurrentMemoryContext, "bench recent keys",
										 ALLOCSET_SMALL_SIZES);
	}
	while (GetCurrentTimestamp() < sh->deadline)
	{
		int64		retries = 0;
		int64		rows = 0;
		Datum		key = (Datum) 0;
		bool		done;

		for (;;)
		{
			CHECK_FOR_INTERRUPTS();
			ou_worker_check_abort();
			MemoryContextReset(keycxt);
			done = ou_xact_attempt(sh, p, &ring, keycxt, &key, &rows);
			if (done)
				break;
			x->failures++;
			if (GetCurrentTimestamp() >= sh->deadline)
				break;
			if (++retries > OU_XACT_MAX_RETRIES)
				ereport(ERROR,
						(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
						 errmsg("benchmark transaction failed %d times in a row", OU_XACT_MAX_RETRIES),
						 errdetail("Each attempt failed with a serialization failure.")));
			ou_xact_backoff(retries);
		}
		if (!done)
			break;
		x->xacts++;
		x->rows_read += rows;
		/* its commits in pg_stat_database, as a client's are when it idles */
		(void) pgstat_report_stat(false);
		if (retries > 0)
			x->retried++;
		x->max_retries = Max(x->max_retries, retries);
		pg_atomic_write_u64(&slot->rows_done, (uint64) x->xacts);
		ou_xact_remember(&ring, p, key);
	}
	MemoryContextDelete(keycxt);
	if (ring.cxt)
		MemoryContextDelete(ring.cxt);
}

/*
 * ou_worker_xacts
 *		This worker's part of an XACTS command (nothing if it is not one of
 *		the active workers): prepare, set the isolation level, run the
 *		transactions until the deadline, and record what they came to.
 */
void
ou_worker_xacts(OuBenchShared *sh, int me, const char *text)
{
	OuBenchSlot *slot = &sh->slots[me];
	OuXactPlans p;
	OuBenchXacts x;
	WalUsage	wal0;
	BufferUsage buf0;
	char	   *saved[OU_XACT_NSETTINGS];
	char		activity[256];

	if (me >= sh->nactive)
		return;
	memset(&p, 0, sizeof(p));
	ou_xact_prepare(sh, text, &p);

	ou_xact_settings(ou_xact_level_name(sh->xact.isolation), saved);
	snprintf(activity, sizeof(activity), "%s: %s transactions", sh->fname,
			 ou_xact_level_name(sh->xact.isolation));
	pgstat_report_activity(STATE_RUNNING, activity);
	memset(&x, 0, sizeof(x));
	wal0 = pgWalUsage;
	buf0 = pgBufferUsage;
	slot->running = true;

	ou_xact_loop(sh, slot, &p, &x);

	slot->running = false;
	slot->finished = GetCurrentTimestamp();
	slot->xacts = x;
	memset(&slot->wal, 0, sizeof(slot->wal));
	memset(&slot->buf, 0, sizeof(slot->buf));
	WalUsageAccumDiff(&slot->wal, &pgWalUsage, &wal0);
	BufferUsageAccumDiff(&slot->buf, &pgBufferUsage, &buf0);
	ou_xact_settings(NULL, saved);
	SPI_freeplan(p.insert);
	SPI_freeplan(p.by_key);
	SPI_freeplan(p.last_keys);
	pgstat_report_activity(STATE_IDLE, NULL);
}
