/*-------------------------------------------------------------------------
 *
 * random.c
 *	  Per-backend buffered cryptographic random bytes for the generators.
 *
 * Every byte comes from pg_strong_random(), the source core's
 * gen_random_uuid() uses.  Asking it for 16 bytes per UUID costs a library
 * call (and with some builds a system call) per value, which dominates the
 * cost of a generator; asking for a page at a time and handing it out makes
 * the random part of a UUID nearly free without weakening it.
 *
 * The buffer belongs to one process: it is tagged with the PID that filled it
 * and discarded if another process (a backend forked from a postmaster that
 * had loaded this library) finds it, so no two processes ever hand out the
 * same bytes.  Bytes are wiped as they are handed out.
 *
 * IDENTIFICATION
 *	  src/random.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"

#include "util.h"

#define OU_RANDOM_BUFSIZE 4096

static uint8 ou_random_buf[OU_RANDOM_BUFSIZE];
static int	ou_random_pos = OU_RANDOM_BUFSIZE;
static int	ou_random_owner = 0;

/*
 * ou_random_bytes
 *		Fill dst with len cryptographically strong random bytes.
 */
void
ou_random_bytes(void *dst, size_t len)
{
	uint8	   *out = (uint8 *) dst;

	if (ou_random_owner != MyProcPid)
	{
		ou_random_pos = OU_RANDOM_BUFSIZE;
		ou_random_owner = MyProcPid;
	}

	while (len > 0)
	{
		size_t		n;

		if (ou_random_pos >= OU_RANDOM_BUFSIZE)
		{
			if (!pg_strong_random(ou_random_buf, OU_RANDOM_BUFSIZE))
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("could not generate random values")));
			ou_random_pos = 0;
		}
		n = Min(len, (size_t) (OU_RANDOM_BUFSIZE - ou_random_pos));
		memcpy(out, ou_random_buf + ou_random_pos, n);
		memset(ou_random_buf + ou_random_pos, 0, n);
		ou_random_pos += n;
		out += n;
		len -= n;
	}
}
