# Makefile for ordered_uuid (PGXS)
#
#   make && make install          build and install into the PostgreSQL that
#                                 pg_config (or PG_CONFIG=...) names
#   make install-test-module      install the test module the tests need
#                                 (make uninstall-test-module removes it)
#   make installcheck             pg_regress against a running server
#   make installcheck-preload     the suites and specs that need settings of
#                                 their own, each in a temporary instance
#                                 with its NAME.conf (not as root)
#   make test                     everything, on PostgreSQL 14-19 (scripts/test.sh)
#   make demo                     build, start a throwaway server, compare keys
#   make dist                     the PGXN release bundle of the committed tree
#                                 (a git checkout; DIST_REF=commit, DIST_ZIP=file)
#   make sql-edition              the SQL edition for servers that load no C
#                                 extension: a plain SQL file and a pg_tle
#                                 package (python3 only; prints their paths)

EXTENSION = ordered_uuid
# Two versions, each in one place.  The extension's (SQL) version lives in
# ordered_uuid.control and changes only when the SQL objects do.  RELEASE is
# the release's version: the library's (its PG 18 magic block), the bundle's
# and META.json's; a release that changes only the library raises RELEASE
# alone.  META.json is checked against both (make check-meta) and rewritten by
# `make meta`.
EXTVERSION = $(shell sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" $(EXTENSION).control)
RELEASE = 1.6.1

MODULE_big = $(EXTENSION)
OBJS = $(patsubst %.c,%.o,$(sort $(wildcard src/*.c)))
PG_CPPFLAGS = -I$(srcdir)/src -DOU_VERSION='"$(RELEASE)"'

# The install script is assembled from extension/*.sql, one file per concern.
# Once its version is released, a frozen copy of it sits in extension/upgrade/
# (FROZEN) and is installed instead; the build then checks that the parts
# still assemble to that copy (check-frozen), so that the SQL of a released
# version cannot change.
FROZEN = $(wildcard extension/upgrade/$(EXTENSION)--$(EXTVERSION).sql)
ifeq ($(FROZEN),)
DATA_built = $(EXTENSION)--$(EXTVERSION).sql
endif
# Frozen install scripts of the releases and the upgrade scripts.
DATA = $(wildcard extension/upgrade/$(EXTENSION)--*.sql)
# The monitoring files (doc/monitoring.md): postgres_exporter's queries, the
# Prometheus alert rules and the Grafana dashboard, installed by make install
# into $(pg_config --docdir)/extension/.
DOCS = monitoring/ordered_uuid_exporter_queries.yaml monitoring/ordered_uuid_rules.yml \
	monitoring/ordered_uuid_dashboard.json

# pg_regress suites (sql/NAME.sql, expected/NAME.out), named by concern like
# the C files (src/) and the pgTAP tests (test/): generators*, diag_*,
# walscan, collector*, bench_*, citus, upgrade.
#
# REGRESS: against a running server (make installcheck).  They need the
# contrib modules dblink, pgstattuple and, on 15+, pg_walinspect, and the test
# module (make install-test-module).
REGRESS = generators generators_striped generators_time_keys generators_time_range generators_text \
	diag_shape diag_newest diag_splits diag_explain_writes walscan \
	collector_not_preloaded diag_report_not_preloaded bench_insert bench_load bench_locality bench_serializable bench_security \
	bench_limits bench_channel citus upgrade
REGRESS_OPTS = --load-extension=$(EXTENSION)

# ISOLATION: isolation specs (specs/NAME.spec, expected/NAME.out) for what
# needs a forced interleaving of sessions; make installcheck runs them after
# REGRESS.
ISOLATION = generators_striped_sessions diag_extend_waits diag_explain_writes_concurrent diag_report_locks bench_interrupts bench_overlap bench_lock_wait bench_cap_race
ISOLATION_OPTS = --load-extension=$(EXTENSION)

# PRELOAD_REGRESS: the suites that need server settings of their own: the
# collector's (the library preloaded; collector_churn with 4,000 cycles of DDL
# churn; collector_walrel without autovacuum), diag_minimal (wal_level = minimal),
# diag_report (write_path_report's scenarios, the library preloaded),
# diag_report_owner_code (the report against a hostile table owner, with a
# small lock table), generators_striped_reuse (two
# connection slots) and generators_striped_procs (about 8,300 process
# slots).  make installcheck-preload runs each in a temporary instance that pg_regress starts (--temp-instance)
# with the settings of sql/NAME.conf (--temp-config), under CHECK_DIR; like
# initdb, it must not run as root.
PRELOAD_REGRESS = collector collector_limits collector_detail collector_churn collector_walrel collector_ssi diag_minimal diag_report \
	diag_report_owner_code \
	generators_striped_reuse generators_striped_procs
# PRELOAD_ISOLATION: the same for isolation specs (specs/NAME.spec,
# expected/NAME.out): pg_isolation_regress, which takes pg_regress's options,
# starts the instance with the settings of specs/NAME.conf, beside the spec.
# collector_episodes and collector_detail_waits: the waits that concurrent
# sessions force while the collector (the library preloaded) samples them;
# diag_report_s2: write_path_report's S2 from loaders queued that way.  Each suite's and spec's
# results and regression.diffs are in CHECK_DIR/NAME-out.
PRELOAD_ISOLATION = collector_episodes collector_detail_waits collector_readers diag_report_s2 diag_report_s5
CHECK_DIR ?= tmp_check

EXTRA_CLEAN = results regression.diffs regression.out tmp_check .build-for-pg \
	ordered_uuid_sql.sql ordered_uuid_sql.pgtle.sql ordered_uuid_sql--*.sql

PG_CONFIG ?= pg_config

# test, demo, meta and check-meta set up everything themselves (test and demo
# fetch PostgreSQL): PGXS is read only when some other goal, or none, is asked
# for, so `make test` works without a pg_config and `make test installcheck`
# works with one.
NO_PGXS_GOALS = test demo meta check-meta sql-edition check-sql-edition
ifeq ($(and $(MAKECMDGOALS),$(if $(filter-out $(NO_PGXS_GOALS),$(MAKECMDGOALS)),,only)),)
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)
ifeq ($(PGXS),)
$(error cannot run "$(PG_CONFIG) --pgxs": set PG_CONFIG to the pg_config of the PostgreSQL to build for, e.g. make PG_CONFIG=/usr/lib/postgresql/17/bin/pg_config (see doc/install.md))
endif
ifeq ($(wildcard $(PGXS)),)
$(error $(PG_CONFIG) names $(PGXS), which does not exist: install the PostgreSQL server development package (see doc/install.md))
endif
# The PGXS makefiles alone do not make a build: Debian's postgresql-client-NN
# ships them (for make installcheck), libpq-dev a pg_config, and only
# postgresql-server-dev-NN the server's headers.  Say so before the compiler
# does, unless every goal is one that compiles nothing.
NO_HEADERS_GOALS = clean distclean maintainer-clean uninstall uninstall-test-module clean-test-module \
	installcheck installcheck-preload check-test-module dist
ifneq ($(or $(filter-out $(NO_HEADERS_GOALS),$(MAKECMDGOALS)),$(if $(MAKECMDGOALS),,all)),)
PG_SERVER_INCLUDEDIR := $(shell $(PG_CONFIG) --includedir-server 2>/dev/null)
ifeq ($(wildcard $(PG_SERVER_INCLUDEDIR)/postgres.h),)
PG_MAJOR_SEEN := $(shell $(PG_CONFIG) --version 2>/dev/null | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')
$(error $(PG_CONFIG) (PostgreSQL $(PG_MAJOR_SEEN)) has no server headers: $(PG_SERVER_INCLUDEDIR)/postgres.h does not exist. Install them (Debian, Ubuntu: postgresql-server-dev-$(PG_MAJOR_SEEN); other platforms: doc/install.md) and name that PostgreSQL's pg_config, on Debian make PG_CONFIG=/usr/lib/postgresql/$(PG_MAJOR_SEEN)/bin/pg_config)
endif
endif
include $(PGXS)

# A build is for one PostgreSQL: the objects depend on a stamp that names it
# (its PGXS path and version), rewritten only when they change, so that
# `make PG_CONFIG=<another>` after a build for one version rebuilds everything
# rather than install objects compiled against the other one.
PG_STAMP = .build-for-pg
$(OBJS) $(OBJS:.o=.bc): $(PG_STAMP)
$(PG_STAMP): check-pg-stamp
	@echo '$(PGXS) $(VERSION)' | cmp -s - $@ || echo '$(PGXS) $(VERSION)' >$@
check-pg-stamp:

# make uninstall: PGXS removes DOCS under their paths here (monitoring/...),
# but installs them by their names alone: remove those.
uninstall: uninstall-docs
uninstall-docs:
	rm -f $(addprefix '$(DESTDIR)$(docdir)/$(docmoduledir)'/, $(notdir $(DOCS)))

# The tests' output must not depend on the machine's speed: no benchmark
# progress NOTICEs (every 5 s of a phase) in it.
installcheck installcheck-preload: export PGOPTIONS += -c ordered_uuid.bench_progress=off

# PostgreSQL 19 and later only: explain_writes' full-page images beside
# pg_stat_wal.wal_fpi_bytes (diag_explain_writes_fpi, autovacuum off), and
# extend_lock_stats beside pg_stat_lock (collector_lock_stats, the library
# preloaded): both views are new in 19.
ifeq ($(filter 14 15 16 17 18,$(MAJORVERSION)),)
PRELOAD_REGRESS += diag_explain_writes_fpi
PRELOAD_ISOLATION += collector_lock_stats
endif

$(EXTENSION)--$(EXTVERSION).sql: $(sort $(wildcard extension/*.sql)) $(EXTENSION).control
	sed 's/@VERSION@/$(EXTVERSION)/g' $(sort $(wildcard extension/*.sql)) > $@

ifneq ($(FROZEN),)
all: check-frozen
endif
# Lines that start with "--" are comments outside any statement: they may
# change; everything else must be what was released.
.PHONY: check-frozen
check-frozen:
	@sed 's/@VERSION@/$(EXTVERSION)/g' $(sort $(wildcard extension/*.sql)) | grep -v '^--' >check-frozen.tmp; \
	grep -v '^--' $(FROZEN) | cmp -s - check-frozen.tmp; status=$$?; rm -f check-frozen.tmp; \
	[ $$status = 0 ] || { \
		echo "extension/*.sql no longer assemble to $(FROZEN), the install script of the released SQL version $(EXTVERSION): an SQL change needs a new version (see doc/development.md)" >&2; \
		exit 1; }

installcheck-preload:
	@status=0; for t in $(PRELOAD_REGRESS); do \
		$(pg_regress_installcheck) $(REGRESS_OPTS) --no-locale --encoding=UTF8 \
			--temp-instance='$(CHECK_DIR)/'$$t --temp-config='$(srcdir)/sql/'$$t.conf \
			--outputdir='$(CHECK_DIR)/'$$t-out $$t || status=1; \
	done; \
	for t in $(PRELOAD_ISOLATION); do \
		$(pg_isolation_regress_installcheck) $(ISOLATION_OPTS) --no-locale --encoding=UTF8 \
			--temp-instance='$(CHECK_DIR)/'$$t --temp-config='$(srcdir)/specs/'$$t.conf \
			--outputdir='$(CHECK_DIR)/'$$t-out $$t || status=1; \
	done; exit $$status

# The SQL edition's suites (sql/sql_edition*.sql; scripts/test-sql-edition.sh
# runs them on a server of its own), against a running server with the C
# edition's library, pgstattuple and dblink installed: both editions side by
# side, the SQL edition installed by a role that is not a superuser.  First
# the files they install: this version's (make sql-edition), and a synthetic
# earlier version (SQL_EDITION_PREV, this one without uuid_time_decoder) with
# this version's files that update it (tmp_check/sql-edition/).
# SQL_EDITION_PGTLE=1 adds sql_edition_pgtle, for a server with pg_tle
# preloaded and installed.
SQL_EDITION_VERSION = $(shell sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" sql-edition/ordered_uuid_sql.control)
SQL_EDITION_PREV = 1.5.99
# the last release of the SQL edition before this version, updated along the
# real steps of sql-edition/upgrade/ (its plain file: tmp_check/sql-edition/released/)
SQL_EDITION_RELEASED = 1.6.0
SQL_EDITION_REGRESS = sql_edition sql_edition_striped sql_edition_ranges sql_edition_upgrade
ifneq ($(SQL_EDITION_PGTLE),)
SQL_EDITION_REGRESS += sql_edition_pgtle
endif
installcheck-sql-edition: sql-edition-test-files
	$(pg_regress_installcheck) --outputdir='$(CHECK_DIR)/sql-edition-out' $(SQL_EDITION_REGRESS)
sql-edition-test-files:
	@python3 scripts/sql_edition.py >/dev/null
	@rm -rf tmp_check/sql-edition && mkdir -p tmp_check/sql-edition/upgrade
	@python3 scripts/sql_edition.py --version $(SQL_EDITION_PREV) --without 'uuid_time_decoder(text)' \
		--frozen-dir tmp_check/sql-edition/none --out tmp_check/sql-edition/prev >/dev/null
	@python3 scripts/sql_edition.py --only 'uuid_time_decoder(text)' \
		>tmp_check/sql-edition/upgrade/ordered_uuid_sql--$(SQL_EDITION_PREV)--$(SQL_EDITION_VERSION).sql
	@python3 scripts/sql_edition.py --frozen-dir tmp_check/sql-edition/upgrade --out tmp_check/sql-edition/next >/dev/null
	@python3 scripts/sql_edition.py --out tmp_check/sql-edition/this >/dev/null
	@python3 scripts/sql_edition.py --released $(SQL_EDITION_RELEASED) --out tmp_check/sql-edition/released >/dev/null

# The test module (test/module): C functions that only the tests use.
install-test-module:
	$(MAKE) -C test/module install PG_CONFIG='$(PG_CONFIG)'
uninstall-test-module:
	$(MAKE) -C test/module uninstall PG_CONFIG='$(PG_CONFIG)'

clean: clean-test-module
clean-test-module:
	$(MAKE) -C test/module clean PG_CONFIG='$(PG_CONFIG)'

# REGRESS needs the test module: say so at once rather than in two diffs.
installcheck: check-test-module
check-test-module:
	@test -f '$(DESTDIR)$(pkglibdir)/ordered_uuid_test$(DLSUFFIX)' || \
		{ echo "make installcheck: the test module is not installed: run make install-test-module (PG_CONFIG=$(PG_CONFIG)) first" >&2; exit 1; }

# The bundle is `git archive` of a commit: files marked export-ignore in
# .gitattributes (development only) stay out.  It is written under a temporary
# name first, so that a failure leaves no partial zip behind.
DIST_REF ?= HEAD
DIST_ZIP ?= $(EXTENSION)-$(RELEASE).zip
dist:
	@if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1 || [ -n "$$(git rev-parse --show-prefix)" ]; then \
		echo "make dist: $(CURDIR) is not the top of a git checkout of $(EXTENSION): the bundle is made by git archive from a clone of the repository" >&2; \
		exit 1; \
	fi
	@python3 scripts/meta.py --check $(RELEASE) $(EXTVERSION)
	@if [ "$(DIST_REF)" = HEAD ] && [ -n "$$(git status --porcelain --untracked-files=no)" ]; then \
		echo "make dist: warning: uncommitted changes are not in the bundle (it is HEAD)" >&2; \
	fi
	@rm -f '$(DIST_ZIP).tmp'
	@git archive --format zip --prefix=$(EXTENSION)-$(RELEASE)/ -o '$(DIST_ZIP).tmp' $(DIST_REF) || \
		{ rm -f '$(DIST_ZIP).tmp'; exit 1; }
	@mv -f '$(DIST_ZIP).tmp' '$(DIST_ZIP)'
	@echo "$(DIST_ZIP)"

.PHONY: installcheck-preload install-test-module uninstall-test-module clean-test-module \
	check-test-module dist check-pg-stamp uninstall-docs installcheck-sql-edition sql-edition-test-files
endif

test:
	./scripts/test.sh
# The SQL edition (sql-edition/, doc/sql-edition.md): generated from
# extension/*.sql and sql-edition/*.sql by scripts/sql_edition.py, which
# also checks that every object of the C edition is accounted for and that a
# released version's frozen script (sql-edition/upgrade/) still assembles.
sql-edition:
	@python3 scripts/sql_edition.py
check-sql-edition:
	@python3 scripts/sql_edition.py --check
demo:
	./scripts/demo.sh
meta:
	python3 scripts/meta.py --write $(RELEASE) $(EXTVERSION)
check-meta:
	python3 scripts/meta.py --check $(RELEASE) $(EXTVERSION)
.PHONY: test demo meta check-meta sql-edition check-sql-edition
