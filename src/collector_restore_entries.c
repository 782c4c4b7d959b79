/*-------------------------------------------------------------------------
 *
 * collector_restore_entries.c
 *	  What the restore (collector_restore.c) checks and rebuilds of each
 *	  saved table's entries, and how it merges two entries that come back
 *	  under one key.
 *
 * Each table has a prepare function, which checks an entry read from the
 * file (every field within bounds, timestamps valid) and rebuilds its key
 * field by field, so that padding or a forged byte never reaches a hash
 * key, and a merge function for two entries whose keys became one (a wait
 * event folded to its class, see collector_restore.c's header).  A table
 * whose counts must add up after an eviction (the WAL per relation) names
 * the hook that keeps an entry left out for lack of room.
 *
 * Locking: called by the restore alone, with the collector's LWLock held
 * exclusively (collector_restore.c).
 *
 * IDENTIFICATION
 *	  src/collector_restore_entries.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pgstat.h"
#include "utils/timestamp.h"

#include "collector_defs.h"
#include "collector_persist.h"
#include "compat.h"

/* a valid timestamp, or 0 for none */
bool
ou_ts_ok(TimestampTz ts)
{
	return ts == 0 || IS_VALID_TIMESTAMP(ts);
}

/*
 * A wait event as it may be kept across a restart: an id handed out at run
 * time is folded (see the file header).
 */
static uint32
ou_fold_wait_event(uint32 w)
{
	if ((w & 0xFF000000) == PG_WAIT_EXTENSION)
		return PG_WAIT_EXTENSION;
	if (ou_wait_event_id_is_dynamic(w))
		return (w & 0xFF000000) | OU_WAIT_EVENT_FOLDED;
	return w;
}

static bool
ou_prepare_profile(void *entry)
{
	OuProfileEntry *e = entry;
	OuProfileKey k;

	memset(&k, 0, sizeof(k));
	k.dbid = e->key.dbid;
	k.backend_type = e->key.backend_type;
	k.wait_event_info = ou_fold_wait_event(e->key.wait_event_info);
	e->key = k;
	return e->time_us >= 0;
}

static void
ou_merge_profile(void *into, const void *from)
{
	OuProfileEntry *a = into;
	const OuProfileEntry *b = from;

	a->samples += b->samples;
	a->time_us += b->time_us;
	a->last_used = Max(a->last_used, b->last_used);
}

static bool
ou_prepare_extend(void *entry)
{
	OuExtendEntry *e = entry;
	OuExtendKey k;

	memset(&k, 0, sizeof(k));
	k.dbid = e->key.dbid;
	k.relid = e->key.relid;
	e->key = k;
	return e->time_us >= 0 && e->max_waiters >= 0 && ou_ts_ok(e->last_wait);
}

static void
ou_merge_extend(void *into, const void *from)
{
	OuExtendEntry *a = into;
	const OuExtendEntry *b = from;

	a->samples += b->samples;
	a->waits += b->waits;
	a->time_us += b->time_us;
	a->max_waiters = Max(a->max_waiters, b->max_waiters);
	a->last_wait = Max(a->last_wait, b->last_wait);
	a->last_used = Max(a->last_used, b->last_used);
}

/* a relation file's identity, rebuilt field by field */
static OuRelFileLocator
ou_rebuild_locator(const OuRelFileLocator *in)
{
	OuRelFileLocator k;

	memset(&k, 0, sizeof(k));
	k.spcOid = in->spcOid;
	k.dbOid = in->dbOid;
	k.relNumber = in->relNumber;
	return k;
}

static bool
ou_prepare_split(void *entry)
{
	OuSplitEntry *e = entry;

	e->key = ou_rebuild_locator(&e->key);
	return true;
}

static void
ou_merge_split(void *into, const void *from)
{
	OuSplitEntry *a = into;
	const OuSplitEntry *b = from;

	a->leaf_splits += b->leaf_splits;
	a->upper_splits += b->upper_splits;
	a->root_splits += b->root_splits;
	a->last_used = Max(a->last_used, b->last_used);
}

