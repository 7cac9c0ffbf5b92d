#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kbuild.sh: fcq's modules (and the test-only ones) built for each kernel
# tools/setup fetched: Debian's 6.1, 6.12 and the newest Debian ships (in
# its trixie build root, tools/buildroot). W=1 and sparse (C=2) with no
# warning, sparse proven to have checked every file it was asked to, and a
# DKMS build from a copy of the tree, as a user's `dkms build` makes it.
# The build logs go to $FCQ_RESULTS (default build/results).
set -u

# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	modules_6_1
	modules_6_12
	modules_newest
	dkms_6_1
	dkms_6_12
	dkms_newest
"
# shellcheck disable=SC2034 # read by usage.sh
USAGE_MORE="TAP on stdout. FCQ_CACHE (default /var/cache/fcq) holds the kernels.
JOBS (environment, default 1): make's jobs for each module build."
. "$(dirname "$0")/lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
. "$HERE/lib/ktap.sh"

FCQ_CACHE=${FCQ_CACHE:-/var/cache/fcq}
R=${FCQ_RESULTS:-$TOP/build/results}
mkdir -p "$R"
var() { sed -n "s/^$1 := //p" "$FCQ_CACHE/kernels.mk"; }
# Every module Kbuild makes: dkms.conf must install each of them.
MODULES=$(sed -n 's/^obj-m := //p' "$TOP/Kbuild" | sed 's/\.o//g')

tests_plan
[ -f "$FCQ_CACHE/kernels.mk" ] || {
	ktap_note "no $FCQ_CACHE/kernels.mk: run tools/setup"
	ktap_finish
}

# modules K: make modules test-modules K=K W=1 C=2, then judge its log.
modules() {
	local k=$1 abi log kout files checked
	abi=$(var "ABI_${k//./_}")
	log=$R/build-$k.log
	make -C "$TOP" -j"${JOBS:-1}" modules test-modules K="$k" W=1 C=2 >"$log" 2>&1
	check_err $? "make modules test-modules K=$k failed: see $log"
	if grep -qE '(warning|error):' "$log"; then
		check_err 1 "W=1 or sparse warnings: see $log"
		grep -E '(warning|error):' "$log" | head -n 20 | sed 's/^/# /'
	fi
	# Kbuild turns sparse off, with a message and no warning, when it
	# finds the checker missing or too old for the kernel: count what it
	# checked (C=2 checks every file, built or up to date) against the
	# objects the modules are made of (Kbuild's <module>.mod lists).
	kout=$TOP/build/kmod/$abi
	files=$(cat "$kout"/*.mod "$kout"-test/*.mod 2>/dev/null | wc -w)
	checked=$(grep -cE '^  CHECK ' "$log")
	if grep -q 'not available or not up to date' "$log"; then
		check_err 1 "Kbuild skipped sparse: $(grep -m1 'not available' "$log")"
	elif [ "$files" = 0 ] || [ "$checked" != "$files" ]; then
		check_err 1 "sparse checked $checked of $files files"
	fi
	ktap_note "$abi: $files objects, sparse checked $checked"
	log_test "modules for $k ($abi) build with W=1 and C=2: no warning, sparse ran on every file"
}

# dkms K: `dkms add` and `dkms build` of a copy of the tree, with DKMS's
# trees kept apart from the system's (nothing is registered or installed).
dkms_build() {
	local k=$1 abi kdir kroot d ko n=0 run=()
	abi=$(var "ABI_${k//./_}")
	kdir=$(var "KDIR_${k//./_}")
	kroot=$(var "KROOT_${k//./_}")
	d=$TOP/build/dkms/$k
	rm -rf "$d" && mkdir -p "$d/src/fcq-0.1" "$d/tree"
	tar -C "$TOP" --exclude=./build --exclude=./.git -c . | tar -x -C "$d/src/fcq-0.1"
	[ -z "$kroot" ] || run=("$TOP/tools/buildroot" "$kroot")
	# shellcheck disable=SC2016 # expanded by the inner shell
	"${run[@]}" sh -c 'dkms add --dkmstree "$1/tree" --sourcetree "$1/src" -m fcq -v 0.1 &&
		dkms build --dkmstree "$1/tree" --sourcetree "$1/src" -m fcq -v 0.1 \
			-k "$2" --kernelsourcedir "$3"' sh "$d" "$abi" "$kdir" \
		>"$R/dkms-$k.log" 2>&1
	check_err $? "dkms build -k $abi failed: see $R/dkms-$k.log"
	for ko in $MODULES; do
		ko=$d/tree/fcq/0.1/$abi/x86_64/module/$ko.ko
		if [ -f "$ko" ] && [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$abi" ]; then
			n=$((n + 1))
		else
			check_err 1 "no ${ko##*/} built for $abi"
		fi
	done
	ktap_note "$abi: dkms built $n of $(wc -w <<<"$MODULES") modules"
	log_test "dkms build for $k ($abi)"
}

modules_6_1() { modules 6.1; }
modules_6_12() { modules 6.12; }
modules_newest() { modules newest; }
dkms_6_1() { dkms_build 6.1; }
dkms_6_12() { dkms_build 6.12; }
dkms_newest() { dkms_build newest; }

tests_run
ktap_finish
