/*-------------------------------------------------------------------------
 *
 * collector_detail.c
 *	  The SQL-callable side of the collector's optional parts: the detailed
 *	  wait profile (view wait_profile_detail: per role, and per query id and
 *	  pid when ordered_uuid.profile_queries / profile_pids are on), the
 *	  history ring of recent samples (view wait_history, sized by
 *	  ordered_uuid.history_size) and collector_detail_info().
 *
 * Both parts exist only when their settings ask for them at server start;
 * reading one that is off raises SQLSTATE 55000 with a hint naming the
 * setting.  Visibility is that of wait_profile (collector_views.c): rows of
 * a database the caller may not connect to only for pg_read_all_stats.
 * Within those, per-process, per-role and per-query detail is shown as
 * pg_stat_activity shows a process's wait event and query id: for the
 * processes of roles the caller has the privileges of (has_privs_of_role),
 * or for every process to members of pg_read_all_stats.  Every other
 * process (another role's, or one without a role such as the checkpointer)
 * is folded: in wait_profile_detail its samples are added to one anonymous
 * row per key of wait_profile (database, backend type, wait event) with
 * pid, userid and queryid NULL -- no more than wait_profile shows everyone
 * --, and wait_history, whose rows are single samples with their time,
 * leaves its samples out.
 *
 * Locking (the rules: collector_shmem.c): the detailed profile and the
 * counters are copied under the collector's LWLock in shared mode.  The
 * history ring is copied without it, between two shared-mode reads of the
 * count of samples written, and the slots the worker may have overwritten
 * meanwhile are left out (ou_history_copy).
 *
 * IDENTIFICATION
 *	  src/collector_detail.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "collector_defs.h"
#include "compat.h"
#include "util.h"

PG_FUNCTION_INFO_V1(ordered_uuid_wait_profile_detail);
PG_FUNCTION_INFO_V1(ordered_uuid_wait_history);
PG_FUNCTION_INFO_V1(ordered_uuid_collector_detail_info);

/* a row of wait_profile_detail: the columns of wait_profile, then
 * queryid, pid, userid (all three NULL in the anonymous rows, see the file
 * header) */
static void
ou_detail_row(const void *entry, OuVisibility *vis, Datum *values, bool *nulls)
{
	const OuDetailEntry *e = entry;
	bool		seen = ou_role_visible(vis, e->key.roleid);

	ou_event_columns(e->key.dbid, e->key.backend_type, e->key.wait_event_info,
					 values, nulls);
	values[4] = Int64GetDatum((int64) e->samples);
	values[5] = ou_interval_us(e->time_us);
	values[6] = ObjectIdGetDatum(e->key.dbid);
	values[7] = Int64GetDatum(e->key.queryid);
	nulls[7] = !seen || e->key.queryid == 0;
	values[8] = Int32GetDatum(e->key.pid);
	nulls[8] = !seen || e->key.pid == 0;
	values[9] = ObjectIdGetDatum(e->key.roleid);
	nulls[9] = !seen || !OidIsValid(e->key.roleid);
}

/*
 * ou_detail_fold
 *		Fold the entries e[0..n) of processes the caller may not see into
 *		one anonymous entry per (database, backend type, wait event), in
 *		place; returns the new count.
 */
