/*-------------------------------------------------------------------------
 *
 * collector_restore.c
 *	  Reading the collector's statistics back at server start, if the last
 *	  shutdown saved them (collector_save.c), as pg_stat_statements does; and
 *	  the worker's check, once it runs, that they are this timeline's.
 *
 * When the postmaster (or a single-user backend) has set up the shared
 * memory, it reads the file, checks it, fills the tables from it and removes
 * it, so that a crash later, a base backup or a standby made meanwhile never
 * find it.  The statistics go on from the saved ones only if all of this
 * holds, and start afresh otherwise, with collector_info().stats_start_reason
 * saying why (and a LOG line for a file that is ignored):
 *
 * - pg_control says the server shut down cleanly (core's rule for its own
 *	 statistics), its system identifier is the file's (not another cluster's:
 *	 pg_upgrade's new cluster, a copied data directory), and its last
 *	 checkpoint is the one at which the file was saved (the server has not
 *	 run without the library since: relations dropped meanwhile would
 *	 otherwise come back under their old counts);
 * - the file is of this format, this PostgreSQL major version (whose wait
 *	 events and backend types the keys name) and this library's entry
 *	 layout, its size is what its header says, and its CRC-32C matches;
 * - every count is within bounds and every entry valid.  The file is in the
 *	 data directory and owned by the server's user, but whoever can write
 *	 files as that user (pg_write_server_files, a superuser's COPY TO) could
 *	 plant one with a matching checksum: nothing in it is used before it is
 *	 checked, keys are rebuilt field by field, and a fork number, a timestamp
 *	 or a time out of range rejects the whole file.
 *
 * What carries over is what the tables count: the wait profile, the
 * extension lock statistics, the split counts, the WAL per relation, the
 * predicate lock samples and their counters, and the serialization failure
 * counts per database (collector_persist.h); a database's failures go back
 * into the slot it finds now, whichever that is.  The detailed profile too, unless
 * its dimensions changed or it is kept per process (ordered_uuid.profile_pids:
 * process ids do not outlive a restart).  The history ring does not: it holds
 * the last samples of processes that are gone.  A wait event whose id core
 * hands out at run time (an extension's LWLock tranche, on 17+ an injection
 * point) may be another event after a restart: its samples are kept under
 * its class with the name "extension" (OU_WAIT_EVENT_FOLDED), an extension's
 * custom wait event under core's "Extension".  A table saved with more
 * entries than ordered_uuid.max_entries now allows keeps its most recently
 * used ones; the others count as evicted.  The WAL is followed on from where
 * the worker had read it (wal_reached), so that relations dropped in the
 * last moments before the shutdown are pruned; what a checkpoint recycled
 * meanwhile is skipped and counted, as always.
 *
 * A promoted standby starts its own statistics: the worker, when it first
 * runs after a restore, compares the server's timeline with the saved one
 * and starts afresh when they differ (ou_restore_check_timeline).  Until
 * then, on a standby, the views show what was restored.
 *
 * Locking (the rules: collector_shmem.c): the restore runs in the postmaster
 * before any other process exists; it takes the collector's LWLock
 * exclusively all the same (free: no one else can hold it), for the
 * functions it shares with the worker.  It may not raise an ERROR (the
 * postmaster would exit): every failure is a reason to start afresh.
 * stats_check_tli is written by the restore and then by the worker alone,
 * under the LWLock; the worker reads it without.
 *
 * IDENTIFICATION
 *	  src/collector_restore.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>
#include <unistd.h>

#include "access/xlog.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "port/pg_crc32c.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "collector_defs.h"
#include "collector_persist.h"
#include "compat.h"

static shmem_startup_hook_type ou_prev_startup_hook = NULL;
/* the postmaster set up shared memory before: a crash reinitialised it */
static bool ou_started_before = false;
/* why the file is not used (ou_why), and its SQLSTATE */
static char ou_why_text[OU_REASON_LEN];
static int	ou_why_code;

static void ou_stats_restore(void);

/* set why the file is not used; returns the text */
static const char *ou_why(int code, const char *fmt,...) pg_attribute_printf(2, 3);

