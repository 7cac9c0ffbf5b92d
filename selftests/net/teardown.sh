#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# teardown.sh KIND: KIND's qdiscs (pfc or fafc) deleted and re-added,
# replaced, and a whole switch namespace deleted, while paused traffic flows; rmmod refused
# while in use and clean afterwards; nothing left behind: no switch in the
# generic netlink dump, no slab growth from one round to the next, and
# (fcq's switch cache) no "Slab cache still has objects" warning at rmmod.
# For fafc the switch solves its LPs in fafcd (solver user), which must
# live through the module going away and answer again once it is back.
set -u
USAGE="pfc|fafc"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 1 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/net.sh"

KIND=${1:-pfc}
SENDERS="s1 s2 s3"
TOS=0x60
LINK="rate 100mbit delay 50us lossless 3"
case $KIND in
pfc)	SW="pfc $LINK xoff 20kb xon 10kb response 5ms" ;;
# T_hop 5 ms: fafcd's answers take about 1.5 ms in the guest
fafc)	SW="fafc $LINK response 5ms th_p 40kb th_e 20kb solver user thop 5ms" ;;
*)	usage >&2; exit 2 ;;
esac
HOST="$KIND $LINK"
WORK=$(mktemp -d)
[ "$KIND" = fafc ] && ktap_plan 11 || ktap_plan 10

# Objects fcq allocates: skbs for frames (heads, data) and switches.
SLABS='^(skbuff_head_cache|kmalloc-(512|1k|2k|8k)|fcq_switch)$'
slab_objects() {
	awk -v re="$SLABS" '$1 ~ re { n += $2 } END { print n }' /proc/slabinfo
}
slab_detail() {
	awk -v re="$SLABS" '$1 ~ re { printf "%s=%d ", $1, $2 }' /proc/slabinfo
}

# Namespaces are torn down asynchronously: wait for the counts to settle.
settled_slabs() {
	local a b=-1
	for _ in $(seq 20); do
		sleep 0.5
		a=$(slab_objects)
		[ "$a" = "$b" ] && break
		b=$a
	done
	echo "$a"
}

# A sink on r and every sender's UDP flow to it at line rate, for good.
incast() {
	local s
	serve r -t $TOS
	sleep 0.3
	for s in $SENDERS; do
		nsx "h-$s" fcq-gen flows -u -T 60 -t $TOS "$(addr r):1000000000" \
			>/dev/null 2>&1 &
		NET_PIDS+=($!)
	done
}

# pfc: sw-r's queues move between FIFO and per-ingress DRR, with packets
# in them, four times. Sets SCHED_NOTE, SCHED_OK (no drop, all accepted,
# a backlog to move).
sched_switch() {
	local s backlog drops0 drops1 ok=1
	# On a loaded host the senders may not have built a queue yet (their
	# generators start late): wait for one, up to 10 s.
	for _ in $(seq 20); do
		backlog=$(xstat sw sw-r '.backlog')
		[ "$backlog" -gt 0 ] && break
		sleep 0.5
	done
	drops0=$(xstat sw sw-r '.drops')
	for s in drr fifo drr fifo; do
		nsx sw tc qdisc change dev sw-r root pfc sched "$s" || ok=0
	done
	drops1=$(xstat sw sw-r '.drops')
	SCHED_NOTE="backlog $backlog B, drops $drops0 -> $drops1, now $(xstat sw sw-r '.options.sched')"
	[ "$ok" = 1 ] && [ "$backlog" -gt 0 ] && [ "$drops1" = "$drops0" ] &&
		[ "$(xstat sw sw-r '.options.sched')" = fifo ]
	SCHED_OK=$((!$?))
}

