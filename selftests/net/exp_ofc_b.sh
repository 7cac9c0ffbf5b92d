#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exp_ofc_b.sh: Experiment B of Documentation/ofc.rst (the OFC paper's
# deadlocks), experiments/ofc-ring.exp at its largest burst (M = 2560,
# where pfc deadlocks most) with three seeds, pfc against ofc (the file's
# caPFC, its smaller bursts and more seeds are for a full run): a ring of
# seven routed switches whose buffers depend on each other in a cycle.
# Whether a trial deadlocks depends on how the hosts' bursts interleave,
# not on the seed alone. Seeds 1, 2 and 6 are splits under which pfc
# deadlocked in nearly every run (seed 1: 11 of 12, seed 2: 9 of 11, on
# 6.1 and 6.12, counting a CI run in which neither did; of seeds 1-10,
# twice on 6.1, only 1, 2, 6 and 8 deadlocked both times): at least one
# of the three must deadlock here, with every clockwise ring queue held
# non-empty.
# ofc may deadlock too (its whole-class X_OFF pause closes a cycle as
# PFC's does: once in 33 trials, seed 1 in a make check), but in no more
# trials than pfc, and a trial it does not deadlock completes every flow.
# No drop under either, and no completed flow reordered. pfcwd, pfc with
# the PFC watchdog, must end every trial with the ring drained (a pfc
# deadlock never is), dropping what the watchdog found stuck.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	runs_done
	pfc_deadlocks
	pfc_cycle_held
	ofc_no_worse
	pfcwd_recovers
	no_drops
	in_order
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run, tools/vm/run).
Results in \$FCQ_RESULTS/exp_ofc_b (FCQ_RESULTS defaults to /tmp)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/exp.sh"
OUT=${FCQ_RESULTS:-/tmp}/exp_ofc_b
EXP=$TOP/experiments/ofc-ring.exp

# The experiment, once whichever case needs it first; B_RC is fcq-exp's
# exit status (3 when tiny shares started late: a trial's deadlock does
# not depend on a few milliseconds).
b_run() {
	[ -z "${B_RC:-}" ] || return 0
	mkdir -p "$OUT"
	exp_copy "$EXP" "$OUT/b.exp" -e 's/^seeds .*/seeds 1 2 6/' \
		-e 's/^burst .*/burst 2560 3/' -e '/^scheme *capfc /d'
	exp_run "$OUT/b" "$OUT/b.exp"
	B_RC=$EXP_RC
}

# stuck SCHEME: the seeds of SCHEME's trials with flows never completed
stuck() {
	gojq -r --arg s "$1" '.schemes[] | select(.scheme == $s) | .runs[]
		| select(.incomplete > 0) | .seed' "$OUT/b/report.json" 2>/dev/null |
		tr '\n' ' '
}

runs_done() {
	b_run
	[ "$B_RC" = 0 ] || [ "$B_RC" = 3 ]
	check_err $? "fcq-exp exit $B_RC: $(tail -n 3 "$OUT/b.log")"
	log_test "pfc and ofc ran three trials each"
}

pfc_deadlocks() {
	local s
	b_run
	s=$(stuck pfc)
	ktap_note "pfc deadlocked in seed(s): ${s:-none}; ofc in: $(stuck ofc)"
	[ -n "$s" ]
	check_err $? "pfc deadlocked in no trial"
	log_test "pfc deadlocks the ring"
}

# In a stuck pfc trial, the queue of every switch port toward the next
# switch clockwise is non-empty (the cycle, held by pause frames), and the
# counter-clockwise ones are empty.
pfc_cycle_held() {
	local s dir held
	b_run
	s=$(stuck pfc)
	if [ -z "$s" ]; then
		ktap_skip "a deadlocked trial holds all seven clockwise queues" \
			"no pfc deadlock to look at"
		return
	fi
	dir=$OUT/b/scheme-1-pfc/seed-${s%% *}
	# switch-to-switch ports: a switch's own, facing a switch
	held=$(awk '$1 == "switch" { sw[$2] = 1; swns[$3] = 1 }
		$1 == "port" && ($2 in swns) && ($6 in sw) { print $2, $3, $6 }' \
		"$dir/net.txt" |
		while read -r ns dev peer; do
			echo "$ns $dev $peer $(gojq --arg n "$ns" --arg d "$dev" \
				'.[] | select(.netns == $n and .dev == $d) | .tc.backlog' \
				"$dir/stats.json")"
		done | awk '{ split($1, a, "-s"); self = a[2]
			nxt = (self - 7 + 1) % 7 + 7
			if ($3 == nxt) { cw++; if ($4 > 0) full++ }
			else if ($4 > 0) ccw++ }
		END { printf "%d %d %d", cw, full, ccw }')
	ktap_note "seed ${s%% *}: clockwise ports, of them non-empty, counter-clockwise non-empty: $held"
	[ "$held" = "7 7 0" ]
	check_err $? "$held"
	log_test "a deadlocked trial holds all seven clockwise queues"
}

