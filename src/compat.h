/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Every difference between PostgreSQL 14, 15, 16, 17, 18 and 19 that
 *	  ordered_uuid needs to paper over, as macros and static inline wrappers.
 *
 * Nothing else in src/ tests PG_VERSION_NUM: add new shims here.  It includes
 * every header its shims need, so it can be included anywhere after
 * postgres.h.
 *
 * IDENTIFICATION
 *	  src/compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_COMPAT_H
#define ORDERED_UUID_COMPAT_H

#if PG_VERSION_NUM < 140000
#error "ordered_uuid requires PostgreSQL 14 or later"
#endif

#include "access/xlog.h"
#include "access/xlogreader.h"
#include "access/xlogutils.h"
#if PG_VERSION_NUM >= 150000
#include "access/xlogrecovery.h"
#include "catalog/pg_authid_d.h"
#endif
#include "access/rmgr.h"
#include "catalog/pg_database_d.h"
#include "catalog/storage_xlog.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
/* EnableQueryId() and compute_query_id: moved to nodes/ in 16 */
#if PG_VERSION_NUM >= 160000
#include "nodes/queryjumble.h"
#else
#include "utils/queryjumble.h"
#endif
#include "replication/slot.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#if PG_VERSION_NUM >= 170000
#include "storage/procnumber.h"
#endif
#include "storage/shmem.h"
#include "utils/acl.h"
#include "utils/backend_status.h"
#include "utils/guc.h"
#include "utils/wait_event.h"
/* get_database_name(): in utils/lsyscache.h from 19, commands/dbcommands.h before */
#if PG_VERSION_NUM >= 190000
#include "utils/lsyscache.h"
#else
#include "commands/dbcommands.h"
#endif
#if PG_VERSION_NUM >= 160000
#include "utils/relfilenumbermap.h"
#else
#include "utils/relfilenodemap.h"
#endif

/*----
 * Collector (waitsample.c, collector_shmem.c, collector.c, collector_views.c).
 *----
 */

/*
 * Entry idx (1-based) of core's local snapshot of the backend status array
 * (pgstat_fetch_stat_local_beentry before 16).
 */
#if PG_VERSION_NUM >= 160000
#define ou_local_beentry(idx)	pgstat_get_local_beentry_by_index(idx)
#else
#define ou_local_beentry(idx)	pgstat_fetch_stat_local_beentry(idx)
#endif

/* Reserve the GUC prefix (EmitWarningsOnPlaceholders before 15). */
#if PG_VERSION_NUM >= 150000
#define ou_mark_guc_prefix_reserved(prefix) MarkGUCPrefixReserved(prefix)
#else
#define ou_mark_guc_prefix_reserved(prefix) EmitWarningsOnPlaceholders(prefix)
#endif

/*
 * 15+ requests shared memory from shmem_request_hook; 14 from _PG_init.
 * Code tests OU_HAVE_SHMEM_REQUEST_HOOK.
 */
#if PG_VERSION_NUM >= 150000
#define OU_HAVE_SHMEM_REQUEST_HOOK 1
#endif

/* Has roleid privilege mode (ACL_CONNECT, ACL_CREATE) on database dbid? */
#if PG_VERSION_NUM >= 160000
#define ou_database_acl_ok(dbid, roleid, mode) \
	(object_aclcheck(DatabaseRelationId, (dbid), (roleid), (mode)) == ACLCHECK_OK)
#else
#define ou_database_acl_ok(dbid, roleid, mode) \
	(pg_database_aclcheck((dbid), (roleid), (mode)) == ACLCHECK_OK)
#endif
#define ou_database_connect_ok(dbid, roleid) ou_database_acl_ok((dbid), (roleid), ACL_CONNECT)

/* Has roleid EXECUTE on function funcid (core's check in the executor)? */
#if PG_VERSION_NUM >= 160000
#define ou_proc_execute_ok(funcid, roleid) \
	(object_aclcheck(ProcedureRelationId, (funcid), (roleid), ACL_EXECUTE) == ACLCHECK_OK)
#else
#define ou_proc_execute_ok(funcid, roleid) \
	(pg_proc_aclcheck((funcid), (roleid), ACL_EXECUTE) == ACLCHECK_OK)
