/*-------------------------------------------------------------------------
 *
 * citus.c
 *	  Citus support: detecting it and Citus tables, and asking the nodes of
 *	  the cluster for the figures that the coordinator cannot see.
 *
 * A Citus table (distributed, reference or Citus-managed local table) is an
 * empty shell on the coordinator: its rows, heap and index pages live in
 * shards, tables of their own on the nodes (table name _ shard id).  So a
 * diagnostic that reads the shell would give a plausible wrong answer
 * (index_shape() all zeros, explain_writes() no WAL).  The functions here
 * let the diagnostics either give the cluster-wide answer, by running a
 * query on one placement of every shard through Citus's own
 * master_run_on_worker() (the primitive of run_command_on_shards()) and
 * adding the results up, or refuse with a clear error.
 *
 * Detection goes through the catalog: pg_extension first (one index lookup,
 * the whole cost when Citus is absent), then pg_dist_partition, which lists
 * every Citus table (shards are not in it).  All SQL runs under search_path
 * = pg_catalog, pg_temp with schema-qualified names, and the commands sent
 * to the nodes qualify every function, type and operator, since they run
 * under the node's default search_path for the calling role.
 *
 * IDENTIFICATION
 *	  src/citus.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_sequence.h"
#include "catalog/pg_type_d.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "optimizer/optimizer.h"
#include "parser/parser.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "citus.h"
#include "compat.h"
#include "util.h"

/* Citus gives each worker group's copy of a bigint sequence 2^48 values */
#define OU_CITUS_SEQ_SHIFT		48

/* the command index_shape() runs on one shard: %1$L the shard index, %2$I our schema */
#define OU_SHARD_INDEX_SHAPE_CMD \
	"SELECT pg_catalog.concat_ws(' ', s.leaf_pages, s.internal_pages, s.levels," \
	" COALESCE(s.avg_leaf_density, 0), COALESCE(s.leaf_fragmentation, 0)," \
	" s.deleted_pages, s.empty_pages, pg_catalog.pg_relation_size(%1$L::pg_catalog.regclass))" \
	" FROM %2$I.index_shape(%1$L::pg_catalog.regclass) AS s"

/*
 * ou_citus_spi_begin / ou_citus_spi_end
 *		Connect to SPI with search_path = pg_catalog, pg_temp for the
 *		duration (restored by ou_citus_spi_end, or by the abort on error).
 */
static bool ou_citus_from_coordinator(void);

static int
ou_citus_spi_begin(void)
{
	int			nest;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	nest = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return nest;
}

static void
ou_citus_spi_end(int nest)
{
	AtEOXact_GUC(true, nest);
	SPI_finish();
}

/*
 * ou_citus_listed
 *		Whether query, a SELECT on one of Citus's catalogs with the OID id
 *		as $1, returns a row.
 */
static bool
ou_citus_listed(const char *query, Oid id)
{
	Oid			argtypes[1] = {OIDOID};
	Datum		args[1];
	bool		found;
	int			nest = ou_citus_spi_begin();

	args[0] = ObjectIdGetDatum(id);
	if (SPI_execute_with_args(query, 1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read Citus's catalog: %s", query);
	found = SPI_processed > 0;
	ou_citus_spi_end(nest);
	return found;
}

/*
 * ou_citus_installed
 *		Whether the citus extension exists in this database.
 */
bool
ou_citus_installed(void)
{
	return OidIsValid(get_extension_oid("citus", true));
}

/*
 * ou_citus_table
 *		Whether relid is a Citus table (listed in pg_dist_partition): its
 *		rows are in shards, and the relation itself is an empty shell.
 *		False whenever Citus is not installed.
 */
bool
ou_citus_table(Oid relid)
{
	if (!OidIsValid(relid) || !ou_citus_installed())
		return false;
	return ou_citus_listed("SELECT 1 FROM pg_catalog.pg_dist_partition AS p"
						   " WHERE p.logicalrelid::pg_catalog.oid OPERATOR(pg_catalog.=) $1",
						   relid);
}

/*
 * ou_citus_fields
 *		Split a node's answer into n space-separated numbers; false if it
 *		does not have exactly that shape.
 */
static bool
ou_citus_fields(const char *s, int n, double *out)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		char	   *end;

		out[i] = strtod(s, &end);
		if (end == s || (*end != ' ' && *end != '\0'))
			return false;
		s = end;
		while (*s == ' ')
			s++;
	}
	return *s == '\0';
}

