/*-------------------------------------------------------------------------
 *
 * bench_channel.c
 *	  The command channel between a benchmark's leader and its workers
 *	  (bench_channel.h).
 *
 * Note about locking issues:
 *
 * - mutex, a spinlock, protects seq and cmd.  The leader publishes a
 *   command and its new number together under it; a worker reads both
 *   together under it, so it can never take one command under another's
 *   number (a worker that read the number, was preempted and then read the
 *   next command would run it twice, or take EXIT for a command it had
 *   already done).  The spinlock also orders the command's parameters,
 *   written before publishing, before any worker's reads of them.  Nothing
 *   else is taken under it.  A spinlock cannot be asserted held: the two
 *   functions that touch seq and cmd take it themselves.
 * - done_seq[i], an atomic, is written by worker i alone, after a write
 *   barrier: what it wrote for the leader before is seen by the leader,
 *   which reads the slot after a read barrier once done_seq[i] is the
 *   command's number.
 * - abort, an atomic, is set by the leader alone; workers read it.
 * - leader_pid, leader and nworkers are set by ou_chan_init before any
 *   worker starts, and never change.
 * - Who: publishing, waiting and aborting are the leader's, taking and
 *   acknowledging a worker's (asserted).
 *
 * Lifetime: the channel lives in the run's DSM segment (bench_leader.c),
 * which stays until the last of its processes detaches: the leader, which
 * creates it before it starts the workers, and each worker, until it exits.
 *
 * Every command is acknowledged by every worker (also by those that take
 * no part in it) with its own number; the leader waits only for those that
 * take part.  A worker that misses a command it takes no part in (the next
 * one was published before it woke) loses nothing: the leader never
 * publishes a command before every worker that takes part in the previous
 * one has acknowledged it.
 *
 * Ends of waits: the leader looks at every worker's state on every round,
 * in every phase: one that stopped before acknowledging EXIT is reported
 * through the caller's "gone" callback (an error); one that stopped during
 * EXIT is simply done.  A worker waiting for a command checks, at least
 * once a second, that its leader's process is still there, and fails
 * otherwise.  Both sides process interrupts while they wait.
 *
 * OU_CHAN_JITTER (defined only by the test module's build) makes workers
 * sleep or yield at random points between their reads; OU_CHAN_TWO_LOADS
 * (never defined by any build; for showing that the stress test catches
 * it) brings back the unprotected read of the number and then the command.
 *
 * IDENTIFICATION
 *	  src/bench_channel.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdlib.h>

#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/timestamp.h"

#include "bench_channel.h"

/* how often a waiting worker checks that its leader is still there */
#define OU_CHAN_LEADER_CHECK_MS	1000

#ifdef OU_CHAN_JITTER
/*
 * ou_chan_jitter
 *		Test builds only: now and then sleep up to 300 microseconds, or
 *		yield, to widen the windows between a worker's reads.
 */
static void
ou_chan_jitter(void)
{
	long		r = random();

	if (r % 3 == 0)
		pg_usleep((r >> 4) % 300);
	else if (r % 3 == 1)
		pg_usleep(0);
}
#define OU_CHAN_JITTER_POINT() ou_chan_jitter()
#else
#define OU_CHAN_JITTER_POINT() ((void) 0)
#endif

/*
 * ou_chan_size
 *		Bytes the channel of nworkers workers takes.
 */
Size
ou_chan_size(int nworkers)
{
	return add_size(offsetof(OuChan, done_seq),
					mul_size(sizeof(pg_atomic_uint32), nworkers));
}

/*
 * ou_chan_init
 *		Set up a channel in shared memory, with the current process as its
 *		leader.
 */
void
ou_chan_init(OuChan *ch, int nworkers)
{
	int			i;

	memset(ch, 0, ou_chan_size(nworkers));
	SpinLockInit(&ch->mutex);
	ch->seq = 0;
	ch->cmd = 0;
	pg_atomic_init_u32(&ch->abort, 0);
	ch->leader_pid = MyProcPid;
	ch->leader = MyProc;
	ConditionVariableInit(&ch->cv);
	ch->nworkers = nworkers;
	for (i = 0; i < nworkers; i++)
		pg_atomic_init_u32(&ch->done_seq[i], 0);
}

/*
 * ou_chan_publish
 *		Publish command cmd (its parameters already written) and wake the
 *		workers; returns its sequence number.
 */
uint32
ou_chan_publish(OuChan *ch, int cmd)
{
	uint32		seq;

	Assert(ch->leader_pid == MyProcPid);
	SpinLockAcquire(&ch->mutex);
	ch->cmd = cmd;
	seq = ++ch->seq;
	SpinLockRelease(&ch->mutex);
	ConditionVariableBroadcast(&ch->cv);
	return seq;
}

/*
 * ou_chan_current
 *		The current command and its number, read together.
 */