static bool
ou_prepare_walrel(void *entry)
{
	OuWalRelEntry *e = entry;
	OuWalRelKey k;

	memset(&k, 0, sizeof(k));
	k.loc = ou_rebuild_locator(&e->key.loc);
	k.forknum = e->key.forknum;
	e->key = k;
	/* the view names the fork from core's array of fork names */
	return k.forknum >= 0 && k.forknum <= MAX_FORKNUM && ou_ts_ok(e->last_fpi);
}

static void
ou_merge_walrel(void *into, const void *from)
{
	OuWalRelEntry *a = into;
	const OuWalRelEntry *b = from;

	a->records += b->records;
	a->wal_bytes += b->wal_bytes;
	a->fpis += b->fpis;
	a->fpi_bytes += b->fpi_bytes;
	a->last_fpi = Max(a->last_fpi, b->last_fpi);
	a->last_used = Max(a->last_used, b->last_used);
}

static bool
ou_prepare_detail(void *entry)
{
	OuDetailEntry *e = entry;
	OuDetailKey k;

	memset(&k, 0, sizeof(k));
	k.dbid = e->key.dbid;
	k.backend_type = e->key.backend_type;
	k.wait_event_info = ou_fold_wait_event(e->key.wait_event_info);
	k.roleid = e->key.roleid;
	k.pid = e->key.pid;
	k.queryid = e->key.queryid;
	e->key = k;
	return e->time_us >= 0;
}

static void
ou_merge_detail(void *into, const void *from)
{
	OuDetailEntry *a = into;
	const OuDetailEntry *b = from;

	a->samples += b->samples;
	a->time_us += b->time_us;
	a->last_used = Max(a->last_used, b->last_used);
}

static bool
ou_prepare_pred(void *entry)
{
	OuPredEntry *e = entry;
	OuPredKey	k;

	memset(&k, 0, sizeof(k));
	k.dbid = e->key.dbid;
	k.relid = e->key.relid;
	e->key = k;
	return e->samples > 0 && e->max_sessions >= 0 && e->shared_page_locks <= e->page_locks &&
		ou_ts_ok(e->last_seen);
}

static void
ou_merge_pred(void *into, const void *from)
{
	OuPredEntry *a = into;
	const OuPredEntry *b = from;

	ou_pred_add_counts(a, b, b->last_seen > a->last_seen);
	a->last_used = Max(a->last_used, b->last_used);
}

const OuRestoreTable ou_restore_tables[OU_SAVED_NTABLES] = {
	[OU_SAVED_PROFILE] = {"wait_profile", offsetof(OuProfileEntry, last_used),
	ou_prepare_profile, ou_merge_profile},
	[OU_SAVED_EXTEND] = {"extend_lock_stats", offsetof(OuExtendEntry, last_used),
	ou_prepare_extend, ou_merge_extend},
	[OU_SAVED_SPLIT] = {"index_split_stats", offsetof(OuSplitEntry, last_used),
	ou_prepare_split, ou_merge_split},
	[OU_SAVED_WALREL] = {"relation_wal_stats", offsetof(OuWalRelEntry, last_used),
	ou_prepare_walrel, ou_merge_walrel, ou_walrel_evicting},
	[OU_SAVED_DETAIL] = {"wait_profile_detail", offsetof(OuDetailEntry, last_used),
	ou_prepare_detail, ou_merge_detail},
	[OU_SAVED_PRED] = {"predicate_lock_stats", offsetof(OuPredEntry, last_used),
	ou_prepare_pred, ou_merge_pred},
};

/* the counters of the table saved as t (evicted entries go there) */
OuTableCounters *
ou_restore_counters(OuSavedTable t)
{
	switch (t)
	{
		case OU_SAVED_PROFILE:
			return &ou_shared->profile;
		case OU_SAVED_EXTEND:
			return &ou_shared->extend;
		case OU_SAVED_SPLIT:
			return &ou_shared->split;
		case OU_SAVED_WALREL:
			return &ou_walrel_totals->table;
		case OU_SAVED_PRED:
			return &ou_ssi->table;
		default:
			return &ou_shared->detail;
	}
}

