/*-------------------------------------------------------------------------
 *
 * bench_protocol.h
 *	  The shared memory of a benchmark run and the commands the leader
 *	  sends its workers: private to the engine (bench_leader.c,
 *	  bench_command.c, bench_worker.c, bench_read.c, bench_cleanup.c,
 *	  bench_args.c, bench_sql.c, bench_proc.c).
 *
 * One run = one DSM segment holding an OuBenchShared header (a slot per
 * worker), the command channel (bench_channel.h), one message queue per
 * worker, the caller's search_path, and a text area for the statements of
 * the current command.  A worker sends its errors, warnings and notices
 * through its queue, as a parallel worker does (pq_redirect_to_shm_mq); the
 * leader relays them to its client with every field intact (ThrowErrorData),
 * adding the worker and the phase to the context.  Each statement in the text area is NUL-terminated
 * and starts with one byte saying under which search_path it runs:
 * OU_PATH_SAFE (our own SQL: pg_catalog, pg_temp) or OU_PATH_CALLER (a
 * statement holding a caller's generator expression: pg_catalog, the
 * extension's schema, then the caller's search_path).  OU_PATH_TOPLEVEL is
 * our own SQL too, run as a top-level utility statement instead of through
 * SPI: for VACUUM, which refuses to run inside a function.  Who writes what
 * in the segment, and when: the top of bench_leader.c.
 *
 * IDENTIFICATION
 *	  src/bench_protocol.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef OU_BENCH_PROTOCOL_H
#define OU_BENCH_PROTOCOL_H

#include "bench.h"
#include "bench_channel.h"

#include "executor/instrument.h"
#include "port/atomics.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/shm_mq.h"
#include "storage/lock.h"
#include "storage/proc.h"

#define OU_BENCH_MAGIC			0x6F754232
#define OU_BENCH_KEY_SHARED		1
#define OU_BENCH_KEY_PATH		2
#define OU_BENCH_KEY_TEXT		3
#define OU_BENCH_KEY_CHAN		4
#define OU_BENCH_KEY_QUEUES		5

/* each worker's message queue (errors, warnings, notices), as parallel.c's */
#define OU_BENCH_QUEUE_SIZE		16384

/* the background-worker type of every benchmark and clean-up worker */
#define OU_BENCH_WORKER_TYPE	"ordered_uuid bench worker"

/* the search_path of all SQL the extension writes itself */
#define OU_SAFE_SEARCH_PATH		"pg_catalog, pg_temp"

/* first byte of each statement in the text area */
#define OU_PATH_SAFE			's'
#define OU_PATH_CALLER			'c'
#define OU_PATH_TOPLEVEL		't'

/* statements prepared per transaction (each keeps its tables locked) */
#define OU_PREPARE_PER_XACT		100
/* relations dropped per transaction */
#define OU_DROP_PER_XACT		200

typedef enum OuBenchCmd
{
	OU_CMD_NONE = 0,
	OU_CMD_SETUP,				/* worker 1: drop dead runs, create the run's schema */
	OU_CMD_SQL,					/* worker 1: statements, a transaction each */
	OU_CMD_PREPARE,				/* every worker: prepare statements */
	OU_CMD_RUN,					/* every worker: its share of the rows */
	OU_CMD_MEASURE,				/* worker 1: index_shape() of an index */
	OU_CMD_VALUES,				/* worker 1: the int8 columns of a one-row query */
	OU_CMD_READ,				/* worker 1: time and count a read statement */
	OU_CMD_DROP,				/* worker 1: drop relations by name prefix */
	OU_CMD_KEEP,				/* worker 1: rename the run's schema to its kept name */
	OU_CMD_EXIT = OU_CHAN_EXIT	/* every worker: exit */
} OuBenchCmd;

/*
 * The limits a run's workers check once connected (bench_args.c), as the
 * leader found them.
 */
typedef struct OuBenchLimits
{
	bool		is_super;		/* exempt from the connection limits */
	int			rolconnlimit;
	int			datconnlimit;
	int			max_workers;	/* ordered_uuid.bench_max_workers, resolved */
} OuBenchLimits;

/* one worker's slot in shared memory */
typedef struct OuBenchSlot
{
	pg_atomic_uint64 rows_done; /* rows inserted by the current RUN */
	int			pid;			/* set once connected */
	PGPROC	   *proc;			/* its PGPROC, set once connected */
	bool		running;		/* inside the loop of a RUN */
	TimestampTz finished;		/* end of its last RUN */
	WalUsage	wal;			/* WAL written by its last RUN */
	BufferUsage buf;			/* buffers used by its last RUN */
	OuBenchIndexShape shape;	/* result of its last MEASURE */
	int64		values[OU_BENCH_MAX_VALUES];	/* result of its last VALUES */
	OuBenchRead read;			/* result of its last READ */
	int64		count;			/* SETUP: dead runs' schemas dropped; DROP: an
								 * OuDropResult */
} OuBenchSlot;

