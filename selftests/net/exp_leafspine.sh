#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exp_leafspine.sh: experiments/leafspine-websearch.exp (2 spines, 2 leaves,
# 4 hosts per leaf, WebSearch at 50% load, DCTCP) under pfc: it finishes
# with zero loss, and the report's slowdown percentiles agree with fct.txt
# recomputed here, independently, by the rule the report states.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	leafspine_runs
	zero_loss
	p50_matches_report
	p99_matches_report
	cpu_to_spare
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run, tools/vm/run).
Results in \$FCQ_RESULTS/exp_leafspine (FCQ_RESULTS defaults to /tmp)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/exp.sh"
OUT=${FCQ_RESULTS:-/tmp}/exp_leafspine
RUN=$OUT/scheme-1-pfc/seed-1

# The experiment, run once whichever case needs it first (so that TESTS=
# may name any case); LEAFSPINE_RC is fcq-exp's exit status.
leafspine_run() {
	[ -z "${LEAFSPINE_RC:-}" ] || return 0
	exp_run "$OUT" "$TOP/experiments/leafspine-websearch.exp"
	LEAFSPINE_RC=$EXP_RC
}

# 3: a run judged untrusted (late starts: a host slow to schedule the guest)
leafspine_runs() {
	leafspine_run
	[ "$LEAFSPINE_RC" = 0 ] || [ "$LEAFSPINE_RC" = 3 ]
	check_err $? "exit $LEAFSPINE_RC: $(tail -n 3 "$OUT.log")"
	log_test "fcq-exp runs the leaf-spine experiment"
}

zero_loss() {
	local flows completed lost lossless
	leafspine_run
	flows=$(gojq .flows "$RUN/summary.json")
	completed=$(gojq .completed "$RUN/summary.json")
	lost=$(gojq '.incomplete + .drops' "$RUN/summary.json")
	lossless=$(gojq '[.[].tc.drop_lossless] | add' "$RUN/stats.json")
	ktap_note "flows $flows, completed $completed, incomplete+drops $lost, lossless drops $lossless"
	[ "$flows" -gt 100 ] && [ "$completed" = "$flows" ] && [ "$lost" = 0 ] && [ "$lossless" = 0 ]
	check_err $? "flows $flows, completed $completed, incomplete+drops $lost, lossless drops $lossless"
	log_test "zero loss: every flow completed, no drop anywhere"
}

# Nearest rank: the ceil(p * n)-th smallest of max(1, fct / standalone).
pct() {
	awk '{ s = $7 / $8; if (s < 1) s = 1; printf "%.12g\n", s }' "$RUN/fct.txt" | sort -g |
		awk -v p="$1" '{ v[NR] = $1 } END { k = int(p * NR); if (k < p * NR) k++; printf "%.9f\n", v[k] }'
}
# pct_matches P: the report's pP slowdown is the one recomputed.
pct_matches() {
	local p=$1 mine theirs
	leafspine_run
	mine=$(pct "0.$p")
	theirs=$(gojq --arg k "p$p" '.schemes[0].runs[0].groups.all[$k]' "$OUT/report.json" 2>/dev/null)
	ktap_note "p$p slowdown: report $theirs, recomputed $mine"
	awk -v a="$mine" -v b="$theirs" 'BEGIN { d = a - b; exit !(b != "" && d < 1e-6 && d > -1e-6) }'
	check_err $? "report $theirs, recomputed $mine"
}

p50_matches_report() {
	pct_matches 50
	log_test "the report's p50 slowdown matches fct.txt"
}

p99_matches_report() {
	pct_matches 99
	log_test "the report's p99 slowdown matches fct.txt"
}

cpu_to_spare() {
	local idle
	leafspine_run
	idle=$(gojq .cpu_idle "$RUN/summary.json")
	ktap_note "CPU idle while the traffic ran: $idle; start lag p99 $(gojq \
		'.start_lag.p99_ns / 1e6' "$RUN/summary.json") ms, $(gojq .start_lag.late \
		"$RUN/summary.json") flows late"
	awk -v i="$idle" 'BEGIN { exit !(i >= 0.1) }'
	check_err $? "CPU idle $idle, under 0.1"
	log_test "the emulation had CPU to spare (its times are trustworthy)"
}

tests_plan
tests_run
ktap_finish
