/*-------------------------------------------------------------------------
 *
 * collector_save.c
 *	  Writing the collector's statistics to disk at a clean shutdown, as
 *	  pg_stat_statements does: the postmaster (or a single-user backend)
 *	  writes them when it exits with status 0, after every other process has
 *	  gone and the shutdown checkpoint is in pg_control.
 *
 * The file (collector_persist.h) is written under a temporary name and
 * renamed over the real one with durable_rename(), so that a reader finds
 * either a whole file or none.  It carries pg_control's system identifier
 * and last checkpoint, which the reader checks against pg_control at the
 * next start (collector_restore.c): a file of another cluster, or of a
 * server that has run since without the library, is not trusted.
 *
 * A shutdown is never held up by the file: every failure to open, write,
 * flush or rename it (a full disk, say) is a LOG message, the partial file
 * is removed, and the next start begins afresh.  Nothing is written after a
 * crash or an immediate stop (exit status not 0, or pg_control not saying
 * shut down), nor by pg_upgrade's servers (binary-upgrade mode), nor with
 * ordered_uuid.save_statistics off.  The file is created with the data
 * directory's file mode (0600, or 0640 with group access), as core's are.
 *
 * Locking: the writer is the last process attached to the shared memory, so
 * it takes no lock, as pg_stat_statements' pgss_shmem_shutdown.  It may not
 * raise an ERROR either (there is no one to catch it): it reports and gives
 * up.
 *
 * IDENTIFICATION
 *	  src/collector_save.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "access/xlog_internal.h"
#include "miscadmin.h"
#include "port/pg_crc32c.h"
#include "storage/fd.h"
#include "utils/timestamp.h"

#include "collector_defs.h"
#include "collector_persist.h"

/*
 * ou_read_control
 *		Read pg_control from disk into *cf, checking its CRC; false, with
 *		*why saying what failed, when it cannot be read whole.  Unlike
 *		core's get_controlfile() it never raises an ERROR: it runs in the
 *		postmaster, at start and at exit.
 */
bool
ou_read_control(ControlFileData *cf, const char **why)
{
	pg_crc32c	crc;
	int			fd;
	ssize_t		r;

	fd = OpenTransientFile(XLOG_CONTROL_FILE, O_RDONLY | PG_BINARY);
	if (fd < 0)
	{
		*why = "pg_control could not be opened";
		return false;
	}
	r = read(fd, cf, sizeof(ControlFileData));
	CloseTransientFile(fd);
	if (r != sizeof(ControlFileData))
	{
		*why = "pg_control could not be read whole";
		return false;
	}
	INIT_CRC32C(crc);
	COMP_CRC32C(crc, cf, offsetof(ControlFileData, crc));
	FIN_CRC32C(crc);
	if (!EQ_CRC32C(crc, cf->crc))
	{
		*why = "pg_control's checksum does not match its contents";
		return false;
	}
	return true;
}

/*
 * ou_saved_table
 *		The shared table saved as t and the size of its entries (NULL for
 *		the detailed profile while it is off).
 */
HTAB *
ou_saved_table(OuSavedTable t, Size *entry_size)
{
	switch (t)
	{
		case OU_SAVED_PROFILE:
			*entry_size = sizeof(OuProfileEntry);
			return ou_profile_htab;
		case OU_SAVED_EXTEND:
			*entry_size = sizeof(OuExtendEntry);
			return ou_extend_htab;
		case OU_SAVED_SPLIT:
			*entry_size = sizeof(OuSplitEntry);
			return ou_split_htab;
		case OU_SAVED_WALREL:
			*entry_size = sizeof(OuWalRelEntry);
			return ou_walrel_htab;
		case OU_SAVED_DETAIL:
			*entry_size = sizeof(OuDetailEntry);
			return ou_detail_htab;
		case OU_SAVED_NTABLES:
			break;
	}
	*entry_size = 0;
	return NULL;
}

/* the detailed profile's dimensions of this start (OU_SAVED_DIM_*) */
uint32
ou_detail_dims(void)
{
	return (ou_profile_queries ? OU_SAVED_DIM_QUERIES : 0) |
		(ou_profile_pids ? OU_SAVED_DIM_PIDS : 0);
}

