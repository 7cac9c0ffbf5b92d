#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - the fcq benchmark, guest side (tools/bench boots the guest and
# summarizes). A benchmark, not a test: it reports and asserts nothing.
usage() {
	cat <<'EOF'
usage: selftests/bench/bench.sh [OPTIONS]

Runs in the QEMU guest (as root, fcq loaded; tools/bench does that) and
writes one JSON line per measurement to OUT/raw.jsonl.

  --out DIR         results (default ${FCQ_RESULTS:-/tmp}/bench)
  --parts LIST      comma-separated, in order (default main,ports,flows,pause):
                      main   every qdisc on the four veth ends of h1 -> sw -> h2,
                             bridged and routed: 64-byte UDP packets/s received
                             and TCP goodput (fcq-gen bulk)
                      ports  bridged star of 64 hosts, the qdisc on the first N
                             switch ports (pfifo on the rest), h1 -> h2: pps
                      flows  bridged h1 -> h2, FLOWS UDP source ports: pps
                      pause  pfc incast at 100 Mbit/s, 8 -> 1: pause reaction
                             from fcq:pause_tx/pause_rx (pause_reaction.py)
                      profile  perf record -a -g of TCP through the bridge
                             under each of PROFILE_QDISCS (perf report in OUT)
  --rounds N        interleaved rounds (default 3)
  --secs S          measuring window per point (default 2; 1 s warm-up before)
  --qdiscs LIST     main part (default "pfifo fq_codel fq_codel-mtu pfc
                    fafc ofc flowsail qcn uqcn")
  --ports-qdiscs L  ports part (default "fq_codel pfc fafc ofc flowsail
                    qcn uqcn")
  --flows-qdiscs L  flows part (default "fq_codel pfc pfc-drr fafc ofc
                    flowsail qcn uqcn")
  --ports LIST      switch ports (default "4 64")
  --flows LIST      UDP 5-tuples (default "1 100 1000 10000")
  --profile-qdiscs L  (default "fq_codel pfc fafc ofc")
  -h, --help        this text

Qdiscs (the same on both ends of a link unless said, at a rate that does
not bind):
  pfifo, fq_codel   Linux defaults
  fq_codel-mtu      fq_codel with TSO/GSO off at the hosts (h1, h2): MTU-sized
                    TCP frames end to end, as fcq puts them on its wires
  pfc               pfc rate 400gbit response 0
  pfc-drr           pfc rate 400gbit response 0 sched drr
  fafc              fafc rate 400gbit response 0 thop 250us  (thop auto
                    would be 1 us at 400gbit: a 1 MHz tick; 250 us is
                    profile A's T_hop)
  ofc               ofc rate 400gbit response 0 (a flow table lookup per
                    packet, three queues per class)
  flowsail          flowsail rate 400gbit response 0 flows 16384 (8 queues
                    per class, a flow table that holds 10,000 flows: the
                    flows part's largest point is tracked, not hashed)
                    response 0: the default 200 us of headroom per lossless
                    class is 10 MB at 400gbit, more than the switch's
                    buffer; no shared buffer would be left and every packet
                    would pause its sender (a point where the switch sent
                    pause frames is flagged)
  qcn               switch ports: qcn rate 400gbit response 0 cp egress
                    sample arrival (standard QCN: a CP on each output
                    queue); host NICs: qcnrp rate 400gbit response 0 (the
                    reaction points). Bridged only: QCN is an L2 protocol,
                    the main part skips it on the routed path
  uqcn              switch ports: qcn rate 400gbit response 0 cp ingress
                    sample occupancy_rand (Unbiased QCN: a CP on each
                    input, its buffer units tracked per frame); host NICs
                    as qcn. Bridged only
EOF
}

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${FCQ_RESULTS:-/tmp}/bench
PARTS=main,ports,flows,pause
ROUNDS=3
SECS=2
QDISCS="pfifo fq_codel fq_codel-mtu pfc fafc ofc flowsail qcn uqcn"
PORTS_QDISCS="fq_codel pfc fafc ofc flowsail qcn uqcn"
FLOWS_QDISCS="fq_codel pfc pfc-drr fafc ofc flowsail qcn uqcn"
PORTS="4 64"
FLOWS="1 100 1000 10000"
PROFILE_QDISCS="fq_codel pfc fafc ofc"
while [ $# -gt 0 ]; do
	case "$1" in
	--out) OUT=$2; shift ;;
	--parts) PARTS=$2; shift ;;
	--rounds) ROUNDS=$2; shift ;;
	--secs) SECS=$2; shift ;;
	--qdiscs) QDISCS=$2; shift ;;
	--ports-qdiscs) PORTS_QDISCS=$2; shift ;;
	--flows-qdiscs) FLOWS_QDISCS=$2; shift ;;
	--ports) PORTS=$2; shift ;;
	--flows) FLOWS=$2; shift ;;
	--profile-qdiscs) PROFILE_QDISCS=$2; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done

