/*-------------------------------------------------------------------------
 *
 * diag_util.c
 *	  What the diagnostics share: the privilege check of the functions that
 *	  read the WAL.
 *
 * IDENTIFICATION
 *	  src/diag_util.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_authid.h"
#include "miscadmin.h"
#include "utils/acl.h"

#include "compat.h"
#include "diag.h"

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
