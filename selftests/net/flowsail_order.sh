#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# flowsail_order.sh: what a flowsail port does with the flow pauses it
# receives, and the order stress of its reserved queue (Experiment E5 of
# Documentation/flowsail.rst). Host h1 sends 8 paced UDP streams on
# lossless priority 3, each from a source port of its own to an address of
# its own on h2, all in one normal queue (`map single`); the switch pauses
# nothing (mode fifo), so that every pause h1 sees is injected. From the switch
# end of h1's link, fcq-frame injects a seeded random sequence of keyed
# PAUSEs and RESUMEs naming the streams' 5-tuples (one stream, two with
# overlapping pauses, or the whole class, 10 ms each). h1 isolates each paused stream in its
# reserved queue, holding the normal queue while the stream's older
# packets are in it, and keeps every stream in order across the two
# (order marks). Every stream must arrive whole and in order, nothing may
# be lost, the tracepoints must tell what the counters count, and nothing
# may be left held or queued. Then the same with `om off`: the streams
# are reordered (the ablation counts what the marks prevent).
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	frames_all_counted
	flows_isolated
	frames_decoded
	tracepoints_match
	streams_complete
	no_reorder
	no_loss
	nothing_left
	om_off_reorders
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run).
SEED (default 1) chooses the pause and resume sequence."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/net.sh"
. "$HERE/../lib/paced.sh"

OUT=${FCQ_RESULTS:-/tmp}/flowsail_order
WORK=$(mktemp -d)
TOS=0x60
LINK="rate 20mbit delay 50us lossless 3"
N=8
STREAM_RATE=1500Kbps	# 8 of them: 12.9 Mbit/s of frames on a 20 Mbit/s
			# link: the normal queue often holds a packet or
			# two, and empties between pauses
STREAM_BYTES=1800000	# 9.6 s of it: the injection ends well before
STEPS=100		# 3.5 s of pauses and resumes (about 5 s under TCG),
			# from 1 s into the streams
SEED=${SEED:-1}
TR=/sys/kernel/tracing
EVENTS="flowsail_isolate"
mkdir -p "$OUT"

h1() { xstats h-h1 h1-eth "$@"; }
dst() { echo "10.0.0.$((100 + $1))"; }

# The injected sequence as fcq-frame arguments, for the streams from
# source ports $1 + i (awk: bash takes seconds under TCG), a step every
# 20 ms: a stream paused for 10 ms (6 in 10), two paused with overlapping
# pauses (3 in 10), or the whole class for 10 ms. The pauses are short
# and apart, so that a resumed stream leaves the reserved queue (release)
# and its next pause isolates it again, with older packets in the normal
# queue: what the order marks are for. Ends with RESUME ALL.
sequence() {
	awk -v seed="$SEED" -v steps="$STEPS" -v n="$N" -v h1="$H1" -v sp="$1" '
	function key(i) { return h1 ":" (sp + i) ">10.0.0." (100 + i) ":5201/udp" }
	BEGIN {
		srand(seed)
		for (s = 0; s < steps; s++) {
			r = int(rand() * 10)
			a = key(int(rand() * n)); b = key(int(rand() * n))
			if (r < 6)
				print "keys pause 3 " a " --wait 10ms keys resume 3 " a
			else if (r < 9)
				print "keys pause 3 " a " --wait 5ms keys pause 3 " b \
				      " --wait 10ms keys resume 3 " a " --wait 5ms keys resume 3 " b
			else
				print "keys pause 3:all --wait 10ms keys resume 3:all"
			print "--wait 20ms"
		}
		print "keys resume 3:all"
	}' | tr '\n' ' '
}

