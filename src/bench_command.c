/*-------------------------------------------------------------------------
 *
 * bench_command.c
 *	  The commands a benchmark's leader sends its workers, one function
 *	  each: the parameters it writes, the workers that take part, and what
 *	  it reads back from their slots once they are done (bench_protocol.h).
 *
 * IDENTIFICATION
 *	  src/bench_command.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "bench_protocol.h"

/*
 * ou_bench_sql
 *		Worker 1 runs the statements, each in its own transaction.
 */
void
ou_bench_sql(OuBenchRun *run, List *stmts)
{
	ou_bench_set_text(run, stmts);
	ou_bench_send(run, OU_CMD_SQL, 0, 0, NULL, NULL, 0);
}

/*
 * ou_bench_prepare
 *		Every worker prepares the statements (with one int8 parameter, the
 *		number of rows to insert, when with_count).  All statements must run
 *		under the same search_path.
 */
void
ou_bench_prepare(OuBenchRun *run, List *stmts, bool with_count)
{
	ou_bench_set_text(run, stmts);
	run->sh->with_count = with_count;
	ou_bench_send(run, OU_CMD_PREPARE, -1, 0, NULL, NULL, 0);
}

/*
 * ou_bench_exec
 *		All workers insert rows rows in total (an even share each), batch rows
 *		per execution of the prepared statements (taken in turn), committing
 *		every per_xact executions.  They start together.  Returns the sums
 *		of their counters and the time from the start to the last finish.
 */
OuBenchResult
ou_bench_exec(OuBenchRun *run, int64 rows, int batch, int per_xact,
			  OuBenchSampleFn sample, void *sample_arg, int sample_ms)
{
	OuBenchShared *sh = run->sh;
	OuBenchResult r;
	TimestampTz last = 0;
	int			i;

	sh->rows = rows;
	sh->batch = batch;
	sh->per_xact = per_xact;
	for (i = 0; i < run->nworkers; i++)
		pg_atomic_write_u64(&sh->slots[i].rows_done, 0);
	sh->go_time = GetCurrentTimestamp();
	ou_bench_send(run, OU_CMD_RUN, -1, rows, sample, sample_arg, sample_ms);

	memset(&r, 0, sizeof(r));
	for (i = 0; i < run->nworkers; i++)
	{
		OuBenchSlot *slot = &sh->slots[i];

		r.rows += (int64) pg_atomic_read_u64(&slot->rows_done);
		r.wal_records += slot->wal.wal_records;
		r.wal_fpi += slot->wal.wal_fpi;
		r.wal_bytes += slot->wal.wal_bytes;
		r.blks_dirtied += slot->buf.shared_blks_dirtied;
		r.blks_written += slot->buf.shared_blks_written;
		if (slot->finished > last)
			last = slot->finished;
	}
	r.seconds = Max(last - sh->go_time, 1) / 1000000.0;
	return r;
}

/*
 * ou_bench_measure
 *		Worker 1 measures the B-tree index index_name of the run's schema.
 */
OuBenchIndexShape
ou_bench_measure(OuBenchRun *run, const char *index_name)
{
	return ou_bench_measure_from(run, index_name, -1);
}

/*
 * ou_bench_measure_from
 *		ou_bench_measure, and the leaf pages numbered from block from_block
 *		on apart: those an insert-only run split off, when from_block is the
 *		index's size before it (a local index only).
 */
OuBenchIndexShape
ou_bench_measure_from(OuBenchRun *run, const char *index_name, int64 from_block)
{
	ou_bench_set_text(run, list_make1((char *) index_name));
	run->sh->measure_from = from_block;
	ou_bench_send(run, OU_CMD_MEASURE, 0, 0, NULL, NULL, 0);
	return run->sh->slots[0].shape;
}

/*
 * ou_bench_set_distributed
 *		The run's tables are Citus distributed tables: from now on MEASURE
 *		adds up the shards of an index on the nodes, and each transaction
 *		of a RUN is a transaction block (bench_worker.c says why).
 */
void
ou_bench_set_distributed(OuBenchRun *run)
{
	run->sh->distributed = true;
}

/*
 * ou_bench_values
 *		Worker 1 runs query (from ou_bench_stmt, our own SQL), which must
 *		return one row whose first nvalues columns are int8, and returns
 *		them in values (NULL as 0).
 */
void
ou_bench_values(OuBenchRun *run, const char *query, int64 *values, int nvalues)
{
	Assert(nvalues >= 1 && nvalues <= OU_BENCH_MAX_VALUES);
	ou_bench_set_text(run, list_make1((char *) query));
	run->sh->nvalues = nvalues;
	ou_bench_send(run, OU_CMD_VALUES, 0, 0, NULL, NULL, 0);
	memcpy(values, run->sh->slots[0].values, sizeof(int64) * nvalues);
}

/*
 * ou_bench_read
 *		Worker 1 measures a read statement (our own SQL, from ou_bench_stmt,
 *		with one int8 parameter, the key; its first column an int8 that is
 *		summed as rows): in one transaction it runs setup (SET LOCAL
 *		statements; may be empty), reads sample keys evenly spaced over 0 ..
 *		nkeys - 1 once to warm the cache, then reads them again, pass after
 *		pass, until min_ms have passed.  counters is a one-row query of int8
 *		columns (per-relation block counters, say) run before and after the
 *		measured passes; their growth is returned with the reads, rows,
 *		shared buffers used, time and the plan's scan node.
 */
OuBenchRead
ou_bench_read(OuBenchRun *run, const char *setup, const char *counters, const char *query,
			  int64 nkeys, int64 sample, int min_ms)
{
	Assert(nkeys >= 1 && sample >= 1 && sample <= nkeys);
	ou_bench_set_text(run, list_make3((char *) setup, (char *) counters, (char *) query));
	run->sh->read_keys = nkeys;
	run->sh->read_sample = sample;
	run->sh->read_ms = min_ms;
	ou_bench_send(run, OU_CMD_READ, 0, 0, NULL, NULL, 0);
	return run->sh->slots[0].read;
}

/*
 * ou_bench_drop
 *		Worker 1 drops the tables, materialized views and sequences of the
 *		run's schema whose names start with prefix.
 */
void
ou_bench_drop(OuBenchRun *run, const char *prefix)
{
	ou_bench_set_text(run, list_make1((char *) prefix));
	run->sh->drop_schema = false;
	ou_bench_send(run, OU_CMD_DROP, 0, 0, NULL, NULL, 0);
}

/*
 * ou_bench_cleanup_dead
 *		How many dead runs' schemas the first worker dropped when the run
 *		started.
 */
int64
ou_bench_cleanup_dead(OuBenchRun *run)
{
	return run->sh->slots[0].count;
}

/*
 * ou_bench_running_procs
 *		The PGPROCs and pids of the workers that are inside the loop of the
 *		current RUN (for the leader's wait sampling; workers that finished
 *		their share and wait for the others are left out).  The caller
 *		checks that a sample's pid matches.
 */
int
ou_bench_running_procs(OuBenchRun *run, PGPROC **procs, int *pids, int max)
{
	int			n = 0;
	int			i;

	for (i = 0; i < run->nworkers && n < max; i++)
	{
		OuBenchSlot *slot = &run->sh->slots[i];

		if (!slot->running || slot->proc == NULL)
			continue;
		pg_read_barrier();
		procs[n] = slot->proc;
		pids[n] = slot->pid;
		n++;
	}
	return n;
}
