/*-------------------------------------------------------------------------
 *
 * util.h
 *	  Small helpers of every concern: cryptographic random bytes for keys
 *	  and names (random.c), the rounding of figures a person reads and the
 *	  checks of SQL arguments (util.c).
 *
 * IDENTIFICATION
 *	  src/util.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_UTIL_H
#define ORDERED_UUID_UTIL_H

#include "access/tupdesc.h"
#include "fmgr.h"

/* random.c */
extern void ou_random_bytes(void *dst, size_t len);

/* util.c */
extern void ou_check_not_null(FunctionCallInfo fcinfo, int argno, const char *name);
extern void ou_check_result_columns(TupleDesc desc, int first_natts, int natts, const char *fname);
extern int64 ou_check_range(const char *name, int64 v, int64 min, int64 max);
extern int32 ou_getarg_int32(FunctionCallInfo fcinfo, int argno, const char *name,
							 int32 min, int32 max);
extern double ou_round(double x, int decimals);
extern double ou_round_sig(double x, int digits);
extern Datum ou_interval_us(int64 us);

#endif							/* ORDERED_UUID_UTIL_H */
