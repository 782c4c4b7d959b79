/*-------------------------------------------------------------------------
 *
 * bench_channel.h
 *	  The command channel between a benchmark's leader and its workers:
 *	  the leader publishes one command at a time, each worker takes it as
 *	  one consistent (sequence number, command) snapshot and acknowledges
 *	  it, and every wait on either side ends when its peer is gone.
 *
 * The channel lives in the run's DSM segment (bench_protocol.h).  It knows
 * nothing of what a command means: the engine (bench_leader.c,
 * bench_worker.c) gives commands their numbers and decides which workers
 * take part in each.  It depends on PostgreSQL alone, so the test module
 * (test/module) compiles its own copy of it with OU_CHAN_JITTER, which makes
 * the workers sleep at random points between their reads, and drives it
 * with many short runs (ou_test_bench_channel).
 *
 * IDENTIFICATION
 *	  src/bench_channel.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef OU_BENCH_CHANNEL_H
#define OU_BENCH_CHANNEL_H

#include "port/atomics.h"
#include "postmaster/bgworker.h"
#include "storage/condition_variable.h"
#include "storage/spin.h"

/* the command that tells every worker to exit; 0 means "no command yet" */
#define OU_CHAN_EXIT			(-1)

typedef struct OuChan
{
	slock_t		mutex;			/* protects seq and cmd */
	uint32		seq;			/* number of the current command */
	int			cmd;			/* the current command */
	pg_atomic_uint32 abort;		/* set when the leader gives up */
	int			leader_pid;
	struct PGPROC *leader;
	ConditionVariable cv;		/* broadcast when a command is published */
	int			nworkers;
	pg_atomic_uint32 done_seq[FLEXIBLE_ARRAY_MEMBER];	/* per worker: last
														 * command done */
} OuChan;

/*
 * Called by ou_chan_wait on every round (may raise the error a worker sent,
 * sample, report progress), and when worker i has stopped while it was
 * still needed (must raise an error saying so).
 */
typedef void (*OuChanPollFn) (void *arg);
typedef void (*OuChanGoneFn) (void *arg, int i);

extern Size ou_chan_size(int nworkers);
extern void ou_chan_init(OuChan *ch, int nworkers);

/* the leader's side */
extern uint32 ou_chan_publish(OuChan *ch, int cmd);
extern void ou_chan_wait(OuChan *ch, BackgroundWorkerHandle **handles, int only_worker,
						 OuChanPollFn poll, OuChanGoneFn gone, void *arg, int poll_ms);
extern void ou_chan_abort(OuChan *ch);
extern bool ou_chan_wait_stopped(BackgroundWorkerHandle **handles, int n, int timeout_ms);

/* a worker's side */
extern bool ou_chan_next(OuChan *ch, uint32 *seen, int *cmd);
extern void ou_chan_ack(OuChan *ch, int me, uint32 seq);
extern bool ou_chan_aborted(OuChan *ch);

#endif							/* OU_BENCH_CHANNEL_H */
