/*-------------------------------------------------------------------------
 *
 * bench_channel_test.c
 *	  The benchmark engine's command channel (src/bench_channel.c) under
 *	  stress, for the test module: many short runs of background workers
 *	  that take commands while the channel's jitter (OU_CHAN_JITTER, on in
 *	  this module's build only) makes them sleep or yield at random points
 *	  between their reads.
 *
 * ou_test_bench_channel(workers int, commands int, runs int) RETURNS bigint
 * runs "runs" runs of "workers" workers (no database connection), each a
 * random sequence of "commands" commands, every one either for the first
 * worker only or for all workers (as the engine's are), then EXIT.  Every
 * worker records which command it executed under which number.  A run
 * fails unless every worker executed every command meant for it exactly
 * once, under that command's number, executed nothing else, and took EXIT
 * under EXIT's number; and every wait must end (statement_timeout bounds
 * the test).  Returns the number of runs made.
 *
 * Built with -DOU_CHAN_TWO_LOADS as well (by hand, never by the test
 * harness), the channel reads the number and the command in two loads
 * again, and this test fails within a few hundred runs.
 *
 * IDENTIFICATION
 *	  test/module/bench_channel_test.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdlib.h>

#include "fmgr.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "tcop/tcopprot.h"

#include "bench_channel.h"

#define OU_TEST_MAGIC		0x6F755443
#define OU_TEST_MAX_WORKERS	8
#define OU_TEST_MAX_CMDS	64
#define OU_TEST_CMD_ONE		1	/* the first worker only */
#define OU_TEST_CMD_ALL		2	/* every worker */

typedef struct OuTestRun
{
	int			nworkers;
	int			ncmds;
	int			cmd_of_seq[OU_TEST_MAX_CMDS + 2];
	int			execs[OU_TEST_MAX_WORKERS][OU_TEST_MAX_CMDS + 2];
	int			wrong[OU_TEST_MAX_WORKERS]; /* a command under another's
											 * number */
} OuTestRun;

PGDLLEXPORT void ou_test_chan_worker(Datum main_arg);

PG_FUNCTION_INFO_V1(ou_test_bench_channel);

/*
 * ou_test_chan_worker
 *		A worker: take commands until EXIT, recording each.
 */
void
ou_test_chan_worker(Datum main_arg)
{
	dsm_segment *seg;
	shm_toc    *toc;
	OuTestRun  *tr;
	OuChan	   *ch;
	int			me;
	uint32		seen = 0;
	int			cmd;

	memcpy(&me, MyBgworkerEntry->bgw_extra, sizeof(int));
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	srandom((unsigned int) MyProcPid);
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		proc_exit(0);
	toc = shm_toc_attach(OU_TEST_MAGIC, dsm_segment_address(seg));
	if (toc == NULL)
		elog(ERROR, "bad magic number in dynamic shared memory segment");
	tr = shm_toc_lookup(toc, 1, false);
	ch = shm_toc_lookup(toc, 2, false);
	while (ou_chan_next(ch, &seen, &cmd))
	{
		if (seen > (uint32) tr->ncmds + 1)
			elog(ERROR, "command number %u out of range", seen);
		if (tr->cmd_of_seq[seen] != cmd)
			tr->wrong[me]++;
		if (cmd == OU_CHAN_EXIT || cmd == OU_TEST_CMD_ALL ||
			(cmd == OU_TEST_CMD_ONE && me == 0))
			tr->execs[me][seen]++;
		ou_chan_ack(ch, me, seen);
		if (cmd == OU_CHAN_EXIT)
			break;
	}
	ConditionVariableCancelSleep();
	dsm_detach(seg);
	proc_exit(0);
}

/*
 * ou_test_chan_gone
 *		A worker stopped before EXIT (OuChanGoneFn).
 */
static void
ou_test_chan_gone(void *arg, int i)
{
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg("channel test: worker %d stopped before EXIT", i + 1)));
}

/*
 * ou_test_chan_check
 *		Every worker executed every command meant for it exactly once,
 *		under its number, and nothing else.
 */
static void
ou_test_chan_check(OuTestRun *tr, int run)
{
	int			w;
	int			s;

	for (w = 0; w < tr->nworkers; w++)
	{
		if (tr->wrong[w] != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("channel test run %d: worker %d took %d commands under another command's number",
							run, w + 1, tr->wrong[w])));
		for (s = 1; s <= tr->ncmds + 1; s++)
		{
			int			cmd = tr->cmd_of_seq[s];
			int			want = (cmd == OU_CHAN_EXIT || cmd == OU_TEST_CMD_ALL ||
								(cmd == OU_TEST_CMD_ONE && w == 0)) ? 1 : 0;

			if (tr->execs[w][s] != want)
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("channel test run %d: worker %d executed command %d (%s) %d times, not %d",
								run, w + 1, s,
								cmd == OU_CHAN_EXIT ? "EXIT" : cmd == OU_TEST_CMD_ALL ? "all" : "first only",
								tr->execs[w][s], want)));
		}
	}
}

