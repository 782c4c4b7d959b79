# Makefile for ordered_uuid (PGXS)
#
#   make && make install          build and install into the PostgreSQL that
#                                 pg_config (or PG_CONFIG=...) names
#   make installcheck             pg_regress against a running server
#   make installcheck-preload     the collector's tests, against a server with
#                                 shared_preload_libraries = 'ordered_uuid'
#   make installcheck-preload-limits  the collector's bounded-memory tests, with
#                                 ordered_uuid.max_entries = 4 as well
#   make installcheck-preload-detail  the detailed profile and history tests,
#                                 with those parts on (scripts/test-one.sh)
#   make test                     everything, on PostgreSQL 14-18 (scripts/test.sh)
#   make demo                     build, start a throwaway server, compare keys
#   make dist                     the PGXN release bundle of the committed tree
#                                 (a git checkout; DIST_REF=commit, DIST_ZIP=file)

EXTENSION = ordered_uuid
# The one place the version lives is ordered_uuid.control; META.json is
# checked against it (make check-meta) and rewritten by `make meta`.
EXTVERSION = $(shell sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" $(EXTENSION).control)

MODULE_big = $(EXTENSION)
OBJS = $(patsubst %.c,%.o,$(sort $(wildcard src/*.c)))
PG_CPPFLAGS = -I$(srcdir)/src -DOU_VERSION='"$(EXTVERSION)"'

# The install script is assembled from extension/*.sql, one file per concern.
DATA_built = $(EXTENSION)--$(EXTVERSION).sql
# Frozen install scripts of earlier releases and the upgrade scripts.
DATA = $(wildcard extension/upgrade/$(EXTENSION)--*.sql)

# sql/collector*.sql need shared_preload_libraries = 'ordered_uuid';
# sql/collector_limits*.sql also need ordered_uuid.max_entries = 4, and
# sql/collector_detail*.sql the detailed profile and the history on
# (scripts/test-one.sh starts a server for each set).
ALL_PRELOAD_TESTS = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/collector*.sql)))
PRELOAD_LIMITS_TESTS = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/collector_limits*.sql)))
PRELOAD_DETAIL_TESTS = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/collector_detail*.sql)))
PRELOAD_TESTS = $(filter-out $(PRELOAD_LIMITS_TESTS) $(PRELOAD_DETAIL_TESTS),$(ALL_PRELOAD_TESTS))
REGRESS = $(filter-out $(ALL_PRELOAD_TESTS),$(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql))))
REGRESS_OPTS = --load-extension=$(EXTENSION)

EXTRA_CLEAN = results regression.diffs regression.out

PG_CONFIG ?= pg_config

ifneq ($(filter test demo meta check-meta,$(MAKECMDGOALS)),)
# These set up everything themselves (including PostgreSQL): no PGXS needed.
test:
	./scripts/test.sh
demo:
	./scripts/demo.sh
meta:
	python3 scripts/meta.py --write $(EXTVERSION)
check-meta:
	python3 scripts/meta.py --check $(EXTVERSION)
.PHONY: test demo meta check-meta
else
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)
ifeq ($(PGXS),)
$(error cannot run "$(PG_CONFIG) --pgxs": set PG_CONFIG to the pg_config of the PostgreSQL to build for, e.g. make PG_CONFIG=/usr/lib/postgresql/17/bin/pg_config (see Installing in README.md))
endif
ifeq ($(wildcard $(PGXS)),)
$(error $(PG_CONFIG) names $(PGXS), which does not exist: install the PostgreSQL server development package (see Installing in README.md))
endif
include $(PGXS)

$(EXTENSION)--$(EXTVERSION).sql: $(sort $(wildcard extension/*.sql)) $(EXTENSION).control
	sed 's/@VERSION@/$(EXTVERSION)/g' $(sort $(wildcard extension/*.sql)) > $@

installcheck-preload:
	$(pg_regress_installcheck) $(REGRESS_OPTS) $(PRELOAD_TESTS)

installcheck-preload-limits:
	$(pg_regress_installcheck) $(REGRESS_OPTS) $(PRELOAD_LIMITS_TESTS)

installcheck-preload-detail:
	$(pg_regress_installcheck) $(REGRESS_OPTS) $(PRELOAD_DETAIL_TESTS)

print-preload-tests:
	@echo $(PRELOAD_TESTS)

print-preload-limits-tests:
	@echo $(PRELOAD_LIMITS_TESTS)

print-preload-detail-tests:
	@echo $(PRELOAD_DETAIL_TESTS)

# The bundle is `git archive` of a commit: files marked export-ignore in
# .gitattributes (development only) stay out.  It is written under a temporary
# name first, so that a failure leaves no partial zip behind.
DIST_REF ?= HEAD
DIST_ZIP ?= $(EXTENSION)-$(EXTVERSION).zip
dist:
	@if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1 || [ -n "$$(git rev-parse --show-prefix)" ]; then \
		echo "make dist: $(CURDIR) is not the top of a git checkout of $(EXTENSION): the bundle is made by git archive from a clone of the repository" >&2; \
		exit 1; \
	fi
	@python3 scripts/meta.py --check $(EXTVERSION)
	@if [ "$(DIST_REF)" = HEAD ] && [ -n "$$(git status --porcelain --untracked-files=no)" ]; then \
		echo "make dist: warning: uncommitted changes are not in the bundle (it is HEAD)" >&2; \
	fi
	@rm -f '$(DIST_ZIP).tmp'
	@git archive --format zip --prefix=$(EXTENSION)-$(EXTVERSION)/ -o '$(DIST_ZIP).tmp' $(DIST_REF) || \
		{ rm -f '$(DIST_ZIP).tmp'; exit 1; }
	@mv -f '$(DIST_ZIP).tmp' '$(DIST_ZIP)'
	@echo "$(DIST_ZIP)"

.PHONY: installcheck-preload installcheck-preload-limits installcheck-preload-detail \
	print-preload-tests print-preload-limits-tests print-preload-detail-tests dist
endif
