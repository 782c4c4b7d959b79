/*-------------------------------------------------------------------------
 *
 * bench_worker.c
 *	  A benchmark worker: a dynamic background worker connected as the
 *	  calling role that executes its leader's commands (bench_protocol.h).
 *
 * The worker's own SQL (schema set-up, index measurement, drops) runs under
 * search_path = pg_catalog, pg_temp and names every function and operator
 * with its schema.  Only statements that hold a caller's generator
 * expression run under the caller's search_path (behind pg_catalog and the
 * extension's schema), and only while they are parsed and planned; their
 * cached plans keep the path they were made with.  The read-side commands
 * (VALUES, READ) and top-level utility statements are in bench_read.c; the
 * plumbing (connection, transactions, search_path) in bench_proc.c.
 *
 * A worker's errors, warnings and notices go to the leader through its
 * message queue (pq_redirect_to_shm_mq, as in a parallel worker), with the
 * leader's client_min_messages; an error ends the worker.
 *
 * Shared memory (the rules: bench_leader.c): the worker writes only its own
 * slot, the results of a command before it acknowledges it, and reads a
 * command's parameters only after it took the command from the channel.
 *
 * IDENTIFICATION
 *	  src/bench_worker.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/namespace.h"
#include "catalog/pg_type_d.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "libpq/pqmq.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/shm_mq.h"
#include "storage/shm_toc.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "bench_protocol.h"
#include "citus.h"
#include "diag.h"

PGDLLEXPORT void ou_bench_worker_main(Datum main_arg);

/* worker-local state */
static SPIPlanPtr *ou_plans = NULL;
static int	ou_nplans = 0;
static char ou_plans_path = OU_PATH_SAFE;
/* a drop of the run's schema was skipped for a lock, with its WARNING */
static bool ou_drop_skipped = false;

/*
 * ou_worker_begin_block / ou_worker_end_block
 *		BEGIN and COMMIT of a transaction block around ou_worker_begin_xact()
 *		/ ou_worker_end_xact().  Citus sends the statements of a transaction
 *		to the nodes in one remote transaction only inside a transaction
 *		block (or a DO block or procedure); otherwise it commits each
 *		statement there on its own, one WAL flush per row.
 */
static void
ou_worker_begin_block(void)
{
	StartTransactionCommand();
	BeginTransactionBlock();
	CommitTransactionCommand();
}

static void
ou_worker_end_block(void)
{
	StartTransactionCommand();
	if (!EndTransactionBlock(false))
		elog(ERROR, "benchmark transaction block did not commit");
	CommitTransactionCommand();
}

/*
 * ou_worker_setup
 *		Drop the schemas of dead runs, then create the run's schema.  A run
 *		without a schema is bench_cleanup(), which drops those of every role
 *		whose privileges this role has; a benchmark drops only its own role's.
 */
static void
ou_worker_setup(OuBenchShared *sh, OuBenchSlot *slot)
{
	ou_worker_use_path(OU_PATH_SAFE);
	slot->count = ou_bench_drop_dead_runs(sh->schema[0] == '\0');
	if (sh->schema[0] == '\0')
		return;
	ou_worker_begin_xact();
	if (SPI_execute(psprintf("CREATE SCHEMA %s", quote_identifier(sh->schema)), false, 0) < 0)
		elog(ERROR, "could not create schema %s", sh->schema);
	if (SPI_execute(psprintf("COMMENT ON SCHEMA %s IS %s", quote_identifier(sh->schema),
							 quote_literal_cstr(psprintf("scratch tables of an ordered_uuid %s run (leader PID %d)",
														 sh->fname, sh->leader->pid))),
					false, 0) < 0)
		elog(ERROR, "could not comment on schema %s", sh->schema);
	ou_worker_end_xact();
}

/*
 * ou_worker_sql
 *		Run each statement of the text area in its own transaction (a
 *		top-level one runs its own transactions, as VACUUM does).
 */
static void
ou_worker_sql(OuBenchShared *sh, const char *text)
{
	int			i;

	for (i = 0; i < sh->nstmts; i++)
	{
		const char *stmt = ou_worker_text(text, i);

		CHECK_FOR_INTERRUPTS();
		ou_worker_use_path(stmt[0] == OU_PATH_TOPLEVEL ? OU_PATH_SAFE : stmt[0]);
		pgstat_report_activity(STATE_RUNNING, stmt + 1);
		if (stmt[0] == OU_PATH_TOPLEVEL)
		{
			ou_worker_toplevel(stmt + 1);
			continue;
		}
		ou_worker_begin_xact();
		if (SPI_execute(stmt + 1, false, 0) < 0)
			elog(ERROR, "SPI_execute failed: %s", stmt + 1);
		ou_worker_end_xact();
	}
}

