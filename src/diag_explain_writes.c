/*-------------------------------------------------------------------------
 *
 * diag_explain_writes.c
 *	  explain_writes(statement): run one statement as the caller (like
 *	  EXPLAIN ANALYZE) and report what it wrote, per relation, from the WAL
 *	  records of this transaction in the LSN range of the statement
 *	  (diag_writes_wal.c), rows for the relations it changed whose pages
 *	  write no WAL (unlogged, temporary, a file new in the transaction under
 *	  wal_level minimal), and a total row from the backend's own WAL
 *	  and buffer counters.
 *
 * Attribution rule: other sessions write WAL in the same LSN range; a record
 * belongs to the statement when its xid is one of this transaction's, its
 * subtransactions' included, aborted ones too (diag_writes_wal.c).  Records
 * written without an xid (heap pruning, hint-bit full-page images during a
 * SELECT) cannot be told apart from other sessions' and are counted only in
 * the total row, which comes from pgWalUsage (exact for this backend,
 * parallel workers included).
 *
 * The statement's WAL must still be on disk when it is read: a big
 * statement can write more than max_wal_size, and checkpoints then recycle
 * its first segments.  So while the statement runs and its WAL is read, a
 * caller that may hold WAL with a replication slot holds it with a slot
 * of its own (diag_writes_slot.c).  Otherwise it runs without one, and the
 * error for removed WAL names the settings to raise.
 *
 * With Citus, a statement on a Citus table writes on the nodes that hold its
 * shards, not here: explain_writes refuses it (citus.c), before running it
 * when the query names a Citus table, after it (rolling it back) when it
 * reached the cluster another way.
 *
 * IDENTIFICATION
 *	  src/diag_explain_writes.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/rmgr.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type_d.h"
#include "nodes/pg_list.h"
#include "executor/instrument.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "parser/parser.h"
#include "portability/instr_time.h"
#include "storage/lmgr.h"
#include "tcop/dest.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/tuplestore.h"

#include "citus.h"
#include "compat.h"
#include "diag.h"
#include "util.h"
#include "walscan.h"

PG_FUNCTION_INFO_V1(explain_writes);

/* 'table', 'index', 'toast', ... for a relation OID. */
static const char *
ou_rel_kind(Oid relid)
{
	char		relkind = get_rel_relkind(relid);

	if (IsCatalogRelationOid(relid))
		return "catalog";
	switch (relkind)
	{
		case RELKIND_RELATION:
		case RELKIND_PARTITIONED_TABLE:
			return "table";
		case RELKIND_TOASTVALUE:
			return "toast";
		case RELKIND_INDEX:
		case RELKIND_PARTITIONED_INDEX:
			{
				Oid			tab = IndexGetRelation(relid, true);

				if (OidIsValid(tab) && get_rel_relkind(tab) == RELKIND_TOASTVALUE)
					return "toast index";
				return "index";
			}
		case RELKIND_MATVIEW:
			return "materialized view";
		case RELKIND_SEQUENCE:
			return "sequence";
		default:
			return "other";
	}
}

