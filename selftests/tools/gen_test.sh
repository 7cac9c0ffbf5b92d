#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gen_test.sh: fcq-gen's HPCC-simulator modes, on the host (no guest).
# "workload" against HPCC's traffic_gen.py semantics: determinism by seed,
# offered load, sizes that follow the CDF, incast groups, CDF checking;
# "run" between two namespaces gt<pid>-a (host 0, 11.0.0.1) and gt<pid>-b
# (host 1, 11.0.1.1) joined by a veth: HPCC fct.txt lines with the documented
# standalone FCT, and exit status 1 when the flows cannot complete.
# Expected values are computed here, from the files, not by fcq-gen.
set -u

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
	ip netns del "$NSA" 2>/dev/null
	ip netns del "$NSB" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

# Built by the Makefile's own rule: it must need nothing more (no -lm).
[ -n "${FCQ_GEN:-}" ] || make -s -C "$TOP" "$GEN" >&2 || exit 1

ktap_plan 20

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

# ---- (a) 4 hosts at 100 Mbit/s, WebSearch at 0.5 for 60 s -----------------
# At these numbers a host offers ~219 flows whose sizes have a coefficient of
# variation of 2.3, so its 60 s load has a standard deviation of ~17 %: the
# 15 % bound holds for some seeds only. Seed 2 is one of them; the same
# bound over ~5000 flows a host is checked in (b).
wl -n "$WORK/net100m.txt" -d 60 -s 2 >"$WORK/a1.txt"
wl -n "$WORK/net100m.txt" -d 60 -s 2 >"$WORK/a2.txt"
wl -n "$WORK/net100m.txt" -d 60 -s 3 >"$WORK/a3.txt"
n=$(head -n 1 "$WORK/a1.txt")
ktap_note "seed 2: $n flows"
[ "$n" -gt 100 ] && cmp -s "$WORK/a1.txt" "$WORK/a2.txt" &&
	ktap_pass "workload: the same seed gives the same flow.txt" ||
	ktap_fail "workload: the same seed gives the same flow.txt"
! cmp -s "$WORK/a1.txt" "$WORK/a3.txt" &&
	ktap_pass "workload: another seed gives another flow.txt" ||
	ktap_fail "workload: another seed gives another flow.txt"

l=$(loads 60 100000000 "$WORK/a1.txt")
ktap_note "offered load per host (seed 2): $l"
loads_ok "$l" &&
	ktap_pass "workload: each host offers 0.5 of its link, within 15 %" ||
	ktap_fail "workload: each host offers 0.5 of its link, within 15 %" "$l"

