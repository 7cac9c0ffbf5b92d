#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qcn_cp.sh: the paper's culprit-and-victim scenario (Unbiased QCN,
# Fig. 3) in miniature, at 20 Mbit/s. s1 sends f1 to the hotspot d at 0.3
# of the line and f6 to the idle e at 0.7; s2..s4 each send to d at line
# rate. Every switch port is qcn with congestion points at its input;
# every host NIC qcnrp. Sources are paced UDP on blocking sockets, so a
# rate limiter holds them back instead of dropping; PFC on priority 0
# guards the switch's inputs (at fcq's thresholds, not scaled to the
# paper's STOP at 110 of 150 kB; with 8 kB of headroom, below). With
# arrival sampling the victim f6 is throttled along with f1; with
# occupancy sampling it keeps its rate; with PAUSE alone (cp none) it is
# held back with f1.
# tshark decodes the CNMs s1 receives; nothing is lost; the qdiscs go away
# under traffic and the module unloads.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	victim_throttled_by_arrival
	victim_kept_by_occupancy
	victim_coupled_by_pause
	culprits_share_hotspot
	cnms_decoded
	nothing_lost
	delete_under_traffic
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/net.sh"

OUT=${FCQ_RESULTS:-/tmp}/qcn_cp
WORK=$(mktemp -d)
RATE=20mbit
NS=1000000000
# Rates are measured from FROM to TO s after the senders start (mbps()).
FROM=2
TO=7
mkdir -p "$OUT"
DMESG0=$(dmesg | wc -l)
new_dmesg() { dmesg | tail -n +$((DMESG0 + 1)); }
mac() { nsx "$(hns "$1")" cat "/sys/class/net/$1-eth/address"; }

# The switch's headroom: auto's 5460 bytes (pfc.rst, "Headroom") and
# what a host's link may replay after the guest stalled (up to 1 ms, 2.5
# kB at 20 Mbit/s: fcq/link.c) before the pause that was due reaches it.
# Without it, 3 of 16 PAUSE-only runs beside one or two other guests
# dropped one frame at an input (drop_lossless; sw-d had lost 55 ms to
# stalls).
HEADROOM=8kb

# One run of the scenario with sample $1 (none: no CP, PAUSE only), its
# results in $WORK/$1.*: goodput per 0.5 s bin at d (f1..f4) and e (f6),
# the drops, s1's CNMs.
scenario() {
	local name=$1 sample=$1 cp=ingress h ep l0 l1 l2 s=()
	[ "$sample" != none ] || cp=none sample=arrival
	star bridge s1 s2 s3 s4 d e
	for h in s1 s2 s3 s4 d e; do
		nsx sw tc qdisc replace dev "sw-$h" root qcn rate $RATE delay 50us \
			cp $cp sample "$sample" q_eq 20kb i_s 15kb lossless 0 \
			headroom $HEADROOM seed 7 || return 1
		nsx "$(hns $h)" tc qdisc replace dev "$h-eth" root qcnrp \
			rate $RATE delay 50us lossless 0 rl_limit 1000 seed 7 || return 1
	done
	mesh_ping || return 1
	echo "$(mac d) $(mac e)" >"$WORK/$name.macs"
	nsx h-d fcq-gen server -b 500 -T 1 >"$WORK/$name.d" &
	NET_PIDS+=($!)
	nsx h-e fcq-gen server -b 500 -T 1 >"$WORK/$name.e" &
	NET_PIDS+=($!)
	capture h-s1 s1-eth "$WORK/$name.pcapng" "ether proto 0x22e7"
	ep=$(epoch_in 0.5)
	nsx h-s1 fcq-gen paced -e "$ep" "$(addr d)" 6Mbps 0 45000000 >/dev/null &
	s+=($!)
	nsx h-s1 fcq-gen paced -e "$ep" "$(addr e)" 14Mbps 0 105000000 >/dev/null &
	s+=($!)
	for h in s2 s3 s4; do
		nsx "$(hns $h)" fcq-gen paced -e "$ep" "$(addr d)" 20Mbps 0 \
			150000000 >/dev/null &
		s+=($!)
	done
	# Rates are measured from FROM to TO (mbps()): the link time f6's
	# path lost meanwhile, and s1's paths since the senders started.
	until_ns "$ep"
	l0=$(s1_lags)
	until_ns $((ep + FROM * NS))
	l1=$(s1_lags)
	until_ns $((ep + TO * NS))
	l2=$(s1_lags)
	lags_lost "$l1" "$l2" 1 2 >"$WORK/$name.lost"
	lags_lost "$l0" "$l2" 1 2 3 >"$WORK/$name.lost_run"
	until_ns $(((TO + 1) * NS + ep))
	capture_stop
	nsx sw tc -s qdisc show dev sw-s1 >"$WORK/$name.sw-s1"
	total_drops >"$WORK/$name.drops"
	kill "${s[@]}" 2>/dev/null
	reported "$WORK/$name.d" 4
	reported "$WORK/$name.e" 1
	cleanup
}

