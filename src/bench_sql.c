/*-------------------------------------------------------------------------
 *
 * bench_sql.c
 *	  The text of what a benchmark's workers run: scratch schema names,
 *	  statements marked with the search_path they are planned under, the
 *	  size of the shared text area they need, and the callers' generator
 *	  expressions ($seq replaced, checked to be one expression).
 *
 * IDENTIFICATION
 *	  src/bench_sql.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "nodes/parsenodes.h"
#include "nodes/pg_list.h"
#include "parser/parser.h"
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

/*
 * ou_bench_replace_seq
 *		The generator expression with every "$seq" replaced by the scratch
 *		sequence as a regclass literal; "bigint" becomes nextval() of it.
 */
char *
ou_bench_replace_seq(const char *gen, const char *qseq)
{
	StringInfoData buf;
	const char *p = gen;
	const char *hit;
	char	   *lit = psprintf("%s::pg_catalog.regclass", quote_literal_cstr(qseq));

	while (*p == ' ')
		p++;
	if (pg_strcasecmp(p, "bigint") == 0)
		return psprintf("pg_catalog.nextval(%s)", lit);

	initStringInfo(&buf);
	p = gen;
	while ((hit = strstr(p, "$seq")) != NULL)
	{
		appendBinaryStringInfo(&buf, p, hit - p);
		appendStringInfoString(&buf, lit);
		p = hit + 4;
	}
	appendStringInfoString(&buf, p);
	return buf.data;
}

/*
 * ou_bench_check_generator
 *		The generator (after $seq replacement) must be one SQL expression:
 *		it is pasted into DDL, so anything else (a second statement, a FROM
 *		clause) is refused here, in the leader, before any worker runs it.
 *		It would run with the caller's privileges anyway; this keeps the
 *		scratch DDL what it says.  Syntax errors keep their SQLSTATE.
 */
void
ou_bench_check_generator(const char *gen, const char *expr)
{
	MemoryContext cxt = CurrentMemoryContext;
	List	   *raw = NIL;
	bool		ok = false;

	PG_TRY();
	{
		raw = raw_parser(psprintf("SELECT (%s)", expr), RAW_PARSE_DEFAULT);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		/* the parser's error, with its position inside the expression */
		ereport(ERROR,
				(errcode(edata->sqlerrcode),
				 errmsg_internal("%s", edata->message),
				 edata->detail ? errdetail_internal("%s", edata->detail) : 0,
				 edata->hint ? errhint("%s", edata->hint) : 0,
				 edata->cursorpos > 8 ? internalerrposition(edata->cursorpos - 8) : 0,
				 internalerrquery(expr),
				 errcontext("generator expression \"%s\"", gen)));
	}
	PG_END_TRY();

	if (list_length(raw) == 1 && IsA(linitial_node(RawStmt, raw)->stmt, SelectStmt))
	{
		SelectStmt *sel = (SelectStmt *) linitial_node(RawStmt, raw)->stmt;

		ok = list_length(sel->targetList) == 1 &&
			linitial_node(ResTarget, sel->targetList)->name == NULL &&
			sel->fromClause == NIL && sel->whereClause == NULL &&
			sel->groupClause == NIL && sel->havingClause == NULL &&
			sel->windowClause == NIL && sel->valuesLists == NIL &&
			sel->sortClause == NIL && sel->limitOffset == NULL &&
			sel->limitCount == NULL && sel->lockingClause == NIL &&
			sel->withClause == NULL && sel->op == SETOP_NONE &&
			sel->distinctClause == NIL && sel->intoClause == NULL;
	}
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid generator expression \"%s\"", gen),
				 errdetail("A generator must be a single SQL expression, or the word bigint.")));
}
