/*-------------------------------------------------------------------------
 *
 * generators_time_range.c
 *	  Keys made in a time range, as the planner understands them: the
 *	  condition id <@ tstzrange (uuid_time_in) turned into a range of the key
 *	  itself, so that a B-tree (or BRIN) index on the key serves it.
 *
 * The keys that carry their time, version 7 (uuid_v7_nextval) and version 8
 * (uuid_striped_nextval), both of the RFC 9562 variant, begin with the same
 * 48-bit Unix millisecond: v7's own time, the striped key's block start.
 * uuid_time(id) reads it (uuid_time_decoder from text, for pg_partman).  The keys whose time lies in a range r are
 * therefore all in [lower, upper):
 *	 uuid_time_range_lower(r): uuid_v7_min of the first millisecond in r,
 *	 uuid_time_range_upper(r): uuid_v7_min of the millisecond after the last;
 * between them lie also UUIDs of other layouts (a version 7 UUID of another
 * variant), so the index condition is lossy: each row it finds is checked
 * with uuid_time_in itself.  Both are version 7 keys, as the bounds of
 * partitions made with uuid_v7_min are (they prune exactly), and as
 * TimescaleDB's UUID partitioning requires of every value compared with the
 * key.
 *
 * uuid_time_in_support answers the planner's SupportRequestIndexCondition
 * with "id >= lower AND id < upper": constants when the range is a constant,
 * calls of the two functions above (found in our own schema) over the range
 * expression otherwise (a Param of a prepared statement, now() - ...).  The
 * selectivity is that of the same two conditions (uuid_time_in_sel for the
 * operator, SupportRequestSelectivity for the function).
 *
 * IDENTIFICATION
 *	  src/generators_time_range.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_am.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/uuid.h"

#include "generators.h"

PG_FUNCTION_INFO_V1(uuid_time);
PG_FUNCTION_INFO_V1(uuid_time_decoder);
PG_FUNCTION_INFO_V1(uuid_time_in);
PG_FUNCTION_INFO_V1(uuid_time_range_lower);
PG_FUNCTION_INFO_V1(uuid_time_range_upper);
PG_FUNCTION_INFO_V1(uuid_time_in_support);
PG_FUNCTION_INFO_V1(uuid_time_in_sel);

/* milliseconds from the Unix epoch (1970) to the PostgreSQL epoch (2000) */
#define UNIX_EPOCH_OFFSET_MS	(OU_UNIX_EPOCH_OFFSET_US / 1000)

/*
 * key_time_ms
 *		The Unix millisecond in the first 48 bits of a key that carries its
 *		time (version 7 or 8 of the RFC 9562 variant), or -1 for any other.
 */
static int64
key_time_ms(const pg_uuid_t *uuid)
{
	int			version = uuid->data[6] >> 4;
	int64		ms = 0;
	int			i;

	if ((version != 7 && version != 8) || (uuid->data[8] & 0xc0) != 0x80)
		return -1;
	for (i = 0; i < 6; i++)
		ms = (ms << 8) | uuid->data[i];
	return ms;
}

/*
 * key_time_datum
 *		The result of uuid_time for uuid: its time, or NULL.
 */
static Datum
key_time_datum(FunctionCallInfo fcinfo, const pg_uuid_t *uuid)
{
	int64		ms = key_time_ms(uuid);

	if (ms < 0)
		PG_RETURN_NULL();
	/* Unix ms -> PostgreSQL epoch microseconds (fits: 48 bits) */
	PG_RETURN_TIMESTAMPTZ(ms * 1000 - OU_UNIX_EPOCH_OFFSET_US);
}

/*
 * uuid_time(id uuid)
 *		The time a key carries: a version 7 key's millisecond, a striped
 *		(version 8) key's block start; NULL for every other UUID.
 */
Datum
uuid_time(PG_FUNCTION_ARGS)
{
	return key_time_datum(fcinfo, PG_GETARG_UUID_P(0));
}

/*
 * uuid_time_decoder(id text)
 *		uuid_time of a key given as text: pg_partman's p_time_decoder, which
 *		passes the control column as text (the encoder is uuid_v7_min's C
 *		function, see extension/15_time_keys.sql).
 */
Datum
uuid_time_decoder(PG_FUNCTION_ARGS)
{
	Datum		id = DirectFunctionCall1(uuid_in, CStringGetDatum(text_to_cstring(PG_GETARG_TEXT_PP(0))));

	return key_time_datum(fcinfo, DatumGetUUIDP(id));
}

/*
 * floor_ms, ceil_ms
 *		The Unix millisecond at or before / at or after the finite timestamp
 *		ts (never overflows: ts / 1000 is far from the int64 limits).
 */
static int64
floor_ms(TimestampTz ts)
{
	return ts / 1000 - (ts % 1000 < 0 ? 1 : 0) + UNIX_EPOCH_OFFSET_MS;
}