#endif

/* PG 18 records the library's name and version in its magic block. */
#if PG_VERSION_NUM >= 180000
#define OU_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "ordered_uuid", .version = OU_VERSION)
#else
#define OU_MODULE_MAGIC PG_MODULE_MAGIC
#endif

/*----
 * WAL reading (walscan.c, diag_explain_writes.c, collector_wal.c).
 *----
 */

/* Our own copy of a block's relation identity, the same on every version. */
typedef struct OuRelFileLocator
{
	Oid			spcOid;			/* tablespace */
	Oid			dbOid;			/* database (InvalidOid for shared relations) */
	Oid			relNumber;		/* relfilenode / relfilenumber */
} OuRelFileLocator;

/*
 * Core's relation file identity (RelFileLocator from 16, RelFileNode
 * before), the relfilenodes a parsed commit or abort record lists as
 * dropped, and a copy of one into ours.
 */
#if PG_VERSION_NUM >= 160000
typedef RelFileLocator OuCoreRelFile;
#define OU_PARSED_XACT_RELS(parsed)	((parsed).xlocators)
#else
typedef RelFileNode OuCoreRelFile;
#define OU_PARSED_XACT_RELS(parsed)	((parsed).xnodes)
#endif

static inline void
ou_relfile_copy(OuRelFileLocator *out, const OuCoreRelFile *in)
{
#if PG_VERSION_NUM >= 160000
	out->spcOid = in->spcOid;
	out->dbOid = in->dbOid;
	out->relNumber = in->relNumber;
#else
	out->spcOid = in->spcNode;
	out->dbOid = in->dbNode;
	out->relNumber = in->relNode;
#endif
}

/*
 * The position up to which WAL is known to be on disk (the flush pointer on a
 * primary, the replay pointer on a standby) and the timeline it belongs to.
 */
static inline XLogRecPtr
ou_wal_available_upto(TimeLineID *tli)
{
#if PG_VERSION_NUM >= 150000
	if (!RecoveryInProgress())
		return GetFlushRecPtr(tli);
	return GetXLogReplayRecPtr(tli);
#else
	XLogRecPtr	ptr;

	/* RecoveryInProgress() also initialises ThisTimeLineID in a backend. */
	if (!RecoveryInProgress())
	{
		ptr = GetFlushRecPtr();
		*tli = ThisTimeLineID;
	}
	else
		ptr = GetXLogReplayRecPtr(tli);
	return ptr;
#endif
}

static inline void
ou_xlog_determine_timeline(XLogReaderState *state, XLogRecPtr page, uint32 len,
						   TimeLineID curtli)
{
#if PG_VERSION_NUM >= 150000
	XLogReadDetermineTimeline(state, page, len, curtli);
#else

	/*
	 * 14 reads the current timeline from ThisTimeLineID, which a backend on
	 * a standby never sets (0): set it to the replay timeline first, as
	 * core's read_local_xlog_page does on 14.
	 */
	ThisTimeLineID = curtli;
	XLogReadDetermineTimeline(state, page, len);
#endif
}

/* Highest block reference id in the current record (-1 if none). */
#if PG_VERSION_NUM >= 150000
#define OU_REC_MAX_BLOCK_ID(r)			XLogRecMaxBlockId(r)
#define OU_REC_BLOCK_FLAGS(r, id)		(XLogRecGetBlock((r), (id))->flags)
#else
#define OU_REC_MAX_BLOCK_ID(r)			((r)->max_block_id)
#define OU_REC_BLOCK_FLAGS(r, id)		((r)->blocks[(id)].flags)
#endif

/* Length of block reference "id"'s image as stored (bimg_len: compressed). */
#if PG_VERSION_NUM >= 150000
#define OU_REC_BLOCK_IMAGE_LEN(r, id)	(XLogRecGetBlock((r), (id))->bimg_len)
#else
#define OU_REC_BLOCK_IMAGE_LEN(r, id)	((r)->blocks[(id)].bimg_len)
#endif

/*
 * Identity of block reference "id" of the current record; false if the
 * record has no such block reference.  Read from the decoded block in
 * place (what XLogRecGetBlockTag does, without the call): the collector
 * asks it for every block of every record.
 */
