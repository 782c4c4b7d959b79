--
-- The benchmarks' command channel under stress (the test module's copy of
-- src/bench_channel.c, built with random sleeps and yields between a
-- worker's reads): many short runs, each a random mix of commands for the
-- first worker only and for every worker, then EXIT.  A run fails unless
-- every worker executed every command meant for it exactly once, under that
-- command's number; every wait must end (statement_timeout).
--
CREATE FUNCTION ou_test_bench_channel(workers int, commands int, runs int) RETURNS bigint
	AS 'ordered_uuid_test', 'ou_test_bench_channel' LANGUAGE C STRICT;
SET statement_timeout = '300s';
SELECT ou_test_bench_channel(4, 40, 300) AS runs_of_four_workers;
SELECT ou_test_bench_channel(2, 64, 200) AS runs_of_two_workers;
SELECT ou_test_bench_channel(1, 10, 50) AS runs_of_one_worker;
RESET statement_timeout;
DROP FUNCTION ou_test_bench_channel(int, int, int);
