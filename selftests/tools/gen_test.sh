#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gen_test.sh: fcq-gen's HPCC-simulator modes, on the host (no guest).
# "workload" against HPCC's traffic_gen.py semantics: determinism by seed,
# offered load, sizes that follow the CDF, incast groups, CDF checking;
# "run" between two namespaces gt<pid>-a (host 0, 11.0.0.1) and gt<pid>-b
# (host 1, 11.0.1.1) joined by a veth: HPCC fct.txt lines with the documented
# standalone FCT, and exit status 1 when the flows cannot complete;
# "paced" across the same veth: the rate, the header, and the sink's counts
# when the kernel reorders, drops or duplicates datagrams (HTB classes, a
# short FIFO, tc mirred: this host has no netem).
# Expected values are computed here, from the files, not by fcq-gen.
set -u

# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	same_seed
	other_seed
	host_load
	flow_format
	dst_other_host
	median_size
	load_many_flows
	shipped_cdfs
	incast_groups
	incast_many_flows
	cdf_decreasing
	cdf_not_from_zero
	burst_split
	burst_uniform
	fct_lines
	standalone_tcp
	scaled
	order_refused
	rendezvous
	start_lags
	udp_fct
	udp_reorders
	no_flows
	no_sink
	paced_clean
	paced_rate
	paced_catch_up
	paced_wire
	paced_reorder
	paced_loss
	paced_no_marker
	paced_dups
	paced_stop
	paced_stop_markers
	paced_bad_marker
	paced_cut
"
USAGE_MORE="TAP on stdout. Needs root (network namespaces). FCQ_GEN=path tests another
binary; without it, make builds build/tools/fcq-gen first."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd -P)	# as make spells $(CURDIR)
. "$HERE/../lib/ktap.sh"

GEN=${FCQ_GEN:-$TOP/build/tools/fcq-gen}
WL=$TOP/workloads
WORK=$(mktemp -d)
SINK=
# Ours alone: a make check beside this one runs this test at the same time.
NSA=gt$$-a NSB=gt$$-b

cleanup() {
	[ -z "$SINK" ] || kill "$SINK" 2>/dev/null
	[ -z "${PSINK:-}" ] || kill "$PSINK" 2>/dev/null
	ip netns del "$NSA" 2>/dev/null
	ip netns del "$NSB" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

# SIGUSR1: the sink reports every stream it follows as it stands, "cut",
# here one of 11 s a second in: what it had then, before the marker.
paced_cut() {
	local snd b
	needs_netns "paced, cut" || return 0
	psink_up
	link_clean
	# shellcheck disable=SC2086 # RT: a command and its arguments, or none
	ip netns exec "$NSA" $RT "$GEN" paced -p "$PPORT" 11.0.1.1 1Mbps 0 \
		$((1000 * DGRAM)) >"$WORK/cut.snd" &
	snd=$!
	sleep 1.2
	kill -USR1 "$PSINK"
	for _ in $(seq 30); do
		grep -q '"end":"cut"' "$WORK/paced.json" && break
		sleep 0.1
	done
	kill "$snd" 2>/dev/null
	wait "$snd" 2>/dev/null
	grep '"end":"cut"' "$WORK/paced.json" | tail -n 1 >"$WORK/cut.rcv"
	b=$(pj cut.rcv .bytes 2>/dev/null)
	ktap_note "cut a second in: $(pj cut.rcv '"end \(.end), bytes \(.bytes) of \(.size)"' 2>/dev/null)"
	[ -n "$b" ] && [ "$b" -gt 0 ] && [ "$b" -lt $((1000 * DGRAM)) ] &&
		[ "$(pj cut.rcv '(.bins | add) == .bytes')" = true ]
	check_err $? "sink: $(cut -c 1-300 "$WORK/cut.rcv")"
	log_test "paced: SIGUSR1, the sink reports a stream in progress as it stands"
}

tests_plan
# Built by the Makefile's own rule: it must need nothing more (no -lm).
[ -n "${FCQ_GEN:-}" ] || make -s -C "$TOP" "$GEN" >&2 || exit 1

# A fabric of 4 hosts at RATE bytes/s, as the topology tool writes it.
net4() {
	local i
	echo "# 4 hosts, one switch"
	for i in 0 1 2 3; do
		echo "host $i gt-h$i eth0 11.0.$i.1 $1 1500"
	done
	echo "switch 4 gt-sw"
	for i in 0 1 2 3; do
		echo "port gt-sw sw$i $1 1000 $i"
	done
	for i in 0 1 2 3; do
		for j in 0 1 2 3; do
			[ $i = $j ] || echo "rtt $i $j 8000 $1"
		done
	done
}
net4 12500000 >"$WORK/net100m.txt"	# 100 Mbit/s
net4 12500000000 >"$WORK/net100g.txt"	# 100 Gbit/s

wl() { "$GEN" workload -w "$WL/websearch.cdf" -l 0.5 "$@"; }

# Offered load of each host: sum(size) * 8 / (SECONDS * RATE_BITS).
loads() {
	awk -v t="$1" -v r="$2" 'NR > 1 { b[$1] += $5 }
		END { for (h = 0; h < 4; h++) printf "%.4f ", b[h] * 8 / (t * r) }' "$3"
}

# True if every load is within 15 % of 0.5.
loads_ok() {
	echo "$*" | awk '{ for (i = 1; i <= NF; i++)
		if ($i < 0.425 || $i > 0.575) exit 1 }'
}

# Shared steps, each done once whichever case needs it first (so that
# TESTS= may name any case).

# ---- (a) 4 hosts at 100 Mbit/s, WebSearch at 0.5 for 60 s -----------------
# At these numbers a host offers ~219 flows whose sizes have a coefficient of
# variation of 2.3, so its 60 s load has a standard deviation of ~17 %: the
# 15 % bound holds for some seeds only. Seed 2 is one of them; the same
# bound over ~5000 flows a host is checked in (b). a1.txt and a2.txt are
# drawn with seed 2, a3.txt with seed 3.
seeds_drawn() {
	[ -z "${SEEDS_DRAWN:-}" ] || return 0
	wl -n "$WORK/net100m.txt" -d 60 -s 2 >"$WORK/a1.txt"
	wl -n "$WORK/net100m.txt" -d 60 -s 2 >"$WORK/a2.txt"
	wl -n "$WORK/net100m.txt" -d 60 -s 3 >"$WORK/a3.txt"
	SEEDS_DRAWN=1
}

same_seed() {
	local n
	seeds_drawn
	n=$(head -n 1 "$WORK/a1.txt")
	ktap_note "seed 2: $n flows"
	[ "$n" -gt 100 ] && cmp -s "$WORK/a1.txt" "$WORK/a2.txt"
	check_err $? "$n flows, or two different files"
	log_test "workload: the same seed gives the same flow.txt"
}

other_seed() {
	seeds_drawn
	cmp -s "$WORK/a1.txt" "$WORK/a3.txt"
	check_fail $? "seeds 2 and 3 gave the same file"
	log_test "workload: another seed gives another flow.txt"
}

host_load() {
	local l
	seeds_drawn
	l=$(loads 60 100000000 "$WORK/a1.txt")
	ktap_note "offered load per host (seed 2): $l"
	loads_ok "$l"
	check_err $? "$l"
	log_test "workload: each host offers 0.5 of its link, within 15 %"
}