static int64
ceil_ms(TimestampTz ts)
{
	return ts / 1000 + (ts % 1000 > 0 ? 1 : 0) + UNIX_EPOCH_OFFSET_MS;
}

/*
 * range_ms
 *		The first and last Unix millisecond in the range that a key can
 *		carry (0 to 2^48 - 1).  False when there is none: an empty range, or
 *		one that lies wholly outside, or between two milliseconds.
 *		A bound at -infinity or +infinity is as good as none.
 */
static bool
range_ms(RangeType *r, int64 *first, int64 *last)
{
	TypeCacheEntry *typcache = lookup_type_cache(RangeTypeGetOid(r), TYPECACHE_RANGE_INFO);
	RangeBound	lower;
	RangeBound	upper;
	bool		empty;

	range_deserialize(typcache, r, &lower, &upper, &empty);
	if (empty)
		return false;

	*first = 0;
	if (!lower.infinite && !TIMESTAMP_IS_NOBEGIN(DatumGetTimestampTz(lower.val)))
	{
		TimestampTz ts = DatumGetTimestampTz(lower.val);

		if (TIMESTAMP_IS_NOEND(ts))
			return false;
		*first = Max(0, lower.inclusive ? ceil_ms(ts) : floor_ms(ts) + 1);
	}
	*last = (int64) OU_V7_MAX_MS;
	if (!upper.infinite && !TIMESTAMP_IS_NOEND(DatumGetTimestampTz(upper.val)))
	{
		TimestampTz ts = DatumGetTimestampTz(upper.val);

		if (TIMESTAMP_IS_NOBEGIN(ts))
			return false;
		*last = Min((int64) OU_V7_MAX_MS, upper.inclusive ? floor_ms(ts) : ceil_ms(ts) - 1);
	}
	return *first <= *last;
}

/*
 * uuid_time_in(id uuid, times tstzrange)
 *		Does the key carry a time (uuid_time) that lies in times?  Always
 *		false for a UUID that carries none.
 */
Datum
uuid_time_in(PG_FUNCTION_ARGS)
{
	int64		ms = key_time_ms(PG_GETARG_UUID_P(0));
	int64		first;
	int64		last;

	if (ms < 0 || !range_ms(PG_GETARG_RANGE_P(1), &first, &last))
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(ms >= first && ms <= last);
}

/*
 * v7_start
 *		uuid_v7_min's key of Unix millisecond ms: version 7, every bit after
 *		the time zero but the variant's.  ms may be one past the last
 *		millisecond: then the largest UUID, above every key.
 */
static pg_uuid_t *
v7_start(int64 ms)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	int			i;

	if (ms > (int64) OU_V7_MAX_MS)
	{
		memset(uuid->data, 0xff, UUID_LEN);
		return uuid;
	}
	memset(uuid->data, 0, UUID_LEN);
	for (i = 0; i < 6; i++)
		uuid->data[i] = (uint8) ((uint64) ms >> (8 * (5 - i)));
	uuid->data[6] = 0x70;
	uuid->data[8] = 0x80;
	return uuid;
}

/*
 * range_bound
 *		uuid_time_range_lower (want_upper false) or _upper of the range r.
 *		When r holds no millisecond a key can carry, both are the key of
 *		millisecond 0, so that nothing lies in [lower, upper).
 */
static pg_uuid_t *
range_bound(RangeType *r, bool want_upper)
{
	int64		first;
	int64		last;

	if (!range_ms(r, &first, &last))
		return v7_start(0);
	return want_upper ? v7_start(last + 1) : v7_start(first);
}

/*
 * uuid_time_range_lower(times tstzrange)
 *		The lower bound (inclusive) of the keys whose time lies in times: the
 *		uuid_v7_min of its first millisecond.
 */
Datum
uuid_time_range_lower(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(range_bound(PG_GETARG_RANGE_P(0), false));
}

/*
 * uuid_time_range_upper(times tstzrange)
 *		The upper bound (exclusive) of the keys whose time lies in times: the
 *		uuid_v7_min of the millisecond after its last one (the largest UUID
 *		after the last millisecond a key holds).
 */
Datum
uuid_time_range_upper(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(range_bound(PG_GETARG_RANGE_P(0), true));
}

/*
 * bound_expr
 *		The expression of uuid_time_range_lower (want_upper false) or _upper of the
 *		range expression times: a constant when times is one, else a call of
 *		that function, looked up in the schema of the function funcid (ours,
 *		whatever the search_path).  NULL when that function cannot be found.
 */
