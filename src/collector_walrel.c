/*-------------------------------------------------------------------------
 *
 * collector_walrel.c
 *	  The collector's WAL per relation: for every relation file and fork
 *	  whose blocks the WAL references, the records, their bytes, the
 *	  full-page images and their bytes, from the records that the worker
 *	  reads anyway (collector_wal.c calls ou_walrel_count for each record
 *	  and ou_walrel_flush when it flushes a slice).
 *
 * Attribution, so that the rows add up to the WAL read:
 * - records: a record counts once for each (relation file, fork) that one
 *	 of its block references names, however many of its blocks do;
 * - wal_bytes: the record's whole length (XLogRecGetTotalLen, its images
 *	 included) goes to the relation file and fork of its first block
 *	 reference, so that the bytes of the rows plus those of the records
 *	 without block references (commits, checkpoints, ...) are the bytes read;
 * - fpis and fpi_bytes: each block reference that carries an image counts
 *	 for its own relation, with the image's stored (compressed) length, as
 *	 pg_walinspect's block_fpi_length.
 * The rows plus the totals kept beside them (OuWalRelTotals: the records
 * without block references, the counts of entries pruned with their
 * relfilenodes and of those evicted for lack of room) then equal the WAL
 * read, whatever was evicted: wal_bytes, fpis and fpi_bytes exactly, and the
 * rows' records add up to relation_records, which counts a record once for
 * each relation fork it names (once if it names none: the records without
 * block references are a part of their own), as the rows count it.
 *
 * The table is bounded like the split counts (ordered_uuid.max_entries, the
 * least recently used entries evicted: collector_evict.c, which shows each
 * victim to ou_walrel_evicting first, so that its counts go to the evicted
 * totals; a slice's entry that finds no room, not expected, goes there too)
 * and shares their pruning: the relfilenodes that a commit or abort record
 * drops, and the database directories that a drop record removes, take
 * their entries with them, their counts kept in the pruned totals.  The
 * totals are a fixed number of counters, however many entries left.
 *
 * Locking (the rules: collector_shmem.c): the shared table and its totals
 * are part of the collector's shared state, under its LWLock.  The worker
 * writes them only while it holds the LWLock exclusively (ou_walrel_flush,
 * called from collector_wal.c's flush), ordered_uuid_reset() likewise
 * (ou_walrel_clear); each function that touches them Asserts it.  Readers
 * copy them in shared mode (collector_walrel_views.c).  The slice's local
 * counts are the worker's own memory, counted with no lock held.
 *
 * IDENTIFICATION
 *	  src/collector_walrel.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/relpath.h"
#include "storage/shmem.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "collector_defs.h"
#include "compat.h"

HTAB	   *ou_walrel_htab = NULL;
OuWalRelTotals *ou_walrel_totals = NULL;

/* the current slice's counts (OuWalRelEntry, last_used = record number) */
static MemoryContext ou_walrel_cxt = NULL;
static HTAB *ou_walrel_local = NULL;
static OuWalRelTotals ou_walrel_slice;

/*
 * The slice's entries counted last, so that most block references find
 * theirs without hashing: a record's relations are mostly those of the
 * records just before it (a heap insert, then its index's, then the next
 * heap insert).  Dynahash never moves an entry, so a pointer holds until
 * the entry is removed or the table destroyed: ou_walrel_forget_recent()
 * then.
 */
#define OU_WALREL_RECENT 8
static OuWalRelEntry *ou_walrel_recent[OU_WALREL_RECENT];
static int	ou_walrel_recent_next = 0;

static void ou_walrel_forget_recent(void);

/* a key is hashed as bytes and built field by field: no padding in it */
StaticAssertDecl(sizeof(OuWalRelKey) == 3 * sizeof(Oid) + sizeof(int32),
				 "OuWalRelKey has padding");

/*
 * ou_walrel_shmem_size
 *		Bytes of the table and its totals (part of the collector's request).
 */
Size
ou_walrel_shmem_size(int max_entries)
{
	return add_size(MAXALIGN(sizeof(OuWalRelTotals)),
					hash_estimate_size(max_entries, sizeof(OuWalRelEntry)));
}

/*
 * ou_walrel_shmem_init
 *		Create or attach to the table and its totals, at startup.
 */
