/*-------------------------------------------------------------------------
 *
 * generators.c
 *	  Ordered UUID generators and the helpers that take them apart.
 *
 * Two families:
 *
 * - block-prefixed UUIDs (uuid_sequence_nextval, uuid_time_nextval): a block
 *	 id in the leading bytes, random bytes after it, version 4.  The layout is
 *	 byte for byte that of the sequential-uuids extension 1.0.3 (1.0.2 differs
 *	 for every block_count but 256, 65536 and 16777216), so a table can switch
 *	 generators without breaking its index order:
 *
 *	   prefix_bits = bits needed to count block_count values (>= 1), rounded
 *					 up to whole bytes;	 nblocks = 2^prefix_bits
 *	   effective_block_size = max(1, block_size * block_count / nblocks)
 *	   block = (v / effective_block_size) mod nblocks, big-endian
 *
 *	 where v is nextval(seq) - 1 or the Unix time in seconds.  All of it is
 *	 computed in 64 bits, so every int4 block_size/block_count is valid.
 *
 * - RFC 9562 version 7 (uuid_v7_nextval): 48-bit Unix milliseconds, a 12-bit
 *	 sub-millisecond fraction (RFC 9562 section 6.2, method 3) and 62 random
 *	 bits.  Values are strictly increasing within a backend even if the clock
 *	 stands still or goes back, as with PostgreSQL 18's uuidv7().
 *	 uuid_v7_nextval(shift) stamps the same clock reading moved by an
 *	 interval, as PostgreSQL 18's uuidv7(shift) does.
 *
 * The keys of a given time (the smallest v7 UUID of a millisecond, the block
 * id of a second, ...) are in generators_time_keys.c; both files share the layout
 * helpers below.
 *
 * IDENTIFICATION
 *	  src/generators.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "commands/sequence.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "compat.h"
#include "generators.h"
#include "util.h"

PG_FUNCTION_INFO_V1(uuid_sequence_nextval);
PG_FUNCTION_INFO_V1(uuid_time_nextval);
PG_FUNCTION_INFO_V1(uuid_v7_nextval);
PG_FUNCTION_INFO_V1(uuid_v7_nextval_shift);
PG_FUNCTION_INFO_V1(uuid_block_id);
PG_FUNCTION_INFO_V1(uuid_v7_time);
PG_FUNCTION_INFO_V1(uuid_version);

/*
 * Each step of the v7 clock is at least this many nanoseconds, a little more
 * than 1 ms / 4096, so that every step changes the 12-bit fraction.
 */
#define OU_V7_MIN_STEP_NS	245
#define NS_PER_MS			INT64CONST(1000000)
#define NS_PER_US			INT64CONST(1000)

/*
 * ou_prefix_bytes
 *		Number of leading bytes a block-prefixed UUID uses for the block id:
 *		the bits needed to count block_count values (at least 1), rounded up
 *		to whole bytes.  block_count is at most PG_INT32_MAX, so 1..4.
 */
int
ou_prefix_bytes(int64 block_count)
{
	int			bits = 1;

	Assert(block_count >= 1 && block_count <= PG_INT32_MAX);
	while ((UINT64CONST(1) << bits) < (uint64) block_count)
		bits++;
	return (bits + 7) / 8;
}

/*
 * ou_block_layout
 *		The layout of block-prefixed UUIDs made with block_size and
 *		block_count (both at least 1).
 */
OuBlockLayout
ou_block_layout(int32 block_size, int32 block_count)
{
	OuBlockLayout layout;

	layout.nbytes = ou_prefix_bytes(block_count);
	layout.nblocks = UINT64CONST(1) << (8 * layout.nbytes);
	/* block_size * block_count < 2^62, no overflow */
	layout.block_len = Max(INT64CONST(1),
						   (int64) ((uint64) block_size * (uint64) block_count / layout.nblocks));
	return layout;
}

/*
 * ou_block_of
 *		The block id of value v under a layout.
 *
 * C division truncates; for negative v the low bits wrap, as upstream.
 */
uint64
ou_block_of(const OuBlockLayout *layout, int64 v)
{
	return (uint64) (v / layout->block_len) & (layout->nblocks - 1);
}

/*
 * ou_block_id_int
 *		A block id as an SQL int.  A 4-byte prefix (block_count > 2^24) can
 *		hold ids above the int range; those are reported as an error instead
 *		of being wrapped to a negative number.
 */
int32
ou_block_id_int(uint64 block)
{
	if (block > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("block id %llu is out of range for type integer",
						(unsigned long long) block)));
	return (int32) block;
}

/*
 * ou_set_block_prefix
 *		Store block big-endian in the prefix bytes of uuid.
 */
void
ou_set_block_prefix(pg_uuid_t *uuid, const OuBlockLayout *layout, uint64 block)
{
	int			i;

	for (i = 0; i < layout->nbytes; i++)
		uuid->data[i] = (uint8) (block >> (8 * (layout->nbytes - 1 - i)));
}

