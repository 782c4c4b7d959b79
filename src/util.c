/*-------------------------------------------------------------------------
 *
 * util.c
 *	  The rounding of the figures a person reads, shared by the
 *	  diagnostics, the collector and the benchmarks.
 *
 * IDENTIFICATION
 *	  src/util.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"

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
