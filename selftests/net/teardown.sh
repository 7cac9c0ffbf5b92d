#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# teardown.sh KIND: KIND's qdiscs (pfc, fafc, ofc or flowsail) deleted and re-added,
# replaced, and a whole switch namespace deleted, while paused traffic flows; rmmod refused
# while in use and clean afterwards; nothing left behind: no switch in the
# generic netlink dump, no slab growth from one round to the next, and
# (fcq's switch cache) no "Slab cache still has objects" warning at rmmod.
# For fafc the switch solves its LPs in fafcd (solver user), which must
# live through the module going away and answer again once it is back.
# For ofc the switch pauses flows, not classes: the senders count keyed
# pause frames, and a deleted port resumes what it held (RESUME ALL); the
# frames s1 receives before the churn, captured, are decoded by tshark
# with the project's dissector (tools/wireshark/fcq.lua), and each is an
# event of `fcqctl monitor` at both ends. flowsail pauses flows too (by
# 5-tuple), and its ports isolate them in their reserved queues.
set -u
# The cases: sched_* is pfc's, fafcd_* fafc's (--help without KIND lists
# all).
KIND=${1:-pfc}
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	genl_dumps_switch
	readd_under_traffic
	replace_still_pauses"
[ "$KIND" != pfc ] || ALL_TESTS+="
	sched_change_no_loss"
ALL_TESTS+="
	delete_under_traffic
	no_switch_left
	no_slab_growth
	rmmod_refused_in_use
	rmmod_once_unused
	modules_load_again"
[ "$KIND" != ofc ] || ALL_TESTS+="
	keyed_frames_decoded
	keyed_frames_are_events
	book_asks_upstream"
[ "$KIND" != fafc ] || ALL_TESTS+="
	fafcd_survives_rmmod
	fafcd_answers_after_reload"
USAGE="pfc|fafc|ofc|flowsail"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run).
sched_change_no_loss is pfc's case only, keyed_frames_* ofc's, fafcd_* fafc's."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 1 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/net.sh"

SENDERS="s1 s2 s3"
TOS=0x60
LINK="rate 100mbit delay 50us lossless 3"
case $KIND in
pfc)	SW="pfc $LINK xoff 20kb xon 10kb response 5ms" ;;
# T_hop 5 ms: fafcd's answers take about 1.5 ms in the guest
fafc)	SW="fafc $LINK response 5ms th_p 40kb th_e 20kb solver user thop 5ms" ;;
ofc)	SW="ofc $LINK xoff 20kb xon 10kb response 5ms" ;;
flowsail) SW="flowsail $LINK response 5ms" ;;
*)	usage >&2; exit 2 ;;
esac
HOST="$KIND $LINK"
# Pause frames a sender received, of either kind
PAUSES='.prio[3].pfc_rx + .kp.rx_pause'

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
	serve r -t "$TOS"
	sleep 0.3
	for s in $SENDERS; do
		nsx "h-$s" fcq-gen flows -u -T 60 -t "$TOS" "$(addr r):1000000000" \
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
# fcqctl's events in namespace $1, JSON lines into $2, until monitors_stop.
MONITORS=()
monitor() {
	nsx "$1" fcqctl -j monitor >"$2" 2>>"$WORK/monitor.err" &
	MONITORS+=($!)
	NET_PIDS+=($!)
}

