#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exp_hpcc.sh: the HPCC simulator's own topology.txt and flow.txt, unchanged,
# through fcq-exp: every flow completes, nothing is dropped, and fct.txt has
# the simulator's columns.
set -u

USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run, tools/vm/run).
Results in \$FCQ_RESULTS/exp_hpcc (FCQ_RESULTS defaults to /tmp)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
OUT=${FCQ_RESULTS:-/tmp}/exp_hpcc
EX=$TOP/experiments/hpcc-example
ktap_plan 4

"$TOP/tools/fcq-exp" --native --out "$OUT" "$TOP/experiments/hpcc-example.exp" \
	>"$OUT.log" 2>&1
rc=$?
sed 's/^/# /' "$OUT.log" | grep -E 'done|WARNING'
[ $rc = 0 ] && ktap_pass "fcq-exp runs the experiment" ||
	ktap_fail "fcq-exp runs the experiment" "exit $rc: $(tail -n 3 "$OUT.log")"

cmp -s "$EX/topology.txt" "$OUT/topology.txt" && cmp -s "$EX/flow.txt" "$OUT/flow.txt" &&
	ktap_pass "the simulator's files were used unchanged" ||
	ktap_fail "the simulator's files were used unchanged"

s=$OUT/scheme-1-pfc/summary.json
[ "$(jq '.completed' "$s" 2>/dev/null)" = 8 ] &&
	[ "$(jq '.incomplete + .drops' "$s")" = 0 ] &&
	ktap_pass "all 8 flows complete, no drop" ||
	ktap_fail "all 8 flows complete, no drop" "$(cat "$s" 2>/dev/null)"

# sip dip sport dport size start_ns fct_ns standalone_fct_ns
bad=$(awk 'NF != 8 || length($1) != 8 || length($2) != 8 ||
	   $1 !~ /^0b[0-9a-f]+$/ || $2 !~ /^0b[0-9a-f]+$/ || $7 <= 0 || $8 <= 0' \
	"$OUT/scheme-1-pfc/fct.txt" | wc -l)
sizes=$(awk '{ print $5 }' "$OUT/scheme-1-pfc/fct.txt" | sort -n | tr '\n' ' ')
want=$(tail -n +2 "$EX/flow.txt" | awk '{ print $5 }' | sort -n | tr '\n' ' ')
[ "$bad" = 0 ] && [ "$sizes" = "$want" ] &&
	ktap_pass "fct.txt in the simulator's columns, one line per flow" ||
	ktap_fail "fct.txt in the simulator's columns, one line per flow" \
		"$bad bad lines; sizes $sizes vs $want"
ktap_finish