/*
 * block_prefixed_uuid
 *		Build a block-prefixed version 4 UUID for the value v.
 */
static pg_uuid_t *
block_prefixed_uuid(int64 v, int32 block_size, int32 block_count)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	OuBlockLayout layout = ou_block_layout(block_size, block_count);

	ou_set_block_prefix(uuid, &layout, ou_block_of(&layout, v));
	ou_random_bytes(uuid->data + layout.nbytes, UUID_LEN - layout.nbytes);

	uuid->data[6] = (uuid->data[6] & 0x0f) | 0x40;	/* version 4 */
	uuid->data[8] = (uuid->data[8] & 0x3f) | 0x80;	/* RFC 9562 variant */
	return uuid;
}

/*
 * uuid_sequence_nextval(seq regclass, block_size int, block_count int)
 *		Block-prefixed UUID whose block id comes from a sequence.
 *
 * nextval_internal() does the permission, type and exhaustion checks, so the
 * errors are exactly those nextval() raises.
 */
Datum
uuid_sequence_nextval(PG_FUNCTION_ARGS)
{
	int32		block_size = ou_getarg_int32(fcinfo, 1, "block_size", 1, PG_INT32_MAX);
	int32		block_count = ou_getarg_int32(fcinfo, 2, "block_count", 1, PG_INT32_MAX);
	int64		v;

	ou_check_not_null(fcinfo, 0, "seq");

	/* sequences start at 1; wrap instead of overflowing at the minimum */
	v = (int64) ((uint64) nextval_internal(PG_GETARG_OID(0), true) - 1);

	PG_RETURN_UUID_P(block_prefixed_uuid(v, block_size, block_count));
}

/*
 * uuid_time_nextval(interval_length int, interval_count int)
 *		Block-prefixed UUID whose block id comes from the clock, in seconds.
 */
Datum
uuid_time_nextval(PG_FUNCTION_ARGS)
{
	int32		interval_length = ou_getarg_int32(fcinfo, 0, "interval_length", 1, PG_INT32_MAX);
	int32		interval_count = ou_getarg_int32(fcinfo, 1, "interval_count", 1, PG_INT32_MAX);
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		elog(ERROR, "clock_gettime failed: %m");

	PG_RETURN_UUID_P(block_prefixed_uuid((int64) ts.tv_sec, interval_length, interval_count));
}

/*
 * ou_v7_clock_ns
 *		The next reading of this backend's version 7 clock, in nanoseconds
 *		since the Unix epoch.
 *
 * The reading is forced to advance by at least OU_V7_MIN_STEP_NS since the
 * previous one of this process, so neither many calls in one millisecond nor
 * a clock that steps back can break the order.  Both forms of
 * uuid_v7_nextval() read this one clock, as both forms of core's uuidv7() do.
 */
static int64
ou_v7_clock_ns(void)
{
	static int64 last_ns = 0;
	static int	last_owner = 0;
	struct timespec ts;
	int64		ns;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		elog(ERROR, "clock_gettime failed: %m");
	ns = (int64) ts.tv_sec * INT64CONST(1000000000) + ts.tv_nsec;

	if (last_owner != MyProcPid)
	{
		last_owner = MyProcPid;
		last_ns = 0;
	}
	if (ns < last_ns + OU_V7_MIN_STEP_NS)
		ns = last_ns + OU_V7_MIN_STEP_NS;
	last_ns = ns;
	return ns;
}

/*
 * ou_v7_fill
 *		Fill uuid with the version 7 layout: ms (Unix milliseconds, below
 *		2^48) in the first 48 bits, the sub-millisecond part subms_ns
 *		(0..999999 ns) as a 12-bit fraction, 62 random bits, and the version
 *		and variant bits.
 *
 * The time comes as two parts so that the whole 48-bit range (to the year
 * 10889) is valid, where nanoseconds in an int64 end in 2262.
 */
void
ou_v7_fill(pg_uuid_t *uuid, uint64 ms, int64 subms_ns)
{
	uint32		fraction;
	int			i;

	Assert(ms <= OU_V7_MAX_MS && subms_ns >= 0 && subms_ns < NS_PER_MS);
	fraction = (uint32) (subms_ns * 4096 / NS_PER_MS);

	for (i = 0; i < 6; i++)
		uuid->data[i] = (uint8) (ms >> (8 * (5 - i)));
	uuid->data[6] = 0x70 | (uint8) (fraction >> 8);	/* version 7 */
	uuid->data[7] = (uint8) fraction;
	ou_random_bytes(uuid->data + 8, 8);
	uuid->data[8] = (uuid->data[8] & 0x3f) | 0x80;	/* RFC 9562 variant */
}

/*
 * ou_v7_unix_us
 *		The Unix time of ts in microseconds, when ts lies in a millisecond that
 *		a version 7 UUID can hold: from 1970-01-01 00:00:00 UTC to the end of
 *		millisecond 2^48 - 1 (10889-08-02 05:31:50.655 UTC).  Any other ts,
 *		the infinities included, is an error with SQLSTATE 22008.
 */
