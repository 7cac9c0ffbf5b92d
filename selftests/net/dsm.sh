#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dsm.sh: DSM (algo dsm) on real frames. s1 and s2 send paced UDP to d at
# 20 Mbit/s each, into d's switch port, a DSM congestion point sampling
# every 25 kB (T = 10.24 ms at 20 Mbit/s), 1000-byte frames; the hosts'
# qcnrp ports are DSM reaction points. Every sample is a qcn:dsm_sample
# event and every CNM applied a qcn:cnm_rx one: selftests/lib/dsm_check.py
# replays them against the paper's rules, in exact integers apart from
# core/dsm.c. Midway the CP's horizon goes from 4 to 0 (tc qdisc change).
# A second run, with room on and the paper's gains: each step bounded
# by its source's room, as dsm_check.py bounds it. A third, with clock
# time: a sample every T whether the port is under- or overloaded.
# tshark decodes the CNMs s1 gets (version 1, F_b) with qcn.lua. Then, on
# injected CNMs: the CPID rule, each CNM's react delay and jitter, and a
# change of algo with rate limiters live.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	cp_follows_the_paper
	horizon_change_forgets
	rp_follows_eq26
	room_bounds
	clock_time_every_t
	cnms_decoded
	cpid_rule
	react_jitter
	algo_change
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/ktap.sh"
NET_MTU=1000
. "$HERE/../lib/net.sh"

OUT=${FCQ_RESULTS:-/tmp}/dsm
WORK=$(mktemp -d)
TR=/sys/kernel/tracing
RATE=20mbit
LINE=20000000
Q0=16384
S=25600
NS=1000000000
# The CP's H_a, H_b, H_c: a tenth of the paper's 0.8 * 2/T, whose steps
# of up to C would cut both senders to r_min in two samples (then a
# sample comes every few seconds): this checks the rules, not the gains.
H=20hz
mkdir -p "$OUT"
mac() { nsx "$(hns "$1")" cat "/sys/class/net/$1-eth/address"; }

# A run of $2 s into $1 (a directory): the trace, the CNMs s1 captured
# and s1's MAC, the CP's T and H in T_NS and H_HZ, and check.json, the
# replay of the trace by dsm_check.py with the arguments after $3 (its
# --m at least). The CP takes the options $3 (its m at least); its
# horizon goes from 4 to 0 at 3.5 s with "--then-m". The namespaces go,
# whatever happened.
dsm_run() {
	dsm_run_once "$@"
	local rc=$?
	cleanup
	return $rc
}

dsm_run_once() {
	local dir=$1 secs=$2 cpo=$3 h ep s=() then=0
	shift 3
	case " $* " in *" --then-m "*) then=1 ;; esac
	mkdir -p "$dir"
	star bridge s1 s2 d
	for h in s1 s2; do
		nsx sw tc qdisc replace dev "sw-$h" root qcn rate $RATE \
			delay 5ms cp none lossless none || return 1
	done
	# shellcheck disable=SC2086 # $cpo: options, one word each
	nsx sw tc qdisc replace dev sw-d root qcn rate $RATE delay 50us \
		algo dsm cp egress sample arrival q_eq $Q0 i_s $S \
		$cpo lossless none limit 40 seed 7 || return 1
	for h in s1 s2 d; do
		nsx "$(hns $h)" tc qdisc replace dev "$h-eth" root qcnrp \
			rate $RATE delay 5ms algo dsm lossless none rl_limit 1000 \
			seed 7 || return 1
	done
	echo 8192 >"$TR/buffer_size_kb"
	echo >"$TR/trace"
	echo 1 >"$TR/events/qcn/enable" || return 1
	mesh_ping || return 1
	serve d -b 500 -T 1
	capture h-s1 s1-eth "$dir/cnm.pcapng" "ether proto 0x22e7"
	ep=$(epoch_in 0.5)
	for h in s1 s2; do
		nsx "$(hns $h)" fcq-gen paced -e "$ep" -d "$secs" "$(addr d)" \
			20Mbps 0 $((secs * 2500000)) >/dev/null &
		s+=($!)
	done
	if [ $then = 1 ]; then
		until_ns $((ep + 35 * NS / 10))
		nsx sw tc qdisc change dev sw-d root qcn m 0 || return 1
		echo dsm-m0 >"$TR/trace_marker"
	fi
	until_ns $((ep + secs * NS))
	# the senders stop (the hosts' RLs drain on); every CNM traced
	# reaches s1 before its capture stops
	kill "${s[@]}" 2>/dev/null
	echo 0 >"$TR/events/qcn/enable"
	sleep 0.3
	capture_stop
	cp "$TR/trace" "$dir/trace"
	read -r T_NS H_HZ < <(xstats sw sw-d .qcn.dsm_t_ns .options.ha |
		tr '\t' ' ')
	nsx sw tc -s -j qdisc show dev sw-d >"$dir/sw-d.json"
	nsx sw tc -s qdisc show dev sw-d >"$dir/sw-d"
	mac s1 >"$dir/s1.mac"
	python3 "$HERE/../lib/dsm_check.py" "$dir/trace" --dev sw-d \
		--q0 $Q0 --s $S --t-ns "$T_NS" \
		--h-mhz "$(awk -v h="$H_HZ" 'BEGIN { printf "%d", h * 1000 + 0.5 }')" \
		"$@" --rp-dev s1-eth --rp-dev s2-eth \
		--line $LINE --r-min $((LINE / 2000)) >"$dir/check.json"
}

