/*-------------------------------------------------------------------------
 *
 * collector_views.c
 *	  The SQL-callable side of the collector: the set-returning functions
 *	  behind the views wait_profile, extend_lock_stats and index_split_stats,
 *	  collector_info() and ordered_uuid_reset(), and the helpers that
 *	  collector_detail.c shares (the detailed profile and the history).
 *
 * Locking (the rules: collector_shmem.c): readers copy the shared tables
 * and counters under the collector's LWLock in shared mode (ou_lock_shared:
 * it lets the worker in first), and the fields that the worker writes
 * without the LWLock under the spinlock mutex, after releasing the LWLock;
 * they build their rows with nothing held.  ordered_uuid_reset() takes the
 * LWLock exclusively, and mutex within it to zero ticks.
 *
 * Visibility (other users' details only for pg_read_all_stats): these
 * tables hold no query text.  wait_profile, extend_lock_stats and
 * index_split_stats hold no process or role either, so the detail they
 * protect is which database a row belongs to -- a row of a database the
 * caller may not CONNECT to is shown only to
 * members of pg_read_all_stats (rows of processes without a database are
 * shown to everyone).  The detailed profile and the history follow the same
 * database rule and also carry each process's pid, role and query id:
 * pg_stat_activity shows a process's wait event and query id only to
 * members of its role and of pg_read_all_stats (ou_role_visible), so any
 * other process -- another role's, or one without a role such as the
 * checkpointer -- is folded into anonymous rows or left out
 * (collector_detail.c).
 *
 * IDENTIFICATION
 *	  src/collector_views.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_authid.h"
#include "catalog/pg_database.h"
#include "commands/dbcommands.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/pg_lsn.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "citus.h"
#include "collector_defs.h"
#include "compat.h"
#include "walscan.h"
#include "util.h"

PG_FUNCTION_INFO_V1(ordered_uuid_wait_profile);
PG_FUNCTION_INFO_V1(ordered_uuid_extend_lock_stats);
PG_FUNCTION_INFO_V1(ordered_uuid_index_split_stats);
PG_FUNCTION_INFO_V1(ordered_uuid_collector_info);
PG_FUNCTION_INFO_V1(ordered_uuid_reset);

/*
 * ou_visibility_init
 *		Start a visibility cache for the current user.
 */
void
ou_visibility_init(OuVisibility *v)
{
	v->read_all = has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_STATS);
	v->ndb = 0;
	v->nrole = 0;
}

/*
 * ou_db_visible
 *		May the caller see rows of database dbid (see the file header)?
 */
bool
ou_db_visible(OuVisibility *v, Oid dbid)
{
	bool		ok;
	int			i;

	if (v->read_all || !OidIsValid(dbid) || dbid == MyDatabaseId)
		return true;
	for (i = 0; i < v->ndb; i++)
		if (v->dbid[i] == dbid)
			return v->db_ok[i];
	ok = SearchSysCacheExists1(DATABASEOID, ObjectIdGetDatum(dbid)) &&
		ou_database_connect_ok(dbid, GetUserId());
	if (v->ndb < OU_VIS_CACHE)
	{
		v->dbid[v->ndb] = dbid;
		v->db_ok[v->ndb] = ok;
		v->ndb++;
	}
	return ok;
}

/*
 * ou_role_visible
 *		May the caller see the pid, role and query id of a process of role
 *		roleid (0 for none) next to its wait event?  As pg_stat_activity's
 *		wait_event and query_id: members of that role and of
 *		pg_read_all_stats; a process without a role only to the latter.
 */
bool
ou_role_visible(OuVisibility *v, Oid roleid)
{
	bool		ok;
	int			i;

	if (v->read_all || roleid == GetUserId())
		return true;
	for (i = 0; i < v->nrole; i++)
		if (v->roleid[i] == roleid)
			return v->role_ok[i];
	ok = OidIsValid(roleid) && has_privs_of_role(GetUserId(), roleid);
	if (v->nrole < OU_VIS_CACHE)
	{
		v->roleid[v->nrole] = roleid;
		v->role_ok[v->nrole] = ok;
		v->nrole++;
	}
	return ok;
}

/*
 * ou_copy_table
 *		Copy every entry of a shared table into a palloc'd array (under the
 *		LWLock in shared mode, released before returning).
 */
void *
ou_copy_table(HTAB *htab, Size entrysize, int *count)
{
	HASH_SEQ_STATUS seq;
	void	   *entry;
	char	   *copy;
	int			n = 0;
	long		cap;

	ou_lock_shared();
	cap = hash_get_num_entries(htab);
	copy = palloc(entrysize * Max(cap, 1));
	hash_seq_init(&seq, htab);
	while ((entry = hash_seq_search(&seq)) != NULL)
	{
		CHECK_FOR_INTERRUPTS();
		if (n < cap)
			memcpy(copy + entrysize * n++, entry, entrysize);
	}
	LWLockRelease(ou_shared->lock);
	*count = n;
	return copy;
}

