/*-------------------------------------------------------------------------
 *
 * generators_striped.c
 *	  uuid_striped_nextval: time-ordered keys that many sessions can insert
 *	  at once without sharing a right edge, packed densely in the B-tree.
 *
 * Layout (RFC 9562 version 8, variant 10), most significant bit first:
 *
 *	 bits   0-47   block start: Unix time in milliseconds, a multiple of
 *				   interval_length seconds
 *	 bits  48-51   version 8
 *	 bits  52-63   stripe, low 12 bits: the process number modulo 4096
 *	 bits  64-65   variant 10
 *	 bits  66-103  slot (38 bits): 2 * (microseconds since the block start)
 *				   + pass (0 = front key, 1 = fill key)
 *	 bits 104-109  stripe, high 6 bits: the process number divided by 4096
 *	 bits 110-127  random (18 bits)
 *
 * Stripes: the stripe is the process's number (its PGPROC's), which no two
 * processes running at the same time share.  It has 18 bits, as many as the
 * largest process array PostgreSQL allows (MAX_BACKENDS, 2^18 - 1), so keys
 * of processes running at the same time never share block, stripe, slot and
 * pass, however large the server.  Its low 12 bits come right after the
 * block: each process appends inside its own key range of the current
 * block, and no two of them insert into the same leaf page (except for the
 * first few hundred rows of a block, which all start at the right edge of
 * the index).  Its high 6 bits come after the slot: they are 0 on a server
 * with at most 4,096 process slots, where keys are laid out as in releases
 * before 1.2.2 but for those 6 bits, which were random, so a process of an
 * older release and one of this release on the same process number keep
 * their keys apart as successive sessions do (below).  On a larger server,
 * processes whose numbers are 4,096 apart share a key range, their keys
 * interleaved by time and kept apart by those 6 bits.  Values sort by
 * block, i.e. by time at the grain of interval_length.
 *
 * Slots: a leaf page that is full and is not the rightmost page of the index
 * is split 50:50 when the index has a single key column (nbtsplitloc.c uses
 * its fillfactor-like strategies only for the rightmost page and, for
 * localized ascending inserts, for multi-column indexes).  A stripe filled in
 * ascending order therefore leaves every page it passes half full.  So each
 * session makes two interleaved ascending streams of keys:
 *
 * - front keys (pass 0) at slot 2t, t being the session's microsecond clock,
 *	 forced to be strictly increasing within the session;
 * - fill keys (pass 1) at slot 2t + 1 for a front key made at least
 *	 OU_STRIPE_LAG front keys earlier: they land in the gaps between the
 *	 front keys of pages the front has left behind.
 *
 * A session makes front keys until it is OU_STRIPE_LAG + OU_STRIPE_RUN front
 * keys ahead of the ones it has filled (or passed over), then fill keys until
 * it is only OU_STRIPE_LAG ahead: runs of OU_STRIPE_RUN keys of each pass.
 * In the long run 11 fill keys follow every 12 front keys: the front key of
 * every OU_STRIPE_SKIP-th position is never filled.  A page left half full by
 * a 50:50 split (about 145 front keys of a uuid index) then reaches about
 * 95 % and cannot overflow; a page left 90 % full by a split of the rightmost
 * page (one session alone at the edge) overflows once, into two pages about
 * 86 % full.  The lag is more than one leaf page of front keys, so a fill key
 * never lands on the page that the front is still filling (filling that page
 * would only make it split sooner).
 *
 * Why runs: a session at the right edge of the index inserts its front keys
 * through nbtree's cached rightmost leaf, without descending from the root,
 * but an insertion anywhere else (a fill key) drops that cache.  Alternating
 * the passes key by key made every insertion descend; in runs, the front keys
 * descend once per run (measured: 3.0 instead of 4.2 buffer accesses per row
 * for one session, 2.2 for uuid_v7_nextval).
 *
 * The edge: the session whose stripe is the highest of the newest block
 * inserts at the right edge of the index, where nbtree's split of the
 * rightmost page leaves the left page 90 % full: its pages end 90 % full
 * without fill keys, and without them it keeps nbtree's cached rightmost
 * leaf for every key, as uuid_v7_nextval() does.  So at each point where a
 * run of fill keys would start, a session asks generators_edge.c whether its
 * (block, stripe) is the largest any session has made a key of the same
 * interval_length in, and if so passes its unfilled front keys over
 * instead.  A session publishes its (block, stripe) there at its first key
 * of each block too, so that a session with a lower stripe learns at once
 * that it is no longer at the edge.  Once another session has made keys in
 * a block with a higher stripe, those keys may lie to the right of this
 * session's in the same index, so the edge stays with that stripe for the
 * rest of the block, whether or not that session is still there.
 *
 * Not the edge: the newest keys are the right edge of the index only when
 * the index holds no key above them.  A table that held random keys before
 * its default became this generator holds them on both sides: the newest
 * block starts inside the random keyspace (a key beginning 019a... sorts
 * among the random keys beginning 019a...), so every split there is a 50:50
 * split, even for the session with the highest stripe, and a session that
 * skipped its fill keys as the edge leaves its pages half full.  With
 * right_edge => false (the two-argument form) a session never asks for the
 * edge nor publishes its keys there: every session makes fill keys, and the
 * new keys' pages end about 95 % full wherever they land in the index.  The
 * keys have the one-argument form's layout.
 *
 * Uniqueness: within a session, front keys have distinct clocks and each
 * front key gets at most one fill key; processes at the same time have
 * different stripes.  A session that makes front keys faster than one a
 * microsecond runs ahead of the wall clock, and a later session on the same
 * PGPROC number would start its clock inside the earlier one's keys.  So a
 * session never hands its PGPROC on while it is ahead: on exit it waits until
 * the wall clock has passed its last front key (ou_stripe_exit_wait).  The
 * wait is bounded because the lead is: a session at most
 * OU_STRIPE_MAX_LEAD_US ahead makes its next front key no sooner than the
 * wall clock lets it stay within that lead.  So every clock of a later
 * session on the same PGPROC number is later than every clock of an earlier
 * one, on every version and with or without the library preloaded.  The 18
 * random bits are all that separate keys outside that guarantee: a session
 * that did not run its exit callbacks (a crash or an immediate shutdown)
 * followed within its lead by another on the same PGPROC number, and a wall
 * clock stepping back.
 *
 * The state is the session's own (tagged with its PID, as in random.c) and
 * shared by all the tables a session inserts into with this generator.
 *
 * IDENTIFICATION
 *	  src/generators_striped.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "fmgr.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "storage/ipc.h"
#include "utils/uuid.h"

#include "compat.h"
#include "generators.h"
#include "util.h"

PG_FUNCTION_INFO_V1(uuid_striped_nextval);

/* front keys between a front key and its fill key, at least */
#define OU_STRIPE_LAG		384
/* keys of one pass made in a row */
#define OU_STRIPE_RUN		32
/* every OU_STRIPE_SKIP-th front key gets no fill key */
#define OU_STRIPE_SKIP		12
/* stripes: the process number, 12 bits after the block and 6 after the slot */
#define OU_STRIPE_BITS		18
#define OU_STRIPE_LOW_BITS	12
/* the largest interval_length: its microseconds fit in 37 bits */
#define OU_STRIPE_MAX_INTERVAL	86400
#define OU_STRIPE_RANDOM_BITS	18
/* how far a session's clock may run ahead of the wall clock, at most */
#define OU_STRIPE_MAX_LEAD_US	INT64CONST(1000000)

