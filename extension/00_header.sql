-- ordered_uuid @VERSION@: install script, assembled by the Makefile from
-- extension/*.sql (one file per concern).

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION ordered_uuid" to load this file. \quit
