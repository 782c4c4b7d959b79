--
-- Citus support, on a server without Citus: nothing changes for local
-- tables, and what needs Citus says so.  (With Citus, the diagnostics add
-- up the shards of a Citus table or refuse; that needs a cluster and is
-- checked by hand: doc/citus.md.)
--

-- bench_insert_distributed needs Citus: 0A000 with a hint, before it
-- checks anything else or starts a worker.
SELECT * FROM bench_insert_distributed(ARRAY['uuid_v7_nextval()'], rows => 10);
\set VERBOSITY sqlstate
SELECT * FROM bench_insert_distributed(NULL, rows => -1, shard_count => 0);
\set VERBOSITY default
SELECT count(*) AS scratch_schemas FROM pg_namespace WHERE nspname LIKE 'ordered\_uuid\_run\_%';

-- A sequence with the range Citus gives a worker's copy of a bigint
-- sequence (group 1: from 2^48 + 1 to 2^49 + 1) is refused only when Citus
-- propagates it; here it is an ordinary sequence.  The block id against
-- the layout's rule, in numeric arithmetic: (v - 1) / block_size mod 65536.
CREATE SEQUENCE regress_citus_range AS bigint
	START 281474976710657 MINVALUE 281474976710657 MAXVALUE 562949953421313;
SELECT uuid_block_id(uuid_sequence_nextval('regress_citus_range', 16)) =
	   div(281474976710657::numeric - 1, 16) % 65536 AS first_block_ok;
SELECT setval('regress_citus_range', 281474976710657 + 16 * 5 - 1) IS NOT NULL AS set;
SELECT uuid_block_id(uuid_sequence_nextval('regress_citus_range', 16)) AS block,
	   (div(281474976710657::numeric + 16 * 5 - 1, 16) % 65536)::int AS expected;
DROP SEQUENCE regress_citus_range;

-- A table that looks like Citus's catalog does not make a local table a
-- Citus table: detection starts from pg_extension.
CREATE TABLE regress_citus_local (id uuid PRIMARY KEY, pad text);
INSERT INTO regress_citus_local SELECT uuid_v7_nextval(), 'x' FROM generate_series(1, 1000);
CREATE TABLE public.pg_dist_partition (logicalrelid regclass);
INSERT INTO public.pg_dist_partition VALUES ('regress_citus_local');
SELECT leaf_pages > 1 AS measured_locally FROM index_shape('regress_citus_local_pkey');
SELECT keys, rows, heap_blocks > 0 AS blocks FROM heap_locality('regress_citus_local', 'id');
SELECT count(*) > 0 AS explained FROM explain_writes($$INSERT INTO regress_citus_local SELECT uuid_v7_nextval(), 'y'$$);
DROP TABLE public.pg_dist_partition, regress_citus_local;
