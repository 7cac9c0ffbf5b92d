#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner_test.sh: tools/vm/run itself. It must pass the command's exit
# status through, load fcq's modules and share a writable results
# directory, and fail loudly on a kernel warning and on a hung guest.
set -u
USAGE="[6.1|6.12]"
USAGE_MORE="TAP on stdout. Runs on the host; boots the guest (tools/vm/run) several times."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 1 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
KERNEL=${1:-6.1}
RUN="$TOP/tools/vm/run -q --no-build --kernel $KERNEL"
W=$(mktemp -d "$TOP/build/runner-test.XXXX")
trap 'rm -rf "$W"' EXIT
ktap_plan 9

# A program's own "WARNING:" on the console is not the kernel's.
# shellcheck disable=SC2016
$RUN --results "$W/ok" -- sh -c 'lsmod | grep -q "^sch_pfc" &&
	lsmod | grep -q "^fcq " && echo loaded > /run/results/probe;
	echo "WARNING: said by a program, not the kernel"; exit 3' \
	2>"$W/ok.err"
rc=$?
[ $rc = 3 ] && ktap_pass "the command's exit status comes back (3), its WARNING: is no splat" ||
	ktap_fail "the command's exit status comes back (3), its WARNING: is no splat" \
		"got $rc: $(cat "$W/ok.err")"
[ "$(cat "$W/ok/probe" 2>/dev/null)" = loaded ] &&
	ktap_pass "fcq modules loaded; results directory writable" ||
	ktap_fail "fcq modules loaded; results directory writable"

