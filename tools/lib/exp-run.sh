# SPDX-License-Identifier: GPL-2.0
#
# exp-run.sh: one run of an experiment (one scheme with one seed), on this
# machine, as root, with fcq loaded. Sourced by `tools/fcq-exp --native
# --run I:SEED` once it has read the experiment file; writes into $out:
#
#   scheme, seed          the run's scheme name and seed
#   topology.txt, net.txt the fabric (HPCC format; fcq-net's description)
#   flow.txt              the flows replayed (HPCC format)
#   fct.txt               HPCC's fct.txt, one line per completed flow
#   lag.txt               per flow started: src dst size start_ns lag_ns
#                         standalone_ns (fcq-gen run -L; real ns)
#   incomplete.txt        flows not done after the drain time
#   reordered.txt         UDP flows that arrived out of order: src dst size
#                         start_ns reorders (datagrams that came below the
#                         highest offset before them, as the sink counted)
#   errors.txt            anything else a generator said: a failed run
#   stats.json            every port's qdisc (tc -s -j) and link counters
#   paced-NAME.json       a paced stream's sender line (fcq-gen paced)
#   sinks.jsonl           what the sinks said of the paced streams
#   summary.json          counts, start lags, CPU idle, the paced streams
#                         (and per phase, their rates and shares), the
#                         deepest switch queue and the incast receiver's,
#                         the verdict
#   progress              one line per step, for the runner that waits
#   trace.txt             the events the experiment's `trace` names, from
#                         before the epoch until the generators end
#   pfc.txt               with `pfc_trace on`: HPCC's pfc.txt, a line per
#                         class a received PFC or PAUSE frame paused or
#                         resumed (tools/lib/hpcc-traces.awk)
#   qlen.txt              with `qlen_trace`: HPCC's qlen.txt, every switch
#                         port's queue sampled on the flows' clock
#
# Exit status: 0 done; 1 failed (a message says why); 3 done, but the
# times cannot be trusted (summary.json "untrusted" says why).

# The tools and tc plugins of the tree (fcq-exp's TOP), or those installed.
PATH=$BIN:$PATH
[ -z "$TOP" ] || export TC_LIB_DIR=${TC_LIB_DIR:-$TOP/build/tc}

# What one guest core emulates, in frames crossing one link per second:
# ~25,000 frames/s through host -> switch -> host, two links each
# (Documentation/performance.rst, icount shift 1). An estimate above it is
# refused, above half of it warned about.
CAPACITY=50000
# A run is not trusted when more than 2 % of its flows started later than
# their own standalone FCT (the lag alone would double their slowdown; a
# single one among 50 or more is warned about: a host that was slow to
# schedule the guest once), or when the CPU was idle less than 5 % of the
# time.
LATE_SHARE=0.02
IDLE_MIN=0.05
# Nor when a port lost more than 2 % of the traffic's time to host stalls
# (tx_lag_ns: the guest was not run in time and its serializer could not
# catch up); warned about above 0.5 %. A bottleneck's flows take as much
# longer whatever the scheme (Documentation/fafc.rst, Experiment E1).
LOST_SHARE=0.02
LOST_WARN=0.005

