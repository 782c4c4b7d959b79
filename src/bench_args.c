/*-------------------------------------------------------------------------
 *
 * bench_args.c
 *	  What a benchmark checks before its run starts: the calling role's
 *	  right and room to open its workers' sessions (NOLOGIN, CONNECT, the
 *	  role's and the database's connection limits, CREATE on the database),
 *	  the benchmark functions' arguments and their result type.
 *
 * IDENTIFICATION
 *	  src/bench_args.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_database.h"
#include "commands/dbcommands.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/procarray.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/syscache.h"

#include "bench_protocol.h"
#include "compat.h"
#include "util.h"

/*
 * ou_bench_check_role
 *		Everything PostgreSQL checks when a session of the current role
 *		connects, for nworkers more sessions: background workers are not
 *		counted against connection limits, so a benchmark must count them
 *		itself.  With need_create, also the CREATE privilege on the
 *		database (each run creates its own schema).
 */
void
ou_bench_check_role(int nworkers, bool need_create)
{
	Oid			roleid = GetUserId();
	HeapTuple	tup;
	Form_pg_authid rform;
	Form_pg_database dform;
	char	   *rolename;
	char	   *dbname;
	bool		is_super;
	int			rolconnlimit;
	int			datconnlimit;
	int			have;

	tup = SearchSysCache1(AUTHOID, ObjectIdGetDatum(roleid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for role %u", roleid);
	rform = (Form_pg_authid) GETSTRUCT(tup);
	rolename = pstrdup(NameStr(rform->rolname));
	is_super = rform->rolsuper;
	rolconnlimit = rform->rolconnlimit;
	if (!rform->rolcanlogin)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
				 errmsg("role \"%s\" is not permitted to log in", rolename),
				 errdetail("Benchmark workers connect to the database as the current role.")));
	ReleaseSysCache(tup);

	tup = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for database %u", MyDatabaseId);
	dform = (Form_pg_database) GETSTRUCT(tup);
	dbname = pstrdup(NameStr(dform->datname));
	datconnlimit = dform->datconnlimit;
	if (!dform->datallowconn)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("database \"%s\" is not currently accepting connections", dbname),
				 errdetail("Benchmark workers connect to the current database.")));
	ReleaseSysCache(tup);

	if (!is_super && !ou_database_acl_ok(MyDatabaseId, roleid, ACL_CONNECT))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for database \"%s\"", dbname),
				 errdetail("Benchmark workers connect to the database as role \"%s\", which lacks CONNECT privilege.",
						   rolename)));
	if (need_create && !ou_database_acl_ok(MyDatabaseId, roleid, ACL_CREATE))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to create a scratch schema in database \"%s\"", dbname),
				 errdetail("Each benchmark run creates a schema of its own, as the current role."),
				 errhint("Grant CREATE on the database to role \"%s\", or run the benchmark as the database owner.",
						 rolename)));

	if (rolconnlimit >= 0 && !is_super)
	{
		have = CountUserBackends(roleid);
		if (have + nworkers > rolconnlimit)
			ereport(ERROR,
					(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
					 errmsg("too many connections for role \"%s\"", rolename),
					 errdetail("The role's connection limit is %d; it has %d sessions, and the benchmark needs %d more, one per client.",
							   rolconnlimit, have, nworkers),
					 errhint("Use fewer clients, or raise the role's CONNECTION LIMIT.")));
	}
	if (datconnlimit >= 0 && !is_super)
	{
		have = CountDBConnections(MyDatabaseId);
		if (have + nworkers > datconnlimit)
			ereport(ERROR,
					(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
					 errmsg("too many connections for database \"%s\"", dbname),
					 errdetail("The database's connection limit is %d; it has %d sessions, and the benchmark needs %d more, one per client.",
							   datconnlimit, have, nworkers),
					 errhint("Use fewer clients, or raise the database's CONNECTION LIMIT.")));
	}
}

/*
 * ou_bench_arg_int
 *		An integer argument (int4 or int8) that must not be NULL and must lie
 *		in [min, max]: 22004 / 22023 otherwise, naming the argument.
 */
int64
ou_bench_arg_int(FunctionCallInfo fcinfo, int argno, const char *name, int64 min, int64 max)
{
	int64		v;

	ou_check_not_null(fcinfo, argno, name);
	if (get_fn_expr_argtype(fcinfo->flinfo, argno) == INT8OID)
		v = PG_GETARG_INT64(argno);
	else
		v = PG_GETARG_INT32(argno);
	return ou_check_range(name, v, min, max);
}

/*
 * ou_bench_arg_bool
 *		A boolean argument that must not be NULL.
 */
bool
ou_bench_arg_bool(FunctionCallInfo fcinfo, int argno, const char *name)
{
	ou_check_not_null(fcinfo, argno, name);
	return PG_GETARG_BOOL(argno);
}

/*
 * ou_bench_materialize
 *		Set up a benchmark's materialized result set (rsinfo->setResult and
 *		setDesc), checking that its row type has the natts columns the C
 *		code fills (an extension script out of step with the library would
 *		not).
 */
void
ou_bench_materialize(FunctionCallInfo fcinfo, const char *fname, int natts)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	ou_init_materialized_srf(fcinfo);
	if (rsinfo->setDesc->natts != natts)
		elog(ERROR, "%s: result type has %d columns, expected %d",
			 fname, rsinfo->setDesc->natts, natts);
}
