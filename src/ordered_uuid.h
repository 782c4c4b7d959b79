/*-------------------------------------------------------------------------
 *
 * ordered_uuid.h
 *	  Declarations shared between the source files of ordered_uuid.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_H
#define ORDERED_UUID_H

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "utils/uuid.h"

/* random.c */
extern void ou_random_bytes(void *dst, size_t len);

/* generators.c: layouts shared by the generators and time_keys.c */

/* microseconds from the Unix epoch (1970) to the PostgreSQL epoch (2000) */
#define OU_UNIX_EPOCH_OFFSET_US \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * USECS_PER_SEC)
/* the largest Unix millisecond a version 7 UUID holds */
#define OU_V7_MAX_MS		((UINT64CONST(1) << 48) - 1)

/* the layout of block-prefixed UUIDs of one block_size and block_count */
typedef struct OuBlockLayout
{
	int			nbytes;			/* prefix bytes, 1..4 */
	uint64		nblocks;		/* 2^(8 * nbytes) */
	int64		block_len;		/* effective block size, >= 1 */
} OuBlockLayout;

extern void ou_check_not_null(FunctionCallInfo fcinfo, int argno, const char *name);
extern int32 ou_getarg_positive_int32(FunctionCallInfo fcinfo, int argno, const char *name);
extern int	ou_prefix_bytes(int64 block_count);
extern OuBlockLayout ou_block_layout(int32 block_size, int32 block_count);
extern uint64 ou_block_of(const OuBlockLayout *layout, int64 v);
extern int32 ou_block_id_int(uint64 block);
extern void ou_set_block_prefix(pg_uuid_t *uuid, const OuBlockLayout *layout, uint64 block);
extern int64 ou_v7_unix_us(TimestampTz ts);
extern void ou_v7_fill(pg_uuid_t *uuid, uint64 ms, int64 subms_ns);
extern void ou_v7_fill_time(pg_uuid_t *uuid, TimestampTz ts, int64 extra_ns);


/* waitsample.c: one sample of a process's wait state */
#include "datatype/timestamp.h"
#include "miscadmin.h"
#include "storage/lock.h"
#include "utils/wait_event.h"

struct PGPROC;

typedef struct OuWaitSample
{
	int			pid;			/* process id */
	int			procno;			/* index of its PGPROC in ProcGlobal->allProcs */
	Oid			dbid;			/* database (InvalidOid for none) */
	Oid			roleid;			/* role (InvalidOid for none) */
	BackendType backend_type;	/* B_INVALID when unknown */
	uint32		wait_event_info;	/* 0 when not waiting */
	bool		active;			/* on CPU: not waiting, and not an idle client */
	Oid			extend_dbid;	/* relation extension lock waited on, when */
	Oid			extend_relid;	/* extend_relid is valid */
	TimestampTz wait_start;		/* start of that lock wait (0 = not yet set) */
} OuWaitSample;

/* the wait event of a relation extension lock wait: Lock / extend */
#define OU_WAIT_EXTEND_LOCK		(PG_WAIT_LOCK | LOCKTAG_RELATION_EXTEND)

extern bool ou_sample_proc(struct PGPROC *proc, OuWaitSample *out);
extern int	ou_sample_all(OuWaitSample *out, int max);
extern int	ou_sample_max_procs(void);


/* shmem.c: the collector's shared state (only when preloaded) */
#include "access/xlogdefs.h"
#include "storage/lwlock.h"
#include "utils/hsearch.h"

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
} OuProfileEntry;

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
} OuExtendEntry;

typedef struct OuSplitKey
{
	Oid			dbid;
	Oid			spcid;
	Oid			relfilenode;
} OuSplitKey;

typedef struct OuSplitEntry
{
	OuSplitKey	key;
	uint64		leaf_splits;
	uint64		upper_splits;
	uint64		root_splits;
} OuSplitEntry;

typedef struct OuShared
{
	LWLock	   *lock;			/* protects everything below and the tables */
	int			worker_pid;		/* 0 while no worker runs */
	int			max_entries;	/* capacity of each table */
	TimestampTz worker_started;
	TimestampTz stats_reset;
	uint64		ticks;			/* sampling rounds since reset */
	uint64		profile_dropped;	/* samples whose key did not fit */
	uint64		extend_dropped;
	uint64		split_dropped;	/* split records whose index did not fit */
	XLogRecPtr	wal_start;		/* where the split counts begin (start or reset) */
	XLogRecPtr	wal_reached;	/* how far it has read */
	uint64		wal_records;	/* records read */
	uint64		wal_skipped_bytes;	/* WAL recycled before it was read */
} OuShared;

extern OuShared *ou_shared;
extern HTAB *ou_profile_htab;
extern HTAB *ou_extend_htab;
extern HTAB *ou_split_htab;
extern int	ou_max_entries;

extern void ou_shmem_install_hooks(void);
extern void ou_collector_check_loaded(void);

/* collector.c: the background worker and its settings */
extern int	ou_sample_interval;
extern bool ou_track_splits;
extern void ou_collector_define_gucs(void);
extern void ou_collector_register_worker(void);
extern PGDLLEXPORT void ou_collector_main(Datum main_arg);

/* collector_wal.c: split counts from following the WAL */
extern bool ou_splits_follow(TimestampTz deadline);
extern void ou_splits_follow_stop(void);

/* diag_util.c */
#include "fmgr.h"
extern void ou_check_wal_read_privilege(const char *fname);
extern void ou_init_materialized_srf_pg14(FunctionCallInfo fcinfo);

/* index_splits.c */
#include "access/xlogdefs.h"
extern void ou_check_lsn_range(FunctionCallInfo fcinfo, XLogRecPtr *start, XLogRecPtr *end);

#endif							/* ORDERED_UUID_H */
