#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exp_flowsail_e1.sh: Experiment E1 of Documentation/flowsail.rst (the
# FlowSail paper's testbed experiment, Fig. 9/10), experiments/
# flowsail-e1.exp with one seed, flowsail, bfc and ideal (8 queues with
# forced sharing; ideal a queue per flow; the other schemes and seeds are
# `make repro`'s). f1 (27 Mbit/s) and f2 (9) cross sw1's port P1 and sw2's
# port P2 (20 Mbit/s), f3 (9) crosses P1 only. Under every scheme nothing
# is lost or reordered. Ideal per-flow control keeps f2 and f3 at 0.9 of
# their rate or more and f1 within 20 % of what P2 leaves it; flowsail
# keeps f3 there (it isolates f1 at P1 instead of holding P1's queue) and
# gives f3 more than bfc does, which holds f3 with f1. The experiment
# raises the UDP send buffer and other machine-wide settings: they are
# back as they were once it ends.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	runs_trusted
	lossless_in_order
	ideal_per_flow
	flowsail_spares_f3
	bfc_holds_f3
	flowsail_isolates
	machine_restored
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run, tools/vm/run).
Results in \$FCQ_RESULTS/exp_flowsail_e1 (FCQ_RESULTS defaults to /tmp)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/exp.sh"
OUT=${FCQ_RESULTS:-/tmp}/exp_flowsail_e1
EXP=$TOP/experiments/flowsail-e1.exp
# Offered payload rates (Mbit/s), from the file
rate() { awk -v n="$1" '$1 == "paced" && $2 == n { sub(/Mbps$/, "", $5); print $5 }' "$EXP"; }
F2=$(rate f2) F3=$(rate f3)
# f1's share: what P2 (20 Mbit/s of frames) leaves after f2, in payload
# (1432 of 1538 bytes on the wire per datagram, Documentation/toolkit.rst)
F1_SHARE=$(echo "$F2" | awk '{ printf "%.2f", 20 * 1432 / 1538 - $1 }')

# What fcq-exp tunes for a run, machine-wide
machine() {
	sysctl -n net.core.wmem_default net.core.wmem_max \
		net.core.netdev_max_backlog fs.inotify.max_user_instances | tr '\n' ' '
	ps -o ni= -p "$(pgrep ksoftirqd | tr '\n' ',' | sed 's/,$//')" | xargs
}
MACHINE0=$(machine)

e1_run() {
	[ -z "${E1_RC:-}" ] || return 0
	mkdir -p "$OUT"
	exp_copy "$EXP" "$OUT/e1.exp" -e 's/^seeds .*/seed 1/' \
		-e '/^scheme *\(flowsail-2q\|bfc-1q\|pfc\|flowsail-ql2\) /d'
	exp_run_stalled "$OUT/e1" "$OUT/e1.exp"
	E1_RC=$EXP_RC
}

# mbps SCHEME STREAM: its goodput in the run
mbps() {
	gojq -r --arg s "$1" --arg f "$2" '.schemes[] | select(.scheme == $s)
		| .runs[0].paced[] | select(.name == $f) | .mbps' \
		"$OUT/e1/report.json" 2>/dev/null
}

# at_least V REF FRACTION: V >= FRACTION x REF
at_least() { awk -v v="$1" -v r="$2" -v f="$3" 'BEGIN { exit !(v >= f * r) }'; }
within() { awk -v v="$1" -v r="$2" -v f="$3" 'BEGIN { exit !(v >= (1 - f) * r && v <= (1 + f) * r) }'; }

runs_trusted() {
	e1_run
	exp_check_trusted "$OUT/e1" "$E1_RC"
	log_test "flowsail, bfc and ideal ran, their times trusted"
}

lossless_in_order() {
	e1_run
	exp_check_lossless "$OUT/e1/report.json"
	log_test "every scheme: no stream lost, reordered or duplicated, no drop"
}

ideal_per_flow() {
	local f1 f2 f3
	e1_run
	f1=$(mbps ideal f1) f2=$(mbps ideal f2) f3=$(mbps ideal f3)
	ktap_note "ideal: f1 $f1 (share $F1_SHARE), f2 $f2, f3 $f3 Mbit/s"
	at_least "$f2" "$F2" 0.9 && at_least "$f3" "$F3" 0.9 &&
		within "$f1" "$F1_SHARE" 0.2
	check_err $? "f1 $f1, f2 $f2, f3 $f3"
	log_test "ideal: f2 and f3 at 0.9 of their rate or more, f1 within 20 % of its share"
}

flowsail_spares_f3() {
	local f1 f2 f3
	e1_run
	f1=$(mbps flowsail f1) f2=$(mbps flowsail f2) f3=$(mbps flowsail f3)
	ktap_note "flowsail: f1 $f1, f2 $f2, f3 $f3 Mbit/s"
	at_least "$f3" "$F3" 0.9
	check_err $? "f3 $f3"
	log_test "flowsail: f3, which shares P1's queue with f1, keeps 0.9 of its rate or more"
}

bfc_holds_f3() {
	local f3 b3
	e1_run
	f3=$(mbps flowsail f3) b3=$(mbps bfc f3)
	ktap_note "f3: flowsail $f3, bfc $b3 Mbit/s"
	at_least "$f3" "$b3" 1.1
	check_err $? "flowsail $f3, bfc $b3"
	log_test "bfc holds f3 with f1 at P1: flowsail gives f3 at least 1.1x what bfc does"
}

# sw1's port to sw2 (P1) moved flows to its reserved queue; bfc's held
# queues instead (pinned). Whether a move needed an order mark depends on
# whether the flow had a packet in P1's queue just then (runs: 0 or 1 of
# 2 moves): reported, not judged.
flowsail_isolates() {
	local fs b
	e1_run
	fs=$(gojq -r '[.[] | select(.netns == "fcq-s3" and .dev == "p1") | .tc.flowsail
		| .cft_insert, .om_pairs, .pinned] | @tsv' \
		"$OUT"/e1/scheme-1-*/seed-1/stats.json 2>/dev/null)
	b=$(gojq -r '[.[] | select(.netns == "fcq-s3" and .dev == "p1") | .tc.flowsail
		| .cft_insert, .pinned] | @tsv' "$OUT"/e1/scheme-2-*/seed-1/stats.json 2>/dev/null)
	ktap_note "P1 under flowsail: cft_insert, om_pairs, pinned: $fs; under bfc: cft_insert, pinned: $b"
	read -r ins _ pin <<<"$fs"
	read -r bins bpin <<<"$b"
	[ "${ins:-0}" -gt 0 ] && [ "${pin:-1}" = 0 ] &&
		[ "${bins:-1}" = 0 ] && [ "${bpin:-0}" -gt 0 ]
	check_err $? "flowsail $fs; bfc $b"
	log_test "P1 isolates f1 in its reserved queue under flowsail, holds its queue under bfc"
}

machine_restored() {
	local m
	e1_run
	m=$(machine)
	ktap_note "wmem_default, wmem_max, netdev_max_backlog, inotify instances, ksoftirqd nice: before $MACHINE0; after $m"
	[ "$m" = "$MACHINE0" ]
	check_err $? "$m"
	log_test "fcq-exp leaves the machine's settings as they were"
}

tests_plan
tests_run
ktap_finish
