/*-------------------------------------------------------------------------
 *
 * ordered_uuid.h
 *	  Declarations shared between the source files of ordered_uuid.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_H
#define ORDERED_UUID_H

#include "utils/uuid.h"

/* random.c */
extern void ou_random_bytes(void *dst, size_t len);

/* generators.c */
extern int	ou_prefix_bytes(int64 block_count);

#endif							/* ORDERED_UUID_H */
