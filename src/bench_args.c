/*-------------------------------------------------------------------------
 *
 * bench_args.c
 *	  What a benchmark checks before its run starts: the calling role's
 *	  right and room to open its workers' sessions (NOLOGIN, CONNECT, the
 *	  role's and the database's connection limits, CREATE on the database),
 *	  the server-wide cap on benchmark workers (ordered_uuid.bench_max_workers),
 *	  the benchmark functions' arguments and their result type.
 *
 * The limits count the benchmark workers already running (of every run,
 * bench_proc.c), then the new run's.  The leader checks them before any
 * worker starts, under the cap lock that it holds until its workers are
 * connected (bench_leader.c), so that runs starting at the same time count
 * one after the other; each worker checks them again once it is connected,
 * as a backend that connects does.  ordered_uuid.bench_lock_timeout bounds
 * every wait of a run for a lock that another session holds
 * (bench_lockwait.c).
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
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/syscache.h"

#include "bench_protocol.h"
#include "compat.h"
#include "util.h"

/* ordered_uuid.bench_max_workers; -1: half of max_worker_processes */
static int	ou_bench_max_workers = -1;
/* ordered_uuid.bench_lock_timeout, milliseconds */
static int	ou_bench_lock_timeout_ms = 10000;
/* ordered_uuid.bench_progress */
static bool ou_bench_progress_notices = true;

/*
 * ou_bench_define_gucs
 *		The benchmarks' settings, defined whenever the library is loaded
 *		(preloaded or not).
 */
void
ou_bench_define_gucs(void)
{
	DefineCustomIntVariable("ordered_uuid.bench_max_workers",
							"Most background workers that benchmark runs may hold at once, over the whole server.",
							"-1 means half of max_worker_processes, leaving the other half to parallel query, logical replication and other extensions.",
							&ou_bench_max_workers,
							-1, -1, INT_MAX,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("ordered_uuid.bench_lock_timeout",
							"Longest a benchmark waits for a lock that another session holds.",
							"Bounds the lock waits of a run's own statements (creating, measuring and dropping its scratch objects, its clean-up) and of its start for other runs' starts; the measured inserts and reads keep lock_timeout.",
							&ou_bench_lock_timeout_ms,
							10000, 1, 3600000,
							PGC_USERSET,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomBoolVariable("ordered_uuid.bench_progress",
							 "Whether a benchmark reports its progress in a NOTICE every 5 s of a phase.",
							 "When off, they are DEBUG1 messages; pg_stat_activity's query of the calling session shows the progress either way.",
							 &ou_bench_progress_notices,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
}

/*
 * ou_bench_progress_on
 *		ordered_uuid.bench_progress.
 */
bool
ou_bench_progress_on(void)
{
	return ou_bench_progress_notices;
}

/*
 * ou_bench_lock_timeout
 *		ordered_uuid.bench_lock_timeout, in milliseconds.
 */
int
ou_bench_lock_timeout(void)
{
	return ou_bench_lock_timeout_ms;
}

/*
 * ou_bench_worker_cap
 *		The cap in force: the setting, or half of max_worker_processes.
 */
static int
ou_bench_worker_cap(void)
{
	if (ou_bench_max_workers >= 0)
		return ou_bench_max_workers;
	return Max(max_worker_processes / 2, 1);
}

/*
 * ou_bench_limit_error
 *		Refuse when have (sessions and benchmark workers already there) +
 *		need exceeds limit.  what is "role" or "database", or NULL for the
 *		server-wide cap.
 */
static void
ou_bench_limit_error(const char *what, const char *name, int limit, int sessions,
					 int workers, int need)
{
	if (limit < 0 || sessions + workers + need <= limit)
		return;
	if (what == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("too many benchmark workers: ordered_uuid.bench_max_workers is %d", limit),
				 errdetail("Benchmark runs hold %d background workers, and this one needs %d more, one per client.",
						   workers, need),
				 errhint("Use fewer clients, wait for the other runs to end, or have a superuser raise ordered_uuid.bench_max_workers.")));
	ereport(ERROR,
			(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
			 errmsg("too many connections for %s \"%s\"", what, name),
			 errdetail("The %s's connection limit is %d, of which sessions use %d and benchmark workers %d; the benchmark needs %d more, one per client.",
					   what, limit, sessions, workers, need),
			 errhint("Use fewer clients, wait for the other runs to end, or raise the %s's CONNECTION LIMIT.",
					 what)));
}

/*
 * ou_bench_check_limits
 *		A connected worker counts itself and every other benchmark worker
 *		against the limits its leader found (see the top of the file).
 */
void
ou_bench_check_limits(const OuBenchLimits *limits, Oid roleid, Oid dbid)
{
	ou_bench_limit_error(NULL, NULL, limits->max_workers, 0,
						 ou_bench_count_workers(InvalidOid, InvalidOid), 1);
	if (limits->is_super)
		return;
	ou_bench_limit_error("role", GetUserNameFromId(roleid, false), limits->rolconnlimit,
						 CountUserBackends(roleid), ou_bench_count_workers(roleid, InvalidOid), 1);
	ou_bench_limit_error("database", get_database_name(dbid), limits->datconnlimit,
						 CountDBConnections(dbid), ou_bench_count_workers(InvalidOid, dbid), 1);
}

/*
 * ou_bench_check_role
 *		Everything PostgreSQL checks when a session of the current role
 *		connects, for nworkers more sessions: background workers are not
 *		counted against connection limits, so a benchmark must count them
 *		itself (those of every run).  Then the server-wide cap.  With
 *		need_create, also the CREATE privilege on the database (each run
 *		creates its own schema).  Returns the limits, for the workers.
 */
OuBenchLimits
ou_bench_check_role(int nworkers, bool need_create)
{
	OuBenchLimits limits;
	Oid			roleid = GetUserId();
	HeapTuple	tup;
	Form_pg_authid rform;
	Form_pg_database dform;
	char	   *rolename;
	char	   *dbname;
	bool		is_super;
	int			rolconnlimit;
	int			datconnlimit;

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

	limits.is_super = is_super;
	limits.rolconnlimit = rolconnlimit;
	limits.datconnlimit = datconnlimit;
	limits.max_workers = ou_bench_worker_cap();
	ou_bench_limit_error(NULL, NULL, limits.max_workers, 0,
						 ou_bench_count_workers(InvalidOid, InvalidOid), nworkers);
	if (!is_super)
	{
		ou_bench_limit_error("role", rolename, rolconnlimit, CountUserBackends(roleid),
							 ou_bench_count_workers(roleid, InvalidOid), nworkers);
		ou_bench_limit_error("database", dbname, datconnlimit, CountDBConnections(MyDatabaseId),
							 ou_bench_count_workers(InvalidOid, MyDatabaseId), nworkers);
	}
	return limits;
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
 * ou_bench_arg_generator
 *		A generator expression as a C string: not NULL, not empty, at most
 *		OU_MAX_GENERATOR_LEN bytes, a single SQL expression once $seq is
 *		replaced (ou_bench_check_generator).  arg NULL: element number g
 *		(from 0) of the argument generators; else the argument called arg.
 */
char *
ou_bench_arg_generator(Datum d, bool isnull, const char *arg, int g)
{
	char	   *gen;
	Size		len;

	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 arg ? errmsg("%s must not be null", arg) :
				 errmsg("generators must not contain nulls")));
	len = VARSIZE_ANY_EXHDR(DatumGetPointer(d));
	if (len == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 arg ? errmsg("%s must not be an empty string", arg) :
				 errmsg("generators must not contain empty strings")));
	if (len > OU_MAX_GENERATOR_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 arg ? errmsg("%s is too long", arg) :
				 errmsg("generator expression %d is too long", g + 1),
				 errdetail("A generator expression may have at most %d bytes; this one has %zu.",
						   OU_MAX_GENERATOR_LEN, len)));
	gen = TextDatumGetCString(d);
	ou_bench_check_generator(gen, ou_bench_replace_seq(gen, "s.s"));
	return gen;
}

