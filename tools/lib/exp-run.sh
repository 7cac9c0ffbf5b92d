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
#   errors.txt            anything else a generator said: a failed run
#   stats.json            every port's qdisc (tc -s -j) and link counters
#   summary.json          counts, start lags, CPU idle, the verdict
#   progress              one line per step, for the runner that waits
#
# Exit status: 0 done; 1 failed (a message says why); 3 done, but the
# times cannot be trusted (summary.json "untrusted" says why).

PATH=$TOP/build/tools:$PATH
export TC_LIB_DIR=${TC_LIB_DIR:-$TOP/build/tc}

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
swq=$(echo "$spec" | cut -d'|' -f2 | xargs)
hostq=$(echo "$spec" | cut -d'|' -f3 | xargs)
dir=$out
tag="[$sname seed $seed]"
rm -f "$dir"/{scheme,seed,topology.txt,net.txt,flow.txt,fct.txt,lag.txt} \
	"$dir"/{incomplete.txt,errors.txt,stats.json,summary.json,progress}
rm -f "$dir"/victim-*.jsonl
echo "$sname" >"$dir/scheme"
echo "$seed" >"$dir/seed"
run_t0=$(date +%s)
progress() {
	echo "$*" >>"$dir/progress"
	say "$tag [$(($(date +%s) - run_t0))s] $*"
}
fail() { progress "FAILED: $*"; die "$tag $*"; }

servers=() gens=() rdv=
cleanup() {
	[ ${#gens[@]} = 0 ] || kill "${gens[@]}" 2>/dev/null
	[ ${#servers[@]} = 0 ] || kill "${servers[@]}" 2>/dev/null
	wait 2>/dev/null
	[ -z "$rdv" ] || rm -rf "$rdv"
	fcq-net down
}
trap cleanup EXIT

# ---- the fabric and the flows ----------------------------------------------
case "$topology" in
star:* | dumbbell:* | leafspine:* | ring:*)
	fcq-net gen "$topology" -r "$rate" -d "$delay" ${uplink:+-R "$uplink"} \
		>"$dir/topology.txt" || fail "bad topology \"$topology\""
	;;
*) cp "$(relative "$topology")" "$dir/topology.txt" ||
	fail "no topology file $topology" ;;
esac
bridge_opt=
[ "$bridge" = yes ] && bridge_opt=-b
progress "building $topology ($(head -n 1 "$dir/topology.txt" |
	awk '{ print $1 - $2 " hosts, " $2 " switches, " $3 " links" }'))"
fcq-net up "$dir/topology.txt" -o "$dir" -S "$swq" -H "$hostq" -k "$scale" \
	-m "$mtu" $bridge_opt || fail "fcq-net up failed"

if [ -n "$flowfile" ]; then
	cp "$(relative "$flowfile")" "$dir/flow.txt" || fail "no flows file $flowfile"
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
# of its path; over the time the flows need: the span of their scaled
# start times, or the busiest host's bytes at its link rate if longer, and
# at least a second (a shorter burst is queued, not a sustained rate).
read -r need span <<<"$(awk -v k="$scale" -v mtu="$mtu" -v n="$total" '
	FNR == 1 && FILENAME ~ /flow.txt$/ { next }
	FILENAME ~ /net.txt$/ {
		if ($1 == "host") rate[$2] = $6
		if ($1 == "rtt") links[$2 " " $3] = NF >= 6 ? $6 : 2
		next
	}
	++c <= n {
		d = int(($5 + mtu - 53) / (mtu - 52))
		fh += (1.5 * d + 5) * links[$1 " " $2]
		sent[$1] += $5; rcvd[$2] += $5
		if (c == 1) first = $6
		last = $6
	}
	END {
		t = (last - first) * k
		for (h in sent) if (sent[h] / rate[h] > t) t = sent[h] / rate[h]
		for (h in rcvd) if (rcvd[h] / rate[h] > t) t = rcvd[h] / rate[h]
		if (t < 1) t = 1
		printf "%.0f %.3f\n", fh / t, t
	}' "$dir/net.txt" "$dir/flow.txt")"
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
sysctl -qw net.core.netdev_max_backlog=10000
for p in $(pgrep ksoftirqd); do renice -n -20 -p "$p" >/dev/null; done

