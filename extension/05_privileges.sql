--
-- The hint for a caller without EXECUTE.  GRANT decides who calls what, and
-- several functions below are not PUBLIC's (the WAL readers, index_shape, the
-- collector's reset, the benchmarks).  Core's "permission denied for function"
-- names no role; this planner support function, attached to each of them,
-- makes core's own EXECUTE check while the call is planned and raises the
-- same error with a hint: the roles that hold EXECUTE, and the GRANT that
-- would let the caller in (src/privilege_hint.c).  It decides nothing.

CREATE FUNCTION execute_privilege_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'execute_privilege_support'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION execute_privilege_support(internal) IS
'planner support of the functions that are not PUBLIC''s: a caller without EXECUTE gets core''s permission error with a hint naming the roles that hold it';
