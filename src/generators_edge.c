/*-------------------------------------------------------------------------
 *
 * generators_edge.c
 *	  The right edge of the striped keys, shared by all sessions: the
 *	  largest (block start, stripe) that any session has made a key in.
 *
 * uuid_striped_nextval's fill keys exist because a stripe that is not the
 * rightmost part of the index is split 50:50 (generators_striped.c).  The
 * session whose stripe is the highest in the newest block inserts at the
 * right edge of the index instead, where nbtree's rightmost split leaves
 * pages 90 % full: it needs no fill keys, and without them it inserts its
 * keys through nbtree's cached rightmost leaf, as uuid_v7_nextval() does.
 * To know it is that session, every session publishes the (block start,
 * stripe) of its keys here, a single 64-bit atomic maximum: a session is at
 * the edge when the maximum is its own.  A session that made keys in a
 * block, even into another table, keeps the edge of that block: the others
 * then fill as before, which is never wrong, only slower.
 *
 * Where the value lives: in the main shared memory when the library is
 * preloaded, else (PostgreSQL 17+) in a named DSM segment that the first
 * session to ask creates.  PostgreSQL 14-16 without preload have no place
 * for it: every session then fills, as before.
 *
 * IDENTIFICATION
 *	  src/generators_edge.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

#include "compat.h"
#include "generators.h"

#define OU_EDGE_NAME "ordered_uuid striped edge"

typedef struct OuEdge
{
	pg_atomic_uint64 edge;		/* (block start ms << 12) | stripe, at most */
} OuEdge;

/* this process's pointer to the edge; NULL until found or when none exists */
static OuEdge *ou_edge = NULL;
static bool ou_edge_looked = false;

#ifdef OU_HAVE_SHMEM_REQUEST_HOOK
static shmem_request_hook_type ou_edge_prev_request_hook = NULL;
#endif
static shmem_startup_hook_type ou_edge_prev_startup_hook = NULL;

/* ou_edge_init: a new edge, below every key (also the named DSM's callback) */
static void
ou_edge_init(void *ptr)
{
	pg_atomic_init_u64(&((OuEdge *) ptr)->edge, 0);
}

/* ou_edge_request: our share of the main shared memory (preloaded) */
static void
ou_edge_request(void)
{
#ifdef OU_HAVE_SHMEM_REQUEST_HOOK
	if (ou_edge_prev_request_hook)
		ou_edge_prev_request_hook();
#endif
	RequestAddinShmemSpace(MAXALIGN(sizeof(OuEdge)));
}

/* ou_edge_startup: create or attach to the edge in the main shared memory */
static void
ou_edge_startup(void)
{
	bool		found;

	if (ou_edge_prev_startup_hook)
		ou_edge_prev_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	ou_edge = ShmemInitStruct(OU_EDGE_NAME, sizeof(OuEdge), &found);
	if (!found)
		ou_edge_init(ou_edge);
	LWLockRelease(AddinShmemInitLock);
	ou_edge_looked = true;
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
 * ou_edge_is_mine
 *		Publish key ((block start ms << 12) | stripe of this session's newest
 *		keys) and say whether it is the largest published: whether this
 *		session is at the right edge.  False when there is no shared edge.
 */
bool
ou_edge_is_mine(uint64 key)
{
	uint64		cur;

	if (!ou_edge_looked)
	{
		ou_edge = OU_NAMED_SHMEM(OU_EDGE_NAME, sizeof(OuEdge), ou_edge_init);
		ou_edge_looked = true;
	}
	if (ou_edge == NULL)
		return false;
	cur = pg_atomic_read_u64(&ou_edge->edge);
	while (cur < key)
	{
		if (pg_atomic_compare_exchange_u64(&ou_edge->edge, &cur, key))
			return true;
	}
	return cur == key;
}
