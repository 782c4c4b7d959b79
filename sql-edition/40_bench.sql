--
-- The benchmarks start background workers: none of them is in the SQL
-- edition.

-- ou:c-only *
