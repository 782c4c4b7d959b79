/*-------------------------------------------------------------------------
 *
 * compat.c
 *	  The out-of-line halves of compat.h's shims.
 *
 * IDENTIFICATION
 *	  src/compat.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#if PG_VERSION_NUM >= 170000
#include "storage/dsm_registry.h"
#endif

#include "compat.h"

#if PG_VERSION_NUM < 150000
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
#endif

#if PG_VERSION_NUM >= 170000
/*
 * The named DSM segment name of size bytes, created and initialised by init
 * the first time any backend asks (OU_NAMED_SHMEM).
 */
void *
ou_named_dsm(const char *name, size_t size, void (*init) (void *ptr))
{
	bool		found;

	return GetNamedDSMSegment(name, size, init, &found);
}
#endif
