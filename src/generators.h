/*-------------------------------------------------------------------------
 *
 * generators.h
 *	  The layouts shared by the generators (generators.c) and the keys of a
 *	  given time (generators_time_keys.c), and the shared right edges of
 *	  the striped generator (generators_striped.c, generators_edge.c), whose
 *	  key layout is its own.
 *
 * IDENTIFICATION
 *	  src/generators.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_GENERATORS_H
#define ORDERED_UUID_GENERATORS_H

#include "datatype/timestamp.h"
#include "fmgr.h"
#include "port/atomics.h"
#include "utils/uuid.h"

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

extern int	ou_prefix_bytes(int64 block_count);
extern OuBlockLayout ou_block_layout(int32 block_size, int32 block_count);
extern uint64 ou_block_of(const OuBlockLayout *layout, int64 v);
extern int32 ou_block_id_int(uint64 block);
extern void ou_set_block_prefix(pg_uuid_t *uuid, const OuBlockLayout *layout, uint64 block);
extern int64 ou_v7_unix_us(TimestampTz ts);
extern void ou_v7_fill(pg_uuid_t *uuid, uint64 ms, int64 subms_ns);
extern void ou_v7_fill_time(pg_uuid_t *uuid, TimestampTz ts, int64 extra_ns);

/*
 * The striped keys' right edges (generators_edge.c), one per interval_length,
 * in shared memory under OU_EDGE_NAME: OU_EDGE_SLOTS 64-bit words, each
 * (interval_length << 47) | (block number << 12) | stripe, or 0 when free.
 * The first belongs to OU_STRIPE_DEFAULT_INTERVAL alone; the other intervals
 * share the rest.  The test module moves the edges through this layout.
 */
#define OU_EDGE_NAME		"ordered_uuid striped edges"
#define OU_EDGE_SLOTS		64
/* uuid_striped_nextval's default interval_length (extension/10_generators.sql) */
#define OU_STRIPE_DEFAULT_INTERVAL	3600

typedef struct OuEdges
{
	pg_atomic_uint64 slot[OU_EDGE_SLOTS];
} OuEdges;

/* generators_edge.c */
extern void ou_edge_install_hooks(void);
extern bool ou_edge_is_mine(int32 interval_length, int64 block, uint32 stripe, int64 now_us);

#endif							/* ORDERED_UUID_GENERATORS_H */