#if PG_VERSION_NUM >= 160000
#define OU_REC_BLOCK_FILE(b)			(&(b)->rlocator)
#else
#define OU_REC_BLOCK_FILE(b)			(&(b)->rnode)
#endif

static inline bool
ou_rec_block_tag(XLogReaderState *r, uint8 id, OuRelFileLocator *loc,
				 ForkNumber *fork, BlockNumber *blk)
{
	DecodedBkpBlock *b;

	if ((int) id > OU_REC_MAX_BLOCK_ID(r))
		return false;
#if PG_VERSION_NUM >= 150000
	b = XLogRecGetBlock(r, id);
#else
	b = &r->blocks[id];
#endif
	if (!b->in_use)
		return false;
	ou_relfile_copy(loc, OU_REC_BLOCK_FILE(b));
	*fork = b->forknum;
	*blk = b->blkno;
	return true;
}

/*
 * Is the current record an XLOG_SMGR_CREATE of a main fork?  Then *loc is
 * the relation file it creates.  The main data's length is checked first.
 */
static inline bool
ou_rec_smgr_create(XLogReaderState *r, OuRelFileLocator *loc)
{
	xl_smgr_create xlrec;

	if (XLogRecGetRmid(r) != RM_SMGR_ID ||
		(XLogRecGetInfo(r) & ~XLR_INFO_MASK) != XLOG_SMGR_CREATE ||
		XLogRecGetDataLen(r) < sizeof(xlrec))
		return false;
	memcpy(&xlrec, XLogRecGetData(r), sizeof(xlrec));
	if (xlrec.forkNum != MAIN_FORKNUM)
		return false;
#if PG_VERSION_NUM >= 160000
	loc->spcOid = xlrec.rlocator.spcOid;
	loc->dbOid = xlrec.rlocator.dbOid;
	loc->relNumber = xlrec.rlocator.relNumber;
#else
	loc->spcOid = xlrec.rnode.spcNode;
	loc->dbOid = xlrec.rnode.dbNode;
	loc->relNumber = xlrec.rnode.relNode;
#endif
	return true;
}

/*
 * Position the reader on the first record that starts at or after target
 * and return that position (the next XLogReadRecord() reads it), or
 * InvalidXLogRecPtr when the page_read callback failed or the WAL is
 * invalid (state->errormsg_buf).  Core's XLogFindNextRecord from 15 on,
 * a copy of its logic before (14 has it for frontend programs only).
 */
#if PG_VERSION_NUM >= 190000
extern XLogRecPtr ou_xlog_find_next_record(XLogReaderState *state, XLogRecPtr target);	/* compat.c */
#elif PG_VERSION_NUM >= 150000
#define ou_xlog_find_next_record(state, target) XLogFindNextRecord((state), (target))
#else
extern XLogRecPtr ou_xlog_find_next_record(XLogReaderState *state, XLogRecPtr target);	/* compat.c */
#endif

/*
 * Did this transaction give rel its current relation file (created the
 * relation, or rewrote it: TRUNCATE, CLUSTER, REINDEX, VACUUM FULL)?
 */
#if PG_VERSION_NUM >= 160000
#define OU_REL_FILE_NEW_IN_XACT(rel) \
	((rel)->rd_createSubid != InvalidSubTransactionId || \
	 (rel)->rd_newRelfilelocatorSubid != InvalidSubTransactionId || \
	 (rel)->rd_firstRelfilelocatorSubid != InvalidSubTransactionId)
#else
#define OU_REL_FILE_NEW_IN_XACT(rel) \
	((rel)->rd_createSubid != InvalidSubTransactionId || \
	 (rel)->rd_newRelfilenodeSubid != InvalidSubTransactionId || \
	 (rel)->rd_firstRelfilenodeSubid != InvalidSubTransactionId)
#endif

/* The relation OID of a relfilenode of the current database, or InvalidOid. */
static inline Oid
ou_relid_by_relfilenode(Oid spc, Oid relnumber)
{
#if PG_VERSION_NUM >= 160000
	return RelidByRelfilenumber(spc, relnumber);
#else
	return RelidByRelfilenode(spc, relnumber);
#endif
}

