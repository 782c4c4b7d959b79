/*-------------------------------------------------------------------------
 *
 * ordered_uuid.c
 *	  Module magic and load-time initialisation of ordered_uuid.
 *
 * IDENTIFICATION
 *	  src/ordered_uuid.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"

#include "bench.h"
#include "collector_defs.h"
#include "compat.h"
#include "generators.h"

OU_MODULE_MAGIC;

void		_PG_init(void);

/*
 * _PG_init
 *		Called when the library is loaded.  The benchmarks' setting
 *		(ordered_uuid.bench_max_workers) is defined always; only when the
 *		library is loaded through shared_preload_libraries does it set up the
 *		collector (settings, shared memory, its statistics restored at the
 *		start and saved at a clean shutdown, background worker: none in
 *		binary-upgrade mode) and the striped keys' shared edge
 *		(generators_edge.c).  The generators, diagnostics and benchmarks
 *		need nothing else.
 */
void
_PG_init(void)
{
	ou_bench_define_gucs();
	if (!process_shared_preload_libraries_in_progress)
		return;

	ou_collector_define_gucs();
	ou_collector_enable_query_id();
	ou_shmem_install_hooks();
	ou_persist_install_hooks();
	ou_collector_register_worker();
	ou_edge_install_hooks();
}