/*
 * ou_worker_prepare
 *		Prepare (and keep) the statements of the text area, committing every
 *		OU_PREPARE_PER_XACT statements: preparing one locks its tables until
 *		the end of the transaction, and a run over thousands of tables must
 *		stay within max_locks_per_transaction.
 */
static void
ou_worker_prepare(OuBenchShared *sh, const char *text)
{
	Oid			argtypes[1] = {INT8OID};
	int			i;

	for (i = 0; i < ou_nplans; i++)
		SPI_freeplan(ou_plans[i]);
	if (ou_plans)
		pfree(ou_plans);
	ou_plans = MemoryContextAllocZero(TopMemoryContext,
									  sizeof(SPIPlanPtr) * Max(sh->nstmts, 1));
	ou_nplans = 0;
	if (sh->nstmts > 0)
		ou_plans_path = ou_worker_text(text, 0)[0];

	for (i = 0; i < sh->nstmts; i++)
	{
		const char *stmt = ou_worker_text(text, i);
		SPIPlanPtr	plan;

		CHECK_FOR_INTERRUPTS();
		if (stmt[0] != ou_plans_path)
			elog(ERROR, "benchmark statements prepared together must share a search_path");
		if (i % OU_PREPARE_PER_XACT == 0)
		{
			if (i > 0)
				ou_worker_end_xact();
			ou_worker_use_path(ou_plans_path);
			ou_worker_begin_xact();
		}
		plan = SPI_prepare(stmt + 1, sh->with_count ? 1 : 0, argtypes);
		if (plan == NULL)
			elog(ERROR, "SPI_prepare failed: %s", stmt + 1);
		if (SPI_keepplan(plan) != 0)
			elog(ERROR, "SPI_keepplan failed");
		ou_plans[ou_nplans++] = plan;
	}
	if (sh->nstmts > 0)
		ou_worker_end_xact();
}

/*
 * ou_worker_run
 *		This worker's share of a RUN: loop over the prepared statements,
 *		committing every per_xact executions, and record what the loop cost.
 */