static Expr *
bound_expr(Node *times, Oid funcid, bool want_upper)
{
	const char *name = want_upper ? "uuid_time_range_upper" : "uuid_time_range_lower";
	Oid			argtype = getBaseType(exprType(times));
	Oid			boundfunc;

	if (IsA(times, Const))
	{
		Const	   *c = (Const *) times;

		if (c->constisnull)
			return (Expr *) makeNullConst(UUIDOID, -1, InvalidOid);
		return (Expr *) makeConst(UUIDOID, -1, InvalidOid, UUID_LEN,
								  UUIDPGetDatum(range_bound(DatumGetRangeTypeP(c->constvalue), want_upper)),
								  false, false);
	}
	boundfunc = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid,
								CStringGetDatum(name),
								PointerGetDatum(buildoidvector(&argtype, 1)),
								ObjectIdGetDatum(get_func_namespace(funcid)));
	if (!OidIsValid(boundfunc))
		return NULL;
	return (Expr *) makeFuncExpr(boundfunc, UUIDOID, list_make1(copyObject(times)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/*
 * range_clauses
 *		"key >= lower AND key < upper" for the key expression and the range
 *		expression times, with the operators of the operator family opfamily
 *		(the B-tree family of uuid for estimates); NIL when they cannot be
 *		made.
 */
static List *
range_clauses(Node *key, Node *times, Oid funcid, Oid opfamily)
{
	Oid			ge = get_opfamily_member(opfamily, UUIDOID, UUIDOID, BTGreaterEqualStrategyNumber);
	Oid			lt = get_opfamily_member(opfamily, UUIDOID, UUIDOID, BTLessStrategyNumber);
	Expr	   *lo;
	Expr	   *hi;

	if (!OidIsValid(ge) || !OidIsValid(lt))
		return NIL;
	lo = bound_expr(times, funcid, false);
	hi = bound_expr(times, funcid, true);
	if (lo == NULL || hi == NULL)
		return NIL;
	return list_make2(make_opclause(ge, BOOLOID, false, (Expr *) key, lo, InvalidOid, InvalidOid),
					  make_opclause(lt, BOOLOID, false, (Expr *) key, hi, InvalidOid, InvalidOid));
}

/*
 * uuid_btree_family
 *		The default B-tree operator family of uuid (core's uuid_ops).
 */
static Oid
uuid_btree_family(void)
{
	return get_opclass_family(GetDefaultOpClass(UUIDOID, BTREE_AM_OID));
}

/*
 * time_in_selectivity
 *		The selectivity of uuid_time_in(key, times): that of the range of the
 *		key it implies (the few keys of other layouts inside are neglected).
 */
static Selectivity
time_in_selectivity(PlannerInfo *root, List *args, Oid funcid, int varRelid)
{
	List	   *clauses;

	if (list_length(args) != 2)
		return DEFAULT_INEQ_SEL;
	clauses = range_clauses(linitial(args), lsecond(args), funcid, uuid_btree_family());
	if (clauses == NIL)
		return DEFAULT_RANGE_INEQ_SEL;
	return clauselist_selectivity(root, clauses, varRelid, JOIN_INNER, NULL);
}

/*
 * index_condition
 *		The answer to SupportRequestIndexCondition: the range of the key for
 *		an index on the key (argument 0) of the B-tree or BRIN kind, whose
 *		operator family compares uuids; the range expression must not be
 *		volatile nor read the indexed table.
 */
static List *
index_condition(SupportRequestIndexCondition *req)
{
	List	   *args;
	Node	   *times;

	if (req->indexarg != 0 ||
		(req->index->relam != BTREE_AM_OID && req->index->relam != BRIN_AM_OID))
		return NIL;
	if (is_opclause(req->node))
		args = ((OpExpr *) req->node)->args;
	else if (IsA(req->node, FuncExpr))
		args = ((FuncExpr *) req->node)->args;
	else
		return NIL;
	if (list_length(args) != 2)
		return NIL;
	times = lsecond(args);
	if (contain_volatile_functions(times) ||
		bms_is_member(req->index->rel->relid, pull_varnos(req->root, times)))
		return NIL;
	/* keys of other layouts lie in the range too: each row is checked */
	req->lossy = true;
	return range_clauses(linitial(args), times, req->funcid, req->opfamily);
}

/*
 * uuid_time_in_support(internal)
 *		The planner support function of uuid_time_in: index conditions and
 *		the selectivity of the function form.
 */
Datum
uuid_time_in_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (IsA(rawreq, SupportRequestIndexCondition))
	{
		List	   *conditions = index_condition((SupportRequestIndexCondition *) rawreq);

		PG_RETURN_POINTER(conditions);
	}
	if (IsA(rawreq, SupportRequestSelectivity))
	{
		SupportRequestSelectivity *req = (SupportRequestSelectivity *) rawreq;

		if (req->is_join)
			PG_RETURN_POINTER(NULL);
		req->selectivity = time_in_selectivity(req->root, req->args, req->funcid, req->varRelid);
		PG_RETURN_POINTER(req);
	}
	PG_RETURN_POINTER(NULL);
}

/*
 * uuid_time_in_sel(internal, oid, internal, int)
 *		The restriction estimator of the operator uuid <@ tstzrange.
 */
Datum
uuid_time_in_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			opno = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);

	PG_RETURN_FLOAT8((float8) time_in_selectivity(root, args, get_opcode(opno), varRelid));
}
