# SPDX-License-Identifier: GPL-2.0
#
# ktap.sh - TAP output for fcq's shell selftests, in the kselftest style
# (tools/testing/selftests/kselftest/ktap_helpers.sh).
#
#   ktap_plan N             print the header and the plan
#   ktap_pass NAME          ktap_fail NAME [WHY]     ktap_skip NAME WHY
#   ktap_check NAME CMD...  pass if CMD succeeds
#   ktap_note TEXT          a diagnostic line (measured numbers)
#   ktap_finish             totals; tests never reported count as failed;
#                           exits 1 on any failure, 4 if all skipped

KTAP_N=0 KTAP_PASS=0 KTAP_FAIL=0 KTAP_SKIP=0 KTAP_PLAN=0

ktap_plan() {
	KTAP_PLAN=$1
	echo "TAP version 13"
	echo "1..$1"
}

ktap_pass() {
	KTAP_N=$((KTAP_N + 1)) KTAP_PASS=$((KTAP_PASS + 1))
	echo "ok $KTAP_N $1"
}

ktap_fail() {
	KTAP_N=$((KTAP_N + 1)) KTAP_FAIL=$((KTAP_FAIL + 1))
	echo "not ok $KTAP_N $1"
	[ -z "${2:-}" ] || echo "# $2"
}

ktap_skip() {
	KTAP_N=$((KTAP_N + 1)) KTAP_SKIP=$((KTAP_SKIP + 1))
	echo "ok $KTAP_N $1 # SKIP $2"
}

ktap_check() {
	local name=$1
	shift
	if "$@"; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "failed: $*"
	fi
}

ktap_note() {
	echo "# $*"
}

ktap_finish() {
	while [ "$KTAP_N" -lt "$KTAP_PLAN" ]; do
		ktap_fail "test $((KTAP_N + 1)) did not run" "the script stopped early"
	done
	echo "# Totals: pass:$KTAP_PASS fail:$KTAP_FAIL xfail:0 xpass:0 skip:$KTAP_SKIP error:0"
	[ "$KTAP_FAIL" -eq 0 ] || exit 1
	[ "$KTAP_PASS" -gt 0 ] || [ "$KTAP_SKIP" -eq 0 ] || exit 4
	exit 0
}
