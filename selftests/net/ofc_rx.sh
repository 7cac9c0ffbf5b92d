#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ofc_rx.sh: what an ofc port does with the keyed pause and resume frames
# it receives. Host h1 sends two TCP flows on lossless priority 3, A to h2
# and B to h3; frames are injected with fcq-frame from the switch end of
# h1's link: a pause of A alone holds A and not B (no head-of-line
# blocking), its resume lets A go on, a pause of the whole class holds
# both, RESUME ALL ends everything, bad key lists are counted and dropped,
# the pause timeout ends a pause nobody resumes, and a port that keeps no
# keyed pauses (pfc) honours one as a class pause, for its pause_max or
# else 10 ms, which a RESUME ALL ends early; a link that goes down and up
# forgets the pauses it held. fcqctl book lists what h1 holds.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	pause_holds_one_flow
	other_flow_goes_on
	resume_releases
	book_lists_pause
	pause_all_holds_class
	resume_all_ends_keys
	bad_key_type
	bad_key_count
	timeout_ends_pause
	pfc_port_pauses_class
	pfc_port_pause_ends
	books_empty
	no_loss
	link_down_forgets
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/net.sh"

OUT=${FCQ_RESULTS:-/tmp}/ofc_rx
WORK=$(mktemp -d)
TOS=0x60
RATE=20mbit
FLOW_S=900
mkdir -p "$OUT"

# h1's counters, one `tc` call for all of them: h1 JQ... prints the values
# on one line.
h1() { xstats h-h1 h1-eth "$@"; }
inject() { LAST=$(nsx sw fcq-frame sw-h1 "$@" | tail -n 1); }
settle() { sleep "${1:-0.3}"; }
# Bytes flow $1 (a, b) had acknowledged in [$2, $3] ns.
acked() { acked_in "$WORK/$1.jsonl" "$2" "$3"; }

A_KEY='' B_KEY=''

# A held for 0.5 s, then resumed: HOLD and FREE are when the frames left.
# A is TCP: a hold longer than its RTO (200 ms) leaves it backed off, and
# it may take a few hundred ms after the resume to send again. Acked in
# the 1.45 s after its resume, over four runs: 176 KB to 2.9 MB (in the
# 0.45 s after it, 87 KB to 473 KB); held, 0. Released means more than
# 50 KB, 3.5 times below the least seen, 50 KB above the most held.
held_a() {
	[ -z "${HELD_A:-}" ] || return 0
	HELD_A=1
	read -ra K0 < <(h1 .kp.rx_pause .kp.rx_resume .kp.rx_keys)
	inject keys pause 3 "$A_KEY"
	HOLD=$LAST
	settle 0.5
	read -ra K1 < <(h1 .kp.rx_pause .kp.rx_applied)
	BOOK_HELD=$(nsx h-h1 fcqctl -j book h1-eth)
	inject keys resume 3 "$A_KEY"
	FREE=$LAST
	settle 1.5
	read -ra K2 < <(h1 .kp.rx_resume .kp.rx_applied)
	BOOK_FREE=$(nsx h-h1 fcqctl -j book h1-eth)
}

pause_holds_one_flow() {
	local a
	held_a
	# the first 50 ms: what was already on the wire or being sent
	a=$(acked a $((HOLD + 50000000)) "$FREE")
	ktap_note "A acked $a bytes while held (0.45 s); rx_pause +$((K1[0] - K0[0])), applied ${K1[1]}"
	[ "$a" -lt 30000 ] && [ $((K1[0] - K0[0])) = 1 ] && [ "${K1[1]}" = 1 ]
	check_err $? "acked $a, rx_pause +$((K1[0] - K0[0])), applied ${K1[1]}"
	log_test "a keyed pause holds its flow"
}

# B's share of the link while A is held: at least what it had beside A.
other_flow_goes_on() {
	local before during
	held_a
	before=$(acked b $((HOLD - 500000000)) "$HOLD")
	during=$(acked b $((HOLD + 50000000)) $((HOLD + 500000000)))
	ktap_note "B acked $before bytes in the 0.5 s before A was held, $during in 0.45 s while A was held"
	[ "$before" -gt 0 ] && [ $((during * 100)) -ge $((before * 80)) ]
	check_err $? "B: $during after, $before before"
	log_test "the other flow of the class goes on (no head-of-line blocking)"
}

resume_releases() {
	local a
	held_a
	a=$(acked a $((FREE + 50000000)) $((FREE + 1500000000)))
	ktap_note "A acked $a bytes in the 1.45 s after its resume; rx_resume +$((K2[0] - K0[1])), applied ${K2[1]}"
	[ "$a" -gt 50000 ] && [ $((K2[0] - K0[1])) = 1 ] && [ "${K2[1]}" = 0 ]
	check_err $? "acked $a, rx_resume +$((K2[0] - K0[1])), applied ${K2[1]}"
	log_test "its resume releases it"
}