/* the shared header of a run */
typedef struct OuBenchShared
{
	Oid			dbid;
	Oid			roleid;
	PGPROC	   *leader;
	int			nworkers;
	uint64		run_id;			/* the random id in the schema's name */
	OuBenchLimits limits;
	int			lock_timeout_ms;	/* ordered_uuid.bench_lock_timeout, the
									 * leader's */
	char		client_min_messages[32];	/* the leader's */
	/* the parameters of the current command */
	int			nstmts;			/* statements in the text area */
	bool		with_count;		/* PREPARE: statements take $1 int8 = rows */
	int64		rows;			/* RUN: rows over all workers */
	int			batch;			/* RUN: at most this many rows per execution */
	int			per_xact;		/* RUN: executions per transaction */
	bool		drop_schema;	/* DROP: the schema too, when it is empty then */
	int64		measure_from;	/* MEASURE: also count the leaf pages from this
								 * block on apart (-1: none) */
	bool		distributed;	/* the scratch tables are Citus tables: MEASURE
								 * adds up their shards (citus.c), RUN makes
								 * each transaction a transaction block */
	int			nvalues;		/* VALUES: columns wanted */
	int64		read_keys;		/* READ: keys 0 .. read_keys - 1 exist */
	int64		read_sample;	/* READ: keys read per pass, evenly spaced */
	int			read_ms;		/* READ: measure passes for at least this long */
	TimestampTz go_time;		/* RUN: when the command was broadcast */
	char		schema[NAMEDATALEN];	/* the run's scratch schema */
	char		extschema[NAMEDATALEN]; /* the extension's schema */
	char		fname[NAMEDATALEN];
	OuBenchSlot slots[FLEXIBLE_ARRAY_MEMBER];
} OuBenchShared;

/*
 * The lock a live run's leader holds for the whole run (session level,
 * ExclusiveLock): an advisory lock tag with a field4 that the SQL advisory
 * lock functions never use (they use 1 and 2), so no role can take it.
 * Whoever gets it conditionally knows the run's leader is gone.
 */
#define OU_RUN_LOCK_FIELD4		0x6F75
#define OU_SET_RUN_LOCKTAG(tag, dbid, run_id) \
	SET_LOCKTAG_ADVISORY((tag), (dbid), (uint32) ((run_id) >> 32), \
						 (uint32) (run_id), OU_RUN_LOCK_FIELD4)

/* what ou_bench_drop_schema did */
typedef enum OuDropResult
{
	OU_DROP_DONE = 0,			/* everything asked for is gone */
	OU_DROP_FOREIGN,			/* something it did not create stays */
	OU_DROP_BUSY				/* a lock could not be had in time: skipped */
} OuDropResult;

/* bench_proc.c: plumbing, below everything else of the engine */
extern void ou_bench_init_bgworker(BackgroundWorker *w, const char *function_name);
extern int	ou_bench_count_workers(Oid roleid, Oid dbid);
extern bool ou_bench_cap_lock(int wait_ms, const char *activity);
extern void ou_bench_cap_unlock(void);
extern bool ou_bench_wait_connected(BackgroundWorkerHandle **handles, int n, int timeout_ms);
extern void ou_worker_connect(Oid dbid, Oid roleid);
extern void ou_worker_begin_xact(void);
extern void ou_worker_end_xact(void);
extern void ou_worker_set_run(const char *caller_path, const char *caller_messages,
							  OuChan *chan);
extern void ou_worker_check_abort(void);
extern void ou_worker_use_path(char which);
extern const char *ou_worker_text(const char *text, int i);

/* bench_read.c */
extern void ou_worker_values(OuBenchShared *sh, OuBenchSlot *slot, const char *query);
extern void ou_worker_read(OuBenchShared *sh, OuBenchSlot *slot, const char *text);
extern void ou_worker_toplevel(const char *sql);

/* the leader's view of a run (bench_leader.c); lives in TopMemoryContext */
struct OuBenchRun
{
	dsm_segment *seg;
	OuBenchShared *sh;
	OuChan	   *chan;
	shm_mq_handle **queues;		/* per worker; NULL once it detached */
	MemoryContext msgcxt;		/* a relayed message, reset after each */
	char	   *text;
	Size		text_cap;
	int			nworkers;
	BackgroundWorkerHandle **handles;
	bool		done;			/* finished or cleaned up: nothing left to do */
	bool		created;		/* SETUP was sent: the schema may exist */
	bool		locked;			/* holds the run lock */
	LOCKTAG		tag;			/* the run lock */
	char		fname[NAMEDATALEN];
	char		phase[256];
	TimestampTz phase_started;	/* when the phase was set */
	TimestampTz last_notice;	/* the last progress NOTICE, or phase_started */
	TimestampTz last_deadlock_check;
	/* what the current wait reports and samples */
	int64		wait_rows;
	OuBenchSampleFn wait_sample;
	void	   *wait_arg;
};

/* bench_leader.c: sending a command and waiting for it */
extern void ou_bench_send(OuBenchRun *run, OuBenchCmd cmd, int only_worker,
						  int64 rows_total, OuBenchSampleFn sample,
						  void *sample_arg, int sample_ms);
extern void ou_bench_set_text(OuBenchRun *run, List *stmts);

/* bench_lockwait.c: bounded lock waits of the engine's own SQL */
extern char *ou_lockwait_holders(const char *schema);
extern void ou_lockwait_rethrow(const char *schema, int timeout_ms);
extern bool ou_lockwait_reaches_me(int pid, const int *skip, int nskip, int *via);
extern void ou_worker_bound_locks(int timeout_ms);

/* bench_args.c */
extern int	ou_bench_lock_timeout(void);
extern bool ou_bench_progress_on(void);
extern OuBenchLimits ou_bench_check_role(int nworkers, bool need_create);
extern void ou_bench_check_limits(const OuBenchLimits *limits, Oid roleid, Oid dbid);

/* bench_cleanup.c */
extern void ou_bench_launch_cleanup(OuBenchShared *sh, bool wait);
extern OuDropResult ou_bench_drop_schema(const char *schema, const char *prefix, bool whole,
										 bool warn_busy);
extern int64 ou_bench_drop_dead_runs(bool any_owner);
extern bool ou_bench_run_id_from_schema(const char *schema, uint64 *run_id);

#endif							/* OU_BENCH_PROTOCOL_H */
