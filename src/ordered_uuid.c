/*-------------------------------------------------------------------------
 *
 * ordered_uuid.c
 *	  Module magic and load-time initialisation of ordered_uuid.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

#include "compat.h"
#include "ordered_uuid.h"

OU_MODULE_MAGIC;

void		_PG_init(void);

/*
 * _PG_init
 *		Called when the library is loaded.
 */
void
_PG_init(void)
{
}
