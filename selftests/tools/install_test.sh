#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install_test.sh: `make install DESTDIR=...` stages everything as a Debian
# package build expects, and `make uninstall` takes it all back. The tree
# (without build/ and .git) is copied, as a user unpacks a release, and
# installed from there into a temporary DESTDIR against Debian's 6.1
# headers (tools/setup's): the modules under lib/modules/KREL/updates/fcq,
# the tc plugins, the tools with a man page each that answer --help,
# fcq-exp with its scripts, experiments and workloads, which it finds
# beside itself; nothing of the real root written (no depmod there, nothing
# in /usr/local nor Debian's tc and Wireshark plugin folders); then
# uninstall leaves nothing of its own in DESTDIR, and foreign files. Host-side, no
# guest; the module build is most of its time (about a minute of CPU).
#
#   selftests/tools/install_test.sh
set -u

# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	install_staged
	modules_staged
	files_staged
	tools_man_help
	exp_finds_its_files
	exp_hpcc_staged
	uninstall_clean
	real_root_untouched
"
# shellcheck disable=SC2034 # read by usage.sh
USAGE_MORE="TAP on stdout. FCQ_CACHE (default /var/cache/fcq) holds the kernels.
JOBS (environment, default 1): make's jobs for the build."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/exp.sh"

FCQ_CACHE=${FCQ_CACHE:-/var/cache/fcq}
var() { sed -n "s/^$1 := //p" "$FCQ_CACHE/kernels.mk" 2>/dev/null; }
KREL=$(var ABI_6_1)
KDIR=$(var KDIR_6_1)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
SRC=$W/src
D=$W/root
P=$D/usr/local
MODULES=$(sed -n 's/^obj-m := //p' "$TOP/Kbuild" | sed 's/\.o//g')
tests_plan

# The real root's module indexes, /usr/local and Debian's tc and Wireshark
# plugin folders (where a DESTDIR-less install puts plugins), as they are
# now: path, size and modification time of each.
real_root() {
	find /lib/modules -maxdepth 2 -name 'modules.*' -printf '%p %s %T@\n'
	find /usr/local /usr/lib/x86_64-linux-gnu/tc \
		/usr/lib/x86_64-linux-gnu/wireshark/plugins \
		-printf '%p %s %T@\n' 2>/dev/null
}
real_root | sort >"$W/root.before"

install_staged() {
	local t0
	mkdir -p "$SRC"
	tar -C "$TOP" --exclude=./build --exclude=./.git -c . | tar -x -C "$SRC"
	t0=$(date +%s)
	if [ -z "$KREL" ]; then
		check_err 1 "no $FCQ_CACHE/kernels.mk: run tools/setup"
	else
		make -C "$SRC" -j"${JOBS:-1}" install DESTDIR="$D" KDIR="$KDIR" \
			>"$W/install.log" 2>&1
		check_err $? "make install DESTDIR=$D failed: $(tail -n 5 "$W/install.log")"
		ktap_note "make install (building everything for $KREL): $(($(date +%s) - t0)) s"
	fi
	log_test "make install DESTDIR=... from a copy of the tree"
}

modules_staged() {
	local m ko n=0
	for m in $MODULES; do
		ko=$D/lib/modules/$KREL/updates/fcq/$m.ko
		if [ -f "$ko" ] && [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$KREL" ]; then
			n=$((n + 1))
		else
			check_err 1 "no ${ko#"$D"} for $KREL"
		fi
	done
	[ -z "$(find "$D/lib/modules" -name 'modules.*')" ]
	check_err $? "a modules.* index under DESTDIR: depmod ran at staging"
	ktap_note "$n of $(wc -w <<<"$MODULES") modules in lib/modules/$KREL/updates/fcq"
	log_test "modules in DESTDIR/lib/modules/KREL/updates/fcq, no depmod"
}

# same FILE COPY: COPY is FILE, or say it is not.
same() {
	cmp -s "$1" "$2" || check_err 1 "${2#"$D"}: not ${1#"$SRC"/}"
}

files_staged() {
	local f n=0
	for f in "$SRC"/tc-plugins/q_*.c; do
		f=${f##*/}
		same "$SRC/build/tc/${f%.c}.so" "$D/usr/lib/x86_64-linux-gnu/tc/${f%.c}.so"
		n=$((n + 1))
	done
	for f in "$SRC"/Documentation/man/*.8; do
		same "$f" "$P/share/man/man8/${f##*/}"
	done
	for f in "$SRC"/tools/lib/*; do
		same "$f" "$P/lib/fcq/${f##*/}"
	done
	while read -r f; do
		same "$SRC/$f" "$P/share/fcq/$f"
	done < <(cd "$SRC" && find experiments workloads -type f)
	same "$SRC/tools/wireshark/fcq.lua" \
		"$D/usr/lib/x86_64-linux-gnu/wireshark/plugins/fcq.lua"
	ktap_note "$n tc plugins, $(find "$P/share/fcq" -type f | wc -l) data files," \
		"$(find "$D" -type f | wc -l) files in all"
	log_test "tc plugins, man pages, fcq-exp's scripts, experiments, workloads, dissectors staged"
}