static void
ou_worker_run(OuBenchShared *sh, int me)
{
	OuBenchSlot *slot = &sh->slots[me];
	int64		my_rows = sh->rows / sh->nworkers + (me < sh->rows % sh->nworkers ? 1 : 0);
	int64		done = 0;
	int64		j = (int64) me * Max(ou_nplans, 1) / sh->nworkers;
	WalUsage	wal0 = pgWalUsage;
	BufferUsage buf0 = pgBufferUsage;
	char		activity[256];

	if (ou_nplans == 0)
		elog(ERROR, "benchmark worker has no prepared statements");
	ou_worker_use_path(ou_plans_path);
	snprintf(activity, sizeof(activity), "%s: inserting " INT64_FORMAT " rows", sh->fname, my_rows);
	pgstat_report_activity(STATE_RUNNING, activity);
	slot->running = true;

	while (done < my_rows)
	{
		int			k;

		if (sh->distributed)
			ou_worker_begin_block();
		ou_worker_begin_xact();
		for (k = 0; k < sh->per_xact && done < my_rows; k++)
		{
			int64		n = Min((int64) sh->batch, my_rows - done);
			Datum		arg = Int64GetDatum(n);
			int			ret;

			CHECK_FOR_INTERRUPTS();
			ou_worker_check_abort();
			ret = SPI_execute_plan(ou_plans[j % ou_nplans], sh->with_count ? &arg : NULL,
								   NULL, false, 0);
			if (ret != SPI_OK_INSERT)
				elog(ERROR, "benchmark statement returned %d", ret);
			done += n;
			j++;
			pg_atomic_write_u64(&slot->rows_done, (uint64) done);
		}
		ou_worker_end_xact();
		if (sh->distributed)
			ou_worker_end_block();
	}
	slot->running = false;
	slot->finished = GetCurrentTimestamp();
	memset(&slot->wal, 0, sizeof(slot->wal));
	memset(&slot->buf, 0, sizeof(slot->buf));
	WalUsageAccumDiff(&slot->wal, &pgWalUsage, &wal0);
	BufferUsageAccumDiff(&slot->buf, &pgBufferUsage, &buf0);
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * ou_worker_measure
 *		Leaf pages, average leaf density (ou_index_shape_from(), diag_shape.c:
 *		the rules of pgstattuple's pgstatindex) and size of a scratch B-tree
 *		index, and the same of its leaf pages from block sh->measure_from on.  On an index that only ever had inserts, leaf pages - 1 is
 *		exactly the number of leaf splits (no page was ever deleted).  The
 *		index of a Citus table is measured on its shards (citus.c).
 */
static void
ou_worker_measure(OuBenchShared *sh, int me, const char *index_name)
{
	OuBenchIndexShape shape;

	memset(&shape, 0, sizeof(shape));
	ou_worker_use_path(OU_PATH_SAFE);
	ou_worker_begin_xact();
	if (sh->distributed)
	{
		OuCitusIndexShape cs;
		Oid			idx = RangeVarGetRelid(makeRangeVar(sh->schema, pstrdup(index_name), -1),
										   AccessShareLock, false);

		ou_citus_index_shape(idx, IndexGetRelation(idx, false), sh->extschema, &cs);
		shape.leaf_pages = cs.leaf_pages;
		shape.index_bytes = cs.bytes;
		shape.avg_leaf_density = Max(cs.avg_leaf_density, 0);
		shape.split_leaves = cs.split_leaves;
		shape.trees = cs.shards;
		ou_worker_end_xact();
		sh->slots[me].shape = shape;
		return;
	}
	/* The run's own scratch index: measured directly, whoever runs it. */
	{
		OuIndexShape is;
		Oid			idx = RangeVarGetRelid(makeRangeVar(sh->schema, pstrdup(index_name), -1),
										   AccessShareLock, false);

		ou_index_shape_from(idx, sh->measure_from < 0 ? InvalidBlockNumber :
							(BlockNumber) sh->measure_from, &is);
		shape.leaf_pages = is.leaf_pages;
		shape.avg_leaf_density = Max(is.avg_leaf_density, 0);
		shape.index_bytes = (int64) is.nblocks * BLCKSZ;
		shape.added_leaf_pages = is.added_leaf_pages;
		shape.added_leaf_density = Max(is.added_leaf_density, 0);
	}
	shape.split_leaves = Max(shape.leaf_pages - 1, 0);
	shape.trees = 1;
	ou_worker_end_xact();
	sh->slots[me].shape = shape;
}

/*
 * ou_worker_keep
 *		Rename the run's schema to its kept name (from the text area).
 */
static void
ou_worker_keep(OuBenchShared *sh, const char *kept)
{
	ou_worker_use_path(OU_PATH_SAFE);
	ou_worker_begin_xact();
	if (SPI_execute(psprintf("ALTER SCHEMA %s RENAME TO %s", quote_identifier(sh->schema),
							 quote_identifier(kept)), false, 0) < 0)
		elog(ERROR, "could not rename schema %s", sh->schema);
	ou_worker_end_xact();
}

/*
 * ou_worker_before_exit
 *		before_shmem_exit callback of a worker: leave the condition variable
 *		(which lives in the run's DSM segment) while the segment is still
 *		mapped.  Without it, a worker terminated while waiting for a command
 *		crashes on PG 14/15, whose ProcKill cancels the sleep after the
 *		segment was detached.
 */
static void
ou_worker_before_exit(int code, Datum arg)
{
	ConditionVariableCancelSleep();
}

/*
 * ou_worker_execute
 *		Execute one command.
 */
static void
ou_worker_execute(OuBenchShared *sh, int me, OuBenchCmd cmd, const char *text)
{
	OuBenchSlot *slot = &sh->slots[me];

	switch (cmd)
	{
		case OU_CMD_SETUP:
			if (me == 0)
				ou_worker_setup(sh, slot);
			break;
		case OU_CMD_SQL:
			if (me == 0)
				ou_worker_sql(sh, text);
			break;
		case OU_CMD_PREPARE:
			ou_worker_prepare(sh, text);
			break;
		case OU_CMD_RUN:
			ou_worker_run(sh, me);
			break;
		case OU_CMD_MEASURE:
			if (me == 0)
				ou_worker_measure(sh, me, text);
			break;
		case OU_CMD_VALUES:
			if (me == 0)
				ou_worker_values(sh, slot, text);
			break;
		case OU_CMD_READ:
			if (me == 0)
				ou_worker_read(sh, slot, text);
			break;
		case OU_CMD_DROP:
			if (me == 0)
			{
				ou_worker_use_path(OU_PATH_SAFE);
				/* the run's later drops skip it without a second WARNING */
				slot->count = ou_bench_drop_schema(sh->schema, text, sh->drop_schema,
												   !ou_drop_skipped);
				if (slot->count == OU_DROP_BUSY)
					ou_drop_skipped = true;
			}
			break;
		case OU_CMD_KEEP:
			if (me == 0)
				ou_worker_keep(sh, text);
			break;
		case OU_CMD_EXIT:
		case OU_CMD_NONE:
			break;
	}
}

/*
 * ou_worker_execute_bounded
 *		Execute one command; the engine's own statements (all but the
 *		measured inserts and reads) wait at most sh->lock_timeout_ms for a
 *		lock, and an expired wait fails naming the lock and its holders
 *		(bench_lockwait.c).
 */
static void
ou_worker_execute_bounded(OuBenchShared *sh, int me, OuBenchCmd cmd, const char *text)
{
	bool		bounded = cmd != OU_CMD_RUN && cmd != OU_CMD_READ;

	ou_worker_bound_locks(bounded ? sh->lock_timeout_ms : 0);
	PG_TRY();
	{
		ou_worker_execute(sh, me, cmd, text);
	}
	PG_CATCH();
	{
		if (bounded && geterrcode() == ERRCODE_LOCK_NOT_AVAILABLE)
			ou_lockwait_rethrow(sh->schema, sh->lock_timeout_ms);
		PG_RE_THROW();
	}
	PG_END_TRY();
}

/*
 * ou_worker_attach
 *		Map the run's segment and send this worker's errors, warnings and
 *		notices through its message queue to the leader (before connecting,
 *		so that a failed connection is reported too).  Returns NULL when the
 *		leader is gone already.
 */
static OuBenchShared *
ou_worker_attach(int me, OuChan **chan, const char **text)
{
	dsm_segment *seg;
	shm_toc    *toc;
	OuBenchShared *sh;
	char	   *queues;
	shm_mq	   *mq;

	seg = dsm_attach(DatumGetUInt32(MyBgworkerEntry->bgw_main_arg));
	if (seg == NULL)
		return NULL;
	before_shmem_exit(ou_worker_before_exit, (Datum) 0);
	toc = shm_toc_attach(OU_BENCH_MAGIC, dsm_segment_address(seg));
	if (toc == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("bad magic number in dynamic shared memory segment")));
	queues = shm_toc_lookup(toc, OU_BENCH_KEY_QUEUES, false);
	mq = (shm_mq *) (queues + (Size) me * OU_BENCH_QUEUE_SIZE);
	shm_mq_set_sender(mq, MyProc);
	pq_redirect_to_shm_mq(seg, shm_mq_attach(mq, seg, NULL));

	sh = shm_toc_lookup(toc, OU_BENCH_KEY_SHARED, false);
	*chan = shm_toc_lookup(toc, OU_BENCH_KEY_CHAN, false);
	*text = shm_toc_lookup(toc, OU_BENCH_KEY_TEXT, false);
	ou_worker_set_run(shm_toc_lookup(toc, OU_BENCH_KEY_PATH, false),
					  sh->client_min_messages, *chan);
	return sh;
}

/*
 * ou_bench_worker_main
 *		Entry point of a benchmark worker: connect as the run's role, check
 *		the limits, then execute the leader's commands until EXIT or abort.
 *		An error ends the worker; it reaches the leader through the queue.
 */
void
ou_bench_worker_main(Datum main_arg)
{
	OuBenchShared *sh;
	OuChan	   *chan;
	OuBenchSlot *slot;
	const char *text;
	int			me;
	uint32		seen = 0;
	int			cmd;
	MemoryContext cmdcxt;

	memcpy(&me, MyBgworkerEntry->bgw_extra, sizeof(int));
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();

	sh = ou_worker_attach(me, &chan, &text);
	if (sh == NULL || ou_chan_aborted(chan))
		proc_exit(0);			/* the leader is gone already */
	slot = &sh->slots[me];

	ou_worker_connect(sh->dbid, sh->roleid);
	ou_worker_use_path(OU_PATH_SAFE);
	slot->proc = MyProc;
	pg_write_barrier();
	slot->pid = MyProcPid;
	/* in a transaction: an error names the role and the database */
	StartTransactionCommand();
	ou_bench_check_limits(&sh->limits, sh->roleid, sh->dbid);
	CommitTransactionCommand();
	pgstat_report_activity(STATE_IDLE, NULL);

	cmdcxt = AllocSetContextCreate(TopMemoryContext, "ordered_uuid bench command",
								   ALLOCSET_DEFAULT_SIZES);
	while (ou_chan_next(chan, &seen, &cmd))
	{
		MemoryContext oldcxt;

		MemoryContextReset(cmdcxt);
		oldcxt = MemoryContextSwitchTo(cmdcxt);
		ou_worker_execute_bounded(sh, me, (OuBenchCmd) cmd, text);
		MemoryContextSwitchTo(oldcxt);
		ou_chan_ack(chan, me, seen);
		if (cmd == OU_CMD_EXIT)
			break;
	}
	proc_exit(0);
}
