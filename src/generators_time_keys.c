/*-------------------------------------------------------------------------
 *
 * generators_time_keys.c
 *	  The keys of a given time: bounds for scanning and partitioning ordered
 *	  UUID keys by time, without a separate timestamp column.
 *
 * - Version 7: uuid_v7_min(ts) and uuid_v7_max(ts) are the smallest and the
 *	 largest version 7 UUID of the millisecond floor(ts), so that
 *	   id >= uuid_v7_min(a) AND id < uuid_v7_min(b)
 *	 selects exactly the keys made in [a, b) truncated to milliseconds.  They
 *	 are IMMUTABLE: with constant arguments the planner folds them, so
 *	 partition bounds and plan-time pruning work.  uuid_v7_from_time(ts) is a
 *	 random key of the time ts (for backfilling keys of old rows).
 *
 * - Block-prefixed (uuid_time_nextval): uuid_time_block_id(ts, ...) is the
 *	 block id the generator uses at time ts, uuid_time_block_range(block,
 *	 ...) the time range of the latest occurrence of a block (the ids wrap),
 *	 uuid_block_min/max(block, ...) the smallest and largest UUID of a block.
 *
 * The layouts themselves are in generators.c.
 *
 * IDENTIFICATION
 *	  src/generators_time_keys.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/int.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "utils/rangetypes.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/uuid.h"

#include "compat.h"
#include "generators.h"
#include "util.h"

PG_FUNCTION_INFO_V1(uuid_v7_min);
PG_FUNCTION_INFO_V1(uuid_v7_max);
PG_FUNCTION_INFO_V1(uuid_v7_from_time);
PG_FUNCTION_INFO_V1(uuid_time_block_id);
PG_FUNCTION_INFO_V1(uuid_time_block_range);
PG_FUNCTION_INFO_V1(uuid_block_min);
PG_FUNCTION_INFO_V1(uuid_block_max);

/*
 * v7_bound
 *		The smallest (fill 0x00) or largest (fill 0xff) version 7 UUID of the
 *		millisecond of ts: every bit other than the time, version and variant
 *		is fill.
 */
static pg_uuid_t *
v7_bound(TimestampTz ts, uint8 fill)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	uint64		ms = (uint64) (ou_v7_unix_us(ts) / 1000);
	int			i;

	memset(uuid->data, fill, UUID_LEN);
	for (i = 0; i < 6; i++)
		uuid->data[i] = (uint8) (ms >> (8 * (5 - i)));
	uuid->data[6] = (uuid->data[6] & 0x0f) | 0x70;	/* version 7 */
	uuid->data[8] = (uuid->data[8] & 0x3f) | 0x80;	/* RFC 9562 variant */
	return uuid;
}

/*
 * uuid_v7_min(ts timestamptz)
 *		The smallest version 7 UUID of the millisecond of ts.
 */
Datum
uuid_v7_min(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(v7_bound(PG_GETARG_TIMESTAMPTZ(0), 0x00));
}

/*
 * uuid_v7_max(ts timestamptz)
 *		The largest version 7 UUID of the millisecond of ts.
 */
Datum
uuid_v7_max(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(v7_bound(PG_GETARG_TIMESTAMPTZ(0), 0xff));
}

/*
 * uuid_v7_from_time(ts timestamptz)
 *		A version 7 UUID of the time ts: its millisecond, its microseconds as
 *		the 12-bit sub-millisecond fraction (the layout of uuid_v7_nextval, so
 *		keys of different microseconds sort by time), and 62 random bits.
 *
 * A generator: not STRICT (a NULL time is an error, never a NULL key), and
 * it leaves the backend's uuid_v7_nextval() clock alone.
 */
Datum
uuid_v7_from_time(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));

	ou_check_not_null(fcinfo, 0, "ts");
	ou_v7_fill_time(uuid, PG_GETARG_TIMESTAMPTZ(0), 0);
	PG_RETURN_UUID_P(uuid);
}

/*
 * unix_seconds
 *		The whole Unix seconds of ts (rounded down), which must be finite and
 *		not before 1970: the clock uuid_time_nextval() reads counts from there.
 */
static int64
unix_seconds(TimestampTz ts)
{
	int64		s;

	if (TIMESTAMP_NOT_FINITE(ts) || ts < -OU_UNIX_EPOCH_OFFSET_US)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for block-prefixed UUIDs"),
				 errdetail("The block ids of uuid_time_nextval count the seconds since 1970-01-01 00:00:00 UTC.")));
	/* floor division first: ts + offset could overflow near the end of time */
	s = ts / USECS_PER_SEC;
	if (ts % USECS_PER_SEC < 0)
		s--;
	return s + OU_UNIX_EPOCH_OFFSET_US / USECS_PER_SEC;
}

/*
 * check_block
 *		Raise an error unless block is a block id of the layout.
 */
static void
check_block(const OuBlockLayout *layout, int32 block, int32 block_count)
{
	if (block < 0 || (uint64) block >= layout->nblocks)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("block id %d is out of range for block_count %d", block, block_count),
				 errdetail("The block ids of a %d-byte prefix run from 0 to %llu.",
						   layout->nbytes, (unsigned long long) (layout->nblocks - 1))));
}