static const char *
ou_why(int code, const char *fmt,...)
{
	va_list		args;

	va_start(args, fmt);
	vsnprintf(ou_why_text, sizeof(ou_why_text), fmt, args);
	va_end(args);
	ou_why_code = code;
	return ou_why_text;
}

/* set where this start's statistics come from */
static void ou_set_origin(bool restored, TimestampTz saved_at, const char *fmt,...) pg_attribute_printf(3, 4);

static void
ou_set_origin(bool restored, TimestampTz saved_at, const char *fmt,...)
{
	va_list		args;

	ou_shared->stats_restored = restored;
	ou_shared->stats_saved_at = saved_at;
	va_start(args, fmt);
	vsnprintf(ou_shared->stats_start_reason, OU_REASON_LEN, fmt, args);
	va_end(args);
}

/*
 * ou_check_header
 *		The header read from a file of file_size bytes, against pg_control
 *		(cf) and this build; NULL when it holds, else why not.
 */
static const char *
ou_check_header(const OuStatsFileHeader *h, const ControlFileData *cf, off_t file_size)
{
	uint64		expected = sizeof(OuStatsFileHeader) + sizeof(pg_crc32c);
	int			t;

	if (h->magic != OU_STATS_MAGIC || h->format != OU_STATS_FORMAT ||
		h->header_size != sizeof(OuStatsFileHeader))
		return ou_why(ERRCODE_DATA_CORRUPTED, "the file is not a statistics file of this format");
	if (h->pg_major != PG_VERSION_NUM / 100)
		return ou_why(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
					  "the file was written by PostgreSQL %u", h->pg_major / 100);
	if (h->system_identifier != cf->system_identifier)
		return ou_why(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
					  "the file was written by another database system (system identifier "
					  UINT64_FORMAT ", this one's is " UINT64_FORMAT ")",
					  h->system_identifier, cf->system_identifier);
	if (h->checkpoint != cf->checkPoint)
		return ou_why(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
					  "the file was saved at checkpoint %X/%X, but the server's last checkpoint is %X/%X: it ran without the collector since",
					  LSN_FORMAT_ARGS(h->checkpoint), LSN_FORMAT_ARGS(cf->checkPoint));
	for (t = 0; t < OU_SAVED_NTABLES; t++)
	{
		Size		size;

		(void) ou_saved_table((OuSavedTable) t, &size);
		if (h->entry_size[t] != size)
			return ou_why(ERRCODE_DATA_CORRUPTED, "the file's entries are not of this library's layout");
		if (h->entries[t] > OU_STATS_MAX_ENTRIES)
			return ou_why(ERRCODE_DATA_CORRUPTED, "the file's %s has more than %d entries",
						  ou_restore_tables[t].name, OU_STATS_MAX_ENTRIES);
		expected += h->entries[t] * size;
	}
	if (h->failure_size != sizeof(OuSavedFailures))
		return ou_why(ERRCODE_DATA_CORRUPTED, "the file's entries are not of this library's layout");
	if (h->failure_slots > OU_SSI_DATABASES + 1)
		return ou_why(ERRCODE_DATA_CORRUPTED, "the file has more than %d serialization failure slots",
					  OU_SSI_DATABASES + 1);
	expected += (uint64) h->failure_slots * sizeof(OuSavedFailures);
	if ((uint64) file_size != expected)
		return ou_why(ERRCODE_DATA_CORRUPTED,
					  "the file is truncated or too long (%lld bytes, its header says " UINT64_FORMAT ")",
					  (long long) file_size, expected);
	return NULL;
}

/* the counters saved beside the tables, within their bounds */
static const char *
ou_check_state(const OuStatsFileHeader *h)
{
	const OuSavedState *st = &h->state;

	if (!IS_VALID_TIMESTAMP(st->stats_reset) || !ou_ts_ok(st->wal_caught_up) ||
		!IS_VALID_TIMESTAMP(h->saved_at) || !ou_ts_ok(st->pred_totals.last_sample) ||
		st->pred_totals.sample_us < 0 || st->pred_totals.max_sample_us < 0 ||
		st->pred_totals.max_sample_us > st->pred_totals.sample_us ||
		(st->wal_start != InvalidXLogRecPtr && st->wal_reached != InvalidXLogRecPtr &&
		 st->wal_start > st->wal_reached) ||
		st->wal_reached > h->checkpoint)
		return ou_why(ERRCODE_DATA_CORRUPTED, "the file's counters are out of range");
	return NULL;
}