# stress TAG SPORT: the streams (from ports SPORT + i), the injection, the
# sink's reports in $WORK/rcv-TAG.jsonl; the frames injected in SENT, h1's
# counters before and after in K0S, K1S.
COUNTERS=".kp.rx_pause .kp.rx_resume .kp.rx_bad .flowsail.cft_insert .flowsail.om_pairs .flowsail.pinned"
stress() {
	local tag=$1 sp=$2 i epoch args k0 k1
	read -ra args <<<"$(sequence "$sp")"
	k0=$(h1 $COUNTERS)
	echo >"$TR/trace"
	for e in $EVENTS; do echo 1 >"$TR/events/flowsail/$e/enable"; done
	nsx h-h2 fcq-gen server -t $TOS >"$WORK/rcv-$tag.jsonl" &
	SERVER=$!
	NET_PIDS+=("$SERVER")
	sleep 0.3
	epoch=$(epoch_in 0.5)
	for ((i = 0; i < N; i++)); do
		nsx h-h1 fcq-gen paced -s $((sp + i)) -t "$TOS" -e "$epoch" \
			"$(dst "$i")" "$STREAM_RATE" 0 "$STREAM_BYTES" \
			>>"$WORK/snd-$tag.jsonl" &
		NET_PIDS+=($!)
	done
	sleep 1.5
	[ "$tag" = on ] && capture h-h1 h1-eth "$WORK/frames.pcapng"
	nsx sw fcq-frame sw-h1 "${args[@]}" >"$WORK/sent-$tag"
	sleep 0.5
	capture_stop
	k1=$(h1 $COUNTERS)
	# the streams' ends: 1 s of margin, then at most 30 s more
	for _ in $(seq 60); do
		[ "$(wc -l <"$WORK/rcv-$tag.jsonl")" -ge "$N" ] && break
		sleep 0.5
	done
	kill "$SERVER" 2>/dev/null
	wait "$SERVER" 2>/dev/null
	for e in $EVENTS; do echo 0 >"$TR/events/flowsail/$e/enable"; done
	cp "$WORK"/*-"$tag".jsonl "$WORK/sent-$tag" "$OUT/"
	cp "$TR/trace" "$OUT/trace-$tag"
	SENT=$(wc -l <"$WORK/sent-$tag")
	K0S=$k0 K1S=$k1
	ktap_note "$tag streams: $(gojq -sc 'map({"end": .end, lost, reorders, dups})' "$WORK/rcv-$tag.jsonl")"
}

stressed() {
	[ -z "${DONE:-}" ] || return 0
	DONE=1
	stress on 40000
	SENT_ON=$SENT
	read -ra K0 <<<"$K0S"
	read -ra K1 <<<"$K1S"
}

frames_all_counted() {
	local p r b
	stressed
	p=$((K1[0] - K0[0])) r=$((K1[1] - K0[1])) b=$((K1[2] - K0[2]))
	ktap_note "injected $SENT_ON frames; h1 counted $p pauses, $r resumes, $b bad"
	[ $((p + r)) = "$SENT_ON" ] && [ "$b" = 0 ] && [ "$SENT_ON" -gt "$STEPS" ]
	check_err $? "sent $SENT_ON, rx_pause +$p, rx_resume +$r, rx_bad +$b"
	log_test "every injected frame is received and counted"
}

# Flows paused with packets in the normal queue are isolated with an
# order mark; none falls back to a pinned queue (64 marks, 8 streams).
flows_isolated() {
	local ins om pin end last
	stressed
	ins=$((K1[3] - K0[3])) om=$((K1[4] - K0[4])) pin=$((K1[5] - K0[5]))
	# the injection must end while the streams still run
	end=$(gojq -s 'map(.end_ns) | min' "$WORK/snd-on.jsonl")
	last=$(tail -n 1 "$WORK/sent-on")
	ktap_note "moved to rsvQ: $ins flows, $om with order marks, $pin pinned; last frame $(((end - last) / 1000000)) ms before the first stream ended"
	[ "$ins" -gt 0 ] && [ "$om" -gt 0 ] && [ "$pin" = 0 ] && [ "$last" -lt "$end" ]
	check_err $? "cft_insert +$ins, om_pairs +$om, pinned +$pin"
	log_test "paused flows go to the reserved queue, order-marked when they have older packets"
}

# The frames h1 received, decoded by tshark with the project's dissector:
# PAUSEs and RESUMEs of priority 3 naming the streams' 5-tuples.
frames_decoded() {
	local ports
	stressed
	ports=$(tshark -X lua_script:"$FCQ_TOP/tools/wireshark/fcq.lua" \
		-r "$WORK/frames.pcapng" -Y 'fcq.type == 2 && fcq.prio == 3 && fcq.keys.type == 5' \
		-T fields -e fcq.keys.sport 2>/dev/null | tr ',' '\n' | sort -un | tr '\n' ' ')
	ktap_note "source ports named by the PAUSEs h1 received: $ports"
	[ "$ports" = "$(seq -s ' ' 40000 $((40000 + N - 1))) " ]
	check_err $? "ports named: ${ports:-none}"
	log_test "tshark decodes the PAUSEs as TUPLE4 keys naming every stream (tools/wireshark/fcq.lua)"
}

# Every key a frame named is one flowsail:flowsail_isolate event (pause
# of a key: one; ALL: none), against what h1 applied: pauses of keys it
# did not hold already.
tracepoints_match() {
	local traced keys
	stressed
	traced=$(grep -c 'flowsail_isolate: dev=h1-eth ' "$OUT/trace-on")
	keys=$(grep -c 'flowsail_isolate: dev=h1-eth .* lane=7 ' "$OUT/trace-on")
	ktap_note "traced isolations: $traced ($keys into rsvQ, lane 7); cft_insert +$((K1[3] - K0[3]))"
	[ "$traced" -gt 0 ] && [ "$traced" = "$keys" ] &&
		[ "$traced" -ge $((K1[3] - K0[3])) ]
	check_err $? "traced $traced, $keys into rsvQ"
	log_test "flowsail:flowsail_isolate traces every flow the peer paused"
}

streams_complete() {
	stressed
	paced_complete "$WORK/rcv-on.jsonl" "$N"
	log_test "every stream arrives whole"
}

no_reorder() {
	stressed
	paced_in_order "$WORK/rcv-on.jsonl"
	log_test "no stream reordered or duplicated (order marks)"
}

no_loss() {
	stressed
	paced_no_loss "$WORK/rcv-on.jsonl"
	log_test "nothing lost, no packet dropped"
}

nothing_left() {
	local v
	stressed
	v=$(h1 .kp.rx_applied '([.flowsail.queues[]? | .holds] | add // 0)' .backlog .qlen | tr '\t' ' ')
	ktap_note "h1 applied, holds, backlog, qlen: $v"
	[ "$v" = "0 0 0 0" ]
	check_err $? "$v"
	log_test "nothing left paused, held or queued"
}

# The ablation: without order marks the same stress reorders the streams.
om_off_reorders() {
	local r lost
	stressed
	nsx h-h1 tc qdisc change dev h1-eth root flowsail om off
	stress off 40100
	r=$(gojq -s 'map(.reorders) | add' "$WORK/rcv-off.jsonl")
	lost=$(gojq -s 'map(.lost) | add' "$WORK/rcv-off.jsonl")
	ktap_note "om off: $r datagrams out of order, $lost bytes lost"
	[ "$r" -gt 0 ] && [ "$lost" = 0 ]
	check_err $? "reorders $r, lost $lost"
	log_test "with om off the same stress reorders the streams"
}

tests_plan
star bridge h1 h2
H1=$(addr h1)
# shellcheck disable=SC2086
qdisc_all flowsail $LINK mode fifo queues 1 -- flowsail $LINK queues 8 map single
for ((i = 0; i < N; i++)); do
	nsx h-h2 ip addr add "$(dst "$i")/24" dev h2-eth
done
for ((i = 0; i < N; i++)); do
	nsx h-h1 ping -q -c 1 -W 2 "$(dst "$i")" >/dev/null
done
tests_run
rm -rf "$WORK"
ktap_finish