# Line 1 the count; then src dst 3 100 size start, by start, in [2, 62):
# the simulator's flows start at 2 s.
flow_format() {
	local bad
	seeds_drawn
	bad=$(awk 'NR == 1 { n = $1; next }
		NF != 6 || $1 !~ /^[0-3]$/ || $2 !~ /^[0-3]$/ || $3 != 3 ||
		$4 != 100 || $5 < 1 || $6 < 2 || $6 >= 62 || $6 < last { print; exit }
		{ last = $6; c++ }
		END { if (c != n) print "count " n ", lines " c }' "$WORK/a1.txt")
	[ -z "$bad" ]
	check_err $? "$bad"
	log_test "workload: HPCC flow.txt, sorted, from 2 s, pg 3, dport 100"
}

dst_other_host() {
	local same dsts
	seeds_drawn
	same=$(awk 'NR > 1 && $1 == $2' "$WORK/a1.txt" "$WORK/a3.txt" | wc -l)
	dsts=$(awk 'NR > 1 { print $1 "-" $2 }' "$WORK/a1.txt" | sort -u | wc -l)
	ktap_note "src = dst: $same flows; distinct (src, dst) pairs: $dsts of 12"
	[ "$same" = 0 ] && [ "$dsts" = 12 ]
	check_err $? "$same flows to their source, $dsts pairs"
	log_test "workload: every dst is another host, all of them used"
}

# ---- (b) sizes follow the CDF: 20000 draws ---------------------------------
# b.txt: 1.5 s at 100 Gbit/s, seed 5.
many_drawn() {
	[ -z "${MANY_DRAWN:-}" ] || return 0
	wl -n "$WORK/net100g.txt" -d 1.5 -s 5 >"$WORK/b.txt"
	MANY_DRAWN=1
}

median_size() {
	local want n got
	many_drawn
	# The CDF's median by linear interpolation, from the file itself.
	want=$(awk '!/^#/ && NF == 2 {
			if ($2 >= 50 && n) { print px + ($1 - px) * (50 - py) / ($2 - py); exit }
			px = $1; py = $2; n++ }' "$WL/websearch.cdf")
	n=$(head -n 1 "$WORK/b.txt")
	got=$(sed -n '2,20001p' "$WORK/b.txt" | awk '{ print $5 }' | sort -n |
		awk '{ v[NR] = $1 } END { print (v[10000] + v[10001]) / 2 }')
	ktap_note "$n flows; median of the first 20000 sizes $got, of the CDF $want"
	[ "$n" -ge 20000 ] && awk -v g="$got" -v w="$want" \
		'BEGIN { exit !(g > 0.9 * w && g < 1.1 * w) }'
	check_err $? "$n flows, median $got, want $want"
	log_test "workload: median size within 10 % of the CDF's"
}

load_many_flows() {
	local l
	many_drawn
	l=$(loads 1.5 100000000000 "$WORK/b.txt")
	ktap_note "offered load per host over ~5000 flows each: $l"
	loads_ok "$l"
	check_err $? "$l"
	log_test "workload: 0.5 load within 15 % at 5000 flows a host"
}

# Every shipped CDF is accepted, its mean in workloads/README.md is HPCC's
# getAvg of it, and HPCC's traffic_gen.py would read it: every line
# "x y" split on one space (its parser), 0 % first, 100 % last, both
# columns strictly increasing (its CustomRand.testCdf).
shipped_cdfs() {
	local f m g hp
	for f in "$WL"/*.cdf; do
		m=$(awk -F'|' -v f="\`$(basename "$f")\`" \
			'{ gsub(/ /, "", $2) } $2 == f { gsub(/ /, "", $5); print $5 }' \
			"$WL/README.md")
		g=$(awk '!/^#/ && NF == 2 { if (n) s += ($1 + px) / 2 * ($2 - py)
			px = $1; py = $2; n++ } END { printf "%.1f", s / 100 }' "$f")
		hp=$(awk '!/^[0-9.e+-]+ [0-9.e+-]+$/ { print "line " NR; exit }
			NR == 1 && $2 != 0 { print "starts at " $2; exit }
			NR > 1 && ($1 <= px || $2 <= py) { print "line " NR " not above"; exit }
			{ px = $1 + 0; py = $2 + 0 }
			END { if (py != 100) print "ends at " py }' "$f")
		if ! "$GEN" workload -n "$WORK/net100m.txt" -w "$f" -l 0.1 -d 1 \
			>/dev/null || [ "$(awk -v m="$m" 'BEGIN { printf "%.1f", m }')" != "$g" ] ||
			[ -n "$hp" ]; then
			ktap_note "$(basename "$f"): README's mean $m, getAvg $g; traffic_gen: ${hp:-ok}"
			check_err 1 "$(basename "$f")"
		fi
	done
	[ -n "$(ls "$WL"/*.cdf)" ]
	check_err $? "no $WL/*.cdf"
	log_test "workloads/*.cdf: accepted, README's mean, traffic_gen.py's format"
}

# ---- (c) incast ----------------------------------------------------------
# 3 senders of 50000 bytes every 2 s from 2 + 1 s on, over 20 s: 10 groups.
incast_groups() {
	local bad
	"$GEN" workload -n "$WORK/net100m.txt" -w "$WL/websearch.cdf" -l 0.1 -d 20 \
		-i 3:50000:2 -s 9 >"$WORK/c.txt"
	bad=$(awk 'function err(m) { e = e "; " m }
		NR > 1 && $4 == 200 {
			k = $6 + 0; n[k]++; d[k] = d[k] " " $2; s[k] = s[k] " " $1
			if ($5 != 50000 || $1 == $2 || $3 != 3) err("flow " $0)
			if (seen[k, $1]++) err("sender twice at " k)
		}
		END {
			for (k in n) {
				g++
				split(d[k], dd)
				if (n[k] != 3 || dd[1] != dd[2] || dd[2] != dd[3])
					err("group at " k ":" s[k] " ->" d[k])
				if ((k - 3) % 2 != 0 || k + 0 >= 22) err("start " k)
			}
			if (g != 10) err(g " groups")
			print substr(e, 3)
		}' "$WORK/c.txt")
	ktap_note "incast flows: $(awk 'NR > 1 && $4 == 200' "$WORK/c.txt" | wc -l)"
	[ -z "$bad" ]
	check_err $? "$bad"
	log_test "workload -i: groups of FANIN flows to one host, dport 200"
}

# -i 3:50000:2 with 4 flows per sender of U[50000, 60000]: at each time
# of c.txt's groups, 3 distinct senders with 4 flows each to one other
# host, sizes in range and not all alike. With 4 flows and no MAX
# (nothing more drawn), exactly c.txt's groups, four times over.
incast_many_flows() {
	local bad
	"$GEN" workload -n "$WORK/net100m.txt" -w "$WL/websearch.cdf" -l 0.1 -d 20 \
		-i 3:50000:2:4:60000 -s 9 >"$WORK/c4.txt"
	"$GEN" workload -n "$WORK/net100m.txt" -w "$WL/websearch.cdf" -l 0.1 -d 20 \
		-i 3:50000:2:4 -s 9 >"$WORK/c4same.txt"
	bad=$(awk 'function err(m) { e = e "; " m }
		FNR == 1 { f++ }
		FNR > 1 && $4 == 200 {
			g = $6 " " $1 " " $2
			if (f == 1) { want[g]++; at[$6 + 0]++; next }
			if (f == 2) {
				k = $6 + 0; n[k]++; size[$5]++; per[k, $1]++
				if (!(k in dst)) dst[k] = $2
				if ($2 != dst[k] || $1 == $2) err("flow " $0)
				if ($5 < 50000 || $5 > 60000) err("size " $5)
			} else {
				same[g]++
				if ($5 != 50000) err("size " $5 " without MAX")
			}
		}
		END {
			for (k in at)
				if (n[k] != 12) err(n[k] + 0 " flows at " k)
			for (k in n) if (!(k in at)) err("group at " k)
			for (x in per) if (per[x] != 4) err("sender with " per[x])
			for (g in want)
				if (same[g] != 4) err(same[g] + 0 " flows in " g)
			for (g in same) if (!(g in want)) err("group " g)
			if (length(size) < 100) err(length(size) " distinct sizes")
			print substr(e, 3)
		}' "$WORK/c.txt" "$WORK/c4.txt" "$WORK/c4same.txt")
	[ -z "$bad" ]
	check_err $? "$bad"
	"$GEN" workload -n "$WORK/net100m.txt" -w "$WL/websearch.cdf" -l 0.1 \
		-d 1 -i 3:50000:2:4:40000 >/dev/null 2>&1
	[ $? = 1 ]
	check_err $? "MAX below BYTES accepted"
	log_test "workload -i FANIN:BYTES:PERIOD:FLOWS:MAX: FLOWS flows per sender, sizes in [BYTES, MAX]"
}

# ---- (d) a malformed CDF -------------------------------------------------
cdf_decreasing() {
	local err rc
	printf '# comment\n0 0\n10000 30\n\n20000 20\n30000 100\n' >"$WORK/bad.cdf"
	err=$("$GEN" workload -n "$WORK/net100m.txt" -w "$WORK/bad.cdf" -l 0.5 \
		-d 1 2>&1 >/dev/null)
	rc=$?
	ktap_note "decreasing percent on line 5: exit $rc, \"$err\""
	[ "$rc" = 1 ] && [[ "$err" == *"$WORK/bad.cdf:5:"* ]]
	check_err $? "want exit 1 and $WORK/bad.cdf:5:"
	log_test "workload: a CDF going down is rejected, naming file and line"
}

cdf_not_from_zero() {
	local err rc
	printf '100 1\n200 100\n' >"$WORK/bad2.cdf"
	err=$("$GEN" workload -n "$WORK/net100m.txt" -w "$WORK/bad2.cdf" -l 0.5 \
		-d 1 2>&1 >/dev/null)
	rc=$?
	ktap_note "starting at 1 %: exit $rc, \"$err\""
	[ "$rc" = 1 ] && [[ "$err" == *"$WORK/bad2.cdf:1:"* ]]
	check_err $? "want exit 1 and $WORK/bad2.cdf:1:"
	log_test "workload: a CDF not starting at 0 % is rejected"
}

# ---- (e) run, between two namespaces ---------------------------------------
MTU=1500 RTT=123457 BW=12345679	# odd numbers: the rounding shows

# The documented standalone FCT: ideal SIZE HDR K
# ---- burst: the CBD ring's trials ------------------------------------------
burst() { "$GEN" burst -n "$WORK/net100m.txt" "$@"; }

burst_split() {
	local bad
	burst -m 640 -k 2 -s 5 >"$WORK/b1.txt" &&
		burst -m 640 -k 2 -s 5 >"$WORK/b2.txt" &&
		burst -m 640 -k 2 -s 6 >"$WORK/b3.txt"
	check_err $? "fcq-gen burst failed"
	# declared count = lines; datagrams of 1456 bytes (1500 - 44) summing
	# to 640; host i to (i + 2) mod 4, dport 200, all at 2 s
	bad=$(awk 'NR == 1 { n = $1; next }
		{ c++; d += $5 / 1456; if ($5 % 1456 || $2 != ($1 + 2) % 4 ||
		  $4 != 200 || $6 != "2.000000000" || $3 != 3) print "line " NR ": " $0 }
		END { if (c != n || d != 640) print c " lines for " n ", " d " datagrams" }' \
		"$WORK/b1.txt")
	ktap_note "seed 5: $(tail -n +2 "$WORK/b1.txt" | awk '{ printf "%d->%d %d  ", $1, $2, $5 / 1456 }')"
	[ -z "$bad" ] && cmp -s "$WORK/b1.txt" "$WORK/b2.txt" &&
		! cmp -s "$WORK/b1.txt" "$WORK/b3.txt"
	check_err $? "${bad:-same seed differs, or seeds 5 and 6 alike}"
	burst -m 10 -k 4 >/dev/null 2>&1
	check_fail $? "a shift of 4 among 4 hosts was accepted"
	log_test "burst: PACKETS split among the hosts, each to host + SHIFT, by seed"
}

# Every split equally likely: host 0's share of 10 datagrams among 4 hosts
# is 0 with probability C(12,2) / C(13,3) = 66/286 (a multinomial split
# would give (3/4)^10 = 0.056) and has mean 10/4. Over 600 seeds: 138.5
# zeros, sd 10.3; mean sd 0.094. Bounds at 4 sd.
burst_uniform() {
	local s got
	for s in $(seq 600); do
		burst -m 10 -k 1 -s "$s" | awk 'NR > 1 && $1 == 0 { x = $5 / 1456 }
			END { print x + 0 }'
	done >"$WORK/b0.txt"
	got=$(awk '{ z += $1 == 0; m += $1 } END { printf "%d %.3f", z, m / NR }' "$WORK/b0.txt")
	ktap_note "host 0's share over 600 seeds: zero $((${got% *})) times (expect 138.5), mean ${got#* } (expect 2.5)"
	awk -v z="${got% *}" -v m="${got#* }" \
		'BEGIN { exit !(z >= 97 && z <= 180 && m >= 2.12 && m <= 2.88) }'
	check_err $? "$got"
	log_test "burst: every split equally likely (host 0's share: zeros and mean)"
}

ideal() {
	local pl=$((MTU - $2))
	local pk=$((($1 + pl - 1) / pl))
	echo $(($3 * RTT + ($1 + pk * ($2 + 14 + 24)) * 1000000000 / BW))
}

# fct.txt lines of OUT against FLOWS (dport size start_s ...) over HDR, K,
# run with -k SCALE (default 1): start_ns on the file's clock (absolute),
# standalone_fct_ns divided by SCALE.
check_fct() {
	local out=$1 hdr=$2 k=$3 scale=${4:-1} dport size start ns line bad=
	[ "$(wc -l <"$out")" = 3 ] || bad="$(wc -l <"$out") lines"
	while read -r dport size start; do
		ns=$(awk -v s="$start" 'BEGIN { printf "%.0f", s * 1e9 }')
		line=$(awk -v ns="$ns" '$6 == ns' "$out")
		# shellcheck disable=SC2086 # its fields, as the arguments
		set -- $line
		if [ $# != 8 ] || [ "$1" != 0b000001 ] || [ "$2" != 0b000101 ] ||
		   [ "$3" -lt 1 ] || [ "$4" != "$dport" ] || [ "$5" != "$size" ] ||
		   [ "$7" -le 0 ]; then
			bad="$bad; flow at $ns: '$line'"
		elif [ "$8" != "$(awk -v i="$(ideal "$size" "$hdr" "$k")" \
				-v k="$scale" 'BEGIN { printf "%.0f", i / k }')" ]; then
			bad="$bad; standalone $8, formula $(ideal "$size" "$hdr" "$k") / $scale"
		fi
	done <"$WORK/flows3"
	echo "$bad"
}

# The two namespaces, joined, and net.txt describing them; true if they
# could be made (as root).
netns_up() {
	local ns pid
	[ -z "${NETNS_UP:-}" ] || return "$NETNS_UP"
	NETNS_UP=1
	# Left over by runs that were killed: gt<pid>-* whose pid is gone.
	for ns in $(ip netns list 2>/dev/null | awk '/^gt[0-9]+-[ab]( |$)/ { print $1 }'); do
		pid=${ns#gt}
		kill -0 "${pid%-*}" 2>/dev/null || ip netns del "$ns" 2>/dev/null
	done
	if [ "$(id -u)" != 0 ] || ! ip netns add "$NSA" 2>/dev/null; then
		return 1
	fi
	ip netns add "$NSB"
	ip link add gt-va netns "$NSA" type veth peer name gt-vb netns "$NSB"
	ip -n "$NSA" addr add 11.0.0.1/24 dev gt-va
	ip -n "$NSB" addr add 11.0.1.1/24 dev gt-vb
	for ns in "$NSA" "$NSB"; do
		ip -n "$ns" link set lo up
	done
	ip -n "$NSA" link set gt-va up
	ip -n "$NSB" link set gt-vb up
	ip -n "$NSA" route add 11.0.1.0/24 dev gt-va
	ip -n "$NSB" route add 11.0.0.0/24 dev gt-vb
	cat >"$WORK/net.txt" <<-EOF
	host 0 $NSA gt-va 11.0.0.1 1250000000 $MTU
	host 1 $NSB gt-vb 11.0.1.1 1250000000 $MTU
	rtt 0 1 $RTT $BW
	rtt 1 0 $RTT $BW
	EOF
	NETNS_UP=0
}

# True if the namespaces are up; else the running case is skipped, as
# "run: WHAT".
needs_netns() {
	netns_up && return 0
	ktap_skip "run: $1" "needs root for network namespaces"
	return 1
}

# As the simulator's mix/flow.txt: from 2 s, notes after the declared
# flows (never read, even where they look like flows).
tcp_flows() {
	printf '100 1000 2\n200 100000 2.01\n100 1000000 2.02\n' >"$WORK/flows3"
	{
		echo 3
		awk '{ print "0 1 3", $0 }' "$WORK/flows3"
		printf '0 1 3 100 5000 2.03\n\nFirst line: # of flows\n'
	} >"$WORK/flow.txt"
}

# The sink on host 1, for dports 100 and 200.
sink_up() {
	[ -z "$SINK" ] || return 0
	ip netns exec "$NSB" "$GEN" server -p 100,200 &
	SINK=$!
	ip netns exec "$NSA" ping -q -c 1 -W 2 11.0.1.1 >/dev/null
	sleep 0.3
}

epoch() { echo $(($("$GEN" now) + 300000000)); }
run() { ip netns exec "$NSA" "$GEN" run -n "$WORK/net.txt" -f "$WORK/flow.txt" -e "$(epoch)" "$@"; }

# The TCP flows run: TCP_RC its exit status, TCP_BAD what check_fct found,
# TCP_ERR its stderr.
tcp_run() {
	[ -z "${TCP_RC:-}" ] || return 0
	sink_up
	tcp_flows
	run -s 0 -T 10 >"$WORK/fct.txt" 2>"$WORK/fct.err"
	TCP_RC=$?
	sed 's/^/tcp: /' "$WORK/fct.txt" | while read -r l; do ktap_note "$l"; done
	TCP_BAD=$(check_fct "$WORK/fct.txt" 52 2)
	TCP_ERR=$(cat "$WORK/fct.err")
}

fct_lines() {
	needs_netns "fct lines" || return 0
	tcp_run
	[ "$TCP_RC" = 0 ] && ! echo "$TCP_BAD" | grep -q "flow at\|lines"
	check_err $? "exit $TCP_RC $TCP_BAD $TCP_ERR"
	log_test "run: 3 fct.txt lines, sip 0b000001 dip 0b000101 dport size"
}

standalone_tcp() {
	needs_netns "standalone TCP" || return 0
	tcp_run
	[ "$TCP_RC" = 0 ] && [ -z "$TCP_BAD" ]
	check_err $? "$TCP_BAD"
	log_test "run: standalone = 2 * base_rtt + wire bytes at the bottleneck"
}

scaled() {
	local rc bad
	needs_netns "scale" || return 0
	sink_up
	tcp_flows
	run -s 0 -T 10 -k 2 >"$WORK/fct.txt" 2>"$WORK/fct.err"
	rc=$?
	bad=$(check_fct "$WORK/fct.txt" 52 2 2)
	[ "$rc" = 0 ] && [ -z "$bad" ]
	check_err $? "exit $rc $bad $(cat "$WORK/fct.err")"
	log_test "run -k 2: start_ns on the file's clock, standalone / 2"
}

order_refused() {
	local err rc
	needs_netns "order" || return 0
	tcp_flows
	awk 'NR == 3 { $6 = 1.5 } 1' "$WORK/flow.txt" >"$WORK/unordered.txt"
	err=$(ip netns exec "$NSA" "$GEN" run -n "$WORK/net.txt" -f "$WORK/unordered.txt" \
		-s 0 -e "$(epoch)" 2>&1 >/dev/null)
	rc=$?
	ktap_note "a start before the line above's: exit $rc, \"$err\""
	[ "$rc" = 1 ] && [[ "$err" == *"unordered.txt:3:"*ascending* ]]
	check_err $? "want exit 1 and unordered.txt:3: ... ascending"
	log_test "run: flows out of start order are refused, naming the line"
}

# -R: the generator says it is ready, then waits for the epoch's file.
# RDV_RC is its exit status, RDV_READY what it wrote to DIR/ready,
# RDV_EARLY its fct lines before the epoch, RDV_BAD what check_fct found
# in $WORK/rdv-fct.txt, RDV_ERR its stderr; $WORK/lag.txt is its -L file.
rendezvous_run() {
	local rdv=$WORK/rdv gen
	[ -z "${RDV_RC:-}" ] || return 0
	sink_up
	tcp_flows
	mkdir "$rdv"
	ip netns exec "$NSA" "$GEN" run -n "$WORK/net.txt" -f "$WORK/flow.txt" -s 0 \
		-R "$rdv" -L "$WORK/lag.txt" -T 10 >"$WORK/rdv-fct.txt" 2>"$WORK/fct.err" &
	gen=$!
	for _ in $(seq 100); do [ -s "$rdv/ready" ] && break; sleep 0.05; done
	RDV_READY=$(cat "$rdv/ready" 2>/dev/null)
	sleep 0.5	# waiting: no flow may start before the epoch is there
	RDV_EARLY=$(wc -l <"$WORK/rdv-fct.txt")
	epoch >"$rdv/epoch.tmp" && mv "$rdv/epoch.tmp" "$rdv/epoch"
	wait "$gen"
	RDV_RC=$?
	RDV_BAD=$(check_fct "$WORK/rdv-fct.txt" 52 2)
	RDV_ERR=$(cat "$WORK/fct.err")
}

rendezvous() {
	needs_netns "rendezvous" || return 0
	rendezvous_run
	ktap_note "ready file: '$RDV_READY'; fct lines before the epoch: $RDV_EARLY"
	[ "$RDV_RC" = 0 ] && [ "$RDV_READY" = 0 ] && [ "$RDV_EARLY" = 0 ] && [ -z "$RDV_BAD" ]
	check_err $? "exit $RDV_RC $RDV_BAD $RDV_ERR"
	log_test "run -R: ready in DIR/ready, flows from the epoch in DIR/epoch"
}

# src dst size start_ns lag_ns standalone_ns, one per flow, lag in [0, 1 s)
# (scale 1: the standalone is fct.txt's)
start_lags() {
	local bad
	needs_netns "lags" || return 0
	rendezvous_run
	tcp_flows
	bad=$(awk 'NF != 6 || $1 != 0 || $2 != 1 || $5 < 0 || $5 >= 1e9' "$WORK/lag.txt")
	bad=$bad$(awk 'FNR == NR { std[$5] = $8; next }
		std[$3] != $6 { print "standalone " $6 " vs fct.txt " std[$3] }' \
		"$WORK/rdv-fct.txt" "$WORK/lag.txt")
	ktap_note "start lags (ns): $(awk '{ print $5 }' "$WORK/lag.txt" | tr '\n' ' ')"
	[ "$(awk '{ print $3, $4 }' "$WORK/lag.txt" | sort)" = \
	  "$(awk '{ printf "%s %.0f\n", $2, $3 * 1e9 }' "$WORK/flows3" | sort)" ] &&
		[ -z "$bad" ]
	check_err $? "$(cat "$WORK/lag.txt")"
	log_test "run -L: one start lag per flow"
}

# UDP: 1 base RTT, 44 bytes of headers.
udp_fct() {
	local rc bad
	needs_netns "UDP" || return 0
	sink_up
	printf '100 1000 2\n200 20000 2.01\n100 200000 2.02\n' >"$WORK/flows3"
	awk 'BEGIN { print 3 } { print "0 1 3", $0 }' "$WORK/flows3" >"$WORK/flow.txt"
	run -s 0 -T 10 -u >"$WORK/fct.txt" 2>"$WORK/fct.err"
	rc=$?
	sed 's/^/udp: /' "$WORK/fct.txt" | while read -r l; do ktap_note "$l"; done
	bad=$(check_fct "$WORK/fct.txt" 44 1)
	# a bare veth keeps order: no "reordered" line
	[ "$rc" = 0 ] && [ -z "$bad" ] && [ ! -s "$WORK/fct.err" ]
	check_err $? "exit $rc $bad $(cat "$WORK/fct.err")"
	log_test "run -u: fct.txt lines, standalone = base_rtt + wire bytes, in order"
}

# UDP flows carry their payload offset, and the sink counts a datagram
# below the highest offset before it: the HTB split of paced_reorder
# (offsets with bit 15 set through a 5 Mbit/s class; the offset's low
# word is at IP offset 48 here too) reorders a 300 kB flow, which still
# completes, and run reports it as "reordered src dst size start_ns N".
udp_reorders() {
	local rc n
	needs_netns "UDP, reordered" || return 0
	sink_up
	link_clean
	bit15_slow 100
	printf '1\n0 1 3 100 300000 2\n' >"$WORK/flow.txt"
	run -s 0 -T 10 -u >"$WORK/fct.txt" 2>"$WORK/fct.err"
	rc=$?
	link_clean
	n=$(awk '$1 == "reordered" && $2 == 0 && $3 == 1 && $4 == 300000 { print $6 }' "$WORK/fct.err")
	ktap_note "exit $rc, $(wc -l <"$WORK/fct.txt") fct line(s), stderr: $(head -c 200 "$WORK/fct.err")"
	[ "$rc" = 0 ] && [ "$(wc -l <"$WORK/fct.txt")" = 1 ] && [ "${n:-0}" -gt 0 ]
	check_err $? "want exit 0, one fct line and reorders > 0"
	log_test "run -u: reorders counted by the sink, reported as \"reordered\""
}

no_flows() {
	local start out rc took
	needs_netns "self with no flows" || return 0
	tcp_flows
	start=$(date +%s%N)
	out=$(run -s 1 2>&1)
	rc=$? took=$((($(date +%s%N) - start) / 1000000))
	[ "$rc" = 0 ] && [ -z "$out" ] && [ "$took" -lt 1000 ]
	check_err $? "exit $rc in $took ms: $out"
	log_test "run: a host without flows exits 0 at once"
}

# The sink is stopped, and started again for any case after this one.
no_sink() {
	local rc inc
	needs_netns "sink absent" || return 0
	tcp_flows
	if [ -n "$SINK" ]; then
		kill "$SINK"
		wait "$SINK" 2>/dev/null
		SINK=
	fi
	run -s 0 -T 2 >"$WORK/fct.txt" 2>"$WORK/fct.err"
	rc=$?
	inc=$(grep -c '^incomplete 0 1 ' "$WORK/fct.err")
	ktap_note "no sink: exit $rc, $inc incomplete, $(wc -l <"$WORK/fct.txt") fct lines"
	[ "$rc" = 1 ] && [ "$inc" = 3 ] && [ ! -s "$WORK/fct.txt" ]
	check_err $? "want exit 1, 3 incomplete, no fct line"
	log_test "run: without a sink every flow is incomplete, exit 1"
}

# ---- (f) paced streams: fcq-gen paced, and what the sink counts -----------
# The sink on host 1, UDP port 300, streams silent 2 s without a marker
# ended. Both ends run under SCHED_FIFO where chrt can: on this 2-core
# host, with QEMU guests keeping both cores busy, a sender under CFS woke
# up to 870 ms late and sent 60-90 % of its datagrams late; under chrt -f
# at most 2 ms late.
PPORT=300 PSINK=
# Full datagrams at MTU 1500: 1500 - 20 (IPv4) - 8 (UDP) - 40 (header).
DGRAM=1432 RATE_BPS=45000000
RT=
chrt -f 1 true 2>/dev/null && RT="chrt -f 1"

psink_up() {
	[ -z "$PSINK" ] || return 0
	# shellcheck disable=SC2086 # RT: a command and its arguments, or none
	ip netns exec "$NSB" $RT "$GEN" server -p "$PPORT" -T 2 >"$WORK/paced.json" &
	PSINK=$!
	ip netns exec "$NSA" ping -q -c 1 -W 2 11.0.1.1 >/dev/null
	sleep 0.3
}

# The link from host 0 as the case leaves it: no qdisc of ours.
link_clean() { ip netns exec "$NSA" tc qdisc del dev gt-va root 2>/dev/null; }

# Reordering by the kernel (this host has no netem): on host 0's veth, the
# UDP datagrams to port $1 whose word at IP offset 48 has bit 15 set go
# through an HTB class at 5 Mbit/s, the others pass at once and overtake
# them.
bit15_slow() {
	local t="ip netns exec $NSA tc"
	$t qdisc add dev gt-va root handle 1: htb default 1 &&
		$t class add dev gt-va parent 1: classid 1:1 htb rate 10gbit quantum 1514 &&
		$t class add dev gt-va parent 1: classid 1:2 htb rate 5mbit burst 1600 cburst 1600 quantum 1514 &&
		$t filter add dev gt-va parent 1: protocol ip prio 1 u32 match ip dport "$1" 0xffff \
			match u32 0x8000 0x8000 at 48 flowid 1:2 2>/dev/null
	check_err $? "htb and u32 on the veth"
}

# paced_send NAME BYTES [OPTION...]: a stream of BYTES at 45 Mbit/s to the
# sink, its JSON line in NAME.snd.
paced_send() {
	local name=$1 bytes=$2
	shift 2
	psink_up
	# shellcheck disable=SC2086 # RT: a command and its arguments, or none
	ip netns exec "$NSA" $RT "$GEN" paced -p "$PPORT" "$@" 11.0.1.1 45Mbps 0.05 \
		"$bytes" >"$WORK/$name.snd"
}

# sink_line NAME: the sink's line on NAME's stream into NAME.rcv (empty if
# none within 10 s).
sink_line() {
	local flow
	flow=$(jq .flow "$WORK/$1.snd")
	for _ in $(seq 100); do
		grep "\"flow\":$flow," "$WORK/paced.json" >"$WORK/$1.rcv" && break
		sleep 0.1
	done
}

paced() {
	paced_send "$@"
	sink_line "$1"
}

# pj NAME.snd|NAME.rcv FILTER: a jq filter over one of them.
pj() { jq -r "$2" "$WORK/$1"; }

# What every sink line must say, whatever the link did: the bins add up to
# the bytes received, bytes + lost = sent (the size, unless stopped),
# datagrams = distinct + dups.
sink_consistent() {
	pj "$1.rcv" '(.bins | add) == .bytes and .bytes + .lost == .sent and
		.sent <= .size and .dgrams - .dups == (.bytes / 1432 | ceil)' |
		grep -qx true
}

# The clean run, once: 4000 full datagrams over the bare veth (1.02 s).
clean_run() {
	[ -z "${CLEAN_RUN:-}" ] || return 0
	CLEAN_RUN=1
	link_clean
	paced clean $((4000 * DGRAM))
	ktap_note "clean: sent $(pj clean.snd '"late \(.late), max \(.max_late_ns) ns late"'); $(pj clean.rcv '"end \(.end), lost \(.lost), reorders \(.reorders), dups \(.dups)"' 2>/dev/null)"
}

paced_clean() {
	needs_netns "paced, clean" || return 0
	clean_run
	[ "$(pj clean.snd '"\(.dgram) \(.dgrams) \(.sent)"')" = "$DGRAM 4000 $((4000 * DGRAM))" ] &&
		[ "$(pj clean.rcv '"\(.end) \(.bytes) \(.sent) \(.lost) \(.reorders) \(.dups) \(.dgrams)"')" = \
		  "complete $((4000 * DGRAM)) $((4000 * DGRAM)) 0 0 0 4000" ] && sink_consistent clean
	check_err $? "sender $(cat "$WORK/clean.snd"); sink $(cut -c 1-300 "$WORK/clean.rcv")"
	log_test "paced: a clean veth delivers every offset once, in order (lost 0, reorders 0)"
}

# ahead NAME: how many of the sink's bins end with more bytes received than
# the schedule had allowed by then since its start, plus a datagram.
ahead() {
	jq -rs --argjson r "$RATE_BPS" '.[0].start_ns as $t0 | .[1] as $s |
		[foreach $s.bins[] as $b (0; . + $b)] | to_entries |
		map(select(.value > $r / 8 * ($s.first_ns + (.key + 1) * $s.bin_ns -
			$t0) / 1e9 + 1432)) | length' "$WORK/$1.snd" "$WORK/$1.rcv"
}

# Goodput at the sink, first datagram to last byte (the first datagram's
# bytes came at its start), against RATE. Measured over 14 runs under chrt
# while four QEMU guests kept both cores busy: 45.003-45.009 Mbit/s (0.02 %
# at most), the last send 1018.07-1018.08 ms after the scheduled start (due
# at 1018.04); under CFS, three runs gave 36.8-49.1 Mbit/s. The 1 % margin
# is 50 times the error measured, or a 10 ms stall at the end of this 1 s
# stream. And never ahead of the schedule: by the end of each bin, no more
# than RATE has allowed since the scheduled start, plus a datagram.
paced_rate() {
	local got ahead
	needs_netns "paced, rate" || return 0
	if [ -z "$RT" ]; then
		ktap_skip "paced: rate" "needs SCHED_FIFO (chrt -f): under CFS a busy host wakes the sender late"
		return 0
	fi
	clean_run
	got=$(pj clean.rcv '(.bytes - 1432) * 8e9 / .fct_ns')
	ahead=$(ahead clean)
	ktap_note "goodput at the sink: $got bit/s for $RATE_BPS; bins ahead of the schedule: $ahead"
	awk -v g="$got" -v r="$RATE_BPS" 'BEGIN { exit !(g > 0.99 * r && g < 1.01 * r) }' &&
		[ "$ahead" = 0 ]
	check_err $? "goodput $got, $ahead bins ahead"
	log_test "paced: 45 Mbit/s within 1 %, never ahead of its schedule"
}

# The sender stopped (SIGSTOP) for 200 ms a third into its 1.02 s: what it
# missed goes out at once when it runs again, so it still sends its last
# datagram on schedule (3999 intervals of 254.58 us after the start, within
# 1 %), nothing is lost, and no bin is ahead of the schedule. The stop is
# timed from the start epoch, not from the launch: beside two make checks
# a stop 0.4 s after the launch left no trace (largest lateness 1.2 ms),
# having come before fcq-gen had started to send.
# held_back PORT SND AT HOLD [OPTION...]: 4000 datagrams at 45 Mbit/s to
# PORT on host 1, the sender (its line in SND) stopped (SIGSTOP) AT ns
# after its epoch for HOLD seconds.
held_back() {
	local port=$1 snd=$2 at=$3 hold=$4 ep pid
	shift 4
	ep=$(epoch)
	# ip and chrt exec: $! becomes fcq-gen
	# shellcheck disable=SC2086
	ip netns exec "$NSA" $RT "$GEN" paced -p "$port" -e "$ep" "$@" \
		11.0.1.1 45Mbps 0 $((4000 * DGRAM)) >"$snd" &
	pid=$!
	sleep "$(awk -v n="$("$GEN" now)" -v t=$((ep + at)) \
		'BEGIN { d = (t - n) / 1e9; printf "%.3f\n", (d > 0 ? d : 0) }')"
	kill -STOP "$pid"
	sleep "$hold"
	kill -CONT "$pid"
	wait "$pid"
}

paced_catch_up() {
	local ahead
	needs_netns "paced, catching up" || return 0
	psink_up
	link_clean
	held_back "$PPORT" "$WORK/stop.snd" 350000000 0.2
	sink_line stop
	ahead=$(ahead stop)
	ktap_note "stopped: $(pj stop.snd '"late \(.late), at most \(.max_late_ns) ns; last send \(.end_ns - .start_ns) ns after the start"'); $ahead bins ahead; sink: $(pj stop.rcv '"end \(.end), lost \(.lost)"' 2>/dev/null)"
	[ "$(pj stop.snd '"\(.late > 0) \(.max_late_ns > 1.5e8) \((.end_ns - .start_ns) / (3999 * 1432 * 8e9 / 45e6) | . > 0.99 and . < 1.01)"')" = \
	  "true true true" ] && [ "$ahead" = 0 ] &&
		[ "$(pj stop.rcv '"\(.end) \(.lost)"')" = "complete 0" ] && sink_consistent stop
	check_err $? "sender $(cat "$WORK/stop.snd"); sink $(cut -c 1-300 "$WORK/stop.rcv")"
	log_test "paced: a sender held back catches up at once, never ahead of its schedule"
}

# wire_read PORT OUT PYTHON: the datagrams to PORT on host 1, read by the
# Python code PYTHON from a plain socket s (struct imported), its output in
# OUT; returns once s listens, READER its PID.
wire_read() {
	rm -f "$WORK/wire.ready"
	ip netns exec "$NSB" python3 -c '
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
# Room for the whole stream: a reader the host is slow to schedule must
# not lose datagrams to a full socket (SO_RCVBUFFORCE: past rmem_max).
s.setsockopt(socket.SOL_SOCKET, 33, 4 << 20)
s.bind(("", int(sys.argv[2])))
s.settimeout(5)
open(sys.argv[1], "w").close()
'"$3" "$WORK/wire.ready" "$1" >"$2" &
	READER=$!
	for _ in $(seq 50); do [ -e "$WORK/wire.ready" ] && break; sleep 0.1; done
}

# The header as toolkit.rst documents it, read by Python's struct (not by
# fcq-gen's): a stream of 100 datagrams, 3 markers, to a plain socket.
paced_wire() {
	local bad
	needs_netns "paced, wire format" || return 0
	link_clean
	wire_read 301 "$WORK/wire.txt" '
marks = 0
while marks < 3:
    d = s.recv(65536)
    h = struct.unpack("!IIQQQII", d[:40])
    print(*h, len(d) - 40)
    marks += h[3] == h[2]
'
	# shellcheck disable=SC2086
	ip netns exec "$NSA" $RT "$GEN" paced -p 301 11.0.1.1 45Mbps 0 $((100 * DGRAM - 500)) \
		>"$WORK/wire.snd"
	wait "$READER"
	# magic flow size off sent seg zero payload; datagram k due at
	# start + k * 1432 * 8 / rate, never sent before
	bad=$(awk -v flow="$(pj wire.snd .flow)" -v t0="$(pj wire.snd .start_ns)" \
		-v size=$((100 * DGRAM - 500)) -v seg="$DGRAM" -v r="$RATE_BPS" '
		function err(m) { if (!e) e = "datagram " NR ": " m }
		{ want = NR <= 100 ? (NR - 1) * seg : size
		  len = NR < 100 ? seg : NR == 100 ? size - want : 0 }
		$1 != 1178816848 { err("magic " $1) }
		$2 != flow || $3 != size || $6 != seg || $7 != 0 { err($0) }
		$4 != want || $8 != len { err("offset " $4 " of " $8 " bytes, want " want " of " len) }
		$5 + 1 < t0 + (NR - 1) * seg * 8 / r * 1e9 { err("sent " $5 ", early") }
		$5 < last { err("sent before the one above") }
		{ last = $5 }
		END { if (NR != 103) err(NR " datagrams, want 100 and 3 markers"); print e }' \
		"$WORK/wire.txt")
	ktap_note "$(wc -l <"$WORK/wire.txt") datagrams read; first: $(head -n 1 "$WORK/wire.txt")"
	[ -z "$bad" ]
	check_err $? "$bad"
	log_test "paced: header in network order: magic, flow, size, offset, send time, payload size"
}

# Reordering by the kernel (this host has no netem): an HTB class at 10
# Mbit/s takes the datagrams whose offset has bit 15 set (runs of ~23; the
# offset's low word is at IP offset 48), half of the 45 Mbit/s; the others
# pass at once and overtake them. The slow class drains ~230 ms after the
# last send (the sender's socket buffer bounds what waits there), the
# markers (offset 1442024, bit 15 clear) pass at once: a sink that ended
# the stream at its marker (or at its next 100 ms sweep) would count that
# tail lost.
paced_reorder() {
	local n=1007
	needs_netns "paced, reordered" || return 0
	psink_up
	link_clean
	bit15_slow "$PPORT"
	paced reorder $((n * DGRAM))
	link_clean
	ktap_note "reordered: $(pj reorder.rcv '"end \(.end), reorders \(.reorders), lost \(.lost), dups \(.dups), owd max \(.owd_max_ns) ns"' 2>/dev/null); last byte $(jq -rs '(.[1].last_ns - .[0].end_ns)' "$WORK/reorder.snd" "$WORK/reorder.rcv" 2>/dev/null) ns after the last send"
	[ "$(pj reorder.rcv '"\(.end) \(.lost) \(.dups) \(.reorders > 0) \(.owd_max_ns > 1e8)"')" = \
	  "complete 0 0 true true" ] && sink_consistent reorder &&
		# the markers, sent within 3 intervals, came before the last byte
		[ "$(jq -rs '.[1].last_ns - .[0].end_ns > 1e8' "$WORK/reorder.snd" "$WORK/reorder.rcv")" = true ]
	check_err $? "sink $(cut -c 1-300 "$WORK/reorder.rcv")"
	log_test "paced: reorders counted, none lost, markers overtaking the data"
}

# leaf_drops HANDLE: packets dropped by the qdisc HANDLE on host 0's veth.
leaf_drops() {
	ip netns exec "$NSA" tc -s -j qdisc show dev gt-va |
		jq ".[] | select(.handle == \"$1\") | .drops"
}

# Losses by the kernel: full datagrams (IP length 1500) into an HTB class at
# 40 Mbit/s with a 2-packet FIFO, which drops what 45 Mbit/s leaves over;
# with DROP_MARKS the markers (IP length 68) into a FIFO of 0 packets.
lossy_link() {
	local t="ip netns exec $NSA tc"
	link_clean
	$t qdisc add dev gt-va root handle 1: htb default 1 &&
		$t class add dev gt-va parent 1: classid 1:1 htb rate 10gbit quantum 1514 &&
		$t class add dev gt-va parent 1: classid 1:2 htb rate 40mbit burst 1600 cburst 1600 quantum 1514 &&
		$t qdisc add dev gt-va parent 1:2 handle 2: pfifo limit 2 &&
		$t filter add dev gt-va parent 1: protocol ip prio 1 u32 match ip dport "$PPORT" 0xffff \
			match u16 1500 0xffff at 2 flowid 1:2 2>/dev/null || return 1
	[ -n "${DROP_MARKS:-}" ] || return 0
	$t class add dev gt-va parent 1: classid 1:3 htb rate 10gbit quantum 1514 2>/dev/null &&
		$t qdisc add dev gt-va parent 1:3 handle 3: pfifo limit 0 &&
		$t filter add dev gt-va parent 1: protocol ip prio 2 u32 match ip dport "$PPORT" 0xffff \
			match u16 68 0xffff at 2 flowid 1:3 2>/dev/null
}

# lost = what the FIFO dropped, to the byte; the stream ends by its marker,
# whose offset (the size) is not a multiple of the datagram: the short last
# datagram passes the FIFO (only 1500-byte packets go through it) and may
# overtake the full ones still in it: at most its limit, two reorders.
paced_loss() {
	local drops
	needs_netns "paced, lossy" || return 0
	psink_up
	lossy_link
	check_err $? "htb, pfifo and u32 on the veth"
	paced loss $((1000 * DGRAM + 700))
	drops=$(leaf_drops 2:)
	link_clean
	ktap_note "lossy: FIFO drops $drops; sink $(pj loss.rcv '"end \(.end), lost \(.lost), bytes \(.bytes), reorders \(.reorders)"' 2>/dev/null)"
	[ "${drops:-0}" -gt 0 ] &&
		[ "$(pj loss.rcv '"\(.end) \(.lost) \(.dups) \(.reorders <= 2)"')" = "marker $((drops * DGRAM)) 0 true" ] &&
		sink_consistent loss
	check_err $? "drops $drops; sink $(cut -c 1-300 "$WORK/loss.rcv")"
	log_test "paced: lost = the bytes the link dropped, known from the end marker"
}

# Every marker dropped too: the sink ends the stream after -T 2 s of silence.
paced_no_marker() {
	local drops marks
	needs_netns "paced, markers lost" || return 0
	psink_up
	DROP_MARKS=1 lossy_link
	check_err $? "htb, pfifo and u32 on the veth"
	paced nomark $((1000 * DGRAM))
	drops=$(leaf_drops 2:) marks=$(leaf_drops 3:)
	link_clean
	ktap_note "markers dropped $marks, datagrams $drops; sink $(pj nomark.rcv '"end \(.end), lost \(.lost)"' 2>/dev/null)"
	[ "$marks" = 3 ] && [ "${drops:-0}" -gt 0 ] &&
		[ "$(pj nomark.rcv '"\(.end) \(.lost)"')" = "silent $((drops * DGRAM))" ] &&
		sink_consistent nomark
	check_err $? "markers dropped $marks, drops $drops; sink $(cut -c 1-300 "$WORK/nomark.rcv")"
	log_test "paced: all markers lost, the stream still ends, after -T of silence"
}

# Duplicates by the kernel: datagrams whose offset has bit 14 set are
# mirrored (tc mirred) into a second veth into host 1, whose end has the
# first's MAC address; host 1 takes both copies.
paced_dups() {
	local t="ip netns exec $NSA tc" mac
	needs_netns "paced, duplicated" || return 0
	psink_up
	link_clean
	if ! ip -n "$NSA" link show gt-vc >/dev/null 2>&1; then
		mac=$(ip -n "$NSB" -j link show gt-vb | jq -r '.[0].address')
		ip link add gt-vc netns "$NSA" type veth peer name gt-vd netns "$NSB" &&
			ip -n "$NSB" link set gt-vd address "$mac" &&
			ip netns exec "$NSB" sysctl -qw net.ipv4.conf.all.rp_filter=0 \
				net.ipv4.conf.gt-vd.rp_filter=0 &&
			ip -n "$NSA" link set gt-vc up && ip -n "$NSB" link set gt-vd up
		check_err $? "second veth"
	fi
	$t qdisc add dev gt-va root handle 1: htb default 1 &&
		$t filter add dev gt-va parent 1: protocol ip prio 1 u32 match ip dport "$PPORT" 0xffff \
			match u32 0x4000 0x4000 at 48 action mirred egress mirror dev gt-vc >/dev/null 2>&1
	check_err $? "htb, u32 and mirred on the veth"
	paced dups $((1000 * DGRAM))
	link_clean
	ktap_note "duplicated: $(pj dups.rcv '"end \(.end), dups \(.dups), dgrams \(.dgrams), lost \(.lost), reorders \(.reorders)"' 2>/dev/null)"
	[ "$(pj dups.rcv '"\(.end) \(.lost) \(.dups > 100) \(.dgrams - .dups)"')" = "complete 0 true 1000" ] &&
		sink_consistent dups
	check_err $? "sink $(cut -c 1-300 "$WORK/dups.rcv")"
	log_test "paced: duplicates counted apart, not as goodput"
}

# A stream of 1.02 s stopped by -d 0.5: the sender sends nothing at or
# after START + 0.5 s (its last send is timed by the clock it stops by)
# and ends with markers at the offset reached, a whole number of
# datagrams; the sink takes that as the stream's end at once, complete,
# with nothing lost.
paced_stop() {
	local snd rcv
	needs_netns "paced, stopped" || return 0
	link_clean
	paced stop $((4000 * DGRAM)) -d 0.5
	snd=$(pj stop.snd '"\(.sent) \(.bytes) \(.end_ns - .start_ns < 5e8)"')
	rcv=$(pj stop.rcv '"\(.end) \(.sent) \(.bytes) \(.lost)"' 2>/dev/null)
	ktap_note "sender: sent, size, stopped in time: $snd; sink: $rcv"
	read -r sent size intime <<<"$snd"
	[ "$intime" = true ] && [ "$sent" -gt 0 ] && [ "$sent" -lt "$size" ] &&
		[ $((sent % DGRAM)) = 0 ] &&
		[ "$rcv" = "complete $sent $sent 0" ] && sink_consistent stop
	check_err $? "sender $(cat "$WORK/stop.snd"); sink $(cut -c 1-300 "$WORK/stop.rcv")"
	log_test "paced: -d stops the stream in time, and the sink ends it where the markers say"
}

# A sender held back at the end of its stream (SIGSTOP from 0.95 to 1.15
# s of its 1.02 s) catches up at once, past its markers' schedule: its
# three markers, read off the wire by Python, still go one interval (254.6
# us at 45 Mbit/s) or more after the last datagram and after each other,
# not back to back (markers sent at once would be lost together on a full
# queue). A -d stop behind schedule takes the same path.
paced_stop_markers() {
	local gaps
	needs_netns "paced, markers behind schedule" || return 0
	link_clean
	wire_read 302 "$WORK/marks.txt" '
last, marks = None, []
while len(marks) < 3:
    d = s.recv(65536)
    sent = struct.unpack("!IIQQQII", d[:40])[4]
    if len(d) == 40:
        marks.append(sent)
    else:
        last = sent
print(*(b - a for a, b in zip([last] + marks, marks)))
'
	held_back 302 "$WORK/marks.snd" 950000000 0.2
	wait "$READER"
	gaps=$(cat "$WORK/marks.txt")
	ktap_note "ns from the last datagram to the first marker, and between markers: $gaps"
	[ "$(echo "$gaps" | wc -w)" = 3 ] &&
		echo "$gaps" | awk -v i=$((DGRAM * 8 * 1000000000 / RATE_BPS)) \
			'{ for (k = 1; k <= NF; k++) if ($k < i) exit 1 }'
	check_err $? "gaps $gaps ns; sender $(cat "$WORK/marks.snd")"
	log_test "paced: a sender behind its schedule at the end spaces its markers an interval apart"
}

# A marker that cannot be the sender's: Python sends datagrams 0..9 of a
# 20-datagram stream, a marker at datagram 5 (below what came) and one at
# 12 (none of 10..11 came, so it says 2 were lost), then one at 15 that
# contradicts it. The sink keeps the marker at 12: end "marker" (1 s of
# silence after it), sent 12 datagrams, 2 lost.
paced_bad_marker() {
	local got want
	needs_netns "paced, a bad marker" || return 0
	psink_up
	link_clean
	ip netns exec "$NSA" python3 -c '
import socket, struct, sys, time
seg, flow = 1432, 4242
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.connect(("11.0.1.1", int(sys.argv[1])))
def send(off, n):
    s.send(struct.pack("!IIQQQII", 1178816848, flow, 20 * seg, off,
                       time.clock_gettime_ns(time.CLOCK_MONOTONIC), seg, 0) + bytes(n))
    time.sleep(0.001)
for k in range(10):
    send(k * seg, seg)
for k in (5, 12, 15):
    send(k * seg, 0)
' "$PPORT"
	echo '{"flow":4242}' >"$WORK/badmark.snd"
	sink_line badmark
	got=$(pj badmark.rcv '"\(.end) \(.sent) \(.bytes) \(.lost)"' 2>/dev/null)
	want="marker $((12 * DGRAM)) $((10 * DGRAM)) $((2 * DGRAM))"
	ktap_note "sink: end, sent, bytes, lost: $got"
	[ "$got" = "$want" ]
	check_err $? "want $want; sink $(cut -c 1-300 "$WORK/badmark.rcv")"
	log_test "paced: a marker below the data, or contradicting the first, is ignored"
}

tests_run
ktap_finish
