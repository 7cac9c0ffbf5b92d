#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# net_test.sh: fcq-net on the host, without fcq's qdiscs (-S none -H none):
# the generated topologies, a routed leaf-spine with ECMP that every host
# can cross, base RTTs, bridged mode, dual-homed hosts, bad input,
# idempotent teardown.
set -u

# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	gen_sizes
	leafspine_reach
	no_ipv6
	leaf_ecmp
	base_rtt
	bridge_refuses_loop
	bridged_dumbbell
	bad_rate
	dual_homed
	bridge_refuses_dual
	down_twice
"
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
tests_plan

# Shared steps, each done once whichever case needs it first (so that
# TESTS= may name any case).

# A routed leaf-spine, 2 spines, 2 leaves of 4 hosts at 100 Mbit/s, up in
# $W/ls; false if fcq-net up failed.
leafspine_up() {
	[ -z "${LEAFSPINE_UP:-}" ] || return "$LEAFSPINE_UP"
	"$NET" gen leafspine:2:2:4 -r 100Mbps -d 0.02ms >"$W/ls.txt"
	"$NET" up "$W/ls.txt" -o "$W/ls" -S none -H none -p $P
	LEAFSPINE_UP=$?
	return "$LEAFSPINE_UP"
}

# Dual-homed hosts, as in the simulator's mix/ali_32host_10rack.txt: two
# racks of two hosts, each host linked to both of its rack's switches, the
# four switches to one spine.
dual_txt() {
	local l
	printf '9 5 12\n4 5 6 7 8\n' >"$W/dual.txt"
	for l in "0 4" "0 5" "1 4" "1 5" "2 6" "2 7" "3 6" "3 7" "4 8" "5 8" "6 8" "7 8"; do
		echo "$l 100Mbps 0.02ms 0"
	done >>"$W/dual.txt"
}

# Generated topologies in the HPCC format: "nodes switches links".
gen_sizes() {
	local t head lines
	for t in "star:5 6 1 5" "dumbbell:3:4 9 2 8" "leafspine:2:2:4 12 4 12" \
		 "ring:4:2 12 4 12"; do
		set -- $t
		head=$("$NET" gen "$1" | head -n 1)
		[ "$head" = "$2 $3 $4" ] || { check_err 1 "$1"; ktap_note "$1: got \"$head\""; }
		lines=$("$NET" gen "$1" | tail -n +3 | wc -l)
		[ "$lines" = "$4" ] || { check_err 1 "$1"; ktap_note "$1: $lines link lines"; }
	done
	log_test "gen: star, dumbbell, leafspine and ring sizes"
}

# reaches NS ADDR: NS gets an echo reply from ADDR, in three tries of
# 2 s. Reachability is the question, not a first frame: with two make
# check runs side by side a fabric just up lost its first ping 3 times in
# about 640 (the cause not found; never a second ping), where a wrong
# route loses every try.
reaches() {
	for _ in 1 2 3; do
		ip netns exec "$1" ping -q -c 1 -W 2 "$2" >/dev/null && return 0
	done
	return 1
}

# A routed leaf-spine: every host reaches host 7 across the spines.
leafspine_reach() {
	local h bad=
	if leafspine_up; then
		for h in 0 1 2 3 4 5 6; do
			reaches ${P}h$h 11.0.7.1 || bad="$bad $h"
		done
		[ -z "$bad" ]
		check_err $? "not from:$bad"
	else
		check_err 1 "fcq-net up failed"
	fi
	log_test "routed leaf-spine: every host reaches host 7"
}

# IPv4 only, as the simulator: no IPv6 address, so no DAD, router
# solicitation or MLD frame crosses the fabric unasked.
no_ipv6() {
	local n v6
	leafspine_up
	check_err $? "fcq-net up failed"
	v6=$(for n in ${P}h0 ${P}s8; do ip -n $n -6 addr show; done | grep -c inet6)
	[ "$v6" = 0 ]
	check_err $? "$v6 found"
	log_test "no IPv6 address in the fabric's namespaces"
}

# A leaf reaches remote hosts over both spines (ECMP), hashing on the
# 5-tuple (fib_multipath_hash_policy 1, which fcq-net sets in the leaf's
# namespace only).
leaf_ecmp() {
	local n h0 h1
	leafspine_up
	n=$(ip -n ${P}s8 route show 11.0.7.0/24 | grep -c nexthop)
	h1=$(ip netns exec ${P}s8 sysctl -n net.ipv4.fib_multipath_hash_policy)
	h0=$(sysctl -n net.ipv4.fib_multipath_hash_policy)
	[ "$n" = 2 ] && [ "$h1" = 1 ] && [ "$h0" = 0 ]
	check_err $? "$n next hops, hash policy $h1 (outside: $h0): $(ip -n ${P}s8 route)"
	log_test "leaf routes to a remote host over 2 next hops, by the 5-tuple"
}

