-- bench/s2_copy.sql -- S2 (doc/scenarios.md): one COPY batch per transaction into the unindexed
-- table s2 (455-byte rows, 18 per 8 kB page, as in the published case).
-- run.sh writes the batch file on the server side and passes its path as -D file="'PATH'"
-- (COPY takes no parameters: pgbench substitutes :file textually in -M simple mode).
COPY s2 FROM :file;
