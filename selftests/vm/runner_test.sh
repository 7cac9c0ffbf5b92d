#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner_test.sh: tools/vm/run itself. It must pass the command's exit
# status through, load fcq's modules and share a writable results
# directory, and fail loudly on a kernel warning and on a hung guest.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	exit_status
	modules_loaded
	warn_fails
	hang_timeout
	copy_in_tmp
	own_modules
	initramfs_race
	init_unstartable
	no_build_refused
"
USAGE="[6.1|6.12]"
USAGE_MORE="TAP on stdout. Runs on the host; boots the guest (tools/vm/run) several times."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 1 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
KERNEL=${1:-6.1}
RUN="$TOP/tools/vm/run -q --no-build --kernel $KERNEL"
tests_plan
W=$(mktemp -d "$TOP/build/runner-test.XXXX")
trap 'rm -rf "$W"' EXIT
ABI=$(sed -n "s/^ABI_${KERNEL/./_} := //p" "${FCQ_CACHE:-/var/cache/fcq}/kernels.mk")

# Shared steps, each done once whichever case needs it first (so that
# TESTS= may name any case).

# A copy of the tree below /tmp, in a directory whose name has a space
# (the guest's own /tmp must not hide it): COPY.
tree_copied() {
	[ -z "${COPY:-}" ] || return 0
	COPY=$(mktemp -d "/tmp/fcq runner-test.XXXX")
	trap 'rm -rf "$W" "$COPY"' EXIT
	(cd "$TOP" && tar -cf - --exclude=./.git --exclude=./build . &&
		tar -cf - build/kmod build/tc build/tools) | tar -C "$COPY" -xif -
}

