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
#
# Tests as functions, as tools/testing/selftests/net/forwarding/lib.sh runs
# them: one function per case, each reporting once, by log_test.
#
#   ALL_TESTS="fn ..."      the script's cases, in order (set before usage.sh,
#                           which lists them in --help)
#   TESTS="fn ..."          (environment) run only these, in the script's
#                           order (later cases may rely on earlier ones)
#   tests_plan              check TESTS against ALL_TESTS (exit 2 naming an
#                           unknown one) and print the plan: their number
#   tests_run               run each; a function that does not report
#                           exactly once is failed for it
#   check_err STATUS MSG    fail the running case with MSG unless STATUS is 0
#   check_fail STATUS MSG   fail it with MSG if STATUS is 0
#   check_skip WHY          skip the running case, saying WHY, unless a check
#                           failed: what it judges could not be measured here
#   log_test NAME           report the running case: ok unless a check failed
#                           or it was skipped

KTAP_N=0 KTAP_PASS=0 KTAP_FAIL=0 KTAP_SKIP=0 KTAP_PLAN=0 RET=0 RETMSG=
RETSKIP=

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

tests_selected() {
	local t
	for t in $ALL_TESTS; do
		case " $(echo ${TESTS:-$ALL_TESTS}) " in
		*" $t "*) echo "$t" ;;
		esac
	done
}

tests_plan() {
	local t all
	all=$(echo $ALL_TESTS)	# one line, single spaces
	for t in ${TESTS:-}; do
		case " $all " in
		*" $t "*) ;;
		*)
			echo "${0##*/}: no test '$t' (tests: $all)" >&2
			exit 2
			;;
		esac
	done
	ktap_plan "$(tests_selected | wc -l)"
}

check_err() {
	if [ "$RET" = 0 ] && [ "$1" != 0 ]; then
		RET=$1 RETMSG=$2
	fi
}

check_fail() {
	if [ "$RET" = 0 ] && [ "$1" = 0 ]; then
		RET=1 RETMSG=$2
	fi
}

check_skip() {
	[ -n "$RETSKIP" ] || RETSKIP=$1
}

log_test() {
	if [ "$RET" != 0 ]; then
		ktap_fail "$1" "$RETMSG"
	elif [ -n "$RETSKIP" ]; then
		ktap_skip "$1" "$RETSKIP"
	else
		ktap_pass "$1"
	fi
}

# Its locals are named apart: a case's helpers may set t or n unawares.
tests_run() {
	local __ktap_t __ktap_n
	for __ktap_t in $(tests_selected); do
		RET=0 RETMSG='' RETSKIP='' __ktap_n=$KTAP_N
		"$__ktap_t"
		[ $((KTAP_N - __ktap_n)) = 1 ] || ktap_fail "$__ktap_t" \
			"reported $((KTAP_N - __ktap_n)) results, not one"
	done
}