/*
 * ou_bench_arg_generators
 *		The generator expressions of a text[] argument, each checked
 *		(ou_bench_arg_generator); *ngens gets how many (at least one).
 */
char	  **
ou_bench_arg_generators(FunctionCallInfo fcinfo, int argno, int *ngens)
{
	ArrayType  *arr;
	Datum	   *gens;
	bool	   *nulls;
	char	  **out;
	int			g;

	ou_check_not_null(fcinfo, argno, "generators");
	arr = PG_GETARG_ARRAYTYPE_P(argno);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("generators must be a one-dimensional array")));
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &gens, &nulls, ngens);
	if (*ngens == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("generators must not be empty")));
	out = palloc(sizeof(char *) * *ngens);
	for (g = 0; g < *ngens; g++)
		out[g] = ou_bench_arg_generator(gens[g], nulls[g], NULL, g);
	return out;
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
 *		code fills, or old_natts (0: none), the columns an earlier SQL
 *		version of the extension declares: the library is installed before
 *		ALTER EXTENSION ... UPDATE runs, and those columns are the first of
 *		the current ones, so the rows are formed from the first setDesc->natts
 *		values.  Any other count is an extension script out of step with the
 *		library.  Returns the number of columns.
 */
int
ou_bench_materialize(FunctionCallInfo fcinfo, const char *fname, int natts, int old_natts)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	ou_init_materialized_srf(fcinfo);
	if (rsinfo->setDesc->natts != natts &&
		(old_natts == 0 || rsinfo->setDesc->natts != old_natts))
		elog(ERROR, "%s: result type has %d columns, expected %d",
			 fname, rsinfo->setDesc->natts, natts);
	return rsinfo->setDesc->natts;
}