# The link time (ns) lost to host stalls so far by s1's port, e's (with
# it f6's path) and d's (with s1's, f1's).
s1_lags() {
	echo "$(link_lost h-s1 s1-eth) $(link_lost sw sw-e) $(link_lost sw sw-d)"
}

# The most link time any of the ports numbered $3.. (in s1_lags' order)
# lost from lags $1 to lags $2.
lags_lost() {
	local a=$1 b=$2
	shift 2
	echo "$a $b" | awk -v p="$*" '{ n = split(p, i, " ")
		for (k = 1; k <= n; k++) { d = $(i[k] + 3) - $(i[k]); if (d > m) m = d }
		printf "%.0f\n", m }'
}

# Mean goodput (Mbit/s) of the streams from $2 in file $1, FROM..TO s (the
# sink's bins are 0.5 s).
mbps() {
	gojq -s --arg src "$2" --argjson a $((2 * FROM)) --argjson b $((2 * TO)) \
		'[.[] | select(.src == $src) | .bins[$a:$b][]] |
		if length == 0 then 0 else (add * 16 / length / 1e4 | floor) / 100 end' "$1"
}

ran() {
	[ -e "$WORK/$1.d" ] || scenario "$1"
}

# "N_D N_E": the CNMs s1 received under sample $1 that name d, and e.
cnm_split() {
	local D_MAC E_MAC
	read -r D_MAC E_MAC <"$WORK/$1.macs"
	tshark -X lua_script:"$FCQ_TOP/tools/wireshark/qcn.lua" \
		-r "$WORK/$1.pcapng" -Y cnm -T fields -e cnm.encap_da 2>/dev/null |
		awk -v d="$D_MAC" -v e="$E_MAC" '
			$1 == d { nd++ } $1 == e { ne++ } END { print nd + 0, ne + 0 }'
}

# The paper's bias, by its cause: arrival sampling picks the arriving
# frame's flow, so many of s1's CNMs name f6's destination (f6 is 0.7 of
# what s1 offers, less once it is slowed), and f6 ends slower than under
# deterministic occupancy sampling beside it. The margins are from 13
# runs on 6.1 and 6.12 (qcn.rst, "Testing"): CNMs naming e were 41 to
# 59 % of s1's (asserted: 25 %), f6 0.14 to 0.62 of its rate with
# occupancy_det (asserted: under 0.9).
victim_throttled_by_arrival() {
	local f1 f6 f6d n
	ran arrival
	ran occupancy_det
	f1=$(mbps "$WORK/arrival.d" "$(addr s1)")
	f6=$(mbps "$WORK/arrival.e" "$(addr s1)")
	f6d=$(mbps "$WORK/occupancy_det.e" "$(addr s1)")
	n=$(cnm_split arrival)
	ktap_note "arrival sampling: f6 $f6 Mbit/s of its 14, f1 $f1 ($f6d with occupancy_det); CNMs to s1 naming d, e: $n"
	awk -v v="$f6" -v w="$f6d" -v n="$n" 'BEGIN { split(n, c, " ")
		exit !(c[2] >= 0.25 * (c[1] + c[2]) && c[2] > 0 && v < 0.9 * w) }'
	check_err $? "f6 $f6 / $f6d, CNMs $n"
	log_test "arrival sampling names the victim f6 and slows it"
}

