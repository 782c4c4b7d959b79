--
-- The collector needs the library loaded at server start: none of it is in
-- the SQL edition.

-- ou:c-only *
