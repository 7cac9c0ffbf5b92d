#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pfc_rx.sh: what a port does with the PFC and PAUSE frames it receives.
# Frames are injected with fcq-frame from the switch end of host h1's link
# while h1 sends a TCP flow to h2 on lossless priority 3: quanta expiry,
# zero-quanta resume, pause-while-paused, 802.3x PAUSE, and bad frames
# (truncated, wrong destination, wrong opcode, PFC for a priority that is not
# lossless, a pause longer than pause_max) counted and dropped while the
# port keeps forwarding.
set -u
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/net.sh"

OUT=${FCQ_RESULTS:-/tmp}/pfc_rx
WORK=$(mktemp -d)	# live files on tmpfs (the results share caches sizes)
TOS=0x60
# A slow link leaves this script CPU to time its steps under TCG.
RATE=20mbit
# 1 quantum = 512 bit times = 25.6 us at 20 Mbit/s
Q2000_NS=51200000
mkdir -p "$OUT"

ktap_plan 12
star bridge h1 h2
qdisc_all pfc rate $RATE delay 50us lossless 3 -- \
	  pfc rate $RATE delay 50us lossless 3
nsx h-h1 ping -q -c 1 -W 2 "$(addr h2)" >/dev/null
serve h2 -t $TOS
sleep 0.3
# The flow runs until the test stops it (FLOW_S is only a backstop): under
# a loaded TCG host the cases below take from 10 s to over a minute.
FLOW_S=900
nsx h-h1 fcq-gen bulk -t $TOS -i 0.05 "$(addr h2)" $FLOW_S >"$WORK/flow.jsonl" &
flow=$!
NET_PIDS+=($flow)
sleep 1

# h1's counters, one `tc` call for all of them: h1 JQ... prints the values
# on one line (each tc and jq costs tens of ms of emulated CPU).
h1() {
	local q=$1 f
	shift
	for f in "$@"; do q="$q, $f"; done
	xstat h-h1 h1-eth "[$q] | @tsv"
}
# Inject frames toward h1; remember when the last one left.
inject() { LAST=$(nsx sw fcq-frame sw-h1 "$@" | tail -n 1); }
# The frame crosses the 50 us link; give the softirqs time under TCG.
settle() { sleep "${1:-0.3}"; }
# The flow's goodput (Mbit/s) in [FROM, FROM + SECONDS], from its own
# time-stamped samples: the shell is too slow under load to time it.
goodput() {
	jq -s --argjson a "$1" --argjson s "$2" '
		map(select(.ns >= $a and .ns <= $a + $s * 1e9)) |
		if length < 2 then 0 else
		(.[-1].acked - .[0].acked) * 8 / ((.[-1].ns - .[0].ns) / 1e9) / 1e6
		end | floor' "$WORK/flow.jsonl"
}

# 1. A pause ends by quanta expiry: no XON needed.
read -r p0 r0 < <(h1 '.prio[3].paused_ns' '.prio[3].pfc_rx')
inject pfc 3:2000
settle
read -r p1 r1 < <(h1 '.prio[3].paused_ns' '.prio[3].pfc_rx')
expired=$LAST
ktap_note "2000 quanta paused priority 3 for $((p1 - p0)) ns"
[ $((r1 - r0)) = 1 ] && [ $((p1 - p0)) = $Q2000_NS ] &&
	ktap_pass "2000 quanta at 20 Mbit/s pause exactly 51.2 ms, then expire" ||
	ktap_fail "2000 quanta at 20 Mbit/s pause exactly 51.2 ms, then expire" \
		"pfc_rx +$((r1 - r0)), paused +$((p1 - p0)) ns"

# 2. Zero quanta resumes at once (XON), long before the 1.68 s expiry.
p0=$(h1 '.prio[3].paused_ns')
inject pfc 3:65535 --wait 50ms pfc 3:0
settle
d=$(($(h1 '.prio[3].paused_ns') - p0))
ktap_note "65535 quanta then XON 50 ms later: paused $d ns"
[ "$d" -gt 45000000 ] && [ "$d" -lt 100000000 ] &&
	ktap_pass "zero quanta resumes before the pause expires" ||
	ktap_fail "zero quanta resumes before the pause expires" "paused $d ns"

# 3. Pause while paused: the newer frame replaces the running pause, so
# the port stands still for the gap plus 51.2 ms (not the gap alone, not
# 1.68 s). The frames are sent 50 ms apart but arrive with TCG's jitter
# (a 49.6 ms gap was seen), so the gap is taken as at least 45 ms, as in 2.
p0=$(h1 '.prio[3].paused_ns')
inject pfc 3:65535 --wait 50ms pfc 3:2000
settle 0.5
d=$(($(h1 '.prio[3].paused_ns') - p0))
ktap_note "65535 quanta then 2000 quanta 50 ms later: paused $d ns"
[ "$d" -gt $((45000000 + Q2000_NS)) ] && [ "$d" -lt 160000000 ] &&
	ktap_pass "a pause received while paused replaces the running one" ||
	ktap_fail "a pause received while paused replaces the running one" "paused $d ns"

