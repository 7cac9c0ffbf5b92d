#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# net_test.sh: fcq-net on the host, without fcq's qdiscs (-S none -H none):
# the generated topologies, a routed leaf-spine with ECMP that every host
# can cross, base RTTs, bridged mode, dual-homed hosts, bad input,
# idempotent teardown.
set -u

USAGE_MORE="TAP on stdout. Needs root (network namespaces). FCQ_NET=path tests another
binary (default build/tools/fcq-net, from make tools)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
NET=${FCQ_NET:-$TOP/build/tools/fcq-net}
P=fcqt$$-	# its own namespaces, beside another make check
W=$(mktemp -d)
trap '"$NET" down -p $P; rm -rf "$W"' EXIT
ktap_plan 11

# 1. Generated topologies in the HPCC format: "nodes switches links".
ok=1
for t in "star:5 6 1 5" "dumbbell:3:4 9 2 8" "leafspine:2:2:4 12 4 12" \
	 "ring:4:2 12 4 12"; do
	set -- $t
	head=$("$NET" gen "$1" | head -n 1)
	[ "$head" = "$2 $3 $4" ] || { ok=0; ktap_note "$1: got \"$head\""; }
	lines=$("$NET" gen "$1" | tail -n +3 | wc -l)
	[ "$lines" = "$4" ] || { ok=0; ktap_note "$1: $lines link lines"; }
done
[ $ok = 1 ] && ktap_pass "gen: star, dumbbell, leafspine and ring sizes" ||
	ktap_fail "gen: star, dumbbell, leafspine and ring sizes"

# 2. A routed leaf-spine: every host reaches host 7 across the spines.
"$NET" gen leafspine:2:2:4 -r 100Mbps -d 0.02ms >"$W/ls.txt"
if "$NET" up "$W/ls.txt" -o "$W/ls" -S none -H none -p $P; then
	bad=
	for h in 0 1 2 3 4 5 6; do
		ip netns exec ${P}h$h ping -q -c 1 -W 2 11.0.7.1 >/dev/null ||
			bad="$bad $h"
	done
	[ -z "$bad" ] && ktap_pass "routed leaf-spine: every host reaches host 7" ||
		ktap_fail "routed leaf-spine: every host reaches host 7" "not from:$bad"
else
	ktap_fail "routed leaf-spine: every host reaches host 7" "fcq-net up failed"
fi

# IPv4 only, as the simulator: no IPv6 address, so no DAD, router
# solicitation or MLD frame crosses the fabric unasked.
v6=$(for n in ${P}h0 ${P}s8; do ip -n $n -6 addr show; done | grep -c inet6)
[ "$v6" = 0 ] && ktap_pass "no IPv6 address in the fabric's namespaces" ||
	ktap_fail "no IPv6 address in the fabric's namespaces" "$v6 found"

# 3. A leaf reaches remote hosts over both spines (ECMP).
n=$(ip -n ${P}s8 route show 11.0.7.0/24 | grep -c nexthop)
[ "$n" = 2 ] && ktap_pass "leaf routes to a remote host over 2 next hops" ||
	ktap_fail "leaf routes to a remote host over 2 next hops" "$(ip -n ${P}s8 route)"

# 4. Base RTT: 2 links in a leaf, 4 across; each link 2 x 20 us + a 1538-
# byte frame and an 84-byte ACK at 100 Mbit/s (80 ns/byte).
link=$((2 * 20000 + (1538 + 84) * 80))
# The line's last column counts the links.
near=$(awk '$1 == "rtt" && $2 == 0 && $3 == 1 { print $4, $6 }' "$W/ls/net.txt")
far=$(awk '$1 == "rtt" && $2 == 0 && $3 == 7 { print $4, $6 }' "$W/ls/net.txt")
pairs=$(grep -c '^rtt' "$W/ls/net.txt")
[ "$near" = "$((2 * link)) 2" ] && [ "$far" = "$((4 * link)) 4" ] && [ "$pairs" = 56 ] &&
	ktap_pass "net.txt: 56 host pairs, base RTT and link count of 2 and 4 links" ||
	ktap_fail "net.txt: 56 host pairs, base RTT and link count of 2 and 4 links" \
		"near $near far $far (want $((2 * link)) 2, $((4 * link)) 4), $pairs pairs"

# 5. Bridged: only for loop-free switch graphs.
if "$NET" up "$W/ls.txt" -o "$W/b" -S none -H none -p $P -b 2>"$W/err"; then
	ktap_fail "-b refuses a leaf-spine (its bridges would loop)"
else
	grep -q "loop" "$W/err" && ktap_pass "-b refuses a leaf-spine (its bridges would loop)" ||
		ktap_fail "-b refuses a leaf-spine (its bridges would loop)" "$(cat "$W/err")"