/*
 * Generators (generators.c, generators_time_keys.c).
 *
 * OU_INTERVAL_NOT_FINITE(i): is interval i +/-infinity (PostgreSQL 17+; no
 * interval is infinite before).  ou_make_range(): a non-empty range value
 * (make_range has taken a soft-error context since 16).
 */
#if PG_VERSION_NUM >= 170000
#define OU_INTERVAL_NOT_FINITE(i) INTERVAL_NOT_FINITE(i)
#else
#define OU_INTERVAL_NOT_FINITE(i) ((void) (i), false)
#endif
#if PG_VERSION_NUM >= 160000
#define ou_make_range(typcache, lower, upper) make_range((typcache), (lower), (upper), false, NULL)
#else
#define ou_make_range(typcache, lower, upper) make_range((typcache), (lower), (upper), false)
#endif

/* Is roleid the owner of relation relid? */
#if PG_VERSION_NUM >= 160000
#define ou_rel_ownercheck(relid, roleid) object_ownercheck(RelationRelationId, (relid), (roleid))
#else
#define ou_rel_ownercheck(relid, roleid) pg_class_ownercheck((relid), (roleid))
#endif

/* InitMaterializedSRF (PG15+) and its PG14 equivalent, for SRFs returning a tuplestore. */
#if PG_VERSION_NUM >= 150000
#define ou_init_materialized_srf(fcinfo) InitMaterializedSRF((fcinfo), 0)
#else
#define ou_init_materialized_srf(fcinfo) ou_init_materialized_srf_pg14(fcinfo)
extern void ou_init_materialized_srf_pg14(FunctionCallInfo fcinfo);	/* compat.c */
#endif

/*
 * An ephemeral physical replication slot of this backend, dropped when
 * released (diag_writes_slot.c holds the WAL of explain_writes' statement
 * with one).
 */
#if PG_VERSION_NUM >= 190000
#define ou_create_ephemeral_slot(name) \
	ReplicationSlotCreate((name), false, RS_EPHEMERAL, false, false, false, false)
#elif PG_VERSION_NUM >= 170000
#define ou_create_ephemeral_slot(name) \
	ReplicationSlotCreate((name), false, RS_EPHEMERAL, false, false, false)
#else
#define ou_create_ephemeral_slot(name) \
	ReplicationSlotCreate((name), false, RS_EPHEMERAL, false)
#endif

/*
 * Is slot in use by this process?  Read under the slot's mutex.  19 names
 * the process by its PGPROC number (active_proc), earlier versions by its pid.
 */
#if PG_VERSION_NUM >= 190000
#define OU_SLOT_ACTIVE_IS_MINE(slot) ((slot)->active_proc == MyProcNumber)
#else
#define OU_SLOT_ACTIVE_IS_MINE(slot) ((slot)->active_pid == MyProcPid)
#endif

/*
 * Parse analysis and rewriting of one raw statement without parameters
 * (citus.c looks for Citus tables in the statement explain_writes runs).
 */
#include "tcop/tcopprot.h"
#if PG_VERSION_NUM >= 150000
#define ou_analyze_and_rewrite(raw, sql) \
	pg_analyze_and_rewrite_fixedparams((raw), (sql), NULL, 0, NULL)
#else
#define ou_analyze_and_rewrite(raw, sql) pg_analyze_and_rewrite((raw), (sql), NULL, 0, NULL)
#endif

/*
 * Benchmarks (bench_*.c).
 *
 * OU_CHECKPOINT_FAST: RequestCheckpoint's flag for a checkpoint without
 * delays (CHECKPOINT_IMMEDIATE before 19).  OU_MAY_CHECKPOINT(): may the
 * current user run CHECKPOINT (pg_checkpoint is PG 15+; before that,
 * superuser only).
 */
#if PG_VERSION_NUM >= 190000
#define OU_CHECKPOINT_FAST CHECKPOINT_FAST
#else
#define OU_CHECKPOINT_FAST CHECKPOINT_IMMEDIATE
#endif
#if PG_VERSION_NUM >= 150000
#define OU_MAY_CHECKPOINT() \
	(superuser() || has_privs_of_role(GetUserId(), ROLE_PG_CHECKPOINT))
