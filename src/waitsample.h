/*-------------------------------------------------------------------------
 *
 * waitsample.h
 *	  One sample of a process's wait state (waitsample.c), taken by the
 *	  collector and by a benchmark's leader.
 *
 * IDENTIFICATION
 *	  src/waitsample.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_WAITSAMPLE_H
#define ORDERED_UUID_WAITSAMPLE_H

#include "datatype/timestamp.h"
#include "miscadmin.h"
#include "storage/lock.h"
#include "utils/wait_event.h"

struct PGPROC;

typedef struct OuWaitSample
{
	int			pid;			/* process id */
	int			procno;			/* index of its PGPROC in ProcGlobal->allProcs */
	Oid			dbid;			/* database (InvalidOid for none) */
	Oid			roleid;			/* role (InvalidOid for none) */
	BackendType backend_type;	/* B_INVALID when unknown */
	uint32		wait_event_info;	/* 0 when not waiting */
	bool		active;			/* on CPU: not waiting, and not an idle client */
	Oid			extend_dbid;	/* relation extension lock waited on, when */
	Oid			extend_relid;	/* extend_relid is valid */
	TimestampTz wait_start;		/* start of that lock wait (0 = not yet set) */
	int64		queryid;		/* core's top-level query id while a statement
								 * runs (state active), else 0 */
} OuWaitSample;

/* the wait event of a relation extension lock wait: Lock / extend */
#define OU_WAIT_EXTEND_LOCK		(PG_WAIT_LOCK | LOCKTAG_RELATION_EXTEND)

extern bool ou_sample_proc(struct PGPROC *proc, OuWaitSample *out);
extern int	ou_sample_all(OuWaitSample *out, int max, bool want_queryid);
extern int	ou_sample_max_procs(void);

#endif							/* ORDERED_UUID_WAITSAMPLE_H */
