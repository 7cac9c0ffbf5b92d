#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fcq_top.sh: fcq-top against the qdiscs' own counters. Hosts s1, s2, s3
# and r on one bridge, every port pfc with a PFC watchdog (drop). Two
# fcq-top --json run on the switch's namespace through it all, one with
# its BPF programs, one --no-bpf. First an incast: s2 and s3 send UDP to
# r on lossless priority 3, s1 UDP on lossy priority 0: the switch pauses
# s2 and s3, and drops s1's packets over the lossy threshold. Then r's NIC
# goes rogue, as in pfcwd.sh: it streams XOFF for priority 3 while s1's
# TCP flow to r fills sw-r's queue; the watchdog finds the storm and
# drops what r's port holds, until r is quiet again.
#
# Each event fcq-top counted must be one the qdisc counted: at the end,
# when the fabric is quiet, its PFC frames sent and honoured per port and
# priority, and its drops by reason, equal tc -s's counters exactly (one
# event missed or counted twice fails). The hosts' NICs are in other
# namespaces: their events must not be counted here. Last, two namespaces
# with an fcq port of one name, p0: each fcq-top counts its own p0's.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	layout_matches_format
	pause_frames_match
	queue_and_pause_seen
	drops_by_reason_match
	storm_shown
	other_netns_apart
	no_bpf_same_counters
	fallback_says_why
	cpu_cost
	same_name_other_netns
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run).
Results in \$FCQ_RESULTS/fcq_top (FCQ_RESULTS defaults to /tmp)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/net.sh"

OUT=${FCQ_RESULTS:-/tmp}/fcq_top
TR=/sys/kernel/tracing/events
NET_MTU=9000	# fewer frames for TCG's ~25k frames/s
LOSSLESS=0x60	# DSCP 24: priority 3
LOSSY=0x00	# priority 0
LINK="rate 20mbit delay 50us lossless 3"
SW="pfc $LINK xoff 40kb xon 20kb response 20ms pfcwd 50ms pfcwd_restore 200ms pfcwd_action drop"
# Each incast sender's bytes: 3 x 600 kB at 20 Mbit/s, about 0.7 s.
BURST=600000
# r's storm: 40 pauses of 2000 quanta (51 ms at 20 Mbit/s), 20 ms apart.
STORM_FRAMES=40
# fcq-top may take this much of the guest's CPU over the run, refreshing
# every 0.5 s: measured 0.4 to 0.5 % with BPF and 0.1 to 0.3 % without,
# in 9 runs (5 on 6.1, 4 on 6.12, the host loaded by other guests); 3 %,
# six times the most measured, is a refresh or an event costing six times
# as much.
CPU_PCT=3
mkdir -p "$OUT"

# cpu_ns PID: its utime + stime so far (/proc/PID/stat, in clock ticks)
cpu_ns() {
	awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) * 1e9 / hz }' \
		"/proc/$1/stat"
}

