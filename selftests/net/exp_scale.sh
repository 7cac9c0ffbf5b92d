#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exp_scale.sh: fcq-exp's timing holds at scale, and what it cannot hold it
# says. A 64-host star whose three flows from hosts 1, 32 and 63 are
# scheduled at one instant: they start on time (the generators of all 64
# hosts wait for one epoch) and finish within a small multiple of their
# ideal FCT. A run far beyond what the guest emulates is refused before any
# traffic, with the scale that would fit; forced, it is marked untrusted
# and fcq-exp exits 3.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	same_flows_complete
	same_within_10x
	same_start_lags
	big_refused
	big_forced_untrusted
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run, tools/vm/run).
Results in \$FCQ_RESULTS/exp_scale (FCQ_RESULTS defaults to /tmp)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/exp.sh"
OUT=${FCQ_RESULTS:-/tmp}/exp_scale
RUN=$OUT/same/scheme-1-pfc/seed-1

# ---- 64 hosts, three flows at one instant ---------------------------------

# The experiment, run once whichever case needs it first (so that TESTS=
# may name any case); SAME_RC is fcq-exp's exit status.
# fct / standalone (2 base RTTs and the bytes: ~3.1 ms here). Measured on
# both kernels beside one to three other guests (icount 1): 0.47-1.72 in
# 10 runs; before the generators waited for one epoch, a 63-host star's
# same-instant flows took 7.0-15.2 s for an ideal of 11 ms (over 600x),
# growing with the host id. 10x (31 ms) fails a start a tenth of a second
# late. Beside two other guests every run (3 of 3) stalled the whole guest
# for ~12 ms just after the epoch: the first flow started on time, the
# other two 12.7-13.0 ms late, and all three ended 14-17 ms after the
# epoch (4.4-5.3x). fcq-exp measures the late starts and calls the run
# untrusted (exit 3); once, beside three guests, the stall was 47 ms (15x).
# A run that stalls over the bound says nothing about the timing under
# test, so it is run again, up to twice; the last one is judged.
over_10x() { [ -n "$(awk '$7 > 10 * $8' "$RUN/fct.txt" 2>/dev/null)" ]; }
same_run() {
	[ -z "${SAME_RC:-}" ] || return 0
	exp_run_stalled "$OUT/same" "$OUT/same.exp" over_10x
	SAME_RC=$EXP_RC
}

same_flows_complete() {
	same_run
	{ [ "$SAME_RC" = 0 ] || { [ "$SAME_RC" = 3 ] && exp_stalled "$OUT/same"; }; } &&
		[ "$(gojq .completed "$RUN/summary.json" 2>/dev/null)" = 3 ]
	check_err $? "exit $SAME_RC: $(tail -n 3 "$OUT/same.log")"
	log_test "64-host star: the three flows complete"
}

same_within_10x() {
	local slow bad
	same_run
	slow=$(awk '{ printf "%.2f ", $7 / $8 }' "$RUN/fct.txt")
	ktap_note "slowdowns of hosts' flows: $slow; start lags (us): $(awk '{ printf "%d ", $5 / 1000 }' "$RUN/lag.txt")"
	bad=$(awk '$7 > 10 * $8' "$RUN/fct.txt")
	[ "$(wc -l <"$RUN/fct.txt")" = 3 ] && [ -z "$bad" ]
	check_err $? "$bad"
	log_test "same-instant flows finish within 10x their ideal FCT"
}

same_start_lags() {
	same_run
	[ "$(wc -l <"$RUN/lag.txt")" = 3 ] && [ "$(gojq .start_lag.flows "$RUN/summary.json")" = 3 ]
	check_err $? "lag.txt or summary.json's start_lag does not count 3 flows"
	log_test "each flow's start lag is recorded and summarised"
}

# ---- far beyond the guest: refused, then forced and flagged -----------------
big_refused() {
	local rc msg
	"$TOP/tools/fcq-exp" --native --out "$OUT/big" "$OUT/big.exp" >"$OUT/big.log" 2>&1
	rc=$?
	msg=$(grep -m1 'cannot emulate' "$OUT/big.log")
	ktap_note "exit $rc: ${msg#*] }"
	[ "$rc" = 1 ] && [[ "$msg" == *"raise scale to"* ]] &&
		[ ! -s "$OUT/big/scheme-1-pfc/seed-1/fct.txt" ]
	check_err $? "exit $rc, or no scale that fits, or traffic ran"
	log_test "a run beyond the guest is refused with a scale that fits, exit 1"
}

big_forced_untrusted() {
	local rc why
	"$TOP/tools/fcq-exp" --native --force --out "$OUT/big" "$OUT/big.exp" \
		>"$OUT/forced.log" 2>&1
	rc=$?
	why=$(gojq -r '.untrusted | join("; ")' "$OUT/big/scheme-1-pfc/seed-1/summary.json" 2>/dev/null)
	ktap_note "forced: exit $rc: $why"
	[ "$rc" = 3 ] && [ -n "$why" ] && grep -q '^WARNING' "$OUT/big/report.txt" 2>/dev/null
	check_err $? "$(tail -n 3 "$OUT/forced.log")"
	log_test "forced, it is marked untrusted in the report, exit 3"
}

tests_plan
mkdir -p "$OUT"
cat >"$OUT/same.txt" <<'EOF'
3
1 0 3 100 1000 2.000000000
32 0 3 100 1000 2.000000000
63 0 3 100 1000 2.000000000
EOF
cat >"$OUT/same.exp" <<'EOF'
topology  star:64
rate      100Mbps
delay     0.02ms
mtu       9000
flows     same.txt
drain     20
scheme    pfc | pfc lossless 3 response 5ms | pfc lossless 3
EOF
# 8 hosts at 1 Gbit/s, WebSearch at 0.5 with 1500-byte frames: ~20x the
# frames per second one guest core emulates.
cat >"$OUT/big.exp" <<'EOF'
topology  star:8
rate      1Gbps
delay     0.02ms
mtu       1500
workload  websearch 0.5
duration  1
drain     5
scheme    pfc | pfc lossless 3 response 5ms | pfc lossless 3
EOF
tests_run
ktap_finish