# Occupancy sampling: f6's frames leave s1's input at once (e is idle),
# so they are seldom (random) or never (deterministic) the culprit. f6
# had 13.35 to 13.94 Mbit/s in the 13 runs (asserted: 11.2). A guest
# the host stalls loses link time whatever the scheme (two make checks
# side by side once gave f1..f4 3.72 Mbit/s each, 80 % of their share,
# and f6 10.99): f6 is judged net of what its path lost in the window,
# and not at all past 10 % of it (qcn_fanin.sh does the same at d).
victim_kept_by_occupancy() {
	local s f6 lost ok=0 judged=0
	for s in occupancy_rand occupancy_det; do
		ran $s
		f6=$(mbps "$WORK/$s.e" "$(addr s1)")
		lost=$(cat "$WORK/$s.lost" 2>/dev/null || echo 0)
		ktap_note "$s: f6 $f6 Mbit/s of its 14; its path lost $((lost / 1000000)) ms of the $((TO - FROM)) s to host stalls"
		[ "$lost" -le $(((TO - FROM) * NS / 10)) ] || continue
		judged=$((judged + 1))
		awk -v v="$f6" -v l="$lost" -v w=$(((TO - FROM) * NS)) 'BEGIN {
			exit !(v >= 0.8 * 14 * (1 - l / w)) }' || ok=1
	done
	[ $judged -gt 0 ] ||
		check_skip "the host stalled the guest for over 10 % of both windows"
	check_err $ok "f6"
	log_test "occupancy sampling keeps the victim f6 at 0.8 of its rate or more"
}

# PAUSE alone: f1's backlog at s1's input pauses s1, f6 with it, so the
# two leave s1 in the ratio of what they offer, 14 to 6 (the paper: f6
# gets 7/3 of f1's rate). Asserted: within 15 % of 7/3 (the issue's
# margin); 2.22 to 2.36 in 22 runs on 6.1 and 6.12, beside up to three
# other guests. That holds while s1's senders keep their schedules: a
# stall that puts both behind holds each to the socket buffer it has
# queued in s1's port, and from then on they leave in about equal shares
# (qcn.rst, deviation 15). Two runs beside a second make check did so
# (1.38 and 1.94, after stalls of about 0.25 and 0.7 s in the sink's
# bins). Of the passing runs, 10 lost 7 to 95 ms of s1's paths' link time
# (link_lost) from the start to TO, 4 others 69 to 105 ms from FROM to TO.
# A run that lost over 150 ms is not judged.
PAUSE_LOST_MAX=150000000
victim_coupled_by_pause() {
	local f1 f6 lost
	ran none
	f1=$(mbps "$WORK/none.d" "$(addr s1)")
	f6=$(mbps "$WORK/none.e" "$(addr s1)")
	lost=$(cat "$WORK/none.lost_run" 2>/dev/null || echo 0)
	ktap_note "PAUSE only: f6 $f6 Mbit/s, f1 $f1; s1's paths lost $((lost / 1000000)) ms of the first $TO s to host stalls (judged up to $((PAUSE_LOST_MAX / 1000000)))"
	if [ "$lost" -gt $PAUSE_LOST_MAX ]; then
		check_skip "the host stalled the guest for $((lost / 1000000)) ms of s1's first $TO s"
	else
		awk -v a="$f6" -v b="$f1" 'BEGIN { exit !(b > 0 &&
			a / b >= 0.85 * 7 / 3 && a / b <= 1.15 * 7 / 3) }'
		check_err $? "f6 $f6 f1 $f1"
	fi
	log_test "PAUSE alone couples the victim f6 to f1, at 7/3 of its rate"
}

