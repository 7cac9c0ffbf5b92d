#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exp_hpcc.sh: a topology.txt and flow.txt in the HPCC simulator's formats
# (experiments/hpcc-example), unchanged, through fcq-exp: the declared flows
# and no more complete without a drop, fct.txt has the simulator's columns
# and its absolute start times, every flow's start lag is recorded, and the
# simulator's own analysis/fct_analysis.py (third_party/hpcc, with its
# Python 3 port applied) reads the result with its default options. Then
# the simulator's own mix/topology.txt (a 65-port switch) and mix/flow.txt
# (experiments/hpcc-mix, its fafc scheme: a 65-port fafc switch, on the
# switch layer pfc shares): its two flows complete without a drop, and
# fct_analysis.py reads them. Last, dual-homed hosts (experiments/dualhomed,
# as in the simulator's ali_32host_10rack.txt): every flow completes and
# every host's two links carry its flows. The example also records HPCC's
# pfc.txt and qlen.txt (pfc_trace, qlen_trace; its switches' buffer small
# enough that they pause): a pause line per PFC frame each port received,
# as many as its link peer's qdisc counted sending, and a qlen.txt whose
# sample counts match its times and whose largest bucket fits each port's
# deepest queue.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	example_runs
	example_unchanged
	example_flows_complete
	example_fct_columns
	example_start_lags
	example_fct_analysis
	example_pfc_txt
	example_qlen_txt
	mix_unchanged
	mix_flows_complete
	mix_fct_analysis
	mix_fafc
	dualhomed_flows_complete
	dualhomed_both_links
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run, tools/vm/run).
Results in \$FCQ_RESULTS/exp_hpcc (FCQ_RESULTS defaults to /tmp)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/exp.sh"
OUT=${FCQ_RESULTS:-/tmp}/exp_hpcc
EX=$TOP/experiments/hpcc-example
RUN=$OUT/scheme-1-pfc/seed-1
# The declared count, not the lines after it (which include a flow-like one).
DECLARED=$(head -n 1 "$EX/flow.txt")
MIX=$OUT/mix
RM=$MIX/scheme-1-fafc/seed-1
DH=$OUT/dualhomed
RD=$DH/scheme-1-pfc/seed-1

# The experiments, each run once whichever case needs it first (so that
# TESTS= may name any case); EXAMPLE_RC, MIX_RC and DH_RC are fcq-exp's
# exit statuses.
# qlen_trace: a sample every 1 us and a dump every 100 us on the file's
# clock (1 ms and 100 ms in the guest, scale 1000). A 150 kB buffer made
# the switches send 19394 PFC frames in a trial run (none with the
# default 12 Mb).
QLEN_I=1000 QLEN_D=100000
example_run() {
	[ -z "${EXAMPLE_RC:-}" ] || return 0
	mkdir -p "$OUT"
	exp_copy "$TOP/experiments/hpcc-example.exp" "$OUT/example.exp" \
		-e 's/| pfc lossless 3 response/| pfc lossless 3 buffer 150kb response/' \
		-e "\$a pfc_trace on" -e "\$a qlen_trace $QLEN_I $QLEN_D"
	exp_run "$OUT" "$OUT/example.exp"
	EXAMPLE_RC=$EXP_RC
	ktap_note "trusted: $(gojq -c '[.trusted, .untrusted]' "$RUN/summary.json" 2>/dev/null)"
}

# The mix under fafc alone: pfc's run (the file's other scheme) tested the
# same switch layer, and cost the suite a fifth of its time.
mix_run() {
	[ -z "${MIX_RC:-}" ] || return 0
	mkdir -p "$OUT"
	exp_copy "$TOP/experiments/hpcc-mix.exp" "$OUT/mix.exp" \
		-e '/^scheme *pfc /d'
	exp_run "$MIX" "$OUT/mix.exp"
	MIX_RC=$EXP_RC
}

dualhomed_run() {
	[ -z "${DH_RC:-}" ] || return 0
	exp_run "$DH" "$TOP/experiments/dualhomed.exp"
	DH_RC=$EXP_RC
}