# The run most cases read, once: 6 s with gains of H, the horizon 0 from
# 3.5 s on; in $WORK.
traffic() {
	[ -z "${RAN:-}" ] || return 0
	RAN=1
	dsm_run "$WORK" 6 "m 4 ha $H hb $H hc $H" --m 4 --then-m dsm-m0 0
}

check() { gojq -r "$1" "$WORK/check.json"; }

# Every sample's prediction (eq. 25), region and step (eqs. 24 and 27) as
# the paper's rules give them from the queue the trace saw.
cp_follows_the_paper() {
	traffic
	ktap_note "T $T_NS ns, H $H_HZ Hz: $(gojq -c '{samples, cp_mismatch, regions, nonzero_u, switch_at, errors}' "$WORK/check.json")"
	[ "$(check '.samples')" -ge 60 ] && [ "$(check '.cp_mismatch')" = 0 ] &&
		[ "$(check '.nonzero_u')" -gt 0 ]
	check_err $? "$(check '.errors | join("; ")')"
	log_test "each sample predicts by eq. 25 and steps by eqs. 24 and 27"
}

# tc qdisc change ... m 0: from the next sample on no prediction (^Q = Q,
# with the gains of m = 0), the steps before forgotten, q_old kept.
horizon_change_forgets() {
	local at n
	traffic
	at=$(check '.switch_at // -1')
	n=$(check '.samples')
	ktap_note "the horizon went to 0 at sample $at of $n"
	[ "$at" -ge 30 ] && [ $((n - at)) -ge 20 ] &&
		[ "$(check '.cp_mismatch')" = 0 ]
	check_err $? "switch at $at of $n; $(check '.errors | join("; ")')"
	log_test "a change of m forgets the steps and predicts with the new m"
}

# Each CNM an RP applied moved its RL by F_b (eq. 26), within [r_min,
# line], an RL starting at the line.
rp_follows_eq26() {
	traffic
	ktap_note "cnm_rx events checked: $(check '.rp_checked'), off the rule: $(check '.rp_mismatch')"
	[ "$(check '.rp_checked')" -gt 10 ] && [ "$(check '.rp_mismatch')" = 0 ]
	check_err $? "$(check '.errors | join("; ")')"
	log_test "each CNM applied moves its rate limiter by F_b"
}

# room on, with the paper's gains (whose steps of up to C the
# sources cannot take) and m 1 (the loop, 5 ms links each way, is about
# one period): each step within [-r, S - r] of its source's
# rate r (bytes per T, from what it brought since the sample before),
# exactly as dsm_check.py bounds it, the prediction counting the bounded
# step; the bound used, and each use counted in dsm_bounded (which also
# counts the samples after the trace stopped: the RLs drain on).
room_bounds() {
	local dir=$WORK/room n all traced bounded
	if ! dsm_run "$dir" 3 "m 1 room on" --m 1; then
		check_err 1 "the run failed"
		log_test "room on bounds each step by its source's room"
		return
	fi
	n=$(gojq -r '.[0].qcn.dsm_bounded' "$dir/sw-d.json")
	all=$(gojq -r '.[0].qcn.samples' "$dir/sw-d.json")
	traced=$(gojq -r .samples "$dir/check.json")
	bounded=$(gojq -r .bounded "$dir/check.json")
	ktap_note "T $T_NS ns, H $H_HZ Hz: $(gojq -c '{samples, with_room, bounded, cp_mismatch, regions, errors}' "$dir/check.json"); the CP's samples $all, dsm_bounded $n"
	[ "$traced" -ge 30 ] &&
		[ "$(gojq -r .cp_mismatch "$dir/check.json")" = 0 ] &&
		[ "$(gojq -r .with_room "$dir/check.json")" -ge 30 ] &&
		[ "$bounded" -ge 1 ] && [ "$n" -ge "$bounded" ] &&
		[ "$n" -le $((bounded + all - traced)) ] &&
		[ "$(gojq -r .rp_mismatch "$dir/check.json")" = 0 ]
	check_err $? "$(gojq -r '.errors | join("; ")' "$dir/check.json")"
	log_test "room on bounds each step by its source's room"
}