# One round: a switch under paused UDP incast; its qdiscs deleted and
# re-added 3 times, then replaced twice; then host qdiscs and the switch
# namespace deleted.
# Sets DUMP (fcqctl during traffic), CHURN_OK, PFC_RX, REPLACE_OK,
# REPLACE_RX, GONE_OK.
round() {
	local s r h
	# shellcheck disable=SC2086
	star bridge $SENDERS r
	FAFCD=
	if [ "$KIND" = fafc ]; then
		nsx sw nice -n -20 fafcd -f -S "$WORK/fafcd.json" -l "$WORK/fafcd.log" &
		FAFCD=$!
		NET_PIDS+=("$FAFCD")
	fi
	# shellcheck disable=SC2086
	qdisc_all $SW -- $HOST
	incast
	sleep 2
	DUMP=$(nsx sw fcqctl -j switch)
	[ "$KIND" = pfc ] && sched_switch

	CHURN_OK=1
	for r in 1 2 3; do
		for s in $SENDERS r; do
			nsx sw tc qdisc del dev "sw-$s" root || CHURN_OK=0
		done
		sleep 0.2
		for s in $SENDERS r; do
			# shellcheck disable=SC2086
			nsx sw tc qdisc add dev "sw-$s" root $SW || CHURN_OK=0
		done
		sleep 0.3
	done
	PFC_RX=$(xstat h-s1 s1-eth '.prio[3].pfc_rx')

	# `tc qdisc replace` with a new handle: the new qdisc starts before
	# the old one leaves, and must take over the switch port, or s1's
	# traffic is no longer charged to it and s1 is never paused again.
	REPLACE_OK=1
	for h in 2: 3:; do
		for s in $SENDERS r; do
			# shellcheck disable=SC2086
			nsx sw tc qdisc replace dev "sw-$s" root handle $h $SW ||
				REPLACE_OK=0
		done
	done
	sleep 0.5
	r=$(xstat h-s1 s1-eth '.prio[3].pfc_rx')
	sleep 2
	REPLACE_RX=$(($(xstat h-s1 s1-eth '.prio[3].pfc_rx') - r))

	GONE_OK=1
	for s in $SENDERS; do
		nsx "h-$s" tc qdisc del dev "$s-eth" root || GONE_OK=0
	done
	ip netns del sw || GONE_OK=0
	sleep 0.5
	cleanup
}

round			# warm-up: caches and per-netns state reach steady size
before=$(settled_slabs)
d0=$(slab_detail)
round
after=$(settled_slabs)
ktap_note "slab objects after the warm-up round: $d0"
ktap_note "slab objects after the measured round: $(slab_detail)"

ports=$(echo "$DUMP" | jq '.[0].ports | length')
buffered=$(echo "$DUMP" | jq '.[0].used_max')
ktap_note "fcqctl during traffic: $(echo "$DUMP" | jq -c '.[0] | {switch, used, used_max, ports: (.ports | length)}')"
[ "$ports" = 4 ] && [ "$buffered" -gt 0 ] &&
	ktap_pass "generic netlink dumps the switch, its 4 ports and their buffers" ||
	ktap_fail "generic netlink dumps the switch, its 4 ports and their buffers" "$DUMP"
ktap_note "PFC frames s1 received in the round: $PFC_RX"
[ "$CHURN_OK" = 1 ] && [ "$PFC_RX" -gt 0 ] &&
	ktap_pass "switch qdiscs deleted and re-added 3 times under paused traffic" ||
	ktap_fail "switch qdiscs deleted and re-added 3 times under paused traffic"
ktap_note "PFC frames s1 received in the 2 s after its switch port's qdisc was replaced twice: $REPLACE_RX"
[ "$REPLACE_OK" = 1 ] && [ "$REPLACE_RX" -gt 0 ] &&
	ktap_pass "switch qdiscs replaced under paused traffic still pause their senders" ||
	ktap_fail "switch qdiscs replaced under paused traffic still pause their senders"
if [ "$KIND" = pfc ]; then
	ktap_note "sched drr/fifo on sw-r under traffic: $SCHED_NOTE"
	[ "$SCHED_OK" = 1 ] &&
		ktap_pass "sched changed fifo <-> drr 4 times with packets queued, none lost" ||
		ktap_fail "sched changed fifo <-> drr 4 times with packets queued, none lost"
fi
[ "$GONE_OK" = 1 ] &&
	ktap_pass "host qdiscs and the switch namespace deleted under traffic" ||
	ktap_fail "host qdiscs and the switch namespace deleted under traffic"