# A deliberately broken module: WARN_ON(1) on load.
ko=$(ls "$TOP"/build/kmod/*-test/fcq_test_warn.ko 2>/dev/null | grep -F "$(
	sed -n "s/^ABI_${KERNEL/./_} := //p" "${FCQ_CACHE:-/var/cache/fcq}/kernels.mk")-test/" | head -n 1)
$RUN -- insmod "$ko" 2>"$W/warn.err"
rc=$?
if [ $rc = 126 ] && grep -q 'WARNING:' "$W/warn.err"; then
	ktap_pass "a module that warns on load fails the run (126, WARNING reported)"
else
	ktap_fail "a module that warns on load fails the run (126, WARNING reported)" \
		"got $rc: $(head -c 300 "$W/warn.err")"
fi

start=$(date +%s)
$RUN --timeout 40 -- sleep 1000 2>"$W/hang.err"
rc=$?
took=$(($(date +%s) - start))
[ $rc = 124 ] && [ $took -lt 60 ] &&
	ktap_pass "a hung guest is stopped at the timeout (124 after ${took}s)" ||
	ktap_fail "a hung guest is stopped at the timeout" "got $rc after ${took}s"
# From a copy of the tree below /tmp, in a directory whose name has a space
# (the guest's own /tmp must not hide it): the copy's init, modules and
# working directory are the ones the guest uses.
copy=$(mktemp -d "/tmp/fcq runner-test.XXXX")
trap 'rm -rf "$W" "$copy"' EXIT
(cd "$TOP" && tar -cf - --exclude=./.git --exclude=./build . &&
	tar -cf - build/kmod build/tc build/tools) | tar -C "$copy" -xif -
# shellcheck disable=SC2016
(cd "$copy" && "$copy/tools/vm/run" -q --no-build --kernel "$KERNEL" \
	--results "$W/copy" -- sh -c 'pwd >/run/results/probe &&
	test -r tools/vm/guest-init && lsmod | grep -q "^sch_pfc"' \
	2>"$W/copy.err")
rc=$?
where=$(cat "$W/copy/probe" 2>/dev/null)
[ $rc = 0 ] && [ "$where" = "$copy" ] &&
	ktap_pass "the runner works from a copy of the tree in /tmp, path with a space" ||
	ktap_fail "the runner works from a copy of the tree in /tmp, path with a space" \
		"exit $rc, guest cwd '$where': $(tail -n 3 "$W/copy.err")"

# A guest of another checkout, with another build, boots while ours runs
# and before ours loads anything: each guest's modprobe loads its own
# build (as the teardown tests' modprobe after rmmod must). With one
# module set shared by all checkouts, the other runner replaced ours under
# our running guest, and our modprobe loaded its build.
abi=$(sed -n "s/^ABI_${KERNEL/./_} := //p" "${FCQ_CACHE:-/var/cache/fcq}/kernels.mk")
printf 'another build\n' >>"$copy/build/kmod/$abi/fcq.ko"
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
(cd "$copy" && "$copy/tools/vm/run" -q --no-build --kernel "$KERNEL" \
	--results "$W/other" -- sh -c 'md5sum "$(modinfo -n fcq)" >/run/results/md5' \
	2>"$W/other.err")
rc_other=$?
touch "$W/mine/go"
wait $pid
rc_mine=$?
got_mine=$(cut -d' ' -f1 "$W/mine/md5" 2>/dev/null)
got_other=$(cut -d' ' -f1 "$W/other/md5" 2>/dev/null)
want_mine=$(md5sum <"$TOP/build/kmod/$abi/fcq.ko" | cut -d' ' -f1)
want_other=$(md5sum <"$copy/build/kmod/$abi/fcq.ko" | cut -d' ' -f1)
[ $rc_mine = 0 ] && [ $rc_other = 0 ] && [ "$want_mine" != "$want_other" ] &&
	[ "$got_mine" = "$want_mine" ] && [ "$got_other" = "$want_other" ] &&
	ktap_pass "two checkouts' guests side by side each load their own modules" ||
	ktap_fail "two checkouts' guests side by side each load their own modules" \
		"exit $rc_mine/$rc_other; ours $got_mine (want $want_mine), theirs $got_other (want $want_other): $(tail -n 2 "$W/mine.err" "$W/other.err")"

# Two runners boot one kernel at once while its cached initramfs is stale
# (the copy's init is newer): both rebuild it, one at a time, and both
# guests start. Built side by side into one file, it came out corrupt and
# every later guest of that kernel found no init.
touch "$copy/tools/vm/init"
pids=()
for i in 1 2; do
	"$copy/tools/vm/run" -q --no-build --kernel "$KERNEL" --results "$W/twice$i" \
		-- true 2>"$W/twice$i.err" &
	pids+=($!)
done
wait "${pids[0]}"; rc1=$?
wait "${pids[1]}"; rc2=$?
[ $rc1 = 0 ] && [ $rc2 = 0 ] &&
	ktap_pass "two runners rebuilding the initramfs at once both boot" ||
	ktap_fail "two runners rebuilding the initramfs at once both boot" \
		"exit $rc1 and $rc2: $(tail -n 2 "$W/twice1.err" "$W/twice2.err")"

# An init the guest cannot start: one plain line, exit 125, no panic.
chmod -x "$copy/tools/vm/guest-init"
"$copy/tools/vm/run" -q --no-build --kernel "$KERNEL" --results "$W/noinit" \
	-- true 2>"$W/noinit.err"
rc=$?
if [ $rc = 125 ] && grep -q "could not start: .*guest-init" "$W/noinit.err" &&
	! grep -q "kernel reported" "$W/noinit.err"; then
	ktap_pass "a guest whose init cannot start says why and exits 125"
else
	ktap_fail "a guest whose init cannot start says why and exits 125" \
		"exit $rc: $(head -c 300 "$W/noinit.err")"
fi

# --no-build with nothing built: refused before the checkout's module tree
# (from its last build) is touched.
before=$(cat "$copy/build/vm/modroot-$abi/.stamp" 2>/dev/null)
rm -rf "$copy/build/kmod"
"$copy/tools/vm/run" -q --no-build --kernel "$KERNEL" --results "$W/nomod" \
	-- true 2>"$W/nomod.err"
rc=$?
after=$(cat "$copy/build/vm/modroot-$abi/.stamp" 2>/dev/null)
[ $rc = 125 ] && grep -q "no fcq modules built" "$W/nomod.err" &&
	[ -n "$before" ] && [ "$before" = "$after" ] &&
	ktap_pass "--no-build without a build: exit 125, installed modules untouched" ||
	ktap_fail "--no-build without a build: exit 125, installed modules untouched" \
		"exit $rc: $(head -c 300 "$W/nomod.err")"
ktap_finish
