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
#   make dist                     the PGXN release bundle

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
PGXS := $(shell $(PG_CONFIG) --pgxs)
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

dist:
	python3 scripts/meta.py --check $(EXTVERSION)
	git archive --format zip --prefix=$(EXTENSION)-$(EXTVERSION)/ -o $(EXTENSION)-$(EXTVERSION).zip HEAD

.PHONY: installcheck-preload installcheck-preload-limits installcheck-preload-detail \
	print-preload-tests print-preload-limits-tests print-preload-detail-tests dist
endif