ofc_no_worse() {
	local s p bad
	b_run
	s=$(stuck ofc) p=$(stuck pfc)
	# an ofc trial that did not deadlock and still missed a flow
	bad=$(gojq -r '.schemes[] | select(.scheme == "ofc") | .runs[]
		| select(.incomplete == 0 and .completed != .summary.flows) | .seed' \
		"$OUT/b/report.json" 2>/dev/null)
	ktap_note "deadlocked trials: ofc ${s:-none}, pfc ${p:-none}"
	[ "$(echo "$s" | wc -w)" -le "$(echo "$p" | wc -w)" ] && [ -z "$bad" ]
	check_err $? "ofc stuck in ${s:-none}, pfc in ${p:-none}; incomplete ofc trial(s) ${bad:-none}"
	log_test "ofc deadlocks no more trials than pfc"
}

# backlog SCHEME SEED: bytes left queued in the fabric after the drain
backlog() {
	gojq '[.[] | .tc.backlog // 0] | add' \
		"$OUT/b/scheme-$1/seed-$2/stats.json" 2>/dev/null
}

# Every pfcwd trial ends with nothing queued anywhere, and every pfc trial
# that deadlocked with its cycle still held: recovered N of N with the
# watchdog, 0 of N without.
pfcwd_recovers() {
	local s i=0 n=0 p=0 pn=0 left drops
	b_run
	for s in 1 2 6; do
		left=$(backlog 3-pfcwd "$s")
		drops=$(gojq -r --argjson s "$s" '.schemes[] | select(.scheme ==
			"pfcwd") | .runs[] | select(.seed == $s) | .drops' \
			"$OUT/b/report.json" 2>/dev/null)
		ktap_note "pfcwd seed $s: ${left:-?} bytes left queued, ${drops:-?} packets dropped"
		n=$((n + 1))
		[ "${left:-1}" = 0 ] && i=$((i + 1))
	done
	for s in $(stuck pfc); do
		pn=$((pn + 1))
		[ "$(backlog 1-pfc "$s")" = 0 ] && p=$((p + 1))
	done
	ktap_note "recovered: pfcwd $i of $n trials; pfc $p of the $pn that deadlocked"
	[ "$i" = "$n" ] && [ "$p" = 0 ]
	check_err $? "pfcwd drained $i of $n trials; pfc $p of $pn deadlocks"
	log_test "the watchdog ends every ring deadlock"
}

no_drops() {
	local d
	b_run
	d=$(gojq -r '[.schemes[] | select(.scheme != "pfcwd") | .runs[]
		| (.drops // 0) + (.drop_lossless // 0)] | add' \
		"$OUT/b/report.json" 2>/dev/null)
	[ "$d" = 0 ]
	check_err $? "$d dropped"
	log_test "no drop in any pfc or ofc trial"
}

# The sinks count, in every flow that completed, the datagrams that came
# below the highest offset before them (a deadlocked trial's stuck flows
# never complete: its other flows are counted).
in_order() {
	local r bad
	b_run
	r=$(gojq -r '[.schemes[] | .scheme as $s | .runs[]
		| "\($s) seed \(.seed): \(.reorders)"] | join(", ")' \
		"$OUT/b/report.json" 2>/dev/null)
	# null: not counted, which fails too
	bad=$(gojq '[.schemes[].runs[] | select(.reorders != 0)] | length' \
		"$OUT/b/report.json" 2>/dev/null)
	ktap_note "reorders: ${r:-no report}"
	[ -n "$r" ] && [ "$bad" = 0 ]
	check_err $? "reorders: ${r:-no report}"
	log_test "no completed flow reordered, under pfc or ofc"
}

tests_plan
tests_run
ktap_finish