idx=${only%%:*} seed=${only#*:}
[ "$idx" -le ${#schemes[@]} ] ||
	die "--run $only: the experiment has ${#schemes[@]} scheme(s)"
spec=${schemes[$idx - 1]}
sname=$(scheme_name "$idx")
# "%s" in the qdiscs' options: the seed (each seed its own "seed %s")
swq=$(echo "$spec" | cut -d'|' -f2 | xargs)
swq=${swq//%s/$seed}
hostq=$(echo "$spec" | cut -d'|' -f3 | xargs)
hostq=${hostq//%s/$seed}
dir=$out
tag="[$sname seed $seed]"
rm -f "$dir"/{scheme,seed,topology.txt,net.txt,flow.txt,fct.txt,lag.txt} \
	"$dir"/{incomplete.txt,reordered.txt,errors.txt,stats.json,summary.json,progress,trace.txt} \
	"$dir"/{pfc.txt,qlen.txt}
rm -f "$dir"/victim-*.jsonl "$dir"/paced-*.json "$dir/sinks.jsonl"
echo "$sname" >"$dir/scheme"
echo "$seed" >"$dir/seed"
run_t0=$(date +%s)
progress() {
	echo "$*" >>"$dir/progress"
	say "$tag [$(($(date +%s) - run_t0))s] $*"
}
fail() { progress "FAILED: $*"; die "$tag $*"; }

# The machine-wide tuning a run needs (sysctls, ksoftirqd's priority) is
# undone as it ends (tune.sh): a UDP sender with this run's send buffer
# would no longer block behind a lossless port, and overflow it.
# shellcheck source=tools/lib/tune.sh
. "$LIB/tune.sh"

servers=() gens=() rdv=''

# The tracepoints `trace` names, and those pfc.txt and qlen.txt are made of.
events=("${traces[@]}")
[ "$pfc_trace" = off ] || events+=(fcq:pause_rx)
[ -z "$qlen_trace" ] || events+=(fcq:qlen)
. "$LIB/trace.sh"
cleanup() {
	[ ${#gens[@]} = 0 ] || kill "${gens[@]}" 2>/dev/null
	[ ${#servers[@]} = 0 ] || kill "${servers[@]}" 2>/dev/null
	wait 2>/dev/null
	[ -z "$rdv" ] || rm -rf "$rdv"
	trace_off
	trace_restore
	fcq-net down
	untune
}
trap cleanup EXIT

# ---- the fabric and the flows ----------------------------------------------
case "$topology" in
star:* | dumbbell:* | leafspine:* | ring:*)
	fcq-net gen "$topology" -r "$rate" -d "$delay" ${uplink:+-R "$uplink"} \
		>"$dir/topology.txt" || fail "bad topology \"$topology\""
	;;
*) cp "$(relative "${topology//%s/$seed}")" "$dir/topology.txt" ||
	fail "no topology file ${topology//%s/$seed}" ;;
esac
bridge_opt=
[ "$bridge" = yes ] && bridge_opt=-b
progress "building $topology ($(head -n 1 "$dir/topology.txt" |
	awk '{ print $1 - $2 " hosts, " $2 " switches, " $3 " links" }'))"
fcq-net up "$dir/topology.txt" -o "$dir" -S "$swq" -H "$hostq" -k "$scale" \
	-m "$mtu" $bridge_opt || fail "fcq-net up failed"

if [ -n "$flowfile" ]; then
	# "%s" in the name: the seed's own flows
	cp "$(relative "${flowfile//%s/$seed}")" "$dir/flow.txt" ||
		fail "no flows file ${flowfile//%s/$seed}"
elif [ -n "$burst" ]; then
	read -r bpackets bshift <<<"$burst"
	fcq-gen burst -n "$dir/net.txt" -m "$bpackets" -k "$bshift" -s "$seed" \
		-g "$prio" >"$dir/flow.txt" || fail "fcq-gen burst failed"
else
	fcq-gen workload -n "$dir/net.txt" -w "$cdf" -l "$load" \
		-d "$duration" -s "$seed" -g "$prio" \
		${incast:+-i "$(echo "$incast" | tr ' ' ':')"} \
		>"$dir/flow.txt" || fail "fcq-gen workload failed"
fi
total=$(awk 'NF { print $1; exit }' "$dir/flow.txt")

# ---- can the guest emulate it? -------------------------------------------------
# Frames crossing a link per second: per flow, its data frames and about
# half as many ACKs (plus 5 for the handshake and close), times the links
# of its path; a victim's at its path's bottleneck rate for its seconds;
# over the time the flows need: the span of their scaled start times, or
# the busiest host's bytes at its link rate, or the longest victim or
# paced stream if longer, and at least a second (a shorter burst is
# queued, not a sustained rate).
read -r need span <<<"$(awk -v k="$scale" -v mtu="$mtu" -v n="$total" '
	FNR == 1 && FILENAME ~ /flow.txt$/ { next }
	FILENAME ~ /net.txt$/ {
		if ($1 == "host") rate[$2] = $6
		if ($1 == "rtt") {
			links[$2 " " $3] = NF >= 6 ? $6 : 2
			bneck[$2 " " $3] = $5
		}
		next
	}
	++c <= n {
		d = int(($5 + mtu - 53) / (mtu - 52))
		fh += (1.5 * d + 5) * links[$1 " " $2]
		sent[$1] += $5; rcvd[$2] += $5
		if (c == 1) first = $6
		last = $6
	}
	# paced streams: NAME SRC DST RATE START BYTES [SECONDS], datagrams
	# alone, no more than RATE sends in SECONDS
	paced {
		r = $4; u = r; sub(/^[0-9.]+/, "", r); sub(/[A-Za-z]+$/, "", u)
		m = r == "Gbps" ? 1e9 : r == "Mbps" ? 1e6 : r == "Kbps" ? 1e3 : 1
		b = $6
		if ($7 != "" && $7 * u * m / 8 < b) b = $7 * u * m / 8
		d = int((b + mtu - 45) / (mtu - 44))
		fh += d * links[$2 " " $3]
		if (b * 8 / (u * m) > pt) pt = b * 8 / (u * m)
	}
	# victims: NAME SRC DST SECONDS, full frames and their ACKs
	victim {
		fh += $4 * bneck[$2 " " $3] / mtu * 1.5 * links[$2 " " $3]
		if ($4 > pt) pt = $4
	}
	END {
		t = (last - first) * k
		if (pt > t) t = pt
		for (h in sent) if (sent[h] / rate[h] > t) t = sent[h] / rate[h]
		for (h in rcvd) if (rcvd[h] / rate[h] > t) t = rcvd[h] / rate[h]
		if (t < 1) t = 1
		printf "%.0f %.3f\n", fh / t, t
	}' "$dir/net.txt" "$dir/flow.txt" paced=1 <(printf '%s\n' "${paceds[@]}") \
	paced=0 victim=1 <(printf '%s\n' "${victims[@]}"))"
[ -n "$span" ] || fail "could not estimate the run's frame rate"
share=$(awk -v a="$need" -v c=$CAPACITY 'BEGIN { printf "%.2f", a / c }')
suggest=$(awk -v a="$need" -v c=$CAPACITY -v k="$scale" \
	'BEGIN { s = k * a / (c / 2); printf "%g", s < k ? k : s }')
progress "$total flows over ${span}s: ~$need frames/s across links, $share of what one guest core emulates ($CAPACITY)"
if [ -n "${FCQ_KERNEL:-}" ]; then	# in the fcq guest
	if awk -v s="$share" 'BEGIN { exit !(s > 1) }'; then
		msg="the guest cannot emulate this run: it needs ~$need frames/s across links, ${share}x its capacity; raise scale to ~$suggest (or lower rate or load)"
		[ $force = 1 ] || fail "$msg; --force runs it anyway"
		say "$tag WARNING: $msg (run anyway: --force)"
	elif awk -v s="$share" 'BEGIN { exit !(s > 0.5) }'; then
		say "$tag WARNING: the run needs ${share}x of the guest's capacity: expect CPU-bound timings; scale ~$suggest would halve it"
	fi
fi

# ---- sinks, then every generator on one clock -----------------------------------
# Global tuning: our links deliver bursts after late timer wake-ups, and the
# switches' data path must not queue behind the hosts' programs.
tune net.core.netdev_max_backlog=10000
# A frame counts against its socket until its host's port puts it on the
# wire (fcq/link.c): a UDP sender's bytes queued there count against its
# send buffer (wmem_default, 208 kB). sndbuf raises it for the UDP senders
# of an experiment whose hosts hold much while paused; TCP sizes its own
# (tcp_wmem).
if [ -n "$sndbuf" ]; then
	tune net.core.wmem_max="$sndbuf" net.core.wmem_default="$sndbuf"
fi
tune_ksoftirqd -20

mapfile -t hosts < <(awk '$1 == "host" { print $2, $3 }' "$dir/net.txt")
nh=${#hosts[@]}
# One inotify instance per generator (fcq-gen run -R): 128 by default.
[ "$(sysctl -n fs.inotify.max_user_instances)" -ge $((nh + 128)) ] ||
	tune fs.inotify.max_user_instances=$((nh + 128))
rdv=$(mktemp -d /run/fcq-exp-rdv.XXXXXX)
# For pfc.txt and qlen.txt: each namespace's inode number (the events'
# netns), its node id and type; the switch ports, in HPCC's order.
if [ ${#events[@]} -gt 0 ]; then
	awk '$1 == "host" || $1 == "switch" { print $3, $2, $1 == "switch" }' \
		"$dir/net.txt" | while read -r ns id sw; do
		echo "$(stat -L -c %i "/run/netns/$ns") $id $sw"
	done >"$rdv/nodes"
	awk 'FNR == NR { if ($1 == "switch") sw[$3] = $2; next }
		$1 == "port" && ($2 in sw) { d = $3; sub(/^p/, "", d)
			print "port", sw[$2], $3, d }' "$dir/net.txt" "$dir/net.txt" |
		sort -k2,2n -k4,4n | cut -d' ' -f1-3 >>"$rdv/nodes"
fi
progress "starting $nh sinks"
for h in "${hosts[@]}"; do
	# The sink runs the same congestion control: a DCTCP sender only
	# gets ECN from a DCTCP (ECN-requiring) listener. Its stdout: a line
	# per paced stream.
	ip netns exec "${h#* }" fcq-gen server -p 100,200 -t $((prio << 5)) \
		${cc:+-c "$cc"} >"$rdv/sink.h${h%% *}" &
	servers+=($!)
done
# Every host reaches host 0 (bridges forward, paths are up).
ip0=$(awk '$1 == "host" { print $5; exit }' "$dir/net.txt")
for h in "${hosts[@]}"; do
	for try in $(seq 20); do
		ip netns exec "${h#* }" ping -q -c 1 -W 1 "$ip0" >/dev/null 2>&1 && break
		[ "$try" -lt 20 ] || fail "host ${h%% *} cannot reach $ip0"
	done
done

run_opts=(-k "$scale" -T "$drain")
[ "$transport" = udp ] && run_opts+=(-u)
[ -n "$cc" ] && run_opts+=(-c "$cc")
progress "starting $nh generators"
for h in "${hosts[@]}"; do
	id=${h%% *}
	ip netns exec "${h#* }" fcq-gen run -n "$dir/net.txt" -f "$dir/flow.txt" \
		-s "$id" -R "$rdv" -L "$rdv/lag.h$id" "${run_opts[@]}" \
		>"$rdv/fct.h$id" 2>"$rdv/err.h$id" &
	gens+=($!)
done
# Every generator has read its flows and waits: only now is the epoch set,
# however long starting them took.
t=0
while :; do
	ready=0
	[ -f "$rdv/ready" ] && ready=$(wc -l <"$rdv/ready")
	[ "$ready" -lt "$nh" ] || break
	for g in "${gens[@]}"; do
		kill -0 "$g" 2>/dev/null && continue
		fail "a generator quit before the start: $(cat "$rdv"/err.h* | head -n 3)"
	done
	t=$((t + 1))
	[ $t -lt 3000 ] || fail "only $ready of $nh generators ready after 600 s"
	[ $((t % 50)) != 0 ] || progress "generators ready: $ready/$nh"
	sleep 0.2
done
# Half a second, and 5 ms a host: waking 320 waiting generators at once
# took a guest core over 0.7 s (HPCC's fat.txt).
# Paced streams may start before the flows (a negative START): the flows'
# epoch is then that much later.
lead=0
for p in "${paceds[@]}"; do
	read -r _ _ _ _ pstart _ <<<"$p"
	lead=$(awk -v l="$lead" -v s="$pstart" 'BEGIN { print (-s > l ? -s : l) }')
done
trace_on
epoch=$(awk -v n="$(fcq-gen now)" -v h="$nh" -v l="$lead" 'BEGIN { printf "%.0f\n", n + 0.5e9 + h * 5e6 + l * 1e9 }')
echo "$epoch" >"$rdv/epoch.tmp" && mv "$rdv/epoch.tmp" "$rdv/epoch"
cpu0=$(head -n 1 /proc/stat)
t0=$(date +%s)
progress "all $nh generators ready; $total flows from the epoch"

for v in "${victims[@]}"; do
	# victim NAME SRC DST SECONDS: a bulk TCP flow from the epoch on
	read -r vname vsrc vdst vsecs <<<"$v"
	ns=$(awk -v h="$vsrc" '$1 == "host" && $2 == h { print $3 }' "$dir/net.txt")
	vip=$(awk -v h="$vdst" '$1 == "host" && $2 == h { print $5 }' "$dir/net.txt")
	[ -n "$ns" ] && [ -n "$vip" ] || fail "victim $vname: no host $vsrc or $vdst"
	(sleep "$(awk -v e="$epoch" -v n="$(fcq-gen now)" \
		'BEGIN { d = (e - n) / 1e9; printf "%.3f", (d > 0 ? d : 0) }')"
	 exec ip netns exec "$ns" fcq-gen bulk -p 100 -t $((prio << 5)) -i 0.1 \
		"$vip" "$vsecs" >"$dir/victim-$vname.jsonl") &
	gens+=($!)
done
for p in "${paceds[@]}"; do
	# paced NAME SRC DST RATE START BYTES [SECONDS]: UDP at RATE from
	# epoch + START, for SECONDS at most
	read -r pname psrc pdst prate pstart pbytes psecs <<<"$p"
	ns=$(awk -v h="$psrc" '$1 == "host" && $2 == h { print $3 }' "$dir/net.txt")
	pip=$(awk -v h="$pdst" '$1 == "host" && $2 == h { print $5 }' "$dir/net.txt")
	[ -n "$ns" ] && [ -n "$pip" ] || fail "paced $pname: no host $psrc or $pdst"
	ip netns exec "$ns" fcq-gen paced -p 100 -t $((prio << 5)) \
		${psecs:+-d "$psecs"} -e "$(awk -v e="$epoch" -v s="$pstart" 'BEGIN { printf "%.0f", e + s * 1e9 }')" \
		"$pip" "$prate" 0 "$pbytes" >"$dir/paced-$pname.json" &
	gens+=($!)
done

# ---- wait, saying how far it is -------------------------------------------------
last_start=$(awk -v k="$scale" -v n="$total" 'NR == 1 { next }
	NR == 2 { f = $6 } NR == n + 1 { printf "%.0f", ($6 - f) * k; exit }' \
	"$dir/flow.txt")
ticks=0
while sleep 2; do
	alive=0
	for g in "${gens[@]}"; do kill -0 "$g" 2>/dev/null && alive=1; done
	[ $alive = 1 ] || break
	el=$(($(date +%s) - t0))
	done_n=$(cat "$rdv"/fct.h* | wc -l)
	if [ "$el" -lt "${last_start:-0}" ]; then
		left="arrivals end in $((last_start - el))s, then up to ${drain}s of drain"
	else
		left="all started; draining (at most ${drain}s)"
	fi
	# the file every 2 s, for a runner's live line; the terminal every 10
	echo "${el}s: $done_n/$total flows done; $left" >>"$dir/progress"
	ticks=$((ticks + 1))
	[ $((ticks % 5)) != 0 ] || say "$tag ${el}s: $done_n/$total flows done; $left"
done
rc=0
for g in "${gens[@]}"; do wait "$g" || rc=1; done
if [ ${#events[@]} -gt 0 ]; then
	tend=$(fcq-gen now)
	trace_off
	progress "copying the trace"
	trace_save
fi
# A sink reports a paced stream once every byte is in, or 1 s after its
# end marker: give them 3 s. A stream held back (a rate limiter at its
# floor) may still trickle in then, its marker far behind: the sinks then
# report what they have of each ("end": "cut", SIGUSR1).
for t in $(seq 30); do
	[ "$(cat "$rdv"/sink.h* | wc -l)" -lt ${#paceds[@]} ] || break
	sleep 0.1
done
if [ "$(cat "$rdv"/sink.h* | wc -l)" -lt ${#paceds[@]} ]; then
	kill -USR1 "${servers[@]}" 2>/dev/null
	sleep 0.5
fi
cat "$rdv"/sink.h* >"$dir/sinks.jsonl"
# Share of the CPU left idle while the traffic ran: near 0, the emulation
# could not keep up and delayed every timer.
idle=$(printf '%s\n%s\n' "$cpu0" "$(head -n 1 /proc/stat)" | awk '
	{ t = 0; for (i = 2; i <= NF; i++) t += $i; tot[NR] = t; id[NR] = $5 + $6 }
	END { printf "%.3f", (id[2] - id[1]) / (tot[2] - tot[1]) }')
elapsed=$(($(date +%s) - t0))

cat "$rdv"/fct.h* | sort -k6,6n -k1,1 >"$dir/fct.txt"
cat "$rdv"/lag.h* | sort -k4,4n -k1,1n >"$dir/lag.txt"
cat "$rdv"/err.h* | grep '^incomplete ' >"$dir/incomplete.txt"
cat "$rdv"/err.h* | sed -n 's/^reordered //p' >"$dir/reordered.txt"
# Everything else a generator said is an error: kept and shown, never dropped.
cat "$rdv"/err.h* | grep -Ev '^(incomplete|reordered) ' >"$dir/errors.txt"
# HPCC's pfc.txt and qlen.txt, on fct.txt's clock
first=$(awk 'NR == 2 { printf "%.0f", $6 * 1e9 }' "$dir/flow.txt")
trace_hpcc
# Reorders: the sinks count them in UDP flows only (TCP hides them).
reorders=null
[ "$transport" = udp ] &&
	reorders=$(awk '{ n += $5 } END { print n + 0 }' "$dir/reordered.txt")
if [ -s "$dir/errors.txt" ]; then
	say "$tag the generators reported $(wc -l <"$dir/errors.txt") error(s) ($dir/errors.txt):"
	head -n 5 "$dir/errors.txt" | sed 's/^/    /'
fi

# ---- every port's counters: one tc and one ip per namespace, one gojq -------
progress "collecting the statistics of $(awk '$1 == "port"' "$dir/net.txt" | wc -l) ports"
{
	for ns in $(awk '$1 == "port" { print $2 }' "$dir/net.txt" | sort -u); do
		printf '{"netns":"%s","tc":' "$ns"
		tc -n "$ns" -j -s qdisc show || printf '[]'
		printf ',"ip":'
		ip -n "$ns" -j -s link show || printf '[]'
		printf '}\n'
	done
} >"$rdv/dump.json"
awk '$1 == "port" { printf "%s %s\n", $2, $3 }' "$dir/net.txt" >"$rdv/ports"
gojq -s --rawfile ports "$rdv/ports" '
	(map({key: .netns, value: .}) | from_entries) as $ns
	| [ $ports | split("\n")[] | select(length > 0) | split(" ")
	    | .[0] as $n | .[1] as $d
	    | { netns: $n, dev: $d,
		role: (if $n | test("^fcq-h") then "host" else "switch" end),
		tc: ([ $ns[$n].tc[] | select(.dev == $d and .root) ][0] // null),
		link: ([ $ns[$n].ip[] | select(.ifname == $d) ][0].stats64
		       // null) } ]' "$rdv/dump.json" >"$dir/stats.json" ||
	fail "could not assemble stats.json"
drops=$(gojq '[.[] | (.tc.drops // 0) + (.link.rx.dropped // 0) +
	(.link.tx.dropped // 0)] | add // 0' "$dir/stats.json")
lost=$(gojq -c --argjson t "$elapsed" '[.[] | select(.tc.tx_lag_ns != null) |
	{port: "\(.netns)/\(.dev)", ns: .tc.tx_lag_ns}] | max_by(.ns) //
	{port: null, ns: 0} | .share = (.ns / (([$t, 1] | max) * 1e9))' \
	"$dir/stats.json")

# The flows' window: from their epoch to the last one's end (real time).
w1=$(awk -v e="$epoch" -v k="$scale" -v now="$(fcq-gen now)" '
	FILENAME ~ /flow.txt$/ { if (FNR == 2) f = $6 * 1e9; next }
	{ d = $6 - f + $7; if (d > m) m = d; n++ }
	END { printf "%.0f", n ? e + m * k : now }' \
	"$dir/flow.txt" "$dir/fct.txt")

# ---- the paced streams -------------------------------------------------------------
# Each stream's sender line and its sink's, matched once (by the sender's
# flow and source port): one JSON line per stream, with its source host's
# port and its line's SECONDS (null without), in paced.tmp. A stream whose
# sender reported but whose sink never heard of it, even when told to
# report what it had, got nothing through (a congestion control may hold
# a source at its floor): a sink line of nothing received, "starved",
# stands for it. Without its sender's line the run has failed.
if [ ${#paceds[@]} -gt 0 ]; then
	for p in "${paceds[@]}"; do
		read -r pname psrc pdst _ _ _ psecs <<<"$p"
		read -r ns dev < <(awk -v h="$psrc" '$1 == "host" && $2 == h { print $3, $4 }' "$dir/net.txt")
		gojq -c -n --slurpfile snd "$dir/paced-$pname.json" \
			--slurpfile sinks "$dir/sinks.jsonl" --arg name "$pname" \
			--argjson src "$psrc" --argjson dst "$pdst" --arg ns "$ns" \
			--arg dev "$dev" --argjson secs "${psecs:-null}" '
			$snd[0] as $s
			| {name: $name, src: $src, dst: $dst, ns: $ns, dev: $dev,
			   secs: $secs, snd: $s,
			   sink: ([$sinks[] | select(.flow == $s.flow and
				.sport == $s.sport)][0]
				// if $s.sent then {flow: $s.flow,
				  sport: $s.sport, size: $s.bytes,
				  sent: $s.sent, bytes: 0, lost: $s.sent,
				  dgrams: 0, dups: 0, reorders: 0,
				  first_ns: $s.start_ns, last_ns: null,
				  bin_ns: 10000000, bins: [], starved: true}
				else null end)}' 2>/dev/null ||
			gojq -c -n --arg name "$pname" '{name: $name, sink: null}'
	done >"$dir/paced.tmp"
	gojq -r 'select(.sink == null) | "paced \(.name): no report of the stream from its sender and its sink"' \
		"$dir/paced.tmp" >>"$dir/errors.txt"
fi

# Per stream: the sink's counts; its goodput while the flows ran (from the
# flows' epoch to the last flow's end, real time), from the sink's bins,
# a bin straddling an edge counted pro rata; its completion time (the last
# byte in, from its scheduled start; real ms); and the pause frames its
# source's port received: 802.3x, PFC (per class, XON included) and keyed
# PAUSEs.
paced="[]"
if [ ${#paceds[@]} -gt 0 ]; then
	# a stream whose lines do not add up is an error of its own
	paced=$(gojq -c -s --slurpfile st "$dir/stats.json" --argjson w0 "$epoch" \
		--argjson w1 "$w1" '
		[.[] | select(.sink != null) | .snd as $s | .sink as $k
		 | .ns as $ns | .dev as $dev | .name as $name
		 | try {name, bytes: $k.bytes, lost: $k.lost, dups: $k.dups,
		    reorders: $k.reorders,
		    fct_ms: (if $k.starved or $k.end == "cut" then null
			     else ($k.last_ns - $s.start_ns) / 1e6 end),
		    starved: ($k.starved // false),
		    mbps: (([range(0; $k.bins | length) as $i
			    | ($k.first_ns + $i * $k.bin_ns) as $b0
			    | ([$b0 + $k.bin_ns, $w1] | min) - ([$b0, $w0] | max)
			    | if . > 0 then . / $k.bin_ns * $k.bins[$i] else 0 end]
			   | add // 0) * 8 / (($w1 - $w0) / 1e3)),
		    window_ms: (($w1 - $w0) / 1e6),
		    src_pauses: ([$st[0][] | select(.netns == $ns and .dev == $dev)
			| (.tc.rx_pause // 0) + (.tc.kp.rx_pause // 0) +
			  ([.tc.prio[]?.pfc_rx // 0] | add // 0)] | add // 0)}
		   catch {name: $name, error: .}]' "$dir/paced.tmp") ||
		fail "could not read the paced streams' lines"
	echo "$paced" | gojq -r '.[] | select(has("error"))
		| "paced \(.name): its sender and sink lines do not add up: \(.error)"' \
		>>"$dir/errors.txt"
	paced=$(echo "$paced" | gojq -c 'map(select(has("error") | not))')
fi

# ---- per phase: the paced streams' rates and shares ---------------------------
# (tools/lib/phases.jq says how)
phases_j=null phase_streams=null
if [ ${#phases[@]} -gt 0 ] && [ ${#paceds[@]} -gt 0 ]; then
	# each host's link: bytes/s and the overhead its port adds
	links=$(gojq -c -n --slurpfile st "$dir/stats.json" --rawfile net "$dir/net.txt" '
		[$net | split("\n")[] | split(" ") | select(.[0] == "host")
		 | .[2] as $ns | .[3] as $dev
		 | {key: .[1], value: {rate: (.[5] | tonumber),
			overhead: ([$st[0][] | select(.netns == $ns and .dev == $dev)
				    | .tc.options.overhead][0] // 24)}}]
		| from_entries')
	# per stream, its schedule: it ends at its SECONDS or when its bytes
	# at its rate are sent; a stream without its sender's and its sink's
	# lines (errors.txt says so, and the run fails), or whose lines do
	# not add up, would leave the phases' shares wrong: none then
	gojq -c '. as $r | .snd as $s
		| try {name, src, dst, bps: $s.rate_bps, dgram: $s.dgram,
		   t0: $s.start_ns,
		   t1: ($s.start_ns + 1e9 * ([.secs,
			$s.bytes * 8 / $s.rate_bps] | map(values) | min)),
		   sink}
		  catch {name: $r.name, sink: null}' "$dir/paced.tmp" \
		>"$dir/phase-streams.tmp" || fail "could not read the paced streams' lines"
	if gojq -se 'any(.sink == null)' "$dir/phase-streams.tmp" >/dev/null; then
		progress "phases: a paced stream was not reported; no per-phase rates"
	else
		read -r phases_j phase_streams < <(gojq -c -r -s \
			-f "$LIB/phases.jq" \
			--argjson len "$(printf '%s\n' "${phases[@]}" | gojq -s -c .)" \
			--argjson links "$links" --argjson e "$epoch" \
			"$dir/phase-streams.tmp") ||
			fail "could not compute the phases' rates"
	fi
	rm -f "$dir/phase-streams.tmp"
fi
rm -f "$dir/paced.tmp"

# ---- the deepest queue, and the incast's ----------------------------------------
# Of every switch port, its data queue over the flows' window, from its
# time-weighted histogram (xstats "qhist", from the qdisc's start): its
# average and p99 length, the p99 as the upper edge of its bucket (within
# 1/8), its standard deviation (exact, from the integral of the squared
# length), the share of the window it was empty, and the utilization of
# its link (the bytes it sent over what its rate carries in the window),
# and its distribution, [bytes, share of the window at or below], at each
# bucket's upper edge (the empty time at 0).
# Before the epoch the queues are empty; a port busy beyond the window
# stretches it to its busy time. "queue" is the port whose average
# was the longest; "queue_incast" the switch port toward the host that
# more incast flows (dport 200) go to than to any other, the bottleneck a
# paper reads; null if there is no such host (a tie: no one receiver).
into=$(awk 'NR == 1 { nf = $1; next } NR <= nf + 1 && $4 == 200 { n[$2]++ }
	END {
		for (h in n)
			if (n[h] > m) { m = n[h]; b = h; tie = 0 }
			else if (n[h] == m) tie = 1
		if (m && !tie) print b
	}' "$dir/flow.txt")
# (a port toward a host is a switch's; the role below checks it again)
into_port=$(awk -v h="$into" '$1 == "port" && $6 == h { print $2 "/" $3; exit }' \
	"$dir/net.txt")
read -r queue queue_incast < <(gojq -c -r --argjson w "$((w1 - epoch))" \
	--arg into "$into_port" '
	[ .[] | select(.role == "switch" and .tc.qhist != null) | .tc.qhist as $h
	  | ([$h.buckets[] | select(.lo > 0) | .ns] | add // 0) as $busy
	  | ([$w, $busy, 1] | max) as $win
	  | ([{hi: 0, ns: ($win - $busy)}] + [$h.buckets[] | select(.lo > 0)]
	     | sort_by(.hi)) as $b
	  | (reduce $b[] as $x ({s: 0, v: null};
		if .v == null then .s += $x.ns
		  | if .s >= 0.99 * $win then .v = $x.hi else . end
		else . end) | .v // $h.max) as $p99
	  | ($h.byte_s * 1e9 / $win) as $avg
	  | {port: "\(.netns)/\(.dev)", avg_bytes: $avg,
	     p99_bytes: ([$p99, $h.max] | min), max_bytes: $h.max,
	     sd_bytes: ((($h.byte2_s // 0) * 1e9 / $win - $avg * $avg)
			| if . > 0 then sqrt else 0 end),
	     empty_share: (($win - $busy) / $win),
	     util: (if (.tc.options.rate // 0) > 0 then
		(.tc.bytes // 0) / (.tc.options.rate * $win / 1e9) else null end),
	     cdf: ([foreach $b[] as $x (0; . + $x.ns; [$x.hi, . / $win])]),
	     window_ms: ($win / 1e6)} ]
	| "\(max_by(.avg_bytes) | tojson) \(map(select(.port == $into))[0] | tojson)"' \
	"$dir/stats.json")

# ---- start lags and the verdict --------------------------------------------------
# src dst size start_ns lag_ns standalone_ns (real): late = lag > standalone.
lag=$(sort -k5,5n "$dir/lag.txt" | awk '
	{ v[NR] = $5; if ($5 > $6) late++ }
	END {
		n = NR
		if (!n) { print "{\"flows\":0,\"late\":0}"; exit }
		p50 = v[int((50 * n + 99) / 100)]; p99 = v[int((99 * n + 99) / 100)]
		# %.0f: %d stops at 2^31 in mawk
		printf "{\"flows\":%d,\"p50_ns\":%.0f,\"p99_ns\":%.0f,\"max_ns\":%.0f,\"late\":%d}\n",
			n, p50, p99, v[n], late
	}')
why=()
late=$(echo "$lag" | gojq .late) started=$(echo "$lag" | gojq .flows)
if awk -v l="$late" -v n="$started" -v s=$LATE_SHARE 'BEGIN { exit !(l > s * n) }'; then
	why+=("$late of $started flows started later than their own standalone FCT (start lag p99 $(echo "$lag" | gojq '.p99_ns / 1e6') ms): their FCTs measure the emulation, not the scheme")
elif [ "$late" -gt 0 ]; then
	say "$tag WARNING: $late of $started flows started later than their own standalone FCT (start lag max $(echo "$lag" | gojq '.max_ns / 1e6') ms): its slowdown is inflated by as much"
fi
if awk -v i="$idle" -v m=$IDLE_MIN 'BEGIN { exit !(i < m) }'; then
	why+=("the CPU was idle only $idle of the time: the emulation was CPU-bound and every timer late; lower the rate or load, or raise the scale (~$suggest)")
elif awk -v i="$idle" 'BEGIN { exit !(i < 0.1) }'; then
	say "$tag WARNING: the CPU was idle only $idle of the time: close to CPU-bound"
fi
share=$(echo "$lost" | gojq .share)
lost_say="port $(echo "$lost" | gojq -r .port) lost $(echo "$lost" | gojq '.ns / 1e6 | floor') ms of link time to host stalls ($(awk -v s="$share" 'BEGIN { printf "%.1f", 100 * s }') % of the run)"
if awk -v s="$share" -v m=$LOST_SHARE 'BEGIN { exit !(s > m) }'; then
	why+=("$lost_say: the guest was not run in time, and flows through it took as much longer whatever the scheme")
elif awk -v s="$share" -v m=$LOST_WARN 'BEGIN { exit !(s > m) }'; then
	say "$tag WARNING: $lost_say"
fi
named="[]"
for v in "${victims[@]}"; do
	read -r vname _ <<<"$v"
	named=$(echo "$named" | gojq -c --arg n "$vname" --argjson m "$(gojq -s \
		'if length < 2 then 0 else (.[-1].acked - .[0].acked) * 8 /
		 ((.[-1].ns - .[0].ns) / 1e9) / 1e6 end' "$dir/victim-$vname.jsonl")" \
		'. + [{name: $n, mbps: $m}]')
done
gojq -n --arg s "$sname" --argjson seed "$seed" --argjson f "$total" \
	--argjson c "$(wc -l <"$dir/fct.txt")" \
	--argjson i "$(wc -l <"$dir/incomplete.txt")" --argjson d "$drops" \
	--argjson t "$elapsed" --argjson named "$named" --argjson idle "$idle" \
	--argjson lag "$lag" --arg md5 "$(md5sum <"$dir/flow.txt" | cut -d' ' -f1)" \
	--argjson e "$(wc -l <"$dir/errors.txt")" --argjson need "$need" \
	--argjson cap $CAPACITY --argjson lost "$lost" --argjson paced "$paced" \
	--argjson r "$reorders" --argjson queue "${queue:-null}" \
	--argjson queue_incast "${queue_incast:-null}" \
	--argjson phases "${phases_j:-null}" \
	--argjson phase_streams "${phase_streams:-null}" \
	--args '{scheme: $s, seed: $seed, flows: $f, completed: $c,
	  incomplete: $i, reorders: $r, drops: $d, errors: $e, duration_s: $t,
	  cpu_idle: $idle, start_lag: $lag, named: $named, paced: $paced,
	  flows_md5: $md5, queue: $queue, queue_incast: $queue_incast,
	  frames_per_s: {needed: $need, capacity: $cap}, link_lost: $lost,
	  trusted: ($ARGS.positional | length == 0),
	  untrusted: $ARGS.positional} + if $phases == null then {} else
	  {phases: $phases, phase_streams: $phase_streams} end' "${why[@]}" \
	>"$dir/summary.json" ||
	fail "could not write summary.json"
progress "done in ${elapsed}s: $(gojq -c '{completed, incomplete, reorders, drops, errors, cpu_idle, lag_p99_ms: ((.start_lag.p99_ns // 0) / 1e6), trusted}' "$dir/summary.json")"
for w in "${why[@]}"; do
	say "$tag WARNING: not trusted: $w"
done
[ -s "$dir/errors.txt" ] && exit 1
[ $rc = 0 ] || [ -s "$dir/incomplete.txt" ] ||
	fail "a generator failed without saying why"
[ ${#why[@]} = 0 ] || exit 3
exit 0