/*
 * ou_citus_node_failed
 *		Report what a node answered instead of a result.
 */
static void
ou_citus_node_failed(const char *what, const char *node, int port, const char *answer)
{
	ereport(ERROR,
			(errcode(ERRCODE_CONNECTION_EXCEPTION),
			 errmsg("could not %s on node %s:%d", what, node, port),
			 errdetail("The node answered: %s", answer ? answer : "(nothing)")));
}

/*
 * ou_citus_check_placements
 *		Every shard of the Citus table tableid must have an active placement
 *		on an active primary node, or a sum over the shards would leave it
 *		out.  SPI must be connected.
 */
static void
ou_citus_check_placements(Oid tableid)
{
	Oid			argtypes[1] = {OIDOID};
	Datum		args[1];
	bool		isnull;
	int64		missing;

	args[0] = ObjectIdGetDatum(tableid);
	if (SPI_execute_with_args("SELECT pg_catalog.count(*) FROM pg_catalog.pg_dist_shard AS s"
							  " WHERE s.logicalrelid::pg_catalog.oid OPERATOR(pg_catalog.=) $1"
							  "   AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_placement AS pl"
							  "       JOIN pg_catalog.pg_dist_node AS n"
							  "         ON n.groupid OPERATOR(pg_catalog.=) pl.groupid"
							  "      WHERE pl.shardid OPERATOR(pg_catalog.=) s.shardid"
							  "        AND pl.shardstate OPERATOR(pg_catalog.=) 1 AND n.isactive"
							  "        AND n.noderole OPERATOR(pg_catalog.=) 'primary')",
							  1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read the placements of relation %u", tableid);
	missing = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	if (missing > 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("cannot read " INT64_FORMAT " shard(s) of \"%s\": no active placement",
						missing, get_rel_name(tableid))));
}

/*
 * ou_citus_index_shape
 *		index_shape() of one placement of every shard of indexid, an index of
 *		the Citus table tableid, added up: page counts summed, levels the
 *		deepest, density and fragmentation averaged with the leaf pages as
 *		weights (exact, since every leaf page has the same room; each shard's
 *		figure is rounded to 2 decimals first, so the total is within 0.01).
 *		extschema is ordered_uuid's schema, the same on every node (CREATE
 *		EXTENSION on the coordinator creates it on the nodes).  Any shard
 *		that cannot be measured is an error: never a partial sum.
 */
void
ou_citus_index_shape(Oid indexid, Oid tableid, const char *extschema, OuCitusIndexShape *out)
{
	Oid			argtypes[4] = {REGCLASSOID, REGCLASSOID, TEXTOID, TEXTOID};
	Datum		args[4];
	double		density_sum = 0,
				frag_sum = 0;
	uint64		i;
	int			nest;

	memset(out, 0, sizeof(*out));
	nest = ou_citus_spi_begin();
	ou_citus_check_placements(tableid);
	args[0] = ObjectIdGetDatum(indexid);
	args[1] = ObjectIdGetDatum(tableid);
	args[2] = CStringGetTextDatum(extschema);
	args[3] = CStringGetTextDatum(OU_SHARD_INDEX_SHAPE_CMD);
	if (SPI_execute_with_args(
							  "WITH p AS ("
							  "  SELECT DISTINCT ON (s.shardid) s.shardid, n.nodename, n.nodeport"
							  "    FROM pg_catalog.pg_dist_shard AS s"
							  "    JOIN pg_catalog.pg_dist_placement AS pl"
							  "      ON pl.shardid OPERATOR(pg_catalog.=) s.shardid"
							  "    JOIN pg_catalog.pg_dist_node AS n"
							  "      ON n.groupid OPERATOR(pg_catalog.=) pl.groupid"
							  "   WHERE s.logicalrelid::pg_catalog.oid OPERATOR(pg_catalog.=) $2::pg_catalog.oid"
							  "     AND pl.shardstate OPERATOR(pg_catalog.=) 1"
							  "     AND n.isactive AND n.noderole OPERATOR(pg_catalog.=) 'primary'"
							  "   ORDER BY s.shardid, n.nodeid),"
							  " c AS ("
							  "  SELECT pg_catalog.array_agg(p.nodename ORDER BY p.shardid) AS nodes,"
							  "         pg_catalog.array_agg(p.nodeport ORDER BY p.shardid) AS ports,"
							  "         pg_catalog.array_agg(pg_catalog.format($4,"
							  "             pg_catalog.shard_name($1, p.shardid, false), $3)"
							  "             ORDER BY p.shardid) AS cmds"
							  "    FROM p)"
							  " SELECT c.nodes[r.ord], c.ports[r.ord], r.success, r.result"
							  "   FROM c, LATERAL pg_catalog.master_run_on_worker(c.nodes, c.ports, c.cmds, true)"
							  "        WITH ORDINALITY AS r(node_name, node_port, success, result, ord)"
							  "  ORDER BY r.ord",
							  4, argtypes, args, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not measure the shards of index %u", indexid);

	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		char	   *node = SPI_getvalue(tup, desc, 1);
		char	   *port = SPI_getvalue(tup, desc, 2);
		char	   *success = SPI_getvalue(tup, desc, 3);
		char	   *result = SPI_getvalue(tup, desc, 4);
		double		f[8];
		int64		leaf;

		CHECK_FOR_INTERRUPTS();
		if (success == NULL || strcmp(success, "t") != 0)
			ou_citus_node_failed(psprintf("measure a shard of index \"%s\"", get_rel_name(indexid)),
								 node, port ? atoi(port) : 0, result);
		if (result == NULL || !ou_citus_fields(result, 8, f))
			ou_citus_node_failed(psprintf("measure a shard of index \"%s\"", get_rel_name(indexid)),
								 node, port ? atoi(port) : 0,
								 psprintf("unexpected result \"%s\"", result ? result : ""));
		leaf = (int64) f[0];
		out->shards++;
		out->leaf_pages += leaf;
		out->internal_pages += (int64) f[1];
		out->levels = Max(out->levels, (int32) f[2]);
		density_sum += f[3] * leaf;
		frag_sum += f[4] * leaf;
		out->deleted_pages += (int64) f[5];
		out->empty_pages += (int64) f[6];
		out->bytes += (int64) f[7];
		out->split_leaves += Max(leaf - 1, 0);
	}
	ou_citus_spi_end(nest);

	out->avg_leaf_density = out->leaf_pages > 0 ? ou_round(density_sum / out->leaf_pages, 2) : -1;
	out->leaf_fragmentation = out->leaf_pages > 0 ? ou_round(frag_sum / out->leaf_pages, 2) : -1;
}

/*
 * ou_citus_xact_number
 *		Citus's distributed transaction number of the current transaction:
 *		0 until the transaction has run something on the cluster's nodes.
 *		Citus must be installed.
 */
int64
ou_citus_xact_number(void)
{
	int64		n = 0;
	bool		isnull;
	int			nest = ou_citus_spi_begin();

	if (SPI_execute("SELECT (pg_catalog.get_current_transaction_id()).transaction_number",
					true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not read the Citus transaction id");
	n = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	if (isnull)
		n = 0;
	ou_citus_spi_end(nest);
	return n;
}

/*
 * ou_citus_check_explain_writes
 *		explain_writes() reads this server's WAL: it cannot see what a
 *		statement on a Citus table writes on the nodes that hold the shards.
 *		Refuse, before running it, a statement whose query names a Citus
 *		table, and any statement in a transaction that has already run
 *		something on the cluster (explain_writes could not tell the
 *		statement's remote work from the earlier one).  Returns whether
 *		Citus is installed: then explain_writes checks again after the
 *		statement (ou_citus_xact_number), for a function, trigger or
 *		propagated command that reached the cluster.
 */
bool
ou_citus_check_explain_writes(const char *sql)
{
	List	   *raws;
	ListCell   *lc;

	if (!ou_citus_installed())
		return false;
	if (ou_citus_xact_number() != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("explain_writes cannot run in a transaction that has run statements on Citus tables"),
				 errdetail("Citus ran them on the nodes that hold the shards, and the writes of this statement there could not be told apart from theirs."),
				 errhint("Run explain_writes in a transaction of its own.")));

	raws = raw_parser(sql, RAW_PARSE_DEFAULT);
	foreach(lc, raws)
	{
		List	   *queries = ou_analyze_and_rewrite(lfirst_node(RawStmt, lc), sql);
		ListCell   *lq;

		foreach(lq, queries)
		{
			List	   *relids = NIL;
			List	   *invals = NIL;
			bool		rls = false;
			ListCell   *lr;

			extract_query_dependencies((Node *) lfirst(lq), &relids, &invals, &rls);
			foreach(lr, relids)
			{
				Oid			relid = lfirst_oid(lr);

				if (ou_citus_table(relid))
					ereport(ERROR,
							(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
							 errmsg("explain_writes cannot measure a statement on Citus table \"%s\"",
									get_rel_name(relid)),
							 errdetail("Citus runs it on the nodes that hold the table's shards; their writes are not in this server's WAL."),
							 errhint("Measure on the nodes: compare pg_current_wal_insert_lsn() before and after the statement on each (run_command_on_all_nodes()), and call index_splits() there for that range; bench_insert_distributed() compares keys on the cluster in one call.")));
			}
		}
	}
	return true;
}

/*
 * ou_citus_distributed_object
 *		Whether relation relid is an object Citus propagates to the nodes
 *		(pg_dist_object).  Citus must be installed.
 */
static bool
ou_citus_distributed_object(Oid relid)
{
	return ou_citus_listed("SELECT 1 FROM pg_catalog.pg_dist_object AS o"
						   " WHERE o.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass"
						   "   AND o.objid OPERATOR(pg_catalog.=) $1",
						   relid);
}

/*
 * ou_citus_check_sequence
 *		uuid_sequence_nextval() got value from sequence seqid, and value is
 *		above 2^48.  On a Citus worker, Citus gives its copy of a bigint
 *		sequence used in a distributed table's default the range
 *		[group << 48 + 1, (group + 1) << 48 + 1): keys made there would map
 *		to block ids unrelated to the coordinator's (block 0 for a new
 *		range), a silently wrong order.  Refuse when the sequence has exactly
 *		that range and Citus propagates it (pg_dist_object); any other
 *		sequence passes (a syscache lookup is the only cost, and only for
 *		values above 2^48).
 */
void
ou_citus_check_sequence(Oid seqid, int64 value)
{
	HeapTuple	tup;
	Form_pg_sequence seq;
	int64		span = (int64) 1 << OU_CITUS_SEQ_SHIFT;
	bool		citus_range;
	int64		start;

	tup = SearchSysCache1(SEQRELID, ObjectIdGetDatum(seqid));
	if (!HeapTupleIsValid(tup))
		return;
	seq = (Form_pg_sequence) GETSTRUCT(tup);
	start = seq->seqmin;
	citus_range = seq->seqtypid == INT8OID && start > span &&
		((start - 1) & (span - 1)) == 0 && seq->seqmax == start + span &&
		value >= start && value <= seq->seqmax;
	ReleaseSysCache(tup);
	if (!citus_range || !ou_citus_installed() || !ou_citus_distributed_object(seqid))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("uuid_sequence_nextval cannot use sequence \"%s\" on this Citus node",
					get_rel_name(seqid)),
			 errdetail("Citus gave this node's copy of the sequence a range of its own, starting at " INT64_FORMAT " (group " INT64_FORMAT " times 2^48, plus 1): its keys would fall into blocks unrelated to the order of the keys made on the coordinator.",
					   start, (start - 1) >> OU_CITUS_SEQ_SHIFT),
			 ou_citus_from_coordinator() ?
			 errhint("The coordinator sent this statement to the nodes, as Citus does with an INSERT ... SELECT between colocated tables, so the column default is evaluated on each node. Use uuid_v7_nextval() or uuid_time_nextval() as the default, which need no sequence, or have the coordinator make the keys: select the rows into a table on the coordinator (a temporary table) and insert them from there.") :
			 errhint("Insert through the coordinator, which evaluates the column default and sends the key to the nodes, or use uuid_v7_nextval() or uuid_time_nextval(), which need no sequence.")));
}

/*
 * ou_citus_from_coordinator
 *		Whether this session is one that another Citus node opened to run
 *		part of a distributed statement (Citus names those sessions
 *		"citus_internal ..." in application_name).
 */
static bool
ou_citus_from_coordinator(void)
{
	const char *app = GetConfigOption("application_name", true, false);

	return app != NULL && strncmp(app, "citus_internal", strlen("citus_internal")) == 0;
}

/*
 * ou_citus_notice_node_only
 *		On a Citus coordinator whose database has Citus tables, a NOTICE that
 *		fname describes this node only: the indexes of Citus tables live in
 *		shards on the nodes, and their page splits are in those nodes' WAL.
 *		Nothing without Citus (a catalog lookup is the whole cost).
 */
void
ou_citus_notice_node_only(const char *fname)
{
	int64		tables;
	bool		isnull;
	int			nest;

	if (!ou_citus_installed() || !ou_citus_is_coordinator())
		return;
	nest = ou_citus_spi_begin();
	if (SPI_execute("SELECT pg_catalog.count(*) FROM pg_catalog.pg_dist_partition", true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read Citus's catalog pg_dist_partition");
	tables = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	ou_citus_spi_end(nest);
	if (tables == 0)
		return;
	ereport(NOTICE,
			(errmsg("%s describes this node only", fname),
			 errdetail("This database has " INT64_FORMAT " Citus tables; their indexes live in shards on the nodes that hold them, and those indexes' page splits are in the WAL of those nodes.", tables),
			 errhint("Call %s on each node, for example through run_command_on_workers().", fname)));
}

/*
 * ou_citus_is_coordinator
 *		Whether this server is the Citus coordinator.  Citus must be
 *		installed.
 */
bool
ou_citus_is_coordinator(void)
{
	bool		isnull;
	bool		is;
	int			nest = ou_citus_spi_begin();

	if (SPI_execute("SELECT pg_catalog.citus_is_coordinator()", true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not ask Citus whether this is the coordinator");
	is = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	ou_citus_spi_end(nest);
	return !isnull && is;
}

/*
 * ou_citus_other_nodes
 *		The active primary nodes of the cluster other than this one, as a
 *		List of OuCitusNode in the caller's memory context.
 */
List *
ou_citus_other_nodes(void)
{
	MemoryContext outer = CurrentMemoryContext;
	List	   *nodes = NIL;
	uint64		i;
	int			nest = ou_citus_spi_begin();

	if (SPI_execute("SELECT n.nodename, n.nodeport FROM pg_catalog.pg_dist_node AS n"
					" WHERE n.isactive AND n.noderole OPERATOR(pg_catalog.=) 'primary'"
					"   AND n.groupid OPERATOR(pg_catalog.<>)"
					"       (SELECT g.groupid FROM pg_catalog.pg_dist_local_group AS g)"
					" ORDER BY n.nodeid", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_dist_node");
	for (i = 0; i < SPI_processed; i++)
	{
		MemoryContext old = MemoryContextSwitchTo(outer);
		OuCitusNode *n = palloc(sizeof(OuCitusNode));

		n->name = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		n->port = atoi(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2));
		nodes = lappend(nodes, n);
		MemoryContextSwitchTo(old);
	}
	ou_citus_spi_end(nest);
	return nodes;
}

/*
 * ou_citus_run_on_nodes
 *		Run command on every node of nodes (in parallel, each over a new
 *		connection as the current role, through master_run_on_worker());
 *		an error on any node is raised here ("could not <what> on node
 *		...").  With results, the answers (text, one per node, in order)
 *		are returned in the caller's memory context.
 */
void
ou_citus_run_on_nodes(List *nodes, const char *command, const char *what, List **results)
{
	MemoryContext outer = CurrentMemoryContext;
	Oid			argtypes[3] = {TEXTARRAYOID, INT4ARRAYOID, TEXTARRAYOID};
	Datum		args[3];
	Datum	   *names;
	Datum	   *ports;
	Datum	   *cmds;
	ListCell   *lc;
	int			n = 0;
	uint64		i;
	int			nest;

	if (results)
		*results = NIL;
	if (nodes == NIL)
		return;
	names = palloc(sizeof(Datum) * list_length(nodes));
	ports = palloc(sizeof(Datum) * list_length(nodes));
	cmds = palloc(sizeof(Datum) * list_length(nodes));
	foreach(lc, nodes)
	{
		OuCitusNode *node = (OuCitusNode *) lfirst(lc);

		names[n] = CStringGetTextDatum(node->name);
		ports[n] = Int32GetDatum(node->port);
		cmds[n] = CStringGetTextDatum(command);
		n++;
	}
	args[0] = PointerGetDatum(construct_array(names, n, TEXTOID, -1, false, TYPALIGN_INT));
	args[1] = PointerGetDatum(construct_array(ports, n, INT4OID, 4, true, TYPALIGN_INT));
	args[2] = PointerGetDatum(construct_array(cmds, n, TEXTOID, -1, false, TYPALIGN_INT));

	nest = ou_citus_spi_begin();
	if (SPI_execute_with_args("SELECT r.success, r.result"
							  " FROM pg_catalog.master_run_on_worker($1, $2, $3, true)"
							  "      WITH ORDINALITY AS r(node_name, node_port, success, result, ord)"
							  " ORDER BY r.ord",
							  3, argtypes, args, NULL, false, 0) != SPI_OK_SELECT ||
		SPI_processed != (uint64) n)
		elog(ERROR, "could not run a command on the nodes of the cluster");
	for (i = 0; i < SPI_processed; i++)
	{
		OuCitusNode *node = (OuCitusNode *) list_nth(nodes, (int) i);
		char	   *success = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		char	   *result = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2);

		if (success == NULL || strcmp(success, "t") != 0)
			ou_citus_node_failed(what, node->name, node->port, result);
		if (results)
		{
			MemoryContext old = MemoryContextSwitchTo(outer);

			*results = lappend(*results, pstrdup(result ? result : ""));
			MemoryContextSwitchTo(old);
		}
	}
	ou_citus_spi_end(nest);
}

/*
 * ou_citus_nodes_wal
 *		The WAL counters of pg_stat_wal (records, full-page images, bytes),
 *		summed over nodes.  Cumulative statistics: a backend reports its
 *		share when it is idle, at most every second and at the latest
 *		PGSTAT_IDLE_INTERVAL (10 s) after its last transaction, so a caller
 *		that needs the WAL of work that just ended must wait that long.
 */
OuCitusWal
ou_citus_nodes_wal(List *nodes)
{
	OuCitusWal	sum;
	List	   *results;
	ListCell   *lc;
	int			i = 0;

	memset(&sum, 0, sizeof(sum));
	ou_citus_run_on_nodes(nodes,
						  "SELECT pg_catalog.concat_ws(' ', w.wal_records, w.wal_fpi, w.wal_bytes)"
						  " FROM pg_catalog.pg_stat_wal AS w",
						  "read pg_stat_wal", &results);
	foreach(lc, results)
	{
		double		f[3];
		OuCitusNode *node = (OuCitusNode *) list_nth(nodes, i++);

		if (!ou_citus_fields((char *) lfirst(lc), 3, f))
			ou_citus_node_failed("read pg_stat_wal", node->name, node->port,
								 psprintf("unexpected result \"%s\"", (char *) lfirst(lc)));
		sum.records += (int64) f[0];
		sum.fpi += (int64) f[1];
		sum.bytes += (int64) f[2];
	}
	return sum;
}
