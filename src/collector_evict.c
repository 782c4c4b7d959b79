/*-------------------------------------------------------------------------
 *
 * collector_evict.c
 *	  Entering keys into the collector's bounded shared tables: when a table
 *	  holds ordered_uuid.max_entries entries and a new key comes, the least
 *	  recently used entries make room, as pg_stat_statements' entry_dealloc
 *	  does.  And removing the entries that a predicate picks (all of them
 *	  on a reset).
 *
 * Every entry keeps last_used, the value of OuShared.use_clock when it was
 * last counted (the clock ticks on every use).  A table that is full loses
 * its OU_EVICT_PERCENT least recently used entries (at least one) at once,
 * so that eviction, which sorts the table, runs once per that many new keys
 * rather than for each.  The entries removed are counted as evicted; a
 * sample whose key still finds no room (not expected: the table was just
 * made room in) is counted as dropped.  A key seen again after its eviction
 * starts from zero: its counts cover the time since then.  A table whose
 * counts must still add up after an eviction (the WAL per relation) passes
 * a hook that keeps each victim's counts before it goes.
 *
 * Locking (the rules: collector_shmem.c): every function here changes a
 * shared table, so the collector's LWLock must be held exclusively; each
 * Asserts it.  Interrupts are held off while an LWLock is held: the
 * CHECK_FOR_INTERRUPTS() in the loops are cheap no-ops until it is
 * released.
 *
 * IDENTIFICATION
 *	  src/collector_evict.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "collector_defs.h"

/* the share of a full table evicted at once */
#define OU_EVICT_PERCENT	5

/*
 * ou_sort_by_use
 *		Sort v[0..n) least recently used first (collector_restore.c too,
 *		which keeps a restored table's most recently used entries).
 */
static int
ou_by_use_cmp(const void *a, const void *b)
{
	uint64		l = ((const OuByUse *) a)->last_used;
	uint64		r = ((const OuByUse *) b)->last_used;

	return l < r ? -1 : (l > r ? 1 : 0);
}

void
ou_sort_by_use(OuByUse *v, Size n)
{
	qsort(v, n, sizeof(OuByUse), ou_by_use_cmp);
}

/*
 * ou_table_dealloc
 *		Remove the least recently used entries of a full table, each shown
 *		to evicting (when not NULL) before it goes; returns how many.
 */
static uint64
ou_table_dealloc(HTAB *htab, Size used_offset, OuEvictHook evicting)
{
	HASH_SEQ_STATUS seq;
	char	   *entry;
	OuByUse    *v;
	long		n = 0,
				cap = hash_get_num_entries(htab),
				nvict,
				i;

	Assert(OU_LOCKED_EXCLUSIVE());
	if (cap <= 0)
		return 0;
	v = palloc(sizeof(OuByUse) * cap);
	hash_seq_init(&seq, htab);
	while ((entry = hash_seq_search(&seq)) != NULL)
	{
		if (n >= cap)
		{
			hash_seq_term(&seq);
			break;
		}
		memcpy(&v[n].last_used, entry + used_offset, sizeof(uint64));
		v[n].entry = entry;
		n++;
	}
	ou_sort_by_use(v, n);
	nvict = Max(1, n * OU_EVICT_PERCENT / 100);
	for (i = 0; i < nvict && i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (evicting != NULL)
			evicting(v[i].entry);
		/* the key is at the start of the entry */
		(void) hash_search(htab, v[i].entry, HASH_REMOVE, NULL);
	}
	pfree(v);
	return (uint64) Min(nvict, n);
}

/*
 * ou_table_enter
 *		The entry of key in htab, entered (*found false, counts to be zeroed
 *		by the caller) or found, its last_used (at used_offset) set to a new
 *		tick of the clock; NULL, counted in counters->dropped by the caller's
 *		rule, only if no room could be made.
 */
void *
ou_table_enter(HTAB *htab, const void *key, Size used_offset,
			   OuTableCounters *counters, bool *found)
{
	return ou_table_enter_extended(htab, key, used_offset, counters, found, NULL);
}

/*
 * ou_table_enter_extended
 *		ou_table_enter, showing each entry that an eviction removes to
 *		evicting (when not NULL) before it goes, with the LWLock still held
 *		exclusively: the hook may add the entry's counts to totals of the
 *		shared state.
 */
void *
ou_table_enter_extended(HTAB *htab, const void *key, Size used_offset,
						OuTableCounters *counters, bool *found, OuEvictHook evicting)
{
	char	   *entry;

	Assert(OU_LOCKED_EXCLUSIVE());
	entry = hash_search(htab, key, HASH_FIND, NULL);
	if (entry != NULL)
		*found = true;
	else
	{
		if (hash_get_num_entries(htab) >= ou_shared->max_entries)
			counters->evicted += ou_table_dealloc(htab, used_offset, evicting);
		entry = hash_search(htab, key, HASH_ENTER_NULL, found);
		if (entry == NULL)
			return NULL;
	}
	ou_shared->use_clock++;
	memcpy(entry + used_offset, &ou_shared->use_clock, sizeof(uint64));
	return entry;
}

/*
 * ou_table_remove_if
 *		Remove the entries of htab for which match(entry, arg) is true, or
 *		all of them when match is NULL; returns how many.
 */
uint64
ou_table_remove_if(HTAB *htab, bool (*match) (const void *entry, const void *arg),
				   const void *arg)
{
	HASH_SEQ_STATUS seq;
	void	   *entry;
	uint64		removed = 0;

	Assert(OU_LOCKED_EXCLUSIVE());
	hash_seq_init(&seq, htab);
	while ((entry = hash_seq_search(&seq)) != NULL)
	{
		CHECK_FOR_INTERRUPTS();
		if (match != NULL && !match(entry, arg))
			continue;
		/* the key is at the start of the entry; removing the current one
		 * during a scan is allowed */
		(void) hash_search(htab, entry, HASH_REMOVE, NULL);
		removed++;
	}
	return removed;
}
