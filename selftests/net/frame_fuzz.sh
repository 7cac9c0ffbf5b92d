#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# frame_fuzz.sh: random and malformed control frames against every fcq
# kind while innocent TCP flows cross the switch. For each kind, on one
# bridge, host KIND1 sends a flow to KIND2 on lossless priority 3, both
# hosts and their switch ports running the kind; from the switch end of
# KIND1's link, frame_fuzz (selftests/net/frame_fuzz.c) sends FUZZ_FRAMES
# (default 100000) frames at FUZZ_RATE frames/s into KIND1's port, one
# kind after another: MAC Control frames truncated, misaddressed, with unknown opcodes,
# valid XONs with garbage in their disabled classes and padding; fcq
# extension frames truncated, with a bad header, type or key list, or a
# pause of a class that is not lossless; 802.1Qau CNMs malformed, with
# QntzFb 0 or to another address; random EtherTypes and bytes. Each class
# decides alone what the port must count, so its counters must move by
# exactly what was sent. The flow's goodput while the frames arrive is
# compared with its goodput just before; after them the port must still
# honour a valid pause to the nanosecond and forward. No kernel splat.
set -u
KINDS="pfc fafc ofc flowsail qcn qcnrp"
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="$(for k in $KINDS; do
	printf '%s ' "${k}_counted" "${k}_goodput" "${k}_pause_after"
done) no_splat"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run).
FUZZ_SEED (environment) repeats a run's frames (its TAP names the seed);
FUZZ_FRAMES (default 100000) and FUZZ_RATE (frames/s, default 25000) per kind."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/net.sh"