void
ou_walrel_shmem_init(int max_entries)
{
	HASHCTL		info;
	bool		found;

	Assert(LWLockHeldByMeInMode(AddinShmemInitLock, LW_EXCLUSIVE));
	ou_walrel_totals = ShmemInitStruct("ordered_uuid relation WAL totals",
									   sizeof(OuWalRelTotals), &found);
	if (!found)
		memset(ou_walrel_totals, 0, sizeof(OuWalRelTotals));
	memset(&info, 0, sizeof(info));
	info.keysize = sizeof(OuWalRelKey);
	info.entrysize = sizeof(OuWalRelEntry);
	ou_walrel_htab = ou_shmem_init_hash("ordered_uuid relation WAL stats", max_entries,
										&info, HASH_ELEM | HASH_BLOBS | HASH_FIXED_SIZE);
}

/*
 * ou_walrel_clear
 *		Empty the table and its totals (a reset, or the WAL followed
 *		afresh).
 */
void
ou_walrel_clear(void)
{
	Assert(OU_LOCKED_EXCLUSIVE());
	(void) ou_table_remove_if(ou_walrel_htab, NULL, NULL);
	memset(ou_walrel_totals, 0, sizeof(OuWalRelTotals));
}

/*
 * ou_walrel_discard_local
 *		Forget the slice's counts not yet added (the WAL is no longer
 *		followed: its split counts are dropped alike).
 */
void
ou_walrel_discard_local(void)
{
	ou_walrel_forget_recent();
	if (ou_walrel_local != NULL)
		hash_destroy(ou_walrel_local);
	ou_walrel_local = NULL;
	memset(&ou_walrel_slice, 0, sizeof(ou_walrel_slice));
}

/* forget the slice's entries counted last (before any leaves the table) */
static void
ou_walrel_forget_recent(void)
{
	memset(ou_walrel_recent, 0, sizeof(ou_walrel_recent));
	ou_walrel_recent_next = 0;
}

static inline bool
ou_walrel_key_equal(const OuWalRelKey *a, const OuWalRelKey *b)
{
	return a->loc.relNumber == b->loc.relNumber && a->loc.dbOid == b->loc.dbOid &&
		a->loc.spcOid == b->loc.spcOid && a->forknum == b->forknum;
}

