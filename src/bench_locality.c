/*-------------------------------------------------------------------------
 *
 * bench_locality.c
 *	  bench_locality(): scenario S4 of doc/scenarios.md, the rows of one
 *	  entity (a vehicle's trip, a tenant's events) scattered over the heap
 *	  because they arrive interleaved with everybody else's, and what the
 *	  fixes cost and gain.
 *
 * clients workers append groups * rows_per_group rows to one table with an
 * index on (grp, seq), as devices reporting at once do: each INSERT carries
 * OU_LOCALITY_BATCH arrivals, arrival n (numbered by a shared sequence)
 * belonging to group (n - 1) % groups, so every group gets exactly
 * rows_per_group rows, one per round.  Then, for each variant, worker 1
 * reads sample_groups groups through the index, pass after pass for at
 * least OU_LOCALITY_READ_MS, and counts the heap and index blocks the reads
 * fetched (pg_stat_get_xact_blocks_fetched: the server's own buffer
 * counters; bench_read.c):
 *
 *	interleaved		the table as written, read with a bitmap heap scan,
 *					which fetches each heap block holding the group's rows
 *					once: the distinct blocks heap_locality() counts;
 *	clustered		a copy of it, CLUSTERed on its (grp, seq) index (the
 *					fix's cost: the CLUSTER's time), read the same way;
 *	covering index	the same rows with an index on (grp, seq) INCLUDE
 *					(payload), read with an index-only scan after VACUUM
 *					(the fix's cost: the index build and VACUUM, and the
 *					index's size).
 *
 * The covering variant's rows are written by REFRESH MATERIALIZED VIEW,
 * which writes them frozen: the calling statement's own snapshot is older
 * than every row the workers write, so no VACUUM during the call could mark
 * their pages all-visible, and every index-only read would fetch the heap.
 * A frozen row is visible to every snapshot, so VACUUM marks its page
 * all-visible at once, as it does for a live table's older pages.
 *
 * The ideal of heap_locality() is the yardstick: a group of n rows packed
 * together needs ceil(n / tuples per page) blocks, tuples per page being the
 * variant's rows over the heap blocks that hold rows (counted by worker 1
 * from ctid); amplification = heap blocks fetched per group / that ideal.
 *
 * IDENTIFICATION
 *	  src/bench_locality.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "bench.h"
#include "compat.h"
#include "util.h"

PG_FUNCTION_INFO_V1(bench_locality);

#define OU_LOCALITY_COLS		14
/* a row's heap tuple: header 24, grp 4, padding 4, seq 8, payload's 4-byte header */
#define OU_LOCALITY_ROW_OVERHEAD 44
#define OU_LOCALITY_MIN_ROW		48
/* a covering index entry (payload included) must fit in a B-tree page */
#define OU_LOCALITY_MAX_ROW		2000
/* arrivals per INSERT (one report of that many devices), INSERTs per commit */
#define OU_LOCALITY_BATCH		100
#define OU_LOCALITY_PER_XACT	10
/* measured read passes last at least this long, per variant */
#define OU_LOCALITY_READ_MS		500

/* the planner settings of a read: one scan method, one generic plan */
#define OU_LOCALITY_READ_COMMON \
	"SET LOCAL enable_seqscan = off; SET LOCAL plan_cache_mode = force_generic_plan; " \
	"SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0; "
#define OU_LOCALITY_READ_BITMAP OU_LOCALITY_READ_COMMON \
	"SET LOCAL enable_indexscan = off; SET LOCAL enable_indexonlyscan = off; " \
	"SET LOCAL enable_bitmapscan = on"
#define OU_LOCALITY_READ_INDEX_ONLY OU_LOCALITY_READ_COMMON \
	"SET LOCAL enable_bitmapscan = off; SET LOCAL enable_indexscan = on; " \
	"SET LOCAL enable_indexonlyscan = on"

/* one variant: its relations and the statements that make and measure it */
typedef struct OuLocalityVariant
{
	const char *name;			/* as in the result */
	const char *table;			/* unqualified */
	List	   *make;			/* SQL: the variant before its fix (not timed) */
	List	   *fix;			/* SQL: the fix, timed (NIL: none) */
	char	   *values;			/* rows, heap blocks holding rows, table and index bytes */
	const char *setup;			/* SET LOCALs of the read */
	char	   *counters;		/* blocks fetched from the table and the index */
	char	   *read;			/* one group's rows, $1 = the group */
} OuLocalityVariant;

