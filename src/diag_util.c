/*----
 * diag_util.c
 *	  Helpers shared by the diagnostics functions: the WAL-reading privilege
 *	  check and PG14's stand-in for InitMaterializedSRF.
 *----
 */
#include "postgres.h"

#include "catalog/pg_authid.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"

#include "compat.h"
#include "ordered_uuid.h"

/*
 * Reading WAL exposes every session's data: superuser or members of
 * pg_read_server_files only (pg_walinspect's rule).  The SQL script also
 * revokes EXECUTE from PUBLIC; this is the second line.
 */
void
ou_check_wal_read_privilege(const char *fname)
{
	if (!superuser() && !has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function %s", fname),
				 errdetail("Reading WAL exposes the data of every session."),
				 errhint("Only superusers and roles with privileges of the \"pg_read_server_files\" role may call it.")));
}

/*
 * Set up fcinfo->resultinfo for a materialized SRF: the tuplestore and the
 * descriptor end up in rsinfo->setResult / rsinfo->setDesc, as PG15+'s
 * InitMaterializedSRF(fcinfo, 0) does.
 */
void
ou_init_materialized_srf_pg14(FunctionCallInfo fcinfo)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	TupleDesc	tupdesc;
	MemoryContext oldcxt;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("set-valued function called in context that cannot accept a set")));
	if (!(rsinfo->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("materialize mode required, but it is not allowed in this context")));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	oldcxt = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setDesc = CreateTupleDescCopy(tupdesc);
	rsinfo->setResult = tuplestore_begin_heap(true, false, work_mem);
	MemoryContextSwitchTo(oldcxt);
}