#define US_PER_SEC			INT64CONST(1000000)

typedef struct OuStripeState
{
	int			owner;			/* PID of the process the state belongs to */
	int64		last_us;		/* clock of the last front key */
	uint64		fronts;			/* front keys made */
	uint64		filled;			/* front keys whose turn to be filled is past */
	bool		filling;		/* in a run of fill keys */
	/* clocks of the last front keys: enough for the largest lag */
	int64		ring[OU_STRIPE_LAG + OU_STRIPE_RUN];
} OuStripeState;

static OuStripeState ou_stripe;

/* the wall clock in microseconds since the Unix epoch (never negative) */
static int64
ou_stripe_wall_us(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		elog(ERROR, "clock_gettime failed: %m");
	return Max((int64) ts.tv_sec * US_PER_SEC + ts.tv_nsec / 1000, INT64CONST(0));
}

/*
 * ou_stripe_exit_wait
 *		before_shmem_exit callback: keep this process's PGPROC until the wall
 *		clock has passed the clock of its last front key, so that the next
 *		session on the same PGPROC number starts later than every key of this
 *		one.  The lead is at most OU_STRIPE_MAX_LEAD_US unless the wall clock
 *		stepped back, which the wait does not try to make good.
 */
static void
ou_stripe_exit_wait(int code, Datum arg)
{
	instr_time	start;
	instr_time	waited;
	int64		now;

	if (ou_stripe.owner != MyProcPid)
		return;
	INSTR_TIME_SET_CURRENT(start);
	while ((now = ou_stripe_wall_us()) <= ou_stripe.last_us)
	{
		/* a signal may cut a sleep short: measure what was waited */
		INSTR_TIME_SET_CURRENT(waited);
		INSTR_TIME_SUBTRACT(waited, start);
		if (INSTR_TIME_GET_MICROSEC(waited) > OU_STRIPE_MAX_LEAD_US)
			break;
		pg_usleep((long) Min(ou_stripe.last_us + 1 - now, OU_STRIPE_MAX_LEAD_US));
	}
}

