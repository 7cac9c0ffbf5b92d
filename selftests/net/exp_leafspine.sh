#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exp_leafspine.sh: experiments/leafspine-websearch.exp (2 spines, 2 leaves,
# 4 hosts per leaf, WebSearch at 50% load, DCTCP) under pfc: it finishes
# with zero loss, and the report's slowdown percentiles agree with fct.txt
# recomputed here, independently, by the rule the report states.
set -u

USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run, tools/vm/run).
Results in \$FCQ_RESULTS/exp_leafspine (FCQ_RESULTS defaults to /tmp)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/exp.sh"
OUT=${FCQ_RESULTS:-/tmp}/exp_leafspine
ktap_plan 5

exp_run "$OUT" "$TOP/experiments/leafspine-websearch.exp"
rc=$EXP_RC
# 3: a run judged untrusted (late starts: a host slow to schedule the guest)
{ [ $rc = 0 ] || [ $rc = 3 ]; } && ktap_pass "fcq-exp runs the leaf-spine experiment" ||
	ktap_fail "fcq-exp runs the leaf-spine experiment" "exit $rc: $(tail -n 3 "$OUT.log")"

d=$OUT/scheme-1-pfc/seed-1
flows=$(jq .flows "$d/summary.json")
done=$(jq .completed "$d/summary.json")
lost=$(jq '.incomplete + .drops' "$d/summary.json")
lossless=$(jq '[.[].tc.drop_lossless] | add' "$d/stats.json")
ktap_note "flows $flows, completed $done, incomplete+drops $lost, lossless drops $lossless"
[ "$flows" -gt 100 ] && [ "$done" = "$flows" ] && [ "$lost" = 0 ] && [ "$lossless" = 0 ] &&
	ktap_pass "zero loss: every flow completed, no drop anywhere" ||
	ktap_fail "zero loss: every flow completed, no drop anywhere"

# Nearest rank: the ceil(p * n)-th smallest of max(1, fct / standalone).
pct() {
	awk '{ s = $7 / $8; if (s < 1) s = 1; printf "%.12g\n", s }' "$d/fct.txt" | sort -g |
		awk -v p="$1" '{ v[NR] = $1 } END { k = int(p * NR); if (k < p * NR) k++; printf "%.9f\n", v[k] }'
}
for p in 50 99; do
	mine=$(pct "0.$p")
	theirs=$(jq --arg k "p$p" '.schemes[0].runs[0].groups.all[$k]' "$OUT/report.json" 2>/dev/null)
	ktap_note "p$p slowdown: report $theirs, recomputed $mine"
	awk -v a="$mine" -v b="$theirs" 'BEGIN { d = a - b; exit !(b != "" && d < 1e-6 && d > -1e-6) }' &&
		ktap_pass "the report's p$p slowdown matches fct.txt" ||
		ktap_fail "the report's p$p slowdown matches fct.txt"
done

idle=$(jq .cpu_idle "$d/summary.json")
ktap_note "CPU idle while the traffic ran: $idle; start lag p99 $(jq \
	'.start_lag.p99_ns / 1e6' "$d/summary.json") ms, $(jq .start_lag.late \
	"$d/summary.json") flows late"
awk -v i="$idle" 'BEGIN { exit !(i >= 0.1) }' &&
	ktap_pass "the emulation had CPU to spare (its times are trustworthy)" ||
	ktap_fail "the emulation had CPU to spare (its times are trustworthy)"
ktap_finish