# clock time: a sample at the first frame T or more after the last, so
# every T whatever arrives. s1 sends 10 Mbit/s to d for 1.5 s (half the
# port's rate: per bytes a sample would come every 2 T), then s2 joins at
# 20 Mbit/s for 1.5 s (1.5 times the rate; the full buffer admits what
# leaves, so per bytes too a sample every T). The hosts have no RP, so
# the rates stay. The gaps between samples in the trace: their 10th and
# 90th percentiles within 0.95 and 1.25 T (a frame arrives every 0.27 to
# 0.8 ms, T is 10.24 ms; the trace stamps each sample a little after its
# clock read). With clock bytes the 90th percentile was 1.86 T. A run
# whose sw-d lost over 10 % of its link time to host stalls is not
# judged.
clock_time_every_t() {
	local h ep lost s=() t_ns gaps n p10 p90
	star bridge s1 s2 d
	for h in s1 s2; do
		nsx sw tc qdisc replace dev "sw-$h" root qcn rate $RATE \
			cp none lossless none
	done
	nsx sw tc qdisc replace dev sw-d root qcn rate $RATE algo dsm \
		cp egress sample arrival q_eq $Q0 i_s $S m 4 ha $H hb $H \
		hc $H clock time lossless none limit 40
	check_err $? "sw-d's qdisc"
	mesh_ping
	check_err $? "the hosts do not reach each other"
	serve d -b 500 -T 1
	echo >"$TR/trace"
	echo 1 >"$TR/events/qcn/dsm_sample/enable"
	ep=$(epoch_in 0.5)
	nsx h-s1 fcq-gen paced -e "$ep" -d 3 "$(addr d)" 10Mbps 0 \
		4000000 >/dev/null &
	s+=($!)
	nsx h-s2 fcq-gen paced -e "$ep" -d 1.5 "$(addr d)" 20Mbps 1.5 \
		4000000 >/dev/null &
	s+=($!)
	lost=$(link_lost sw sw-d)
	until_ns $((ep + 3 * NS))
	echo 0 >"$TR/events/qcn/dsm_sample/enable"
	lost=$(($(link_lost sw sw-d) - lost))
	kill "${s[@]}" 2>/dev/null
	t_ns=$(xstat sw sw-d .qcn.dsm_t_ns)
	# the gaps (T) from the second sample on, sorted
	gaps=$(awk -v t="$t_ns" '/dsm_sample: dev=sw-d / {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) s = $i + 0
		if (n++) printf "%.3f\n", (s - last) * 1e9 / t; last = s }' \
		"$TR/trace" | sort -n)
	cp "$TR/trace" "$WORK/clock.trace"
	cleanup
	n=$(echo "$gaps" | grep -c .)
	p10=$(pct 10 "$gaps")
	p90=$(pct 90 "$gaps")
	ktap_note "$n gaps, in T ($t_ns ns): 10th percentile $p10, median $(pct 50 "$gaps"), 90th $p90; sw-d lost $((lost / 1000000)) ms to host stalls"
	if [ "$lost" -gt $((3 * NS / 10)) ]; then
		check_skip "the host stalled sw-d for $((lost / 1000000)) ms of 3 s"
	else
		[ "$n" -ge 200 ] && awk -v a="$p10" -v b="$p90" \
			'BEGIN { exit !(a >= 0.95 && b <= 1.25) }'
		check_err $? "gaps $p10 to $p90 T"
	fi
	log_test "clock time samples every T, the port under- or overloaded"
}