# One guest run from the copy serves several cases: its init, modules
# and working directory are the copy's, and a program's own "WARNING:" on
# the console is not the kernel's. PROBE_RC is its exit status, $W/ok/
# what it wrote (probe, cwd).
probe_run() {
	[ -z "${PROBE_RC:-}" ] || return 0
	tree_copied
	# shellcheck disable=SC2016
	(cd "$COPY" && "$COPY/tools/vm/run" -q --no-build --kernel "$KERNEL" \
		--results "$W/ok" -- sh -c 'pwd >/run/results/cwd
		test -r tools/vm/guest-init && lsmod | grep -q "^sch_pfc" &&
		lsmod | grep -q "^fcq " && echo loaded >/run/results/probe
		echo "WARNING: said by a program, not the kernel"; exit 3' \
		2>"$W/ok.err")
	PROBE_RC=$?
}

exit_status() {
	probe_run
	[ "$PROBE_RC" = 3 ]
	check_err $? "got $PROBE_RC: $(cat "$W/ok.err")"
	log_test "the command's exit status comes back (3), its WARNING: is no splat"
}

modules_loaded() {
	probe_run
	[ "$(cat "$W/ok/probe" 2>/dev/null)" = loaded ]
	check_err $? "the guest did not write \"loaded\" to $W/ok/probe"
	log_test "fcq modules loaded; results directory writable"
}

# A deliberately broken module: WARN_ON(1) on load.
warn_fails() {
	local ko rc
	ko=$(ls "$TOP"/build/kmod/*-test/fcq_test_warn.ko 2>/dev/null | grep -F "$ABI-test/" | head -n 1)
	$RUN -- insmod "$ko" 2>"$W/warn.err"
	rc=$?
	[ $rc = 126 ] && grep -q 'WARNING:' "$W/warn.err"
	check_err $? "got $rc: $(head -c 300 "$W/warn.err")"
	log_test "a module that warns on load fails the run (126, WARNING reported)"
}

# The hung guest waits out its timeout while the cases before its own
# run (started before the first, when it is chosen): HANG_PID; its exit
# status and how long it took in $W/hang.
hang_started() {
	[ -z "${HANG_PID:-}" ] || return 0
	{
		local t0=$SECONDS rc
		$RUN --timeout 40 -- sleep 1000 2>"$W/hang.err"
		rc=$?
		echo "$rc $((SECONDS - t0))" >"$W/hang"
	} &
	HANG_PID=$!
}

hang_timeout() {
	local rc took
	hang_started
	wait "$HANG_PID"
	read -r rc took <"$W/hang" || { rc=none took=none; }
	ktap_note "exit $rc after ${took}s"
	[ $rc = 124 ] && [ $took -lt 60 ]
	check_err $? "got $rc after ${took}s"
	log_test "a hung guest is stopped at the timeout"
}

copy_in_tmp() {
	local cwd
	probe_run
	cwd=$(cat "$W/ok/cwd" 2>/dev/null)
	[ "$PROBE_RC" = 3 ] && [ "$cwd" = "$COPY" ]
	check_err $? "exit $PROBE_RC, guest cwd '$cwd': $(tail -n 3 "$W/ok.err")"
	log_test "the runner works from a copy of the tree in /tmp, path with a space"
}

# A guest of another checkout, with another build, boots while ours runs
# and before ours loads anything: each guest's modprobe loads its own
# build (as the teardown tests' modprobe after rmmod must). With one
# module set shared by all checkouts, the other runner replaced ours under
# our running guest, and our modprobe loaded its build.
own_modules() {
	local pid rc_other rc_mine got_mine got_other want_mine want_other
	tree_copied
	printf 'another build\n' >>"$COPY/build/kmod/$ABI/fcq.ko"
	# shellcheck disable=SC2016
	$RUN --no-load --timeout 600 --results "$W/mine" -- sh -c 'touch /run/results/up
		while [ ! -e /run/results/go ]; do sleep 0.2; done
		modprobe fcq && md5sum "$(modinfo -n fcq)" >/run/results/md5' \
		2>"$W/mine.err" &
	pid=$!
	for _ in $(seq 1200); do
		[ -e "$W/mine/up" ] || ! kill -0 $pid 2>/dev/null && break
		sleep 0.5
	done
	# shellcheck disable=SC2016
	(cd "$COPY" && "$COPY/tools/vm/run" -q --no-build --kernel "$KERNEL" \
		--results "$W/other" -- sh -c 'md5sum "$(modinfo -n fcq)" >/run/results/md5' \
		2>"$W/other.err")
	rc_other=$?
	touch "$W/mine/go"
	wait $pid
	rc_mine=$?
	got_mine=$(cut -d' ' -f1 "$W/mine/md5" 2>/dev/null)
	got_other=$(cut -d' ' -f1 "$W/other/md5" 2>/dev/null)
	want_mine=$(md5sum <"$TOP/build/kmod/$ABI/fcq.ko" | cut -d' ' -f1)
	want_other=$(md5sum <"$COPY/build/kmod/$ABI/fcq.ko" | cut -d' ' -f1)
	[ $rc_mine = 0 ] && [ $rc_other = 0 ] && [ "$want_mine" != "$want_other" ] &&
		[ "$got_mine" = "$want_mine" ] && [ "$got_other" = "$want_other" ]
	check_err $? "exit $rc_mine/$rc_other; ours $got_mine (want $want_mine), theirs $got_other (want $want_other): $(tail -n 2 "$W/mine.err" "$W/other.err")"
	log_test "two checkouts' guests side by side each load their own modules"
}

# Two runners boot one kernel at once while its cached initramfs is stale
# (the copy's init is newer): both rebuild it, one at a time, and both
# guests start. Built side by side into one file, it came out corrupt and
# every later guest of that kernel found no init.
initramfs_race() {
	local i pids=() rc1 rc2
	tree_copied
	touch "$COPY/tools/vm/init"
	for i in 1 2; do
		"$COPY/tools/vm/run" -q --no-build --kernel "$KERNEL" --results "$W/twice$i" \
			-- true 2>"$W/twice$i.err" &
		pids+=($!)
	done
	wait "${pids[0]}"; rc1=$?
	wait "${pids[1]}"; rc2=$?
	[ $rc1 = 0 ] && [ $rc2 = 0 ]
	check_err $? "exit $rc1 and $rc2: $(tail -n 2 "$W/twice1.err" "$W/twice2.err")"
	log_test "two runners rebuilding the initramfs at once both boot"
}

# An init the guest cannot start: one plain line, exit 125, no panic.
init_unstartable() {
	local rc
	tree_copied
	chmod -x "$COPY/tools/vm/guest-init"
	"$COPY/tools/vm/run" -q --no-build --kernel "$KERNEL" --results "$W/noinit" \
		-- true 2>"$W/noinit.err"
	rc=$?
	[ $rc = 125 ] && grep -q "could not start: .*guest-init" "$W/noinit.err" &&
		! grep -q "kernel reported" "$W/noinit.err"
	check_err $? "exit $rc: $(head -c 300 "$W/noinit.err")"
	log_test "a guest whose init cannot start says why and exits 125"
}

# --no-build with nothing built: refused before the checkout's module tree
# (from its last build: the copy has booted) is touched.
no_build_refused() {
	local before rc after
	probe_run
	before=$(cat "$COPY/build/vm/modroot-$ABI/.stamp" 2>/dev/null)
	rm -rf "$COPY/build/kmod"
	"$COPY/tools/vm/run" -q --no-build --kernel "$KERNEL" --results "$W/nomod" \
		-- true 2>"$W/nomod.err"
	rc=$?
	after=$(cat "$COPY/build/vm/modroot-$ABI/.stamp" 2>/dev/null)
	[ $rc = 125 ] && grep -q "no fcq modules built" "$W/nomod.err" &&
		[ -n "$before" ] && [ "$before" = "$after" ]
	check_err $? "exit $rc: $(head -c 300 "$W/nomod.err")"
	log_test "--no-build without a build: exit 125, installed modules untouched"
}

for t in ${TESTS:-$ALL_TESTS}; do
	[ "$t" != hang_timeout ] || hang_started
done
tests_run
ktap_finish