# fcqctl book: A in h1's RX book while held (its peer's pause, applied to
# h1's queues), and out of it once resumed.
book_lists_pause() {
	local held free
	held_a
	held=$(echo "$BOOK_HELD" | gojq -c --arg k "$A_KEY" \
		'[.[] | select(.book == "rx" and .prio == 3 and .key == $k) | .state]')
	free=$(echo "$BOOK_FREE" | gojq --arg k "$A_KEY" '[.[] | select(.key == $k)] | length')
	ktap_note "h1-eth's book while A was held: $BOOK_HELD; after its resume: $BOOK_FREE"
	[ "$held" = '[["peer","applied"]]' ] && [ "$free" = 0 ]
	check_err $? "A's entries while held: $held; after: $free"
	log_test "fcqctl book lists the held flow, and not once it is resumed"
}

pause_all_holds_class() {
	local a b all0 all1 t0 t1
	held_a
	all0=$(h1 .kp.rx_all)
	inject keys pause 3:all
	t0=$LAST
	settle 0.5
	inject keys resume 3:all
	t1=$LAST
	settle 0.3
	all1=$(h1 .kp.rx_all)
	a=$(acked a $((t0 + 50000000)) "$t1")
	b=$(acked b $((t0 + 50000000)) "$t1")
	ktap_note "while the class was held: A $a, B $b bytes acked"
	[ "$a" -lt 30000 ] && [ "$b" -lt 30000 ] && [ $((all1 - all0)) = 1 ]
	check_err $? "A $a, B $b, rx_all +$((all1 - all0))"
	log_test "PAUSE ALL holds every flow of the class until RESUME ALL"
}

# Two keys held, one RESUME ALL: nothing stays held.
resume_all_ends_keys() {
	local n
	held_a
	inject keys pause 3 "$A_KEY,$B_KEY"
	settle
	n=$(h1 .kp.rx_applied)
	inject keys resume 3:all
	settle
	ktap_note "applied after two keys: $n; after RESUME ALL: $(h1 .kp.rx_applied)"
	[ "$n" = 2 ] && [ "$(h1 .kp.rx_applied)" = 0 ]
	check_err $? "applied $n, then $(h1 .kp.rx_applied)"
	log_test "RESUME ALL ends every key the peer held"
}

bad_key_type() {
	local b0 b1 p0 p1
	held_a
	read -r b0 p0 < <(h1 .kp.rx_bad .kp.rx_pause)
	inject keys pause 3 "$A_KEY" --keytype 9
	settle
	read -r b1 p1 < <(h1 .kp.rx_bad .kp.rx_pause)
	[ $((b1 - b0)) = 1 ] && [ "$p1" = "$p0" ] && [ "$(h1 .kp.rx_applied)" = 0 ]
	check_err $? "rx_bad +$((b1 - b0)), rx_pause +$((p1 - p0))"
	log_test "an unknown key type is counted and dropped"
}

bad_key_count() {
	local b0 b1
	held_a
	b0=$(h1 .kp.rx_bad)
	inject keys pause 3 "$A_KEY" --keycount 200
	settle
	b1=$(h1 .kp.rx_bad)
	[ $((b1 - b0)) = 1 ] && [ "$(h1 .kp.rx_applied)" = 0 ]
	check_err $? "rx_bad +$((b1 - b0))"
	log_test "a key list longer than its frame is counted and dropped"
}

# Nobody resumes: pause_timeout 200ms ends the pause, counted.
timeout_ends_pause() {
	local e0 e1 a t
	held_a
	nsx h-h1 tc qdisc change dev h1-eth root ofc pause_timeout 200ms
	e0=$(h1 .kp.rx_expired)
	inject keys pause 3 "$A_KEY"
	t=$LAST
	settle 2
	e1=$(h1 .kp.rx_expired)
	nsx h-h1 tc qdisc change dev h1-eth root ofc pause_timeout off
	a=$(acked a $((t + 300000000)) $((t + 2000000000)))
	ktap_note "A acked $a bytes 0.3-2 s after an unresumed pause; rx_expired +$((e1 - e0))"
	[ $((e1 - e0)) = 1 ] && [ "$a" -gt 50000 ] &&
		[ "$(h1 .kp.rx_applied)" = 0 ]
	check_err $? "rx_expired +$((e1 - e0)), acked $a"
	log_test "pause_timeout ends a pause nobody resumes"
}

