/*-------------------------------------------------------------------------
 *
 * bench_sql.c
 *	  The text of what a benchmark's workers run: scratch schema names,
 *	  statements marked with the search_path they are planned under, and
 *	  the size of the shared text area they need.
 *
 * IDENTIFICATION
 *	  src/bench_sql.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "utils/builtins.h"

#include "bench_protocol.h"
#include "util.h"

static char *ou_bench_vstmt(char mark, const char *fmt, va_list args) pg_attribute_printf(2, 0);

/*
 * ou_bench_random_id
 *		64 random bits, not all zero.
 */
static uint64
ou_bench_random_id(void)
{
	uint32		half[2];

	do
	{
		ou_random_bytes(half, sizeof(half));
	} while (half[0] == 0 && half[1] == 0);
	return ((uint64) half[0] << 32) | half[1];
}

/*
 * ou_bench_new_schema
 *		A fresh scratch schema name, ordered_uuid_run_ and 64 random bits in
 *		hex, and those bits (the run id).  With kept, also the name the
 *		schema gets if the run is kept: ordered_uuid_kept_ and 64 other
 *		random bits, so that nobody who sees the running schema can take
 *		that name first and make the rename at the end of the run fail.
 */
char *
ou_bench_new_schema(uint64 *run_id, char **kept)
{
	*run_id = ou_bench_random_id();
	if (kept)
	{
		uint64		kept_id = ou_bench_random_id();

		*kept = psprintf("%s%08x%08x", OU_BENCH_KEPT_PREFIX,
						 (uint32) (kept_id >> 32), (uint32) kept_id);
	}
	return psprintf("%s%08x%08x", OU_BENCH_RUN_PREFIX,
					(uint32) (*run_id >> 32), (uint32) *run_id);
}

/*
 * ou_bench_vstmt
 *		A statement for the workers: the mark saying how it runs, then the
 *		text formatted like psprintf.
 */
static char *
ou_bench_vstmt(char mark, const char *fmt, va_list args)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, mark);
	for (;;)
	{
		va_list		ap;
		int			needed;

		va_copy(ap, args);
		needed = appendStringInfoVA(&buf, fmt, ap);
		va_end(ap);
		if (needed == 0)
			break;
		enlargeStringInfo(&buf, needed);
	}
	return buf.data;
}

/*
 * ou_bench_stmt
 *		A statement for the workers, formatted like psprintf.  caller_path:
 *		it holds a caller's generator expression and runs under the caller's
 *		search_path (behind pg_catalog and the extension's schema); every
 *		other statement runs under pg_catalog, pg_temp and must name
 *		everything it uses with its schema.
 */
char *
ou_bench_stmt(bool caller_path, const char *fmt,...)
{
	va_list		ap;
	char	   *stmt;

	va_start(ap, fmt);
	stmt = ou_bench_vstmt(caller_path ? OU_PATH_CALLER : OU_PATH_SAFE, fmt, ap);
	va_end(ap);
	return stmt;
}

/*
 * ou_bench_stmt_toplevel
 *		A statement of our own (pg_catalog, pg_temp) that the worker runs
 *		as a top-level utility statement, not through SPI: VACUUM, which
 *		refuses to run inside a function.  One statement, in a command
 *		(ou_bench_sql) of its own or among others.
 */
char *
ou_bench_stmt_toplevel(const char *fmt,...)
{
	va_list		ap;
	char	   *stmt;

	va_start(ap, fmt);
	stmt = ou_bench_vstmt(OU_PATH_TOPLEVEL, fmt, ap);
	va_end(ap);
	return stmt;
}

/*
 * ou_bench_text_size
 *		The bytes a list of statements takes in the text area.
 */
Size
ou_bench_text_size(List *stmts)
{
	ListCell   *lc;
	Size		size = 0;

	foreach(lc, stmts)
		size = add_size(size, strlen((const char *) lfirst(lc)) + 1);
	return size;
}

/*
 * ou_bench_qualified
 *		schema.name, each quoted as needed.
 */
char *
ou_bench_qualified(const char *schema, const char *name)
{
	return psprintf("%s.%s", quote_identifier(schema), quote_identifier(name));
}
