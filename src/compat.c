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

#include "access/xlog_internal.h"
#include "miscadmin.h"
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

#if PG_VERSION_NUM >= 190000
/* What ou_named_dsm passes to ou_named_dsm_init through 19's argument. */
typedef struct OuNamedDsmInit
{
	void		(*init) (void *ptr);
} OuNamedDsmInit;

/* 19's initialisation callback: call OU_NAMED_SHMEM's init(ptr). */
static void
ou_named_dsm_init(void *ptr, void *arg)
{
	((OuNamedDsmInit *) arg)->init(ptr);
}
#endif

#if PG_VERSION_NUM >= 170000
/*
 * The named DSM segment name of size bytes, created and initialised by init
 * the first time any backend asks (OU_NAMED_SHMEM).  From 19 on the callback
 * takes an argument: init travels in it.
 */
void *
ou_named_dsm(const char *name, size_t size, void (*init) (void *ptr))
{
	bool		found;
#if PG_VERSION_NUM >= 190000
	OuNamedDsmInit arg = {init};

	return GetNamedDSMSegment(name, size, ou_named_dsm_init, &found, &arg);
#else
	return GetNamedDSMSegment(name, size, init, &found);
#endif
}
#endif

#if PG_VERSION_NUM >= 190000
/*
 * XLogFindNextRecord of 19, which also returns an error message.  Like
 * XLogReadRecord's, that message is the reader's errormsg_buf (or NULL when
 * the page_read callback failed), where callers already look on 15-18.
 */
XLogRecPtr
ou_xlog_find_next_record(XLogReaderState *state, XLogRecPtr target)
{
	char	   *errormsg = NULL;

	return XLogFindNextRecord(state, target, &errormsg);
}
#endif

#if PG_VERSION_NUM < 150000
/*
 * XLogFindNextRecord's logic for the backend of PostgreSQL 14: find the
 * first record boundary at or after the start of target's page (skipping
 * the tail of a record that began on an earlier page), then read records
 * until one starts at or after target.
 */
XLogRecPtr
ou_xlog_find_next_record(XLogReaderState *state, XLogRecPtr target)
{
	XLogRecPtr	pageptr = target - (target % XLOG_BLCKSZ);
	XLogRecPtr	recptr;
	char	   *buf = palloc(XLOG_BLCKSZ);
	char	   *errormsg;

	for (;;)
	{
		XLogPageHeader hdr = (XLogPageHeader) buf;
		int			count;
		uint32		hdrsize;

		CHECK_FOR_INTERRUPTS();
		count = state->routine.page_read(state, pageptr, SizeOfXLogShortPHD, target, buf);
		if (count < 0)
			goto fail;
		hdrsize = XLogPageHeaderSize(hdr);
		if (count < (int) hdrsize ||
			!XLogReaderValidatePageHeader(state, pageptr, buf))
			goto fail;
		if (!(hdr->xlp_info & XLP_FIRST_IS_CONTRECORD))
		{
			recptr = pageptr + hdrsize;
			break;
		}
		/* The page starts with the tail of a record: skip it. */
		if (MAXALIGN(hdr->xlp_rem_len) < (XLOG_BLCKSZ - hdrsize))
		{
			recptr = pageptr + hdrsize + MAXALIGN(hdr->xlp_rem_len);
			break;
		}
		pageptr += XLOG_BLCKSZ;
	}
	pfree(buf);

	XLogBeginRead(state, recptr);
	while (XLogReadRecord(state, &errormsg) != NULL)
	{
		CHECK_FOR_INTERRUPTS();
		if (state->ReadRecPtr >= target)
		{
			recptr = state->ReadRecPtr;
			XLogBeginRead(state, recptr);
			return recptr;
		}
	}
	return InvalidXLogRecPtr;

fail:
	pfree(buf);
	return InvalidXLogRecPtr;
}
#endif