/*
 * ou_locality_variant
 *		The relation names and the measuring statements of a variant whose
 *		table (or materialized view) is schema.table with index
 *		schema.<table>_grp.
 */
static OuLocalityVariant *
ou_locality_variant(const char *name, const char *schema, const char *table, bool index_only)
{
	OuLocalityVariant *v = palloc0(sizeof(OuLocalityVariant));
	char	   *qtbl = ou_bench_qualified(schema, table);
	char	   *ltbl = quote_literal_cstr(qtbl);
	char	   *lidx = quote_literal_cstr(ou_bench_qualified(schema, psprintf("%s_grp", table)));

	v->name = name;
	v->table = table;
	v->values = ou_bench_stmt(false,
							  "SELECT pg_catalog.sum(b.n)::pg_catalog.int8, pg_catalog.count(*),"
							  " pg_catalog.pg_relation_size(%s::pg_catalog.regclass),"
							  " pg_catalog.pg_relation_size(%s::pg_catalog.regclass)"
							  " FROM (SELECT pg_catalog.count(*) AS n FROM %s"
							  "       GROUP BY ((ctid::pg_catalog.text)::pg_catalog.point)[0]) AS b",
							  ltbl, lidx, qtbl);
	v->setup = ou_bench_stmt(false, "%s", index_only ? OU_LOCALITY_READ_INDEX_ONLY : OU_LOCALITY_READ_BITMAP);
	v->counters = ou_bench_stmt(false,
								"SELECT pg_catalog.pg_stat_get_xact_blocks_fetched(%s::pg_catalog.regclass),"
								" pg_catalog.pg_stat_get_xact_blocks_fetched(%s::pg_catalog.regclass)",
								ltbl, lidx);
	v->read = ou_bench_stmt(false,
							"SELECT pg_catalog.count(*), pg_catalog.sum(pg_catalog.length(payload))"
							" FROM %s WHERE grp OPERATOR(pg_catalog.=) $1", qtbl);
	return v;
}

/*
 * ou_locality_text_size
 *		The most bytes one command of a variant puts in the text area.
 */
static Size
ou_locality_text_size(OuLocalityVariant *v)
{
	Size		size = Max(ou_bench_text_size(v->make), ou_bench_text_size(v->fix));

	size = Max(size, strlen(v->values) + 1);
	return Max(size, ou_bench_text_size(list_make3((char *) v->setup, v->counters, v->read)));
}

/*
 * ou_locality_variants
 *		The three variants' statements in schema (see the file header), and
 *		the interleaved table's INSERT (*insert).
 */
