# SPDX-License-Identifier: GPL-2.0-only
# hugezero: `make` builds the kernel, `make iso` the boot image,
# `make run` boots it in QEMU, `make test` runs every test.

BUILD := build
# `make` alone builds all, though rules (the tree stamp) come before it.
.DEFAULT_GOAL := all
# make HZ_TEST_PRIM=1 BUILD=DIR: lib/prims.h's test primitive, built in
# (tests/test_prim_row.py); never in a build that measures.
ifneq ($(HZ_TEST_PRIM),)
TEST_PRIM := -DHZ_TEST_PRIM
endif
PYTHON ?= /usr/bin/python3

# make LINUX=DIR: DIR/arch/x86/lib/clear_page_64.S's routines as primitives
# of their own, linux-SHORT (docs/linux-tree.md), assembled with our
# stand-in headers (arch/x86_64/linux-tree/include) into $(TREE);
# LINUX_ABI= names the convention of a routine whose name does not say it.
ifneq ($(LINUX),)
TREE_SRC := $(LINUX)/arch/x86/lib/clear_page_64.S
ifeq ($(wildcard $(TREE_SRC)),)
$(error LINUX=$(LINUX): no $(TREE_SRC): make LINUX= builds the clearing routines of a Linux tree's arch/x86/lib/clear_page_64.S)
endif
TREE := $(BUILD)/linux-tree
TREE_H := $(TREE)/tree_prims.h
# order=tree: DIR/mm/memory.c's zeroing over lib/tree_shim.h (tree_zero.c),
# compiled for the kernel and again in the companion; tree_zero.h says
# whether there is one (a tree without mm/memory.c has none).
TREE_ZERO_H := $(TREE)/tree_zero.h
TREE_GEN := $(TREE_H) $(TREE_ZERO_H)
# Given only to the files that fill the primitives' tables and that call
# the tree's zeroing (lib/prims_tree.h): every other object is the same
# with any tree or none, so a build against another tree compiles these
# alone again (and ccache, where there is one, gives back the rest).
TREE_INC := -include $(TREE_H) -include $(TREE_ZERO_H)
# rethunk= (docs/hardware.md, "Return thunks"): the tree's file again per
# copy of arch/x86_64/clear.c's RT_COPIES, its RET through that thunk.
RT_COPIES := rt_retbleed rt_srso rt_srso_alias rt_depth \
	rtc_retbleed rtc_srso rtc_srso_alias rtc_depth
TREE_RT_OBJS := $(patsubst %,$(TREE)/clear_page_64_%.o,$(RT_COPIES))
TREE_OBJS := $(TREE)/clear_page_64.o $(TREE_RT_OBJS) $(TREE)/tree_wrap.asm.o
TREE_KOBJS := $(TREE)/tree_zero.o
TREE_COBJS := $(TREE)/tree_zero.host.o
else ifneq ($(LINUX_ABI),)
$(error LINUX_ABI=$(LINUX_ABI) without LINUX=: it names the convention of a routine of the tree LINUX= builds)
endif
# Which tree, if any, this build directory holds: naming another (or
# none) rebuilds what it changes, never links objects of two, and says
# so in one line (`make LINUX=DIR; make run` rebuilds without the tree).
# Not for clean or setup, which build nothing.
TREE_STAMP := $(BUILD)/linux-tree.stamp
tree_of = $(if $(1),LINUX=$(1),no LINUX=)
ifneq ($(filter-out clean setup,$(or $(MAKECMDGOALS),all)),)
TREE_WAS := $(if $(wildcard $(TREE_STAMP)),$(shell cat $(TREE_STAMP)),$(LINUX))
ifneq ($(TREE_WAS),$(LINUX))
$(info make: $(BUILD)/ was built with $(call tree_of,$(TREE_WAS)); rebuilding it with \
$(call tree_of,$(LINUX)) (keep it: give $(call tree_of,$(TREE_WAS)) again, or each tree \
its own BUILD=))
endif
# A dry run (make -n) changes nothing: the next real one still says it.
# What LINUX_ABI= said of the old tree (linux-tree/linux-abi, for lava
# run) goes with it: scripts/linux-tree writes the new tree's.
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
$(shell mkdir -p $(BUILD) && { echo '$(LINUX)' | cmp -s - $(TREE_STAMP) || \
	{ echo '$(LINUX)' > $(TREE_STAMP); rm -f $(BUILD)/linux-tree/linux-abi; }; })
endif
endif
$(TREE_STAMP):
	@mkdir -p $(dir $@) && echo '$(LINUX)' > $@

# The source a build is of, for the boot record (hugezero_git): git
# describe, and for a tree with changes not committed a hash of them, so
# that compare knows two builds of one source (scripts/hzlib/control.py).
# Given to lib/benchrec.c alone, rebuilt when it changes (the stamp).
HZ_GIT := $(shell d=$$(git -C '$(CURDIR)' describe --always --dirty --abbrev=12 2>/dev/null) || \
	d=unknown; if [ "$${d%-dirty}" != "$$d" ]; then d=$$d-$$(git -C '$(CURDIR)' diff HEAD \
	2>/dev/null | sha256sum | cut -c1-8); fi; echo $$d)
HZ_GIT_STAMP := $(BUILD)/hugezero-git.stamp
ifneq ($(filter-out clean setup,$(or $(MAKECMDGOALS),all)),)
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
$(shell mkdir -p $(BUILD) && { echo '$(HZ_GIT)' | cmp -s - $(HZ_GIT_STAMP) || \
	echo '$(HZ_GIT)' > $(HZ_GIT_STAMP); })
endif
endif
$(HZ_GIT_STAMP):
	@mkdir -p $(dir $@) && echo '$(HZ_GIT)' > $@

# Every target's tools take the kernel, companion and images of this
# build (scripts/hzlib/paths.py): `make run BUILD=b` boots b's kernel.
export HZ_BUILD := $(abspath $(BUILD))

# One short line per step, as Kbuild prints them ("  CC      kernel/main.o");
# `make V=1` shows every command in full.
ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-7s %s\n' $(1) '$(2)';
endif

# A cross compiler when there is one, else the host's gcc in freestanding mode.
CROSS ?= $(shell command -v x86_64-elf-gcc >/dev/null 2>&1 && echo x86_64-elf-)
# Debian's ccache where it is installed (scripts/setup.sh installs it):
# make test builds the same sources in a dozen build directories and
# fresh clones.  Its hash leaves out the directory (the debug info names
# paths from the top of the tree: -fdebug-prefix-map), so two clones
# share their objects.  CCACHE= builds without it.
CCACHE ?= $(shell command -v ccache 2>/dev/null)
export CCACHE_NOHASHDIR := 1
CC := $(CCACHE) $(CROSS)gcc
LD := $(CROSS)ld
HOSTCC ?= gcc
HOSTCC_C := $(CCACHE) $(HOSTCC)
NASM ?= nasm
PREFIX_MAP := -fdebug-prefix-map=$(CURDIR)=.

KCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. \
	-ffreestanding -nostdlib -fno-pic -fno-pie -mno-red-zone \
	-mcmodel=kernel -fno-stack-protector -fno-omit-frame-pointer \
	-fno-optimize-sibling-calls -mno-mmx -mno-sse -mno-sse2 -mno-avx \
	-mno-80387 -fno-asynchronous-unwind-tables -fcf-protection=none $(TEST_PRIM) \
	$(PREFIX_MAP)
KLDFLAGS := -nostdlib -z max-page-size=0x1000 -z noexecstack -T linker.ld
NASMFLAGS := -f elf64 -g -F dwarf -I. $(TEST_PRIM)

BOOT_SRCS := $(wildcard boot/*.asm)
ARCH_ASM := $(wildcard arch/x86_64/*.asm)
ARCH_SRCS := $(wildcard arch/x86_64/*.c)
KERNEL_SRCS := $(wildcard kernel/*.c kernel/*/*.c)
LIB_SRCS := $(wildcard lib/*.c)
# .asm.o: clear.asm and clear.c both live in arch/x86_64/.
KOBJS := $(patsubst %.asm,$(BUILD)/k/%.asm.o,$(BOOT_SRCS) $(ARCH_ASM)) \
	$(patsubst %.c,$(BUILD)/k/%.o,$(ARCH_SRCS) $(KERNEL_SRCS) $(LIB_SRCS)) \
	$(TREE_OBJS) $(TREE_KOBJS)

HOSTCFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -I. \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -fno-builtin -Wno-format-zero-length \
	-include hosted/rename.h
HOST_TEST_SRCS := $(wildcard tests/host/*.c)

FORCE:
.PHONY: FORCE all iso netboot run test test-host test-barrier test-smp8 test-scale test-lab \
	setup clean bench
all: $(BUILD)/hugezero.elf $(BUILD)/hugezero-linux

$(BUILD)/k/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$*.o)
	$(Q)$(CC) $(KCFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/k/%.asm.o: %.asm boot/layout.inc arch/x86_64/calling.inc \
		arch/x86_64/clear_body.inc arch/x86_64/rethunk.inc
	@mkdir -p $(dir $@)
	$(call quiet,AS,$*.asm.o)
	$(Q)$(NASM) $(NASMFLAGS) $< -o $@

ifneq ($(LINUX),)
# -nostdinc: only our stand-ins; an unknown macro or directive reaches the
# assembler, which names the tree's file and line (--fatal-warnings: its
# warnings too).  It must refer to nothing it does not define (a macro
# used as an operand is such a symbol: scripts/linux-tree refuses it), so
# the kernel and the companion link the same object.
$(TREE)/clear_page_64.o: $(TREE_SRC) $(TREE_STAMP) $(wildcard arch/x86_64/linux-tree/include/*/*.h)
	@mkdir -p $(dir $@)
	$(call quiet,AS,$(TREE_SRC))
	$(Q)$(CC) -c -x assembler-with-cpp -nostdinc -Iarch/x86_64/linux-tree/include \
		-D__ASSEMBLY__ -Wa,--fatal-warnings -Wa,--noexecstack $< -o $@

# A copy's thunk (arch/x86_64/rethunk.inc): rt_KIND jumps to KIND's,
# rtc_KIND to the entry that counts, then jumps to it.
rt_thunk_retbleed := retbleed_return_thunk
rt_thunk_srso := srso_return_thunk
rt_thunk_srso_alias := srso_alias_return_thunk
rt_thunk_depth := call_depth_return_thunk
rt_thunk = $(if $(filter rtc_%,$(1)),rethunk_count_$(1:rtc_%=%),$(rt_thunk_$(1:rt_%=%)))
$(TREE_RT_OBJS): $(TREE)/clear_page_64_%.o: $(TREE_SRC) $(TREE_STAMP) $(wildcard arch/x86_64/linux-tree/include/*/*.h)
	@mkdir -p $(dir $@)
	$(call quiet,AS,$(TREE_SRC) [$*])
	$(Q)$(CC) -c -x assembler-with-cpp -nostdinc -Iarch/x86_64/linux-tree/include \
		-D__ASSEMBLY__ -DHZ_RT_SUFFIX=_$* -DHZ_RT_THUNK=$(call rt_thunk,$*) \
		$(if $(filter %_depth,$*),-DHZ_RT_DEPTH) \
		-Wa,--fatal-warnings -Wa,--noexecstack $< -o $@

# The tree's routines found by nm, one PRIMS_TREE row and wrapper each,
# and its provenance (version, git describe, sha256).  Run every time,
# since a git tree's state is no file to depend on; it rewrites only
# what changed, so only that is rebuilt.
$(TREE_H): $(TREE)/clear_page_64.o scripts/linux-tree scripts/hzlib/linuxtree.py FORCE
	$(Q)$(PYTHON) scripts/linux-tree prims $(CROSS)nm $< $(TREE_SRC) $(TREE) '$(LINUX_ABI)'
$(TREE)/tree_wrap.asm: $(TREE_H) ;

$(TREE)/tree_wrap.asm.o: $(TREE)/tree_wrap.asm arch/x86_64/linux-tree.inc
	$(call quiet,AS,$@)
	$(Q)$(NASM) $(NASMFLAGS) $< -o $@

# DIR/mm/memory.c's folio_zero_user() (or clear_huge_page()) and what it
# reaches, as text, over lib/tree_shim.h: refused, naming the tree's file
# and line, when it calls what the shim lacks.  Every time, as the
# primitives: only what changed is rewritten.
$(TREE_ZERO_H): scripts/linux-tree scripts/hzlib/treezero.py scripts/hzlib/memoryc.py \
		lib/tree_shim.h $(TREE_STAMP) FORCE
	$(Q)$(PYTHON) scripts/linux-tree zero $(LINUX) $(TREE) lib/tree_shim.h
$(TREE)/tree_zero.c: $(TREE_ZERO_H) ;

$(TREE)/tree_zero.o: $(TREE)/tree_zero.c $(TREE_GEN) lib/tree_shim.h lib/tree.h
	$(call quiet,CC,$@)
	$(Q)$(CC) $(KCFLAGS) $(TREE_INC) -MMD -MP -c $< -o $@

# The same for the companion.
$(TREE)/tree_zero.host.o: $(TREE)/tree_zero.c $(TREE_GEN) lib/tree_shim.h lib/tree.h
	$(call quiet,HOSTCC,$@)
	$(Q)$(HOSTCC_C) $(COMPANION_CFLAGS) $(TREE_INC) -MMD -MP -c $< -o $@
endif

$(BUILD)/hugezero.elf: $(KOBJS) linker.ld
	$(call quiet,LD,$@)
	$(Q)$(LD) $(KLDFLAGS) -o $@ $(KOBJS)
	@test ! -x scripts/hugezero || $(PYTHON) scripts/hugezero check-elf $@

$(BUILD)/iso/boot/grub/grub.cfg: grub.cfg
	@mkdir -p $(dir $@)
	$(Q)cp $< $@

$(BUILD)/hugezero.iso: $(BUILD)/hugezero.elf $(BUILD)/iso/boot/grub/grub.cfg
	$(call quiet,MKISO,$@)
	$(Q)cp $(BUILD)/hugezero.elf $(BUILD)/iso/boot/hugezero.elf
	$(Q)grub-mkrescue -o $@ $(BUILD)/iso 2>$(BUILD)/grub-mkrescue.log || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

iso: $(BUILD)/hugezero.iso

# A TFTP tree for PXE (BIOS: boot/grub/i386-pc/core.0) and UEFI network
# boot (boot/grub/x86_64-efi/core.efi), with the kernel and grub.cfg.
netboot: $(BUILD)/hugezero.elf grub.cfg
	rm -rf $(BUILD)/netboot
	grub-mknetdir --net-directory=$(BUILD)/netboot --subdir=boot/grub
	cp $(BUILD)/hugezero.elf $(BUILD)/netboot/boot/hugezero.elf
	cp grub.cfg $(BUILD)/netboot/boot/grub/grub.cfg

# The primitives are shared with the kernel and the Linux companion: the
# same NASM source and arch/x86_64/clear.c, assembled and compiled again.
HOST_SHARED := arch/x86_64/clear.c arch/x86_64/cpuid.c arch/x86_64/uart.c \
	arch/x86_64/rethunk.c
$(BUILD)/host/clear.o: arch/x86_64/clear.asm arch/x86_64/clear_body.inc \
		arch/x86_64/rethunk.inc
	@mkdir -p $(dir $@)
	$(call quiet,AS,$< [host])
	$(Q)$(NASM) -f elf64 -I. $(TEST_PRIM) -o $@ $<

# hosted/ files with no system call of their own (a test gives them fakes).
HOST_HOSTED := hosted/perf.c
$(BUILD)/host/unit: $(HOST_TEST_SRCS) $(LIB_SRCS) $(HOST_SHARED) $(HOST_HOSTED) \
		$(BUILD)/host/clear.o $(wildcard lib/*.h tests/host/*.h \
		arch/x86_64/clear.h arch/x86_64/uart.h hosted/perf.h)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC,$@)
	$(Q)$(HOSTCC) $(HOSTCFLAGS) -o $@ $(HOST_TEST_SRCS) $(LIB_SRCS) $(HOST_SHARED) \
		$(HOST_HOSTED) $(BUILD)/host/clear.o

# The Linux companion: hosted/ plus the kernel's own primitive, order,
# CPUID and record sources, compiled a second time for Linux, an object
# each (in $(BUILD)/c).
COMPANION_SRCS := $(wildcard hosted/*.c) $(LIB_SRCS) arch/x86_64/clear.c \
	arch/x86_64/cpuid.c arch/x86_64/rethunk.c
COMPANION_OBJS := $(patsubst %.c,$(BUILD)/c/%.o,$(COMPANION_SRCS)) $(TREE_COBJS)
COMPANION_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. -D_GNU_SOURCE \
	-fno-omit-frame-pointer -include hosted/rename.h $(TEST_PRIM) $(PREFIX_MAP)
$(BUILD)/c/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC,$*.o [companion])
	$(Q)$(HOSTCC_C) $(COMPANION_CFLAGS) -MMD -MP -c $< -o $@

# The files that take the tree's generated headers (TREE_INC above), in
# the kernel and in the companion.
TREE_USERS := lib/prims arch/x86_64/clear lib/tree
TREE_USER_OBJS := $(patsubst %,$(BUILD)/k/%.o,$(TREE_USERS)) \
	$(patsubst %,$(BUILD)/c/%.o,$(TREE_USERS))
$(patsubst %,$(BUILD)/k/%.o,$(TREE_USERS)): KCFLAGS += $(TREE_INC)
$(patsubst %,$(BUILD)/c/%.o,$(TREE_USERS)): COMPANION_CFLAGS += $(TREE_INC)
$(TREE_USER_OBJS): $(TREE_GEN) $(TREE_STAMP)
$(BUILD)/k/lib/benchrec.o: KCFLAGS += -DHZ_GIT='"$(HZ_GIT)"'
$(BUILD)/c/lib/benchrec.o: COMPANION_CFLAGS += -DHZ_GIT='"$(HZ_GIT)"'
$(BUILD)/k/lib/benchrec.o $(BUILD)/c/lib/benchrec.o: $(HZ_GIT_STAMP)

$(BUILD)/hugezero-linux: $(COMPANION_OBJS) $(BUILD)/host/clear.o $(TREE_OBJS)
	$(call quiet,LD,$@)
	$(Q)$(HOSTCC) -o $@ $(COMPANION_OBJS) $(BUILD)/host/clear.o $(TREE_OBJS) -pthread

$(BUILD)/hugezero-plain: hosted/plain/plain.c
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC,$@)
	$(Q)$(HOSTCC) -std=gnu11 -O2 -Wall -Wextra -Werror -o $@ $<

# HZ_NO_SETUP=1 (in the environment or on make's line): install
# nothing, only list what is missing (scripts/setup.sh --help).
setup:
	@scripts/setup.sh

# The main job: boot the quick matrix in QEMU, then print its report.
# With LINUX=DIR that has mm/memory.c (so a build has its zeroing, or
# fails), the tree's own zeroing as well: order=all,tree, so that a patch
# to mm/ shows in README's three commands as one to clear_page_64.S does.
comma := ,
QUICK_ORDER := $(if $(and $(LINUX),$(wildcard $(LINUX)/mm/memory.c)),all$(comma)linux$(comma)tree,all)
QUICK := bench=fault folio=2M clear=all order=$(QUICK_ORDER) size=64M runs=3 access=write
run: setup
	$(MAKE) --no-print-directory all iso
	$(PYTHON) scripts/hugezero boot --echo progress --log $(BUILD)/run.log -- $(QUICK)
	$(PYTHON) scripts/hugezero report $(BUILD)/run.log

# The split on this machine (under a minute): the companion's Linux
# demand faults, hugetlb and THP, each lead a round group of bare clearing
# over its own kind of memory for BENCH_SPLIT_RUNS rounds, so that split
# pairs each fault with the clearing by round; the rest of the bare
# matrix runs BENCH_RUNS passes, for the best.  The plain loops run after
# each round of hugetlb's group (--round-hook).  It reports only.
# docs/companion.md, "make bench".
BENCH_MB := 64
BENCH_RUNS := 5
BENCH_SPLIT_RUNS := 200
BENCH_ARGS := bench=split folio=2M size=$(BENCH_MB)M runs=$(BENCH_RUNS) \
	split_runs=$(BENCH_SPLIT_RUNS) warmups=1 probe=latency
# The hugetlb pages it faults are reserved as root (docs/companion.md).
# As root it runs as it is; as a user whose sudo asks no password now
# (`sudo -v` first), only the companion runs through `sudo -n`, while the
# build and both logs (opened by this shell before) stay the user's; else
# it runs as the user and says what that loses.
BENCH_RUN = $(BUILD)/hugezero-linux --round-hook "$(BUILD)/hugezero-plain $(BENCH_MB) >> \
	$(BUILD)/plain.log" $(BENCH_ARGS) > $(BUILD)/bench.log
bench: setup
	@[ "$$(id -u)" != 0 ] || [ -z "$${SUDO_USER:-}" ] || echo "make bench: run by sudo," \
		"what it builds in $(BUILD)/ is root's; as $$SUDO_USER, 'sudo -v && make bench'" \
		"runs only the companion as root"
	$(MAKE) --no-print-directory $(BUILD)/hugezero-linux $(BUILD)/hugezero-plain
	@: > $(BUILD)/plain.log
	@if [ "$$(id -u)" = 0 ]; then as=""; \
	elif sudo -n true 2>/dev/null; then as="sudo -n "; \
		echo "make bench: the companion as root through sudo -n, for its hugetlb pages"; \
	else as=""; echo "make bench: not root, and no sudo -n (no sudo, or it asks a" \
		"password: 'sudo -v' first): the 2M hugetlb configurations run only on pages" \
		"already free, else are skipped, saying what to reserve as root" >&2; \
	fi; \
	echo "$$as"'$(BENCH_RUN)'; $${as}$(BENCH_RUN)
	$(PYTHON) scripts/hugezero split $(BUILD)/bench.log --plain $(BUILD)/plain.log

# The barrier's host model (tests/host/barrier/): lib/barrier.c again,
# every access traced, under ThreadSanitizer, which cannot share a binary
# with the unit tests' AddressSanitizer.  make test-barrier runs it alone.
BARRIER_MODEL_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -I. \
	-fsanitize=thread -fno-omit-frame-pointer -DBARRIER_TRACE -pthread
$(BUILD)/host/barrier-model: tests/host/barrier/model.c lib/barrier.c \
		lib/barrier.h lib/types.h
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC,$@)
	$(Q)$(HOSTCC) $(BARRIER_MODEL_CFLAGS) -o $@ tests/host/barrier/model.c \
		lib/barrier.c

test-barrier: $(BUILD)/host/barrier-model
	$(BUILD)/host/barrier-model

test-host: $(BUILD)/host/unit $(BUILD)/host/barrier-model
	$(BUILD)/host/unit
	$(BUILD)/host/barrier-model

# Every test: host unit tests, then QEMU boots (SeaBIOS and OVMF, CD and USB).
# What the tests need is built on every core (tests/README.md, "What runs
# when"), unless make was given its own -j.
TEST_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))
test: setup
	$(MAKE) --no-print-directory $(TEST_JOBS) all iso $(BUILD)/host/unit $(BUILD)/hugezero-linux \
		$(BUILD)/hugezero-plain $(BUILD)/host/barrier-model
	$(PYTHON) tests/run.py

# Every boot of several CPUs again at 8 (tests/README.md): the check that
# they hold beyond TCG's 2-4 vCPUs, too slow for make test.
test-smp8: setup
	$(MAKE) --no-print-directory all iso
	HZ_SMP=8 $(PYTHON) tests/run.py

# The all-CPU path at 288 CPUs (q35, x2APIC, 2 GiB; tests/qemu_scale_cases.py):
# a few minutes of both cores under TCG, so not in make test (its 64 is).
test-scale: setup
	$(MAKE) --no-print-directory all iso
	HZ_SCALE=1 $(PYTHON) tests/run.py

# A real LAVA server on this machine (docs/lab.md, "A one-machine lab"):
# started, jobs run through it, stopped; each module skips, naming what
# is missing, without scripts/setup.sh --lab-server's packages.  Not in
# make test: a minute or more, root, and the server's port.  Their
# classes against the real server alone: the rest run in make test.  One
# server: test_lab_server's lifecycle runs test_lava_run's jobs on it.
test-lab:
	$(MAKE) --no-print-directory all iso
	HZ_LAB_SERVER=1 $(PYTHON) -m unittest tests.test_lab_server.RealServerTest \
		tests.test_lava_run.RealServerTest

clean:
	rm -rf $(BUILD)

-include $(KOBJS:.o=.d) $(COMPANION_OBJS:.o=.d)
