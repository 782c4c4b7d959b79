--
-- explain_writes() under wal_level = minimal: a relation file created or
-- rewritten in the transaction writes no WAL for its pages, and its row
-- says so (blocks_added NULL) instead of leaving it out.
--
SELECT current_setting('wal_level') AS wal_level;

-- A table created earlier in the same transaction: no WAL for its rows.
BEGIN;
CREATE TABLE m_new (id int PRIMARY KEY);
SELECT relation, kind, wal_records, blocks_added, note
FROM explain_writes('INSERT INTO m_new SELECT generate_series(1, 1000)')
WHERE kind IN ('table', 'index')
ORDER BY kind, relation::text COLLATE "C";
COMMIT;
SELECT pg_relation_size('m_new') > 0 AS written_all_the_same;

-- A file the statement creates (CREATE INDEX): its creation is in the WAL,
-- its pages are not.
SELECT relation, kind, wal_records, blocks_added, note
FROM explain_writes('CREATE INDEX m_new_twice ON m_new ((id * 2))')
WHERE kind IN ('table', 'index')
ORDER BY kind, relation::text COLLATE "C";

-- Once committed, the table writes WAL as usual again: rows as counted.
SELECT relation, wal_records = 1000 AS one_record_per_row, blocks_added, note
FROM explain_writes('INSERT INTO m_new SELECT generate_series(1001, 2000)')
WHERE relation = 'm_new'::regclass;

-- TRUNCATE gives the table new files: rows inserted after it in the same
-- transaction write no WAL.
BEGIN;
SELECT relation, kind, note FROM explain_writes('TRUNCATE m_new')
WHERE kind IN ('table', 'index') ORDER BY kind, relation::text COLLATE "C";
SELECT relation, kind, wal_records, blocks_added, note
FROM explain_writes('INSERT INTO m_new SELECT generate_series(1, 100)')
WHERE kind IN ('table', 'index')
ORDER BY kind, relation::text COLLATE "C";
COMMIT;
DROP TABLE m_new;