static void
ou_locality_variants(OuLocalityVariant **variants, List **insert, const char *schema,
					 int groups, int payload, int64 total)
{
	char	   *qtbl = ou_bench_qualified(schema, "interleaved");
	char	   *qseq = ou_bench_qualified(schema, "interleaved_arrival");

	variants[0] = ou_locality_variant("interleaved", schema, "interleaved", false);
	variants[0]->make =
		list_make4(ou_bench_stmt(false, "CREATE TABLE %s (grp pg_catalog.int4 NOT NULL,"
								 " seq pg_catalog.int8 NOT NULL, payload pg_catalog.text)", qtbl),
				   ou_bench_stmt(false, "ALTER TABLE %s ALTER COLUMN payload SET STORAGE PLAIN", qtbl),
				   ou_bench_stmt(false, "CREATE INDEX interleaved_grp ON %s (grp, seq)", qtbl),
				   ou_bench_stmt(false, "CREATE SEQUENCE %s OWNED BY %s.seq", qseq, qtbl));
	*insert = list_make1(ou_bench_stmt(false,
									  "INSERT INTO %s (grp, seq, payload)"
									  " SELECT ((a.n OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.%%)"
									  " %d::pg_catalog.int8)::pg_catalog.int4, a.n, pg_catalog.repeat('x', %d)"
									  " FROM (SELECT pg_catalog.nextval(%s::pg_catalog.regclass) AS n"
									  "       FROM pg_catalog.generate_series(1, $1)) AS a",
									  qtbl, groups, payload, quote_literal_cstr(qseq)));

	variants[1] = ou_locality_variant("clustered", schema, "clustered", false);
	variants[1]->make =
		list_make3(ou_bench_stmt(false, "CREATE TABLE %s (LIKE %s INCLUDING STORAGE)",
								 ou_bench_qualified(schema, "clustered"), qtbl),
				   ou_bench_stmt(false, "SET LOCAL synchronize_seqscans = off;"
								 " INSERT INTO %s (grp, seq, payload) SELECT grp, seq, payload FROM %s",
								 ou_bench_qualified(schema, "clustered"), qtbl),
				   ou_bench_stmt(false, "CREATE INDEX clustered_grp ON %s (grp, seq)",
								 ou_bench_qualified(schema, "clustered")));
	variants[1]->fix =
		list_make2(ou_bench_stmt(false, "CLUSTER %s USING clustered_grp",
								 ou_bench_qualified(schema, "clustered")),
				   ou_bench_stmt(false, "ANALYZE %s", ou_bench_qualified(schema, "clustered")));

	/* frozen rows (see the file header), in the order they arrived */
	variants[2] = ou_locality_variant("covering index", schema, "covering", true);
	variants[2]->make =
		list_make3(ou_bench_stmt(false, "CREATE MATERIALIZED VIEW %s AS"
								 " SELECT ((g.n OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.%%)"
								 " %d::pg_catalog.int8)::pg_catalog.int4 AS grp, g.n AS seq,"
								 " pg_catalog.repeat('x', %d) AS payload"
								 " FROM pg_catalog.generate_series(1::pg_catalog.int8, "
								 INT64_FORMAT "::pg_catalog.int8) AS g(n) WITH NO DATA",
								 ou_bench_qualified(schema, "covering"), groups, payload, total),
				   ou_bench_stmt(false, "ALTER MATERIALIZED VIEW %s ALTER COLUMN payload SET STORAGE PLAIN",
								 ou_bench_qualified(schema, "covering")),
				   ou_bench_stmt(false, "REFRESH MATERIALIZED VIEW %s",
								 ou_bench_qualified(schema, "covering")));
	variants[2]->fix =
		list_make2(ou_bench_stmt(false, "CREATE INDEX covering_grp ON %s (grp, seq) INCLUDE (payload)",
								 ou_bench_qualified(schema, "covering")),
				   ou_bench_stmt_toplevel("VACUUM (ANALYZE) %s", ou_bench_qualified(schema, "covering")));

}

/*
 * ou_locality_row
 *		The result row of variant v from what its reads counted (r), its
 *		table's tuples, pages and sizes (vals), the load (v = 0) and the
 *		fix's time.
 */
static void
ou_locality_row(OuLocalityVariant *var, int v, OuBenchRead *rd, int64 *vals,
				OuBenchResult *load, double fix_seconds, const char *kept,
				Datum *values, bool *nulls)
{
	OuBenchRead r = *rd;
	double		tuples_per_page;
	double		rows_per_group;
	double		ideal;
	double		heap_blocks;

	/* heap_locality()'s yardstick, on this variant's table */
	tuples_per_page = (double) vals[0] / Max(vals[1], 1);
	rows_per_group = (double) r.rows / r.reads;
	ideal = ceil(rows_per_group / tuples_per_page);
	heap_blocks = (double) r.counters[0] / r.reads;

	memset(nulls, 0, sizeof(bool) * OU_LOCALITY_COLS);
	values[0] = CStringGetTextDatum(var->name);
	values[1] = CStringGetTextDatum(r.scan);
	values[2] = Int64GetDatum(r.reads);
	values[3] = Float8GetDatum(ou_round(rows_per_group, 2));
	values[4] = Float8GetDatum(ou_round(heap_blocks, 2));
	values[5] = Float8GetDatum(ou_round((double) r.counters[1] / r.reads, 2));
	values[6] = Float8GetDatum(ou_round(ideal, 2));
	values[7] = Float8GetDatum(ou_round(heap_blocks / ideal, 2));
	values[8] = Float8GetDatum(ou_round(r.reads / r.seconds, 1));
	if (v == 0)
		values[9] = Float8GetDatum(ou_round(load->rows / load->seconds, 1));
	else
		nulls[9] = true;
	if (var->fix != NIL)
		values[10] = Float8GetDatum(ou_round(fix_seconds, 3));
	else
		nulls[10] = true;
	values[11] = Int64GetDatum(vals[2]);
	values[12] = Int64GetDatum(vals[3]);
	if (kept)
		values[13] = CStringGetTextDatum(ou_bench_qualified(kept, var->table));
	else
		nulls[13] = true;
}

/*
 * bench_locality
 *		SQL function: see the file header and doc/bench.md.
 */