# f1..f4 to d under occupancy sampling: each within 25 % of their mean
# (they were within 0.5 % in the 13 runs: DRR over four backlogged inputs).
culprits_share_hotspot() {
	local r h
	ran occupancy_rand
	r=$(for h in s1 s2 s3 s4; do mbps "$WORK/occupancy_rand.d" "$(addr $h)"; done |
		tr '\n' ' ')
	ktap_note "occupancy sampling: f1..f4 $r Mbit/s"
	echo "$r" | awk '{ m = ($1 + $2 + $3 + $4) / 4; ok = m > 0
		for (i = 1; i <= 4; i++) if ($i < 0.75 * m || $i > 1.25 * m) ok = 0
		exit !ok }'
	check_err $? "f1..f4 $r"
	log_test "the four flows to the hotspot share it"
}

# CNMs to s1, decoded by tshark: deterministic occupancy sampling names
# d (f1's destination) only; random occupancy sampling mostly d (e in 4.3
# to 7.4 % of them in the 13 runs; asserted: at most 20 %).
cnms_decoded() {
	local det rnd
	ran occupancy_rand
	ran occupancy_det
	det=$(cnm_split occupancy_det)
	rnd=$(cnm_split occupancy_rand)
	ktap_note "CNMs to s1 naming d, e (tools/wireshark/qcn.lua): occupancy_det $det; occupancy_rand $rnd"
	awk -v a="$det" -v b="$rnd" 'BEGIN { split(a, x, " "); split(b, y, " ")
		exit !(x[1] > 0 && x[2] == 0 && y[1] > 0 && y[2] <= 0.2 * (y[1] + y[2])) }'
	check_err $? "det $det rnd $rnd"
	log_test "tshark decodes CNMs naming f1's destination, not f6's"
}

nothing_lost() {
	local s d=""
	for s in none arrival occupancy_rand occupancy_det; do
		ran $s
		d="$d $s $(cut -d' ' -f1 "$WORK/$s.drops")"
	done
	ktap_note "drops:$d"
	! echo "$d" | grep -qE ' [1-9]'
	check_err $? "drops$d; where: $(cat "$WORK"/*.drops | cut -s -d' ' -f2- | tr '\n' ' ')"
	log_test "nothing is lost (senders block behind their rate limiters)"
}

delete_under_traffic() {
	local h ep sent rc=0
	star bridge s1 s2 d
	for h in s1 s2 d; do
		nsx sw tc qdisc replace dev "sw-$h" root qcn rate $RATE \
			q_eq 20kb i_s 15kb lossless 0
		nsx "$(hns $h)" tc qdisc replace dev "$h-eth" root qcnrp rate $RATE \
			lossless 0
	done
	mesh_ping
	serve d
	# Half a second for the sink to bind: no port unreachable.
	ep=$(epoch_in 0.5)
	nsx h-s1 fcq-gen paced -e "$ep" "$(addr d)" 20Mbps 0 30000000 >/dev/null &
	NET_PIDS+=($!)
	nsx h-s2 fcq-gen paced -e "$ep" "$(addr d)" 20Mbps 0 30000000 >/dev/null &
	NET_PIDS+=($!)
	sleep 2.5
	sent=$(nsx sw tc -j -s qdisc show dev sw-d | gojq '.[0].bytes')
	for h in s1 s2 d; do
		nsx sw tc qdisc del dev "sw-$h" root || rc=1
	done
	sleep 0.5
	cleanup
	sleep 1
	rmmod sch_qcn || rc=1
	ktap_note "sw-d sent $sent bytes in 2 s; del + rmmod: $rc; kernel: $(new_dmesg | grep -ciE 'warn|bug|leak') warnings"
	[ "$rc" = 0 ] && [ "$sent" -gt 1000000 ] &&
		! new_dmesg | grep -qiE 'warn|bug|leak'
	check_err $? "exit $rc"
	log_test "deleted under traffic; the module unloads"
}

tests_plan
tests_run
cp "$WORK"/*.d "$WORK"/*.e "$WORK"/*.sw-s1 "$OUT/" 2>/dev/null
ktap_finish
