#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pfc_rx.sh: what a port does with the PFC and PAUSE frames it receives.
# Frames are injected with fcq-frame from the switch end of host h1's link
# while h1 sends a TCP flow to h2 on lossless priority 3: quanta expiry,
# zero-quanta resume, pause-while-paused, 802.3x PAUSE, and bad frames
# (truncated, wrong destination, wrong opcode, PFC for a priority that is not
# lossless, a pause longer than pause_max) counted and dropped while the
# port keeps forwarding. Then, on the quiet port, the queue-length
# histogram (xstats "queue") against a queue held by a pause.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	pause_expires
	xon_resumes
	pause_replaces_pause
	pause_8023x_every_class
	bad_malformed
	bad_opcode
	bad_not_lossless
	bad_over_max
	bad_pause_nothing
	flow_resumes_after_expiry
	flow_survives_bad_frames
	queue_histogram
	no_loss
"
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
# The paused time against the frames' send gap (xon_resumes): it was
# within -2.0 and +0.87 ms of it in 98 cases (25 runs of both cases on
# 6.1 and 6.12, two guests side by side), mostly within 0.2 ms.
GAP_SLACK=5000000
# The flow runs until the test stops it (FLOW_S is only a backstop): under
# a loaded TCG host the cases below take from 10 s to over a minute.
FLOW_S=900
mkdir -p "$OUT"

# h1's counters, one `tc` call for all of them: h1 JQ... prints the values
# on one line.
h1() { xstats h-h1 h1-eth "$@"; }
# Inject frames toward h1; remember when the last one left.
# The frames' send times (ns, CLOCK_MONOTONIC) in SENT, the last in LAST.
inject() {
	mapfile -t SENT < <(nsx sw fcq-frame sw-h1 "$@")
	LAST=${SENT[-1]:-0}
}
# The time from the first frame injected to the second, in ns: the
# --wait asked for, plus whatever the host stalled the sender.
gap() { echo $((SENT[1] - SENT[0])); }
# The frame crosses the 50 us link; give the softirqs time under TCG.
settle() { sleep "${1:-0.3}"; }
# The flow's goodput (Mbit/s) in [FROM, FROM + SECONDS], from its own
# time-stamped samples: the shell is too slow under load to time it.
goodput() {
	gojq -s --argjson a "$1" --argjson s "$2" '
		map(select(.ns >= $a and .ns <= $a + $s * 1e9)) |
		if length < 2 then 0 else
		(.[-1].acked - .[0].acked) * 8 / ((.[-1].ns - .[0].ns) / 1e9) / 1e6
		end | floor' "$WORK/flow.jsonl"
}

# Shared steps, each done once whichever case needs it first (so that
# TESTS= may name any case).

# A 2000-quanta pause for priority 3, left to expire: EXPIRED is when it
# was sent, D_PAUSED and D_PFC_RX what it added to h1's counters.
pause_expired() {
	local p0 r0 p1 r1
	[ -z "${EXPIRE_SENT:-}" ] || return 0
	EXPIRE_SENT=1
	read -r p0 r0 < <(h1 '.prio[3].paused_ns' '.prio[3].pfc_rx')
	inject pfc 3:2000
	settle
	read -r p1 r1 < <(h1 '.prio[3].paused_ns' '.prio[3].pfc_rx')
	EXPIRED=$LAST D_PAUSED=$((p1 - p0)) D_PFC_RX=$((r1 - r0))
	ktap_note "2000 quanta paused priority 3 for $D_PAUSED ns"
}