Datum
bench_locality(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int			groups = (int) ou_bench_arg_int(fcinfo, 0, "groups", 1, PG_INT32_MAX);
	int			rows_per_group = (int) ou_bench_arg_int(fcinfo, 1, "rows_per_group", 1, PG_INT32_MAX);
	int			row_bytes = (int) ou_bench_arg_int(fcinfo, 2, "row_bytes",
												   OU_LOCALITY_MIN_ROW, OU_LOCALITY_MAX_ROW);
	int			clients = (int) ou_bench_arg_int(fcinfo, 3, "clients", 1, PG_INT32_MAX);
	int			sample = (int) ou_bench_arg_int(fcinfo, 4, "sample_groups", 1, PG_INT32_MAX);
	bool		keep = ou_bench_arg_bool(fcinfo, 5, "keep");
	int64		total = (int64) groups * rows_per_group;
	int			payload = row_bytes - OU_LOCALITY_ROW_OVERHEAD;
	OuLocalityVariant *variants[3];
	Tuplestorestate *tupstore;
	TupleDesc	tupdesc;
	OuBenchRun *run;
	OuBenchResult load;
	uint64		run_id;
	char	   *schema;
	char	   *kept;
	char	   *qtbl;
	List	   *insert;
	Size		text_cap;
	int			v;

	sample = Min(sample, groups);

	/* every statement of the run, so that its shared memory fits them */
	schema = ou_bench_new_schema(&run_id, &kept);

	ou_locality_variants(variants, &insert, schema, groups, payload, total);
	qtbl = ou_bench_qualified(schema, "interleaved");
	text_cap = ou_bench_text_size(insert);
	for (v = 0; v < 3; v++)
		text_cap = Max(text_cap, ou_locality_text_size(variants[v]));
	text_cap = Max(text_cap, sizeof("clustered"));

	/* the result set, materialized */
	(void) ou_bench_materialize(fcinfo, "bench_locality", OU_LOCALITY_COLS, 0);
	tupstore = rsinfo->setResult;
	tupdesc = rsinfo->setDesc;

	run = ou_bench_start("bench_locality", fcinfo->flinfo->fn_oid, clients, schema, run_id, text_cap);
	PG_TRY();
	{
		memset(&load, 0, sizeof(load));
		for (v = 0; v < 3; v++)
		{
			OuLocalityVariant *var = variants[v];
			OuBenchRead r;
			int64		vals[4];
			double		fix_seconds = 0;
			Datum		values[OU_LOCALITY_COLS];
			bool		nulls[OU_LOCALITY_COLS];

			CHECK_FOR_INTERRUPTS();
			ou_bench_phase(run, "%s: making the table", var->name);
			ou_bench_sql(run, var->make);
			if (v == 0)
			{
				ou_bench_phase(run, "interleaved: %d clients appending " INT64_FORMAT
							   " rows of %d groups", clients, total, groups);
				ou_bench_prepare(run, insert, true);
				load = ou_bench_exec(run, total, OU_LOCALITY_BATCH, OU_LOCALITY_PER_XACT,
									 NULL, NULL, 0);
				ou_bench_phase(run, "interleaved: analyzing the table");
				ou_bench_sql(run, list_make1(ou_bench_stmt(false, "ANALYZE %s", qtbl)));
			}
			/* the copy is made: the interleaved table has served */
			if (v == 1 && !keep)
				ou_bench_drop(run, "interleaved");
			if (v == 2 && !keep)
				ou_bench_drop(run, "clustered");
			if (var->fix != NIL)
			{
				TimestampTz start = GetCurrentTimestamp();

				ou_bench_phase(run, "%s: applying the fix", var->name);
				ou_bench_sql(run, var->fix);
				fix_seconds = Max(GetCurrentTimestamp() - start, 1) / 1000000.0;
			}

			ou_bench_phase(run, "%s: counting the heap blocks", var->name);
			ou_bench_values(run, var->values, vals, 4);
			ou_bench_phase(run, "%s: reading %d groups", var->name, sample);
			r = ou_bench_read(run, var->setup, var->counters, var->read, groups, sample,
							  OU_LOCALITY_READ_MS);

			ou_locality_row(var, v, &r, vals, &load, fix_seconds, keep ? kept : NULL,
							values, nulls);
			tuplestore_putvalues(tupstore, tupdesc, values, nulls);
		}
		ou_bench_finish(run, keep ? kept : NULL);
	}
	PG_CATCH();
	{
		ou_bench_abort(run);
		PG_RE_THROW();
	}
	PG_END_TRY();
	return (Datum) 0;
}
