/*-------------------------------------------------------------------------
 *
 * util.h
 *	  Small helpers of every concern: cryptographic random bytes for keys
 *	  and names (random.c), the rounding of figures a person reads and the
 *	  check of arguments that must not be NULL (util.c).
 *
 * IDENTIFICATION
 *	  src/util.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_UTIL_H
#define ORDERED_UUID_UTIL_H

#include "fmgr.h"

/* random.c */
extern void ou_random_bytes(void *dst, size_t len);

/* util.c */
extern void ou_check_not_null(FunctionCallInfo fcinfo, int argno, const char *name);
extern double ou_round(double x, int decimals);
extern double ou_round_sig(double x, int digits);

#endif							/* ORDERED_UUID_UTIL_H */
