/*-------------------------------------------------------------------------
 *
 * bench_stats.c
 *	  Repetitions of a benchmark: the order in which interleaved
 *	  repetitions run, and the spread (median, minimum, maximum) of what
 *	  they measured.
 *
 * A benchmark that compares several variants (bench_insert's generators)
 * and repeats each runs repetition 1 of every variant, then repetition 2 of
 * every variant, and so on, so that a drift of the machine's speed (other
 * jobs, the page cache filling, a checkpoint) hits every variant alike.
 * Odd repetitions take the variants in the order given, even ones in the
 * reverse order: a steady drift then favours no variant by its position, and
 * the first variant of a repetition (which follows a fresh start or another
 * variant's clean-up) is not always the same one.
 *
 * IDENTIFICATION
 *	  src/bench_stats.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "bench.h"

/*
 * ou_interleaved
 *		The variant (from 0) that runs at position pos (from 0) of
 *		repetition rep (from 0) of nvariants variants: the order given in
 *		odd repetitions (rep 0, 2, ...), the reverse order in even ones.
 */
int
ou_interleaved(int rep, int pos, int nvariants)
{
	Assert(pos >= 0 && pos < nvariants);
	return rep % 2 == 0 ? pos : nvariants - 1 - pos;
}

/*
 * ou_double_cmp
 *		qsort comparator of doubles, ascending.
 */
static int
ou_double_cmp(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return x < y ? -1 : (x > y ? 1 : 0);
}

/*
 * ou_spread_field
 *		The spread of a double field of n structs of stride bytes each: the
 *		double at offset off of base, base + stride, ...
 */
OuSpread
ou_spread_field(const void *base, Size stride, Size off, int n)
{
	double	   *v = palloc(sizeof(double) * n);
	OuSpread	s;
	int			i;

	for (i = 0; i < n; i++)
		memcpy(&v[i], (const char *) base + stride * i + off, sizeof(double));
	s = ou_spread(v, n);
	pfree(v);
	return s;
}

/*
 * ou_spread
 *		The median, minimum and maximum of n values (n >= 1; an even number
 *		of values has the mean of its two middle ones as median).  The
 *		values are not changed.
 */
OuSpread
ou_spread(const double *values, int n)
{
	OuSpread	s;
	double	   *v = palloc(sizeof(double) * n);

	Assert(n >= 1);
	memcpy(v, values, sizeof(double) * n);
	qsort(v, n, sizeof(double), ou_double_cmp);
	s.min = v[0];
	s.max = v[n - 1];
	s.median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
	pfree(v);
	return s;
}
