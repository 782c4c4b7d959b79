/*-------------------------------------------------------------------------
 *
 * generators_edge.c
 *	  The right edges of the striped keys, shared by all sessions: for each
 *	  interval_length, the largest (block, stripe) that any session has made
 *	  a key in.
 *
 * uuid_striped_nextval's fill keys exist because a stripe that is not the
 * rightmost part of the index is split 50:50 (generators_striped.c).  The
 * session whose stripe is the highest in the newest block inserts at the
 * right edge of the index instead, where nbtree's rightmost split leaves
 * pages 90 % full: it needs no fill keys, and without them it inserts its
 * keys through nbtree's cached rightmost leaf, as uuid_v7_nextval() does.
 * To know it is that session, every session publishes the (block, stripe)
 * of its keys here, a 64-bit atomic maximum: a session is at the edge when
 * the maximum is its own.  A session that made keys in a block, even into
 * another table, keeps the edge of that block: the others then fill as
 * before, which is never wrong, only slower.
 *
 * One edge per interval_length.  Blocks of different lengths do not compare
 * (a 1-second block is newer than every 1-hour block of the same hour), and
 * an index holds the keys of one interval_length, so each interval has an
 * edge of its own: a word tagged with the interval, (interval_length << 47)
 * | (block number << 12) | low 12 bits of the stripe, where the block number
 * is the block's start divided by its length (35 bits last until the year
 * 3058 for 1-second blocks; later ones have no edge).  The first word
 * belongs to the default interval alone, so no call with another interval
 * can take it.  The other intervals share the other OU_EDGE_SLOTS - 1 words:
 * an interval takes a free word, or one whose block ended more than
 * OU_EDGE_STALE_S seconds ago (its sessions have all moved on to a later block,
 * where they take a word again), searching from a place its value picks.
 * When every word is held by a live block of another interval, the
 * interval's sessions have no edge and fill, as on a server without shared
 * memory for it.  Everything here decides only how densely an index is
 * packed and how fast a session inserts, never which keys are made.
 *
 * Where the words live: in the main shared memory when the library is
 * preloaded, else (PostgreSQL 17+) in a named DSM segment that the first
 * session to ask creates.  PostgreSQL 14-16 without preload have no place
 * for them: every session then fills.  Either lives until the server stops
 * (core's DSM registry pins its segments).
 *
 * Locking: none.  Each word is an atomic, changed only by compare-and-
 * exchange, so a session that lost a race reads the winner's word and
 * decides again; a reader sees a word as some session last published it,
 * never a torn one.  The words are initialised before any session can see them:
 * under AddinShmemInitLock at startup, or inside GetNamedDSMSegment, which
 * initialises a new segment before it hands it out.
 *
 * IDENTIFICATION
 *	  src/generators_edge.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

#include "compat.h"
#include "generators.h"

/* a word's fields */
#define OU_EDGE_INTERVAL_SHIFT	47
#define OU_EDGE_BLOCK_BITS		35
#define OU_EDGE_STRIPE_BITS		12
/* how long after its block's end another interval may take a word, seconds */
#define OU_EDGE_STALE_S			2

/* this process's pointer to the edges; NULL until found or when none exist */
static OuEdges *ou_edges = NULL;
static bool ou_edges_looked = false;

#ifdef OU_HAVE_SHMEM_REQUEST_HOOK
static shmem_request_hook_type ou_edge_prev_request_hook = NULL;
#endif
static shmem_startup_hook_type ou_edge_prev_startup_hook = NULL;

/* ou_edge_init: new edges, all free (also the named DSM's callback) */
static void
ou_edge_init(void *ptr)
{
	OuEdges    *edges = (OuEdges *) ptr;

	for (int i = 0; i < OU_EDGE_SLOTS; i++)
		pg_atomic_init_u64(&edges->slot[i], 0);
}

/* ou_edge_request: our share of the main shared memory (preloaded) */
static void
ou_edge_request(void)
{
#ifdef OU_HAVE_SHMEM_REQUEST_HOOK
	if (ou_edge_prev_request_hook)
		ou_edge_prev_request_hook();
#endif
	RequestAddinShmemSpace(MAXALIGN(sizeof(OuEdges)));
}

