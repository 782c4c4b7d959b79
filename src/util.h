/*-------------------------------------------------------------------------
 *
 * util.h
 *	  Small helpers of every concern: cryptographic random bytes for keys
 *	  and names (random.c), and the rounding of figures a person reads
 *	  (util.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_UTIL_H
#define ORDERED_UUID_UTIL_H

/* random.c */
extern void ou_random_bytes(void *dst, size_t len);

/* util.c */
extern double ou_round(double x, int decimals);
extern double ou_round_sig(double x, int digits);

#endif							/* ORDERED_UUID_UTIL_H */