. "$HERE/../lib/net.sh"
BLAST=${FCQ_BLAST:-$FCQ_TOP/build/bench/fcq-blast}
mkdir -p "$OUT"
RAW=$OUT/raw.jsonl
: >"$RAW"
TR=/sys/kernel/tracing

say() { echo "bench: $*" >&2; }

# The tc arguments of a qdisc name on the switch's ports.
qspec() {
	case "$1" in
	pfifo) echo pfifo ;;
	fq_codel | fq_codel-mtu) echo fq_codel ;;
	pfc) echo pfc rate 400gbit response 0 ;;
	pfc-drr) echo pfc rate 400gbit response 0 sched drr ;;
	fafc) echo fafc rate 400gbit response 0 thop 250us ;;
	ofc) echo ofc rate 400gbit response 0 ;;
	flowsail) echo flowsail rate 400gbit response 0 flows 16384 ;;
	qcn) echo qcn rate 400gbit response 0 cp egress sample arrival ;;
	uqcn) echo qcn rate 400gbit response 0 cp ingress sample occupancy_rand ;;
	*) say "unknown qdisc $1"; return 1 ;;
	esac
}

# ... and on the hosts' NICs: the reaction points of QCN's congestion points.
hspec() {
	case "$1" in
	qcn | uqcn) echo qcnrp rate 400gbit response 0 ;;
	*) qspec "$1" ;;
	esac
}

# A qdisc whose hosts run a reaction point is bridged only: the
# notifications go to the source MAC of a frame, which a router rewrites.
l2_only() {
	[ "$(hspec "$1")" != "$(qspec "$1")" ]
}

# record PART KEY=VALUE...: one JSON line (values numeric unless quoted).
record() {
	local part=$1 kv line
	shift
	line="{\"part\":\"$part\""
	for kv in "$@"; do
		line="$line,\"${kv%%=*}\":${kv#*=}"
	done
	echo "$line}" >>"$RAW"
}

mac_of() { nsx "$1" cat "/sys/class/net/$2/address"; }

# Control frames (PFC, fcq, QCN's CNMs) the switch's ports have sent, ever.
# Not nsx: it runs inside $(pps ...).
ctrl_sent() {
	ip netns exec sw tc -j -s qdisc show |
		gojq '[.[] | .ctrl_tx // 0] | add // 0'
}

# pps SRC_HOST DST_HOST DST_MAC [FLOWS]: 64-byte UDP frames received per s,
# and the control frames the switch sent meanwhile (0 unless a pause or a
# CNM: then the point measured flow control, not forwarding).
pps() {
	local s=$1 d=$2 mac=$3 flows=${4:-1} sink out c0
	out=$(mktemp)
	c0=$(ctrl_sent)
	nsx "h-$d" "$BLAST" sink -w 1 -T "$SECS" >"$out" &
	sink=$!
	sleep 0.2
	# Not nsx: in $(pps ...) it would exec and end this function.
	ip netns exec "h-$s" "$BLAST" send -i "$s-eth" -m "$mac" \
		-s "$(addr "$s")" -d "$(addr "$d")" -f "$flows" \
		-T "$(awk -v s="$SECS" 'BEGIN { print s + 1.5 }')" >/dev/null
	wait $sink
	echo "$(gojq .pps "$out") $(($(ctrl_sent) - c0))"
	rm -f "$out"
}

# A point during which the switch paused or notified someone is flagged.
check_ctrl() {
	[ "$1" = 0 ] ||
		say "warning: $2: the switch sent $1 control frames (pauses, CNMs) during the point"
}