/*
 * ou_stripe_front_clock
 *		The clock of a new front key: the wall clock, or one more than the
 *		previous front key's when that is not earlier.  A session more than
 *		OU_STRIPE_MAX_LEAD_US ahead of the wall clock waits (at most a
 *		microsecond, the lead growing by one a key) until it is not; a larger
 *		jump of the lead is the wall clock stepping back, which is not waited
 *		out.
 */
static int64
ou_stripe_front_clock(void)
{
	int64		now = ou_stripe_wall_us();
	int64		t = Max(now, ou_stripe.last_us + 1);

	while (t - now > OU_STRIPE_MAX_LEAD_US && t - now <= OU_STRIPE_MAX_LEAD_US + 1)
	{
		int64		later = ou_stripe_wall_us();

		if (later < now)
			break;				/* stepped back meanwhile: stop waiting */
		now = later;
	}
	return t;
}

/*
 * ou_stripe_at_edge
 *		Publish the block and stripe of this session's newest keys as a
 *		candidate for the right edge of the striped keys of their interval
 *		(generators_edge.c), and say whether they are the edge.
 */
static bool
ou_stripe_at_edge(int64 t, int32 interval_length, uint32 stripe)
{
	return ou_edge_is_mine(interval_length, t / (interval_length * US_PER_SEC), stripe, t);
}

/*
 * ou_stripe_next_clock
 *		The clock of the next key: a new front key's (ou_stripe_front_clock),
 *		or, in a run of fill keys, that of the front key to fill.  *pass is
 *		set to 0 or 1 accordingly.  interval_length and stripe are those of
 *		the key; right_edge false: the keys are never the index's right edge,
 *		so the session always fills and leaves the shared edges alone.
 */