# first_line FILE: wait (10 s at most) until fcq-top wrote its first
# refresh to FILE, which it does only once its BPF programs are attached.
first_line() {
	local i
	for i in $(seq 100); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# The whole run, once: fcq-top (BPF) in top.jsonl, fcq-top --no-bpf in
# nobpf.jsonl, every switch port's tc -s -j at the end in sw-H.json and
# every host NIC's in H-eth.json, each fcq-top's CPU (ns) and the run's
# length (ns) in cpu.
RUN_DONE=
run() {
	local top nobpf t0 c0 c1 epoch pids=() s frames=() bulk
	[ -z "$RUN_DONE" ] || return 0
	RUN_DONE=1
	star bridge s1 s2 s3 r
	# shellcheck disable=SC2086 # the options are words
	qdisc_all $SW -- pfc $LINK || return 1
	mesh_ping || return 1
	serve r -t $LOSSLESS
	sleep 0.3
	fcq-top -j -d 0.5 --netns sw >"$OUT/top.jsonl" 2>"$OUT/top.err" &
	top=$!
	fcq-top -j -d 0.5 --netns sw --no-bpf >"$OUT/nobpf.jsonl" \
		2>"$OUT/nobpf.err" &
	nobpf=$!
	NET_PIDS+=("$top" "$nobpf")
	if ! first_line "$OUT/top.jsonl" || ! first_line "$OUT/nobpf.jsonl"; then
		ktap_note "fcq-top wrote nothing in 10 s: $(cat "$OUT"/*.err)"
		return 1
	fi
	t0=$(epoch_in 0)
	c0="$(cpu_ns "$top") $(cpu_ns "$nobpf")"
	epoch=$(epoch_in 0.5)
	for s in s2 s3; do
		nsx "h-$s" fcq-gen flows -u -T 5 -t $LOSSLESS -e "$epoch" \
			"$(addr r):$BURST" >/dev/null &
		pids+=($!)
	done
	nsx h-s1 fcq-gen flows -u -T 5 -t $LOSSY -e "$epoch" \
		"$(addr r):$BURST" >/dev/null &
	pids+=($!)
	wait "${pids[@]}"
	# the storm, against s1's TCP flow to r
	for _ in $(seq $((STORM_FRAMES - 1))); do
		frames+=(--wait 20ms pfc 3:2000)
	done
	nsx h-s1 fcq-gen bulk -t $LOSSLESS "$(addr r)" 3 >/dev/null &
	bulk=$!
	NET_PIDS+=("$bulk")
	sleep 0.5
	nsx h-r fcq-frame r-eth pfc 3:2000 "${frames[@]}" >/dev/null
	wait "$bulk"
	# quiet: the watchdog's restore (200 ms), and two refreshes after
	sleep 1.5
	c1="$(cpu_ns "$top") $(cpu_ns "$nobpf")"
	echo "$c0 $c1 $(($(epoch_in 0) - t0))" >"$OUT/cpu"
	kill "$top" "$nobpf"
	wait "$top" "$nobpf" 2>/dev/null
	for s in s1 s2 s3 r; do
		nsx sw tc -s -j qdisc show dev "sw-$s" >"$OUT/sw-$s.json"
		nsx "h-$s" tc -s -j qdisc show dev "$s-eth" >"$OUT/$s-eth.json"
	done
}

# jq over fcq-top's last line of file $1 (top or nobpf)
last() { tail -n 1 "$OUT/$1.jsonl" | gojq -r "$2"; }

layout_matches_format() {
	local sys ev f off size line bad=0 n=0
	while read -r ev f off size; do
		if [ "$f" = enum ]; then
			# "fcq:drop enum VALUE NAME": in drop's print fmt
			grep -q "{ $off, \"$size\" }" "$TR/fcq/drop/format"
			check_err $? "fcq:drop's print fmt has no { $off, \"$size\" }"
			continue
		fi
		sys=${ev%%:*} ev=${ev#*:}
		line=$(grep -E "field:.*[ ]$f(\[[0-9]+\])?;" "$TR/$sys/$ev/format")
		n=$((n + 1))
		case $line in
		*"offset:$off;"*"size:$size;"*) ;;
		*)
			bad=$((bad + 1))
			ktap_note "$sys:$ev $f: fcq-top reads offset $off size $size; the kernel: ${line:-none}"
			;;
		esac
	done < <(fcq-top --layout)
	ktap_note "$n fields checked on $(uname -r)"
	[ "$bad" = 0 ] && [ "$n" -gt 0 ]
	check_err $? "$bad of $n fields are not where fcq-top reads them"
	log_test "the tracepoint records are laid out as fcq-top reads them"
}

# For every switch port and priority: what fcq-top's events counted
# against tc's counter, a "dev prio events counter" line where they differ
pause_diff() {
	local h
	for h in s1 s2 s3 r; do
		last top ".ports[] | select(.dev == \"sw-$h\") |
			[.events.pause_tx, .events.pause_rx] | @json" |
		gojq -r --slurpfile tc "$OUT/sw-$h.json" --arg d "sw-$h" '
			. as $e | $tc[0][0].prio | to_entries[] |
			.key as $p | .value |
			select($e[0][$p] != .pfc_tx or $e[1][$p] != .pfc_rx) |
			"\($d) prio \($p): events tx \($e[0][$p]) rx \($e[1][$p]), tc pfc_tx \(.pfc_tx) pfc_rx \(.pfc_rx)"'
	done
}