/* ou_edge_startup: create or attach to the edges in the main shared memory */
static void
ou_edge_startup(void)
{
	bool		found;

	if (ou_edge_prev_startup_hook)
		ou_edge_prev_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	ou_edges = ShmemInitStruct(OU_EDGE_NAME, sizeof(OuEdges), &found);
	if (!found)
		ou_edge_init(ou_edges);
	LWLockRelease(AddinShmemInitLock);
	ou_edges_looked = true;
}

/*
 * ou_edge_install_hooks
 *		From _PG_init, while shared_preload_libraries is processed.
 */
void
ou_edge_install_hooks(void)
{
#ifdef OU_HAVE_SHMEM_REQUEST_HOOK
	ou_edge_prev_request_hook = shmem_request_hook;
	shmem_request_hook = ou_edge_request;
#else
	ou_edge_request();
#endif
	ou_edge_prev_startup_hook = shmem_startup_hook;
	shmem_startup_hook = ou_edge_startup;
}

/*
 * ou_edge_word_stale
 *		Whether word, held by another interval, may be taken: free, or its
 *		block ended more than OU_EDGE_STALE_S seconds before now_us.
 */
static bool
ou_edge_word_stale(uint64 word, int64 now_us)
{
	uint64		interval = word >> OU_EDGE_INTERVAL_SHIFT;
	uint64		block = (word >> OU_EDGE_STRIPE_BITS) &
		((UINT64CONST(1) << OU_EDGE_BLOCK_BITS) - 1);

	if (word == 0)
		return true;
	/* the block's end in Unix seconds: below 2^53, no overflow */
	return (block + 1) * interval + OU_EDGE_STALE_S < (uint64) Max(now_us, 0) / 1000000;
}

/*
 * ou_edge_try_word
 *		Publish key in word w if w belongs to key's interval (or may be
 *		taken for it).  Returns 1 if key is then the interval's edge, 0 if it
 *		is not, -1 if w belongs to a live block of another interval.
 */
static int
ou_edge_try_word(pg_atomic_uint64 *w, uint64 key, int64 now_us)
{
	uint64		cur = pg_atomic_read_u64(w);

	for (;;)
	{
		if ((cur >> OU_EDGE_INTERVAL_SHIFT) == (key >> OU_EDGE_INTERVAL_SHIFT))
		{
			if (cur >= key)
				return cur == key;
		}
		else if (!ou_edge_word_stale(cur, now_us))
			return -1;
		/* cur is older, free or stale: replace it (or learn who did) */
		if (pg_atomic_compare_exchange_u64(w, &cur, key))
			return 1;
	}
}

/*
 * ou_edge_is_mine
 *		Publish (block, stripe) of this session's newest keys of
 *		interval_length (block: the block's start divided by its length;
 *		stripe: the session's stripe, of which the low 12 bits order the
 *		keys of a block) and say whether they are the largest published for
 *		that interval: whether this session is at that interval's right edge.
 *		now_us: the session's clock.  False when there is no shared edge, or
 *		no word for the interval.
 */
bool
ou_edge_is_mine(int32 interval_length, int64 block, uint32 stripe, int64 now_us)
{
	uint64		key;
	int			first;

	if (!ou_edges_looked)
	{
		ou_edges = OU_NAMED_SHMEM(OU_EDGE_NAME, sizeof(OuEdges), ou_edge_init);
		ou_edges_looked = true;
	}
	if (ou_edges == NULL || block < 0 || block >= (INT64CONST(1) << OU_EDGE_BLOCK_BITS))
		return false;
	key = ((uint64) interval_length << OU_EDGE_INTERVAL_SHIFT) |
		((uint64) block << OU_EDGE_STRIPE_BITS) |
		(stripe & ((1U << OU_EDGE_STRIPE_BITS) - 1));

	if (interval_length == OU_STRIPE_DEFAULT_INTERVAL)
		return ou_edge_try_word(&ou_edges->slot[0], key, now_us) == 1;

	/* the others: words 1 .. OU_EDGE_SLOTS - 1, from a place of their own */
	first = interval_length % (OU_EDGE_SLOTS - 1);
	for (int i = 0; i < OU_EDGE_SLOTS - 1; i++)
	{
		int			r = ou_edge_try_word(&ou_edges->slot[1 + (first + i) % (OU_EDGE_SLOTS - 1)],
										 key, now_us);

		if (r >= 0)
			return r == 1;
	}
	return false;
}
