/*-------------------------------------------------------------------------
 *
 * bench.h
 *	  The benchmark engine as the benchmark functions (bench_insert.c,
 *	  bench_load.c, bench_locality.c) use it: a run of dynamic background
 *	  workers connected as the calling role, driven by the leader
 *	  (bench_leader.c; the workers' side in bench_worker.c and
 *	  bench_read.c), and the wait-event profile the leader samples while it
 *	  waits (bench_sample.c); the order and the spread of repeated runs
 *	  (bench_stats.c).
 *
 * Every run gets a scratch schema of its own, created by its first worker
 * as the calling role (ordered_uuid_run_<random hex>): only that role can
 * create objects in it, its name cannot be guessed beforehand, and it is
 * not part of the extension, so it never blocks DROP EXTENSION.  The run's
 * tables do not depend on the extension either (generator expressions are
 * in the INSERT statements, not in column defaults).  A schema kept with
 * keep => true is renamed ordered_uuid_kept_<other random hex>: a name
 * nobody sees before the rename, so nobody can take it first.  A run whose leader is
 * gone (crash, kill) leaves ordered_uuid_run_<hex>: the next benchmark in
 * that database, or bench_cleanup(), drops it.
 *
 * IDENTIFICATION
 *	  src/bench.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef OU_BENCH_H
#define OU_BENCH_H

#include "fmgr.h"
#include "nodes/pg_list.h"
#include "storage/lock.h"
#include "utils/wait_event.h"

#define OU_BENCH_RUN_PREFIX		"ordered_uuid_run_"
#define OU_BENCH_KEPT_PREFIX	"ordered_uuid_kept_"

/* longest generator expression bench_insert accepts, in bytes */
#define OU_MAX_GENERATOR_LEN	8192

struct PGPROC;
typedef struct OuBenchRun OuBenchRun;

/* called by the leader between waits while a RUN command executes */
typedef void (*OuBenchSampleFn) (OuBenchRun *run, void *arg);

/* what one RUN command measured, summed over the workers */
typedef struct OuBenchResult
{
	int64		rows;
	double		seconds;
	int64		wal_records;
	int64		wal_fpi;
	uint64		wal_bytes;
	int64		blks_dirtied;
	int64		blks_written;
} OuBenchResult;

/* what a MEASURE command found in a B-tree index */
typedef struct OuBenchIndexShape
{
	int64		leaf_pages;
	int64		index_bytes;
	double		avg_leaf_density;	/* percent */
	int64		split_leaves;	/* leaf pages beyond each B-tree's first: the
								 * leaf splits ever made, if insert-only */
	int64		trees;			/* B-trees measured (shards when distributed) */
	/* ou_bench_measure_from: the leaf pages from a block on (local only) */
	int64		added_leaf_pages;
	double		added_leaf_density; /* percent; 0: none */
} OuBenchIndexShape;

/* most int8 values one VALUES command returns, and counters one READ compares */
#define OU_BENCH_MAX_VALUES		8

/* what a READ command measured (bench_read.c) */
typedef struct OuBenchRead
{
	int64		reads;			/* executions of the read statement measured */
	int64		rows;			/* sum of its first column over them */
	int64		counters[OU_BENCH_MAX_VALUES];	/* growth of the counter query's columns */
	int			ncounters;
	int64		buffers;		/* shared buffers hit or read by the reads */
	double		seconds;		/* time of the measured reads */
	char		scan[NAMEDATALEN];	/* scan node of the read statement's plan */
} OuBenchRead;

/* bench_sql.c: the texts of a run */
extern char *ou_bench_new_schema(uint64 *run_id, char **kept);
extern char *ou_bench_stmt(bool caller_path, const char *fmt,...) pg_attribute_printf(2, 3);
extern char *ou_bench_stmt_toplevel(const char *fmt,...) pg_attribute_printf(1, 2);
extern Size ou_bench_text_size(List *stmts);
extern char *ou_bench_qualified(const char *schema, const char *name);