int64
ou_v7_unix_us(TimestampTz ts)
{
	/* compared in PostgreSQL-epoch units, where no ts can overflow */
	if (ts < -OU_UNIX_EPOCH_OFFSET_US ||
		ts > (int64) (OU_V7_MAX_MS + 1) * 1000 - 1 - OU_UNIX_EPOCH_OFFSET_US)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for UUID version 7"),
				 errdetail("UUID version 7 holds the milliseconds from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.")));
	return ts + OU_UNIX_EPOCH_OFFSET_US;
}

/*
 * ou_v7_fill_time
 *		ou_v7_fill() for the time ts plus extra_ns (0..999) nanoseconds; an
 *		error if ts is outside the range of version 7 (ou_v7_unix_us).
 */
void
ou_v7_fill_time(pg_uuid_t *uuid, TimestampTz ts, int64 extra_ns)
{
	int64		us = ou_v7_unix_us(ts);

	ou_v7_fill(uuid, (uint64) (us / 1000), (us % 1000) * NS_PER_US + extra_ns);
}

/*
 * uuid_v7_nextval()
 *		RFC 9562 version 7 UUID, strictly increasing within this backend.
 */
Datum
uuid_v7_nextval(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	int64		ns = ou_v7_clock_ns();

	ou_v7_fill(uuid, (uint64) (ns / NS_PER_MS), ns % NS_PER_MS);
	PG_RETURN_UUID_P(uuid);
}

/*
 * uuid_v7_nextval(shift interval)
 *		A version 7 UUID for the current time moved by shift.
 *
 * As PostgreSQL 18's uuidv7(shift): the next reading of the backend's clock
 * (which advances it, so values made with one shift increase within a
 * backend like those of uuid_v7_nextval()) is moved by shift with
 * timestamptz + interval, in microseconds and in the session's time zone,
 * keeping its nanoseconds.  An infinite shift (PostgreSQL 17+) and a result
 * outside the 48-bit millisecond range are errors with SQLSTATE 22008, as in
 * core.  Not STRICT: a NULL shift is an error, never a NULL key.
 */
Datum
uuid_v7_nextval_shift(PG_FUNCTION_ARGS)
{
	Interval   *shift;
	pg_uuid_t  *uuid;
	int64		ns;
	TimestampTz ts;

	ou_check_not_null(fcinfo, 0, "shift");
	shift = PG_GETARG_INTERVAL_P(0);
	if (OU_INTERVAL_NOT_FINITE(shift))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("interval out of range for UUID version 7"),
				 errdetail("An infinite shift has no time to store in a UUID.")));

	ns = ou_v7_clock_ns();
	ts = (TimestampTz) (ns / NS_PER_US) - OU_UNIX_EPOCH_OFFSET_US;
	/* raises 22008 itself when the sum leaves the timestamp range */
	ts = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_pl_interval,
												 TimestampTzGetDatum(ts),
												 IntervalPGetDatum(shift)));

	uuid = palloc(sizeof(pg_uuid_t));
	ou_v7_fill_time(uuid, ts, ns % NS_PER_US);
	PG_RETURN_UUID_P(uuid);
}

/*
 * uuid_block_id(id uuid, block_count int)
 *		The block id stored in the prefix of a block-prefixed UUID.
 */
Datum
uuid_block_id(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);
	int32		block_count = ou_getarg_int32(fcinfo, 1, "block_count", 1, PG_INT32_MAX);
	int			nbytes = ou_prefix_bytes(block_count);
	uint64		block = 0;
	int			i;

	for (i = 0; i < nbytes; i++)
		block = (block << 8) | uuid->data[i];
	PG_RETURN_INT32(ou_block_id_int(block));
}

/*
 * uuid_v7_time(id uuid)
 *		The millisecond timestamp of an RFC 9562 version 7 UUID, or NULL when
 *		the value is not a version 7 UUID of the RFC variant.
 */
Datum
uuid_v7_time(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);
	uint64		ms = 0;
	TimestampTz ts;
	int			i;

	if ((uuid->data[6] >> 4) != 7 || (uuid->data[8] & 0xc0) != 0x80)
		PG_RETURN_NULL();

	for (i = 0; i < 6; i++)
		ms = (ms << 8) | uuid->data[i];

	/* Unix epoch milliseconds -> PostgreSQL epoch microseconds (fits: 48 bits) */
	ts = (int64) ms * 1000 - OU_UNIX_EPOCH_OFFSET_US;
	PG_RETURN_TIMESTAMPTZ(ts);
}

/*
 * uuid_version(id uuid)
 *		The version field (the high nibble of byte 6) of a UUID of the RFC
 *		9562 variant (10 in the top bits of byte 8), or NULL for any other
 *		variant: core's uuid_extract_version (PostgreSQL 17+), on 14-18.
 */
Datum
uuid_version(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);

	if ((uuid->data[8] & 0xc0) != 0x80)
		PG_RETURN_NULL();
	PG_RETURN_INT16((int16) (uuid->data[6] >> 4));
}
