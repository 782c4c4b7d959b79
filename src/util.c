/*-------------------------------------------------------------------------
 *
 * util.c
 *	  What every concern shares: the rounding of the figures a person reads,
 *	  and the checks of SQL arguments (not NULL, in range).
 *
 * IDENTIFICATION
 *	  src/util.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "utils/timestamp.h"

#include "util.h"

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
 * Never more than 4 decimals, though: float8 prints anything below 0.0001 in
 * exponent notation (3e-06), which no one reads at a glance, and a ratio that
 * small is as good as 0 to whoever compares keys.
 */
double
ou_round_sig(double x, int digits)
{
	char		buf[64];

	Assert(digits >= 1 && digits <= 17);
	if (isnan(x) || isinf(x))
		return x;
	snprintf(buf, sizeof(buf), "%.*g", digits, x);
	return ou_round(strtod(buf, NULL), 4);
}

/*
 * ou_check_not_null
 *		Report an SQL NULL passed for an argument that must have a value (22004).
 *		The generators are not STRICT (a NULL default would silently produce
 *		a NULL key), and the benchmarks name the argument, so they check
 *		their arguments themselves.
 */
void
ou_check_not_null(FunctionCallInfo fcinfo, int argno, const char *name)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", name)));
}

/*
 * ou_check_result_columns
 *		The result row type of SQL function fname, as the installed SQL
 *		version of the extension declares it, must have between first_natts
 *		(the first version's) and natts (the current one's) columns.  The
 *		library is installed before ALTER EXTENSION ... UPDATE runs, and each
 *		version added columns only at the end, so an earlier declaration
 *		has the first desc->natts of the current columns: heap_form_tuple()
 *		and tuplestore_putvalues() form the row from that many of the
 *		values.  Any other count is a script out of step with the library.
 */
void
ou_check_result_columns(TupleDesc desc, int first_natts, int natts, const char *fname)
{
	if (desc->natts < first_natts || desc->natts > natts)
		elog(ERROR, "%s: result type has %d columns, expected %d to %d",
			 fname, desc->natts, first_natts, natts);
}

/*
 * ou_check_range
 *		v, the value of the argument called name, which must lie in
 *		[min, max]: 22023 otherwise, naming the argument and the value (a max
 *		of PG_INT32_MAX or PG_INT64_MAX reads "at least min").
 */
int64
ou_check_range(const char *name, int64 v, int64 min, int64 max)
{
	if (v >= min && v <= max)
		return v;
	if (max == PG_INT64_MAX || max == PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be at least " INT64_FORMAT, name, min),
				 errdetail("The value given was " INT64_FORMAT ".", v)));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s must be between " INT64_FORMAT " and " INT64_FORMAT, name, min, max),
			 errdetail("The value given was " INT64_FORMAT ".", v)));
	pg_unreachable();
}

/*
 * ou_getarg_int32
 *		The int argument argno (called name), which must not be NULL and
 *		must lie in [min, max].
 */
int32
ou_getarg_int32(FunctionCallInfo fcinfo, int argno, const char *name, int32 min, int32 max)
{
	ou_check_not_null(fcinfo, argno, name);
	return (int32) ou_check_range(name, PG_GETARG_INT32(argno), min, max);
}

/*
 * ou_interval_us
 *		An interval of us microseconds, for the result columns that are
 *		durations.
 */
Datum
ou_interval_us(int64 us)
{
	Interval   *iv = palloc0(sizeof(Interval));

	iv->time = us;
	return IntervalPGetDatum(iv);
}
