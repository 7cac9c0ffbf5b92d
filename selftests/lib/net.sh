# SPDX-License-Identifier: GPL-2.0
#
# net.sh - small topologies of network namespaces for fcq's traffic tests
# (in the spirit of tools/testing/selftests/net/forwarding/lib.sh, with
# namespaces instead of VRFs).
#
#   star MODE HOSTS...    one switch namespace "sw" and a namespace per host,
#                         each host's device "<host>-eth" linked to switch
#                         port "sw-<host>". MODE bridge: one L2 segment
#                         10.0.0.0/24; MODE routed: the switch routes, host i
#                         is 10.0.i.2/24 behind 10.0.i.1. Links get
#                         NET_MTU (default 1500).
#   addr HOST             the host's address
#   qdisc_all OPTS_SW -- OPTS_HOST
#                         put the fcq qdisc on every switch port and host NIC
#   xstat NS DEV JQ       a field of `tc -j -s qdisc show dev DEV` in NS
#   xstats NS DEV JQ...   several of them on one line, tab-separated, from
#                         one tc call (each tc costs about 10 ms of guest
#                         time)
#   capture NS DEV FILE [FILTER]
#                         start dumpcap for MAC Control and fcq frames (or
#                         what the capture FILTER says); returns once it
#                         captures; capture_stop ends it
#   serve HOST [ARGS]     an fcq-gen sink on HOST
#   acked_in FILE A B     bytes an `fcq-gen bulk` flow (its JSON lines in
#                         FILE) had acknowledged between A and B (ns)
#   reported FILE N [S]   wait up to S seconds (default 10) until an
#                         fcq-gen sink's FILE holds N streams' lines (a
#                         sink reports a stream 1 s after it falls silent,
#                         and a full buffer may still be draining it)
#   epoch_in SECONDS      CLOCK_MONOTONIC now + SECONDS, in ns (fcq-gen -e)
#   until_ns NS           sleep until CLOCK_MONOTONIC reaches NS
#   cleanup               end what was started here, delete every namespace
#                         made here (also on exit)
#
# star tunes the machine for the links (netdev_max_backlog, ksoftirqd's
# priority); on exit the settings are put back, so that the next suite in
# the same guest starts from the machine as it was.

FCQ_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export TC_LIB_DIR=$FCQ_TOP/build/tc
export PATH=$FCQ_TOP/build/tools:$PATH
NET_HOSTS=()
NET_MODE=bridge
NET_MTU=${NET_MTU:-1500}
NET_PIDS=()
NET_CAP=

