--
-- Run a statement, return its SQLSTATE and message instead of failing
-- (the suites that check errors by the row include this file).  The name of
-- the database the suite runs in is printed as "(current database)", so that
-- the expected output holds in any database (pgxn check -d NAME).
--
CREATE FUNCTION pg_temp.err(stmt text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE stmt;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || pg_catalog.replace(SQLERRM, pg_catalog.format('database "%s"', pg_catalog.current_database()),
												  'database "(current database)"');
END $$;
