/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Every difference between PostgreSQL 14, 15, 16, 17 and 18 that
 *	  ordered_uuid needs to paper over, as macros and static inline wrappers.
 *
 * Nothing else in src/ tests PG_VERSION_NUM: add new shims here.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_COMPAT_H
#define ORDERED_UUID_COMPAT_H

#if PG_VERSION_NUM < 140000
#error "ordered_uuid requires PostgreSQL 14 or later"
#endif

/*----
 * Collector (waitsample.c, shmem.c, collector.c, collector_views.c).
 * Defined only where OU_COMPAT_COLLECTOR is defined before including this file.
 *----
 */
#ifdef OU_COMPAT_COLLECTOR
#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/backend_status.h"
#include "utils/guc.h"

/*
 * Slots of the shared PgBackendStatus array ("Backend Status Array" in the
 * shared memory index), as backend_status.c sizes it.
 */
#if PG_VERSION_NUM >= 170000
#define OU_NUM_BACKEND_STAT_SLOTS	(MaxBackends + NUM_AUXILIARY_PROCS)
#else
#define OU_NUM_BACKEND_STAT_SLOTS	(MaxBackends + NUM_AUXPROCTYPES)
#endif

/*
 * The slot of the backend status array that the process owning proc uses,
 * or -1 when it cannot be told from PGPROC (auxiliary processes before 17:
 * their slot is MaxBackends + their AuxProcType, found by pid instead).
 */
static inline int
ou_proc_status_slot(PGPROC *proc)
{
#if PG_VERSION_NUM >= 170000
	return (int) (proc - ProcGlobal->allProcs);
#else
	BackendId	id = proc->backendId;

	return id != InvalidBackendId ? id - 1 : -1;
#endif
}

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

/* May roleid connect to database dbid (which must exist)? */
#if PG_VERSION_NUM >= 160000
#define ou_database_connect_ok(dbid, roleid) \
	(object_aclcheck(DatabaseRelationId, (dbid), (roleid), ACL_CONNECT) == ACLCHECK_OK)
#else
#define ou_database_connect_ok(dbid, roleid) \
	(pg_database_aclcheck((dbid), (roleid), ACL_CONNECT) == ACLCHECK_OK)
#endif
#endif							/* OU_COMPAT_COLLECTOR */

/* PG 18 records the library's name and version in its magic block. */
#if PG_VERSION_NUM >= 180000
#define OU_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "ordered_uuid", .version = OU_VERSION)
#else
#define OU_MODULE_MAGIC PG_MODULE_MAGIC
#endif

#endif							/* ORDERED_UUID_COMPAT_H */