/*
 * ou_emit_rows
 *		The result of a set-returning function (materialised: the pattern
 *		that works on 14-18) from n entries of entrysize bytes, in order:
 *		the entries of databases the caller may not see are skipped (the
 *		database OID is at dbid_offset in an entry), fill builds each
 *		other row, in a memory context reset after each row.
 */
void
ou_emit_rows(FunctionCallInfo fcinfo, const char *entries, int n, Size entrysize,
			 Size dbid_offset, OuRowFiller fill)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	OuVisibility vis;
	MemoryContext rowcxt,
				oldcxt;
	int			i;

	ou_init_materialized_srf(fcinfo);
	if (rsinfo->setDesc->natts > OU_MAX_COLUMNS)
		elog(ERROR, "too many result columns");
	ou_collector_notice_idle();
	ou_visibility_init(&vis);
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "ordered_uuid row",
								   ALLOCSET_SMALL_SIZES);
	for (i = 0; i < n; i++)
	{
		const char *e = entries + entrysize * i;
		Oid			dbid;
		Datum		values[OU_MAX_COLUMNS];
		bool		nulls[OU_MAX_COLUMNS];

		CHECK_FOR_INTERRUPTS();
		memcpy(&dbid, e + dbid_offset, sizeof(Oid));
		if (!ou_db_visible(&vis, dbid))
			continue;
		oldcxt = MemoryContextSwitchTo(rowcxt);
		memset(nulls, 0, sizeof(nulls));
		fill(e, &vis, values, nulls);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextSwitchTo(oldcxt);
		MemoryContextReset(rowcxt);
	}
	MemoryContextDelete(rowcxt);
}

/*
 * ou_emit_table
 *		ou_emit_rows over a copy of a shared table.
 */
void
ou_emit_table(FunctionCallInfo fcinfo, HTAB *htab, Size entrysize, Size dbid_offset,
			  OuRowFiller fill)
{
	int			n;
	char	   *rows = ou_copy_table(htab, entrysize, &n);

	ou_emit_rows(fcinfo, rows, n, entrysize, dbid_offset, fill);
}

/* the name of database dbid, or NULL */
static bool
ou_db_name(Oid dbid, Datum *out)
{
	char	   *name;

	if (!OidIsValid(dbid) || (name = get_database_name(dbid)) == NULL)
		return false;
	*out = DirectFunctionCall1(namein, CStringGetDatum(name));
	return true;
}

/*
 * ou_event_columns
 *		values[0..3] of a profile or history row: database (NULL for none),
 *		backend type, wait event type and wait event (CPU / CPU for 0; a
 *		restored event folded by collector_restore.c is its class's type and
 *		"extension", core's own name for an extension's tranche).
 */
void
ou_event_columns(Oid dbid, int32 backend_type, uint32 wait_event_info,
				 Datum *values, bool *nulls)
{
	const char *t;

	nulls[0] = !ou_db_name(dbid, &values[0]);
	values[1] = CStringGetTextDatum(backend_type == B_INVALID ? "unknown" :
									GetBackendTypeDesc((BackendType) backend_type));
	if (wait_event_info == 0)
	{
		values[2] = CStringGetTextDatum("CPU");
		values[3] = CStringGetTextDatum("CPU");
	}
	else if ((wait_event_info & 0xFFFF) == OU_WAIT_EVENT_FOLDED &&
			 ou_wait_event_id_is_dynamic(wait_event_info))
	{
		/* restored: an extension's event whose name was not kept */
		t = pgstat_get_wait_event_type(wait_event_info);
		values[2] = CStringGetTextDatum(t ? t : "???");
		values[3] = CStringGetTextDatum("extension");
	}
	else
	{
		t = pgstat_get_wait_event_type(wait_event_info);
		values[2] = CStringGetTextDatum(t ? t : "???");
		t = pgstat_get_wait_event(wait_event_info);
		values[3] = CStringGetTextDatum(t ? t : "???");
	}
}

/* a row of wait_profile: database, backend_type, wait_event_type,
 * wait_event, samples, est_time, datid */
static void
ou_profile_row(const void *entry, OuVisibility *vis, Datum *values, bool *nulls)
{
	const OuProfileEntry *e = entry;

	ou_event_columns(e->key.dbid, e->key.backend_type, e->key.wait_event_info,
					 values, nulls);
	values[4] = Int64GetDatum((int64) e->samples);
	values[5] = ou_interval_us(e->time_us);
	values[6] = ObjectIdGetDatum(e->key.dbid);
}