# HPCC's analysis script, as its README runs it: from analysis/, reading
# ../simulation/mix/fct_fat_<cc>.txt for the two CCs it lists.
# fct_analysis FCT_TXT OUT [OPTION...]
fct_analysis() {
	local a cc rc
	a=$(mktemp -d)
	mkdir -p "$a/analysis" "$a/simulation/mix"
	cp "$TOP/third_party/hpcc/analysis/fct_analysis.py" "$a/analysis/"
	for cc in hpccPint95ai50log1.05p1.000 hp95ai50; do
		cp "$1" "$a/simulation/mix/fct_fat_$cc.txt"
	done
	(cd "$a" && patch -s -p1 <"$TOP/third_party/hpcc/fct_analysis-python3.patch") &&
		(cd "$a/analysis" && /usr/bin/python3 fct_analysis.py "${@:3}") \
			>"$2.txt" 2>"$2.err"
	rc=$?
	rm -rf "$a"
	return "$rc"
}

# Exit 3 is a run the runner judged untrusted (flows started late because
# the host did not schedule the guest in time): the tools worked.
example_runs() {
	example_run
	[ "$EXAMPLE_RC" = 0 ] || [ "$EXAMPLE_RC" = 3 ]
	check_err $? "exit $EXAMPLE_RC: $(tail -n 3 "$OUT.log")"
	log_test "fcq-exp runs the experiment"
}

example_unchanged() {
	example_run
	cmp -s "$EX/topology.txt" "$RUN/topology.txt" && cmp -s "$EX/flow.txt" "$RUN/flow.txt"
	check_err $? "the run's topology.txt or flow.txt differs from $EX's"
	log_test "the files were used unchanged"
}

example_flows_complete() {
	local s=$RUN/summary.json
	example_run
	[ "$(gojq '.flows' "$s" 2>/dev/null)" = "$DECLARED" ] &&
		[ "$(gojq '.completed' "$s")" = "$DECLARED" ] &&
		[ "$(gojq '.incomplete + .drops + .errors' "$s")" = 0 ]
	check_err $? "$(cat "$s" 2>/dev/null)"
	log_test "the $DECLARED declared flows complete, no drop, no error"
}

# sip dip sport dport size start_ns fct_ns standalone_fct_ns, start_ns the
# flow file's own start time (from 2 s), one line per declared flow. Host
# N is 11.0.N.1 (0x0b000001 + N * 256: mawk reads no hex constants).
example_fct_columns() {
	local want got
	example_run
	want=$(awk -v n="$DECLARED" 'NR > 1 && NR <= n + 1 {
		printf "%08x %08x %d %d %.0f\n", 184549377 + $1 * 256,
			184549377 + $2 * 256, $4, $5, $6 * 1e9 }' "$EX/flow.txt" | sort)
	got=$(awk 'NF == 8 && $7 > 0 && $8 > 0 { print $1, $2, $4, $5, $6 }' \
		"$RUN/fct.txt" | sort)
	[ -n "$want" ] && [ "$got" = "$want" ]
	check_err $? "$(diff <(echo "$want") <(echo "$got") | head -n 5)"
	log_test "fct.txt: the simulator's columns, its absolute start times"
}

example_start_lags() {
	local s=$RUN/summary.json lags
	example_run
	lags=$(wc -l <"$RUN/lag.txt")
	ktap_note "start lag p50/p99/max (ms): $(gojq -r '.start_lag |
		[.p50_ns, .p99_ns, .max_ns] | map(. / 1e6) | join(" / ")' "$s")," \
		"late $(gojq .start_lag.late "$s"), trusted $(gojq .trusted "$s")"
	[ "$lags" = "$DECLARED" ] && [ "$(gojq .start_lag.flows "$s")" = "$DECLARED" ]
	check_err $? "$lags lines"
	log_test "a start lag for every flow, summarised"
}