# 4. 802.3x PAUSE stops the whole link: every class, lossless or not.
read -r p0 q0 x0 < <(h1 '.prio[3].paused_ns' '.prio[0].paused_ns' '.rx_pause')
inject pause 2000
settle
read -r p1 q1 x1 < <(h1 '.prio[3].paused_ns' '.prio[0].paused_ns' '.rx_pause')
d=$((p1 - p0)) d0=$((q1 - q0))
[ $((x1 - x0)) = 1 ] && [ "$d" = $Q2000_NS ] && [ "$d0" = $Q2000_NS ] &&
	ktap_pass "802.3x PAUSE pauses every class" ||
	ktap_fail "802.3x PAUSE pauses every class" "paused +$d ns (prio 3), +$d0 ns (prio 0)"

# 5. Bad frames: counted, dropped, and nothing paused.
snap() {
	h1 .rx_malformed .rx_bad_opcode .rx_not_lossless .rx_over_max \
		'([.prio[].paused_ns] | add)' '([.prio[].pfc_rx] | add)'
}
read -r m0 o0 n0 x0 p0 r0 < <(snap)
inject pfc 3:65535 --len 30
inject pfc 3:65535 --dst 02:00:00:00:00:01
inject pfc 3:65535 --opcode 0102
inject pfc 0:65535
nsx h-h1 tc qdisc change dev h1-eth root pfc pause_max 1ms
inject pfc 3:65535
settle
bad=$LAST
read -r m1 o1 n1 x1 p1 r1 < <(snap)
ktap_note "counters after 5 bad frames: malformed +$((m1 - m0)) bad_opcode +$((o1 - o0)) not_lossless +$((n1 - n0)) over_max +$((x1 - x0)) paused +$((p1 - p0)) ns"
[ $((m1 - m0)) = 2 ] && ktap_pass "truncated and misaddressed frames count as malformed" ||
	ktap_fail "truncated and misaddressed frames count as malformed"
[ $((o1 - o0)) = 1 ] && ktap_pass "an unknown MAC Control opcode is counted" ||
	ktap_fail "an unknown MAC Control opcode is counted"
[ $((n1 - n0)) = 1 ] && ktap_pass "PFC for a priority that is not lossless is counted" ||
	ktap_fail "PFC for a priority that is not lossless is counted"
[ $((x1 - x0)) = 1 ] && ktap_pass "a pause longer than pause_max is counted" ||
	ktap_fail "a pause longer than pause_max is counted"
[ "$p1" = "$p0" ] && [ "$r1" = "$r0" ] &&
	ktap_pass "no bad frame paused anything" ||
	ktap_fail "no bad frame paused anything" "paused +$((p1 - p0)) ns, pfc_rx +$((r1 - r0))"

# 6. Traffic went on: after the expiry and after the bad frames. The
# second window is 2 s: once (1 run in 17) the TCP flow made no progress
# for a second after them, with no pause and no drop to show for it
# (a TCP timeout under TCG, we think); a wedged port sends nothing at all.
# The windows must lie in the flow's life: it is stopped only now.
sleep 2
if ! kill "$flow"; then
	ktap_note "the flow ended on its own before the test stopped it (after ${FLOW_S}s?)"
fi
wait "$flow"
last=$(jq -s '.[-1].ns // 0' "$WORK/flow.jsonl")
[ "$last" -ge $((bad + 2000000000)) ] ||
	ktap_note "the flow's last sample ($last ns) is before the end of the window after the bad frames ($((bad + 2000000000)) ns)"
# Goodput is compared with the flow's own in the 0.8 s before the first
# pause, not with the link rate: on a loaded host the flow gets less CPU
# (a stuck port gives 0). Margin: RESUMED_PCT of that baseline; see the
# ratios measured in Documentation/pfc.rst (Tests).
RESUMED_PCT=40
base=$(goodput $((expired - 800000000)) 0.8)
after_expiry=$(goodput $((expired + Q2000_NS + 20000000)) 0.5)
after_bad=$(goodput "$bad" 2)
ktap_note "goodput before the first pause: $base Mbit/s; 20-520 ms after the pause expired: $after_expiry Mbit/s; in the 2 s after the bad frames: $after_bad Mbit/s (link: $RATE)"
[ "$base" -gt 0 ] && [ $((after_expiry * 100)) -ge $((base * RESUMED_PCT)) ] &&
	ktap_pass "the flow resumes after expiry, without XON" ||
	ktap_fail "the flow resumes after expiry, without XON" \
		"$after_expiry Mbit/s, under $RESUMED_PCT % of $base"
[ "$base" -gt 0 ] && [ $((after_bad * 100)) -ge $((base * RESUMED_PCT)) ] &&
	ktap_pass "the port keeps forwarding after the bad frames" ||
	ktap_fail "the port keeps forwarding after the bad frames" \
		"samples in the window: $(jq -s --argjson a "$bad" 'map(select(.ns >= $a and .ns <= $a + 2e9)) | length' "$WORK/flow.jsonl")"
cp "$WORK/flow.jsonl" "$OUT/"
drops=$(total_drops)
[ "${drops%% *}" = 0 ] && ktap_pass "no data packet lost meanwhile" ||
	ktap_fail "no data packet lost meanwhile" "$drops"
ktap_finish