static void
ou_put_row(ReturnSetInfo *rsinfo, Datum *values, bool *nulls)
{
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * Rows changed so far in this transaction per table, with the table and
 * each of its indexes, from the backend's own statistics
 * (pg_stat_xact_all_tables): the tables that may write no WAL, unlogged and
 * temporary ones, and under wal_level minimal any table ($1).  Needs SPI.
 */
#define OU_NOWAL_QUERY \
	"SELECT t.relid, x.oid, x.relfilenode, x.relpersistence, x.reltablespace," \
	"       t.n_tup_ins OPERATOR(pg_catalog.+) t.n_tup_upd OPERATOR(pg_catalog.+) t.n_tup_del" \
	"  FROM pg_catalog.pg_stat_xact_all_tables AS t" \
	"  JOIN pg_catalog.pg_class AS c ON c.oid OPERATOR(pg_catalog.=) t.relid" \
	"  JOIN pg_catalog.pg_class AS x ON x.oid OPERATOR(pg_catalog.=) c.oid" \
	"    OR x.oid OPERATOR(pg_catalog.=) ANY (SELECT i.indexrelid FROM pg_catalog.pg_index AS i" \
	"                                           WHERE i.indrelid OPERATOR(pg_catalog.=) c.oid)" \
	" WHERE c.relpersistence OPERATOR(pg_catalog.<>) 'p' OR $1" \
	" ORDER BY t.relid, x.oid"

typedef struct OuNoWal
{
	Oid			table;
	Oid			relid;
	Oid			relfilenode;
	char		persistence;
	Oid			tablespace;
	int64		changed;
} OuNoWal;

static List *
ou_nowal_snapshot(MemoryContext cxt)
{
	List	   *out = NIL;
	uint64		i;
	MemoryContext spicxt;

	Oid			argtypes[1] = {BOOLOID};
	Datum		args[1] = {BoolGetDatum(!XLogIsNeeded())};

	if (SPI_execute_with_args(OU_NOWAL_QUERY, 1, argtypes, args, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read this transaction's table statistics");
	spicxt = MemoryContextSwitchTo(cxt);	/* the list outlives SPI_finish() */
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		OuNoWal    *n = palloc(sizeof(OuNoWal));
		bool		isnull;

		n->table = DatumGetObjectId(SPI_getbinval(tup, desc, 1, &isnull));
		n->relid = DatumGetObjectId(SPI_getbinval(tup, desc, 2, &isnull));
		n->relfilenode = DatumGetObjectId(SPI_getbinval(tup, desc, 3, &isnull));
		n->persistence = DatumGetChar(SPI_getbinval(tup, desc, 4, &isnull));
		n->tablespace = DatumGetObjectId(SPI_getbinval(tup, desc, 5, &isnull));
		n->changed = DatumGetInt64(SPI_getbinval(tup, desc, 6, &isnull));
		out = lappend(out, n);
	}
	MemoryContextSwitchTo(spicxt);
	return out;
}

/*
 * Does the relation write no WAL for its pages (unlogged, temporary, or a
 * file new in this transaction under wal_level minimal)?  The relations of
 * the statement are locked by it; one we cannot lock at once is not ours.
 */
static bool
ou_rel_skips_wal(Oid relid)
{
	Relation	rel;
	bool		skips;

	if (!ConditionalLockRelationOid(relid, AccessShareLock))
		return false;
	rel = RelationIdGetRelation(relid);
	skips = RelationIsValid(rel) && !RelationNeedsWAL(rel);
	if (RelationIsValid(rel))
		RelationClose(rel);
	UnlockRelationOid(relid, AccessShareLock);
	return skips;
}

/* Does rels (may be NULL) have a row for the relation file of n? */
static bool
ou_nowal_has_row(HTAB *rels, const OuNoWal *n)
{
	OuRelFileLocator loc;
	bool		found;

	if (rels == NULL)
		return false;
	memset(&loc, 0, sizeof(loc));
	loc.spcOid = OidIsValid(n->tablespace) ? n->tablespace : MyDatabaseTableSpace;
	loc.dbOid = MyDatabaseId;
	loc.relNumber = n->relfilenode;
	(void) hash_search(rels, &loc, HASH_FIND, &found);
	return found;
}

/*
 * The relations of after whose table changed more rows than in before, that
 * write no WAL and have no row from the WAL already (a file created under
 * wal_level minimal has one).
 */
static List *
ou_nowal_changed(List *before, List *after, HTAB *rels)
{
	List	   *out = NIL;
	ListCell   *la;

	foreach(la, after)
	{
		OuNoWal    *a = lfirst(la);
		int64		was = 0;
		ListCell   *lb;

		foreach(lb, before)
		{
			OuNoWal    *b = lfirst(lb);

			if (b->table == a->table)
				was = b->changed;
		}
		if (a->changed > was && ou_rel_skips_wal(a->relid) && !ou_nowal_has_row(rels, a))
			out = lappend(out, a);
	}
	return out;
}

/*
 * Column numbers of the result.  SQL versions before 1.2.0 declare the
 * columns before note (OU_EW_NCOLS_0_1).
 */
enum
{
	EW_RELATION, EW_RELFILENODE, EW_KIND, EW_RECORDS, EW_BYTES, EW_FPI,
	EW_LEAF, EW_UPPER, EW_ADDED, EW_ROWS, EW_SECONDS, EW_HIT, EW_READ,
	EW_DIRTIED, EW_WRITTEN, EW_NOTE, OU_EW_NCOLS
};
#define OU_EW_NCOLS_0_1		EW_NOTE

/*
 * A per-relation row: relid may be invalid (kind "unknown"); w NULL: the
 * relation wrote no WAL; kind NULL: from relid.
 */
static void
ou_put_rel_row(ReturnSetInfo *rsinfo, Oid relid, Oid relfilenode, const char *kind,
			   const OuRelWrites *w, const char *note)
{
	Datum		values[OU_EW_NCOLS];
	bool		nulls[OU_EW_NCOLS];
	int			i;

	for (i = 0; i < OU_EW_NCOLS; i++)
	{
		values[i] = Int64GetDatum(0);
		nulls[i] = (i >= EW_ROWS);
	}
	nulls[EW_RELATION] = !OidIsValid(relid);
	values[EW_RELATION] = ObjectIdGetDatum(relid);
	values[EW_RELFILENODE] = ObjectIdGetDatum(relfilenode);
	nulls[EW_RELFILENODE] = !OidIsValid(relfilenode);
	if (kind == NULL)
		kind = OidIsValid(relid) ? ou_rel_kind(relid) : "unknown";
	values[EW_KIND] = CStringGetTextDatum(kind);
	if (w != NULL)
	{
		values[EW_RECORDS] = Int64GetDatum(w->records);
		values[EW_BYTES] = Int64GetDatum(w->bytes);
		values[EW_FPI] = Int64GetDatum(w->fpi);
		values[EW_LEAF] = Int64GetDatum(w->leaf);
		values[EW_UPPER] = Int64GetDatum(w->upper);
		values[EW_ADDED] = Int64GetDatum(w->added);
	}
	/* No WAL for its pages: how many it added is not known. */
	nulls[EW_ADDED] = (w == NULL || (w->created && w->added == 0 && !XLogIsNeeded()));
	if (note != NULL)
	{
		values[EW_NOTE] = CStringGetTextDatum(note);
		nulls[EW_NOTE] = false;
	}
	ou_put_row(rsinfo, values, nulls);
}

/* What a relation file's row says in its note. */
static const char *
ou_rel_note(const OuRelWrites *w)
{
	if (!w->created)
		return NULL;
	if (w->added == 0 && !XLogIsNeeded())
		return "new file, no WAL (wal_level minimal)";
	return "new file";
}

/* The total row: this backend's counters, and the sums of the rows. */
static void
ou_put_total_row(ReturnSetInfo *rsinfo, const WalUsage *wd, const BufferUsage *bd,
				 const OuRelWrites *sum, uint64 nrows, double seconds)
{
	Datum		values[OU_EW_NCOLS];
	bool		nulls[OU_EW_NCOLS];
	int			i;

	for (i = 0; i < OU_EW_NCOLS; i++)
		nulls[i] = false;
	nulls[EW_RELATION] = nulls[EW_RELFILENODE] = nulls[EW_NOTE] = true;
	values[EW_KIND] = CStringGetTextDatum("total");
	values[EW_RECORDS] = Int64GetDatum((int64) wd->wal_records);
	values[EW_BYTES] = Int64GetDatum((int64) wd->wal_bytes);
	values[EW_FPI] = Int64GetDatum((int64) wd->wal_fpi);
	values[EW_LEAF] = Int64GetDatum(sum->leaf);
	values[EW_UPPER] = Int64GetDatum(sum->upper);
	values[EW_ADDED] = Int64GetDatum(sum->added);
	values[EW_ROWS] = Int64GetDatum((int64) nrows);
	values[EW_SECONDS] = Float8GetDatum(ou_round(seconds, 3));
	values[EW_HIT] = Int64GetDatum(bd->shared_blks_hit);
	values[EW_READ] = Int64GetDatum(bd->shared_blks_read);
	values[EW_DIRTIED] = Int64GetDatum(bd->shared_blks_dirtied);
	values[EW_WRITTEN] = Int64GetDatum(bd->shared_blks_written);
	ou_put_row(rsinfo, values, nulls);
}

/*
 * ou_check_one_statement
 *		explain_writes measures exactly one statement: none (an empty or
 *		comment-only text) or several is an error.
 */
static void
ou_check_one_statement(const char *sql)
{
	int			nstmts = list_length(raw_parser(sql, RAW_PARSE_DEFAULT));

	if (nstmts != 1)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("explain_writes takes a single statement"),
				 nstmts == 0 ? errdetail("The text holds no statement.") :
				 errdetail("The text holds %d statements.", nstmts)));
}