# Every tool make builds (the executables of build/tools: not fcq-top's
# BPF object, which is built into it), and fcq-exp, installed and
# executable in sbin with its man page; each answers --help (usage on
# stdout, stderr empty).
tools_man_help() {
	local t n=0 bad=''
	for t in $(cd "$SRC/build/tools" && find . -maxdepth 1 -type f \
		-perm -u+x -printf '%f\n') fcq-exp; do
		[ -x "$P/sbin/$t" ] || bad="$bad $t (not in sbin)"
	done
	for t in "$P"/sbin/*; do
		n=$((n + 1))
		t=${t##*/}
		[ -f "$P/share/man/man8/$t.8" ] || bad="$bad $t (no man page)"
		timeout 5 "$P/sbin/$t" --help >"$W/out" 2>"$W/err" &&
			[ ! -s "$W/err" ] && grep -q sage "$W/out" ||
			bad="$bad $t (--help: $(head -n 1 "$W/err"))"
	done
	[ -z "$bad" ]
	check_err $? "failed:$bad"
	ktap_note "$n tools in sbin"
	log_test "every installed tool: a man page, and a usage for --help"
}

# The staged fcq-exp, its PATH without the tree: it reads staged
# experiments, each way one finds its files under share/fcq (a named
# workload, a file per seed beside it, any outside experiments/: ../;
# exp_test.sh reads every one in the tree, a second each), prints commands
# of its own path, and reports with the staged fcq-report; a copy of it
# away from lib/fcq says what it misses.
exp_finds_its_files() {
	local f bad='' exp=$P/sbin/fcq-exp e d n=0
	for f in "$P"/share/fcq/experiments/{leafspine-websearch,flowsail-e2}.exp \
		$(grep -l '^[a-z]* *\.\./' "$P"/share/fcq/experiments/*.exp); do
		PATH=/usr/bin:/bin "$exp" --native --jobs --out "$W/o" "$f" \
			>"$W/jobs" 2>"$W/err" &&
			[ -s "$W/jobs" ] &&
			! grep -qv "^$exp .* --native $f\$" "$W/jobs" ||
			bad="$bad ${f##*/} ($(head -n 1 "$W/err"))"
		n=$((n + 1))
	done
	[ -z "$bad" ]
	check_err $? "staged experiments not read:$bad"
	ktap_note "$n staged experiment files read"
	e=$P/share/fcq/experiments/demo.exp
	d=$W/rep/scheme-1-$(awk '$1 == "scheme" { print $2; exit }' "$e")/seed-1
	mkdir -p "$d"
	echo pfc >"$d/scheme"
	echo '0b000101 0b000201 10000 100 5000 2000000000 40000 20000' >"$d/fct.txt"
	PATH=/usr/bin:/bin "$exp" --report --out "$W/rep" "$e" >"$W/out" 2>"$W/err"
	check_err $? "fcq-exp --report with the staged fcq-report: $(head -n 2 "$W/err")"
	[ -s "$W/rep/report.txt" ] || check_err 1 "no report.txt"
	mkdir -p "$W/away/sbin"
	cp "$exp" "$W/away/sbin/"
	"$W/away/sbin/fcq-exp" --native --jobs "$e" >/dev/null 2>"$W/err"
	check_fail $? "fcq-exp without lib/fcq beside it ran"
	grep -q "no $W/away/lib/fcq/exp-run.sh" "$W/err" ||
		check_err 1 "fcq-exp away from lib/fcq: $(head -n 1 "$W/err")"
	"$exp" --jobs "$e" >/dev/null 2>"$W/err"
	[ $? = 2 ] && grep -q -- --native "$W/err"
	check_err $? "installed fcq-exp without --native: not refused naming --native"
	log_test "the staged fcq-exp reads its experiments, workloads, scripts and tools beside it"
}

# The staged lib/fcq's trace.sh writes pfc.txt and qlen.txt with the
# staged hpcc-traces.awk, from exp_test's made trace (exp_hpcc_traces).
exp_hpcc_staged() {
	local got
	got=$(exp_hpcc_traces "$P/lib/fcq" "$W/hpcc" 'overrun: 0\n')
	[ "$got" = "$EXP_HPCC_PFC $EXP_HPCC_QLEN " ]
	check_err $? "got: $got"
	log_test "the staged trace.sh and hpcc-traces.awk write pfc.txt and qlen.txt"
}

# Uninstall with a foreign file and an empty foreign directory in
# directories install made, and an installed directory already removed by
# hand: it removes the rest, and leaves the foreign ones and their parents.
uninstall_clean() {
	local left want
	touch "$P/sbin/foreign-tool"
	mkdir "$P/lib/fcq/foreign.d"
	rm -rf "$P/share/fcq/workloads"
	make -C "$SRC" uninstall DESTDIR="$D" KDIR="$KDIR" >"$W/uninstall.log" 2>&1
	check_err $? "make uninstall failed: $(tail -n 3 "$W/uninstall.log")"
	left=$(cd "$D" && find . -mindepth 1 | sort | tr '\n' ' ')
	want="./usr ./usr/local ./usr/local/lib ./usr/local/lib/fcq ./usr/local/lib/fcq/foreign.d ./usr/local/sbin ./usr/local/sbin/foreign-tool "
	[ "$left" = "$want" ]
	check_err $? "left: $left"
	make -C "$SRC" uninstall DESTDIR="$D" >"$W/uninstall.log" 2>&1
	check_fail $? "a second make uninstall found something to remove"
	log_test "make uninstall DESTDIR=...: nothing of its own left, foreign files kept"
}

real_root_untouched() {
	real_root | sort >"$W/root.after"
	diff "$W/root.before" "$W/root.after" >"$W/root.diff"
	check_err $? "changed: $(head -n 4 "$W/root.diff" | tr '\n' ' ')"
	ktap_note "$(wc -l <"$W/root.after") paths compared"
	log_test "the real root's modules.* indexes, /usr/local and plugin folders untouched"
}

tests_run
ktap_finish
