# SPDX-License-Identifier: GPL-2.0
#
# fcq top-level Makefile.
#
#   make                 kernel modules (against KDIR) + tc plugins + tools
#   make check           every test: core unit tests, the three kernels'
#                        builds, guest tests on Debian 6.1, 6.12 and the
#                        newest Debian kernel (see README.md)
#   make modules K=newest   modules for one of tools/setup's kernels
#                        (K=6.1, 6.12, newest), or KDIR=/path/to/headers
#   make demo            the main job in a QEMU guest
#   make install         modules, tc plugins, tools (fcq-exp with its
#                        scripts, experiments and workloads), man pages,
#                        the Wireshark dissectors; DESTDIR stages it all
#                        (no depmod then), PREFIX (default /usr/local)
#                        for all but the tc plugins and dissectors, which
#                        go where Debian's tc and Wireshark look
#                        (TC_LIBDIR, WIRESHARK_LUADIR)
#   make uninstall       removes what make install listed in its manifest
#
# Kernel modules are built out of tree in a per-kernel shadow directory,
# build/kmod/<kernel release>/, so one checkout builds for several kernels.

# Make and kbuild split paths at spaces: say so rather than fail obscurely.
ifneq ($(word 2,$(CURDIR)),)
$(error this tree's path, "$(CURDIR)", has a space, and kbuild cannot build modules there: clone it to a path without one)
endif

FCQ_CACHE ?= /var/cache/fcq
-include $(FCQ_CACHE)/kernels.mk

# K=6.1|6.12|newest: one of the kernels tools/setup fetched (kernels.mk).
# A kernel whose toolchain bookworm lacks builds in its Debian build root
# (KROOT, tools/buildroot), where its headers (KDIR) are installed.
ifdef K
KDIR := $(KDIR_$(subst .,_,$(K)))
KROOT := $(KROOT_$(subst .,_,$(K)))
ifeq ($(KDIR),)
$(error K=$(K): no such kernel in $(FCQ_CACHE)/kernels.mk (6.1, 6.12, newest; run tools/setup))
endif
endif
# KDIR: the running kernel's headers when installed (a real host), else the
# Debian 6.1 headers package (what tools/setup installs).
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	$(KDIR_6_1) \
	$(lastword $(sort $(wildcard /usr/src/linux-headers-6.1.*-amd64))))
KROOT ?=
KBUILD = $(if $(KROOT),$(CURDIR)/tools/buildroot $(KROOT)) $(MAKE) -C $(KDIR)
KREL = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
	$(KROOT)$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
KOUT = $(CURDIR)/build/kmod/$(KREL)

# What Kbuild needs, mirrored into the shadow directory as symlinks.
KSRC := Kbuild core fcq include $(wildcard sch_*)

B := $(CURDIR)/build
CC ?= gcc
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Werror -Wno-unused-parameter
USER_CFLAGS := $(CFLAGS) $(WARN) -D_GNU_SOURCE -I$(CURDIR)/include -I$(CURDIR)
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

DESTDIR ?=
PREFIX ?= /usr/local
TC_LIBDIR ?= /usr/lib/x86_64-linux-gnu/tc
# not settable apart: fcq-exp finds its scripts and data as ../lib/fcq
# and ../share/fcq from where it is installed
SBINDIR := $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
# fcq-exp's scripts, and its experiments and workloads: fcq-exp finds them
# from where it is, as ../lib/fcq and ../share/fcq.
FCQ_LIBDIR := $(PREFIX)/lib/fcq
FCQ_DATADIR := $(PREFIX)/share/fcq
# Debian's global Lua plugin folder (`tshark -G folders`: Global Lua Plugins)
WIRESHARK_LUADIR ?= /usr/lib/x86_64-linux-gnu/wireshark/plugins

.PHONY: all modules plugins tools unit unit-bins test-modules check demo \
	install uninstall setup clean

all: modules plugins tools

setup:
	@tools/setup

modules:
	@test -n "$(KREL)" || { echo "no kernel headers at KDIR='$(KDIR)'" >&2; \
		echo "run tools/setup, or: make KDIR=/path/to/headers" >&2; exit 1; }
	@mkdir -p $(KOUT)
	@cp -rsf $(addprefix $(CURDIR)/,$(KSRC)) $(KOUT)/
	+$(KBUILD) M=$(KOUT) modules

# Test-only modules (never installed): see selftests/vm/.
test-modules:
	@mkdir -p $(KOUT)-test
	@cp -rsf $(CURDIR)/selftests/vm/modules/. $(KOUT)-test/
	+$(KBUILD) M=$(KOUT)-test modules

