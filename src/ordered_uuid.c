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

#include "collector.h"
#include "compat.h"
#include "generators.h"

OU_MODULE_MAGIC;

void		_PG_init(void);

/*
 * _PG_init
 *		Called when the library is loaded.  Only when it is loaded through
 *		shared_preload_libraries does it set up the collector (settings,
 *		shared memory, background worker) and the striped keys' shared edge
 *		(generators_edge.c); otherwise there is nothing to do: the generators,
 *		diagnostics and benchmarks need no initialisation.
 */
void
_PG_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;

	ou_collector_define_gucs();
	ou_collector_enable_query_id();
	ou_shmem_install_hooks();
	ou_collector_register_worker();
	ou_edge_install_hooks();
}
