/*-------------------------------------------------------------------------
 *
 * ordered_uuid.h
 *	  Declarations shared between the source files of ordered_uuid.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_H
#define ORDERED_UUID_H

#include "utils/uuid.h"

/* random.c */
extern void ou_random_bytes(void *dst, size_t len);

/* generators.c */
extern int	ou_prefix_bytes(int64 block_count);

/*
 * bench_workers.c: the dynamic background workers behind the in-database
 * benchmarks (bench_insert.c, bench_load.c).  A "run" is one DSM segment and
 * a fixed set of workers connected as the calling role; the leader (the
 * calling backend) drives them with commands and never locks the scratch
 * tables itself.
 */
#include "fmgr.h"
#include "nodes/pg_list.h"

#define OU_BENCH_SCHEMA		"ordered_uuid_bench"

struct OuBenchRun;
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
} OuBenchIndexShape;

extern OuBenchRun *ou_bench_start(const char *fname, Oid fn_oid, int nworkers,
								  Size text_cap);
extern void ou_bench_phase(OuBenchRun *run, const char *fmt,...) pg_attribute_printf(2, 3);
extern const char *ou_bench_prefix(OuBenchRun *run);
extern void ou_bench_sql(OuBenchRun *run, List *stmts);
extern void ou_bench_prepare(OuBenchRun *run, List *stmts, bool with_count);
extern OuBenchResult ou_bench_exec(OuBenchRun *run, int64 rows, int batch, int per_xact,
								   OuBenchSampleFn sample, void *sample_arg, int sample_ms);
extern OuBenchIndexShape ou_bench_measure(OuBenchRun *run, const char *index_name);
extern void ou_bench_drop(OuBenchRun *run, const char *prefix);
extern void ou_bench_finish(OuBenchRun *run);
extern void ou_bench_abort(OuBenchRun *run);
extern int	ou_bench_worker_pids(OuBenchRun *run, int *pids, int max);
extern void ou_bench_checkpoint(const char *fname);
extern int64 ou_bench_arg_int(FunctionCallInfo fcinfo, int argno, const char *name,
							  int64 min, int64 max);
extern bool ou_bench_arg_bool(FunctionCallInfo fcinfo, int argno, const char *name);

#endif							/* ORDERED_UUID_H */
