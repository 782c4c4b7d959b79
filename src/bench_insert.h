/*-------------------------------------------------------------------------
 *
 * bench_insert.h
 *	  What bench_insert.c lends the other S1 benchmark, bench_switch()
 *	  (bench_switch.c): the statements of one generator's table, one
 *	  measured run of it, and the figures of that run and their spread.
 *	  bench_insert.c calls nothing of bench_switch.c.
 *
 * IDENTIFICATION
 *	  src/bench_insert.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef OU_BENCH_INSERT_H
#define OU_BENCH_INSERT_H

#include "bench.h"

/* most runs (generators times repetitions, and tables) of one call */
#define OU_MAX_RUNS				100000

/* the statements of one generator, built before the run starts */
typedef struct OuGenStmts
{
	char	   *gen;			/* as given */
	char	   *prefix;			/* of its relations: g<N>_ */
	char	   *qtbl;			/* its table, qualified */
	char	   *index;			/* its primary key index (unqualified) */
	List	   *create;			/* SQL: sequence, table, primary key */
	List	   *prefill;		/* PREPARE: INSERT ... SELECT ... generate_series($1) */
	List	   *insert;			/* PREPARE: INSERT ... VALUES (generator) */
} OuGenStmts;

/* one measured run of one generator's table */
typedef struct OuInsertRun
{
	const OuGenStmts *st;
	const char *label;			/* the phase's name in pg_stat_activity */
	int64		prefill;		/* rows of st->prefill before the run */
	int64		rows;			/* rows measured */
	int			rows_per_xact;
	List	   *nodes;			/* distributed: the other nodes */
	bool		drop;			/* drop the table afterwards */
	bool		measure_added;	/* measure the pages the run adds apart */
	int			order;			/* position in the call's runs, from 1 */
} OuInsertRun;

/* what one run of one generator measured, unrounded */
typedef struct OuInsertFigures
{
	int64		rows;
	double		seconds;
	double		rows_per_sec;
	double		wal_bytes_per_row;
	double		fpi_per_row;
	double		leaf_splits_per_1k;
	double		index_bytes;
	double		avg_leaf_density;
	double		blks_dirtied_per_row;
	double		blks_written_per_row;
	double		pages_added;	/* index pages the measured inserts added */
	double		added_leaf_density; /* of the leaf pages they added (with
									 * measure_added) */
	int64		trees;			/* distributed: the shards measured */
	int			order;			/* position in the call's runs, from 1 */
} OuInsertFigures;

extern char *ou_replace_seq(const char *gen, const char *qseq);
extern void ou_check_generator(const char *gen, const char *expr);
extern char *ou_generator_arg(Datum d, bool isnull, const char *arg, int g);
extern OuGenStmts *ou_gen_stmts(const char *gen, const char *prefill_gen, int g,
								const char *schema, bool unlogged, int32 shard_count);
extern void ou_bench_insert_measured(OuBenchRun *run, const OuInsertRun *ir,
									 OuSampler *sampler, OuInsertFigures *f);
extern OuSpread ou_spread_of(OuInsertFigures *f, int n, size_t off);

#define OU_MEDIAN(f, n, field) \
	(ou_spread_of((f), (n), offsetof(OuInsertFigures, field)).median)

#endif							/* OU_BENCH_INSERT_H */