monitors_stop() {
	[ ${#MONITORS[@]} -gt 0 ] || return 0
	sleep 0.2		# the last events are on their way
	kill "${MONITORS[@]}" 2>/dev/null
	wait "${MONITORS[@]}" 2>/dev/null
	MONITORS=()
}

# ofc: 2 s of the incast, sampling sw-s1's books every 0.1 s or so; BOOK
# is the first sample in which s1 was asked, and told, to hold s1 -> r, or
# the last one. Bounded by the clock, not by a count: under emulation a
# sample (a process in the namespace) may take longer than the 2 s.
book_sample() {
	local want end
	want="\"book\":\"tx\",\"prio\":3,\"key\":\"$(addr s1)>$(addr r)\",\"state\":[\"want\",\"sent\""
	end=$((${EPOCHREALTIME/./} + 2000000))	# us; no process per look
	BOOK=
	while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do
		[[ $BOOK == *"$want"* ]] || BOOK=$(nsx sw fcqctl -j book sw-s1)
		sleep 0.1
	done
}

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
	if [ "$KIND" = ofc ]; then
		monitor sw "$WORK/events-sw.jsonl"
		monitor h-s1 "$WORK/events-s1.jsonl"
		capture h-s1 s1-eth "$WORK/s1.pcapng"
	fi
	incast
	if [ "$KIND" = ofc ]; then
		book_sample
	else
		sleep 2
	fi
	capture_stop
	monitors_stop
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
	PFC_RX=$(xstat h-s1 s1-eth "$PAUSES")

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
	r=$(xstat h-s1 s1-eth "$PAUSES")
	sleep 2
	REPLACE_RX=$(($(xstat h-s1 s1-eth "$PAUSES") - r))

	GONE_OK=1
	for s in $SENDERS; do
		nsx "h-$s" tc qdisc del dev "$s-eth" root || GONE_OK=0
	done
	ip netns del sw || GONE_OK=0
	sleep 0.5
	cleanup
}

# Shared steps, each done once whichever case needs it first (so that
# TESTS= may name any case).

# ofc: what sw sent s1 in the incast's first 2 s (the measured round's),
# decoded: keyed PAUSEs of priority 3 naming the pair s1 -> r, and
# RESUMEs (at these thresholds mostly ALL, which ends the named ones too).
keyed_frames_decoded() {
	local f
	rounds_done
	f=$(tshark -X lua_script:"$FCQ_TOP/tools/wireshark/fcq.lua" \
		-r "$WORK/s1.pcapng" -Y "fcq.type == 2 || fcq.type == 3" -T fields \
		-e fcq.type -e fcq.prio -e fcq.flags.all -e fcq.keys.count \
		-e fcq.keys.src -e fcq.keys.dst 2>/dev/null)
	ktap_note "keyed frames to s1: $(echo "$f" | awk 'NF' | wc -l) (type prio all count src dst, most frequent): $(echo "$f" | sort | uniq -c | sort -rn | head -n 3 | tr '\t\n' ' ;')"
	echo "$f" | awk -F'\t' -v s="$(addr s1)" -v r="$(addr r)" '
		$1 == 2 && $2 == 3 && $4 >= 1 {
			n = split($5, a, ","); split($6, b, ",")
			for (i = 1; i <= n; i++)
				if (a[i] == s && b[i] == r)
					named = 1
		}
		$1 == 3 && $2 == 3 { resumed = 1 }
		END { exit !(named && resumed) }'
	check_err $? "no PAUSE of priority 3 naming $(addr s1) -> $(addr r), or no RESUME"
	log_test "ofc: keyed PAUSEs naming s1 -> r and RESUMEs, decoded by tools/wireshark/fcq.lua"
}

# ofc: the frames keyed_frames_decoded read, as fcqctl monitor saw them:
# each is a keys_tx event of sw-s1 and a keys_rx event of s1-eth with its
# sequence number, type, ALL flag and key count.
keyed_frames_are_events() {
	local wire ev dev f side n miss
	rounds_done
	wire=$(tshark -X lua_script:"$FCQ_TOP/tools/wireshark/fcq.lua" \
		-r "$WORK/s1.pcapng" -Y "fcq.type == 2 || fcq.type == 3" -T fields \
		-e fcq.seq -e fcq.type -e fcq.flags.all -e fcq.keys.count 2>/dev/null |
		awk -F'\t' 'NF {
			all = ($3 == "1" || $3 == "True") ? "true" : "false"
			print $1, ($2 == 2 ? "pause" : "resume"), all, $4 }' | sort)
	n=$(echo "$wire" | awk 'NF' | wc -l)
	for side in keys_tx:sw-s1:sw keys_rx:s1-eth:s1; do
		IFS=: read -r ev dev f <<<"$side"
		miss=$(comm -23 <(echo "$wire") <(gojq -r --arg e "$ev" --arg d "$dev" '
			select(.event == $e and .dev == $d) |
			"\(.seq) \(.frame) \(.all) \(.keys)"' \
			"$WORK/events-$f.jsonl" | sort) | awk 'NF' | wc -l)
		ktap_note "$ev on $dev: $(gojq -c --arg e "$ev" --arg d "$dev" 'select(.event == $e and .dev == $d)' "$WORK/events-$f.jsonl" | wc -l) events (the capture began later), $miss of the $n frames captured not among them; the first: $(gojq -c --arg e "$ev" --arg d "$dev" 'select(.event == $e and .dev == $d)' "$WORK/events-$f.jsonl" | head -n 1)"
		[ "$n" -gt 0 ] && [ "$miss" = 0 ]
		check_err $? "$ev on $dev: $miss of $n frames missing$(sed 's/^/; /' "$WORK/monitor.err" 2>/dev/null | tr -d '\n')"
	done
	log_test "ofc: every keyed frame is a keys_tx event at sw and a keys_rx event at s1 (fcqctl monitor)"
}

# ofc: under the incast sw-s1's TX book asks s1 to hold s1 -> r (wanted,
# and sent), as fcqctl book shows it.
book_asks_upstream() {
	local e
	rounds_done
	e=$(echo "$BOOK" | gojq -c --arg k "$(addr s1)>$(addr r)" \
		'[.[] | select(.book == "tx" and .prio == 3 and .key == $k) | .state]' 2>/dev/null)
	ktap_note "sw-s1's book (a sample): $(echo "$BOOK" | head -c 400)"
	echo "$e" | gojq -e 'length == 1 and (.[0] | index("want") and index("sent"))' >/dev/null
	check_err $? "s1 -> r in the TX book: ${e:-none}"
	log_test "ofc: fcqctl book shows the switch asking s1 to hold s1 -> r"
}

# Two rounds: a warm-up, then the one the cases judge. SLAB_BEFORE and
# SLAB_AFTER: slab objects, settled, after each.
rounds_done() {
	local d0
	[ -z "${ROUNDS:-}" ] || return 0
	round			# warm-up: caches and per-netns state reach steady size
	SLAB_BEFORE=$(settled_slabs)
	d0=$(slab_detail)
	round
	SLAB_AFTER=$(settled_slabs)
	ROUNDS=1
	ktap_note "slab objects after the warm-up round: $d0"
	ktap_note "slab objects after the measured round: $(slab_detail)"
}

# Every fcq module loaded now (tdc or other suites may have loaded more):
# fcq's users, then fcq.
fcq_modules() {
	lsmod | awk '$1 == "fcq" && NF == 4 { gsub(",", "\n", $4); print $4 }'
	echo fcq
}

# All of them removed, once: MODS which, RMMOD_RC how it went.
modules_removed() {
	[ -z "${MODS:-}" ] || return 0
	MODS=$(fcq_modules | tr '\n' ' ')
	# shellcheck disable=SC2086
	rmmod $MODS
	RMMOD_RC=$?
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
	gojq '.requests' "$WORK/live.json"
}

# fafcd across the modules' unload and reload, under traffic: it must
# notice, wait, and answer the new switch's LPs. Sets N1 N2 N3 (its
# requests before rmmod, after, after reload), GONE and BACK (how often
# its log saw the family go and served it), ALIVE, LIVE_TAIL (its log's
# end).
fafcd_reloaded() {
	local s
	[ -z "${LIVE_TAIL+set}" ] || return 0
	fafc_traffic
	sleep 2
	N1=$(fafcd_requests)
	for s in $SENDERS r; do
		nsx sw tc qdisc del dev "sw-$s" root
		nsx "$(hns "$s")" tc qdisc del dev "$s-eth" root
	done
	# shellcheck disable=SC2046
	rmmod $(fcq_modules)
	sleep 1
	N2=$(fafcd_requests)
	modprobe -q sch_fafc
	# shellcheck disable=SC2086
	qdisc_all $SW -- $HOST
	sleep 3
	N3=$(fafcd_requests)
	GONE=$(grep -c 'waiting for family' "$WORK/live.log")
	BACK=$(grep -c 'serving group' "$WORK/live.log")
	ktap_note "fafcd requests: $N1 before rmmod, $N2 after, $N3 after reload; it saw the family go $GONE time(s), served it $BACK time(s)"
	kill -0 "$FAFCD" 2>/dev/null
	ALIVE=$((!$?))
	LIVE_TAIL=$(tail -n 5 "$WORK/live.log")
	cleanup
}

genl_dumps_switch() {
	local ports buffered
	rounds_done
	ports=$(echo "$DUMP" | gojq '.[0].ports | length')
	buffered=$(echo "$DUMP" | gojq '.[0].used_max')
	ktap_note "fcqctl during traffic: $(echo "$DUMP" | gojq -c '.[0] | {switch, used, used_max, ports: (.ports | length)}')"
	[ "$ports" = 4 ] && [ "$buffered" -gt 0 ]
	check_err $? "$DUMP"
	log_test "generic netlink dumps the switch, its 4 ports and their buffers"
}

readd_under_traffic() {
	rounds_done
	ktap_note "pause frames s1 received in the round: $PFC_RX"
	[ "$CHURN_OK" = 1 ] && [ "$PFC_RX" -gt 0 ]
	check_err $? "tc commands all ok: $CHURN_OK; pause frames at s1: $PFC_RX"
	log_test "switch qdiscs deleted and re-added 3 times under paused traffic"
}

replace_still_pauses() {
	rounds_done
	ktap_note "pause frames s1 received in the 2 s after its switch port's qdisc was replaced twice: $REPLACE_RX"
	[ "$REPLACE_OK" = 1 ] && [ "$REPLACE_RX" -gt 0 ]
	check_err $? "tc commands all ok: $REPLACE_OK; pause frames at s1: $REPLACE_RX"
	log_test "switch qdiscs replaced under paused traffic still pause their senders"
}

sched_change_no_loss() {
	rounds_done
	ktap_note "sched drr/fifo on sw-r under traffic: $SCHED_NOTE"
	[ "$SCHED_OK" = 1 ]
	check_err $? "$SCHED_NOTE"
	log_test "sched changed fifo <-> drr 4 times with packets queued, none lost"
}

delete_under_traffic() {
	rounds_done
	[ "$GONE_OK" = 1 ]
	check_err $? "a tc qdisc del or ip netns del failed"
	log_test "host qdiscs and the switch namespace deleted under traffic"
}

no_switch_left() {
	local left
	rounds_done
	left=$(fcqctl -j switch)
	[ "$left" = "[]" ]
	check_err $? "$left"
	log_test "no switch left after teardown"
}

# Per-CPU skb caches and other subsystems make these counts move by ~100
# between rounds; a leak of one skb per PFC frame (thousands per round) or
# per data packet (tens of thousands) would be far above the margin.
no_slab_growth() {
	rounds_done
	[ $((SLAB_AFTER - SLAB_BEFORE)) -lt 256 ]
	check_err $? "$SLAB_BEFORE -> $SLAB_AFTER objects"
	log_test "no slab growth over a round ($((SLAB_AFTER - SLAB_BEFORE)) objects)"
}

# rmmod: refused while a qdisc uses the module, clean once none does.
rmmod_refused_in_use() {
	ip link add fcq-busy type dummy
	tc qdisc add dev fcq-busy root "$KIND"
	rmmod "sch_$KIND" 2>/dev/null
	check_fail $? "sch_$KIND was removed while fcq-busy's qdisc used it"
	ip link del fcq-busy
	log_test "rmmod is refused while a qdisc uses the module"
}

rmmod_once_unused() {
	modules_removed
	check_err "$RMMOD_RC" "rmmod exited with $RMMOD_RC"
	log_test "rmmod ${MODS}once unused"
}

modules_load_again() {
	modules_removed
	modprobe -q "sch_$KIND"
	tc qdisc add dev lo root "$KIND" 2>/dev/null	# (refused: not Ethernet)
	lsmod | grep -q "^sch_$KIND"
	check_err $? "sch_$KIND is not loaded"
	log_test "modules load again after rmmod"
}

fafcd_survives_rmmod() {
	fafcd_reloaded
	[ "$ALIVE" = 1 ] && [ "$N1" -gt 0 ] && [ "$GONE" -ge 1 ]
	check_err $? "$LIVE_TAIL"
	log_test "fafcd solved LPs, and lives through rmmod of fcq"
}

fafcd_answers_after_reload() {
	fafcd_reloaded
	[ "$N3" -gt "$N2" ] && [ "$BACK" -ge 2 ]
	check_err $? "$LIVE_TAIL"
	log_test "fafcd answers the switch again after the modules reload"
}

tests_plan
WORK=$(mktemp -d)
tests_run
rm -rf "$WORK"
ktap_finish
