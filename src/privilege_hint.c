/*-------------------------------------------------------------------------
 *
 * privilege_hint.c
 *	  The hint for a caller without EXECUTE on one of the functions whose
 *	  EXECUTE is revoked from PUBLIC (the WAL readers, index_shape, the
 *	  collector's reset, the benchmarks): which roles hold it, and the GRANT
 *	  that would let the caller in.
 *
 * Core checks EXECUTE when the executor starts (init_sexpr, ExecInitFunc)
 * and raises "permission denied for function X" with no hint; none of our
 * code runs before that.  The planner, though, asks a function's support
 * function what a call costs (add_function_cost) while it plans the call,
 * before the executor starts.  execute_privilege_support answers that
 * request after making core's own check, object_aclcheck(ACL_EXECUTE) of the
 * same function for the same user (GetUserId(), as the executor uses): when
 * it fails, it raises core's error, with the same SQLSTATE and message, and
 * a hint.  GRANT alone still decides: the check is core's, on the function's
 * ACL, and nothing here tests a role of its own.  A caller with EXECUTE is
 * planned as before (the support function leaves the cost to procost).
 *
 * IDENTIFICATION
 *	  src/privilege_hint.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_proc.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/supportnodes.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "compat.h"

PG_FUNCTION_INFO_V1(execute_privilege_support);

/*
 * The roles other than the owner and PUBLIC that hold EXECUTE on the
 * function of TUP (its pg_proc row), as quoted names in the order of its
 * ACL, into NAMES ("a", "a or b", "a, b or c"); the first of them into
 * FIRST.  Returns how many.
 */
static int
ou_execute_grantees(HeapTuple tup, StringInfo names, StringInfo first)
{
	Oid			owner = ((Form_pg_proc) GETSTRUCT(tup))->proowner;
	Datum		acldatum;
	bool		isnull;
	List	   *found = NIL;
	ListCell   *lc;

	acldatum = SysCacheGetAttr(PROCOID, tup, Anum_pg_proc_proacl, &isnull);
	if (!isnull)
	{
		Acl		   *acl = DatumGetAclP(acldatum);
		AclItem    *items = ACL_DAT(acl);
		int			i;

		for (i = 0; i < ACL_NUM(acl); i++)
		{
			char	   *name;

			if (!(ACLITEM_GET_PRIVS(items[i]) & ACL_EXECUTE) ||
				items[i].ai_grantee == owner || items[i].ai_grantee == ACL_ID_PUBLIC)
				continue;
			name = GetUserNameFromId(items[i].ai_grantee, true);
			if (name != NULL)
				found = lappend(found, (char *) quote_identifier(name));
		}
	}
	foreach(lc, found)
	{
		int			n = foreach_current_index(lc);

		if (n > 0)
			appendStringInfoString(names, n == list_length(found) - 1 ? " or " : ", ");
		appendStringInfoString(names, (char *) lfirst(lc));
	}
	if (found != NIL)
		appendStringInfoString(first, (char *) linitial(found));
	return list_length(found);
}

/*
 * The function of TUP as GRANT names it, whatever the search_path: its
 * schema-qualified name and its argument types
 * ("ordered_uuid.index_shape(regclass)").
 */
static char *
ou_function_signature(HeapTuple tup)
{
	Form_pg_proc proc = (Form_pg_proc) GETSTRUCT(tup);
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	appendStringInfo(&buf, "%s(",
					 quote_qualified_identifier(get_namespace_name(proc->pronamespace),
												NameStr(proc->proname)));
	for (i = 0; i < proc->pronargs; i++)
		appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "",
						 format_type_be(proc->proargtypes.values[i]));
	appendStringInfoChar(&buf, ')');
	return buf.data;
}

/*
 * The hint for a caller without EXECUTE on FUNCID: the roles that hold it,
 * and the GRANTs, with the caller's name, that would let it in.
 */
static char *
ou_execute_hint(Oid funcid)
{
	HeapTuple	tup;
	StringInfoData names;
	StringInfoData first;
	const char *caller = quote_identifier(GetUserNameFromId(GetUserId(), false));
	char	   *signature;
	char	   *hint;
	int			n;

	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for function %u", funcid);
	initStringInfo(&names);
	initStringInfo(&first);
	n = ou_execute_grantees(tup, &names, &first);
	signature = ou_function_signature(tup);
	ReleaseSysCache(tup);

	if (n > 0)
		hint = psprintf("Members of %s may call it. A superuser can grant %s (GRANT %s TO %s) "
						"or EXECUTE on this function alone (GRANT EXECUTE ON FUNCTION %s TO %s).",
						names.data, n == 1 ? "that role" : "one of these roles",
						first.data, caller, signature, caller);
	else
		hint = psprintf("Only superusers may call it until EXECUTE on it is granted "
						"(GRANT EXECUTE ON FUNCTION %s TO %s).",
						signature, caller);
	return hint;
}

/*
 * Planner support of the functions whose EXECUTE is revoked from PUBLIC:
 * when the planner costs a call (SupportRequestCost) and the current user
 * lacks EXECUTE on the function, raise the error the executor would raise,
 * with a hint.  Every request is left unanswered (NULL).
 */
Datum
execute_privilege_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (IsA(rawreq, SupportRequestCost))
	{
		Oid			funcid = ((SupportRequestCost *) rawreq)->funcid;

		if (!ou_proc_execute_ok(funcid, GetUserId()))
		{
			char	   *name = get_func_name(funcid);
			char	   *hint = ou_execute_hint(funcid);

			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied for function %s", name),
					 errhint("%s", hint)));
		}
	}
	PG_RETURN_POINTER(NULL);
}
