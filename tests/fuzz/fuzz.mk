# SPDX-License-Identifier: GPL-2.0-or-later
# fuzz.mk - the fuzz targets, included by the Makefile (docs/fuzzing.md).
#
# `make fuzz [FUZZ_S=60] [FUZZ_TARGETS="vmstat perf"] [FUZZ_JOBS=2]` builds
# each tests/fuzz/fuzz_NAME.c (or those FUZZ_TARGETS names) with clang and
# libFuzzer under ASan+UBSan and runs it FUZZ_S seconds on
# tests/fuzz/corpus/NAME/, FUZZ_JOBS targets at a time, keeping crash
# inputs in tests/fuzz/crashes/NAME/; the figures of each target end up
# in build/fuzz/summary.txt. `make check` links each target with replay.c
# by $(CC) and ASan+UBSan instead, and runs it once on every corpus and
# crash input, so those stay regression tests where clang is missing.

FUZZ_S ?= 60
FUZZ_JOBS ?= 1
# Where the targets that read files write their inputs; empty: /dev/shm
# when it is a tmpfs (run-fuzz.sh).
FUZZ_TMPDIR ?=
FUZZ_CC ?= clang
FUZZ_SOURCES := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(FUZZ_SOURCES))
FUZZ_TARGETS ?= $(FUZZ_NAMES)
FUZZ_BINS := $(addprefix build/fuzz/fuzz_,$(FUZZ_TARGETS))
FUZZ_REPLAYS := $(addprefix build/asan/fuzz/replay_,$(FUZZ_NAMES))
# Only what the targets reach: the base layer, analysis, the option parser,
# the conninfo checks and oltpmark_meta reader of the PostgreSQL access
# layer, the device part of the layout map (pglayout), the I/O profile
# reader, --keying-think and the split of checks.sql (with the embedded
# SQL it is linked against), and run/hooks.tsv as embedded (evsource.c).
FUZZ_LIB_SOURCES := $(sort $(wildcard src/base/*.c analysis/*/*.c)) \
	src/cmd/opt.c drivers/pgconn.c drivers/pgconn_query.c drivers/pglayout.c \
	drivers/iosim_profile.c terminals/pacing.c src/load/check.c \
	build/gen/schema_sql.c build/gen/evsource_tsv.c
FUZZ_OBJS := $(patsubst %.c,build/fuzz/obj/%.o,$(FUZZ_LIB_SOURCES))
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
# clang warns of string literals concatenated inside an array initializer,
# which the tree does on purpose for long messages; gcc has no such warning.
FUZZ_CFLAGS := -O1 -g -Wno-string-concatenation

FORMAT_FILES += $(wildcard tests/fuzz/*.c tests/fuzz/*.h)
SHELL_SCRIPTS += tests/fuzz/run-fuzz.sh

.PHONY: fuzz fuzz-run

fuzz:
	$(Q)bash run/install-deps check
	$(Q)$(MAKE) --no-print-directory configured
	$(Q)$(MAKE) --no-print-directory fuzz-run

FUZZ_UNKNOWN := $(filter-out $(FUZZ_NAMES),$(FUZZ_TARGETS))

ifneq ($(FUZZ_UNKNOWN),)
fuzz-run:
	@echo "make fuzz: no target $(FUZZ_UNKNOWN) (there are: $(FUZZ_NAMES))" >&2
	@exit 2
else ifeq ($(HAVE_LIBFUZZER),yes)
fuzz-run: $(FUZZ_BINS)
	$(Q)FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_TMPDIR=$(FUZZ_TMPDIR) \
		bash tests/fuzz/run-fuzz.sh $(FUZZ_S) $(FUZZ_BINS)
else
fuzz-run:
	@echo "make fuzz: no clang with libFuzzer (Debian: clang libclang-rt-14-dev); rerun ./configure after installing" >&2
	@exit 2
endif

build/fuzz/obj/%.o: %.c $(wildcard config.mk)
	@mkdir -p $(dir $@)
	@echo "  CC-FUZZ $<"
	$(Q)$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_CFLAGS) $(FUZZ_SAN) \
		-fsanitize=fuzzer-no-link $(DEPFLAGS) -c -o $@ $<

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	$(Q)$(FUZZ_CC) $(BASE_CFLAGS) $(FUZZ_CFLAGS) $(FUZZ_SAN) \
		-fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(LIBS)

build/asan/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c \
		tests/fuzz/fuzz.h $(ASAN_LIB)
	@mkdir -p $(dir $@)
	@echo "  REPLAY  $@"
	$(Q)$(CC) $(BASE_CFLAGS) $(ASAN_CFLAGS) $(SAN_FLAGS) -o $@ $< \
		tests/fuzz/replay.c $(ASAN_LIB) $(LIBS)

# make check replays the corpora and crash inputs (tests/run-tests.sh).
check-run: $(FUZZ_REPLAYS)

# Made by a pattern rule only: keep them, or make deletes them after a link.
.SECONDARY: $(FUZZ_OBJS)

-include $(FUZZ_OBJS:.o=.d)