/*
 * uuid_time_block_id(ts timestamptz, interval_length int, interval_count int)
 *		The block id uuid_time_nextval(interval_length, interval_count) uses
 *		at the time ts.
 */
Datum
uuid_time_block_id(PG_FUNCTION_ARGS)
{
	TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
	int32		interval_length = ou_getarg_int32(fcinfo, 1, "interval_length", 1, PG_INT32_MAX);
	int32		interval_count = ou_getarg_int32(fcinfo, 2, "interval_count", 1, PG_INT32_MAX);
	OuBlockLayout layout = ou_block_layout(interval_length, interval_count);

	PG_RETURN_INT32(ou_block_id_int(ou_block_of(&layout, unix_seconds(ts))));
}

/*
 * unix_seconds_to_timestamptz
 *		The timestamptz of Unix second s (>= 0), or +infinity when that second
 *		lies beyond the end of the timestamp range.
 *
 * It counts from PostgreSQL's epoch, not Unix's: the microseconds since 1970
 * of the last years of the range (from 294247-01-10 on) do not fit in 64 bits.
 */
static TimestampTz
unix_seconds_to_timestamptz(int64 s)
{
	int64		pg_s = s - OU_UNIX_EPOCH_OFFSET_US / USECS_PER_SEC;
	int64		us;

	if (pg_mul_s64_overflow(pg_s, USECS_PER_SEC, &us) || !IS_VALID_TIMESTAMP(us))
		return DT_NOEND;
	return us;
}

/*
 * uuid_time_block_range(block int, interval_length int, interval_count int,
 *						 reference timestamptz)
 *		The time range [start, end) in which uuid_time_nextval(interval_length,
 *		interval_count) last used block id block, at or before reference: the
 *		occurrence that starts at or before reference, latest first.
 *
 * The range is one effective block long (interval_length unless
 * interval_count is not a power of 256, see generators.c); its end is
 * +infinity when the block ends after the last timestamp.  NULL when block
 * has not begun since 1970 by reference.  The start is at or before
 * reference, so it always lies in the timestamp range.
 */
Datum
uuid_time_block_range(PG_FUNCTION_ARGS)
{
	int32		block = PG_GETARG_INT32(0);
	int32		interval_length = ou_getarg_int32(fcinfo, 1, "interval_length", 1, PG_INT32_MAX);
	int32		interval_count = ou_getarg_int32(fcinfo, 2, "interval_count", 1, PG_INT32_MAX);
	TimestampTz reference = PG_GETARG_TIMESTAMPTZ(3);
	OuBlockLayout layout = ou_block_layout(interval_length, interval_count);
	TypeCacheEntry *typcache;
	RangeBound	lower;
	RangeBound	upper;
	uint64		current;
	uint64		start;

	check_block(&layout, block, interval_count);
	if (TIMESTAMP_NOT_FINITE(reference))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("reference must be a finite timestamp")));
	if (reference < -OU_UNIX_EPOCH_OFFSET_US)
		PG_RETURN_NULL();

	/* the unwrapped index of the block at reference, and of block's latest start */
	current = (uint64) unix_seconds(reference) / (uint64) layout.block_len;
	if (current < (uint64) block)
		PG_RETURN_NULL();
	start = current - (current - (uint64) block) % layout.nblocks;

	typcache = lookup_type_cache(TSTZRANGEOID, TYPECACHE_RANGE_INFO);
	lower.val = TimestampTzGetDatum(unix_seconds_to_timestamptz((int64) start * layout.block_len));
	lower.infinite = false;
	lower.inclusive = true;
	lower.lower = true;
	upper.val = TimestampTzGetDatum(unix_seconds_to_timestamptz((int64) (start + 1) * layout.block_len));
	upper.infinite = false;
	upper.inclusive = false;
	upper.lower = false;
	PG_RETURN_RANGE_P(ou_make_range(typcache, &lower, &upper));
}

/*
 * block_bound
 *		The smallest (fill 0x00) or largest (fill 0xff) block-prefixed UUID
 *		of block id block: every bit other than the prefix, version and
 *		variant is fill.
 */
static pg_uuid_t *
block_bound(FunctionCallInfo fcinfo, uint8 fill)
{
	int32		block = PG_GETARG_INT32(0);
	int32		block_count = ou_getarg_int32(fcinfo, 1, "block_count", 1, PG_INT32_MAX);
	/* the block size plays no part in the prefix width */
	OuBlockLayout layout = ou_block_layout(1, block_count);
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));

	check_block(&layout, block, block_count);
	memset(uuid->data, fill, UUID_LEN);
	ou_set_block_prefix(uuid, &layout, (uint64) block);
	uuid->data[6] = (uuid->data[6] & 0x0f) | 0x40;	/* version 4 */
	uuid->data[8] = (uuid->data[8] & 0x3f) | 0x80;	/* RFC 9562 variant */
	return uuid;
}

/*
 * uuid_block_min(block int, block_count int)
 *		The smallest block-prefixed UUID of a block.
 */
Datum
uuid_block_min(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(block_bound(fcinfo, 0x00));
}

/*
 * uuid_block_max(block int, block_count int)
 *		The largest block-prefixed UUID of a block.
 */
Datum
uuid_block_max(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(block_bound(fcinfo, 0xff));
}