/* the slice's table of counts, created empty */
static void
ou_walrel_local_create(void)
{
	HASHCTL		info;

	if (ou_walrel_cxt == NULL)
		ou_walrel_cxt = AllocSetContextCreate(TopMemoryContext,
											  "ordered_uuid collector relation WAL",
											  ALLOCSET_DEFAULT_SIZES);
	memset(&info, 0, sizeof(info));
	info.keysize = sizeof(OuWalRelKey);
	info.entrysize = sizeof(OuWalRelEntry);
	info.hcxt = ou_walrel_cxt;
	ou_walrel_local = hash_create("ordered_uuid collector relation WAL", 64, &info,
								  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/* the slice's entry of key, entered zeroed if new */
static inline OuWalRelEntry *
ou_walrel_local_entry(const OuWalRelKey *key)
{
	OuWalRelEntry *e;
	bool		found;
	int			i;

	for (i = 0; i < OU_WALREL_RECENT; i++)
		if (ou_walrel_recent[i] != NULL && ou_walrel_key_equal(&ou_walrel_recent[i]->key, key))
			return ou_walrel_recent[i];
	if (ou_walrel_local == NULL)
		ou_walrel_local_create();
	e = hash_search(ou_walrel_local, key, HASH_ENTER, &found);
	if (!found)
		memset((char *) e + sizeof(OuWalRelKey), 0, sizeof(OuWalRelEntry) - sizeof(OuWalRelKey));
	ou_walrel_recent[ou_walrel_recent_next] = e;
	ou_walrel_recent_next = (ou_walrel_recent_next + 1) % OU_WALREL_RECENT;
	return e;
}

/*
 * ou_walrel_count
 *		Count the current record in the slice (see the file header for who
 *		gets what); recno orders the slice's entries by their last use.
 *		It runs for every record the worker reads: no call into core, and a
 *		hash lookup only for a relation not among the recent ones.
 */
void
ou_walrel_count(XLogReaderState *r, uint64 recno)
{
	OuWalRelEntry *seen[XLR_MAX_BLOCK_ID + 1];
	int			nseen = 0;
	int			id;
	int			max_id = OU_REC_MAX_BLOCK_ID(r);
	uint32		len = XLogRecGetTotalLen(r);

	ou_walrel_slice.records++;
	ou_walrel_slice.wal_bytes += len;
	for (id = 0; id <= max_id; id++)
	{
		OuWalRelKey key;
		ForkNumber	fork;
		BlockNumber blk;
		OuWalRelEntry *e;
		int			i;

		if (!ou_rec_block_tag(r, (uint8) id, &key.loc, &fork, &blk))
			continue;
		key.forknum = (int32) fork;
		e = ou_walrel_local_entry(&key);
		e->last_used = recno;
		/* one entry a key: the first block reference of its relation fork? */
		for (i = 0; i < nseen && seen[i] != e; i++)
			;
		if (i == nseen)
		{
			seen[nseen++] = e;
			e->records++;
			if (nseen == 1)
				e->wal_bytes += len;
		}
		if (XLogRecHasBlockImage(r, id))
		{
			uint32		img = OU_REC_BLOCK_IMAGE_LEN(r, id);

			e->fpis++;
			e->fpi_bytes += img;
			ou_walrel_slice.fpis++;
			ou_walrel_slice.fpi_bytes += img;
		}
	}
	if (nseen == 0)
	{
		ou_walrel_slice.no_block_records++;
		ou_walrel_slice.no_block_bytes += len;
	}
	ou_walrel_slice.relation_records += Max(nseen, 1);
}

/* add an entry's counts to the pruned totals */
static void
ou_walrel_add_pruned(OuWalRelTotals *t, const OuWalRelEntry *e)
{
	Assert(OU_LOCKED_EXCLUSIVE());
	t->pruned_records += e->records;
	t->pruned_bytes += e->wal_bytes;
	t->pruned_fpis += e->fpis;
	t->pruned_fpi_bytes += e->fpi_bytes;
}

/*
 * ou_walrel_evicting
 *		Add the counts of an entry that is about to leave the shared table
 *		for lack of room (collector_evict.c calls it), or that a restore
 *		leaves out (collector_restore.c), to the evicted totals.
 */
void
ou_walrel_evicting(const void *entry)
{
	const OuWalRelEntry *e = entry;
	OuWalRelTotals *t = ou_walrel_totals;

	Assert(OU_LOCKED_EXCLUSIVE());
	t->evicted_records += e->records;
	t->evicted_bytes += e->wal_bytes;
	t->evicted_fpis += e->fpis;
	t->evicted_fpi_bytes += e->fpi_bytes;
}

/* remove key's entry from htab, if any, its counts added to the pruned */
static void
ou_walrel_prune_key(HTAB *htab, const OuWalRelKey *key)
{
	OuWalRelEntry *e;

	Assert(OU_LOCKED_EXCLUSIVE());
	e = hash_search(htab, key, HASH_FIND, NULL);
	if (e == NULL)
		return;
	ou_walrel_add_pruned(ou_walrel_totals, e);
	(void) hash_search(htab, key, HASH_REMOVE, NULL);
}

/* whether loc lies in one of the (database, tablespace) directories dirs */
static bool
ou_walrel_in_dirs(const OuRelFileLocator *loc, const OuRelFileLocator *dirs, int ndirs)
{
	int			i;

	for (i = 0; i < ndirs; i++)
		if (loc->dbOid == dirs[i].dbOid && loc->spcOid == dirs[i].spcOid)
			return true;
	return false;
}

/* remove the entries of htab in the directories dirs, their counts pruned */
static void
ou_walrel_prune_dirs(HTAB *htab, const OuRelFileLocator *dirs, int ndirs)
{
	HASH_SEQ_STATUS seq;
	OuWalRelEntry *e;

	Assert(OU_LOCKED_EXCLUSIVE());
	hash_seq_init(&seq, htab);
	while ((e = hash_seq_search(&seq)) != NULL)
	{
		CHECK_FOR_INTERRUPTS();
		if (!ou_walrel_in_dirs(&e->key.loc, dirs, ndirs))
			continue;
		ou_walrel_add_pruned(ou_walrel_totals, e);
		/* removing the current entry during a scan is allowed */
		(void) hash_search(htab, &e->key, HASH_REMOVE, NULL);
	}
}

/*
 * ou_walrel_prune
 *		Remove the entries, shared and of the slice, of the relfilenodes
 *		dead (every fork) and of those in the directories dead_dirs.
 */
static void
ou_walrel_prune(const OuRelFileLocator *dead, int ndead,
				const OuRelFileLocator *dead_dirs, int ndead_dirs)
{
	int			i;
	int			fork;

	Assert(OU_LOCKED_EXCLUSIVE());
	ou_walrel_forget_recent();
	for (i = 0; i < ndead; i++)
		for (fork = 0; fork <= MAX_FORKNUM; fork++)
		{
			OuWalRelKey key;

			CHECK_FOR_INTERRUPTS();
			memset(&key, 0, sizeof(key));
			key.loc = dead[i];
			key.forknum = fork;
			ou_walrel_prune_key(ou_walrel_htab, &key);
			if (ou_walrel_local != NULL)
				ou_walrel_prune_key(ou_walrel_local, &key);
		}
	if (ndead_dirs > 0)
	{
		ou_walrel_prune_dirs(ou_walrel_htab, dead_dirs, ndead_dirs);
		if (ou_walrel_local != NULL)
			ou_walrel_prune_dirs(ou_walrel_local, dead_dirs, ndead_dirs);
	}
}

static int
ou_walrel_recency_cmp(const void *a, const void *b)
{
	uint64		l = (*(OuWalRelEntry *const *) a)->last_used;
	uint64		r = (*(OuWalRelEntry *const *) b)->last_used;

	return l < r ? -1 : (l > r ? 1 : 0);
}

/* add the slice's counts of one relation file and fork to the shared table */
static void
ou_walrel_flush_entry(const OuWalRelEntry *l, TimestampTz now)
{
	OuWalRelEntry *e;
	bool		found;

	Assert(OU_LOCKED_EXCLUSIVE());
	e = ou_table_enter_extended(ou_walrel_htab, &l->key, offsetof(OuWalRelEntry, last_used),
								&ou_walrel_totals->table, &found, ou_walrel_evicting);
	if (e == NULL)
	{
		/* no room: its counts leave as an evicted entry's would */
		ou_walrel_totals->table.dropped += l->records;
		ou_walrel_evicting(l);
		return;
	}
	if (!found)
	{
		e->records = e->wal_bytes = e->fpis = e->fpi_bytes = 0;
		e->last_fpi = 0;
	}
	e->records += l->records;
	e->wal_bytes += l->wal_bytes;
	e->fpis += l->fpis;
	e->fpi_bytes += l->fpi_bytes;
	if (l->fpis > 0)
		e->last_fpi = now;
}

/*
 * ou_walrel_flush
 *		Add the slice's counts to the shared table, after pruning the
 *		relfilenodes that died in the slice (dead) and the directories that
 *		went (dead_dirs), the least recently used first (so that an eviction
 *		the slice causes takes the right entries).
 */
void
ou_walrel_flush(const OuRelFileLocator *dead, int ndead,
				const OuRelFileLocator *dead_dirs, int ndead_dirs)
{
	OuWalRelTotals *t = ou_walrel_totals;
	TimestampTz now = GetCurrentTimestamp();

	Assert(OU_LOCKED_EXCLUSIVE());
	ou_walrel_prune(dead, ndead, dead_dirs, ndead_dirs);
	if (ou_walrel_local != NULL)
	{
		HASH_SEQ_STATUS seq;
		OuWalRelEntry *l;
		OuWalRelEntry **order;
		long		n = 0,
					k;

		order = palloc(sizeof(OuWalRelEntry *) * Max(hash_get_num_entries(ou_walrel_local), 1));
		hash_seq_init(&seq, ou_walrel_local);
		while ((l = hash_seq_search(&seq)) != NULL)
			order[n++] = l;
		qsort(order, n, sizeof(OuWalRelEntry *), ou_walrel_recency_cmp);
		for (k = 0; k < n; k++)
		{
			CHECK_FOR_INTERRUPTS();
			ou_walrel_flush_entry(order[k], now);
		}
		pfree(order);
		hash_destroy(ou_walrel_local);
		ou_walrel_local = NULL;
		ou_walrel_forget_recent();
	}
	t->records += ou_walrel_slice.records;
	t->wal_bytes += ou_walrel_slice.wal_bytes;
	t->fpis += ou_walrel_slice.fpis;
	t->fpi_bytes += ou_walrel_slice.fpi_bytes;
	t->relation_records += ou_walrel_slice.relation_records;
	t->no_block_records += ou_walrel_slice.no_block_records;
	t->no_block_bytes += ou_walrel_slice.no_block_bytes;
	memset(&ou_walrel_slice, 0, sizeof(ou_walrel_slice));
}
