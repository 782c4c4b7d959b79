/*-------------------------------------------------------------------------
 *
 * diag.h
 *	  What the diagnostics share (diag_util.c); each of diag_shape.c,
 *	  diag_splits.c and diag_explain_writes.c holds one SQL function, and
 *	  those that read the WAL use walscan.h.
 *
 * IDENTIFICATION
 *	  src/diag.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_DIAG_H
#define ORDERED_UUID_DIAG_H

/* diag_util.c */
extern void ou_check_wal_read_privilege(const char *fname);

#endif							/* ORDERED_UUID_DIAG_H */