/*
 * ordered_uuid_wait_profile
 *		Rows of the view wait_profile.
 */
Datum
ordered_uuid_wait_profile(PG_FUNCTION_ARGS)
{
	ou_collector_check_loaded();
	ou_emit_table(fcinfo, ou_profile_htab, sizeof(OuProfileEntry),
				  offsetof(OuProfileEntry, key.dbid), ou_profile_row);
	return (Datum) 0;
}

/*
 * A row of extend_lock_stats: relation, waits, samples, est_wait_time,
 * max_waiters, last_wait, database, datid, relid.  relation is NULL unless
 * the relation is in the current database and still exists.
 */
static void
ou_extend_row(const void *entry, OuVisibility *vis, Datum *values, bool *nulls)
{
	const OuExtendEntry *e = entry;

	if (e->key.dbid == MyDatabaseId &&
		SearchSysCacheExists1(RELOID, ObjectIdGetDatum(e->key.relid)))
		values[0] = ObjectIdGetDatum(e->key.relid);
	else
		nulls[0] = true;
	values[1] = Int64GetDatum((int64) e->waits);
	values[2] = Int64GetDatum((int64) e->samples);
	values[3] = ou_interval_us(e->time_us);
	values[4] = Int32GetDatum(e->max_waiters);
	values[5] = TimestampTzGetDatum(e->last_wait);
	nulls[6] = !ou_db_name(e->key.dbid, &values[6]);
	values[7] = ObjectIdGetDatum(e->key.dbid);
	values[8] = ObjectIdGetDatum(e->key.relid);
}

/*
 * ordered_uuid_extend_lock_stats
 *		Rows of the view extend_lock_stats.
 */
Datum
ordered_uuid_extend_lock_stats(PG_FUNCTION_ARGS)
{
	ou_collector_check_loaded();
	ou_emit_table(fcinfo, ou_extend_htab, sizeof(OuExtendEntry),
				  offsetof(OuExtendEntry, key.dbid), ou_extend_row);
	return (Datum) 0;
}

/*
 * A row of index_split_stats: index, leaf_splits, upper_splits,
 * root_splits, database, datid, tablespace, relfilenode.  index is NULL
 * unless the relfilenode maps to a relation of the current database (it no
 * longer does after REINDEX, TRUNCATE, ...).
 */
static void
ou_split_row(const void *entry, OuVisibility *vis, Datum *values, bool *nulls)
{
	const OuSplitEntry *e = entry;
	Oid			relid = InvalidOid;

	if (e->key.dbOid == MyDatabaseId)
	{
		OuRelFileLocator loc;

		loc.spcOid = e->key.spcOid;
		loc.dbOid = e->key.dbOid;
		loc.relNumber = e->key.relNumber;
		relid = ou_wal_relid(&loc);
	}
	if (OidIsValid(relid))
		values[0] = ObjectIdGetDatum(relid);
	else
		nulls[0] = true;
	values[1] = Int64GetDatum((int64) e->leaf_splits);
	values[2] = Int64GetDatum((int64) e->upper_splits);
	values[3] = Int64GetDatum((int64) e->root_splits);
	nulls[4] = !ou_db_name(e->key.dbOid, &values[4]);
	values[5] = ObjectIdGetDatum(e->key.dbOid);
	values[6] = ObjectIdGetDatum(e->key.spcOid);
	values[7] = ObjectIdGetDatum(e->key.relNumber);
}

/*
 * ordered_uuid_index_split_stats
 *		Rows of the view index_split_stats.  On a Citus coordinator with
 *		Citus tables, a NOTICE says that their indexes' splits are counted on
 *		the nodes that hold the shards.
 */
Datum
ordered_uuid_index_split_stats(PG_FUNCTION_ARGS)
{
	ou_collector_check_loaded();
	ou_citus_notice_node_only("index_split_stats");
	ou_emit_table(fcinfo, ou_split_htab, sizeof(OuSplitEntry),
				  offsetof(OuSplitEntry, key.dbOid), ou_split_row);
	return (Datum) 0;
}

/*
 * ou_wal_lag_columns
 *		wal_lag_bytes, the WAL on disk (flushed, or replayed on a standby)
 *		that the collector has not read, and wal_lag, the time since it last
 *		had read all of it (0 when it has); both NULL while it does not
 *		follow the WAL.
 */
static void
ou_wal_lag_columns(const OuShared *copy, Datum *values, bool *nulls)
{
	XLogRecPtr	disk;
	TimestampTz now;

	if (copy->wal_reached == InvalidXLogRecPtr || copy->worker_pid == 0 || RecoveryInProgress())
	{
		nulls[0] = nulls[1] = true;
		return;
	}
	disk = ou_wal_flush_lsn();
	values[0] = Int64GetDatum(disk > copy->wal_reached ? (int64) (disk - copy->wal_reached) : 0);
	now = GetCurrentTimestamp();
	if (disk <= copy->wal_reached || copy->wal_caught_up == 0 || now < copy->wal_caught_up)
		values[1] = ou_interval_us(0);
	else
		values[1] = ou_interval_us(now - copy->wal_caught_up);
}