# goodput SRC_HOST DST_HOST: TCP Mbit/s acknowledged after a 1 s warm-up.
goodput() {
	local s=$1 d=$2
	nsx "h-$s" fcq-gen bulk -i 0.5 "$(addr "$d")" "$(awk -v s="$SECS" 'BEGIN { print s + 1 }')" |
		gojq -s 'map(select(.t >= 0.99)) |
			if length < 2 then 0 else
			(.[-1].acked - .[0].acked) * 8 / ((.[-1].ns - .[0].ns) / 1e9) / 1e6
			end | . * 10 | round / 10'
}

# offloads QDISC HOSTS...: TSO/GSO off at the hosts for "-mtu" variants
# (offloads fq_codel-mtu ...: ${q%-mtu} differs from $q), else on.
offloads() {
	local onoff=on h
	[ "$1" = fq_codel ] && [ "$q" = fq_codel-mtu ] && onoff=off
	shift
	for h in "$@"; do
		nsx "h-$h" ethtool -K "$h-eth" tso $onoff gso $onoff >/dev/null 2>&1
	done
}

# The next-hop MAC of h1's traffic to h2.
nexthop_mac() {
	if [ "$NET_MODE" = bridge ]; then
		mac_of "h-$2" "$2-eth"
	else
		mac_of sw "sw-$1"
	fi
}

warm_path() {
	nsx "h-$1" ping -q -c 2 -i 0.2 -W 2 "$(addr "$2")" >/dev/null ||
		say "ping $1 -> $2 failed"
}

part_main() {
	local topo r q p c g mac
	for topo in bridge routed; do
		star "$topo" h1 h2
		serve h2
		warm_path h1 h2
		mac=$(nexthop_mac h1 h2)
		for r in $(seq "$ROUNDS"); do
			for q in $QDISCS; do
				if [ "$topo" = routed ] && l2_only "$q"; then
					[ "$r" = 1 ] && say "main routed $q: skipped (L2 only)"
					continue
				fi
				# shellcheck disable=SC2046
				qdisc_all $(qspec "$q") -- $(hspec "$q") || return 1
				offloads "${q%-mtu}" h1 h2
				warm_path h1 h2
				read -r p c <<<"$(pps h1 h2 "$mac")"
				check_ctrl "$c" "main $topo $q"
				g=$(goodput h1 h2)
				say "main $topo round $r/$ROUNDS $q: $p pps, $g Mbit/s"
				record main "topo=\"$topo\"" "qdisc=\"$q\"" "round=$r" \
					"pps=$p" "mbit=$g" "ctrl=$c"
			done
		done
		cleanup
	done
}

# ports_apply Q N: Q on sw-p1..sw-pN, pfifo on the other switch ports, Q on
# the active hosts' ends (p1, p2).
ports_apply() {
	local q=$1 n=$2 k spec host
	spec=$(qspec "$q")
	host=$(hspec "$q")
	for k in $(seq 64); do
		if [ "$k" -le "$n" ]; then
			echo "qdisc replace dev sw-p$k root $spec"
		else
			echo "qdisc replace dev sw-p$k root pfifo"
		fi
	done | nsx sw tc -batch - || return 1
	# shellcheck disable=SC2086
	nsx h-p1 tc qdisc replace dev p1-eth root $host &&
		nsx h-p2 tc qdisc replace dev p2-eth root $host
}

part_ports() {
	local hosts=() k r n q p c mac
	for k in $(seq 64); do hosts+=("p$k"); done
	say "ports: building a bridged star of 64 hosts"
	star bridge "${hosts[@]}"
	mac=$(mac_of h-p2 p2-eth)
	for r in $(seq "$ROUNDS"); do
		for n in $PORTS; do
			for q in $PORTS_QDISCS; do
				ports_apply "$q" "$n" || return 1
				warm_path p1 p2
				read -r p c <<<"$(pps p1 p2 "$mac")"
				check_ctrl "$c" "ports $n $q"
				say "ports $n round $r/$ROUNDS $q: $p pps"
				record ports "qdisc=\"$q\"" "ports=$n" "round=$r" "pps=$p" \
					"ctrl=$c"
			done
		done
	done
	cleanup
}

