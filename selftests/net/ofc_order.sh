#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ofc_order.sh: the order stress of an ofc port's three queues per class.
# Host h1 sends 8 paced UDP streams on lossless priority 3, each to an
# address of its own on h2: 8 (source, destination) pairs, 8 keys. From the
# switch end of h1's link, fcq-frame injects a seeded random sequence of
# keyed PAUSEs and RESUMEs (subsets of the keys, PAUSE ALL, RESUME ALL, and
# resumes back to back, so that one arrives while the last one's drain
# runs). Every stream must arrive whole and in order, nothing may be lost,
# the nested path (a resume deferred while a drain runs) must be taken,
# the tracepoints must tell what the counters count, and at the end
# nothing is left paused, draining or queued.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	frames_all_counted
	nested_path_taken
	tracepoints_match
	streams_complete
	no_reorder
	no_loss
	nothing_left
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run).
SEED (default 1) chooses the pause and resume sequence."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/net.sh"
. "$HERE/../lib/paced.sh"

OUT=${FCQ_RESULTS:-/tmp}/ofc_order
WORK=$(mktemp -d)
TOS=0x60
LINK="rate 20mbit delay 50us lossless 3"
N=8
STREAM_RATE=1500Kbps	# 8 of them: 12 of the link's 20 Mbit/s
STREAM_BYTES=1500000	# 8 s of it
STEPS=400		# one every 5 ms: 2 s of pauses and resumes (3-4 s
			# under TCG), from 1 s into the streams
SEED=${SEED:-1}
TR=/sys/kernel/tracing
EVENTS="kp_rx isolate resume"
mkdir -p "$OUT"

h1() { xstats h-h1 h1-eth "$@"; }
dst() { echo "10.0.0.$((100 + $1))"; }
key() { echo "$H1>$(dst "$1")"; }

# Up to three keys, chosen at random, as fcq-frame's KEY list.
some_keys() {
	local n=$((RANDOM % 3 + 1)) list=''
	while [ "$n" -gt 0 ]; do
		list="$list${list:+,}$(key $((RANDOM % N)))"
		n=$((n - 1))
	done
	echo "$list"
}

# The injected sequence as fcq-frame arguments, one step per 5 ms: PAUSE
# of some keys (4 in 10), RESUME of some (3 in 10), PAUSE ALL, RESUME ALL,
# or two keys paused for 30 ms and resumed 1 ms apart: the first resume
# drains about 5 packets of each at 20 Mbit/s (3 ms), and the second one
# lands in that drain. Ends with RESUME ALL.
sequence() {
	local i r a b
	RANDOM=$SEED
	for ((i = 0; i < STEPS; i++)); do
		r=$((RANDOM % 10))
		case $r in
		[0-3]) echo keys pause 3 "$(some_keys)" ;;
		[4-6]) echo keys resume 3 "$(some_keys)" ;;
		7) echo keys pause 3:all ;;
		8) echo keys resume 3:all ;;
		9)
			a=$(key $((RANDOM % N))) b=$(key $((RANDOM % N)))
			echo keys pause 3 "$a,$b" --wait 30ms keys resume 3 "$a" \
				--wait 1ms keys resume 3 "$b"
			;;
		esac
		echo --wait 5ms
	done
	echo keys resume 3:all
}

