--
-- The layout of the block-prefixed generators, stated independently in
-- numeric arithmetic (the generators and generators_time_keys suites compare
-- the generators against it).
--

-- The bytes of the block prefix: the fewest whole bytes that number
-- block_count blocks.
CREATE FUNCTION pg_temp.prefix_bytes(block_count int) RETURNS int
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	bits int := 1;
BEGIN
	WHILE 2::numeric ^ bits < block_count LOOP
		bits := bits + 1;
	END LOOP;
	RETURN ceil(bits / 8.0);
END $$;

-- The block of v (a sequence value counted from 0, or a Unix second).
CREATE FUNCTION pg_temp.expected_block(v numeric, block_size int, block_count int)
RETURNS numeric LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	nblocks numeric := 2::numeric ^ (8 * pg_temp.prefix_bytes(block_count));
	eff numeric := greatest(1, floor(block_size::numeric * block_count / nblocks));
BEGIN
	RETURN mod(div(v, eff), nblocks);
END $$;