# Base RTT: 2 links in a leaf, 4 across; each link 2 x 20 us + a 1538-
# byte frame and an 84-byte ACK at 100 Mbit/s (80 ns/byte).
base_rtt() {
	local link near far pairs
	leafspine_up
	link=$((2 * 20000 + (1538 + 84) * 80))
	# The line's last column counts the links.
	near=$(awk '$1 == "rtt" && $2 == 0 && $3 == 1 { print $4, $6 }' "$W/ls/net.txt")
	far=$(awk '$1 == "rtt" && $2 == 0 && $3 == 7 { print $4, $6 }' "$W/ls/net.txt")
	pairs=$(grep -c '^rtt' "$W/ls/net.txt")
	[ "$near" = "$((2 * link)) 2" ] && [ "$far" = "$((4 * link)) 4" ] && [ "$pairs" = 56 ]
	check_err $? "near $near far $far (want $((2 * link)) 2, $((4 * link)) 4), $pairs pairs"
	log_test "net.txt: 56 host pairs, base RTT and link count of 2 and 4 links"
}

# Bridged: only for loop-free switch graphs.
bridge_refuses_loop() {
	leafspine_up
	"$NET" up "$W/ls.txt" -o "$W/b" -S none -H none -p $P -b 2>"$W/err"
	check_fail $? "fcq-net up -b succeeded"
	grep -q "loop" "$W/err"
	check_err $? "$(cat "$W/err")"
	log_test "-b refuses a leaf-spine (its bridges would loop)"
}

bridged_dumbbell() {
	"$NET" gen dumbbell:2:2 >"$W/db.txt"
	if "$NET" up "$W/db.txt" -o "$W/db" -S none -H none -p $P -b; then
		for _ in $(seq 20); do
			ip netns exec ${P}h0 ping -q -c 1 -W 1 11.0.3.1 >/dev/null && break
		done
		ip netns exec ${P}h0 ping -q -c 1 -W 1 11.0.3.1 >/dev/null
		check_err $? "h0 does not reach 11.0.3.1"
	else
		check_err 1 "up failed"
	fi
	log_test "bridged dumbbell: hosts on both switches reach each other"
}

# Bad input names the file and line.
bad_rate() {
	printf '3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 fast 0.001ms 0\n' >"$W/bad.txt"
	"$NET" up "$W/bad.txt" -o "$W/bad" -S none -H none -p $P 2>"$W/err"
	check_fail $? "fcq-net up accepted it"
	grep -q "bad.txt:4:" "$W/err"
	check_err $? "$(cat "$W/err")"
	log_test "a bad rate is rejected with file:line"
}

# A host's address is its first link's; it reaches another host over each
# of its links on a shortest path (ECMP, L4 hash: the simulator picks a NIC
# per flow by its QP's hash), from its own address; a switch reaches it
# over each link to it.
dual_homed() {
	local a h devs r t4 t5 bad=
	dual_txt
	if "$NET" up "$W/dual.txt" -o "$W/dual" -S none -H none -p $P 2>"$W/err"; then
		# Both of h0's links, then every host from and to h0.
		for a in 11.0.0.2 11.0.0.6 11.0.1.1 11.0.2.1 11.0.3.1; do
			reaches ${P}h0 $a || bad="$bad 0->$a"
		done
		for h in 1 2 3; do
			reaches ${P}h$h 11.0.0.1 || bad="$bad $h->0"
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
			grep -q "^rtt 0 3 .* 4$" "$W/dual/net.txt" && [ -z "$bad" ]
		check_err $? "unreachable:$bad; h0: $r; flows by device: $devs; s4: $t4; s5: $t5"
	else
		check_err 1 "$(cat "$W/err")"
	fi
	log_test "dual-homed hosts: both links carry, flows hashed over them from the host's address"
}

bridge_refuses_dual() {
	dual_txt
	"$NET" up "$W/dual.txt" -o "$W/dualb" -S none -H none -p $P -b 2>"$W/err"
	check_fail $? "fcq-net up -b succeeded"
	grep -q "host 0 has 2 links" "$W/err"
	check_err $? "$(cat "$W/err")"
	log_test "-b refuses a dual-homed host, naming it"
}

# Down is idempotent and complete.
down_twice() {
	local left
	"$NET" down -p $P && "$NET" down -p $P
	left=$(ip netns list | grep -c "^$P")
	[ "$left" = 0 ]
	check_err $? "$left namespaces"
	log_test "down twice: nothing left"
}

tests_run
ktap_finish
