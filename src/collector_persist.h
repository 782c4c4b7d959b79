/*-------------------------------------------------------------------------
 *
 * collector_persist.h
 *	  The file in which the collector's statistics outlive a clean shutdown:
 *	  its name and layout, shared by the file's writer (collector_save.c)
 *	  and its reader (collector_restore.c).
 *
 * Layout (native byte order and alignment: the file is read only by the
 * same build of the library on the same machine's PostgreSQL major version,
 * which the header names):
 *
 *	 OuStatsFileHeader		magic, format, PostgreSQL major version, sizes,
 *							system identifier, pg_control's checkpoint and
 *							timeline when saved, the time saved, the
 *							detailed profile's dimensions, the number of
 *							entries of each table and of failure slots,
 *							and OuSavedState
 *	 entries				each table's entries in the order of
 *							OuSavedTable, entries[t] of entry_size[t] bytes
 *							each (the shared tables' own structs)
 *	 failures				failure_slots OuSavedFailures of
 *							failure_size bytes each: the serialization
 *							failure counts of the databases that have any
 *							(collector_ssi.c's fixed slots)
 *	 pg_crc32c				CRC-32C of all the bytes before it
 *
 * Bounded: at most ordered_uuid.max_entries entries a table and
 * OU_SSI_DATABASES failure slots, the tables' own shared memory (less their
 * hash overhead) plus a header.
 *
 * IDENTIFICATION
 *	  src/collector_persist.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_COLLECTOR_PERSIST_H
#define ORDERED_UUID_COLLECTOR_PERSIST_H

#include "catalog/pg_control.h"
#include "pgstat.h"

#include "collector_defs.h"

/* beside core's and pg_stat_statements' files, in the data directory */
#define OU_STATS_FILE		PGSTAT_STAT_PERMANENT_DIRECTORY "/ordered_uuid.stat"
#define OU_STATS_TMPFILE	OU_STATS_FILE ".tmp"

#define OU_STATS_MAGIC		0x4F555354	/* "OUST" */
#define OU_STATS_FORMAT		2			/* raise with any change of the layout */

/* the largest ordered_uuid.max_entries: no saved table holds more */
#define OU_STATS_MAX_ENTRIES	1000000

/* the tables saved, in the order of the file */
typedef enum OuSavedTable
{
	OU_SAVED_PROFILE = 0,		/* wait_profile */
	OU_SAVED_EXTEND,			/* extend_lock_stats */
	OU_SAVED_SPLIT,				/* index_split_stats */
	OU_SAVED_WALREL,			/* relation_wal_stats */
	OU_SAVED_DETAIL,			/* wait_profile_detail (none while it is off) */
	OU_SAVED_PRED,				/* predicate_lock_stats */
	OU_SAVED_NTABLES
} OuSavedTable;

/* OuStatsFileHeader.detail_dims: the detailed profile's dimensions */
#define OU_SAVED_DIM_QUERIES	0x01
#define OU_SAVED_DIM_PIDS		0x02

/* what of OuShared goes with the tables: the counters that describe them */
typedef struct OuSavedState
{
	TimestampTz stats_reset;
	uint64		ticks;
	uint64		use_clock;		/* no entry's last_used is above it */
	OuTableCounters profile;
	OuTableCounters extend;
	OuTableCounters split;
	OuTableCounters detail;
	uint64		split_pruned;
	XLogRecPtr	wal_start;
	XLogRecPtr	wal_reached;
	uint64		wal_records;
	uint64		wal_skipped_bytes;
	TimestampTz wal_caught_up;
	OuWalRelTotals walrel;
	OuPredTotals pred_totals;	/* OuSsiShared's */
	OuTableCounters pred;
} OuSavedState;

/* one database's serialization failures (a slot of OuSsiShared, read out) */
typedef struct OuSavedFailures
{
	Oid			dbid;			/* InvalidOid: the databases without a slot */
	uint64		ssi;
	uint64		other;
	TimestampTz last;			/* 0: none */
} OuSavedFailures;

typedef struct OuStatsFileHeader
{
	uint32		magic;			/* OU_STATS_MAGIC */
	uint32		format;			/* OU_STATS_FORMAT */
	uint32		pg_major;		/* PG_VERSION_NUM / 100 */
	uint32		header_size;	/* sizeof(OuStatsFileHeader) */
	uint64		system_identifier;	/* pg_control's */
	XLogRecPtr	checkpoint;		/* pg_control's last checkpoint when saved */
	TimeLineID	timeline;		/* the timeline the statistics were counted on */
	uint32		detail_dims;	/* OU_SAVED_DIM_* */
	TimestampTz saved_at;
	uint32		entry_size[OU_SAVED_NTABLES];
	uint64		entries[OU_SAVED_NTABLES];
	uint32		failure_size;	/* sizeof(OuSavedFailures) */
	uint32		failure_slots;	/* OuSavedFailures after the entries */
	OuSavedState state;
} OuStatsFileHeader;

/* collector_save.c */
/* one table's rules: its name, where last_used is, checking and merging */
typedef struct OuRestoreTable
{
	const char *name;
	Size		used_offset;
	bool		(*prepare) (void *entry);	/* check; rebuild the key */
	void		(*merge) (void *into, const void *from);	/* a key seen twice */
	OuEvictHook evicting;		/* an entry left out (NULL: nothing to do) */
} OuRestoreTable;

/* collector_restore_entries.c: each saved table's checks and merges */
extern const OuRestoreTable ou_restore_tables[OU_SAVED_NTABLES];
extern OuTableCounters *ou_restore_counters(OuSavedTable t);
extern bool ou_ts_ok(TimestampTz ts);

extern bool ou_read_control(ControlFileData *cf, const char **why);
extern HTAB *ou_saved_table(OuSavedTable t, Size *entry_size);
extern uint32 ou_detail_dims(void);
extern int	ou_saved_failures(OuSavedFailures *out);
extern void ou_stats_save(int code, Datum arg);

#endif							/* ORDERED_UUID_COLLECTOR_PERSIST_H */