/* the header of the file: what it is, whose, and how many entries follow */
static void
ou_save_header(OuStatsFileHeader *h, const ControlFileData *cf)
{
	const OuShared *s = ou_shared;
	OuSavedState *st = &h->state;
	int			t;

	memset(h, 0, sizeof(*h));
	h->magic = OU_STATS_MAGIC;
	h->format = OU_STATS_FORMAT;
	h->pg_major = PG_VERSION_NUM / 100;
	h->header_size = sizeof(OuStatsFileHeader);
	h->system_identifier = cf->system_identifier;
	h->checkpoint = cf->checkPoint;
	/* restored but never checked by a worker (a standby): still theirs */
	h->timeline = s->stats_check_tli ? s->stats_saved_tli : cf->checkPointCopy.ThisTimeLineID;
	h->detail_dims = ou_detail_dims();
	h->saved_at = GetCurrentTimestamp();
	for (t = 0; t < OU_SAVED_NTABLES; t++)
	{
		Size		size;
		HTAB	   *htab = ou_saved_table((OuSavedTable) t, &size);

		h->entry_size[t] = (uint32) size;
		h->entries[t] = htab == NULL ? 0 : (uint64) hash_get_num_entries(htab);
	}
	st->stats_reset = s->stats_reset;
	st->ticks = s->ticks;
	st->use_clock = s->use_clock;
	st->profile = s->profile;
	st->extend = s->extend;
	st->split = s->split;
	st->detail = s->detail;
	st->split_pruned = s->split_pruned;
	st->wal_start = s->wal_start;
	st->wal_reached = s->wal_reached;
	st->wal_records = s->wal_records;
	st->wal_skipped_bytes = s->wal_skipped_bytes;
	st->wal_caught_up = s->wal_caught_up;
	st->walrel = *ou_walrel_totals;
}

/* write len bytes and add them to the CRC; false on a write error */
static bool
ou_save_chunk(FILE *f, pg_crc32c *crc, const void *p, size_t len)
{
	COMP_CRC32C(*crc, p, len);
	return fwrite(p, len, 1, f) == 1;
}

/* write exactly n entries of the table saved as t */
static bool
ou_save_table(FILE *f, pg_crc32c *crc, OuSavedTable t, uint64 n)
{
	HASH_SEQ_STATUS seq;
	Size		size;
	HTAB	   *htab = ou_saved_table(t, &size);
	void	   *entry;
	uint64		written = 0;

	if (htab == NULL)
		return n == 0;
	hash_seq_init(&seq, htab);
	while ((entry = hash_seq_search(&seq)) != NULL)
	{
		if (written == n || !ou_save_chunk(f, crc, entry, size))
		{
			hash_seq_term(&seq);
			return false;
		}
		written++;
	}
	return written == n;
}

/* report a failure to save, and remove what was written */
static void
ou_save_failed(const char *what)
{
	ereport(LOG,
			(errcode_for_file_access(),
			 errmsg("could not %s file \"%s\": %m", what, OU_STATS_TMPFILE),
			 errdetail("The collector's statistics are not saved; they start afresh at the next start.")));
	(void) unlink(OU_STATS_TMPFILE);
}

/*
 * ou_stats_save
 *		on_shmem_exit callback of the postmaster (or a single-user backend):
 *		write the statistics when the server shuts down cleanly.
 */
void
ou_stats_save(int code, Datum arg)
{
	ControlFileData cf;
	OuStatsFileHeader h;
	const char *why;
	pg_crc32c	crc;
	FILE	   *f;
	bool		ok;
	int			t;
	TimestampTz began = GetCurrentTimestamp();
	uint64		entries = 0;

	if (code != 0 || ou_shared == NULL || IsBinaryUpgrade || !ou_save_statistics)
		return;
	if (!ou_read_control(&cf, &why))
	{
		ereport(LOG,
				(errcode(ERRCODE_IO_ERROR),
				 errmsg("could not save the collector's statistics: %s", why)));
		return;
	}
	if (cf.state != DB_SHUTDOWNED && cf.state != DB_SHUTDOWNED_IN_RECOVERY)
		return;					/* not a clean shutdown: nothing to keep */

	ou_save_header(&h, &cf);
	f = AllocateFile(OU_STATS_TMPFILE, PG_BINARY_W);
	if (f == NULL)
	{
		ou_save_failed("create");
		return;
	}
	INIT_CRC32C(crc);
	errno = 0;
	ok = ou_save_chunk(f, &crc, &h, sizeof(h));
	for (t = 0; t < OU_SAVED_NTABLES && ok; t++)
	{
		ok = ou_save_table(f, &crc, (OuSavedTable) t, h.entries[t]);
		entries += h.entries[t];
	}
	FIN_CRC32C(crc);
	ok = ok && fwrite(&crc, sizeof(crc), 1, f) == 1 && fflush(f) == 0 && !ferror(f);
	if (!ok)
	{
		if (errno == 0)
			errno = EIO;		/* a table's count changed: cannot happen */
		FreeFile(f);
		ou_save_failed("write");
		return;
	}
	if (FreeFile(f) != 0)
	{
		ou_save_failed("close");
		return;
	}
	/* durable_rename() reports its own failure (LOG), and never PANICs */
	if (durable_rename(OU_STATS_TMPFILE, OU_STATS_FILE, LOG) != 0)
	{
		(void) unlink(OU_STATS_TMPFILE);
		return;
	}
	ereport(DEBUG1,
			(errcode(ERRCODE_SUCCESSFUL_COMPLETION),
			 errmsg_internal("saved the collector's statistics to \"%s\": " UINT64_FORMAT " entries in %.3f s",
							 OU_STATS_FILE, entries,
							 (double) (GetCurrentTimestamp() - began) / USECS_PER_SEC)));
}