mapfile -t hosts < <(awk '$1 == "host" { print $2, $3 }' "$dir/net.txt")
nh=${#hosts[@]}
# One inotify instance per generator (fcq-gen run -R): 128 by default.
[ "$(sysctl -n fs.inotify.max_user_instances)" -ge $((nh + 128)) ] ||
	sysctl -qw fs.inotify.max_user_instances=$((nh + 128))
progress "starting $nh sinks"
for h in "${hosts[@]}"; do
	# The sink runs the same congestion control: a DCTCP sender only
	# gets ECN from a DCTCP (ECN-requiring) listener.
	ip netns exec "${h#* }" fcq-gen server -p 100,200 -t $((prio << 5)) \
		${cc:+-c "$cc"} &
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
rdv=$(mktemp -d /run/fcq-exp-rdv.XXXXXX)
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
epoch=$(awk -v n="$(fcq-gen now)" -v h="$nh" 'BEGIN { printf "%.0f\n", n + 0.5e9 + h * 5e6 }')
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
# Share of the CPU left idle while the traffic ran: near 0, the emulation
# could not keep up and delayed every timer.
idle=$(printf '%s\n%s\n' "$cpu0" "$(head -n 1 /proc/stat)" | awk '
	{ t = 0; for (i = 2; i <= NF; i++) t += $i; tot[NR] = t; id[NR] = $5 + $6 }
	END { printf "%.3f", (id[2] - id[1]) / (tot[2] - tot[1]) }')
elapsed=$(($(date +%s) - t0))

cat "$rdv"/fct.h* | sort -k6,6n -k1,1 >"$dir/fct.txt"
cat "$rdv"/lag.h* | sort -k4,4n -k1,1n >"$dir/lag.txt"
cat "$rdv"/err.h* | grep '^incomplete ' >"$dir/incomplete.txt"
# Everything else a generator said is an error: kept and shown, never dropped.
cat "$rdv"/err.h* | grep -v '^incomplete ' >"$dir/errors.txt"
if [ -s "$dir/errors.txt" ]; then
	say "$tag the generators reported $(wc -l <"$dir/errors.txt") error(s) ($dir/errors.txt):"
	head -n 5 "$dir/errors.txt" | sed 's/^/    /'
fi

# ---- every port's counters: one tc and one ip per namespace, one jq -----------
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
jq -s --rawfile ports "$rdv/ports" '
	(map({key: .netns, value: .}) | from_entries) as $ns
	| [ $ports | split("\n")[] | select(length > 0) | split(" ")
	    | .[0] as $n | .[1] as $d
	    | { netns: $n, dev: $d,
		role: (if $n | test("^fcq-h") then "host" else "switch" end),
		tc: ([ $ns[$n].tc[] | select(.dev == $d and .root) ][0] // null),
		link: ([ $ns[$n].ip[] | select(.ifname == $d) ][0].stats64
		       // null) } ]' "$rdv/dump.json" >"$dir/stats.json" ||
	fail "could not assemble stats.json"
drops=$(jq '[.[] | (.tc.drops // 0) + (.link.rx.dropped // 0) +
	(.link.tx.dropped // 0)] | add // 0' "$dir/stats.json")
lost=$(jq -c --argjson t "$elapsed" '[.[] | select(.tc.tx_lag_ns != null) |
	{port: "\(.netns)/\(.dev)", ns: .tc.tx_lag_ns}] | max_by(.ns) //
	{port: null, ns: 0} | .share = (.ns / (([$t, 1] | max) * 1e9))' \
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
late=$(echo "$lag" | jq .late) started=$(echo "$lag" | jq .flows)
if awk -v l="$late" -v n="$started" -v s=$LATE_SHARE 'BEGIN { exit !(l > s * n) }'; then
	why+=("$late of $started flows started later than their own standalone FCT (start lag p99 $(echo "$lag" | jq '.p99_ns / 1e6') ms): their FCTs measure the emulation, not the scheme")
elif [ "$late" -gt 0 ]; then
	say "$tag WARNING: $late of $started flows started later than their own standalone FCT (start lag max $(echo "$lag" | jq '.max_ns / 1e6') ms): its slowdown is inflated by as much"
fi
if awk -v i="$idle" -v m=$IDLE_MIN 'BEGIN { exit !(i < m) }'; then
	why+=("the CPU was idle only $idle of the time: the emulation was CPU-bound and every timer late; lower the rate or load, or raise the scale (~$suggest)")
elif awk -v i="$idle" 'BEGIN { exit !(i < 0.1) }'; then
	say "$tag WARNING: the CPU was idle only $idle of the time: close to CPU-bound"
fi
share=$(echo "$lost" | jq .share)
lost_say="port $(echo "$lost" | jq -r .port) lost $(echo "$lost" | jq '.ns / 1e6 | floor') ms of link time to host stalls ($(awk -v s="$share" 'BEGIN { printf "%.1f", 100 * s }') % of the run)"
if awk -v s="$share" -v m=$LOST_SHARE 'BEGIN { exit !(s > m) }'; then
	why+=("$lost_say: the guest was not run in time, and flows through it took as much longer whatever the scheme")
elif awk -v s="$share" -v m=$LOST_WARN 'BEGIN { exit !(s > m) }'; then
	say "$tag WARNING: $lost_say"
fi
named="[]"
for v in "${victims[@]}"; do
	read -r vname _ <<<"$v"
	named=$(echo "$named" | jq -c --arg n "$vname" --argjson m "$(jq -s \
		'if length < 2 then 0 else (.[-1].acked - .[0].acked) * 8 /
		 ((.[-1].ns - .[0].ns) / 1e9) / 1e6 end' "$dir/victim-$vname.jsonl")" \
		'. + [{name: $n, mbps: $m}]')
done
jq -n --arg s "$sname" --argjson seed "$seed" --argjson f "$total" \
	--argjson c "$(wc -l <"$dir/fct.txt")" \
	--argjson i "$(wc -l <"$dir/incomplete.txt")" --argjson d "$drops" \
	--argjson t "$elapsed" --argjson named "$named" --argjson idle "$idle" \
	--argjson lag "$lag" --arg md5 "$(md5sum <"$dir/flow.txt" | cut -d' ' -f1)" \
	--argjson e "$(wc -l <"$dir/errors.txt")" --argjson need "$need" \
	--argjson cap $CAPACITY --argjson lost "$lost" \
	--args '{scheme: $s, seed: $seed, flows: $f, completed: $c,
	  incomplete: $i, drops: $d, errors: $e, duration_s: $t,
	  cpu_idle: $idle, start_lag: $lag, named: $named, flows_md5: $md5,
	  frames_per_s: {needed: $need, capacity: $cap}, link_lost: $lost,
	  trusted: ($ARGS.positional | length == 0),
	  untrusted: $ARGS.positional}' "${why[@]}" >"$dir/summary.json" ||
	fail "could not write summary.json"
progress "done in ${elapsed}s: $(jq -c '{completed, incomplete, drops, errors, cpu_idle, lag_p99_ms: ((.start_lag.p99_ns // 0) / 1e6), trusted}' "$dir/summary.json")"
for w in "${why[@]}"; do
	say "$tag WARNING: not trusted: $w"
done
[ -s "$dir/errors.txt" ] && exit 1
[ $rc = 0 ] || [ -s "$dir/incomplete.txt" ] ||
	fail "a generator failed without saying why"
[ ${#why[@]} = 0 ] || exit 3
exit 0
