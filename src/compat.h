/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Every difference between PostgreSQL 14, 15, 16, 17 and 18 that
 *	  ordered_uuid needs to paper over, as macros and static inline wrappers.
 *
 * Nothing else in src/ tests PG_VERSION_NUM: add new shims here.
 *
 *-------------------------------------------------------------------------
 */
#ifndef ORDERED_UUID_COMPAT_H
#define ORDERED_UUID_COMPAT_H

#if PG_VERSION_NUM < 140000
#error "ordered_uuid requires PostgreSQL 14 or later"
#endif

/* PG 18 records the library's name and version in its magic block. */
#if PG_VERSION_NUM >= 180000
#define OU_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "ordered_uuid", .version = OU_VERSION)
#else
#define OU_MODULE_MAGIC PG_MODULE_MAGIC
#endif

/*
 * Benchmarks (bench_*.c).
 *
 * OU_BTPageGetOpaque: BTPageGetOpaque() appeared in PG 15.
 * OU_MAY_CHECKPOINT(): may the current user run CHECKPOINT (pg_checkpoint is
 * PG 15+; before that, superuser only).
 */
#ifdef OU_COMPAT_BENCH
#include "access/nbtree.h"
#include "miscadmin.h"
#include "utils/acl.h"
#if PG_VERSION_NUM >= 150000
#include "catalog/pg_authid_d.h"
#define OU_BTPageGetOpaque(page) BTPageGetOpaque(page)
#define OU_MAY_CHECKPOINT() \
	(superuser() || has_privs_of_role(GetUserId(), ROLE_PG_CHECKPOINT))
#else
#define OU_BTPageGetOpaque(page) ((BTPageOpaque) PageGetSpecialPointer(page))
#define OU_MAY_CHECKPOINT() superuser()
#endif
#endif							/* OU_COMPAT_BENCH */

#endif							/* ORDERED_UUID_COMPAT_H */