/*
 * ou_check_crc
 *		The CRC-32C of the file's bytes after the header (h, already read)
 *		against the one stored at its end; the file is at its first entry.
 */
static const char *
ou_check_crc(FILE *f, const OuStatsFileHeader *h, off_t file_size)
{
	pg_crc32c	crc,
				stored;
	uint64		left = file_size - sizeof(OuStatsFileHeader) - sizeof(pg_crc32c);
	char	   *buf = palloc_extended(BLCKSZ * 8, MCXT_ALLOC_NO_OOM);

	if (buf == NULL)
		return ou_why(ERRCODE_OUT_OF_MEMORY, "out of memory");
	INIT_CRC32C(crc);
	COMP_CRC32C(crc, h, sizeof(OuStatsFileHeader));
	while (left > 0)
	{
		size_t		n = Min(left, (uint64) BLCKSZ * 8);

		if (fread(buf, 1, n, f) != n)
			break;
		COMP_CRC32C(crc, buf, n);
		left -= n;
	}
	pfree(buf);
	FIN_CRC32C(crc);
	if (left > 0 || fread(&stored, sizeof(stored), 1, f) != 1)
		return ou_why(ERRCODE_IO_ERROR, "the file could not be read whole");
	if (!EQ_CRC32C(crc, stored))
		return ou_why(ERRCODE_DATA_CORRUPTED, "the file's checksum does not match its contents");
	return NULL;
}

/*
 * ou_load_entries
 *		Enter n checked entries (each of size bytes, at entries) into htab,
 *		the most recently used ones when they are more than the table holds
 *		(order: room for n of them); each left out is shown to the table's
 *		evicting hook, as an eviction would.  Returns how many were left out
 *		(evicted).
 */
static uint64
ou_load_entries(HTAB *htab, const OuRestoreTable *rt, char *entries, uint64 n, Size size,
				OuByUse *order)
{
	uint64		skip = n > (uint64) ou_shared->max_entries ? n - ou_shared->max_entries : 0;
	uint64		left_out = 0;
	uint64		i;

	for (i = 0; i < n; i++)
	{
		order[i].entry = entries + i * size;
		memcpy(&order[i].last_used, order[i].entry + rt->used_offset, sizeof(uint64));
	}
	if (skip > 0)
		ou_sort_by_use(order, n);
	for (i = 0; i < n; i++)
	{
		bool		found;
		char	   *e = NULL;

		if (i >= skip)
			e = hash_search(htab, order[i].entry, HASH_ENTER_NULL, &found);
		if (e == NULL)
		{
			/* the least recently used (no room cannot happen after them) */
			if (rt->evicting != NULL)
				rt->evicting(order[i].entry);
			left_out++;
			continue;
		}
		if (found)
			rt->merge(e, order[i].entry);
		else
			memcpy(e, order[i].entry, size);
	}
	return left_out;
}

/*
 * ou_restore_table
 *		Read, check and enter the n entries of table t (the file is at its
 *		first); NULL, or why the file is not used.
 */