# Shared step: the streams, the injection, the sink's report. Sets SENT
# (frames injected), K0/K1 (h1's keyed counters before and after).
stressed() {
	local i epoch args
	[ -z "${DONE:-}" ] || return 0
	DONE=1
	# (bash takes seconds to write it under TCG: before the streams)
	read -ra args <<<"$(sequence | tr '\n' ' ')"
	read -ra K0 < <(h1 .kp.rx_pause .kp.rx_resume .kp.rx_deferred .kp.rx_bad \
		.ofc.drains .ofc.moved)
	echo >"$TR/trace"
	for e in $EVENTS; do echo 1 >"$TR/events/fcq/$e/enable"; done
	epoch=$(epoch_in 0.5)
	for ((i = 0; i < N; i++)); do
		nsx h-h1 fcq-gen paced -t "$TOS" -e "$epoch" "$(dst "$i")" \
			"$STREAM_RATE" 0 "$STREAM_BYTES" >>"$WORK/snd.jsonl" &
		NET_PIDS+=($!)
	done
	sleep 1.5
	nsx sw fcq-frame sw-h1 "${args[@]}" >"$WORK/sent"
	SENT=$(wc -l <"$WORK/sent")
	sleep 0.5
	read -ra K1 < <(h1 .kp.rx_pause .kp.rx_resume .kp.rx_deferred .kp.rx_bad \
		.ofc.drains .ofc.moved)
	# the streams' ends: 1 s of margin, then at most 30 s more
	for _ in $(seq 60); do
		[ "$(wc -l <"$WORK/rcv.jsonl")" -ge "$N" ] && break
		sleep 0.5
	done
	for e in $EVENTS; do echo 0 >"$TR/events/fcq/$e/enable"; done
	cp "$WORK"/*.jsonl "$WORK/sent" "$OUT/"
	cp "$TR/trace" "$OUT/trace"
	ktap_note "streams: $(gojq -sc 'map({"end": .end, lost, reorders, dups})' "$WORK/rcv.jsonl")"
}

frames_all_counted() {
	local p r b
	stressed
	p=$((K1[0] - K0[0])) r=$((K1[1] - K0[1])) b=$((K1[3] - K0[3]))
	ktap_note "injected $SENT frames; h1 counted $p pauses, $r resumes, $b bad"
	[ $((p + r)) = "$SENT" ] && [ "$b" = 0 ] && [ "$SENT" -gt "$STEPS" ]
	check_err $? "sent $SENT, rx_pause +$p, rx_resume +$r, rx_bad +$b"
	log_test "every injected frame is received and counted"
}

nested_path_taken() {
	local d
	stressed
	d=$((K1[2] - K0[2]))
	ktap_note "resumes deferred while a drain ran: $d; drains: $(h1 .ofc.drains); frames sent $(gojq -rs '"\((.[0] - .[1]) / 1e6) to \((.[2] - .[1]) / 1e6) ms"' <(head -n 1 "$WORK/sent") <(gojq -s 'map(.first_ns) | min' "$WORK/rcv.jsonl") <(tail -n 1 "$WORK/sent")) after the first datagram arrived"
	[ "$d" -gt 0 ]
	check_err $? "rx_deferred +$d"
	log_test "resumes arrive during drains and wait for them (nested path)"
}

# h1-eth's events while the frames came in, against its counters: every
# keyed frame, drain and step aside traced once (the streams go on a
# little after the counters are read: moves and drains may only add).
tracepoints_match() {
	local rx dr mv
	stressed
	rx=$(grep -c 'kp_rx: dev=h1-eth ' "$OUT/trace")
	dr=$(grep -c 'resume: dev=h1-eth ' "$OUT/trace")
	mv=$(grep -c 'isolate: dev=h1-eth ' "$OUT/trace")
	ktap_note "traced: $rx keyed frames, $dr drains, $mv packets aside; counted: $SENT frames, $((K1[4] - K0[4])) drains, $((K1[5] - K0[5])) moved"
	[ "$rx" = "$SENT" ] && [ "$dr" -ge $((K1[4] - K0[4])) ] &&
		[ "$mv" -ge $((K1[5] - K0[5])) ] && [ "$dr" -gt 0 ] && [ "$mv" -gt 0 ]
	check_err $? "traced $rx/$dr/$mv"
	log_test "fcq:kp_rx, fcq:resume and fcq:isolate trace what the counters count"
}

streams_complete() {
	stressed
	paced_complete "$WORK/rcv.jsonl" "$N"
	log_test "every stream arrives whole"
}

no_reorder() {
	stressed
	paced_in_order "$WORK/rcv.jsonl"
	log_test "no stream reordered or duplicated"
}

no_loss() {
	stressed
	paced_no_loss "$WORK/rcv.jsonl"
	log_test "nothing lost, no packet dropped"
}

nothing_left() {
	local v
	stressed
	v=$(h1 .kp.rx_applied .ofc.paused_mask .ofc.drain_mask .backlog .qlen | tr '\t' ' ')
	ktap_note "h1 applied, paused_mask, drain_mask, backlog, qlen: $v"
	[ "$v" = "0 0 0 0 0" ]
	check_err $? "$v"
	log_test "nothing left paused, draining or queued"
}

tests_plan
star bridge h1 h2
H1=$(addr h1)
# shellcheck disable=SC2086
qdisc_all ofc $LINK -- ofc $LINK
for ((i = 0; i < N; i++)); do
	nsx h-h2 ip addr add "$(dst "$i")/24" dev h2-eth
done
for ((i = 0; i < N; i++)); do
	nsx h-h1 ping -q -c 1 -W 2 "$(dst "$i")" >/dev/null
done
nsx h-h2 fcq-gen server -t $TOS >"$WORK/rcv.jsonl" &
NET_PIDS+=($!)
sleep 0.3
tests_run
rm -rf "$WORK"
ktap_finish
