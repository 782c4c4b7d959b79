/*-------------------------------------------------------------------------
 *
 * collector_defs.h
 *	  The collector (loaded through shared_preload_libraries): its shared
 *	  state (collector_shmem.c), settings and worker (collector.c), split
 *	  counts from the WAL (collector_wal.c), the WAL per relation
 *	  (collector_walrel.c), the statistics kept across a clean shutdown
 *	  (collector_save.c, collector_restore.c) and SQL-callable views
 *	  (collector_views.c, collector_detail.c, collector_walrel_views.c).  The declarations belong to
 *	  all of these files alike: collector.c is one user among them, not
 *	  their owner.
 *
 * IDENTIFICATION
 *	  src/collector_defs.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_COLLECTOR_DEFS_H
#define ORDERED_UUID_COLLECTOR_DEFS_H

#include "access/xlogdefs.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "funcapi.h"
#include "port/atomics.h"
#include "storage/lwlock.h"
#include "storage/spin.h"
#include "utils/hsearch.h"

#include "walscan.h"

/* the shared state (collector_shmem.c; only when preloaded) */
typedef struct OuProfileKey
{
	Oid			dbid;			/* InvalidOid for processes without one */
	int32		backend_type;	/* BackendType */
	uint32		wait_event_info;	/* 0 = running on CPU */
} OuProfileKey;

typedef struct OuProfileEntry
{
	OuProfileKey key;
	uint64		samples;
	int64		time_us;		/* sum of the sampling periods of the samples */
	uint64		last_used;		/* OuShared.use_clock when last counted */
} OuProfileEntry;

/*
 * The detailed wait profile (ordered_uuid.profile_queries / profile_pids):
 * the key of wait_profile plus the role, and the query id and pid when their
 * dimension is on (0 when off).  Zeroed before it is filled: HASH_BLOBS
 * compares the padding too.
 */
typedef struct OuDetailKey
{
	Oid			dbid;
	int32		backend_type;
	uint32		wait_event_info;
	Oid			roleid;			/* the process's session role (0 for none) */
	int32		pid;			/* 0 unless profile_pids */
	int64		queryid;		/* 0 unless profile_queries, or none known */
} OuDetailKey;

typedef struct OuDetailEntry
{
	OuDetailKey key;
	uint64		samples;
	int64		time_us;
	uint64		last_used;
} OuDetailEntry;

/* one sample of the history ring (ordered_uuid.history_size) */
typedef struct OuHistoryItem
{
	TimestampTz sample_time;	/* time of the sampling round */
	int64		queryid;
	int32		pid;
	Oid			dbid;
	Oid			roleid;
	int32		backend_type;
	uint32		wait_event_info;
} OuHistoryItem;

typedef struct OuExtendKey
{
	Oid			dbid;
	Oid			relid;
} OuExtendKey;

typedef struct OuExtendEntry
{
	OuExtendKey key;
	uint64		samples;		/* waiter-samples */
	uint64		waits;			/* distinct wait episodes (pid, waitStart) */
	int64		time_us;		/* estimated wait time */
	int32		max_waiters;	/* most waiters seen in one sample */
	TimestampTz last_wait;		/* time of the last sample that saw a waiter */
	uint64		last_used;
} OuExtendEntry;

/* the shared split counts: the counts of an OuSplitTally (walscan.h) */
typedef struct OuSplitEntry
{
	OuRelFileLocator key;
	uint64		leaf_splits;
	uint64		upper_splits;
	uint64		root_splits;
	uint64		last_used;
} OuSplitEntry;

/* the counters of one bounded table, in OuShared */
typedef struct OuTableCounters
{
	uint64		dropped;		/* samples (split records) whose key did not fit */
	uint64		evicted;		/* entries removed to make room */
} OuTableCounters;

/* the WAL per relation file and fork (collector_walrel.c) */
typedef struct OuWalRelKey
{
	OuRelFileLocator loc;
	int32		forknum;		/* ForkNumber */
} OuWalRelKey;

typedef struct OuWalRelEntry
{
	OuWalRelKey key;
	uint64		records;		/* records with a block of it */
	uint64		wal_bytes;		/* of the records whose first block is of it */
	uint64		fpis;			/* full-page images of its blocks */
	uint64		fpi_bytes;		/* their stored (compressed) length */
	TimestampTz last_fpi;		/* when the last image was read (0: none) */
	uint64		last_used;
} OuWalRelEntry;

/*
 * What the relation rows add up to, and what is not in them: for each of
 * relation_records, wal_bytes, fpis and fpi_bytes, the rows plus the records
 * without block references, the pruned and the evicted counts equal the
 * total (collector_walrel.c).
 */