# Default options: dport 100 flows finished before 3 s, 5 % buckets by size.
example_fct_analysis() {
	local second bad
	example_run
	if fct_analysis "$RUN/fct.txt" "$OUT/fct_analysis"; then
		sed 's/^/# fct_analysis.py: /' "$OUT/fct_analysis.txt" | head -n 3
		# It reads the dport-100 lines but the last (its split drops it),
		# sorted by size: the last bucket's size is the second largest.
		# Every slowdown is at least 1.
		second=$(awk '$4 == 100 { print $5 }' "$RUN/fct.txt" | sort -n | tail -n 2 | head -n 1)
		bad=$(awk -v s="$second" 'NF != 8 || $3 < 1 || $4 < $3 || $5 < $4 { print "line " NR }
			END { if (NR != 20) print NR " lines"; if ($2 != s) print "last size " $2 " not " s }' \
			"$OUT/fct_analysis.txt")
		[ -z "$bad" ]
		check_err $? "$bad"
	else
		check_err 1 "$(tail -n 3 "$OUT/fct_analysis.err" 2>/dev/null)"
	fi
	log_test "HPCC's fct_analysis.py reads fct.txt with its defaults"
}

# A line per PFC frame a port received, the frame's class paused (1) or
# resumed (0): "time_ns node node_type ifindex type". Per receiving port
# (node, HPCC ifindex = its link's rank at the node in topology.txt, from
# 1), as many lines as the qdisc at the link's other end counted sending
# (pfc_tx, every class), nodes typed as topology.txt's switch list says,
# times on fct.txt's clock and in order.
example_pfc_txt() {
	local want got bad
	example_run
	# "node ifindex netns dev" of each link end: the sender is the other
	want=$(awk 'NR == 1 { next } NR == 2 { for (i = 1; i <= NF; i++) sw[$i] = 1; next }
		{ a = $1; b = $2; pa = n[a]++; pb = n[b]++
		  print b, pb + 1, (sw[a] ? "fcq-s" : "fcq-h") a, (sw[a] ? "p" : "eth") pa
		  print a, pa + 1, (sw[b] ? "fcq-s" : "fcq-h") b, (sw[b] ? "p" : "eth") pb }' \
		"$RUN/topology.txt" | while read -r node idx ns dev; do
		echo "$node $idx $(gojq --arg n "$ns" --arg d "$dev" '[.[] |
			select(.netns == $n and .dev == $d) | .tc.prio[].pfc_tx] | add' \
			"$RUN/stats.json")"
	done | awk '$3 > 0' | sort)
	got=$(awk '{ print $2, $4 }' "$RUN/pfc.txt" | sort | uniq -c | awk '{ print $2, $3, $1 }' | sort)
	bad=$(awk -v first="$(awk 'NR == 2 { printf "%.0f", $6 * 1e9 }' "$RUN/flow.txt")" \
		'FNR == NR { if (FNR == 2) for (i = 1; i <= NF; i++) sw[$i] = 1; next }
		NF != 5 || $1 < first || $1 < t || $3 != ($2 in sw) || ($5 != 0 && $5 != 1) { print FNR ": " $0; exit }
		{ t = $1 }' "$RUN/topology.txt" "$RUN/pfc.txt")
	ktap_note "pfc.txt: $(wc -l <"$RUN/pfc.txt") lines; per node and ifindex: $(echo "$got" | awk '{ printf "%s/%s %s; ", $1, $2, $3 }')"
	[ -n "$want" ] && [ "$got" = "$want" ] && [ -z "$bad" ]
	check_err $? "${bad:-$(diff <(echo "$want") <(echo "$got") | head -n 5)}"
	log_test "pfc.txt: a line per PFC frame received, as many as its sender counted"
}

# qlen.txt: "time: T" then "switch port c0 c1 ..." per switch port, the
# counts cumulative; at each dump, every port has as many samples as the
# dump's time says (one at the flows' start, then one every QLEN_I); dumps
# every QLEN_D, the last one past the last flow's end; no port's largest
# bucket beyond its deepest queue (the qdisc's qhist max) / 1000.
example_qlen_txt() {
	local ports bad
	example_run
	ports=$(gojq -r '.[] | select(.role == "switch") | "\(.netns) \(.dev) \(.tc.qhist.max)"' \
		"$RUN/stats.json" | awk '{ sub(/fcq-s/, "", $1); sub(/p/, "", $2); print $1, $2 + 1, $3 }')
	bad=$(awk -v i="$QLEN_I" -v d="$QLEN_D" -v nports="$(echo "$ports" | wc -l)" \
		-v first="$(awk 'NR == 2 { printf "%.0f", $6 * 1e9 }' "$RUN/flow.txt")" \
		-v end="$(awk '{ e = $6 + $7; if (e > m) m = e } END { printf "%.0f", m }' "$RUN/fct.txt")" '
		FNR == NR { max[$1 " " $2] = $3; next }
		$1 == "time:" {
			if (t != "" && n != nports) { print "dump at " t ": " n " ports"; exit }
			if (t != "" && ($2 <= t || $2 > t + d)) { print "dump at " $2 " after " t; exit }
			t = $2; n = 0; want = (t - first) / i + 1; next
		}
		{
			k = $1 " " $2; n++; s = 0
			for (f = 3; f <= NF; f++) s += $f
			if (!(k in max)) { print "port " k " is no switch port"; exit }
			if (s != want) { print "port " k " at " t ": " s " samples, not " want; exit }
			if (s < seen[k]) { print "port " k ": counts went down at " t; exit }
			seen[k] = s
			if (NF - 3 > int(max[k] / 1000)) { print "port " k ": bucket " NF - 3 " beyond its max " max[k]; exit }
			if (NF - 3 > top) { top = NF - 3; where = k }
		}
		END {
			if (t == "" || t < end) print "last dump " t " before the last flow ended, " end
			else if (n != nports) print "last dump: " n " ports"
			else print "ok " t " " top " " where
		}' - "$RUN/qlen.txt" <<<"$ports")
	ktap_note "qlen.txt: $bad (last dump, largest bucket, its port); deepest queues: $(echo "$ports" | awk '{ printf "%s/%s %s; ", $1, $2, $3 }')"
	[ "${bad%% *}" = ok ] && [ "$(echo "$bad" | cut -d' ' -f3)" -gt 0 ]
	check_err $? "$bad"
	log_test "qlen.txt: every switch port, its samples as its times say, within its deepest queue"
}

# ---- the simulator's own mix/topology.txt and mix/flow.txt ----------------
mix_unchanged() {
	local ports
	mix_run
	ports=$(gojq '[.[] | select(.role == "switch")] | length' "$RM/stats.json" 2>/dev/null)
	{ [ "$MIX_RC" = 0 ] || [ "$MIX_RC" = 3 ]; } && [ "$ports" = 65 ] &&
		cmp -s "$TOP/third_party/hpcc/simulation/mix/topology.txt" "$RM/topology.txt" &&
		cmp -s "$TOP/third_party/hpcc/simulation/mix/flow.txt" "$RM/flow.txt"
	check_err $? "exit $MIX_RC, $ports switch ports: $(tail -n 3 "$MIX.log")"
	log_test "HPCC's mix/topology.txt and mix/flow.txt run unchanged, on a 65-port switch"
}

mix_flows_complete() {
	local s=$RM/summary.json
	mix_run
	ktap_note "mix: fct.txt $(awk '{ printf "%s->%s %.1f ms (ideal %.1f); ", $1, $2, $7 / 1e6, $8 / 1e6 }' "$RM/fct.txt" 2>/dev/null)trusted $(gojq .trusted "$s" 2>/dev/null)"
	[ "$(gojq '[.flows, .completed, .incomplete + .drops + .errors] | join(" ")' -r "$s" 2>/dev/null)" = "2 2 0" ]
	check_err $? "$(cat "$s" 2>/dev/null)"
	log_test "mix: its 2 declared flows of 200 MB complete, no drop, no error"
}

# Two flows: fct_analysis.py drops the last line it reads, and its default
# 5 % buckets need 21 lines; -s 100 makes one bucket of the remaining flow.
# Its slowdown is fct / standalone (at least 1) of the flow its own
# selection keeps (the same awk and sort, less the last line).
mix_fct_analysis() {
	local want bad
	mix_run
	want=$(awk '$4 == 100 && $6 + $7 < 3e9 { s = $7 / $8; print (s < 1 ? 1 : s), $5 }' \
		"$RM/fct.txt" 2>/dev/null | sort -n -k 2 | head -n -1 | awk '{ print $2, $1 }')
	if fct_analysis "$RM/fct.txt" "$OUT/mix_fct_analysis" -s 100; then
		sed 's/^/# fct_analysis.py -s 100: /' "$OUT/mix_fct_analysis.txt"
		bad=$(awk -v w="$want" 'BEGIN { split(w, x, " ") }
			NF != 8 || $2 != x[1] || ($3 - x[2]) ^ 2 > 1e-6 { print "line " NR ": " $0 " against " w }
			END { if (NR != 1) print NR " lines" }' "$OUT/mix_fct_analysis.txt")
		[ -n "$want" ] && [ -z "$bad" ]
		check_err $? "$bad"
	else
		check_err 1 "$(tail -n 3 "$OUT/mix_fct_analysis.err" 2>/dev/null)"
	fi
	log_test "mix: HPCC's fct_analysis.py -s 100 reads fct.txt, slowdown as fct.txt's"
}

# fafc's switch state grows with the ports (8 slots, doubled as they
# join) past the 64 it once had room for.
mix_fafc() {
	local s=$RM/summary.json fafc
	mix_run
	fafc=$(gojq -c '[.[] | select(.role == "switch" and .tc.kind == "fafc")] |
		{ports: length, solves: (map(.tc.fafc.lp_solves) | add),
		 pauses: (map(.tc.fafc.pauses) | add)}' "$RM/stats.json" 2>/dev/null)
	ktap_note "mix under fafc: switch $fafc, trusted $(gojq .trusted "$s" 2>/dev/null)"
	[ "$(gojq '[.flows, .completed, .incomplete + .drops + .errors] | join(" ")' -r "$s" 2>/dev/null)" = "2 2 0" ] &&
		[ "$(echo "$fafc" | gojq .ports)" = 65 ] && [ "$(echo "$fafc" | gojq .solves)" -gt 0 ]
	check_err $? "$(cat "$s" 2>/dev/null)"
	log_test "mix under fafc: a 65-port fafc switch, its LP ran, both flows complete, no drop"
}

# ---- dual-homed hosts --------------------------------------------------
dualhomed_flows_complete() {
	local s=$RD/summary.json
	dualhomed_run
	{ [ "$DH_RC" = 0 ] || [ "$DH_RC" = 3 ]; } &&
		[ "$(gojq '[.flows, .completed, .incomplete + .drops + .errors] | join(" ")' -r "$s" 2>/dev/null)" = "64 64 0" ]
	check_err $? "exit $DH_RC: $(cat "$s" 2>/dev/null) $(tail -n 3 "$DH.log")"
	log_test "dual-homed hosts: all 64 flows complete, no drop, no error"
}

# 16 flows a host, each on one link by its hash: one link gets them all
# once in 2^15 runs per host.
dualhomed_both_links() {
	local per idle
	dualhomed_run
	per=$(gojq -r '[.[] | select(.role == "host") |
		"\(.netns)/\(.dev):\(.tc.prio[3].tx_packets // 0)"] | join(" ")' "$RD/stats.json" 2>/dev/null)
	ktap_note "dual-homed: data packets sent per host link: $per"
	idle=$(gojq '[.[] | select(.role == "host") | select((.tc.prio[3].tx_packets // 0) == 0)] | length' \
		"$RD/stats.json" 2>/dev/null)
	[ "$(echo "$per" | wc -w)" = 8 ] && [ "$idle" = 0 ]
	check_err $? "$per"
	log_test "dual-homed: each host's flows leave by both of its links"
}

tests_plan
# The experiments' logs go beside their directories, in OUT.
mkdir -p "$OUT"
tests_run
ktap_finish