fi
"$NET" gen dumbbell:2:2 >"$W/db.txt"
if "$NET" up "$W/db.txt" -o "$W/db" -S none -H none -p $P -b; then
	for _ in $(seq 20); do
		ip netns exec ${P}h0 ping -q -c 1 -W 1 11.0.3.1 >/dev/null && break
	done
	ip netns exec ${P}h0 ping -q -c 1 -W 1 11.0.3.1 >/dev/null &&
		ktap_pass "bridged dumbbell: hosts on both switches reach each other" ||
		ktap_fail "bridged dumbbell: hosts on both switches reach each other"
else
	ktap_fail "bridged dumbbell: hosts on both switches reach each other" "up failed"
fi

# 6. Bad input names the file and line.
printf '3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 fast 0.001ms 0\n' >"$W/bad.txt"
if "$NET" up "$W/bad.txt" -o "$W/bad" -S none -H none -p $P 2>"$W/err"; then
	ktap_fail "a bad rate is rejected with file:line"
else
	grep -q "bad.txt:4:" "$W/err" && ktap_pass "a bad rate is rejected with file:line" ||
		ktap_fail "a bad rate is rejected with file:line" "$(cat "$W/err")"
fi

# 7. Dual-homed hosts, as in the simulator's mix/ali_32host_10rack.txt: two
# racks of two hosts, each host linked to both of its rack's switches, the
# four switches to one spine. A host's address is its first link's; it
# reaches another host over each of its links on a shortest path (ECMP,
# L4 hash: the simulator picks a NIC per flow by its QP's hash), from its
# own address; a switch reaches it over each link to it.
printf '9 5 12\n4 5 6 7 8\n' >"$W/dual.txt"
for l in "0 4" "0 5" "1 4" "1 5" "2 6" "2 7" "3 6" "3 7" "4 8" "5 8" "6 8" "7 8"; do
	echo "$l 100Mbps 0.02ms 0"
done >>"$W/dual.txt"
if "$NET" up "$W/dual.txt" -o "$W/dual" -S none -H none -p $P 2>"$W/err"; then
	bad=
	# Both of h0's links, then every host from and to h0.
	for a in 11.0.0.2 11.0.0.6 11.0.1.1 11.0.2.1 11.0.3.1; do
		ip netns exec ${P}h0 ping -q -c 1 -W 2 $a >/dev/null || bad="$bad 0->$a"
	done
	for h in 1 2 3; do
		ip netns exec ${P}h$h ping -q -c 1 -W 2 11.0.0.1 >/dev/null ||
			bad="$bad $h->0"
	done
	# UDP flows to host 3 from 32 source ports leave by both links.
	devs=$(for sp in $(seq 10000 10031); do
		ip -n ${P}h0 route get 11.0.3.1 ipproto udp sport $sp dport 100
	done | grep -o 'dev eth[0-9]' | sort | uniq -c | tr -s ' \n' ' ')
	r=$(ip -n ${P}h0 route show 11.0.3.0/24 | tr -s ' \n\t' ' ')
	t4=$(ip -n ${P}s4 route show 11.0.0.0/24)
	t5=$(ip -n ${P}s5 route show 11.0.0.0/24)
	echo "$r" | grep -q "src 11.0.0.1" && echo "$devs" | grep -q eth0 &&
		echo "$devs" | grep -q eth1 &&
		echo "$t4" | grep -q "via 11.0.0.1 dev p0" &&
		echo "$t5" | grep -q "via 11.0.0.5 dev p0" &&
		grep -q "^rtt 0 3 .* 4$" "$W/dual/net.txt" && [ -z "$bad" ] &&
		ktap_pass "dual-homed hosts: both links carry, flows hashed over them from the host's address" ||
		ktap_fail "dual-homed hosts: both links carry, flows hashed over them from the host's address" \
			"unreachable:$bad; h0: $r; flows by device: $devs; s4: $t4; s5: $t5"
else
	ktap_fail "dual-homed hosts: both links carry, ECMP from the host's address" "$(cat "$W/err")"
fi
if "$NET" up "$W/dual.txt" -o "$W/dualb" -S none -H none -p $P -b 2>"$W/err"; then
	ktap_fail "-b refuses a dual-homed host, naming it"
else
	grep -q "host 0 has 2 links" "$W/err" &&
		ktap_pass "-b refuses a dual-homed host, naming it" ||
		ktap_fail "-b refuses a dual-homed host, naming it" "$(cat "$W/err")"
fi

# 9. Down is idempotent and complete.
"$NET" down -p $P && "$NET" down -p $P
left=$(ip netns list | grep -c "^$P")
[ "$left" = 0 ] && ktap_pass "down twice: nothing left" ||
	ktap_fail "down twice: nothing left" "$left namespaces"
ktap_finish
