/*----
 * diag_util.c
 *	  Helpers shared by the diagnostics functions: the WAL-reading privilege
 *	  check, PG14's stand-in for InitMaterializedSRF, and the rounding of
 *	  the figures a person reads.
 *----
 */
#include "postgres.h"

#include <math.h>

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

/*
 * X rounded to DECIMALS places after the point, the way contrib's pgstatindex
 * rounds avg_leaf_density (printf's "%.*f", read back): for percentages,
 * seconds and rates a person reads.  The result is still a float8, so no
 * result type changes; NaN and infinities pass unchanged.
 */
double
ou_round(double x, int decimals)
{
	char		buf[400];		/* DBL_MAX has 309 digits before the point */

	Assert(decimals >= 0 && decimals <= 15);
	if (isnan(x) || isinf(x))
		return x;
	snprintf(buf, sizeof(buf), "%.*f", decimals, x);
	return strtod(buf, NULL);
}

/*
 * X rounded to DIGITS significant digits: for per-row ratios that span
 * decades (0.41 full-page images per row for random keys, 0.0014 for a
 * sequence), where a fixed number of decimals would lose the small ones.
 */
double
ou_round_sig(double x, int digits)
{
	char		buf[64];

	Assert(digits >= 1 && digits <= 17);
	if (isnan(x) || isinf(x))
		return x;
	snprintf(buf, sizeof(buf), "%.*g", digits, x);
	return strtod(buf, NULL);
}