# Five bad frames: truncated, misaddressed, an unknown opcode, PFC for a
# priority that is not lossless, a pause over pause_max (set to 1 ms for
# it, then back to any). BAD is when the last left; BAD_D the counters'
# increments: malformed bad_opcode not_lossless over_max paused_ns pfc_rx.
bad_counters() {
	h1 .rx_malformed .rx_bad_opcode .rx_not_lossless .rx_over_max \
		'([.prio[].paused_ns] | add)' '([.prio[].pfc_rx] | add)'
}
bad_frames_sent() {
	local a b i
	[ -z "${BAD_SENT:-}" ] || return 0
	BAD_SENT=1
	read -ra a < <(bad_counters)
	inject pfc 3:65535 --len 30
	inject pfc 3:65535 --dst 02:00:00:00:00:01
	inject pfc 3:65535 --opcode 0102
	inject pfc 0:65535
	nsx h-h1 tc qdisc change dev h1-eth root pfc pause_max 1ms
	inject pfc 3:65535
	settle
	BAD=$LAST
	nsx h-h1 tc qdisc change dev h1-eth root pfc pause_max any
	read -ra b < <(bad_counters)
	BAD_D=()
	for i in "${!a[@]}"; do BAD_D+=($((b[i] - a[i]))); done
	ktap_note "counters after 5 bad frames: malformed +${BAD_D[0]} bad_opcode +${BAD_D[1]} not_lossless +${BAD_D[2]} over_max +${BAD_D[3]} paused +${BAD_D[4]} ns"
}

# The flow stopped, after both of the above, and 2 s after the bad
# frames: the windows of the goodput cases must lie in the flow's life.
# BASE is its goodput in the 0.8 s before the first pause.
flow_stopped() {
	local last
	[ -z "${FLOW_STOPPED:-}" ] || return 0
	FLOW_STOPPED=1
	pause_expired
	bad_frames_sent
	sleep 2
	if ! kill "$FLOW"; then
		ktap_note "the flow ended on its own before the test stopped it (after ${FLOW_S}s?)"
	fi
	wait "$FLOW"
	cp "$WORK/flow.jsonl" "$OUT/"
	last=$(gojq -s '.[-1].ns // 0' "$WORK/flow.jsonl")
	[ "$last" -ge $((BAD + 2000000000)) ] ||
		ktap_note "the flow's last sample ($last ns) is before the end of the window after the bad frames ($((BAD + 2000000000)) ns)"
	BASE=$(goodput $((EXPIRED - 800000000)) 0.8)
}

# A pause ends by quanta expiry: no XON needed.
pause_expires() {
	pause_expired
	[ "$D_PFC_RX" = 1 ] && [ "$D_PAUSED" = "$Q2000_NS" ]
	check_err $? "pfc_rx +$D_PFC_RX, paused +$D_PAUSED ns"
	log_test "2000 quanta at 20 Mbit/s pause exactly 51.2 ms, then expire"
}

# Zero quanta resumes at once (XON), long before the 1.68 s expiry: the
# port is paused for the gap between the two frames as they were sent
# (50 ms asked; a host stall once made it 106 ms), give or take their
# way through the guest's softirqs (GAP_SLACK).
xon_resumes() {
	local p0 d g
	p0=$(h1 '.prio[3].paused_ns')
	inject pfc 3:65535 --wait 50ms pfc 3:0
	settle
	d=$(($(h1 '.prio[3].paused_ns') - p0))
	g=$(gap)
	ktap_note "65535 quanta then XON $g ns later: paused $d ns"
	[ "$g" -ge 50000000 ] && [ "$d" -gt $((g - GAP_SLACK)) ] &&
		[ "$d" -lt $((g + GAP_SLACK)) ]
	check_err $? "paused $d ns, frames $g ns apart"
	log_test "zero quanta resumes before the pause expires"
}

# Pause while paused: the newer frame replaces the running pause, so the
# port stands still for the gap plus 51.2 ms (not the gap alone, not
# 1.68 s), the gap as in xon_resumes.
pause_replaces_pause() {
	local p0 d g
	p0=$(h1 '.prio[3].paused_ns')
	inject pfc 3:65535 --wait 50ms pfc 3:2000
	settle 0.5
	d=$(($(h1 '.prio[3].paused_ns') - p0))
	g=$(gap)
	ktap_note "65535 quanta then 2000 quanta $g ns later: paused $d ns"
	[ "$g" -ge 50000000 ] && [ "$d" -gt $((g + Q2000_NS - GAP_SLACK)) ] &&
		[ "$d" -lt $((g + Q2000_NS + GAP_SLACK)) ]
	check_err $? "paused $d ns, frames $g ns apart"
	log_test "a pause received while paused replaces the running one"
}