static int
ou_detail_fold(OuDetailEntry *e, int n)
{
	OuVisibility vis;
	HASHCTL		info;
	HTAB	   *anon;
	int			i,
				kept = 0;

	ou_visibility_init(&vis);
	if (vis.read_all)
		return n;
	memset(&info, 0, sizeof(info));
	info.keysize = sizeof(OuProfileKey);
	info.entrysize = sizeof(OuProfileKey) + sizeof(int);
	info.hcxt = CurrentMemoryContext;
	anon = hash_create("ordered_uuid anonymous rows", 64, &info,
					   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	for (i = 0; i < n; i++)
	{
		OuProfileKey key;
		char	   *slot;
		bool		found;

		CHECK_FOR_INTERRUPTS();
		if (ou_role_visible(&vis, e[i].key.roleid))
		{
			e[kept++] = e[i];
			continue;
		}
		memset(&key, 0, sizeof(key));
		key.dbid = e[i].key.dbid;
		key.backend_type = e[i].key.backend_type;
		key.wait_event_info = e[i].key.wait_event_info;
		slot = hash_search(anon, &key, HASH_ENTER, &found);
		if (found)
		{
			OuDetailEntry *a = &e[*(int *) (slot + sizeof(OuProfileKey))];

			a->samples += e[i].samples;
			a->time_us += e[i].time_us;
			continue;
		}
		*(int *) (slot + sizeof(OuProfileKey)) = kept;
		e[kept] = e[i];
		/* no role, pid or query id: ou_detail_row shows them NULL */
		e[kept].key.roleid = InvalidOid;
		e[kept].key.pid = 0;
		e[kept].key.queryid = 0;
		kept++;
	}
	hash_destroy(anon);
	return kept;
}

/*
 * ordered_uuid_wait_profile_detail
 *		Rows of the view wait_profile_detail.
 */
Datum
ordered_uuid_wait_profile_detail(PG_FUNCTION_ARGS)
{
	OuDetailEntry *rows;
	int			n;

	ou_collector_check_loaded();
	if (ou_detail_htab == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the detailed wait profile is off"),
				 errdetail("It is kept only when ordered_uuid.profile_queries or ordered_uuid.profile_pids is on at server start."),
				 errhint("Set ordered_uuid.profile_queries or ordered_uuid.profile_pids to on and restart the server.")));
	rows = ou_copy_table(ou_detail_htab, sizeof(OuDetailEntry), &n);
	n = ou_detail_fold(rows, n);
	ou_emit_rows(fcinfo, (const char *) rows, n, sizeof(OuDetailEntry),
				 offsetof(OuDetailEntry, key.dbid), ou_detail_row);
	return (Datum) 0;
}

/*
 * ou_history_visible
 *		Keep, in place and in order, the samples of processes the caller
 *		may see; returns how many.
 */
static int
ou_history_visible(OuHistoryItem *items, int n)
{
	OuVisibility vis;
	int			i,
				kept = 0;

	ou_visibility_init(&vis);
	for (i = 0; i < n; i++)
		if (ou_role_visible(&vis, items[i].roleid))
			items[kept++] = items[i];
	return kept;
}

/* a row of wait_history: sample_time, pid, database, backend_type,
 * wait_event_type, wait_event, queryid, datid, userid (only samples of
 * processes the caller may see, see the file header; userid NULL for a
 * process without a role, shown to pg_read_all_stats) */
static void
ou_history_row(const void *entry, OuVisibility *vis, Datum *values, bool *nulls)
{
	const OuHistoryItem *h = entry;
	bool		seen = ou_role_visible(vis, h->roleid);

	values[0] = TimestampTzGetDatum(h->sample_time);
	values[1] = Int32GetDatum(h->pid);
	nulls[1] = !seen;
	ou_event_columns(h->dbid, h->backend_type, h->wait_event_info,
					 &values[2], &nulls[2]);
	values[6] = Int64GetDatum(h->queryid);
	nulls[6] = !seen || h->queryid == 0;
	values[7] = ObjectIdGetDatum(h->dbid);
	values[8] = ObjectIdGetDatum(h->roleid);
	nulls[8] = !seen || !OidIsValid(h->roleid);
}

/* ring slots copied between two checks for interrupts (320 kB) */
#define OU_HISTORY_CHUNK	8192

/* history_written, or 0 if a reset came after the one at *reset */
static uint64
ou_history_written(TimestampTz *reset)
{
	uint64		written;

	ou_lock_shared();
	written = ou_shared->history_written;
	if (*reset == 0)
		*reset = ou_shared->stats_reset;
	else if (ou_shared->stats_reset != *reset)
		written = 0;
	LWLockRelease(ou_shared->lock);
	return written;
}