cleanup() {
	local ns
	[ ${#NET_PIDS[@]} -eq 0 ] || kill "${NET_PIDS[@]}" 2>/dev/null
	NET_PIDS=()
	capture_stop
	for ns in $(ip netns list | awk '{print $1}'); do
		case "$ns" in sw | h-*) ip netns del "$ns" ;; esac
	done
}

# shellcheck source=tools/lib/tune.sh
. "$FCQ_TOP/tools/lib/tune.sh"

# Once, at the first star.
NET_TUNED=
net_tune() {
	[ -z "$NET_TUNED" ] || return 0
	NET_TUNED=1
	# Our links deliver bursts after late timer wake-ups: room for them.
	tune net.core.netdev_max_backlog=10000
	# The switches' data path must not queue behind the hosts' programs
	# (nice, not SCHED_FIFO: that would starve RCU's kthreads).
	tune_ksoftirqd -20
}

trap 'cleanup; untune' EXIT

nsx() {
	local ns=$1
	shift
	# In a subshell (`nsx ... &`, a pipeline, $(...)) nothing follows:
	# become the program, so that $! is its PID and cleanup's kill (or a
	# test's signal) reaches it rather than an idle bash around it.
	[ "$BASHPID" = "$$" ] || exec ip netns exec "$ns" "$@"
	ip netns exec "$ns" "$@"
}

# Host namespaces are "h-<name>" so that cleanup finds them.
hns() { echo "h-$1"; }

addr() {
	local i
	for i in "${!NET_HOSTS[@]}"; do
		if [ "${NET_HOSTS[$i]}" = "$1" ]; then
			if [ "$NET_MODE" = bridge ]; then
				echo "10.0.0.$((i + 1))"
			else
				echo "10.0.$((i + 1)).2"
			fi
			return
		fi
	done
	return 1
}

star() {
	local h i=0 ns
	NET_MODE=$1
	shift
	NET_HOSTS=("$@")
	cleanup
	net_tune
	ip netns add sw
	nsx sw ip link set lo up
	if [ "$NET_MODE" = bridge ]; then
		nsx sw ip link add br0 type bridge forward_delay 0 stp_state 0
		nsx sw ip link set br0 up
	else
		nsx sw sysctl -qw net.ipv4.ip_forward=1
	fi
	for h in "$@"; do
		i=$((i + 1))
		ns=$(hns "$h")
		ip netns add "$ns"
		nsx "$ns" ip link set lo up
		ip link add "sw-$h" netns sw mtu "$NET_MTU" type veth \
			peer name "$h-eth" netns "$ns" mtu "$NET_MTU"
		nsx "$ns" ip link set "$h-eth" up
		if [ "$NET_MODE" = bridge ]; then
			nsx sw ip link set "sw-$h" master br0 up
			nsx "$ns" ip addr add "10.0.0.$i/24" dev "$h-eth"
		else
			nsx sw ip addr add "10.0.$i.1/24" dev "sw-$h"
			nsx sw ip link set "sw-$h" up
			nsx "$ns" ip addr add "10.0.$i.2/24" dev "$h-eth"
			nsx "$ns" ip route add default via "10.0.$i.1"
		fi
	done
}

qdisc_all() {
	local sw_opts=() host_opts=() h
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		sw_opts+=("$1")
		shift
	done
	shift
	host_opts=("$@")
	for h in "${NET_HOSTS[@]}"; do
		nsx sw tc qdisc replace dev "sw-$h" root "${sw_opts[@]}" || return 1
		nsx "$(hns "$h")" tc qdisc replace dev "$h-eth" root "${host_opts[@]}" || return 1
	done
}

xstat() {
	nsx "$1" tc -j -s qdisc show dev "$2" | gojq -r ".[0] | $3"
}

# The link time (ns) port $2 of namespace $1 has lost to host stalls
# (tx_lag_ns: fcq/link.c).
link_lost() {
	xstat "$1" "$2" '.tx_lag_ns // 0'
}

xstats() {
	local ns=$1 dev=$2 q=$3 f
	shift 3
	for f in "$@"; do q="$q, $f"; done
	xstat "$ns" "$dev" "[$q] | @tsv"
}

# Every host can reach every other (fills ARP and bridge FDB tables).
mesh_ping() {
	local a b
	for a in "${NET_HOSTS[@]}"; do
		for b in "${NET_HOSTS[@]}"; do
			[ "$a" = "$b" ] && continue
			nsx "$(hns "$a")" ping -q -c 1 -W 2 "$(addr "$b")" >/dev/null || return 1
		done
	done
}

# Packets dropped anywhere: fcq qdiscs and the veths of every port, and the
# hosts' UDP sockets. Prints the total, then where they were.
total_drops() {
	local h n=0 q l d where=
	for h in "${NET_HOSTS[@]}"; do
		q=$(nsx "$(hns "$h")" nstat -az UdpRcvbufErrors UdpInErrors |
			awk '/^Udp/ { n += $2 } END { print n + 0 }')
		[ "$q" = 0 ] || where="$where $h:udp_socket=$q"
		n=$((n + q))
		for d in "sw sw-$h" "$(hns "$h") $h-eth"; do
			set -- $d
			q=$(nsx "$1" tc -j -s qdisc show dev "$2" | gojq '.[0].drops')
			l=$(nsx "$1" ip -j -s link show dev "$2" |
				gojq '.[0].stats64 | .rx.dropped + .tx.dropped')
			[ "$q$l" = 00 ] || where="$where $2:qdisc=$q,link=$l"
			n=$((n + q + l))
		done
	done
	echo "$n$where"
}

capture() {
	local log
	log=$(mktemp)
	nsx "$1" dumpcap -i "$2" \
		-f "${4:-ether proto 0x8808 or ether proto 0x88b5}" \
		-w "$3" 2>"$log" &
	NET_CAP=$!
	# dumpcap ignores a signal that arrives before it captures, and
	# "File:" comes once it has opened the device ("Capturing on" before).
	for _ in $(seq 100); do
		grep -q "^File:" "$log" && break
		sleep 0.1
	done
	rm -f "$log"
}

capture_stop() {
	[ -n "$NET_CAP" ] || return 0
	kill -INT "$NET_CAP" 2>/dev/null
	for _ in $(seq 50); do
		kill -0 "$NET_CAP" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$NET_CAP" 2>/dev/null
	wait "$NET_CAP" 2>/dev/null
	NET_CAP=
}

serve() {
	local h=$1
	shift
	nsx "$(hns "$h")" fcq-gen server "$@" &
	NET_PIDS+=($!)
}

acked_in() {
	gojq -s --argjson a "$2" --argjson b "$3" '
		map(select(.ns >= $a and .ns <= $b)) |
		if length < 2 then 0 else .[-1].acked - .[0].acked end' "$1"
}

reported() {
	local i
	for i in $(seq $((${3:-10} * 5))); do
		[ "$(wc -l <"$1")" -lt "$2" ] || return 0
		sleep 0.2
	done
	return 1
}

# CLOCK_MONOTONIC now + SECONDS, in ns: a start time for fcq-gen -e.
epoch_in() {
	awk -v n="$(fcq-gen now)" -v s="$1" 'BEGIN { printf "%.0f\n", n + s * 1e9 }'
}

until_ns() {
	sleep "$(awk -v t="$1" -v n="$(fcq-gen now)" 'BEGIN {
		d = (t - n) / 1e9; printf "%.3f", (d > 0 ? d : 0) }')"
}