# 802.3x PAUSE stops the whole link: every class, lossless or not.
pause_8023x_every_class() {
	local p0 q0 x0 p1 q1 x1
	read -r p0 q0 x0 < <(h1 '.prio[3].paused_ns' '.prio[0].paused_ns' '.rx_pause')
	inject pause 2000
	settle
	read -r p1 q1 x1 < <(h1 '.prio[3].paused_ns' '.prio[0].paused_ns' '.rx_pause')
	[ $((x1 - x0)) = 1 ] && [ $((p1 - p0)) = "$Q2000_NS" ] &&
		[ $((q1 - q0)) = "$Q2000_NS" ]
	check_err $? "rx_pause +$((x1 - x0)), paused +$((p1 - p0)) ns (prio 3), +$((q1 - q0)) ns (prio 0)"
	log_test "802.3x PAUSE pauses every class"
}

# Bad frames: counted, dropped, and nothing paused.
bad_malformed() {
	bad_frames_sent
	[ "${BAD_D[0]}" = 2 ]
	check_err $? "rx_malformed +${BAD_D[0]}"
	log_test "truncated and misaddressed frames count as malformed"
}

bad_opcode() {
	bad_frames_sent
	[ "${BAD_D[1]}" = 1 ]
	check_err $? "rx_bad_opcode +${BAD_D[1]}"
	log_test "an unknown MAC Control opcode is counted"
}

bad_not_lossless() {
	bad_frames_sent
	[ "${BAD_D[2]}" = 1 ]
	check_err $? "rx_not_lossless +${BAD_D[2]}"
	log_test "PFC for a priority that is not lossless is counted"
}

bad_over_max() {
	bad_frames_sent
	[ "${BAD_D[3]}" = 1 ]
	check_err $? "rx_over_max +${BAD_D[3]}"
	log_test "a pause longer than pause_max is counted"
}

bad_pause_nothing() {
	bad_frames_sent
	[ "${BAD_D[4]}" = 0 ] && [ "${BAD_D[5]}" = 0 ]
	check_err $? "paused +${BAD_D[4]} ns, pfc_rx +${BAD_D[5]}"
	log_test "no bad frame paused anything"
}

# Traffic went on: after the expiry and after the bad frames. The second
# window is 2 s: once (1 run in 17) the TCP flow made no progress for a
# second after them, with no pause and no drop to show for it (a TCP
# timeout under TCG, we think); a wedged port sends nothing at all.
# Goodput is compared with the flow's own in the 0.8 s before the first
# pause, not with the link rate: on a loaded host the flow gets less CPU
# (a stuck port gives 0). Margin: RESUMED_PCT of that baseline; see the
# ratios measured in Documentation/pfc.rst (Tests).
RESUMED_PCT=40

flow_resumes_after_expiry() {
	local after
	flow_stopped
	after=$(goodput $((EXPIRED + Q2000_NS + 20000000)) 0.5)
	ktap_note "goodput before the first pause: $BASE Mbit/s; 20-520 ms after the pause expired: $after Mbit/s (link: $RATE)"
	[ "$BASE" -gt 0 ] && [ $((after * 100)) -ge $((BASE * RESUMED_PCT)) ]
	check_err $? "$after Mbit/s, under $RESUMED_PCT % of $BASE"
	log_test "the flow resumes after expiry, without XON"
}

