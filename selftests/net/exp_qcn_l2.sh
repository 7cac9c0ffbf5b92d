#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exp_qcn_l2.sh: the L2 part of make demo (experiments/demo-qcn.exp),
# shortened to 4 s of WebSearch arrivals, one seed, Unbiased QCN alone:
# eight hosts on two bridged leaves under one spine, every switch port
# qcn with input CPs sampling by occupancy, every host NIC qcnrp. A CP on
# a port that faces another switch names sources one or two bridges
# away: its CNM crosses them to the source's reaction point. Nothing is
# lost, every flow completes, and every CNM a switch port sent reaches
# the host it names.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	runs_trusted
	lossless
	cnms_cross_bridges
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run, tools/vm/run).
Results in \$FCQ_RESULTS/exp_qcn_l2 (FCQ_RESULTS defaults to /tmp)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/exp.sh"
OUT=${FCQ_RESULTS:-/tmp}/exp_qcn_l2
RUN=$OUT/l2/scheme-1-uqcn/seed-1

l2_run() {
	[ -z "${L2_RC:-}" ] || return 0
	mkdir -p "$OUT"
	exp_copy "$TOP/experiments/demo-qcn.exp" "$OUT/l2.exp" \
		-e 's/^seeds .*/seed 1/' -e 's/^duration .*/duration 4/' \
		-e 's/^drain .*/drain 30/' -e '/^scheme *\(pause\|qcn\) /d'
	exp_run_stalled "$OUT/l2" "$OUT/l2.exp"
	L2_RC=$EXP_RC
}

# sw_cnms ROLE: CNMs sent by the switch ports whose peer is a host
# (ROLE host) or a switch (ROLE switch): net.txt's "switch ID NETNS" and
# "port NETNS DEV RATE DELAY PEER" lines
sw_cnms() {
	gojq -n -r --arg role "$1" --rawfile net "$RUN/net.txt" \
		--slurpfile st "$RUN/stats.json" '
		[$net | split("\n")[] | split(" ")] as $l
		| [$l[] | select(.[0] == "switch")] as $sw
		| [$l[] | select(.[0] == "port" and (.[1] | IN($sw[][2])))
		   | {ns: .[1], dev: .[2],
		      to: (if .[5] | IN($sw[][1]) then "switch" else "host" end)}
		   | select(.to == $role)] as $ports
		| [$st[0][] | . as $e
		   | select(any($ports[]; .ns == $e.netns and .dev == $e.dev))
		   | .tc.qcn.cnm_tx // 0] | add // 0'
}

# A run the host stalled in every try skips this case; the others still
# judge it: nothing lost and every CNM delivered must hold whatever the
# host's timing.
runs_trusted() {
	l2_run
	exp_check_trusted "$OUT/l2" "$L2_RC"
	log_test "uqcn ran, its times trusted"
}

lossless() {
	local got
	l2_run
	got=$(gojq -r '.schemes[0].runs[0] |
		"\(.completed) \(.incomplete) \(.drops) \(.drop_lossless)"' \
		"$OUT/l2/report.json" 2>/dev/null)
	ktap_note "flows completed, incomplete, drops, lossless drops: $got; of $(gojq .flows "$RUN/summary.json" 2>/dev/null) flows"
	[ -n "$got" ] && [ "${got#* }" = "0 0 0" ] &&
		[ "${got%% *}" = "$(gojq .flows "$RUN/summary.json")" ]
	check_err $? "${got:-no report}"
	log_test "every flow completes; nothing dropped"
}

# Every CNM a switch sent (cnm_tx) reached the host it names: applied
# (cnm_rx), of QntzFb 0 (cnm_zero) or late (cnm_late); a CNM flooded to
# the other hosts of a leaf is their cnm_not_ours, not counted. Ports that
# face another switch sent some: their CNMs crossed a bridge or two.
cnms_cross_bridges() {
	local tx rx far near rl
	l2_run
	tx=$(gojq '[.[] | select(.role == "switch") | .tc.qcn.cnm_tx // 0] | add' \
		"$RUN/stats.json" 2>/dev/null)
	rx=$(gojq '[.[] | select(.role == "host") | .tc.qcnrp
		| .cnm_rx + .cnm_zero + .cnm_late] | add' "$RUN/stats.json" 2>/dev/null)
	rl=$(gojq '[.[] | select(.role == "host") | .tc.qcnrp.rl_created] | add' \
		"$RUN/stats.json" 2>/dev/null)
	far=$(sw_cnms switch 2>/dev/null) near=$(sw_cnms host 2>/dev/null)
	ktap_note "CNMs sent by switch ports toward switches $far, toward hosts $near, all $tx; taken by the hosts $rx; rate limiters made $rl"
	[ -n "$tx" ] && [ "$tx" = "$rx" ] && [ "$((far + near))" = "$tx" ] &&
		[ "$far" -gt 0 ] && [ "$rl" -gt 0 ]
	check_err $? "sent $tx (toward switches ${far:-?}), taken $rx, RLs $rl"
	log_test "CNMs from ports facing switches cross the bridges; every CNM reaches its source"
}

tests_plan
tests_run
ktap_finish
