/*-------------------------------------------------------------------------
 *
 * bench_sample.c
 *	  The wait-event profile of a benchmark run, sampled by its leader.
 *
 * No preload needed: while it waits for its workers, the leader samples
 * their PGPROCs every OU_SAMPLE_MS with waitsample.c's ou_sample_proc()
 * (plain reads of wait_event_info; for a relation extension lock wait, the
 * relation and the wait's start, read race-free under the lock-manager
 * partition lock).  Only workers inside the loop of a RUN are sampled.  Each
 * sample is weighted by the time since the previous one (at most five
 * periods), so estimated times add up to the workers' wall-clock time.
 * Relation extension lock wait episodes are told apart by their start time
 * (PGPROC.waitStart), as pg_locks.waitstart does.
 *
 * IDENTIFICATION
 *	  src/bench_sample.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/proc.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "bench.h"
#include "compat.h"
#include "waitsample.h"

/*
 * ou_sampler_create
 *		A new, empty profile (in the current memory context).
 */
OuSampler *
ou_sampler_create(void)
{
	return palloc0(sizeof(OuSampler));
}

/* wait events listed in top_wait_events */
#define OU_TOP_EVENTS		5


/*
 * ou_tally
 *		Add a sample of weight secs for a wait event.
 */
static void
ou_tally(OuSampler *s, uint32 wei, double secs)
{
	int			i;

	for (i = 0; i < s->nevents; i++)
		if (s->events[i].wait_event_info == wei)
			break;
	if (i == s->nevents)
	{
		if (s->nevents < OU_MAX_EVENTS)
		{
			s->events[i].wait_event_info = wei;
			s->nevents++;
		}
		else
			i = OU_MAX_EVENTS;	/* "other" */
	}
	s->events[i].samples++;
	s->events[i].seconds += secs;
}

/*
 * ou_sampler_sample
 *		OuBenchSampleFn: one sample of every worker inside its RUN loop.
 */
void
ou_sampler_sample(OuBenchRun *run, void *arg)
{
	OuSampler  *s = (OuSampler *) arg;
	PGPROC	   *procs[OU_MAX_SAMPLED];
	int			pids[OU_MAX_SAMPLED];
	TimestampTz now = GetCurrentTimestamp();
	double		secs;
	int			n;
	int			i;

	if (s->last != 0 && !TimestampDifferenceExceeds(s->last, now, OU_SAMPLE_MS - 1))
		return;
	/* weight: the time since the previous sample, at most a few periods */
	secs = s->last == 0 ? OU_SAMPLE_MS / 1000.0 :
		Min((double) (now - s->last) / 1000000.0, 5 * OU_SAMPLE_MS / 1000.0);
	s->last = now;

	n = ou_bench_running_procs(run, procs, pids, OU_MAX_SAMPLED);
	for (i = 0; i < n; i++)
	{
		OuWaitSample ws;
		int			k;

		if (!ou_sample_proc(procs[i], &ws) || ws.pid != pids[i])
			continue;
		s->samples++;
		s->seconds += secs;
		ou_tally(s, ws.wait_event_info, secs);

		/* remember per pid whether it was in an extension-lock wait */
		for (k = 0; k < OU_MAX_SAMPLED && s->last_pid[k] != 0 && s->last_pid[k] != ws.pid; k++)
			;
		if (k == OU_MAX_SAMPLED)
			continue;
		s->last_pid[k] = ws.pid;
		if (ws.wait_event_info == OU_WAIT_EXTEND_LOCK)
		{
			s->extend_seconds += secs;
			/* a new episode: a new start time, or a wait not seen before */
			if (ws.wait_start != 0 ? ws.wait_start != s->last_start[k] : !s->last_extend[k])
				s->extend_waits++;
			if (ws.wait_start != 0)
				s->last_start[k] = ws.wait_start;
			s->last_extend[k] = true;
		}
		else
			s->last_extend[k] = false;
	}
}

/*
 * ou_wait_name
 *		"Type:Event" of a wait event, or "CPU".
 */
static const char *
ou_wait_name(uint32 wei)
{
	const char *type;
	const char *event;

	if (wei == 0)
		return "CPU";
	type = pgstat_get_wait_event_type(wei);
	event = pgstat_get_wait_event(wei);
	return psprintf("%s:%s", type ? type : "?", event ? event : "?");
}

static int
ou_tally_cmp(const void *a, const void *b)
{
	const OuWaitTally *x = (const OuWaitTally *) a;
	const OuWaitTally *y = (const OuWaitTally *) b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->wait_event_info < y->wait_event_info ? -1 : x->wait_event_info > y->wait_event_info;
}

/*
 * ou_sampler_top
 *		The OU_TOP_EVENTS most sampled wait events with their share of the
 *		samples, e.g. "Lock:extend 61.2%, CPU 20.3%, IO:DataFileExtend 9.1%".
 */
char *
ou_sampler_top(OuSampler *s)
{
	StringInfoData buf;
	int			n = s->nevents + (s->events[OU_MAX_EVENTS].samples > 0 ? 1 : 0);
	int			i;

	initStringInfo(&buf);
	if (s->samples == 0)
		return buf.data;
	if (s->events[OU_MAX_EVENTS].samples > 0)
		s->events[s->nevents] = s->events[OU_MAX_EVENTS];
	qsort(s->events, s->nevents, sizeof(OuWaitTally), ou_tally_cmp);
	for (i = 0; i < n && i < OU_TOP_EVENTS; i++)
		appendStringInfo(&buf, "%s%s %.1f%%", i > 0 ? ", " : "",
						 i == s->nevents ? "other" : ou_wait_name(s->events[i].wait_event_info),
						 100.0 * s->events[i].samples / s->samples);
	return buf.data;
}