static int64
ou_stripe_next_clock(int32 interval_length, uint32 stripe, bool right_edge, int *pass)
{
	int64		block_us = interval_length * US_PER_SEC;
	int64		now;

	if (ou_stripe.owner != MyProcPid)
	{
		memset(&ou_stripe, 0, sizeof(ou_stripe));
		ou_stripe.owner = MyProcPid;
		before_shmem_exit(ou_stripe_exit_wait, (Datum) 0);
	}

	/*
	 * Runs: start filling OU_STRIPE_LAG + OU_STRIPE_RUN front keys ahead, stop
	 * OU_STRIPE_LAG ahead.  The front key to fill is then at most
	 * OU_STRIPE_LAG + OU_STRIPE_RUN front keys old, still in the ring.  At
	 * the right edge of the index no page needs filling: the front keys not
	 * yet filled are passed over instead.
	 */
	if (ou_stripe.filling)
		ou_stripe.filling = ou_stripe.fronts - ou_stripe.filled > OU_STRIPE_LAG;
	else if (ou_stripe.fronts - ou_stripe.filled >= OU_STRIPE_LAG + OU_STRIPE_RUN)
	{
		if (right_edge && ou_stripe_at_edge(ou_stripe.last_us, interval_length, stripe))
			ou_stripe.filled = ou_stripe.fronts;
		else
			ou_stripe.filling = true;
	}

	if (ou_stripe.filling)
	{
		int64		t = ou_stripe.ring[ou_stripe.filled % lengthof(ou_stripe.ring)];

		ou_stripe.filled++;
		if (ou_stripe.filled % OU_STRIPE_SKIP == OU_STRIPE_SKIP - 1)
			ou_stripe.filled++;
		*pass = 1;
		return t;
	}

	now = ou_stripe_front_clock();
	/* the first key of a new block: let the other sessions know at once */
	if (right_edge && now / block_us != ou_stripe.last_us / block_us)
		(void) ou_stripe_at_edge(now, interval_length, stripe);
	ou_stripe.last_us = now;
	ou_stripe.ring[ou_stripe.fronts % lengthof(ou_stripe.ring)] = now;
	ou_stripe.fronts++;
	*pass = 0;
	return now;
}

/*
 * ou_stripe_of_process
 *		This process's stripe: its process number, which must fit in the
 *		stripe's bits (it always does: PostgreSQL's process array has at most
 *		MAX_BACKENDS, 2^18 - 1, entries for the processes that run queries).
 */
static uint32
ou_stripe_of_process(void)
{
	int			procno = OU_MY_PROC_NUMBER();

	if (procno < 0 || procno >= (1 << OU_STRIPE_BITS))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("uuid_striped_nextval() cannot run in a process numbered %d", procno),
				 errdetail("Striped keys are unique only for process numbers from 0 to %d.",
						   (1 << OU_STRIPE_BITS) - 1)));
	return (uint32) procno;
}

/*
 * uuid_striped_nextval(interval_length int [, right_edge boolean])
 *		Version 8 UUID: block start, stripe, slot, random (layout above).
 *		The one-argument form (the only one before SQL version 1.6.0) is
 *		right_edge => true.
 */
Datum
uuid_striped_nextval(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	int32		interval_length;
	int64		block_us;
	int64		t;
	int64		start;
	uint64		block_ms;
	uint64		low;
	uint32		stripe;
	uint8		rnd[3];
	bool		right_edge = true;
	int			pass;
	int			i;

	interval_length = ou_getarg_int32(fcinfo, 0, "interval_length", 1, OU_STRIPE_MAX_INTERVAL);
	if (PG_NARGS() > 1)
	{
		ou_check_not_null(fcinfo, 1, "right_edge");
		right_edge = PG_GETARG_BOOL(1);
	}

	block_us = (int64) interval_length * US_PER_SEC;
	stripe = ou_stripe_of_process();
	t = ou_stripe_next_clock(interval_length, stripe, right_edge, &pass);
	start = t - t % block_us;
	block_ms = (uint64) (start / 1000);

	ou_random_bytes(rnd, sizeof(rnd));
	low = ((uint64) (2 * (t - start) + pass) << (OU_STRIPE_BITS - OU_STRIPE_LOW_BITS + OU_STRIPE_RANDOM_BITS)) |
		((uint64) (stripe >> OU_STRIPE_LOW_BITS) << OU_STRIPE_RANDOM_BITS) |
		((((uint64) rnd[0] << 16) | ((uint64) rnd[1] << 8) | rnd[2]) &
		 ((UINT64CONST(1) << OU_STRIPE_RANDOM_BITS) - 1));

	for (i = 0; i < 6; i++)
		uuid->data[i] = (uint8) (block_ms >> (8 * (5 - i)));
	uuid->data[6] = 0x80 | (uint8) ((stripe >> 8) & 0x0f);	/* version 8 */
	uuid->data[7] = (uint8) stripe;
	for (i = 0; i < 8; i++)
		uuid->data[8 + i] = (uint8) (low >> (8 * (7 - i)));
	uuid->data[8] = (uuid->data[8] & 0x3f) | 0x80;	/* RFC 9562 variant */

	PG_RETURN_UUID_P(uuid);
}