/* bench_args.c: the benchmarks' settings, arguments and result type */
extern void ou_bench_define_gucs(void);
extern int64 ou_bench_arg_int(FunctionCallInfo fcinfo, int argno, const char *name,
							  int64 min, int64 max);
extern bool ou_bench_arg_bool(FunctionCallInfo fcinfo, int argno, const char *name);
extern int	ou_bench_materialize(FunctionCallInfo fcinfo, const char *fname, int natts,
								 int old_natts);

/* bench_leader.c: a run */
extern OuBenchRun *ou_bench_start(const char *fname, Oid fn_oid, int nworkers,
								  const char *schema, uint64 run_id, Size text_cap);
extern void ou_bench_phase(OuBenchRun *run, const char *fmt,...) pg_attribute_printf(2, 3);
extern void ou_bench_sql(OuBenchRun *run, List *stmts);
extern void ou_bench_prepare(OuBenchRun *run, List *stmts, bool with_count);
extern OuBenchResult ou_bench_exec(OuBenchRun *run, int64 rows, int batch, int per_xact,
								   OuBenchSampleFn sample, void *sample_arg, int sample_ms);
extern OuBenchIndexShape ou_bench_measure(OuBenchRun *run, const char *index_name);
extern OuBenchIndexShape ou_bench_measure_from(OuBenchRun *run, const char *index_name,
											   int64 from_block);
extern void ou_bench_set_distributed(OuBenchRun *run);
extern void ou_bench_values(OuBenchRun *run, const char *query, int64 *values, int nvalues);
extern OuBenchRead ou_bench_read(OuBenchRun *run, const char *setup, const char *counters,
								 const char *query, int64 nkeys, int64 sample, int min_ms);
extern void ou_bench_drop(OuBenchRun *run, const char *prefix);
extern int64 ou_bench_cleanup_dead(OuBenchRun *run);
extern void ou_bench_finish(OuBenchRun *run, const char *kept);
extern void ou_bench_abort(OuBenchRun *run);
extern int	ou_bench_running_procs(OuBenchRun *run, struct PGPROC **procs, int *pids,
								   int max);
extern void ou_bench_checkpoint(void);

/* bench_sample.c: the wait-event profile of a run, sampled by the leader */
#define OU_SAMPLE_MS		10	/* sampling period, milliseconds */
#define OU_MAX_EVENTS		64	/* distinct wait events kept; more are "other" */
#define OU_MAX_SAMPLED		1024	/* most workers sampled */

typedef struct OuWaitTally
{
	uint32		wait_event_info;	/* 0 = on CPU */
	int64		samples;
	double		seconds;
} OuWaitTally;

/* what the leader's sampling found */
typedef struct OuSampler
{
	int			nevents;
	OuWaitTally events[OU_MAX_EVENTS + 1];	/* last one: "other" */
	int64		samples;
	double		seconds;
	int64		extend_waits;	/* distinct (pid, wait start) episodes */
	double		extend_seconds;
	TimestampTz last;
	int			last_pid[OU_MAX_SAMPLED];	/* per worker slot order */
	TimestampTz last_start[OU_MAX_SAMPLED];
	bool		last_extend[OU_MAX_SAMPLED];
} OuSampler;

extern OuSampler *ou_sampler_create(void);
extern void ou_sampler_sample(OuBenchRun *run, void *arg);
extern char *ou_sampler_top(OuSampler *s);

/* bench_stats.c: interleaved repetitions and their spread */
#define OU_MAX_REPEATS		1000	/* most repetitions of one call */

typedef struct OuSpread
{
	double		median;
	double		min;
	double		max;
} OuSpread;

extern int	ou_interleaved(int rep, int pos, int nvariants);
extern OuSpread ou_spread(const double *values, int n);

#endif							/* OU_BENCH_H */