static const char *
ou_restore_table(FILE *f, OuSavedTable t, uint64 n, uint64 use_clock)
{
	const OuRestoreTable *rt = &ou_restore_tables[t];
	Size		size;
	HTAB	   *htab = ou_saved_table(t, &size);
	char	   *entries;
	uint64		i;

	const char *why = NULL;
	OuByUse    *order;

	if (n == 0)
		return NULL;
	entries = palloc_extended(n * size, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
	order = palloc_extended(n * sizeof(OuByUse), MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
	if (entries == NULL || order == NULL)
		why = ou_why(ERRCODE_OUT_OF_MEMORY, "out of memory for the file's %s", rt->name);
	else if (fread(entries, size, n, f) != n)
		why = ou_why(ERRCODE_IO_ERROR, "the file could not be read whole");
	for (i = 0; why == NULL && i < n; i++)
	{
		char	   *e = entries + i * size;
		uint64		used;

		memcpy(&used, e + rt->used_offset, sizeof(uint64));
		if (!rt->prepare(e) || used > use_clock)
			why = ou_why(ERRCODE_DATA_CORRUPTED, "an entry of the file's %s is invalid", rt->name);
	}
	if (why == NULL)
		ou_restore_counters(t)->evicted += ou_load_entries(htab, rt, entries, n, size, order);
	if (entries != NULL)
		pfree(entries);
	if (order != NULL)
		pfree(order);
	return why;
}

/* put the counters saved beside the tables back into OuShared */
static void
ou_restore_state(const OuStatsFileHeader *h)
{
	const OuSavedState *st = &h->state;

	Assert(OU_LOCKED_EXCLUSIVE());
	ou_shared->stats_reset = st->stats_reset;
	ou_shared->ticks = st->ticks;
	ou_shared->use_clock = st->use_clock;
	ou_shared->profile = st->profile;
	ou_shared->extend = st->extend;
	ou_shared->split = st->split;
	ou_shared->detail = st->detail;
	ou_shared->split_pruned = st->split_pruned;
	ou_shared->wal_start = st->wal_start;
	ou_shared->wal_reached = st->wal_reached;
	ou_shared->wal_records = st->wal_records;
	ou_shared->wal_skipped_bytes = st->wal_skipped_bytes;
	ou_shared->wal_caught_up = st->wal_caught_up;
	*ou_walrel_totals = st->walrel;
	ou_ssi->totals = st->pred_totals;
	ou_ssi->table = st->pred;
}

/*
 * ou_restore_failures
 *		Read the n serialization failure slots saved after the tables (the
 *		file is at the first), check them all, then put each database's
 *		counts back (collector_ssi.c); NULL, or why the file is not used
 *		(nothing put back then).
 */
static const char *
ou_restore_failures(FILE *f, uint32 n)
{
	OuSavedFailures *saved;
	const char *why = NULL;
	uint32		i;

	if (n == 0)
		return NULL;
	saved = palloc_extended(sizeof(OuSavedFailures) * n, MCXT_ALLOC_NO_OOM);
	if (saved == NULL)
		return ou_why(ERRCODE_OUT_OF_MEMORY, "out of memory for the file's serialization failures");
	if (fread(saved, sizeof(OuSavedFailures), n, f) != n)
		why = ou_why(ERRCODE_IO_ERROR, "the file could not be read whole");
	for (i = 0; why == NULL && i < n; i++)
		if (!ou_ts_ok(saved[i].last) || saved[i].ssi > PG_INT64_MAX || saved[i].other > PG_INT64_MAX)
			why = ou_why(ERRCODE_DATA_CORRUPTED, "a serialization failure slot of the file is invalid");
	for (i = 0; why == NULL && i < n; i++)
		ou_ssi_add_failures(saved[i].dbid, saved[i].ssi, saved[i].other, saved[i].last);
	pfree(saved);
	return why;
}

/*
 * Why the detailed profile of the file cannot be restored into this one's
 * (NULL when it can, or when it is off).
 */
static const char *
ou_detail_afresh(const OuStatsFileHeader *h)
{
	if (ou_detail_htab == NULL)
		return NULL;
	if (h->detail_dims == 0)
		return "; wait_profile_detail afresh: it was off at the last shutdown";
	if (h->detail_dims != ou_detail_dims())
		return "; wait_profile_detail afresh: its dimensions changed";
	if (ou_profile_pids)
		return "; wait_profile_detail afresh: it is kept per process (ordered_uuid.profile_pids), and process ids do not outlive a restart";
	return NULL;
}

/*
 * ou_restore_tables_from
 *		With the file checked up to its entries (f at the first), fill the
 *		tables and counters from it; NULL, or why the file is not used (the
 *		caller then empties what was entered).
 */
static const char *
ou_restore_tables_from(FILE *f, const OuStatsFileHeader *h, const char **detail_note)
{
	const char *why;
	uint64		evicted = 0;
	int			t;

	ou_restore_state(h);
	*detail_note = ou_detail_afresh(h);
	if (ou_detail_htab == NULL || *detail_note != NULL)
		memset(&ou_shared->detail, 0, sizeof(OuTableCounters));
	for (t = 0; t < OU_SAVED_NTABLES; t++)
	{
		Size		size;
		HTAB	   *htab = ou_saved_table((OuSavedTable) t, &size);
		uint64		before = ou_restore_counters((OuSavedTable) t)->evicted;

		if (htab == NULL || (t == OU_SAVED_DETAIL && *detail_note != NULL))
		{
			if (fseeko(f, (off_t) (h->entries[t] * size), SEEK_CUR) != 0)
				return ou_why(ERRCODE_IO_ERROR, "the file could not be read: %m");
			continue;
		}
		why = ou_restore_table(f, (OuSavedTable) t, h->entries[t], h->state.use_clock);
		if (why != NULL)
			return why;
		evicted += ou_restore_counters((OuSavedTable) t)->evicted - before;
	}
	if ((why = ou_restore_failures(f, h->failure_slots)) != NULL)
		return why;
	if (evicted > 0)
		ereport(LOG,
				(errcode(ERRCODE_SUCCESSFUL_COMPLETION),
				 errmsg("restored the collector's statistics without " UINT64_FORMAT " least recently used entries",
						evicted),
				 errdetail("They were saved with more entries a table than ordered_uuid.max_entries (%d) now allows; the entries left out are counted as evicted.",
						   ou_shared->max_entries)));
	return NULL;
}

/*
 * ou_restore_file
 *		Check the file open as f against pg_control and fill the tables from
 *		it; NULL when the statistics go on from it, else why not (the tables
 *		are then as empty as they started).
 */
static const char *
ou_restore_file(FILE *f, OuStatsFileHeader *h, const char **detail_note)
{
	ControlFileData cf;
	struct stat st;
	const char *why;

	if (!ou_read_control(&cf, &why))
		return ou_why(ERRCODE_IO_ERROR, "%s", why);
	if (cf.state != DB_SHUTDOWNED && cf.state != DB_SHUTDOWNED_IN_RECOVERY)
		return ou_why(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
					  "the server did not shut down cleanly after the file was saved");
	if (fstat(fileno(f), &st) != 0)
		return ou_why(ERRCODE_IO_ERROR, "the file could not be read: %m");
	if (fread(h, sizeof(OuStatsFileHeader), 1, f) != 1)
		return ou_why(ERRCODE_DATA_CORRUPTED, "the file is shorter than its header");
	if ((why = ou_check_header(h, &cf, st.st_size)) != NULL ||
		(why = ou_check_state(h)) != NULL ||
		(why = ou_check_crc(f, h, st.st_size)) != NULL)
		return why;
	if (fseeko(f, (off_t) sizeof(OuStatsFileHeader), SEEK_SET) != 0)
		return ou_why(ERRCODE_IO_ERROR, "the file could not be read: %m");

	LWLockAcquire(ou_shared->lock, LW_EXCLUSIVE);
	why = ou_restore_tables_from(f, h, detail_note);
	if (why != NULL)
	{
		ou_collector_clear("afresh");
		ou_shared->wal_start = ou_shared->wal_reached = InvalidXLogRecPtr;
	}
	LWLockRelease(ou_shared->lock);
	return why;
}

/*
 * ou_stats_restore
 *		At the postmaster's (re)initialisation of shared memory: restore the
 *		statistics saved at the last shutdown, or say why they start afresh.
 */
static void
ou_stats_restore(void)
{
	OuStatsFileHeader h;
	ControlFileData cf;
	const char *why;
	const char *detail_note = NULL;
	FILE	   *f;
	TimestampTz began;

	if (IsBinaryUpgrade)
	{
		/* pg_upgrade's servers: the old cluster's file is left as it is */
		ou_set_origin(false, 0, "afresh: started by pg_upgrade (binary-upgrade mode), which neither reads nor saves statistics");
		return;
	}
	/* what a save that did not finish left (the postmaster was killed) */
	(void) unlink(OU_STATS_TMPFILE);
	if (!ou_save_statistics)
	{
		(void) unlink(OU_STATS_FILE);
		ou_set_origin(false, 0, "afresh: ordered_uuid.save_statistics is off");
		return;
	}
	if (ou_started_before)
	{
		(void) unlink(OU_STATS_FILE);
		ou_set_origin(false, 0, "afresh: the server reinitialised after a server process crashed");
		return;
	}
	f = AllocateFile(OU_STATS_FILE, PG_BINARY_R);
	if (f == NULL)
	{
		if (errno != ENOENT)
			ereport(LOG,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", OU_STATS_FILE)));
		if (access(BACKUP_LABEL_FILE, F_OK) == 0)
			ou_set_origin(false, 0, "afresh: the server starts from a base backup");
		else if (!ou_read_control(&cf, &why))
			ou_set_origin(false, 0, "afresh: %s", why);
		else if (cf.state != DB_SHUTDOWNED && cf.state != DB_SHUTDOWNED_IN_RECOVERY)
			ou_set_origin(false, 0, "afresh: the server did not shut down cleanly (a crash or an immediate stop)");
		else
			ou_set_origin(false, 0, "afresh: no saved statistics (the first start with the collector, or none were saved at the last shutdown)");
		return;
	}
	began = GetCurrentTimestamp();
	why = ou_restore_file(f, &h, &detail_note);
	FreeFile(f);
	/* read once: a crash from now on, or a copy of this directory, finds none */
	(void) unlink(OU_STATS_FILE);
	if (why != NULL)
	{
		ereport(LOG,
				(errcode(ou_why_code),
				 errmsg("ignoring the collector's saved statistics in file \"%s\"", OU_STATS_FILE),
				 errdetail("They were ignored because %s.", why)));
		ou_set_origin(false, 0, "afresh: the saved statistics were ignored because %s", why);
		return;
	}
	ou_shared->stats_saved_tli = h.timeline;
	ou_shared->stats_check_tli = true;
	ou_set_origin(true, h.saved_at, "restored: saved at the last clean shutdown%s",
				  detail_note ? detail_note : "");
	ereport(DEBUG1,
			(errcode(ERRCODE_SUCCESSFUL_COMPLETION),
			 errmsg_internal("restored the collector's statistics from \"%s\" in %.3f s",
							 OU_STATS_FILE, (double) (GetCurrentTimestamp() - began) / USECS_PER_SEC)));
}

/*
 * ou_persist_startup
 *		shmem_startup_hook, after the collector's own (ou_shmem_startup):
 *		restore, then have the statistics saved when this process exits.
 *		Only the process that created the shared memory (the postmaster, a
 *		single-user backend): an EXEC_BACKEND child attaching does neither.
 */
static void
ou_persist_startup(void)
{
	if (ou_prev_startup_hook)
		ou_prev_startup_hook();
	if (IsUnderPostmaster || ou_shared == NULL)
		return;
	ou_stats_restore();
	on_shmem_exit(ou_stats_save, (Datum) 0);
	ou_started_before = true;
}

/*
 * ou_persist_install_hooks
 *		From _PG_init, after ou_shmem_install_hooks(): the startup hook runs
 *		the collector's own first.
 */
void
ou_persist_install_hooks(void)
{
	ou_prev_startup_hook = shmem_startup_hook;
	shmem_startup_hook = ou_persist_startup;
}

/*
 * ou_restore_check_timeline
 *		At the worker's start: statistics restored on another timeline than
 *		the server's now (the server was a standby and was promoted, or
 *		recovered to a new timeline) are not this server's to go on with:
 *		they start afresh, with the WAL followed from its end.
 */
void
ou_restore_check_timeline(void)
{
	TimeLineID	tli;
	TimeLineID	saved = ou_shared->stats_saved_tli;
	bool		afresh;

	if (!ou_shared->stats_check_tli)
		return;
	(void) ou_wal_available_upto(&tli);
	while (!ou_lock_try_exclusive())
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 1, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	ou_shared->stats_check_tli = false;
	afresh = ou_shared->stats_restored && tli != saved;
	if (afresh)
	{
		char		reason[OU_REASON_LEN];

		snprintf(reason, sizeof(reason),
				 "afresh: the server is on timeline %u, the saved statistics were of timeline %u (a promotion)",
				 tli, saved);
		ou_collector_clear(reason);
		ou_shared->wal_start = ou_shared->wal_reached = InvalidXLogRecPtr;
	}
	LWLockRelease(ou_shared->lock);
	if (afresh)
		ereport(LOG,
				(errcode(ERRCODE_SUCCESSFUL_COMPLETION),
				 errmsg("the collector's statistics start afresh on timeline %u", tli),
				 errdetail("Those restored at the start were counted on timeline %u.", saved)));
}
