--
-- Schema planted: operators, functions and an aggregate that a role could
-- put on another's search_path, each matching the arguments of the SQL
-- write_path_report() gives to run (the changes and verify queries of S1,
-- S3 and S4 in sql/diag_report.sql) more closely
-- than pg_catalog's do, or as closely (then the schema first on the
-- search_path wins).  Each raises an error naming itself, so a suite that
-- runs that SQL with planted first on the search_path fails if any is
-- called.
--
CREATE SCHEMA planted;
CREATE FUNCTION planted.ran(what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'planted % ran', what;
END $$;
CREATE FUNCTION planted.eq_regclass(regclass, regclass) RETURNS boolean LANGUAGE sql
	AS $$ SELECT planted.ran('= (regclass, regclass)') $$;
CREATE OPERATOR planted.= (LEFTARG = regclass, RIGHTARG = regclass, FUNCTION = planted.eq_regclass);
CREATE FUNCTION planted.eq_text(text, text) RETURNS boolean LANGUAGE sql
	AS $$ SELECT planted.ran('= (text, text)') $$;
CREATE OPERATOR planted.= (LEFTARG = text, RIGHTARG = text, FUNCTION = planted.eq_text);
CREATE FUNCTION planted.div_numeric(numeric, numeric) RETURNS numeric LANGUAGE sql
	AS $$ SELECT planted.ran('/ (numeric, numeric)')::int::numeric $$;
CREATE OPERATOR planted./ (LEFTARG = numeric, RIGHTARG = numeric, FUNCTION = planted.div_numeric);
CREATE FUNCTION planted.round(numeric, integer) RETURNS numeric LANGUAGE sql
	AS $$ SELECT planted.ran('round(numeric, integer)')::int::numeric $$;
CREATE FUNCTION planted.sum_step(numeric, bigint) RETURNS numeric LANGUAGE sql
	AS $$ SELECT planted.ran('sum(bigint)')::int::numeric $$;
CREATE AGGREGATE planted.sum(bigint) (SFUNC = planted.sum_step, STYPE = numeric);
CREATE FUNCTION planted.div_numeric_bigint(numeric, bigint) RETURNS numeric LANGUAGE sql
	AS $$ SELECT planted.ran('/ (numeric, bigint)')::int::numeric $$;
CREATE OPERATOR planted./ (LEFTARG = numeric, RIGHTARG = bigint, FUNCTION = planted.div_numeric_bigint);
CREATE FUNCTION planted.eq_name(name, name) RETURNS boolean LANGUAGE sql
	AS $$ SELECT planted.ran('= (name, name)') $$;
CREATE OPERATOR planted.= (LEFTARG = name, RIGHTARG = name, FUNCTION = planted.eq_name);
CREATE FUNCTION planted.lower(text) RETURNS text LANGUAGE sql
	AS $$ SELECT planted.ran('lower(text)')::text $$;
CREATE FUNCTION planted.current_database() RETURNS name LANGUAGE sql
	AS $$ SELECT planted.ran('current_database()')::text::name $$;