flow_survives_bad_frames() {
	local after n
	flow_stopped
	after=$(goodput "$BAD" 2)
	n=$(gojq -s --argjson a "$BAD" 'map(select(.ns >= $a and .ns <= $a + 2e9)) | length' "$WORK/flow.jsonl")
	ktap_note "goodput before the first pause: $BASE Mbit/s; in the 2 s after the bad frames: $after Mbit/s, $n samples (link: $RATE)"
	[ "$BASE" -gt 0 ] && [ $((after * 100)) -ge $((BASE * RESUMED_PCT)) ]
	check_err $? "$after Mbit/s, under $RESUMED_PCT % of $BASE"
	log_test "the port keeps forwarding after the bad frames"
}

# The queue-length histogram, on the port once the flow has stopped and
# its socket has sent what it held: 20 UDP datagrams in 1442-byte frames
# (1400 bytes of payload) on priority 3 queue behind a pause, wait, and
# leave on XON. The time the histogram gives their level (28840 bytes: 19
# or 21 frames are in other buckets) lies between physical bounds: at
# least from when the sender exited (every datagram queued) to when the
# XON left; at most from when it started to when the XON arrived, which
# QH_XON_NS bounds (the guest applies a pause within 2.5 ms under TCG:
# Documentation/pfc.rst).
QH_DGRAMS=20 QH_FRAME=1442 QH_XON_NS=20000000
queue_histogram() {
	local level at t0 t1 t2 b0 b1 now peak d i a b
	flow_stopped
	# The killed flow's socket still sends what it had buffered: wait
	# until the class has sent nothing for 0.5 s (at most 10 s).
	for i in $(seq 20); do
		a=$(h1 '.prio[3].tx_packets')
		sleep 0.5
		b=$(h1 '.prio[3].tx_packets')
		[ "$a" = "$b" ] && break
	done
	level=$((QH_DGRAMS * QH_FRAME))
	at="([.qhist.buckets[] | select(.lo <= $level and .hi >= $level) | .ns] | add // 0)"
	b0=$(h1 "$at")
	inject pfc 3:65535
	settle 0.1
	t0=$(fcq-gen now)
	nsx h-h1 python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, int(sys.argv[1], 0))
for _ in range(int(sys.argv[3])):
	s.sendto(b"x" * 1400, (sys.argv[2], 9))' "$TOS" "$(addr h2)" $QH_DGRAMS
	t1=$(fcq-gen now)
	# renew the pause (1.68 s), whatever the sender's start took
	inject pfc 3:65535
	sleep 0.4
	inject pfc 3:0
	t2=$LAST
	settle
	read -r b1 now peak < <(h1 "$at" .qhist.now .qhist.max)
	d=$((b1 - b0))
	ktap_note "at $level bytes for $d ns; sender started $t0, exited $t1, XON sent $t2; queue now $now bytes, peak $peak"
	[ "$d" -ge $((t2 - t1)) ] && [ "$d" -le $((t2 - t0 + QH_XON_NS)) ] &&
		[ "$now" = 0 ] && [ "$peak" -ge "$level" ]
	check_err $? "$d ns outside [$((t2 - t1)), $((t2 - t0 + QH_XON_NS))], or queue not empty ($now bytes), or peak $peak under $level"
	log_test "the queue histogram times a queue held by a pause"
}

# Over the whole run: every frame injected, the flow stopped.
no_loss() {
	local drops
	flow_stopped
	drops=$(total_drops)
	[ "${drops%% *}" = 0 ]
	check_err $? "$drops"
	log_test "no data packet lost meanwhile"
}

tests_plan
star bridge h1 h2
qdisc_all pfc rate $RATE delay 50us lossless 3 -- \
	  pfc rate $RATE delay 50us lossless 3
nsx h-h1 ping -q -c 1 -W 2 "$(addr h2)" >/dev/null
serve h2 -t $TOS
sleep 0.3
nsx h-h1 fcq-gen bulk -t $TOS -i 0.05 "$(addr h2)" $FLOW_S >"$WORK/flow.jsonl" &
FLOW=$!
NET_PIDS+=("$FLOW")
sleep 1
tests_run
ktap_finish