# The $1-th percentile of the sorted numbers $2, one a line.
pct() {
	echo "$2" | awk -v p="$1" '{ v[NR] = $1 }
		END { i = int(NR * p / 100 + 0.5); if (i < 1) i = 1; print v[i] }'
}

# The CNMs s1 received, decoded: all DSM's (version 1), their F_b, in
# order, those of the samples before sw-d's cnm_tx events that named s1
# (the capture ends after the trace, and may hold a few more).
cnms_decoded() {
	local dec want bad
	traffic
	dec=$(tshark -X lua_script:"$FCQ_TOP/tools/wireshark/qcn.lua" \
		-r "$WORK/cnm.pcapng" -Y cnm -T fields -e cnm.version \
		-e cnm.dsm_fb 2>/dev/null)
	want=$(check ".fb_to[\"$(cat "$WORK/s1.mac")\"] // [] | .[]")
	bad=$(echo "$dec" | awk '$1 != 1' | wc -l)
	ktap_note "CNMs to s1: $(echo "$dec" | grep -c .) decoded ($bad not version 1), $(echo "$want" | grep -c .) traced; F_b (kbit/s) from $(echo "$dec" | sort -k2 -n | head -n 1 | cut -f2) to $(echo "$dec" | sort -k2 -n | tail -n 1 | cut -f2)"
	[ -n "$want" ] && [ "$bad" = 0 ] &&
		[ "$(echo "$dec" | cut -f2 | head -n "$(echo "$want" | wc -l)")" = "$want" ]
	check_err $? "decoded $(echo "$dec" | cut -f2 | tr '\n' ' '); traced $(echo "$want" | tr '\n' ' ')"
	log_test "tshark decodes s1's CNMs as DSM's, F_b as the samples asked (qcn.lua)"
}

# h1 and h2 on a bridge, h1's port qcnrp with options $@, and a stream
# from h1 to h2 at 5 Mbit/s: the port applies CNMs as it dequeues.
rp_star() {
	star bridge h1 h2
	nsx h-h1 tc qdisc replace dev h1-eth root qcnrp rate $RATE "$@" ||
		return 1
	H1=$(mac h1)
	H2=$(mac h2)
	mesh_ping || return 1
	serve h2
	# half a second for the sink to bind: a port unreachable would end
	# the sender
	nsx h-h1 fcq-gen paced -e "$(epoch_in 0.5)" "$(addr h2)" 5Mbps 0 \
		10000000 >/dev/null &
	NET_PIDS+=($!)
	# the stream flows (the programs take a while to start in the guest)
	for _ in $(seq 100); do
		[ "$(xstat h-h1 h1-eth .packets)" -lt 50 ] || return 0
		sleep 0.05
	done
	return 1
}

# A DSM CNM to h1 from the switch end of its link: inject KBPS [ARGS...]
inject() {
	LAST=$(nsx sw fcq-frame sw-h1 cnm 1:0 --dst "$H1" --encap "$H2" \
		--fb "$@" | tail -n 1)
}
rl() { xstats h-h1 h1-eth "$@"; }

# The stored CPID decides: a cut applies and keeps its CP's; an increase
# from another CP is ignored, one from it applies; an increase for a flow
# without an RL has nothing to raise; a QCN CNM is another algorithm's.
cpid_rule() {
	local a="02:00:00:00:00:aa:00:01" b="02:00:00:00:00:bb:00:01" r=()
	rp_star algo dsm
	check_err $? "h1's stream to h2 did not start"
	inject -5000 --cpid $a
	sleep 0.05
	r+=("$(rl '.qcnrp.rls[0].cr' '.qcnrp.rls[0].cpid')")
	inject 1000 --cpid $b
	sleep 0.05
	r+=("$(rl '.qcnrp.rls[0].cr' .qcnrp.dsm_ignored)")
	inject 1000 --cpid $a
	sleep 0.05
	r+=("$(rl '.qcnrp.rls[0].cr')")
	LAST=$(nsx sw fcq-frame sw-h1 cnm 1:0 --dst "$H1" \
		--encap 02:00:00:00:00:77 --fb 1000 | tail -n 1)
	LAST=$(nsx sw fcq-frame sw-h1 cnm 5:0 --dst "$H1" --encap "$H2" |
		tail -n 1)
	sleep 0.05
	r+=("$(rl .qcnrp.dsm_ignored .qcnrp.cnm_algo '(.qcnrp.rls | length)')")
	ktap_note "cut by 5 Mbit/s (CP a): cr, cpid $(echo "${r[0]}" | tr '\t' ' '); +1 Mbit/s from b: cr, ignored $(echo "${r[1]}" | tr '\t' ' '); +1 from a: cr ${r[2]}; then ignored, cnm_algo, RLs: $(echo "${r[3]}" | tr '\t' ' ')"
	[ "$(echo "${r[0]}" | tr '\t' ' ')" = "1875000 $a" ] &&
		[ "$(echo "${r[1]}" | tr '\t' ' ')" = "1875000 1" ] &&
		[ "${r[2]}" = 2000000 ] &&
		[ "$(echo "${r[3]}" | tr '\t' ' ')" = "2 1 1" ]
	check_err $? "${r[*]}"
	log_test "increases only from the CP of the last cut; other CNMs counted"
	cleanup
}

