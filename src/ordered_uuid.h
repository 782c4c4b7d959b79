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

/* diag_util.c */
#include "fmgr.h"
extern void ou_check_wal_read_privilege(const char *fname);
extern void ou_init_materialized_srf_pg14(FunctionCallInfo fcinfo);

/* index_splits.c */
#include "access/xlogdefs.h"
extern void ou_check_lsn_range(FunctionCallInfo fcinfo, XLogRecPtr *start, XLogRecPtr *end);

#endif							/* ORDERED_UUID_H */
