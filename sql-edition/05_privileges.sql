--
-- The hint for a caller without EXECUTE is a planner support function in C:
-- the SQL edition leaves it to the C edition (core's own error, without the
-- hint, is what a caller without EXECUTE gets there).

-- ou:c-only execute_privilege_support(internal)