# Line 1 the count; then src dst 3 100 size start, by start, in [2, 62):
# the simulator's flows start at 2 s.
bad=$(awk 'NR == 1 { n = $1; next }
	NF != 6 || $1 !~ /^[0-3]$/ || $2 !~ /^[0-3]$/ || $3 != 3 ||
	$4 != 100 || $5 < 1 || $6 < 2 || $6 >= 62 || $6 < last { print; exit }
	{ last = $6; c++ }
	END { if (c != n) print "count " n ", lines " c }' "$WORK/a1.txt")
[ -z "$bad" ] && ktap_pass "workload: HPCC flow.txt, sorted, from 2 s, pg 3, dport 100" ||
	ktap_fail "workload: HPCC flow.txt, sorted, from 2 s, pg 3, dport 100" "$bad"
same=$(awk 'NR > 1 && $1 == $2' "$WORK/a1.txt" "$WORK/a3.txt" | wc -l)
dsts=$(awk 'NR > 1 { print $1 "-" $2 }' "$WORK/a1.txt" | sort -u | wc -l)
ktap_note "src = dst: $same flows; distinct (src, dst) pairs: $dsts of 12"
[ "$same" = 0 ] && [ "$dsts" = 12 ] &&
	ktap_pass "workload: every dst is another host, all of them used" ||
	ktap_fail "workload: every dst is another host, all of them used"

# ---- (b) sizes follow the CDF: 20000 draws ---------------------------------
# The CDF's median by linear interpolation, from the file itself.
want=$(awk '!/^#/ && NF == 2 {
		if ($2 >= 50 && n) { print px + ($1 - px) * (50 - py) / ($2 - py); exit }
		px = $1; py = $2; n++ }' "$WL/websearch.cdf")
wl -n "$WORK/net100g.txt" -d 1.5 -s 5 >"$WORK/b.txt"
n=$(head -n 1 "$WORK/b.txt")
got=$(sed -n '2,20001p' "$WORK/b.txt" | awk '{ print $5 }' | sort -n |
	awk '{ v[NR] = $1 } END { print (v[10000] + v[10001]) / 2 }')
ktap_note "$n flows; median of the first 20000 sizes $got, of the CDF $want"
[ "$n" -ge 20000 ] && awk -v g="$got" -v w="$want" \
	'BEGIN { exit !(g > 0.9 * w && g < 1.1 * w) }' &&
	ktap_pass "workload: median size within 10 % of the CDF's" ||
	ktap_fail "workload: median size within 10 % of the CDF's"
l=$(loads 1.5 100000000000 "$WORK/b.txt")
ktap_note "offered load per host over ~5000 flows each: $l"
loads_ok "$l" &&
	ktap_pass "workload: 0.5 load within 15 % at 5000 flows a host" ||
	ktap_fail "workload: 0.5 load within 15 % at 5000 flows a host" "$l"

# Every shipped CDF is accepted, its mean in workloads/README.md is HPCC's
# getAvg of it, and HPCC's traffic_gen.py would read it: every line
# "x y" split on one space (its parser), 0 % first, 100 % last, both
# columns strictly increasing (its CustomRand.testCdf).
ok=1
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
		ok=0
	fi
done
[ $ok = 1 ] && [ -n "$(ls "$WL"/*.cdf)" ] &&
	ktap_pass "workloads/*.cdf: accepted, README's mean, traffic_gen.py's format" ||
	ktap_fail "workloads/*.cdf: accepted, README's mean, traffic_gen.py's format"

# ---- (c) incast ----------------------------------------------------------
# 3 senders of 50000 bytes every 2 s from 2 + 1 s on, over 20 s: 10 groups.
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
[ -z "$bad" ] && ktap_pass "workload -i: groups of FANIN flows to one host, dport 200" ||
	ktap_fail "workload -i: groups of FANIN flows to one host, dport 200" "$bad"

# ---- (d) a malformed CDF -------------------------------------------------
printf '# comment\n0 0\n10000 30\n\n20000 20\n30000 100\n' >"$WORK/bad.cdf"
err=$("$GEN" workload -n "$WORK/net100m.txt" -w "$WORK/bad.cdf" -l 0.5 \
	-d 1 2>&1 >/dev/null)
rc=$?
ktap_note "decreasing percent on line 5: exit $rc, \"$err\""
[ $rc = 1 ] && [[ "$err" == *"$WORK/bad.cdf:5:"* ]] &&
	ktap_pass "workload: a CDF going down is rejected, naming file and line" ||
	ktap_fail "workload: a CDF going down is rejected, naming file and line"
printf '100 1\n200 100\n' >"$WORK/bad2.cdf"
err=$("$GEN" workload -n "$WORK/net100m.txt" -w "$WORK/bad2.cdf" -l 0.5 \
	-d 1 2>&1 >/dev/null)
rc=$?
ktap_note "starting at 1 %: exit $rc, \"$err\""
[ $rc = 1 ] && [[ "$err" == *"$WORK/bad2.cdf:1:"* ]] &&
	ktap_pass "workload: a CDF not starting at 0 % is rejected" ||
	ktap_fail "workload: a CDF not starting at 0 % is rejected"

# ---- (e) run, between two namespaces ---------------------------------------
MTU=1500 RTT=123457 BW=12345679	# odd numbers: the rounding shows

# The documented standalone FCT: ideal SIZE HDR K
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

# Left over by runs that were killed: gt<pid>-* whose pid is gone.
for ns in $(ip netns list 2>/dev/null | awk '/^gt[0-9]+-[ab]( |$)/ { print $1 }'); do
	pid=${ns#gt}
	kill -0 "${pid%-*}" 2>/dev/null || ip netns del "$ns" 2>/dev/null
done
if [ "$(id -u)" != 0 ] || ! ip netns add "$NSA" 2>/dev/null; then
	for t in "fct lines" "standalone TCP" "scale" "order" "rendezvous" \
		 "lags" "UDP" "self with no flows" "sink absent"; do
		ktap_skip "run: $t" "needs root for network namespaces"
	done
	ktap_finish
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
cat >"$WORK/net.txt" <<EOF
host 0 $NSA gt-va 11.0.0.1 1250000000 $MTU
host 1 $NSB gt-vb 11.0.1.1 1250000000 $MTU
rtt 0 1 $RTT $BW
rtt 1 0 $RTT $BW
EOF
# As the simulator's mix/flow.txt: from 2 s, notes after the declared
# flows (never read, even where they look like flows).
printf '100 1000 2\n200 100000 2.01\n100 1000000 2.02\n' >"$WORK/flows3"
{
	echo 3
	awk '{ print "0 1 3", $0 }' "$WORK/flows3"
	printf '0 1 3 100 5000 2.03\n\nFirst line: # of flows\n'
} >"$WORK/flow.txt"
ip netns exec "$NSB" "$GEN" server -p 100,200 &
SINK=$!
ip netns exec "$NSA" ping -q -c 1 -W 2 11.0.1.1 >/dev/null
sleep 0.3

epoch() { echo $(($("$GEN" now) + 300000000)); }
run() { ip netns exec "$NSA" "$GEN" run -n "$WORK/net.txt" -f "$WORK/flow.txt" -e "$(epoch)" "$@"; }

run -s 0 -T 10 >"$WORK/fct.txt" 2>"$WORK/fct.err"
rc=$?
sed 's/^/tcp: /' "$WORK/fct.txt" | while read -r l; do ktap_note "$l"; done
bad=$(check_fct "$WORK/fct.txt" 52 2)
[ $rc = 0 ] && ! echo "$bad" | grep -q "flow at\|lines" &&
	ktap_pass "run: 3 fct.txt lines, sip 0b000001 dip 0b000101 dport size" ||
	ktap_fail "run: 3 fct.txt lines, sip 0b000001 dip 0b000101 dport size" \
		"exit $rc $bad $(cat "$WORK/fct.err")"
[ $rc = 0 ] && [ -z "$bad" ] &&
	ktap_pass "run: standalone = 2 * base_rtt + wire bytes at the bottleneck" ||
	ktap_fail "run: standalone = 2 * base_rtt + wire bytes at the bottleneck" "$bad"

run -s 0 -T 10 -k 2 >"$WORK/fct.txt" 2>"$WORK/fct.err"
rc=$?
bad=$(check_fct "$WORK/fct.txt" 52 2 2)
[ $rc = 0 ] && [ -z "$bad" ] &&
	ktap_pass "run -k 2: start_ns on the file's clock, standalone / 2" ||
	ktap_fail "run -k 2: start_ns on the file's clock, standalone / 2" \
		"exit $rc $bad $(cat "$WORK/fct.err")"

awk 'NR == 3 { $6 = 1.5 } 1' "$WORK/flow.txt" >"$WORK/unordered.txt"
err=$(ip netns exec "$NSA" "$GEN" run -n "$WORK/net.txt" -f "$WORK/unordered.txt" \
	-s 0 -e "$(epoch)" 2>&1 >/dev/null)
rc=$?
ktap_note "a start before the line above's: exit $rc, \"$err\""
[ $rc = 1 ] && [[ "$err" == *"unordered.txt:3:"*ascending* ]] &&
	ktap_pass "run: flows out of start order are refused, naming the line" ||
	ktap_fail "run: flows out of start order are refused, naming the line"

# -R: the generator says it is ready, then waits for the epoch's file.
rdv=$WORK/rdv
mkdir "$rdv"
ip netns exec "$NSA" "$GEN" run -n "$WORK/net.txt" -f "$WORK/flow.txt" -s 0 \
	-R "$rdv" -L "$WORK/lag.txt" -T 10 >"$WORK/fct.txt" 2>"$WORK/fct.err" &
gen=$!
for _ in $(seq 100); do [ -s "$rdv/ready" ] && break; sleep 0.05; done
ready=$(cat "$rdv/ready" 2>/dev/null)
sleep 0.5	# waiting: no flow may start before the epoch is there
early=$(wc -l <"$WORK/fct.txt")
echo "$(epoch)" >"$rdv/epoch.tmp" && mv "$rdv/epoch.tmp" "$rdv/epoch"
wait $gen
rc=$?
bad=$(check_fct "$WORK/fct.txt" 52 2)
ktap_note "ready file: '$ready'; fct lines before the epoch: $early"
[ $rc = 0 ] && [ "$ready" = 0 ] && [ "$early" = 0 ] && [ -z "$bad" ] &&
	ktap_pass "run -R: ready in DIR/ready, flows from the epoch in DIR/epoch" ||
	ktap_fail "run -R: ready in DIR/ready, flows from the epoch in DIR/epoch" \
		"exit $rc $bad $(cat "$WORK/fct.err")"
# src dst size start_ns lag_ns standalone_ns, one per flow, lag in [0, 1 s)
# (scale 1: the standalone is fct.txt's)
bad=$(awk 'NF != 6 || $1 != 0 || $2 != 1 || $5 < 0 || $5 >= 1e9' "$WORK/lag.txt")
bad=$bad$(awk 'FNR == NR { std[$5] = $8; next }
	std[$3] != $6 { print "standalone " $6 " vs fct.txt " std[$3] }' \
	"$WORK/fct.txt" "$WORK/lag.txt")
ktap_note "start lags (ns): $(awk '{ print $5 }' "$WORK/lag.txt" | tr '\n' ' ')"
[ "$(awk '{ print $3, $4 }' "$WORK/lag.txt" | sort)" = \
  "$(awk '{ printf "%s %.0f\n", $2, $3 * 1e9 }' "$WORK/flows3" | sort)" ] &&
	[ -z "$bad" ] &&
	ktap_pass "run -L: one start lag per flow" ||
	ktap_fail "run -L: one start lag per flow" "$(cat "$WORK/lag.txt")"

# UDP: 1 base RTT, 44 bytes of headers.
printf '100 1000 2\n200 20000 2.01\n100 200000 2.02\n' >"$WORK/flows3"
awk 'BEGIN { print 3 } { print "0 1 3", $0 }' "$WORK/flows3" >"$WORK/flow.txt"
run -s 0 -T 10 -u >"$WORK/fct.txt" 2>"$WORK/fct.err"
rc=$?
sed 's/^/udp: /' "$WORK/fct.txt" | while read -r l; do ktap_note "$l"; done
bad=$(check_fct "$WORK/fct.txt" 44 1)
[ $rc = 0 ] && [ -z "$bad" ] &&
	ktap_pass "run -u: fct.txt lines, standalone = base_rtt + wire bytes" ||
	ktap_fail "run -u: fct.txt lines, standalone = base_rtt + wire bytes" \
		"exit $rc $bad $(cat "$WORK/fct.err")"

start=$(date +%s%N)
out=$(run -s 1 2>&1)
rc=$? took=$((($(date +%s%N) - start) / 1000000))
[ $rc = 0 ] && [ -z "$out" ] && [ $took -lt 1000 ] &&
	ktap_pass "run: a host without flows exits 0 at once" ||
	ktap_fail "run: a host without flows exits 0 at once" "exit $rc in $took ms: $out"

kill "$SINK"
wait "$SINK" 2>/dev/null
SINK=
run -s 0 -T 2 >"$WORK/fct.txt" 2>"$WORK/fct.err"
rc=$?
inc=$(grep -c '^incomplete 0 1 ' "$WORK/fct.err")
ktap_note "no sink: exit $rc, $inc incomplete, $(wc -l <"$WORK/fct.txt") fct lines"
[ $rc = 1 ] && [ "$inc" = 3 ] && [ ! -s "$WORK/fct.txt" ] &&
	ktap_pass "run: without a sink every flow is incomplete, exit 1" ||
	ktap_fail "run: without a sink every flow is incomplete, exit 1"
ktap_finish