/*
 * ordered_uuid_collector_info
 *		One row about the collector itself: its worker, the tables' use and
 *		capacity, what was dropped and evicted, how far it has followed the
 *		WAL, its state, and whether its statistics were restored at the
 *		start.
 */
Datum
ordered_uuid_collector_info(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[26];
	bool		nulls[26];
	OuShared	copy;
	const char *retention;
	long		np,
				ne,
				ns;

	ou_collector_check_loaded();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	/*
	 * SQL versions before 1.2.0 declare the first 15 columns, 1.2.0 the
	 * first 20, 1.3.0 to 1.5.2 the first 23
	 */
	ou_check_result_columns(tupdesc, 15, lengthof(values), "collector_info");

	ou_lock_shared();
	copy = *ou_shared;
	np = hash_get_num_entries(ou_profile_htab);
	ne = hash_get_num_entries(ou_extend_htab);
	ns = hash_get_num_entries(ou_split_htab);
	LWLockRelease(ou_shared->lock);
	/* what the worker writes without the LWLock, under mutex alone */
	SpinLockAcquire(&ou_shared->mutex);
	copy.worker_pid = ou_shared->worker_pid;
	copy.worker_started = ou_shared->worker_started;
	copy.ticks = ou_shared->ticks;
	copy.wal_retention = ou_shared->wal_retention;
	SpinLockRelease(&ou_shared->mutex);

	memset(nulls, 0, sizeof(nulls));
	values[0] = Int32GetDatum(copy.worker_pid);
	nulls[0] = copy.worker_pid == 0;
	values[1] = TimestampTzGetDatum(copy.worker_started);
	nulls[1] = copy.worker_started == 0;
	values[2] = TimestampTzGetDatum(copy.stats_reset);
	values[3] = Int64GetDatum((int64) copy.ticks);
	values[4] = Int32GetDatum(copy.max_entries);
	values[5] = Int64GetDatum((int64) np);
	values[6] = Int64GetDatum((int64) copy.profile.dropped);
	values[7] = Int64GetDatum((int64) ne);
	values[8] = Int64GetDatum((int64) copy.extend.dropped);
	values[9] = Int64GetDatum((int64) ns);
	values[10] = Int64GetDatum((int64) copy.split.dropped);
	values[11] = LSNGetDatum(copy.wal_start);
	nulls[11] = copy.wal_start == InvalidXLogRecPtr;
	values[12] = LSNGetDatum(copy.wal_reached);
	nulls[12] = copy.wal_reached == InvalidXLogRecPtr;
	values[13] = Int64GetDatum((int64) copy.wal_records);
	values[14] = Int64GetDatum((int64) copy.wal_skipped_bytes);
	/* 1.2.0: evictions apart from drops, and the collector's state */
	values[15] = Int64GetDatum((int64) copy.profile.evicted);
	values[16] = Int64GetDatum((int64) copy.extend.evicted);
	values[17] = Int64GetDatum((int64) copy.split.evicted);
	values[18] = Int64GetDatum((int64) copy.split_pruned);
	values[19] = CStringGetTextDatum(ou_collector_state(copy.worker_pid));
	/* 1.3.0: how far behind the WAL it is, and how it keeps what it has not read */
	ou_wal_lag_columns(&copy, values + 20, nulls + 20);
	retention = ou_retention_name(copy.wal_retention);
	nulls[22] = retention == NULL || copy.worker_pid == 0;
	if (!nulls[22])
		values[22] = CStringGetTextDatum(retention);
	/* 1.6.0: whether the statistics go on from the last clean shutdown's, and why (not) */
	values[23] = BoolGetDatum(copy.stats_restored);
	values[24] = TimestampTzGetDatum(copy.stats_saved_at);
	nulls[24] = copy.stats_saved_at == 0;
	values[25] = CStringGetTextDatum(copy.stats_start_reason);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * ordered_uuid_reset
 *		Clear the collector's statistics, the detailed profile and the
 *		history included (EXECUTE is revoked from PUBLIC).  The rounds the
 *		worker still keeps for the tables are dropped (OuShared.resets).
 */
Datum
ordered_uuid_reset(PG_FUNCTION_ARGS)
{
	ou_collector_check_loaded();
	LWLockAcquire(ou_shared->lock, LW_EXCLUSIVE);
	ou_collector_clear("afresh: ordered_uuid_reset()");
	LWLockRelease(ou_shared->lock);
	PG_RETURN_VOID();
}