part_flows() {
	local r f q p c mac
	star bridge h1 h2
	warm_path h1 h2
	mac=$(nexthop_mac h1 h2)
	for r in $(seq "$ROUNDS"); do
		for f in $FLOWS; do
			for q in $FLOWS_QDISCS; do
				# shellcheck disable=SC2046
				qdisc_all $(qspec "$q") -- $(hspec "$q") || return 1
				warm_path h1 h2
				read -r p c <<<"$(pps h1 h2 "$mac" "$f")"
				check_ctrl "$c" "flows $f $q"
				say "flows $f round $r/$ROUNDS $q: $p pps"
				record flows "qdisc=\"$q\"" "flows=$f" "round=$r" "pps=$p" \
					"ctrl=$c"
			done
		done
	done
	cleanup
}

# As selftests/net/pfc_incast.sh: 8 UDP senders -> r at 100 Mbit/s, 9000-byte
# frames, lossless priority 3; each switch port pauses its sender.
part_pause() {
	local senders="s1 s2 s3 s4 s5 s6 s7 s8" s pairs='' epoch pids=() k
	local burst=2000000 bound
	say "pause: pfc incast 8 -> 1, 100mbit, delay 50us, 3 incasts"
	NET_MTU=9000
	# shellcheck disable=SC2086
	star bridge $senders r
	qdisc_all pfc rate 100mbit delay 50us lossless 3 xoff 50kb xon 40kb \
		response 5ms -- pfc rate 100mbit delay 50us lossless 3 || return 1
	for s in $senders; do warm_path "$s" r; done
	echo 8192 >"$TR/buffer_size_kb"
	echo >"$TR/trace"
	echo 1 >"$TR/events/fcq/pause_tx/enable"
	echo 1 >"$TR/events/fcq/pause_rx/enable"
	serve r -t 0x60
	sleep 0.5
	for k in 1 2 3; do
		epoch=$(epoch_in 1)
		pids=()
		for s in $senders; do
			nsx "h-$s" fcq-gen flows -u -T 30 -t 0x60 -e "$epoch" \
				"$(addr r):$burst" >/dev/null &
			pids+=($!)
		done
		wait "${pids[@]}"
		say "pause: incast $k/3 done"
	done
	sleep 0.5
	echo 0 >"$TR/events/fcq/enable"
	cp "$TR/trace" "$OUT/pause_trace"
	for s in $senders; do pairs="$pairs sw-$s:$s-eth"; done
	# shellcheck disable=SC2086
	"$HERE/../lib/pause_reaction.py" "$OUT/pause_trace" $pairs \
		>"$OUT/pause_reaction.json"
	# PFC frame (84 bytes at 100 Mbit/s) + delay + one 9000-byte MTU frame
	bound=$((6720 + 50000 + (9000 + 14 + 24) * 80))
	record pause "bound_ns=$bound" \
		"reaction=$(gojq -c 'del(.samples)' "$OUT/pause_reaction.json")" \
		"samples=$(gojq -c .samples "$OUT/pause_reaction.json")"
	say "pause: $(gojq -c 'del(.samples)' "$OUT/pause_reaction.json"), bound $bound ns"
	cleanup
	NET_MTU=1500
}

part_profile() {
	local q data=/tmp/perf.data
	command -v perf >/dev/null || { say "profile: no perf"; return 0; }
	star bridge h1 h2
	serve h2
	for q in $PROFILE_QDISCS; do
		# shellcheck disable=SC2046
		qdisc_all $(qspec "$q") -- $(hspec "$q") || return 1
		warm_path h1 h2
		nsx h-h1 fcq-gen bulk -i 1 "$(addr h2)" $((SECS + 2)) >/dev/null &
		sleep 1
		perf record -q -a -g -o "$data" -- sleep "$SECS" 2>/dev/null
		wait $!
		perf report -i "$data" --no-children --stdio --percent-limit 0.5 \
			-g none 2>/dev/null >"$OUT/profile_$q.txt"
		perf report -i "$data" --no-children --stdio --percent-limit 2 \
			-g caller,0.5,callee 2>/dev/null >"$OUT/profile_${q}_graph.txt"
		say "profile $q: $(grep -c '%' "$OUT/profile_$q.txt") symbols" \
			"-> profile_$q.txt"
	done
	cleanup
}

say "kernel $(uname -r), parts $PARTS, $ROUNDS rounds of ${SECS}s"
record meta "kernel=\"$(uname -r)\"" "rounds=$ROUNDS" "secs=$SECS"
for part in ${PARTS//,/ }; do
	t0=$(date +%s)
	"part_$part" || say "part $part failed"
	say "part $part took $(($(date +%s) - t0)) s"
done