typedef struct OuWalRelTotals
{
	uint64		records;		/* records read */
	uint64		wal_bytes;		/* their total length */
	uint64		fpis;
	uint64		fpi_bytes;
	uint64		relation_records;	/* records counted once per relation fork
									 * they name (once if none) */
	uint64		no_block_records;	/* records without block references */
	uint64		no_block_bytes;
	uint64		pruned_records; /* counts of entries pruned with their relfilenodes */
	uint64		pruned_bytes;
	uint64		pruned_fpis;
	uint64		pruned_fpi_bytes;
	uint64		evicted_records;	/* counts of entries evicted, or dropped,
									 * for lack of room */
	uint64		evicted_bytes;
	uint64		evicted_fpis;
	uint64		evicted_fpi_bytes;
	OuTableCounters table;		/* dropped: records */
} OuWalRelTotals;

/* whether and why not the collector keeps the WAL it has not read (collector_retain.c) */
typedef enum OuRetention
{
	OU_RETAIN_NONE = 0,			/* not following the WAL */
	OU_RETAIN_HOLDING,			/* its slot keeps what it has not read */
	OU_RETAIN_RELEASED,			/* behind by more than max_wal_keep_size */
	OU_RETAIN_OFF,				/* ordered_uuid.max_wal_keep_size = 0 */
	OU_RETAIN_WAL_LEVEL,		/* wal_level = minimal: no slot possible */
	OU_RETAIN_NO_FREE_SLOT,		/* max_replication_slots all in use */
	OU_RETAIN_NAME_IN_USE		/* a slot of its name exists already */
} OuRetention;

/* room for collector_info().stats_start_reason, with its terminating zero */
#define OU_REASON_LEN	256

/*
 * The collector's shared state.  Who may read or write which field, under
 * which lock and in which order: "Note about locking issues" at the top of
 * collector_shmem.c.  Fields not marked otherwise need lock.
 */
typedef struct OuShared
{
	LWLock	   *lock;			/* protects the tables, the ring and the
								 * fields below not marked otherwise; never
								 * changes */
	slock_t		mutex;			/* protects the fields marked (mutex) */
	pg_atomic_uint32 worker_wants_lock; /* the worker failed to take lock */
	pg_atomic_uint32 resets;	/* ordered_uuid_reset() calls */
	int			worker_pid;		/* 0 while no worker runs (mutex) */
	int			max_entries;	/* capacity of each table; never changes */
	TimestampTz worker_started; /* (mutex) */
	TimestampTz stats_reset;
	uint64		ticks;			/* sampling rounds since reset (mutex) */
	uint64		use_clock;		/* ticks on every use of an entry (last_used) */
	OuTableCounters profile;	/* samples dropped, entries evicted */
	OuTableCounters extend;
	OuTableCounters split;		/* dropped: split records */
	OuTableCounters detail;
	uint64		split_pruned;	/* entries of relfilenodes dropped in the WAL */
	uint64		history_written;	/* samples written to the ring since reset */
	XLogRecPtr	wal_start;		/* where the split counts begin (start or reset) */
	XLogRecPtr	wal_reached;	/* how far it has read (the worker alone
								 * writes it) */
	uint64		wal_records;	/* records read */
	uint64		wal_skipped_bytes;	/* WAL recycled before it was read */
	TimestampTz wal_caught_up;	/* when it last had read all the WAL on disk */
	OuRetention wal_retention;	/* how it keeps the WAL it has not read
								 * (mutex; the worker alone writes it) */
	/* where the statistics of this start come from (collector_restore.c) */
	bool		stats_restored; /* they go on from those saved at the last
								 * clean shutdown */
	TimestampTz stats_saved_at; /* when those were saved (0: afresh) */
	TimeLineID	stats_saved_tli;	/* the timeline they were saved on */
	bool		stats_check_tli;	/* the worker is still to compare it with
									 * the server's */
	char		stats_start_reason[OU_REASON_LEN];	/* why restored or afresh */
} OuShared;

/* how long a reader lets the worker in before it takes the lock all the same */
#define OU_READER_YIELD_MS	100

extern OuShared *ou_shared;
extern HTAB *ou_profile_htab;
extern HTAB *ou_extend_htab;
extern HTAB *ou_split_htab;
extern HTAB *ou_detail_htab;	/* NULL unless a detail dimension is on */
extern OuHistoryItem *ou_history;	/* NULL unless history_size > 0 */
extern int	ou_max_entries;
extern bool ou_profile_queries;
extern bool ou_profile_pids;
extern int	ou_history_size;

#define OU_DETAIL_ON()	(ou_profile_queries || ou_profile_pids)

/*
 * The event id that a restored wait event of an id given out at run time (an
 * extension's LWLock tranche, on 17+ an injection point) is folded into: its
 * class stays, its name is not kept (collector_restore.c); the views show it
 * as "extension".  No live id reaches it (core hands out far fewer).
 */