# ---- tc plugins: q_<kind>.so for Debian's own tc ---------------------------
PLUGIN_SRC := $(wildcard tc-plugins/q_*.c)
PLUGINS := $(patsubst tc-plugins/%.c,$(B)/tc/%.so,$(PLUGIN_SRC))
PLUGIN_CFLAGS := $(USER_CFLAGS) -fPIC -fvisibility=hidden

$(B)/tc/q_%.so: tc-plugins/q_%.c tc-plugins/fcq_opts.c tc-plugins/*.h \
		core/qhist.c core/qhist.h core/core.h include/uapi/linux/*.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -shared -o $@ $< tc-plugins/fcq_opts.c \
		core/qhist.c -lm

plugins: $(PLUGINS)

# ---- tools ------------------------------------------------------------------
TOOLS := $(B)/tools/fcq-frame $(B)/tools/fcqctl $(B)/tools/fcq-gen \
	$(B)/tools/fcq-net $(B)/tools/fcq-report $(B)/tools/fafcd \
	$(B)/tools/fcq-cnsim $(B)/tools/fcq-top
NL_CFLAGS := $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null)
NL_LIBS := $(shell pkg-config --libs libnl-genl-3.0 2>/dev/null)
JSON_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null)
JSON_LIBS := $(shell pkg-config --libs json-c 2>/dev/null)

$(B)/tools/fcq-frame: tools/fcq-frame.c core/frames.c core/key.c core/*.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ tools/fcq-frame.c core/frames.c core/key.c

# The guest suite frame-fuzz's sender (a test tool: not installed).
$(B)/selftests/frame_fuzz: selftests/net/frame_fuzz.c core/frames.c \
		core/key.c core/*.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ selftests/net/frame_fuzz.c core/frames.c \
		core/key.c

$(B)/tools/fcqctl: tools/fcqctl.c core/key.c core/*.h include/uapi/linux/fcq.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(NL_CFLAGS) -o $@ $< core/key.c $(NL_LIBS)

$(B)/tools/fcq-gen: tools/fcq-gen.c tools/cmd_usage.c tools/cmd_usage.h \
		tools/rate.c tools/rate.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $< tools/cmd_usage.c tools/rate.c -lm

$(B)/tools/fcq-net: tools/fcq-net.c tools/cmd_usage.c tools/cmd_usage.h \
		tools/rate.c tools/rate.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $< tools/cmd_usage.c tools/rate.c

$(B)/tools/fcq-report: tools/fcq-report.c tools/tstat.c tools/tstat.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(JSON_CFLAGS) -o $@ $< tools/tstat.c $(JSON_LIBS) -lm

$(B)/tools/fcq-cnsim: tools/fcq-cnsim.c tools/cnsim.c tools/cnsim.h \
		tools/tstat.c tools/tstat.h tools/rate.c tools/rate.h \
		core/dsm.c core/qcn.c core/*.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $< tools/cnsim.c tools/tstat.c tools/rate.c \
		core/dsm.c core/qcn.c -lm

$(B)/tools/fafcd: tools/fafcd.c tools/fafc_glpk.c tools/fafc_glpk.h \
		core/fafc.c core/*.h include/uapi/linux/*.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(NL_CFLAGS) -o $@ tools/fafcd.c tools/fafc_glpk.c \
		core/fafc.c $(NL_LIBS) -lglpk -lm

# fcq-top: its BPF programs built for the BPF target, embedded in the tool.
BPF_CLANG ?= clang
BPF_CFLAGS := -target bpf -O2 -g $(WARN) \
	-I/usr/include/$(shell $(CC) -dumpmachine)
BPF_LIBS := $(shell pkg-config --libs libbpf 2>/dev/null)
NL3_LIBS := $(shell pkg-config --libs libnl-3.0 2>/dev/null)

$(B)/tools/fcq_top.bpf.o: tools/fcq_top.bpf.c tools/fcq_top.h
	@mkdir -p $(dir $@)
	$(BPF_CLANG) $(BPF_CFLAGS) -c -o $@ $<

$(B)/tools/fcq-top: tools/fcq-top.c tools/fcq_top.h $(B)/tools/fcq_top.bpf.o \
		include/uapi/linux/fcq.h include/uapi/linux/qcn.h
	$(CC) $(USER_CFLAGS) $(NL_CFLAGS) \
		-DFCQ_TOP_BPF='"$(B)/tools/fcq_top.bpf.o"' -o $@ $< \
		$(BPF_LIBS) $(NL3_LIBS)

tools: $(TOOLS) $(B)/selftests/frame_fuzz

# ---- core/ unit tests: userspace, ASan + UBSan, TAP on stdout -------------
CORE_SRC := $(wildcard core/*.c)
UNIT_SRC := $(wildcard selftests/core/test_*.c)
UNIT_BIN := $(patsubst selftests/core/%.c,$(B)/unit/%,$(UNIT_SRC))

$(B)/unit/%: selftests/core/%.c $(CORE_SRC) $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN) -o $@ $< $(CORE_SRC) $(UNIT_LIBS) -lcmocka -lm

# The greedy against GLPK: links fafcd's GLPK solver.
$(B)/unit/test_fafc_glpk: tools/fafc_glpk.c tools/fafc_glpk.h
$(B)/unit/test_fafc_glpk: UNIT_LIBS := tools/fafc_glpk.c -lglpk

# DSM's tests run its paper's model (tools/cnsim.c) too.
$(B)/unit/test_dsm: tools/cnsim.c tools/cnsim.h
$(B)/unit/test_dsm: UNIT_LIBS := tools/cnsim.c

unit-bins: $(UNIT_BIN)

unit: unit-bins
	@rc=0; for t in $(UNIT_BIN); do \
		CMOCKA_MESSAGE_OUTPUT=TAP $$t || rc=1; done; exit $$rc

# ---- fuzzing: core/'s frame parsers under libFuzzer, ASan + UBSan --------
# make check runs each for 15 s (selftests/fuzz/run.sh); make fuzz for
# FUZZ_S seconds each, the corpus kept in build/fuzz/corpus.
FUZZ_CC ?= clang
FUZZ_TARGETS := macctl ext cnm key
FUZZ_BIN := $(patsubst %,$(B)/fuzz/fuzz_%,$(FUZZ_TARGETS))
FUZZ_S ?= 600
FUZZ_SRC := core/frames.c core/key.c

$(B)/fuzz/fuzz_%: selftests/fuzz/fuzz_frames.c $(FUZZ_SRC) $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 $(WARN) -D_GNU_SOURCE -I$(CURDIR)/include -I$(CURDIR) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-DFUZZ_$(shell echo $* | tr a-z A-Z) -o $@ $< $(FUZZ_SRC)

$(B)/fuzz/seeds: selftests/fuzz/seeds.c $(FUZZ_SRC) $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $< $(FUZZ_SRC)

.PHONY: fuzz-bins fuzz
fuzz-bins: $(FUZZ_BIN) $(B)/fuzz/seeds

fuzz: fuzz-bins
	@selftests/fuzz/run.sh $(FUZZ_S)

check: setup
	@selftests/check

demo: setup
	@tools/demo

# The papers' experiments whose results the docs report, each in guests
# on each of KERNELS (results in build/exp/NAME-KERNEL); REPRO names the
# files of experiments/ (without .exp). A run judged untrusted (fcq-exp
# exit 3) is reported, not fatal.
.PHONY: repro
REPRO ?= ofc-fig1 ofc-ring flowsail-e1 flowsail-e2 flowsail-e2-udp flowsail-e3 \
	flowsail-e4 flowsail-e4-extreme qcn-a qcn-b qcn-b-stop qcn-a-2stage qcn-b-2stage \
	qcn-a-2stage-stop dsm-e1-100us dsm-e1-300us dsm-e1-500us dsm-e2 dsm-e3 dsm-e4
repro: setup
	@for k in $(KERNELS); do for e in $(REPRO); do \
		echo "repro: $$e on $$k"; \
		tools/fcq-exp --kernel $$k --out build/exp/$$e-$$k \
			experiments/$$e.exp; r=$$?; \
		[ $$r = 0 ] || [ $$r = 3 ] || exit $$r; done; done

# The benchmark (Documentation/performance.rst): KERNELS="6.1 6.12" for both.
.PHONY: bench
KERNELS ?= 6.1
$(B)/bench/fcq-blast: selftests/bench/fcq-blast.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $<

bench: setup plugins tools $(B)/bench/fcq-blast
	@tools/bench --kernels "$(KERNELS)"

# ---- install, uninstall ----------------------------------------------------
# Everything goes under $(DESTDIR); a package stages it there, and its
# postinst runs depmod, so only an install to the real root (DESTDIR empty)
# runs it. $(MANIFEST) lists what install wrote, without DESTDIR (a
# directory it made with a trailing /), merged over earlier installs (one
# per kernel): uninstall removes exactly that.
MANIFEST = $(DESTDIR)$(FCQ_LIBDIR)/manifest
MODDIR = /lib/modules/$(KREL)/updates/fcq
# Kbuild signs the modules it installs with the key of KDIR's .config, which
# a Debian headers package lacks (Debian signs its own): then unsigned.
MOD_SIGN = $(if $(wildcard $(KDIR)/certs/signing_key.pem),,CONFIG_MODULE_SIG_ALL=)
INSTALL_TOOLS := $(TOOLS) tools/fcq-exp
INSTALL_MAN := $(wildcard Documentation/man/*.8)
INSTALL_LIB := $(wildcard tools/lib/*)
INSTALL_SHARE := $(shell find experiments workloads -type f) \
	third_party/hpcc/simulation/LICENSE \
	$(wildcard third_party/hpcc/simulation/mix/*)

# Shell functions for install's recipe, whose list grows in $(NEWLIST):
# mkd DIR makes $(DESTDIR)DIR and its missing parents, listing each; inst
# MODE DIR FILE... installs FILEs into DIR and lists them; tree DIR
# FILE... installs each FILE as DIR/FILE (experiments/ofc-fig1/flow.txt
# keeps its directory). Only modules_install's line runs $(MAKE), so that
# make -n install prints and does nothing.
NEWLIST = $(B)/install.list
INSTALL_SH = set -e; m=$(NEWLIST); \
	mkd() { [ -z "$$1" ] || [ -d "$(DESTDIR)$$1" ] || { mkd "$${1%/*}"; \
		install -d "$(DESTDIR)$$1"; echo "$$1/" >>"$$m"; }; }; \
	inst() { mode=$$1 dir=$$2; shift 2; mkd "$$dir"; for f; do \
		install -m "$$mode" "$$f" "$(DESTDIR)$$dir/"; \
		echo "$$dir/$${f\#\#*/}" >>"$$m"; done; }; \
	tree() { t=$$1; shift; for f; do inst 0644 "$$t/$${f%/*}" "$$f"; done; }

install: all
	@$(INSTALL_SH); : >"$$m"; mkd $(FCQ_LIBDIR); mkd $(MODDIR); \
	touch $(MANIFEST); sort -u -o $(MANIFEST) $(MANIFEST) "$$m"
	$(MAKE) -C $(KDIR) M=$(KOUT) INSTALL_MOD_PATH=$(abspath $(DESTDIR)) \
		INSTALL_MOD_DIR=updates/fcq DEPMOD=true $(MOD_SIGN) modules_install
	@$(INSTALL_SH); \
	find "$(DESTDIR)$(MODDIR)" -type f | sed 's|^$(DESTDIR)||' >>"$$m"; \
	echo "  INSTALL tc plugins, tools, man pages, scripts, data under $(DESTDIR)$(PREFIX)"; \
	inst 0644 $(TC_LIBDIR) $(PLUGINS); \
	inst 0755 $(SBINDIR) $(INSTALL_TOOLS); \
	inst 0644 $(MANDIR)/man8 $(INSTALL_MAN); \
	inst 0644 $(FCQ_LIBDIR) $(INSTALL_LIB); \
	tree $(FCQ_DATADIR) $(INSTALL_SHARE); \
	inst 0644 $(WIRESHARK_LUADIR) tools/wireshark/fcq.lua tools/wireshark/qcn.lua; \
	sort -u -o $(MANIFEST) $(MANIFEST) "$$m"; rm -f "$$m"; \
	echo "  MANIFEST $(MANIFEST): $$(wc -l <$(MANIFEST)) paths"
	$(if $(DESTDIR),,depmod -a $(KREL))

uninstall:
	@test -f $(MANIFEST) || { echo "make uninstall: no $(MANIFEST): nothing installed with DESTDIR='$(DESTDIR)' PREFIX='$(PREFIX)'" >&2; exit 1; }
	@set -e; grep -v '/$$' $(MANIFEST) | sed 's|^|$(DESTDIR)|' | \
		xargs -r -d '\n' rm -f --; \
	krels=$$(sed -n 's|^/lib/modules/\([^/]*\)/.*[^/]$$|\1|p' $(MANIFEST) | sort -u); \
	dirs=$$(grep '/$$' $(MANIFEST) | sort -r); rm -f $(MANIFEST); \
	printf '%s\n' "$$dirs" | while IFS= read -r d; do \
		[ -z "$$d" ] || [ ! -d "$(DESTDIR)$$d" ] || \
		rmdir --ignore-fail-on-non-empty "$(DESTDIR)$$d"; done; \
	echo "  UNINSTALL fcq from $(DESTDIR)$(PREFIX), modules of $$krels"; \
	$(if $(DESTDIR),:,for k in $$krels; do [ ! -d /lib/modules/$$k/kernel ] || depmod -a $$k; done)

clean:
	rm -rf build
