/*-------------------------------------------------------------------------
 *
 * citus.h
 *	  What ordered_uuid knows about Citus (citus.c): whether it is installed
 *	  in the database, whether a relation is a Citus table (its rows live in
 *	  shards on the nodes of the cluster), and the cluster-wide figures the
 *	  diagnostics and bench_insert_distributed() fan out for.
 *
 * Nothing here links against Citus: it is detected through its catalog
 * (pg_extension, then pg_dist_partition) and reached through its SQL
 * functions (master_run_on_worker, shard_name, get_current_transaction_id).
 * Without Citus the only cost is one pg_extension lookup.
 *
 * IDENTIFICATION
 *	  src/citus.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_CITUS_H
#define ORDERED_UUID_CITUS_H

#include "nodes/pg_list.h"

/* index_shape() of every shard of a Citus table's index, added up */
typedef struct OuCitusIndexShape
{
	int64		shards;			/* shards measured (one placement each) */
	int64		leaf_pages;
	int64		internal_pages;
	int32		levels;			/* the deepest shard's */
	double		avg_leaf_density;	/* weighted by leaf pages; < 0: none */
	double		leaf_fragmentation; /* weighted by leaf pages; < 0: none */
	int64		deleted_pages;
	int64		empty_pages;
	int64		bytes;			/* pg_relation_size() of the shard indexes */
	int64		split_leaves;	/* leaf pages beyond each shard's first */
} OuCitusIndexShape;

/* WAL written on some nodes, from their pg_stat_wal */
typedef struct OuCitusWal
{
	int64		records;
	int64		fpi;
	int64		bytes;
} OuCitusWal;

/* a node of the cluster */
typedef struct OuCitusNode
{
	char	   *name;
	int32		port;
} OuCitusNode;

extern bool ou_citus_installed(void);
extern bool ou_citus_table(Oid relid);
extern void ou_citus_index_shape(Oid indexid, Oid tableid, const char *extschema,
								 OuCitusIndexShape *out);
extern int64 ou_citus_xact_number(void);
extern bool ou_citus_check_explain_writes(const char *sql);
extern void ou_citus_check_sequence(Oid seqid, int64 value);
extern bool ou_citus_is_coordinator(void);
extern void ou_citus_notice_node_only(const char *fname);
extern List *ou_citus_other_nodes(void);
extern void ou_citus_run_on_nodes(List *nodes, const char *command, const char *what,
								  List **results);
extern OuCitusWal ou_citus_nodes_wal(List *nodes);

#endif							/* ORDERED_UUID_CITUS_H */