/* Run the statement through SPI (rows discarded); returns the row count. */
static uint64
ou_run_statement(const char *sql)
{
	SPIExecuteOptions opts;
	int			ret;

	memset(&opts, 0, sizeof(opts));
	opts.read_only = false;
	opts.dest = None_Receiver;	/* like EXPLAIN ANALYZE: rows are discarded */
	ret = SPI_execute_extended(sql, &opts);
	if (ret < 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("explain_writes cannot run this statement: %s",
						SPI_result_code_string(ret)),
				 errhint("Transaction control and COPY FROM STDIN or TO STDOUT cannot be run inside a function.")));
	return SPI_processed;
}

/*
 * explain_writes(statement text) RETURNS TABLE(relation regclass,
 *	relfilenode oid, kind text, wal_records, wal_bytes, wal_fpi, leaf_splits,
 *	upper_splits, blocks_added, rows bigint, seconds float8,
 *	shared_blks_hit, shared_blks_read, shared_blks_dirtied,
 *	shared_blks_written bigint, note text)
 */
Datum
explain_writes(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *sql;
	BufferUsage b0,
				bd;
	WalUsage	w0,
				wd;
	instr_time	t0,
				t1;
	XLogRecPtr	start = InvalidXLogRecPtr,
				end;
	uint64		nrows;
	bool		scan_wal;
	HTAB	   *rels = NULL;
	HASH_SEQ_STATUS seq;
	OuRelWrites *w;
	OuRelWrites other;
	OuRelWrites sum;
	OuStmtXids	xids;
	List	   *nowal_before;
	List	   *nowal;
	ListCell   *lc;
	MemoryContext cxt = CurrentMemoryContext;
	bool		held;
	bool		citus;

	ou_check_not_null(fcinfo, 0, "statement");
	sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	ou_check_one_statement(sql);
	/* A statement on a Citus table writes on other nodes: refuse it. */
	citus = ou_citus_check_explain_writes(sql);
	ou_init_materialized_srf(fcinfo);
	ou_check_result_columns(rsinfo->setDesc, OU_EW_NCOLS_0_1, OU_EW_NCOLS, "explain_writes");

	/* On a standby nothing can write WAL: only the total row. */
	scan_wal = !RecoveryInProgress();
	held = scan_wal && ou_hold_wal();
	memset(&other, 0, sizeof(other));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	nowal_before = ou_nowal_snapshot(cxt);

	/* Run the statement, between counter snapshots. */
	if (scan_wal)
		start = GetXLogInsertRecPtr();
	ou_stmt_xids_begin(&xids);
	b0 = pgBufferUsage;
	w0 = pgWalUsage;
	INSTR_TIME_SET_CURRENT(t0);
	nrows = ou_run_statement(sql);
	INSTR_TIME_SET_CURRENT(t1);
	INSTR_TIME_SUBTRACT(t1, t0);
	memset(&bd, 0, sizeof(bd));
	memset(&wd, 0, sizeof(wd));
	BufferUsageAccumDiff(&bd, &pgBufferUsage, &b0);
	WalUsageAccumDiff(&wd, &pgWalUsage, &w0);
	ou_stmt_xids_end(&xids);

	/*
	 * It reached the cluster after all (a function, a trigger, a command
	 * Citus propagates): its writes there are not in our WAL.  The error
	 * rolls the statement back.
	 */
	if (citus && ou_citus_xact_number() != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("explain_writes cannot measure a statement that ran on other Citus nodes"),
				 errdetail("Citus ran part of it on the nodes that hold the shards (through a function, a trigger or a propagated command); their writes are not in this server's WAL. The statement was rolled back."),
				 errhint("Measure on the nodes: compare pg_current_wal_insert_lsn() before and after the statement on each (run_command_on_all_nodes()), and call index_splits() there for that range.")));

	nowal = ou_nowal_snapshot(cxt);
	SPI_finish();

	if (scan_wal)
	{
		/* Our records are not committed yet: make sure they are on disk. */
		end = ou_wal_insert_end_lsn();
		if (end > start)
			XLogFlush(end);
		rels = ou_writes_scan(start, end, &xids, &other, held ?
							  "The replication slot that held it was invalidated: raise max_slot_wal_keep_size." :
							  "No replication slot held it (one needs the REPLICATION attribute, wal_level replica or logical, and a free slot of max_replication_slots): raise max_wal_size or wal_keep_size.");
	}
	/* an error before here: the abort of its (sub)transaction drops the slot */
	if (held)
		ou_release_wal();
	nowal = ou_nowal_changed(nowal_before, nowal, rels);

	/* One row per relation file. */
	memset(&sum, 0, sizeof(sum));
	if (rels != NULL)
	{
		hash_seq_init(&seq, rels);
		while ((w = hash_seq_search(&seq)) != NULL)
		{
			CHECK_FOR_INTERRUPTS();
			ou_put_rel_row(rsinfo, ou_wal_relid(&w->key), w->key.relNumber, NULL, w,
						   ou_rel_note(w));
			sum.leaf += w->leaf;
			sum.upper += w->upper;
			sum.added += w->added;
		}
	}

	/* Relations it changed whose pages write no WAL. */
	foreach(lc, nowal)
	{
		OuNoWal    *n = lfirst(lc);

		ou_put_rel_row(rsinfo, n->relid, n->relfilenode, NULL, NULL,
					   n->persistence == RELPERSISTENCE_TEMP ? "no WAL (temporary)" :
					   n->persistence == RELPERSISTENCE_UNLOGGED ? "no WAL (unlogged)" :
					   "no WAL (wal_level minimal)");
	}

	/* This transaction's records that touch no block (rare). */
	if (other.records > 0)
		ou_put_rel_row(rsinfo, InvalidOid, InvalidOid, "other", &other, NULL);

	ou_put_total_row(rsinfo, &wd, &bd, &sum, nrows, INSTR_TIME_GET_DOUBLE(t1));
	return (Datum) 0;
}