#define OU_WAIT_EVENT_FOLDED	0xFFFF

/* collector_shmem.c: the shared state's size, request and initialisation */
extern void ou_shmem_install_hooks(void);
extern void ou_collector_check_loaded(void);
extern const char *ou_collector_state(int worker_pid);
extern void ou_collector_notice_idle(void);
extern void ou_lock_shared(void);
extern bool ou_lock_try_exclusive(void);
extern bool ou_am_collector_worker(void);
extern void ou_collector_clear(const char *reason);
#define OU_LOCKED_EXCLUSIVE() LWLockHeldByMeInMode(ou_shared->lock, LW_EXCLUSIVE)

/* collector_evict.c: entering keys into the bounded tables, removing them */
typedef void (*OuEvictHook) (const void *entry);
typedef struct OuByUse
{
	uint64		last_used;		/* the entry's */
	char	   *entry;
} OuByUse;
extern void ou_sort_by_use(OuByUse *v, Size n);
extern void *ou_table_enter(HTAB *htab, const void *key, Size used_offset,
							OuTableCounters *counters, bool *found);
extern void *ou_table_enter_extended(HTAB *htab, const void *key, Size used_offset,
									 OuTableCounters *counters, bool *found,
									 OuEvictHook evicting);
extern uint64 ou_table_remove_if(HTAB *htab,
								 bool (*match) (const void *entry, const void *arg),
								 const void *arg);

/* collector.c: the background worker and its settings */
extern int	ou_sample_interval;
extern bool ou_track_splits;
extern bool ou_save_statistics;
extern void ou_collector_define_gucs(void);
extern void ou_collector_register_worker(void);
extern void ou_collector_enable_query_id(void);
extern PGDLLEXPORT void ou_collector_main(Datum main_arg);

/* collector_save.c, collector_restore.c: the statistics across a clean shutdown */
extern void ou_persist_install_hooks(void);
extern void ou_restore_check_timeline(void);

/* collector_retain.c: the slot that keeps the WAL not read yet */
extern double ou_max_wal_keep_size;
extern void ou_retain_begin(void);
extern void ou_retain_advance(XLogRecPtr next_lsn);
extern void ou_retain_end(OuRetention state);
extern const char *ou_retention_name(OuRetention state);

/* collector_walrel.c: the WAL per relation */
extern HTAB *ou_walrel_htab;
extern OuWalRelTotals *ou_walrel_totals;
extern Size ou_walrel_shmem_size(int max_entries);
extern void ou_walrel_shmem_init(int max_entries);
extern void ou_walrel_discard_local(void);
extern void ou_walrel_clear(void);
extern void ou_walrel_evicting(const void *entry);
extern void ou_walrel_count(XLogReaderState *r, uint64 recno);
extern void ou_walrel_flush(const OuRelFileLocator *dead, int ndead,
							const OuRelFileLocator *dead_dirs, int ndead_dirs);

/* collector_wal.c: split counts from following the WAL */
extern bool ou_splits_follow(TimestampTz deadline);
extern void ou_splits_follow_stop(void);
extern void ou_splits_keep_bound(void);

/*
 * collector_views.c: helpers shared by the collector's set-returning
 * functions (collector_detail.c too).  OuVisibility caches, for one call,
 * which databases' rows and which roles' query ids the caller may see.
 */

#define OU_VIS_CACHE	64

typedef struct OuVisibility
{
	bool		read_all;		/* pg_read_all_stats: sees everything */
	int			ndb;
	Oid			dbid[OU_VIS_CACHE];
	bool		db_ok[OU_VIS_CACHE];
	int			nrole;
	Oid			roleid[OU_VIS_CACHE];
	bool		role_ok[OU_VIS_CACHE];
} OuVisibility;

/* builds one result row from one entry (values[] / nulls[] zeroed) */
typedef void (*OuRowFiller) (const void *entry, OuVisibility *vis,
							 Datum *values, bool *nulls);

#define OU_MAX_COLUMNS	16		/* most columns of a collector view */

extern void ou_visibility_init(OuVisibility *v);
extern bool ou_db_visible(OuVisibility *v, Oid dbid);
extern bool ou_role_visible(OuVisibility *v, Oid roleid);
extern void *ou_copy_table(HTAB *htab, Size entrysize, int *count);
extern void ou_emit_rows(FunctionCallInfo fcinfo, const char *entries, int n,
						 Size entrysize, Size dbid_offset, OuRowFiller fill);
extern void ou_emit_table(FunctionCallInfo fcinfo, HTAB *htab, Size entrysize,
						  Size dbid_offset, OuRowFiller fill);
extern void ou_event_columns(Oid dbid, int32 backend_type, uint32 wait_event_info,
							 Datum *values, bool *nulls);

#endif							/* ORDERED_UUID_COLLECTOR_DEFS_H */