/*
 * ou_test_chan_run
 *		One run: start the workers, send the commands, EXIT, check.
 */
static void
ou_test_chan_run(int nworkers, int ncmds, int run)
{
	shm_toc_estimator e;
	Size		segsize;
	dsm_segment *seg;
	shm_toc    *toc;
	OuTestRun  *tr;
	OuChan	   *ch;
	BackgroundWorkerHandle *handles[OU_TEST_MAX_WORKERS];
	int			i;

	shm_toc_initialize_estimator(&e);
	shm_toc_estimate_chunk(&e, sizeof(OuTestRun));
	shm_toc_estimate_chunk(&e, ou_chan_size(nworkers));
	shm_toc_estimate_keys(&e, 2);
	segsize = shm_toc_estimate(&e);
	seg = dsm_create(segsize, 0);
	toc = shm_toc_create(OU_TEST_MAGIC, dsm_segment_address(seg), segsize);
	tr = shm_toc_allocate(toc, sizeof(OuTestRun));
	memset(tr, 0, sizeof(OuTestRun));
	tr->nworkers = nworkers;
	tr->ncmds = ncmds;
	for (i = 1; i <= ncmds; i++)
		tr->cmd_of_seq[i] = random() % 3 == 0 ? OU_TEST_CMD_ALL : OU_TEST_CMD_ONE;
	tr->cmd_of_seq[ncmds + 1] = OU_CHAN_EXIT;
	shm_toc_insert(toc, 1, tr);
	ch = shm_toc_allocate(toc, ou_chan_size(nworkers));
	ou_chan_init(ch, nworkers);
	shm_toc_insert(toc, 2, ch);

	for (i = 0; i < nworkers; i++)
	{
		BackgroundWorker w;

		memset(&w, 0, sizeof(w));
		w.bgw_flags = BGWORKER_SHMEM_ACCESS;
		w.bgw_start_time = BgWorkerStart_ConsistentState;
		w.bgw_restart_time = BGW_NEVER_RESTART;
		strlcpy(w.bgw_library_name, "ordered_uuid_test", sizeof(w.bgw_library_name));
		strlcpy(w.bgw_function_name, "ou_test_chan_worker", sizeof(w.bgw_function_name));
		snprintf(w.bgw_name, sizeof(w.bgw_name), "ordered_uuid_test channel worker %d", i + 1);
		snprintf(w.bgw_type, sizeof(w.bgw_type), "ordered_uuid_test channel worker");
		w.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(seg));
		w.bgw_notify_pid = MyProcPid;
		memcpy(w.bgw_extra, &i, sizeof(int));
		if (!RegisterDynamicBackgroundWorker(&w, &handles[i]))
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("channel test: no free background worker slot")));
	}

	for (i = 1; i <= ncmds + 1; i++)
	{
		int			cmd = tr->cmd_of_seq[i];

		if (ou_chan_publish(ch, cmd) != (uint32) i)
			elog(ERROR, "channel test: command %d published under another number", i);
		ou_chan_wait(ch, handles, cmd == OU_TEST_CMD_ONE ? 0 : -1, NULL,
					 ou_test_chan_gone, NULL, 100);
	}
	if (!ou_chan_wait_stopped(handles, nworkers, 10000))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("channel test run %d: workers did not exit", run)));
	ou_test_chan_check(tr, run);
	dsm_detach(seg);
}

/*
 * ou_test_bench_channel(workers int, commands int, runs int) RETURNS bigint
 */
Datum
ou_test_bench_channel(PG_FUNCTION_ARGS)
{
	int32		nworkers = PG_GETARG_INT32(0);
	int32		ncmds = PG_GETARG_INT32(1);
	int32		runs = PG_GETARG_INT32(2);
	int			run;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may run the channel test")));
	if (nworkers < 1 || nworkers > OU_TEST_MAX_WORKERS || ncmds < 1 ||
		ncmds > OU_TEST_MAX_CMDS || runs < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("channel test: workers must be 1 to %d, commands 1 to %d, runs at least 1",
						OU_TEST_MAX_WORKERS, OU_TEST_MAX_CMDS)));
	srandom((unsigned int) MyProcPid);
	for (run = 1; run <= runs; run++)
	{
		CHECK_FOR_INTERRUPTS();
		ou_test_chan_run(nworkers, ncmds, run);
	}
	PG_RETURN_INT64(runs);
}