/*
 * ou_history_copy
 *		Copy the samples of the ring, oldest first, into items (room for
 *		history_size); returns how many.  The LWLock is taken, in shared
 *		mode, only to read the count of samples written before and after
 *		the copy: held for the copy of a large ring (40 MB at the largest
 *		history_size), readers coming one after another would keep the
 *		worker's exclusive request waiting.  The worker writes the ring only
 *		under the LWLock in exclusive mode, so the count read after the copy
 *		covers every sample written while it ran (a round still writing
 *		then is waited for); the samples written before the copy began
 *		whose slots those overwrote, the oldest, may have been copied torn
 *		and are left out.  What remains is the history as it was when the
 *		copy began, less the samples overwritten meanwhile: one stretch
 *		with no gap.  A reset meanwhile leaves nothing.
 */
static int
ou_history_copy(OuHistoryItem *items)
{
	uint64		size = (uint64) ou_history_size;
	TimestampTz reset = 0;
	uint64		end = ou_history_written(&reset),
				begin = end - Min(end, size),
				seq,
				written,
				lost;

	for (seq = begin; seq < end; seq += OU_HISTORY_CHUNK)
	{
		uint64		len = Min(end - seq, OU_HISTORY_CHUNK);
		uint64		slot = seq % size;
		uint64		first = Min(len, size - slot);

		CHECK_FOR_INTERRUPTS();
		/* the chunk, which may wrap around the end of the ring */
		memcpy(items + (seq - begin), ou_history + slot, sizeof(OuHistoryItem) * first);
		memcpy(items + (seq - begin) + first, ou_history, sizeof(OuHistoryItem) * (len - first));
	}
	written = ou_history_written(&reset);
	if (written < end)
		return 0;
	/* samples begin .. written - size - 1 were overwritten, at most all */
	lost = Min(end - begin, written - begin > size ? written - begin - size : 0);
	memmove(items, items + lost, sizeof(OuHistoryItem) * (end - begin - lost));
	return (int) (end - begin - lost);
}

/*
 * ordered_uuid_wait_history
 *		Rows of the view wait_history, oldest first (ou_history_copy).
 */
Datum
ordered_uuid_wait_history(PG_FUNCTION_ARGS)
{
	OuHistoryItem *items;
	int			n;

	ou_collector_check_loaded();
	if (ou_history == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the wait history is off"),
				 errdetail("ordered_uuid.history_size was 0 at server start."),
				 errhint("Set ordered_uuid.history_size to the number of samples to keep and restart the server.")));

	items = palloc(sizeof(OuHistoryItem) * ou_history_size);
	n = ou_history_copy(items);
	n = ou_history_visible(items, n);
	ou_emit_rows(fcinfo, (const char *) items, n, sizeof(OuHistoryItem),
				 offsetof(OuHistoryItem, dbid), ou_history_row);
	return (Datum) 0;
}

/*
 * ordered_uuid_collector_detail_info
 *		One row about the optional parts: the dimensions of the detailed
 *		profile, its entries and drops, the history's size, the samples it
 *		holds and those it has overwritten since the last reset.
 */
Datum
ordered_uuid_collector_detail_info(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[8];
	bool		nulls[8];
	uint64		dropped,
				evicted,
				written;
	long		nd = 0;
	uint64		held;

	ou_collector_check_loaded();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	/* SQL versions before 1.2.0 declare the first 7 columns */
	ou_check_result_columns(tupdesc, 7, lengthof(values), "collector_detail_info");

	ou_lock_shared();
	dropped = ou_shared->detail.dropped;
	evicted = ou_shared->detail.evicted;
	written = ou_shared->history_written;
	if (ou_detail_htab != NULL)
		nd = hash_get_num_entries(ou_detail_htab);
	LWLockRelease(ou_shared->lock);
	held = Min(written, (uint64) ou_history_size);

	memset(nulls, 0, sizeof(nulls));
	values[0] = BoolGetDatum(ou_profile_queries);
	values[1] = BoolGetDatum(ou_profile_pids);
	values[2] = Int64GetDatum((int64) nd);
	values[3] = Int64GetDatum((int64) dropped);
	values[4] = Int32GetDatum(ou_history_size);
	values[5] = Int64GetDatum((int64) held);
	values[6] = Int64GetDatum((int64) (written - held));
	values[7] = Int64GetDatum((int64) evicted);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