#else
#define OU_MAY_CHECKPOINT() superuser()
#endif

/*
 * OU_DISABLE_TRANSACTION_TIMEOUT(): turn transaction_timeout (PostgreSQL
 * 17+; nothing to do before) off for this session, whatever the database's or
 * the role's settings say (bench_cleanup.c).
 */
#if PG_VERSION_NUM >= 170000
#define OU_DISABLE_TRANSACTION_TIMEOUT() \
	SetConfigOption("transaction_timeout", "0", PGC_USERSET, PGC_S_SESSION)
#else
#define OU_DISABLE_TRANSACTION_TIMEOUT() ((void) 0)
#endif

/*
 * Collector (collector_shmem.c): a fixed-size shared hash table of nelems
 * entries (19 dropped the separate initial size).
 */
#if PG_VERSION_NUM >= 190000
#define ou_shmem_init_hash(name, nelems, info, flags) \
	ShmemInitHash((name), (nelems), (info), (flags))
#else
#define ou_shmem_init_hash(name, nelems, info, flags) \
	ShmemInitHash((name), (nelems), (nelems), (info), (flags))
#endif

/*----
 * Diagnostics (diag_scatter.c).
 *----
 */

/*
 * ou_index_beginscan(heap, index, snapshot, nkeys): a plain index scan
 * without ORDER BY keys, as systable_beginscan starts one (an
 * instrumentation argument from 18, scan options from 19).
 */
#if PG_VERSION_NUM >= 190000
#define ou_index_beginscan(heap, index, snapshot, nkeys) \
	index_beginscan((heap), (index), (snapshot), NULL, (nkeys), 0, SO_NONE)
#elif PG_VERSION_NUM >= 180000
#define ou_index_beginscan(heap, index, snapshot, nkeys) \
	index_beginscan((heap), (index), (snapshot), NULL, (nkeys), 0)
#else
#define ou_index_beginscan(heap, index, snapshot, nkeys) \
	index_beginscan((heap), (index), (snapshot), (nkeys), 0)
#endif

/*
 * Collector (collector_restore.c, collector_views.c): whether the id of wait
 * event w is handed out at run time, so that after a restart it may name
 * another event: an extension's LWLock tranche, and from 17 an injection
 * point (an extension's custom wait events, also 17+, are all of class
 * Extension, which the caller folds as a whole).
 */
static inline bool
ou_wait_event_id_is_dynamic(uint32 w)
{
	if ((w & 0xFF000000) == PG_WAIT_LWLOCK)
		return (w & 0xFFFF) >= LWTRANCHE_FIRST_USER_DEFINED;
#if PG_VERSION_NUM >= 170000
	if ((w & 0xFF000000) == PG_WAIT_INJECTIONPOINT)
		return true;
#endif
	return false;
}

/*
 * Generators (generators_striped.c).
 *
 * OU_MY_PROC_NUMBER(): the number of this process's PGPROC, distinct among
 * the processes running at the same time (MyProcNumber from 17, before that
 * MyProc->pgprocno; 0 before the process has a PGPROC).
 */
#if PG_VERSION_NUM >= 170000
#define OU_MY_PROC_NUMBER() ((int) MyProcNumber)
#else
#define OU_MY_PROC_NUMBER() (MyProc != NULL ? MyProc->pgprocno : 0)
#endif

/*
 * OU_NAMED_SHMEM(name, size, init): a named piece of shared memory that a
 * backend can create after startup, without preload (GetNamedDSMSegment,
 * 17+), initialised by init(ptr) the first time; NULL before 17, where only
 * a preloaded library has shared memory (generators_edge.c).
 */
#if PG_VERSION_NUM >= 170000
#define OU_NAMED_SHMEM(name, size, init) ou_named_dsm((name), (size), (init))
extern void *ou_named_dsm(const char *name, size_t size, void (*init) (void *ptr));
#else
#define OU_NAMED_SHMEM(name, size, init) ((void) (init), (void *) NULL)
#endif

#endif							/* ORDERED_UUID_COMPAT_H */