pause_frames_match() {
	local diff tx rx
	run || check_err 1 "the run failed"
	diff=$(pause_diff)
	tx=$(cat "$OUT"/sw-*.json | gojq -s '[.[][0].prio[].pfc_tx] | add')
	rx=$(cat "$OUT"/sw-*.json | gojq -s '[.[][0].prio[].pfc_rx] | add')
	ktap_note "PFC frames the switch ports sent: $tx, honoured: $rx (tc -s); events lost: $(last top .lost)"
	[ -z "$diff" ] && [ "$tx" -gt 0 ] && [ "$rx" -gt 0 ] &&
		[ "$(last top .lost)" = 0 ] && [ "$(last top .source)" = bpf ]
	check_err $? "events and counters differ: ${diff:-no pause at all, or events lost}"
	log_test "PFC frames counted from the tracepoints equal the qdiscs' counters"
}

queue_and_pause_seen() {
	local q p
	run || check_err 1 "the run failed"
	q=$(gojq -s '[.[].ports[] | select(.dev == "sw-r") | .prio[3].backlog] | max' \
		"$OUT/top.jsonl")
	p=$(gojq -s '[.[].ports[] | select(.dev == "sw-r") | .prio[3].paused_pct] | max' \
		"$OUT/top.jsonl")
	ktap_note "sw-r priority 3: at most $q bytes queued, paused $p % of a refresh at most"
	[ "$q" -gt 0 ] && awk -v p="$p" 'BEGIN { exit !(p > 0) }'
	check_err $? "no queue ($q) or no pause ($p %) seen at the congested port"
	log_test "queue bytes and paused time are shown while congested"
}

drops_by_reason_match() {
	local h bad='' all=0 e c r
	run || check_err 1 "the run failed"
	for h in s1 s2 s3 r; do
		for r in lossless lossy limit gso pfcwd; do
			e=$(last top ".ports[] | select(.dev == \"sw-$h\") | .events.drop_reason.$r")
			c=$(gojq ".[0].drop_$r" "$OUT/sw-$h.json")
			[ "$e" = "$c" ] || bad="$bad sw-$h:$r:$e/$c"
			all=$((all + c))
		done
		e=$(last top ".ports[] | select(.dev == \"sw-$h\") | .events.drop | @tsv")
		c=$(gojq -r '[.[0].prio[].drops] | @tsv' "$OUT/sw-$h.json")
		[ "$e" = "$c" ] || bad="$bad sw-$h:per-prio:[$e]/[$c]"
	done
	ktap_note "sw-r drops: $(last top '.ports[] | select(.dev == "sw-r") | .events.drop_reason | to_entries | map(select(.value > 0) | "\(.key) \(.value)") | join(", ")') (events); $all in all (tc)"
	[ -z "$bad" ] && [ "$(gojq '.[0].drop_lossy' "$OUT/sw-r.json")" -gt 0 ] &&
		[ "$(gojq '.[0].drop_pfcwd' "$OUT/sw-r.json")" -gt 0 ]
	check_err $? "events/counters differ:${bad:- none, but no lossy or no watchdog drop}"
	log_test "drops by reason from the tracepoints equal the qdiscs' drop counters"
}