# react 30ms react_jitter 20ms: each CNM takes effect 30 to 50 ms after it
# came, at the port's next dequeue, in the order they came, the delays
# spread over the jitter. 20 CNMs 5 ms apart, each its own F_b. In 3 runs
# (60 CNMs) the delays were 30.2 to 51.7 ms, at least 14 ms apart within
# a run; asserted: 30 to 60 ms (10 ms for the wake-up, beside other
# guests), at least 5 ms apart.
react_jitter() {
	local i sent=() fbs
	rp_star algo dsm react 30ms react_jitter 20ms seed 3
	check_err $? "h1's stream to h2 did not start"
	echo >"$TR/trace"
	echo 1 >"$TR/events/qcn/cnm_rx/enable"
	for i in $(seq 20); do
		inject "-$i"
		sent+=("$i $LAST")
		sleep 0.005
	done
	sleep 0.2
	echo 0 >"$TR/events/qcn/cnm_rx/enable"
	printf '%s\n' "${sent[@]}" >"$WORK/sent"
	# delay (ms) of each CNM by its F_b, in the order applied
	awk 'NR == FNR { at[-$1] = $2; next }
		/cnm_rx: dev=h1-eth / { for (i = 1; i <= NF; i++) {
			if ($i ~ /^now=/) now = substr($i, 5)
			if ($i ~ /^fb=/) fb = substr($i, 4) }
			printf "%d %.2f\n", fb, (now - at[fb]) / 1e6 }' \
		"$WORK/sent" "$TR/trace" >"$WORK/delays"
	fbs=$(cut -d' ' -f1 "$WORK/delays" | tr '\n' ' ')
	ktap_note "F_b in the order applied: $fbs; delays (ms): $(cut -d' ' -f2 "$WORK/delays" | tr '\n' ' ')"
	[ "$(wc -l <"$WORK/delays")" = 20 ] &&
		[ "$fbs" = "$(seq -1 -1 -20 | tr '\n' ' ')" ] &&
		awk '{ if ($2 < 30 || $2 > 60) bad++
			if (NR == 1 || $2 < lo) lo = $2
			if (NR == 1 || $2 > hi) hi = $2 }
			END { exit !(!bad && hi - lo >= 5) }' "$WORK/delays"
	check_err $? "$(cat "$WORK/delays" | tr '\n' ';')"
	log_test "react and react_jitter delay each CNM, in order"
	cleanup
}

# Another algo with RLs live: they are freed (their flows back at line
# rate), and the other algorithm's CNMs no longer apply.
algo_change() {
	local before after
	rp_star algo dsm
	check_err $? "h1's stream to h2 did not start"
	inject -5000
	sleep 0.05
	before=$(rl '(.qcnrp.rls | length)' .qcnrp.rl_freed | tr '\t' ' ')
	nsx h-h1 tc qdisc change dev h1-eth root qcnrp algo qcn
	inject -5000
	sleep 0.05
	after=$(rl '(.qcnrp.rls | length)' .qcnrp.rl_freed .qcnrp.cnm_algo \
		.options.algo | tr '\t' ' ')
	ktap_note "RLs, freed before: $before; after algo qcn and a DSM CNM: RLs, freed, cnm_algo, algo: $after"
	[ "$before" = "1 0" ] && [ "$after" = "0 1 1 qcn" ]
	check_err $? "before $before, after $after"
	log_test "a change of algo frees the RLs; the other's CNMs are counted"
	cleanup
}

tests_plan
tests_run
cp -r "$WORK"/* "$OUT/" 2>/dev/null
ktap_finish
