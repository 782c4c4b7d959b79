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
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "commands/sequence.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "port/pg_bswap.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "ordered_uuid.h"

PG_FUNCTION_INFO_V1(uuid_sequence_nextval);
PG_FUNCTION_INFO_V1(uuid_time_nextval);
PG_FUNCTION_INFO_V1(uuid_v7_nextval);
PG_FUNCTION_INFO_V1(uuid_block_id);
PG_FUNCTION_INFO_V1(uuid_v7_time);

/*
 * Each step of the v7 clock is at least this many nanoseconds, a little more
 * than 1 ms / 4096, so that every step changes the 12-bit fraction.
 */
#define OU_V7_MIN_STEP_NS	245
#define NS_PER_MS			INT64CONST(1000000)

/*
 * Report an SQL NULL passed for an argument that must have a value.  The
 * generators are not STRICT (a NULL default would silently produce a NULL
 * key), so they check their arguments themselves.
 */
static int32
ou_getarg_positive_int32(FunctionCallInfo fcinfo, int argno, const char *name)
{
	int32		value;

	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", name)));
	value = PG_GETARG_INT32(argno);
	if (value < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be at least 1", name),
				 errdetail("The value given was %d.", value)));
	return value;
}

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
 * block_prefixed_uuid
 *		Build a block-prefixed version 4 UUID for the value v.
 */
static pg_uuid_t *
block_prefixed_uuid(int64 v, int32 block_size, int32 block_count)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	int			nbytes = ou_prefix_bytes(block_count);
	uint64		nblocks = UINT64CONST(1) << (8 * nbytes);
	int64		block_len;
	uint64		block;
	int			i;

	/* block_size * block_count < 2^62, no overflow */
	block_len = Max(INT64CONST(1), (int64) ((uint64) block_size * (uint64) block_count / nblocks));
	/* C division truncates; for negative v the low bits wrap, as upstream */
	block = (uint64) (v / block_len) & (nblocks - 1);

	for (i = 0; i < nbytes; i++)
		uuid->data[i] = (uint8) (block >> (8 * (nbytes - 1 - i)));
	ou_random_bytes(uuid->data + nbytes, UUID_LEN - nbytes);

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
	int32		block_size = ou_getarg_positive_int32(fcinfo, 1, "block_size");
	int32		block_count = ou_getarg_positive_int32(fcinfo, 2, "block_count");
	int64		v;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("seq must not be null")));

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
	int32		interval_length = ou_getarg_positive_int32(fcinfo, 0, "interval_length");
	int32		interval_count = ou_getarg_positive_int32(fcinfo, 1, "interval_count");
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		elog(ERROR, "clock_gettime failed: %m");

	PG_RETURN_UUID_P(block_prefixed_uuid((int64) ts.tv_sec, interval_length, interval_count));
}

/*
 * uuid_v7_nextval()
 *		RFC 9562 version 7 UUID, strictly increasing within this backend.
 *
 * The timestamp in nanoseconds is forced to advance by at least
 * OU_V7_MIN_STEP_NS since the previous value of this process, so neither many
 * calls in one millisecond nor a clock that steps back can break the order.
 */
Datum
uuid_v7_nextval(PG_FUNCTION_ARGS)
{
	static int64 last_ns = 0;
	static int	last_owner = 0;
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	struct timespec ts;
	int64		ns;
	uint64		ms;
	uint32		fraction;
	int			i;

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

	ms = (uint64) (ns / NS_PER_MS);
	fraction = (uint32) ((ns % NS_PER_MS) * 4096 / NS_PER_MS);

	for (i = 0; i < 6; i++)
		uuid->data[i] = (uint8) (ms >> (8 * (5 - i)));
	uuid->data[6] = 0x70 | (uint8) (fraction >> 8);	/* version 7 */
	uuid->data[7] = (uint8) fraction;
	ou_random_bytes(uuid->data + 8, 8);
	uuid->data[8] = (uuid->data[8] & 0x3f) | 0x80;	/* RFC 9562 variant */

	PG_RETURN_UUID_P(uuid);
}

/*
 * uuid_block_id(id uuid, block_count int)
 *		The block id stored in the prefix of a block-prefixed UUID.
 *
 * A 4-byte prefix (block_count > 2^24) can hold ids above the int range; those
 * are reported as an error instead of being wrapped to a negative number.
 */
Datum
uuid_block_id(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);
	int32		block_count = ou_getarg_positive_int32(fcinfo, 1, "block_count");
	int			nbytes = ou_prefix_bytes(block_count);
	uint64		block = 0;
	int			i;

	for (i = 0; i < nbytes; i++)
		block = (block << 8) | uuid->data[i];
	if (block > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("block id %llu is out of range for type integer",
						(unsigned long long) block)));
	PG_RETURN_INT32((int32) block);
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
	ts = ((int64) ms - (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * 1000) * 1000;
	PG_RETURN_TIMESTAMPTZ(ts);
}