static void
ou_chan_current(OuChan *ch, uint32 *seq, int *cmd)
{
#ifdef OU_CHAN_TWO_LOADS
	*seq = ((volatile OuChan *) ch)->seq;
	pg_read_barrier();
	OU_CHAN_JITTER_POINT();
	*cmd = ((volatile OuChan *) ch)->cmd;
#else
	SpinLockAcquire(&ch->mutex);
	*seq = ch->seq;
	*cmd = ch->cmd;
	SpinLockRelease(&ch->mutex);
#endif
}

/*
 * ou_chan_wait
 *		Wait until the workers that take part in the current command (all,
 *		or only only_worker) have acknowledged it.  poll (may be NULL) is
 *		called on every round, at least every poll_ms; gone is called, and
 *		must raise an error, for a worker that stopped before it
 *		acknowledged EXIT.  Interrupts are processed.
 */
void
ou_chan_wait(OuChan *ch, BackgroundWorkerHandle **handles, int only_worker,
			 OuChanPollFn poll, OuChanGoneFn gone, void *arg, int poll_ms)
{
	uint32		seq;
	int			cmd;

	Assert(ch->leader_pid == MyProcPid);
	ou_chan_current(ch, &seq, &cmd);
	for (;;)
	{
		bool		all_done = true;
		int			i;

		CHECK_FOR_INTERRUPTS();
		if (poll)
			poll(arg);
		for (i = 0; i < ch->nworkers; i++)
		{
			pid_t		pid;
			bool		done;

			done = pg_atomic_read_u32(&ch->done_seq[i]) == seq;
			if (handles[i] == NULL ||
				GetBackgroundWorkerPid(handles[i], &pid) == BGWH_STOPPED)
			{
				if (cmd == OU_CHAN_EXIT)
					continue;	/* gone while exiting: nothing is lost */
				/* its last messages may say why */
				if (poll)
					poll(arg);
				gone(arg, i);
				elog(ERROR, "benchmark worker %d stopped", i + 1);
			}
			if (!done && (only_worker < 0 || i == only_worker))
				all_done = false;
		}
		if (all_done)
		{
			/* what the workers wrote before their acknowledgement */
			pg_read_barrier();
			return;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 poll_ms, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * ou_chan_abort
 *		Tell the workers that the leader gives up.
 */
void
ou_chan_abort(OuChan *ch)
{
	Assert(ch->leader_pid == MyProcPid);
	pg_atomic_write_u32(&ch->abort, 1);
	ConditionVariableBroadcast(&ch->cv);
}

/*
 * ou_chan_aborted
 *		Whether the leader gave up (workers check it inside long commands).
 */
bool
ou_chan_aborted(OuChan *ch)
{
	return pg_atomic_read_u32(&ch->abort) != 0;
}

/*
 * ou_chan_wait_stopped
 *		Wait, without processing interrupts and at most timeout_ms, until
 *		every worker of handles[0..n) (NULL entries skipped) has exited;
 *		returns whether they all did.  Used on the way out, also after an
 *		error, and for the clean-up worker.
 */
bool
ou_chan_wait_stopped(BackgroundWorkerHandle **handles, int n, int timeout_ms)
{
	TimestampTz start = GetCurrentTimestamp();

	for (;;)
	{
		bool		all = true;
		int			i;

		for (i = 0; i < n; i++)
		{
			pid_t		pid;

			if (handles[i] &&
				GetBackgroundWorkerPid(handles[i], &pid) != BGWH_STOPPED)
				all = false;
		}
		if (all)
			return true;
		if (TimestampDifferenceExceeds(start, GetCurrentTimestamp(), timeout_ms))
			return false;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 20, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * ou_chan_next
 *		A worker waits for the next command: returns true with its number
 *		(in *seen, which holds the last one taken) and the command, or false
 *		when the leader gave up.  Fails when the leader's process is gone.
 */
bool
ou_chan_next(OuChan *ch, uint32 *seen, int *cmd)
{
	Assert(ch->leader_pid != MyProcPid);
	for (;;)
	{
		uint32		seq;
		int			c;

		CHECK_FOR_INTERRUPTS();
		OU_CHAN_JITTER_POINT();
		ou_chan_current(ch, &seq, &c);
		OU_CHAN_JITTER_POINT();
		if (ou_chan_aborted(ch))
			break;
		if (seq != *seen)
		{
			ConditionVariableCancelSleep();
			*seen = seq;
			*cmd = c;
			return true;
		}
		if (BackendPidGetProc(ch->leader_pid) == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("benchmark leader (PID %d) is gone", ch->leader_pid)));
		(void) ConditionVariableTimedSleep(&ch->cv, OU_CHAN_LEADER_CHECK_MS,
										   PG_WAIT_EXTENSION);
	}
	ConditionVariableCancelSleep();
	return false;
}

/*
 * ou_chan_ack
 *		Worker me has done command seq (whatever it wrote for the leader is
 *		written before).
 */
void
ou_chan_ack(OuChan *ch, int me, uint32 seq)
{
	Assert(me >= 0 && me < ch->nworkers);
	OU_CHAN_JITTER_POINT();
	pg_write_barrier();
	pg_atomic_write_u32(&ch->done_seq[me], seq);
	SetLatch(&ch->leader->procLatch);
}