left=$(fcqctl -j switch)
[ "$left" = "[]" ] && ktap_pass "no switch left after teardown" ||
	ktap_fail "no switch left after teardown" "$left"

# Per-CPU skb caches and other subsystems make these counts move by ~100
# between rounds; a leak of one skb per PFC frame (thousands per round) or
# per data packet (tens of thousands) would be far above the margin.
[ $((after - before)) -lt 256 ] &&
	ktap_pass "no slab growth over a round ($((after - before)) objects)" ||
	ktap_fail "no slab growth over a round ($((after - before)) objects)"

# Every fcq module loaded now (tdc or other suites may have loaded more).
fcq_modules() {
	lsmod | awk '$1 ~ /^sch_(pfc|fafc)$/ { print $1 }'
	echo fcq
}

# Traffic through a fresh switch with fafcd in it: the UDP incast round()
# uses, on qdiscs that must pause.
fafc_traffic() {
	# shellcheck disable=SC2086
	star bridge $SENDERS r
	# shellcheck disable=SC2086
	qdisc_all $SW -- $HOST
	nsx sw nice -n -20 fafcd -f -S "$WORK/live.json" -l "$WORK/live.log" &
	FAFCD=$!
	NET_PIDS+=("$FAFCD")
	incast
}

fafcd_requests() {
	kill -USR1 "$FAFCD"
	sleep 0.5
	jq '.requests' "$WORK/live.json"
}

# rmmod: refused while a qdisc uses the module, clean once none does.
ip link add fcq-busy type dummy
tc qdisc add dev fcq-busy root "$KIND"
if rmmod "sch_$KIND" 2>/dev/null; then
	ktap_fail "rmmod is refused while a qdisc uses the module"
else
	ktap_pass "rmmod is refused while a qdisc uses the module"
fi
ip link del fcq-busy
mods=$(fcq_modules | tr '\n' ' ')
# shellcheck disable=SC2086
if rmmod $mods; then
	ktap_pass "rmmod ${mods}once unused"
else
	ktap_fail "rmmod ${mods}once unused"
fi
modprobe -q "sch_$KIND"
tc qdisc add dev lo root "$KIND" 2>/dev/null	# (refused: not Ethernet)
lsmod | grep -q "^sch_$KIND" &&
	ktap_pass "modules load again after rmmod" ||
	ktap_fail "modules load again after rmmod"

# fafcd across the modules' unload and reload, under traffic: it must
# notice, wait, and answer the new switch's LPs.
if [ "$KIND" = fafc ]; then
	fafc_traffic
	sleep 2
	n1=$(fafcd_requests)
	for s in $SENDERS r; do
		nsx sw tc qdisc del dev "sw-$s" root
		nsx "$(hns "$s")" tc qdisc del dev "$s-eth" root
	done
	# shellcheck disable=SC2046
	rmmod $(fcq_modules)
	sleep 1
	n2=$(fafcd_requests)
	modprobe -q sch_fafc
	# shellcheck disable=SC2086
	qdisc_all $SW -- $HOST
	sleep 3
	n3=$(fafcd_requests)
	gone=$(grep -c 'waiting for family' "$WORK/live.log")
	back=$(grep -c 'serving group' "$WORK/live.log")
	ktap_note "fafcd requests: $n1 before rmmod, $n2 after, $n3 after reload; it saw the family go $gone time(s), served it $back time(s)"
	kill -0 "$FAFCD" 2>/dev/null && [ "$n1" -gt 0 ] && [ "$gone" -ge 1 ] &&
		ktap_pass "fafcd solved LPs, and lives through rmmod of fcq" ||
		ktap_fail "fafcd solved LPs, and lives through rmmod of fcq" "$(tail -n 5 "$WORK/live.log")"
	[ "$n3" -gt "$n2" ] && [ "$back" -ge 2 ] &&
		ktap_pass "fafcd answers the switch again after the modules reload" ||
		ktap_fail "fafcd answers the switch again after the modules reload" "$(tail -n 5 "$WORK/live.log")"
	cleanup
fi
rm -rf "$WORK"
ktap_finish
