--
-- Helpers of the collector's preloaded suites (sql/collector.sql,
-- collector_limits.sql, collector_detail.sql and collector_churn.sql include this file):
-- a connection string for dblink sessions as a given role, and waits that
-- poll the collector's state (each gives up after ~30 s and says false).
--
CREATE FUNCTION pg_temp.connstr(role text DEFAULT current_user) RETURNS text LANGUAGE sql AS $$
	SELECT 'host=' || current_setting('unix_socket_directories') ||
		   ' port=' || current_setting('port') || ' dbname=' || current_database() ||
		   ' user=' || role
$$;

-- until the worker has taken n more sampling rounds
CREATE FUNCTION pg_temp.wait_rounds(n int) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	r0 bigint := (SELECT rounds FROM collector_info());
BEGIN
	FOR i IN 1..300 LOOP
		IF (SELECT rounds FROM collector_info()) >= r0 + n THEN
			RETURN true;
		END IF;
		PERFORM pg_sleep(0.1);
	END LOOP;
	RETURN false;
END $$;

-- until the query cond (one boolean) says true
CREATE FUNCTION pg_temp.wait_until(cond text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	ok bool;
BEGIN
	FOR i IN 1..300 LOOP
		EXECUTE cond INTO ok;
		IF ok THEN
			RETURN true;
		END IF;
		PERFORM pg_sleep(0.1);
	END LOOP;
	RETURN false;
END $$;

-- until the worker has followed the WAL up to target
CREATE FUNCTION pg_temp.wait_wal(target pg_lsn) RETURNS bool LANGUAGE sql AS $$
	SELECT pg_temp.wait_until(format('SELECT wal_reached >= %L::pg_lsn FROM collector_info()', target))
$$;

-- until the worker takes no round for 0.3 s (after a long sample_interval
-- was set and loaded)
CREATE FUNCTION pg_temp.wait_asleep() RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	r bigint;
BEGIN
	FOR i IN 1..100 LOOP
		r := (SELECT rounds FROM collector_info());
		PERFORM pg_sleep(0.3);
		IF (SELECT rounds FROM collector_info()) = r THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END $$;
