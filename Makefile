# SPDX-License-Identifier: GPL-2.0-or-later
# oltpmark build. Every .c under src/ drivers/ terminals/ analysis/ goes into
# the one binary; each tests/unit/test_*.c becomes its own test program.
# Quiet unless V=1.

-include config.mk
include VERSION.mk

ifeq ($(V),1)
Q :=
else
Q := @
endif

CC ?= cc
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -I. -Ibuild/gen -Wall -Wextra -Werror \
	-pthread $(PQ_CFLAGS) $(JANSSON_CFLAGS)
CFLAGS ?= -O2 -g
# The sanitizer build (make check's unit tests and fuzz replays) at -O1,
# as the AddressSanitizer documentation advises for usable speed: it
# compiles a quarter faster than -O2 here, and make check is CPU-bound.
ASAN_CFLAGS ?= -O1 -g
LIBS := $(PQ_LIBS) $(JANSSON_LIBS) -pthread -lm
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined

# Each layer is a folder; docs/hacking.md says which may include which.
SRC_DIRS := src/base src/cmd src/load src/probe drivers terminals \
	analysis/parsers analysis/common analysis/report analysis/compare
SOURCES := $(sort $(wildcard $(addsuffix /*.c,$(SRC_DIRS))))
# The SQL the binary runs, one C string each (src/load/schema_sql.h).
# schema/foreign_keys.sql is not: no command runs it, a person applies it
# by hand after a load (docs/schema.md says why it is not the default).
SCHEMA_SQL := $(addprefix schema/,tables.sql meta.sql indexes.sql \
	functions.sql checks.sql analyze.sql)
# run/hooks.tsv, the evidence sources, as one C string (evsource.h).
GEN_SOURCES := build/gen/schema_sql.c build/gen/evsource_tsv.c
OBJS := $(patsubst %.c,build/obj/%.o,$(SOURCES) $(GEN_SOURCES))
ASAN_OBJS := $(patsubst %.c,build/asan/%.o,$(SOURCES) $(GEN_SOURCES))
LIB_OBJS := $(filter-out build/obj/src/cmd/main.o,$(OBJS))
ASAN_LIB_OBJS := $(filter-out build/asan/src/cmd/main.o,$(ASAN_OBJS))
# The unit tests link this archive, not every object: the linker takes
# only the members a test needs, and 80 links of every sanitized object
# were a third of the test programs' build time.
ASAN_LIB := build/asan/liboltpmark.a
UNIT_SOURCES := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(patsubst tests/unit/%.c,build/asan/tests/%,$(UNIT_SOURCES))
BENCH_SOURCES := $(sort $(wildcard tests/bench/bench_*.c))
BENCH_BINS := $(patsubst tests/bench/%.c,build/bench/%,$(BENCH_SOURCES))
SHELL_SCRIPTS := configure run/pg run/oltpmark-run run/lib.sh run/demo \
	run/state.sh run/devices.sh run/plan.sh run/sut.sh run/sut-ssh.sh \
	run/sut-run.sh run/sut-exec run/drivers.sh \
	run/install-deps run/array run/oltpmark-boots run/oltpmark-bisect-step \
	run/boot-kernel contrib/oltpmark-run tests/bench/drivers-notpm \
	contrib/bash-completion/oltpmark \
	$(wildcard run/hooks/*) $(wildcard run/variants/*) \
	$(wildcard tests/*.sh) $(wildcard tests/integration/*.bash) .ci/run \
	$(wildcard tests/bench/*.sh)
DEPFLAGS = -MMD -MP

.PHONY: all configured check check-run bench bench-run demo install \
	install-files clean format format-check shellcheck

# config.mk has no rule of its own: make would then try to remake it before
# anything else, before `make check` or `make demo` had a chance to install
# what configure needs. These targets configure first, then build in a
# sub-make that reads the fresh config.mk.
all: configured
	$(Q)$(MAKE) --no-print-directory oltpmark

configured:
	$(Q)if [ ! -f config.mk ] || [ configure -nt config.mk ] || \
		[ VERSION.mk -nt config.mk ]; then ./configure; fi

oltpmark: $(OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $(OBJS) $(LIBS)

build/asan/oltpmark: $(ASAN_OBJS)
	@echo "  LINK    $@"
	$(Q)$(CC) $(BASE_CFLAGS) $(ASAN_CFLAGS) $(SAN_FLAGS) -o $@ $(ASAN_OBJS) $(LIBS)

build/obj/%.o: %.c $(wildcard config.mk)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

build/asan/%.o: %.c $(wildcard config.mk)
	@mkdir -p $(dir $@)
	@echo "  CC-SAN  $<"
	$(Q)$(CC) $(BASE_CFLAGS) $(ASAN_CFLAGS) $(SAN_FLAGS) $(DEPFLAGS) -c -o $@ $<

# The SQL files become C strings so the binary needs no data directory.
build/gen/schema_sql.c: $(SCHEMA_SQL) tests/embed-sql.sh
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)bash tests/embed-sql.sh $(SCHEMA_SQL) > $@.tmp && mv $@.tmp $@

build/gen/evsource_tsv.c: run/hooks.tsv tests/embed-tsv.sh
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)bash tests/embed-tsv.sh $< > $@.tmp && mv $@.tmp $@

build/obj/build/gen/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -c -o $@ $<

build/asan/build/gen/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(BASE_CFLAGS) $(ASAN_CFLAGS) $(SAN_FLAGS) -c -o $@ $<

$(ASAN_LIB): $(ASAN_LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $(ASAN_LIB_OBJS)

build/asan/tests/%: tests/unit/%.c $(ASAN_LIB) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	@echo "  TEST    $@"
	$(Q)$(CC) $(BASE_CFLAGS) $(ASAN_CFLAGS) $(SAN_FLAGS) -o $@ $< \
		$(ASAN_LIB) -lcmocka $(LIBS)

build/bench/%: tests/bench/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  BENCH   $@"
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

# make check: the sanitizer build and every test; ends with
# "N passed, N failed". The two builds and the test programs are many
# small independent compiles: one job per CPU (CHECK_JOBS to change it).
# tests/run-tests.sh runs the tests themselves several at a time.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
check:
	$(Q)bash run/install-deps check
	$(Q)$(MAKE) --no-print-directory configured
	$(Q)$(MAKE) --no-print-directory -j$(CHECK_JOBS) check-run

check-run: oltpmark build/asan/oltpmark $(UNIT_BINS)
	$(Q)bash tests/run-tests.sh $(UNIT_BINS)

bench:
	$(Q)bash run/install-deps demo
	$(Q)$(MAKE) --no-print-directory configured
	$(Q)$(MAKE) --no-print-directory bench-run

bench-run: oltpmark $(BENCH_BINS)
	$(Q)bash tests/bench/run-bench.sh $(BENCH_BINS)

# run/demo installs, configures and builds by itself.
demo:
	$(Q)bash run/demo

# make soak: one long run (SOAK_S seconds, default an hour) that fails when
# oltpmark's memory or descriptors grow; not part of make check.
.PHONY: soak
SHELL_SCRIPTS += $(wildcard tests/soak/*.sh)
soak: configured
	$(Q)$(MAKE) --no-print-directory oltpmark
	$(Q)SOAK_S=$(SOAK_S) bash tests/soak/soak.sh

# make install (PREFIX from ./configure --prefix, default /usr/local; DESTDIR
# for staging): the binary and oltpmark-run on PATH, run/ in
# share/oltpmark with a link to the binary where run/oltpmark-run looks for
# it (beside run/, as ./oltpmark in a tree), the man page, bash completion
# and the docs. Configures first, like all, so PREFIX is the configured one.
PREFIX ?= /usr/local
INSTALL_DIRS := bin share/oltpmark share/man/man1 share/doc/oltpmark \
	share/bash-completion/completions

install: configured
	$(Q)$(MAKE) --no-print-directory install-files

install-files: oltpmark
	install -d $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALL_DIRS))
	install -m 755 oltpmark $(DESTDIR)$(PREFIX)/bin/oltpmark
	install -m 755 contrib/oltpmark-run $(DESTDIR)$(PREFIX)/bin/oltpmark-run
	rm -rf $(DESTDIR)$(PREFIX)/share/oltpmark/run
	cp -r run $(DESTDIR)$(PREFIX)/share/oltpmark/
	ln -sfn ../../bin/oltpmark $(DESTDIR)$(PREFIX)/share/oltpmark/oltpmark
	install -m 644 docs/oltpmark.1 $(DESTDIR)$(PREFIX)/share/man/man1/oltpmark.1
	install -m 644 README.md LICENSE docs/*.md \
		$(DESTDIR)$(PREFIX)/share/doc/oltpmark/
	install -m 644 contrib/bash-completion/oltpmark \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/oltpmark
	install -m 644 contrib/bash-completion/oltpmark \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/oltpmark-run

FORMAT_FILES = $(SOURCES) $(wildcard $(addsuffix /*.h,$(SRC_DIRS)) \
	tests/unit/*.h) $(UNIT_SOURCES) $(BENCH_SOURCES)

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	$(Q)bad=0; for f in $(FORMAT_FILES); do \
		clang-format "$$f" | cmp -s - "$$f" || { echo "needs format: $$f"; bad=1; }; \
	done; exit $$bad

# The bats files in their own dialect: shellcheck -s bats knows `run` and
# @test, and that bats ignores a `!` in the middle of a test.
shellcheck:
	$(Q)shellcheck -x -S style $(wildcard $(SHELL_SCRIPTS))
	$(Q)shellcheck -x -S style -s bats $(wildcard tests/integration/*.bats)

clean:
	rm -rf build oltpmark

# make fuzz, and the replay of the fuzz inputs by make check.
include tests/fuzz/fuzz.mk

-include $(OBJS:.o=.d) $(ASAN_OBJS:.o=.d)