storm_shown() {
	local seen ev tc now
	run || check_err 1 "the run failed"
	seen=$(gojq -s '[.[].ports[] | select(.dev == "sw-r") |
		select(.pfcwd_storm == 8 and .prio[3].storm)] | length' "$OUT/top.jsonl")
	ev=$(last top '.ports[] | select(.dev == "sw-r") |
		"\(.events.pfcwd_storm[3]) \(.events.pfcwd_restore[3])"')
	tc=$(gojq '.[0].prio[3].pfcwd_storms' "$OUT/sw-r.json")
	now=$(last top '.ports[] | select(.dev == "sw-r") | .pfcwd_storm')
	ktap_note "sw-r in storm in $seen refreshes; storm and restore events: $ev; storms (tc): $tc; at the end: $now"
	# One storm, or more if the guest stalled r's frames past the restore
	# (once in 9 runs, on a loaded host): as many as the port counted,
	# each restored.
	[ "$seen" -gt 0 ] && [ "$tc" -gt 0 ] && [ "$ev" = "$tc $tc" ] &&
		[ "$now" = 0 ]
	check_err $? "storm seen $seen times, events '$ev', tc $tc, at the end $now"
	log_test "the watchdog's storm and restore are shown"
}

# The hosts' NICs, fcq ports in other namespaces, honour the switch's
# pauses: fcq-top leaves their events out, even as foreign.
other_netns_apart() {
	local f h
	run || check_err 1 "the run failed"
	f=$(last top .foreign)
	h=$(cat "$OUT"/*-eth.json | gojq -s '[.[][0].prio[].pfc_rx] | add')
	ktap_note "PFC frames the hosts' NICs honoured (tc): $h; events counted as foreign: $f; ports shown: $(last top '[.ports[].dev] | join(" ")')"
	[ "$h" -gt 0 ] && [ "$f" = 0 ] &&
		[ "$(last top '[.ports[].dev] | sort | join(" ")')" = "sw-r sw-s1 sw-s2 sw-s3" ]
	check_err $? "hosts' pauses $h, foreign events $f, or the wrong ports"
	log_test "events of other namespaces' devices are not counted"
}

no_bpf_same_counters() {
	local h bad='' a b q
	run || check_err 1 "the run failed"
	for h in s1 s2 s3 r; do
		a=$(last nobpf ".ports[] | select(.dev == \"sw-$h\") |
			[.prio[] | .pfc_tx, .pfc_rx, .drops, .pfcwd_storms],
			(.drops | [.lossless, .lossy, .limit, .gso, .pfcwd,
				   .rx_malformed]) | @tsv")
		b=$(gojq -r '.[0] | [.prio[] | .pfc_tx, .pfc_rx, .drops, .pfcwd_storms],
			[.drop_lossless, .drop_lossy, .drop_limit, .drop_gso,
			 .drop_pfcwd, .rx_malformed] | @tsv' "$OUT/sw-$h.json")
		[ "$a" = "$b" ] || bad="$bad sw-$h"
	done
	q=$(gojq -s '[.[].ports[] | select(.dev == "sw-r") | .prio[3].backlog] | max' \
		"$OUT/nobpf.jsonl")
	ktap_note "--no-bpf: sw-r queued at most $q bytes; in storm in $(gojq -s '[.[].ports[] | select(.dev == "sw-r" and .pfcwd_storm == 8)] | length' "$OUT/nobpf.jsonl") refreshes"
	[ -z "$bad" ] && [ "$q" -gt 0 ] && [ "$(last nobpf .source)" = stats ] &&
		[ ! -s "$OUT/nobpf.err" ]
	check_err $? "counters differ from tc's at:${bad:- none; no queue seen, or a message}"
	log_test "--no-bpf reports the same counters"
}

# Under ip netns exec (a sysfs without tracefs) BPF loads all the same.
# Without CAP_SYS_ADMIN, CAP_BPF and CAP_PERFMON (root's taken away at
# exec by the bounding set; in the guest's own namespace, which fcq-top
# could not leave) it cannot: one line on stderr says why, and the
# statistics are shown.
fallback_says_why() {
	local err
	run || check_err 1 "the run failed"
	nsx sw fcq-top -j -n 1 -d 0.2 >"$OUT/exec.jsonl" 2>"$OUT/exec.err"
	check_err $? "fcq-top failed under ip netns exec"
	[ "$(gojq -r '.source, (.ports | length)' "$OUT/exec.jsonl" | tr '\n' ' ')" = "bpf 4 " ] &&
		[ ! -s "$OUT/exec.err" ]
	check_err $? "under ip netns exec: $(cat "$OUT/exec.err") $(head -c 100 "$OUT/exec.jsonl")"
	setpriv --bounding-set=-sys_admin,-bpf,-perfmon --inh-caps=-all \
		fcq-top -j -n 1 -d 0.2 >"$OUT/user.jsonl" 2>"$OUT/user.err"
	check_err $? "fcq-top failed without CAP_BPF"
	err=$(cat "$OUT/user.err")
	ktap_note "without CAP_SYS_ADMIN, CAP_BPF, CAP_PERFMON: $err"
	[ "$(wc -l <"$OUT/user.err")" = 1 ] &&
		grep -q '^fcq-top: no tracepoint events: .*Operation not permitted' "$OUT/user.err" &&
		[ "$(gojq -r .source "$OUT/user.jsonl")" = stats ]
	check_err $? "stderr '$err', stdout $(head -c 100 "$OUT/user.jsonl")"
	log_test "under ip netns exec BPF loads; without privilege it says why once"
}

cpu_cost() {
	local b0 n0 b1 n1 ns
	run || check_err 1 "the run failed"
	read -r b0 n0 b1 n1 ns <"$OUT/cpu"
	ktap_note "CPU over the run's $((ns / 1000000)) ms (utime+stime, /proc): with BPF $(((b1 - b0) / 1000000)) ms ($(awk -v c=$((b1 - b0)) -v t="$ns" 'BEGIN { printf "%.1f", 100 * c / t }') %), --no-bpf $(((n1 - n0) / 1000000)) ms ($(awk -v c=$((n1 - n0)) -v t="$ns" 'BEGIN { printf "%.1f", 100 * c / t }') %); $(last top .events) events"
	# Each refresh costs a netlink dump and a JSON line, each event a
	# ring-buffer record: at most CPU_PCT % of the guest's CPU.
	[ $(((b1 - b0) * 100)) -le $((ns * CPU_PCT)) ] &&
		[ $(((n1 - n0) * 100)) -le $((ns * CPU_PCT)) ]
	check_err $? "fcq-top took more than $CPU_PCT % of a CPU"
	log_test "fcq-top's CPU cost is small"
}

# Namespaces h-twa and h-twb (cleanup deletes h-*) each hold a veth pair
# p0-q0 with pfc on p0: two fcq ports of one name. q0 sends PFC frames to
# p0 in h-twb alone: fcq-top -N h-twb counts them as p0's, equal to tc's
# pfc_rx; fcq-top -N h-twa counts none, for its p0 or as foreign.
same_name_other_netns() {
	local ns a b tc pids=()
	for ns in h-twa h-twb; do
		ip netns add "$ns"
		nsx "$ns" ip link add p0 type veth peer name q0
		nsx "$ns" ip link set p0 up
		nsx "$ns" ip link set q0 up
		# shellcheck disable=SC2086 # the options are words
		nsx "$ns" tc qdisc add dev p0 root pfc $LINK
		check_err $? "pfc on p0 in $ns"
		fcq-top -j -d 0.3 -N "$ns" p0 >"$OUT/$ns.jsonl" \
			2>"$OUT/$ns.err" &
		pids+=($!)
	done
	NET_PIDS+=("${pids[@]}")
	first_line "$OUT/h-twa.jsonl" && first_line "$OUT/h-twb.jsonl"
	check_err $? "fcq-top wrote nothing: $(cat "$OUT"/h-tw?.err)"
	nsx h-twb fcq-frame q0 pfc 3:100 --wait 20ms pfc 3:100 \
		--wait 20ms pfc 3:100 >/dev/null
	check_err $? "fcq-frame in h-twb"
	sleep 1	# three refreshes after the last frame
	kill "${pids[@]}"
	wait "${pids[@]}" 2>/dev/null
	a=$(tail -n 1 "$OUT/h-twa.jsonl" | gojq -r '[.source, .foreign, (.ports[] | select(.dev == "p0") | .events.pause_rx[3])] | @tsv')
	b=$(tail -n 1 "$OUT/h-twb.jsonl" | gojq -r '[.source, .foreign, (.ports[] | select(.dev == "p0") | .events.pause_rx[3])] | @tsv')
	tc=$(nsx h-twb tc -s -j qdisc show dev p0 | gojq '.[0].prio[3].pfc_rx')
	ktap_note "PFC frames honoured by p0 (source, foreign, pause_rx[3]): -N h-twa: $a; -N h-twb: $b; tc in h-twb: $tc"
	[ "$a" = "$(printf 'bpf\t0\t0')" ] && [ "$tc" = 3 ] &&
		[ "$b" = "$(printf 'bpf\t0\t%s' "$tc")" ]
	check_err $? "h-twa: '$a' (want bpf 0 0); h-twb: '$b' (want bpf 0 $tc)"
	# q0 is a device there, but no fcq port
	fcq-top -j -n 1 -N h-twa q0 >/dev/null 2>"$OUT/notport.err"
	[ $? = 1 ] && grep -q "^fcq-top: 'q0': no fcq port" "$OUT/notport.err"
	check_err $? "fcq-top q0 (no fcq port): $(cat "$OUT/notport.err")"
	log_test "an fcq port of the same name in another namespace is not counted"
}

tests_plan
tests_run
ktap_finish