# h3's port runs pfc with pause_max 1s: a keyed PAUSE pauses its class
# for up to 1 s, RESUME ALL 50 ms later ends it.
pfc_port_pauses_class() {
	local c0 c1 p0 p1
	read -r c0 p0 < <(xstat h-h3 h3-eth '[.kp.rx_coarse, .prio[3].paused_ns] | @tsv')
	nsx sw fcq-frame sw-h3 keys pause 3 "$A_KEY" --wait 50ms keys resume 3:all \
		>/dev/null
	settle
	read -r c1 p1 < <(xstat h-h3 h3-eth '[.kp.rx_coarse, .prio[3].paused_ns] | @tsv')
	ktap_note "pfc port: rx_coarse +$((c1 - c0)), paused +$((p1 - p0)) ns"
	[ $((c1 - c0)) = 2 ] && [ $((p1 - p0)) -gt 40000000 ] &&
		[ $((p1 - p0)) -lt 200000000 ]
	check_err $? "rx_coarse +$((c1 - c0)), paused +$((p1 - p0)) ns"
	log_test "a port without keyed pauses pauses the class, RESUME ALL ends it"
}

# pause_max any: a keyed PAUSE nobody resumes pauses the class 10 ms.
pfc_port_pause_ends() {
	local p0 p1 t
	nsx h-h3 tc qdisc change dev h3-eth root pfc pause_max any
	p0=$(xstat h-h3 h3-eth '.prio[3].paused_ns')
	t=$(nsx sw fcq-frame sw-h3 keys pause 3 "$A_KEY")
	settle
	p1=$(xstat h-h3 h3-eth '.prio[3].paused_ns')
	ktap_note "pfc port, pause_max any: paused +$((p1 - p0)) ns by a keyed PAUSE at $t ns"
	[ $((p1 - p0)) = 10000000 ]
	check_err $? "paused +$((p1 - p0)) ns"
	log_test "a port without keyed pauses ends an unresumed one after 10 ms"
}

books_empty() {
	held_a
	[ "$(h1 .kp.rx_applied)" = 0 ] && [ "$(xstat sw sw-h1 .kp.tx_held)" = 0 ]
	check_err $? "applied $(h1 .kp.rx_applied), held $(xstat sw sw-h1 .kp.tx_held)"
	log_test "nothing left held on either end"
}

no_loss() {
	local drops
	held_a
	drops=$(total_drops)
	[ "${drops%% *}" = 0 ]
	check_err $? "$drops"
	log_test "no data packet lost meanwhile"
}

# Last (the link loses packets): the switch end of h1's link goes down
# and up; h1's carrier drops, its qdisc is reset, and it forgets the keyed
# pause it held, whose RESUME could have been lost with the link.
link_down_forgets() {
	local n
	held_a
	inject keys pause 3 "$A_KEY"
	settle
	n=$(h1 .kp.rx_applied)
	nsx sw ip link set sw-h1 down
	settle
	nsx sw ip link set sw-h1 up
	settle 1
	ktap_note "held before the link went down: $n; after: $(h1 .kp.rx_applied), paused_mask $(h1 .ofc.paused_mask)"
	[ "$n" = 1 ] && [ "$(h1 .kp.rx_applied)" = 0 ] &&
		[ "$(h1 .ofc.paused_mask)" = 0 ]
	check_err $? "held $n, then $(h1 .kp.rx_applied)"
	log_test "a link that goes down and up forgets the pauses it held"
}

tests_plan
star bridge h1 h2 h3
qdisc_all ofc rate $RATE delay 50us lossless 3 -- \
	  ofc rate $RATE delay 50us lossless 3
nsx h-h3 tc qdisc replace dev h3-eth root pfc rate $RATE delay 50us lossless 3 \
	pause_max 1s
A_KEY="$(addr h1)>$(addr h2)"
B_KEY="$(addr h1)>$(addr h3)"
nsx h-h1 ping -q -c 1 -W 2 "$(addr h2)" >/dev/null
nsx h-h1 ping -q -c 1 -W 2 "$(addr h3)" >/dev/null
serve h2 -t $TOS
serve h3 -t $TOS
sleep 0.3
nsx h-h1 fcq-gen bulk -t $TOS -i 0.05 "$(addr h2)" $FLOW_S >"$WORK/a.jsonl" &
NET_PIDS+=($!)
nsx h-h1 fcq-gen bulk -t $TOS -i 0.05 "$(addr h3)" $FLOW_S >"$WORK/b.jsonl" &
NET_PIDS+=($!)
sleep 1.5
tests_run
cp "$WORK"/*.jsonl "$OUT/"
ktap_finish