OUT=${FCQ_RESULTS:-/tmp}/frame_fuzz
WORK=$(mktemp -d)
FUZZ=$FCQ_TOP/build/selftests/frame_fuzz
FRAMES=${FUZZ_FRAMES:-100000}
FRATE=${FUZZ_RATE:-25000}
SEED=${FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
TOS=0x60
# The hosts' links at 10 Mbit/s, the switch's at twice that: the switch
# never queues a flow, so every pause a sender takes is the fuzzer's.
RATE=10mbit
SW_RATE=20mbit
# 2000 quanta at 10 Mbit/s: 2000 * 512 bits / 10e6 bit/s
Q2000_NS=102400000
# The flow's goodput while the frames arrive, and in the 0.9 s after the
# valid pause, as a share of its goodput in the BEFORE_S seconds before
# the frames: at least KEPT_PCT (measured: Documentation/toolkit.rst,
# "Frame fuzzing").
KEPT_PCT=60
BEFORE_S=2
mkdir -p "$OUT"
DMESG0=$(dmesg | wc -l)
ktap_note "seed $SEED (FUZZ_SEED=$SEED repeats it), $FRAMES frames per kind at $FRATE/s"

# The counters the frames move, then those they must not.
COUNTERS=(
	".rx_malformed"
	".rx_bad_opcode"
	"(.kp.rx_bad // 0)"
	".rx_not_lossless"
	".rx_pause"
	".prio[3].pfc_rx"
	"([.prio[] | select(.prio != 3) | .pfc_rx] | add)"
	"(.qcnrp.cnm_bad // 0)"
	"(.qcnrp.cnm_zero // 0)"
	"(.qcnrp.cnm_not_ours // 0)"
	"([.prio[].paused_ns] | add)"
	"(.rx_ext // 0)"
	"(.qcnrp.cnm_rx // 0)"
)
# What each of COUNTERS (of KIND1-eth) must move by, from frame_fuzz's report (.sent:
# frames per class; .xon[p]: valid XONs naming class p, which a port
# applies to its lossless classes and counts as not lossless for the
# others). Only qcnrp takes CNMs; other kinds let them pass.
expected() {
	gojq -r --argjson q "$([ "$1" = qcnrp ] && echo 1 || echo 0)" '
		.sent as $s |
		[$s.macctl_short + $s.macctl_dst + $s.ext_short + $s.ext_header,
		 $s.macctl_opcode + $s.ext_type,
		 $s.ext_keys,
		 ([.xon[0, 1, 2, 4, 5, 6, 7]] | add) + $s.ext_pause_lossy,
		 $s.pause_xon,
		 $s.pause_xon + .xon[3],
		 7 * $s.pause_xon,
		 $q * $s.cnm_bad, $q * $s.cnm_zero, $q * $s.cnm_other,
		 0, 0, 0] | @tsv' "$2"
}
# Frames lost on their way to KIND1's hook: dropped by the veth pair or
# by the backlog (KIND1-eth's rx_dropped counts the frames no protocol
# takes, those the hook let pass among them).
lost() {
	local n _ d
	n=$(nsx sw ip -j -s link show dev "sw-${1}1" |
		gojq '.[0].stats64.tx.dropped')
	# the backlog's drops, per CPU, in hex
	while read -r _ d _; do
		n=$((n + 16#$d))
	done </proc/net/softnet_stat
	echo "$n"
}
# KIND's flow's goodput (kbit/s) in [FROM, TO] ns, from its own samples.
goodput() {
	gojq -s --argjson a "$2" --argjson b "$3" '
		map(select(.ns >= $a and .ns <= $b)) |
		if length < 2 then 0 else
		(.[-1].acked - .[0].acked) * 8 / ((.[-1].ns - .[0].ns) / 1e9) / 1e3
		end | floor' "$WORK/$1.jsonl"
}

# sender KIND JQ...: KIND1-eth's counters (the port fuzzed), one tc call.
sender() { xstats "h-${1}1" "${1}1-eth" "${@:2}"; }
# The kinds any selected case names: those the run below covers.
kinds_run() {
	local k
	for k in $KINDS; do
		tests_selected | grep -q "^${k}_" && echo "$k"
	done
}

# The run every case reads, once, for whichever comes first: one bridge,
# and for each kind a sender KIND1 and a receiver KIND2 on its ports. The
# kinds take turns. A turn is the kind's frames (at KIND1's port), then a
# valid pause at KIND1 and a second more; then its flow stops. A kind's
# flow starts at the previous kind's turn (at least BEFORE_S + 1 s before
# its frames): two flows at a time rather than all six, which keeps the
# guest's work, and so the emulation's wall time, down. Leaves in
# $OUT/KIND each fuzzer's report and flow samples; the results in the
# arrays below.
declare -A COUNTED GOOD_BEFORE GOOD_DURING GOOD_AFTER PAUSED LOST SENT FUZZED FLOW
RAN=
# flow KIND: start KIND's flow (its samples in $WORK/KIND.jsonl)
flow() {
	nsx "h-${1}1" fcq-gen bulk -t $TOS -i 0.05 "$(addr "${1}2")" 600 \
		>"$WORK/$1.jsonl" &
	FLOW[$1]=$!
	NET_PIDS+=($!)
}
fuzzed() {
	local k h d sw host hosts=() c0 c1 l0 t0 t1 p0 kinds i
	[ -z "$RAN" ] || return 0
	RAN=1
	for k in $(kinds_run); do hosts+=("${k}1" "${k}2"); done
	star bridge "${hosts[@]}"
	for k in $(kinds_run); do
		sw="$k rate $SW_RATE delay 50us lossless 3"
		host="$k rate $RATE delay 50us lossless 3"
		# qcnrp is a host NIC's qdisc; its switch runs pfc.
		[ "$k" = qcnrp ] && sw="pfc rate $SW_RATE delay 50us lossless 3"
		for h in "${k}1" "${k}2"; do
			# shellcheck disable=SC2086 # the options are words
			nsx sw tc qdisc replace dev "sw-$h" root $sw &&
				nsx "h-$h" tc qdisc replace dev "$h-eth" root $host ||
				return 1
		done
		nsx "h-${k}1" ping -q -c 1 -W 2 "$(addr "${k}2")" >/dev/null ||
			return 1
		serve "${k}2" -t $TOS
	done
	sleep 0.3
	mapfile -t kinds < <(kinds_run)
	flow "${kinds[0]}"
	sleep $((BEFORE_S + 1))
	for i in "${!kinds[@]}"; do
		k=${kinds[$i]}
		[ -z "${kinds[$((i + 1))]:-}" ] || flow "${kinds[$((i + 1))]}"
		d=$OUT/$k
		mkdir -p "$d"
		c0=$(sender "$k" "${COUNTERS[@]}")
		l0=$(lost "$k")
		t0=$(fcq-gen now)
		nsx sw "$FUZZ" --count "$FRAMES" --rate "$FRATE" --seed "$SEED" \
			--lossless 0x08 "sw-${k}1" \
			"$(nsx "h-${k}1" cat "/sys/class/net/${k}1-eth/address")" \
			>"$d/report.json" 2>"$d/progress"
		t1=$(fcq-gen now)
		FUZZED[$k]=$(gojq .frames "$d/report.json")
		sleep 0.3	# the last frames through the softirqs
		c1=$(sender "$k" "${COUNTERS[@]}")
		LOST[$k]=$(($(lost "$k") - l0))
		GOOD_BEFORE[$k]=$(goodput "$k" $((t0 - BEFORE_S * 1000000000)) "$t0")
		GOOD_DURING[$k]=$(goodput "$k" "$t0" "$t1")
		# each counter's increment and what was expected of it
		COUNTED[$k]=$(paste <(echo "$c0") <(echo "$c1") \
			<(expected "$k" "$d/report.json") |
			awk -F'\t' '{ n = NF / 3
				for (i = 1; i <= n; i++)
					printf "%s%.0f/%.0f", (i > 1 ? " " : ""),
						$(n + i) - $i, $(2 * n + i) }')
		ktap_note "$k: $(gojq -c '{frames, ms: (.ns / 1e6 | floor), sent}' "$d/report.json")"
		ktap_note "$k: counters got/expected: ${COUNTED[$k]}; frames lost on the way: ${LOST[$k]}"
		ktap_note "$k: goodput ${GOOD_BEFORE[$k]} kbit/s before, ${GOOD_DURING[$k]} during ($(((t1 - t0) / 1000000)) ms)"
		# The valid pause: priority 3 stands still for exactly 2000 quanta.
		p0=$(sender "$k" '.prio[3].paused_ns')
		SENT[$k]=$(nsx sw fcq-frame "sw-${k}1" pfc 3:2000)
		sleep 1.1
		PAUSED[$k]=$(($(sender "$k" '.prio[3].paused_ns') - p0))
		GOOD_AFTER[$k]=$(goodput "$k" $((SENT[$k] + Q2000_NS)) \
			$((SENT[$k] + Q2000_NS + 900000000)))
		ktap_note "$k: the pause held priority 3 for ${PAUSED[$k]} ns; then ${GOOD_AFTER[$k]} kbit/s"
		kill "${FLOW[$k]}" 2>/dev/null
	done
	cleanup
	for k in $(kinds_run); do cp "$WORK/$k.jsonl" "$OUT/$k/"; done
	return 0
}

# Every counter moved by exactly what its classes sent (nothing paused,
# nothing applied), no frame lost on the way (else exactness cannot hold).
counted() {
	local bad
	fuzzed "$1"
	bad=$(echo "${COUNTED[$1]:-}" | tr ' ' '\n' |
		awk -F/ 'NF && $1 != $2 { printf "%s (counter %d) ", $0, NR }')
	[ "${FUZZED[$1]:-}" = "$FRAMES" ] && [ -z "$bad" ] &&
		[ "$(echo "${COUNTED[$1]:-}" | wc -w)" = ${#COUNTERS[@]} ] &&
		[ "${LOST[$1]:-}" = 0 ]
	check_err $? "sent ${FUZZED[$1]:-none} of $FRAMES; got/expected off: ${bad:-none}; lost ${LOST[$1]:-?}"
	log_test "$1: $FRAMES fuzz frames, each counted as its class says"
}

goodput_kept() {
	local b g
	fuzzed "$1"
	b=${GOOD_BEFORE[$1]:-0} g=${GOOD_DURING[$1]:-0}
	[ "$b" -gt 0 ] && [ $((g * 100)) -ge $((b * KEPT_PCT)) ]
	check_err $? "$g kbit/s during, under $KEPT_PCT % of $b before"
	log_test "$1: the innocent flow keeps its goodput under the frames"
}

pause_after() {
	local b a
	fuzzed "$1"
	b=${GOOD_BEFORE[$1]:-0} a=${GOOD_AFTER[$1]:-0}
	[ "${PAUSED[$1]:-0}" = "$Q2000_NS" ] && [ "$b" -gt 0 ] &&
		[ $((a * 100)) -ge $((b * KEPT_PCT)) ]
	check_err $? "paused ${PAUSED[$1]:-?} ns (want $Q2000_NS), then $a kbit/s (before: $b)"
	log_test "$1: a valid pause still holds exactly, then the port forwards"
}

for k in $KINDS; do
	eval "${k}_counted() { counted $k; }
		${k}_goodput() { goodput_kept $k; }
		${k}_pause_after() { pause_after $k; }"
done

# Over the whole suite: nothing in the kernel's log of what tools/vm/run
# fails a guest for.
no_splat() {
	local s
	s=$(dmesg | tail -n +$((DMESG0 + 1)) | grep -E \
		'Oops|BUG:|WARNING:|Call Trace|KASAN:|UBSAN:|hung_task|soft lockup|rcu.*stall')
	[ -z "$s" ]
	check_err $? "$(echo "$s" | head -n 3)"
	log_test "no kernel splat"
}

tests_plan
tests_run
ktap_finish
