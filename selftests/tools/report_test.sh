#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# report_test.sh: fcq-report on two synthetic result directories. The
# slowdown percentiles and the stats.json totals are recomputed here with
# sort and awk from the same files, by the rule fcq-report's header states:
# slowdown = max(1, fct_ns / standalone_fct_ns), pP = the ceil(P/100 * n)-th
# smallest. Host-side only: no guest, no root.
#
#   selftests/tools/report_test.sh      (FCQ_REPORT=path to test another binary)
set -u

# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	outputs
	p50_all
	p99_all
	avg_all
	small_bucket
	incast_group
	stats_totals
	stats_cnm
	summary_named
	summary_paced
	paced_jain
	summary_phases
	summary_queue
	malformed_line
	short_line_bad_json
	usage_exit2
	gnuplot_fails
	seeds_same_aggregates
	seeds_avg
	seeds_p99
	single_run
	hpcc_percentiles
	untrusted_warning
	seed_flows_differ
	paired
	sweep_table
	sweep_plot
	sweep_errors
	hpcc_traces
	hpcc_traces_malformed
"
USAGE_MORE="TAP on stdout. KEEP=1 keeps the work directory."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"

REPORT=${FCQ_REPORT:-$ROOT/build/tools/fcq-report}
WORK=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT

tests_plan

# A deterministic run: N flows, sizes over all four buckets (the bucket
# edges included), every 7th flow an incast (dport 200). Park-Miller LCG:
# products stay below 2^53, so every awk computes the same numbers.
# FCT/ideal starts at BASE (under 1: clamped) and has a heavy tail of TAIL.
mkrun() {	# DIR SCHEME SEED BASE TAIL
	mkdir -p "$1"
	echo "$2" >"$1/scheme"
	awk -v seed="$3" -v base="$4" -v tail="$5" -v n=500 '
	function rnd() { x = (x * 16807) % 2147483647; return x / 2147483647 }
	BEGIN {
		x = seed
		split("9999 10000 99999 100000 999999 1000000", edge)
		lo[0] = 100; lo[1] = 10000; lo[2] = 100000; lo[3] = 1000000
		for (i = 0; i < n; i++) {
			b = i % 4
			size = int(lo[b] + rnd() * 9 * lo[b])
			if (i < 6)
				size = edge[i + 1]
			ideal = 2000 + int(size * 8 / 10)
			f = base + rnd() * 3 * base
			if (rnd() < 0.1)
				f *= 1 + rnd() * tail
			printf "%08x %08x %d %d %d %d %d %d\n",
				184549633 + (i % 16) * 256, 184549633 + 4096,
				10000 + i, i % 7 ? 100 : 200, size,
				2000000000 + i * 1000, int(ideal * f), ideal
		}
	}' >"$1/fct.txt"
}

# Independent slowdown percentile of a fct.txt: sort, then the nearest rank.
pct() {	# FILE P
	awk '{ s = $7 / $8; if (s < 1) s = 1; printf "%.17g\n", s }' "$1" |
		sort -g |
		awk -v p="$2" '{ v[NR] = $1 }
			END { r = p * NR / 100; if (r > int(r)) r = int(r) + 1
			      printf "%.10f\n", v[r] }'
}

# JSON number from report.json; "null" if absent.
rj() { jq -r "$1" "$WORK/out/report.json"; }
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(a != "null" && (d < 0 ? -d : d) < 1e-6) }'; }

mkrun "$WORK/a" pfc 12345 0.7 40
mkrun "$WORK/b" fafc 67890 0.3 8	# over half the flows at 1 exactly
cat >"$WORK/a/summary.json" <<'JSON'
{"scheme":"pfc","flows":503,"incomplete":3,"reorders":17,"drops":99,"duration_s":12.5,
 "named":[{"name":"victim","mbps":12.3},{"name":"bystander","mbps":456}],
 "paced":[{"name":"F0","mbps":40.5,"fct_ms":355.25,"lost":0,"reorders":1,
  "dups":0,"src_pauses":7,"window_ms":150}],
 "queue":{"port":"fcq-s0/p0","avg_bytes":12345.6,"p99_bytes":65535,
  "max_bytes":70000,"window_ms":8000,"sd_bytes":4321,"empty_share":0.25,
  "util":0.875,"cdf":[[0,0.25],[16383,0.75],[65535,1]]},
 "queue_incast":{"port":"fcq-s0/p1","avg_bytes":2500,"p99_bytes":8191,
  "max_bytes":9000,"window_ms":8000}}
JSON
# Switch ports send PFC, hosts get paused: pfc_tx (and keyed tx_pause) on a
# host and paused_ns on a switch must not count, nor either without a
# role; drops count everywhere; keys may be missing.
cat >"$WORK/a/stats.json" <<'JSON'
[
 {"netns":"fcq-s0","dev":"p0","role":"switch","tc":{"kind":"ofc","drops":5,"drop_lossless":1,"kp":{"tx_pause":6,"rx_pause":100},
  "prio":[{"prio":0,"pfc_tx":0,"paused_ns":7},{"prio":3,"pfc_tx":120,"paused_ns":1000}]}},
 {"netns":"fcq-s0","dev":"p1","role":"switch","tc":{"kind":"pfc","drops":0,"drop_lossless":0,
  "prio":[{"prio":3,"pfc_tx":30}]}},
 {"netns":"fcq-h1","dev":"eth0","role":"host","tc":{"kind":"ofc","drops":2,"kp":{"tx_pause":50},
  "prio":[{"prio":3,"pfc_tx":999,"paused_ns":2500000},{"prio":4,"paused_ns":1250000}]}},
 {"netns":"fcq-h2","dev":"eth0","role":"host","tc":{"kind":"pfc","drops":4,"drop_lossless":3,
  "prio":[{"prio":3,"pfc_tx":0,"paused_ns":250000}]}},
 {"netns":"fcq-r1","dev":"eth9","tc":{"kind":"pfc","drops":1,
  "prio":[{"prio":3,"pfc_tx":70,"paused_ns":9000000}]}}
]
JSON

if [ ! -x "$REPORT" ]; then
	ktap_note "no $REPORT: build it (see the header of tools/fcq-report.c)"
	ktap_finish
fi

# Shared steps, each done once whichever case needs it first (so that
# TESTS= may name any case).

# The report of runs a and b in $WORK/out; AB_RC its exit status.
png=$WORK/out/slowdown.png
report_ab() {
	[ -z "${AB_RC:-}" ] || return 0
	"$REPORT" -o "$WORK/out" -t "pfc vs fafc, synthetic" "$WORK/a" "$WORK/b" \
		>"$WORK/stdout" 2>"$WORK/stderr"
	AB_RC=$?
}

# $WORK/bad: a fresh copy of run a, to break.
bad_copy() {
	rm -rf "$WORK/bad"
	cp -r "$WORK/a" "$WORK/bad"
}

# fcq-report on that copy with its summary.json edited by the jq filter $1:
# true if it exits 1 with a message matching $2; BAD_RC its exit status.
bad_summary() {
	bad_copy
	jq -c "$1" "$WORK/a/summary.json" >"$WORK/bad/summary.json"
	"$REPORT" -o "$WORK/bad-out" "$WORK/bad" >/dev/null 2>"$WORK/err"
	BAD_RC=$?
	[ $BAD_RC = 1 ] && grep -q "$2" "$WORK/err"
}

# ---- several seeds per scheme --------------------------------------------
# pfc with 3 runs (seeds 1 2 3), fafc with 4 (seeds 1 2 3 4), laid out as
# fcq-exp does: scheme-N-NAME/seed-S/. Reported by scheme directory into
# $WORK/by-scheme.json (exit SEEDS_RC1), and run by run into
# $WORK/exp-out (exit SEEDS_RC2).
E=$WORK/exp
seed_runs() {
	local s
	[ -z "${SEEDS_RC1:-}" ] || return 0
	for s in 1 2 3; do
		mkrun "$E/scheme-1-pfc/seed-$s" pfc $((1000 + 77 * s)) 0.7 $((10 * s))
		echo $s >"$E/scheme-1-pfc/seed-$s/seed"
	done
	for s in 1 2 3 4; do
		mkrun "$E/scheme-2-fafc/seed-$s" fafc $((5000 + 31 * s)) 0.4 $((4 * s))
		echo $s >"$E/scheme-2-fafc/seed-$s/seed"
	done
	"$REPORT" -o "$WORK/exp-out" "$E/scheme-1-pfc" "$E/scheme-2-fafc" >/dev/null 2>&1
	SEEDS_RC1=$?
	cp "$WORK/exp-out/report.json" "$WORK/by-scheme.json"
	"$REPORT" -o "$WORK/exp-out" "$E"/scheme-1-pfc/seed-{1,2,3} \
		"$E"/scheme-2-fafc/seed-{1,2,3,4} >/dev/null 2>&1
	SEEDS_RC2=$?
}
agg() { jq -S '[.schemes[] | del(.runs)]' "$1"; }

# An untrusted run: seed-2 of pfc says so in its summary.json, reported
# in $WORK/un (exit UN_RC, stderr in $WORK/un.err).
untrusted_run() {
	[ -z "${UN_RC:-}" ] || return 0
	seed_runs
	printf '{"trusted":false,"untrusted":["3 of 500 flows started late"]}\n' \
		>"$E/scheme-1-pfc/seed-2/summary.json"
	"$REPORT" -o "$WORK/un" "$E/scheme-1-pfc" "$E/scheme-2-fafc" >/dev/null 2>"$WORK/un.err"
	UN_RC=$?
	rm "$E/scheme-1-pfc/seed-2/summary.json"
}

# t(0.975, DF) by bisection of Student's t CDF in closed form for df 1 (2
# runs), df 2 (3 runs) and df 3 (4 runs), never from a table.
tq() {	# DF: t(0.975, DF)
	awk -v df="$1" 'function cdf(t) {
		if (df == 1) return 0.5 + atan2(t, 1) / 3.141592653589793
		if (df == 2) return 0.5 + t / (2 * sqrt(2 + t * t))
		return 0.5 + (t / (sqrt(3) * (1 + t * t / 3)) + atan2(t / sqrt(3), 1)) / 3.141592653589793
	} BEGIN { lo = 0; hi = 100
		for (i = 0; i < 200; i++) { m = (lo + hi) / 2; if (cdf(m) < 0.975) lo = m; else hi = m }
		printf "%.10f\n", lo }'
}
ci() {	# T VALUE...: "mean half"
	local t=$1
	shift
	printf '%s\n' "$@" | awk -v t="$t" '{ v[NR] = $1; s += $1 }
		END { m = s / NR; for (i = 1; i <= NR; i++) ss += (v[i] - m) ^ 2
		      printf "%.10f %.10f\n", m, t * sqrt(ss / (NR - 1) / NR) }'
}

# The run: exit 0, the three outputs, a real PNG of the asked size.
outputs() {
	local pngsize
	report_ab
	pngsize=$(stat -c %s "$png" 2>/dev/null || echo 0)
	ktap_note "exit $AB_RC; slowdown.png: $(file -b "$png" 2>&1), $pngsize bytes"
	[ "$AB_RC" = 0 ] && [ -s "$WORK/out/report.txt" ] && [ -s "$WORK/out/report.json" ] &&
		file -b "$png" | grep -q '^PNG image data, 1200 x 500' &&
		[ "$pngsize" -gt 10240 ] &&
		cmp -s "$WORK/stdout" "$WORK/out/report.txt"
	check_err $? "$(head -c 500 "$WORK/stderr")"
	log_test "fcq-report writes report.txt (also on stdout), report.json and a 1200x500 PNG"
}

# p50 or p99 (P) of all flows, recomputed from fct.txt.
pct_all() {	# P
	local p=$1 d s want got
	report_ab
	for d in a b; do
		s=$(cat "$WORK/$d/scheme")
		want=$(pct "$WORK/$d/fct.txt" "$p")
		got=$(rj ".schemes[] | select(.scheme == \"$s\") | .runs[0].groups.all.p$p")
		ktap_note "$s p$p: report $got, recomputed $want"
		close "$got" "$want" || check_err 1 "$s: $got != $want"
	done
	log_test "p$p of all flows is the nearest-rank p$p of max(1, fct/standalone)"
}
p50_all() { pct_all 50; }
p99_all() { pct_all 99; }

# The mean of all flows' slowdowns.
avg_all() {
	local d s want got
	report_ab
	for d in a b; do
		s=$(cat "$WORK/$d/scheme")
		want=$(awk '{ s = $7 / $8; t += s < 1 ? 1 : s } END { printf "%.10f\n", t / NR }' "$WORK/$d/fct.txt")
		got=$(rj ".schemes[] | select(.scheme == \"$s\") | .runs[0].groups.all.avg")
		close "$got" "$want" || check_err 1 "$s: $got != $want"
	done
	log_test "avg of all flows is the mean of max(1, fct/standalone)"
}

# The <10KB bucket holds exactly the flows with size < 10000.
small_bucket() {
	local d s want got
	report_ab
	for d in a b; do
		s=$(cat "$WORK/$d/scheme")
		want=$(awk '$5 < 10000' "$WORK/$d/fct.txt" | wc -l)
		got=$(rj ".schemes[] | select(.scheme == \"$s\") | .runs[0].groups[\"<10KB\"].count")
		[ "$got" = "$want" ] || check_err 1 "$s: $got != $want"
	done
	log_test "the <10KB bucket counts the flows with size < 10000"
}

# The incast group is the dport 200 flows, its p95 recomputed too.
incast_group() {
	local want_n want_p got_n got_p
	report_ab
	awk '$4 == 200' "$WORK/a/fct.txt" >"$WORK/incast.txt"
	want_n=$(wc -l <"$WORK/incast.txt") want_p=$(pct "$WORK/incast.txt" 95)
	got_n=$(rj '.schemes[0].runs[0].groups.incast.count') got_p=$(rj '.schemes[0].runs[0].groups.incast.p95')
	[ "$got_n" = "$want_n" ] && close "$got_p" "$want_p"
	check_err $? "count $got_n (want $want_n), p95 $got_p (want $want_p)"
	log_test "the incast group is the dport 200 flows"
}

# stats.json totals: switch pfc_tx and keyed PAUSEs, host paused time, all
# drops.
stats_totals() {
	local got
	report_ab
	got=$(rj '.schemes[0].runs[0] | "\(.pfc_tx) \(.kp_tx) \(.host_paused_ms) \(.drops) \(.drop_lossless)"')
	ktap_note "pfc_tx kp_tx host_paused_ms drops drop_lossless: $got"
	[ "$got" = "150 6 4 12 4" ]
	check_err $? "got $got, want 150 6 4 12 4"
	log_test "stats.json totals: pfc_tx and keyed PAUSEs of switches, paused_ns of hosts, drops of all"
}

# QCN's notifications: tc.qcn.cnm_tx summed over switch ports (a host's,
# or one without a role, does not count) into cnm_tx and a cnm_sent column;
# a report without qcn ports has neither.
stats_cnm() {
	local got col
	report_ab
	bad_copy
	jq -c '.[0].tc.qcn = {"cnm_tx": 40, "samples": 99} |
		.[1].tc.qcn = {"cnm_tx": 2} | .[2].tc.qcn = {"cnm_tx": 500} |
		.[4].tc.qcn = {"cnm_tx": 7000}' "$WORK/a/stats.json" \
		>"$WORK/bad/stats.json"
	"$REPORT" -o "$WORK/cnm-out" "$WORK/bad" >/dev/null 2>"$WORK/err"
	got=$(jq -r '.schemes[0] | "\(.runs[0].cnm_tx) \(.cnm_tx.mean)"' \
		"$WORK/cnm-out/report.json")
	col=$(sed -n '/^counters (/{n;p;n;p}' "$WORK/cnm-out/report.txt" |
		awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cnm_sent") c = i }
		     NR == 2 { print c ? $c : "none" }')
	ktap_note "cnm_tx of the run and its mean, the table's cnm_sent: $got $col"
	[ "$got $col" = "42 42 42" ] &&
		! grep -q cnm "$WORK/out/report.txt" "$WORK/out/report.json"
	check_err $? "got $got $col, want 42 42 42; without qcn: $(grep -c cnm "$WORK/out/report.txt")"
	log_test "stats.json: switches' QCN notifications counted, and only when there are qcn ports"
}

# summary.json: incomplete flows (a run with some is stuck), UDP reorders
# and named flows; no stats.json gives "-".
summary_named() {
	local got got_b
	report_ab
	got=$(rj '.schemes[0].runs[0] | "\(.incomplete) \(.stuck) \(.reorders) \(.named[0].name)=\(.named[0].mbps) \(.named[1].mbps)"')
	got_b=$(rj '.schemes[1].runs[0] | "\(.incomplete) \(.stuck) \(.reorders) \(.pfc_tx) \(.named | length)"')
	[ "$got" = "3 1 17 victim=12.3 456" ] && [ "$got_b" = "null null null null 0" ] &&
		grep -Eq '^pfc +500 +3 +1 +17 +12 +4 +150 +6 +4\.000 +12\.30 +456\.00$' "$WORK/out/report.txt" &&
		grep -Eq '^fafc +500 +- +- +- +- +- +- +- +- +- +-$' "$WORK/out/report.txt"
	check_err $? "pfc: $got; fafc: $got_b"
	log_test "summary.json's incomplete flows, stuck, reorders, named flows; missing files show -"
}

# summary.json's paced streams: a row per scheme and stream, as written;
# a stream without one of its numbers is an error that names it.
summary_paced() {
	local got
	report_ab
	got=$(rj '.schemes[0] | "\(.runs[0].paced[0].name) \(.runs[0].paced[0].fct_ms) \(.paced[0].mbps.mean) \(.paced[0].src_pauses.n)"')
	[ "$got" = "F0 355.25 40.5 1" ] &&
		grep -Eq '^pfc +F0 +40\.50 +355\.25 +0 +1 +0 +7$' "$WORK/out/report.txt" &&
		grep -Eq '^fafc +F0 +- +- +- +- +- +-$' "$WORK/out/report.txt"
	check_err $? "got $got, or the table's rows differ: $(grep -A3 '^paced' "$WORK/out/report.txt")"
	bad_summary '.paced[0] |= del(.reorders)' 'summary.json: paced\[0\].reorders'
	check_err $? "exit $BAD_RC: $(cat "$WORK/err")"
	log_test "summary.json's paced streams: per scheme with intervals; a missing number named"
}

# Jain's index of a run's paced streams, recomputed here from the same
# summary.json: pfc seeds 1-3 with three streams each (one at 0 in seed
# 3), seed 4 with one stream (no index); fafc's two runs got nothing
# through (no index either, "-" in the table).
paced_jain() {
	local J=$WORK/jain s d got want agg m h row trow
	for s in 1 2 3 4; do
		d=$J/scheme-1-pfc/seed-$s
		mkrun "$d" pfc $((300 + s)) 0.5 5
		jq -n --argjson s $s '{seed: $s, paced: ((if $s == 4 then [7]
			else [$s, 2 * $s + 1, (if $s == 3 then 0 else 4.5 end)] end)
			| to_entries | map({name: "f\(.key)", mbps: .value,
			fct_ms: 1, lost: 0, reorders: 0, dups: 0, src_pauses: 0}))}' \
			>"$d/summary.json"
	done
	for s in 1 2; do
		d=$J/scheme-2-fafc/seed-$s
		mkrun "$d" fafc $((400 + s)) 0.5 5
		jq -n --argjson s $s '{seed: $s, paced: ([0, 0] | to_entries |
			map({name: "f\(.key)", mbps: 0, fct_ms: null, lost: 0,
			reorders: 0, dups: 0, src_pauses: 0}))}' >"$d/summary.json"
	done
	"$REPORT" -o "$J/out" "$J"/scheme-* >/dev/null 2>"$J/err"
	check_err $? "exit $?: $(cat "$J/err")"
	want=() got=()
	for s in 1 2 3; do
		want+=("$(jq -r '[.paced[].mbps] | (add * add) / (length * (map(. * .) | add))' \
			"$J/scheme-1-pfc/seed-$s/summary.json")")
	done
	mapfile -t got < <(jq -r '.schemes[0].runs[] | .paced_jain' "$J/out/report.json")
	read -r m h <<<"$(ci "$(tq 2)" "${want[@]}")"
	ktap_note "per run: ${got[*]}; want ${want[*]} null; mean $m ± $h"
	[ "${#got[@]}" = 4 ] && [ "${got[3]}" = null ] &&
		close "${got[0]}" "${want[0]}" && close "${got[1]}" "${want[1]}" &&
		close "${got[2]}" "${want[2]}"
	check_err $? "per-run paced_jain differ"
	agg=$(jq -r '.schemes[0].paced_jain | "\(.mean) \(.ci95) \(.n)"' "$J/out/report.json")
	# the half-width within 1e-4 of ours (fcq-report's t from a table)
	awk -v a="$agg" -v m="$m" -v h="$h" 'BEGIN { split(a, g, " ")
		exit !(g[1] - m < 1e-6 && m - g[1] < 1e-6 &&
		       g[2] - h < 1e-4 * h && h - g[2] < 1e-4 * h && g[3] == 3) }' &&
		[ "$(jq -r '.schemes[1].paced_jain' "$J/out/report.json")" = null ]
	check_err $? "pfc's aggregate: $agg, want $m $h 3; fafc's: $(jq -c '.schemes[1].paced_jain' "$J/out/report.json")"
	row=$(grep -A3 '^paced fairness' "$J/out/report.txt" | grep -E '^(pfc|fafc) ' | tr -s ' ' | tr '\n' '|')
	trow=$(printf 'pfc %.4f±%.4f|fafc -|' "$m" "$h")
	[ "$row" = "$trow" ]
	check_err $? "paced fairness table: $row; want $trow"
	log_test "paced_jain: Jain's index of each run's paced streams, mean ± 95 % over runs; none with one stream or no goodput"
}

# ---- per-phase records ------------------------------------------------------
# pfc seeds 1-3 and fafc seeds 1-3 with synthetic "phases" and
# "phase_streams" (records out of report order, stream f0 not in "paced";
# fafc seed 3 has no M for phase 2 to host 5), and pfc seed 4 without
# either; reported in $WORK/ph (exit PH_RC).
PH=$WORK/phruns
phase_runs() {
	local c s sc d
	[ -z "${PH_RC:-}" ] || return 0
	for c in 1 2; do
		sc=$([ $c = 1 ] && echo pfc || echo fafc)
		for s in 1 2 3; do
			d=$PH/scheme-$c-$sc/seed-$s
			mkrun "$d" "$sc" $((100 * c + s)) 0.5 5
			jq -n --argjson c $c --argjson s $s '{seed: $s,
			  paced: ([1, 2] | map({name: "f\(.)", mbps: 1, fct_ms: 1,
			    lost: 0, reorders: 0, dups: 0, src_pauses: 0})),
			  phases: ([[2, 6, 1], [1, 5, 2], [2, 5, $s]] | map(
			    {phase: .[0], dst: .[1], flows: .[2],
			     J: (0.9 + 0.013 * $s * $c + 0.001 * .[0]),
			     M: (1 + 0.05 * $s * $s + 0.1 * $c + 0.01 * .[1]),
			     E: (0.01 * $s * $s * $c + 0.002 * .[1]),
			     U: (0.8 + 0.03 * $s - 0.02 * $c + 0.01 * .[0])})),
			  phase_streams: ([["f0", 1], ["f2", 2], ["f1", 2], ["f1", 1]] | map(
			    {phase: .[1], name: .[0],
			     mbps: (4 + 0.3 * $s * $c + .[1]), fair_mbps: (5 + .[1])}
			    | .share = .mbps / .fair_mbps))}
			| if $c == 2 and $s == 3 then .phases[2].M = null else . end' \
				>"$d/summary.json"
		done
	done
	mkrun "$PH/scheme-1-pfc/seed-4" pfc 104 0.5 5
	echo '{"seed":4}' >"$PH/scheme-1-pfc/seed-4/summary.json"
	"$REPORT" -o "$WORK/ph" "$PH"/scheme-* >/dev/null 2>"$WORK/ph.err"
	PH_RC=$?
}

# Array A's records of scheme SC, each statistic on a line "ID KEY n mean
# ci95" (ID: "phase dst" or "stream phase"), recomputed from the runs'
# summary.json here or, with -r, as report.json has them.
ph_id='(if has("dst") then "\(.phase) \(.dst)" else "\(.name) \(.phase)" end)'
ph_want() {	# SC A KEYS
	local f
	for f in "$PH"/scheme-*-"$1"/seed-*/summary.json; do
		jq -r --arg a "$2" --argjson ks "$3" '.[$a][]? | . as $r |
			$ks[] as $k | select($r[$k] != null) |
			"\($r | '"$ph_id"') \($k) \($r[$k])"' "$f"
	done | awk -v t1="$(tq 1)" -v t2="$(tq 2)" '{
		id = $1 " " $2 " " $3; if (!(id in n)) ids[++m] = id
		v[id, ++n[id]] = $4; s[id] += $4 }
	END { t[2] = t1; t[3] = t2
		for (i = 1; i <= m; i++) { id = ids[i]; k = n[id]; a = s[id] / k; ss = 0
			for (j = 1; j <= k; j++) ss += (v[id, j] - a) ^ 2
			h = k < 2 ? "null" : sprintf("%.12g", t[k] * sqrt(ss / (k - 1) / k))
			printf "%s %d %.12g %s\n", id, k, a, h } }' |
		sort
}
ph_got() {	# SC A KEYS
	jq -r --arg sc "$1" --arg a "$2" --argjson ks "$3" '.schemes[] |
		select(.scheme == $sc) | .[$a][] | . as $r | $ks[] as $k |
		select($r[$k] != null) |
		"\($r | '"$ph_id"') \($k) \($r[$k].n) \($r[$k].mean) \($r[$k].ci95)"' \
		"$WORK/ph/report.json" | sort
}
# Both the same records and n, the means within 1e-9, the ci95 within
# 1e-4 of theirs (fcq-report's t from a table, ours by bisection).
ph_same() {	# SC A KEYS
	local got want
	got=$(ph_got "$@") want=$(ph_want "$@")
	[ "$(echo "$got" | wc -l)" = "$(echo "$want" | wc -l)" ] &&
		paste -d ' ' <(echo "$got") <(echo "$want") | awk '{
			d = $5 - $11; e = $6 - $12
			if ($1 != $7 || $2 != $8 || $3 != $9 || $4 != $10 ||
			    d * d > 1e-18 || ($6 == "null") != ($12 == "null") ||
			    ($6 != "null" && e * e > ($12 * 1e-4) ^ 2))
				exit 1 }'
}
# The same, as report.txt's row of SC and ID: DIGITS[KEY] places ("0":
# a count, one place with an interval).
ph_rows() {	# SC A KEYS DIGITS ID...
	local sc=$1 a=$2 ks=$3 dg=$4
	shift 4
	ph_want "$sc" "$a" "$ks" >"$WORK/ph-want"
	printf '%s\n' "$@" | awk -v sc="$sc" -v ks="$ks" -v dg="$dg" '
	NR == FNR { w[$1 " " $2 " " $3] = $4 " " $5 " " $6; next }
	{	gsub(/[][" ]/, "", ks); nk = split(ks, k, ",")
		split(dg, d, ","); row = sc " " $0
		# the runs with the record: the first key is never null
		split(w[$0 " " k[1]], x, " "); have = x[1]
		for (i = 1; i <= nk; i++) {
			if (!((id = $0 " " k[i]) in w)) { row = row " -"; continue }
			split(w[id], x, " ")
			if (x[1] < 2)
				row = row " " sprintf("%.*f", d[i], x[2])
			else {
				p = d[i] ? d[i] : 1
				row = row " " sprintf("%.*f\302\261%.*f", p, x[2], p, x[3])
			}
			if (x[1] < have)
				row = row " (" x[1] " of " have ")"
		}
		print row }' "$WORK/ph-want" -
}
ph_table() {	# HEAD: its rows, blanks squeezed
	sed -n "/^$1 (/,/^\$/p" "$WORK/ph/report.txt" | sed '1d; /^$/d' |
		awk '{ $1 = $1 } 1'
}

# The per-phase records: per scheme and record, mean and Student t 95 %
# interval over the runs that have the value, recomputed here; a run
# without them or with a null counts in no n ("(K of N)" after a value
# some runs of the record lack); rows in order of phase and
# receiver, and of stream ("paced" order) and phase; a malformed record is
# an error that names it; without them, no trace.
summary_phases() {
	local ks1='["flows","J","M","E","U"]' ks2='["mbps","fair_mbps","share"]'
	local sc got want rows n
	phase_runs
	for sc in pfc fafc; do
		ph_same $sc phases "$ks1" ||
			check_err 1 "$sc phases: $(ph_got $sc phases "$ks1")"
		ph_same $sc phase_streams "$ks2" ||
			check_err 1 "$sc phase_streams: $(ph_got $sc phase_streams "$ks2")"
	done
	n=$(jq -r '[.schemes[] | .phases[] | select(.phase == 2 and .dst == 5) |
		"\(.M.n)/\(.J.n)", (.flows.ci95 > 0)] | join(" ")' "$WORK/ph/report.json")
	got=$(jq -c '[.schemes[0].runs[3] | .phases, .phase_streams],
		.schemes[1].runs[2].phases[2].M' "$WORK/ph/report.json" | tr '\n' ' ')
	ktap_note "phase 2 to host 5, M.n/J.n and flows varying: $n; pfc seed 4, fafc seed 3's M: $got"
	[ "$PH_RC" = 0 ] && [ "$n" = "3/3 true 2/3 true" ] && [ "$got" = "[[],[]] null " ]
	check_err $? "exit $PH_RC: $(cat "$WORK/ph.err")"

	rows=$(ph_table phases)
	want=$(echo "scheme phase to flows J M E U"
		for sc in pfc fafc; do
			ph_rows $sc phases "$ks1" 0,3,3,3,3 "1 5" "2 5" "2 6"
		done)
	ktap_note "$(echo "$rows" | sed -n 6p)"
	[ "$rows" = "$want" ]
	check_err $? "phases table: $rows; want: $want"
	rows=$(ph_table "phase shares")
	want=$(echo "scheme stream phase mbps fair_mbps share"
		for sc in pfc fafc; do
			ph_rows $sc phase_streams "$ks2" 2,2,3 "f1 1" "f1 2" "f2 2" "f0 1"
		done)
	[ "$rows" = "$want" ]
	check_err $? "phase shares table: $rows; want: $want"

	report_ab
	[ "$(rj '[.schemes[] | has("phases"), has("phase_streams"),
		(.runs[] | has("phases"))] | any')" = false ] &&
		! grep -q '^phase' "$WORK/out/report.txt"
	check_err $? "runs without phases: a phases key or table"
	bad_summary '.phases = "5"' 'summary.json: "phases": expected an array'
	check_err $? "exit $BAD_RC: $(cat "$WORK/err")"
	bad_summary '.phases = [{"phase": 1, "dst": 5, "flows": 2, "J": 1,
		"M": 1, "E": 0}]' 'summary.json: phases\[0\]\.U'
	check_err $? "exit $BAD_RC: $(cat "$WORK/err")"
	bad_summary '.phase_streams = [{"phase": "1", "name": "f1", "mbps": 1,
		"fair_mbps": 1, "share": 1}]' 'summary.json: phase_streams\[0\]\.phase'
	check_err $? "exit $BAD_RC: $(cat "$WORK/err")"
	log_test "summary.json's phases and phase shares: per scheme with intervals; a malformed one named"
}

# summary.json's deepest queue and the incast receiver's: in kB, per run
# and per scheme, the deepest's deviation, empty share and utilization
# too, and its distribution drawn (queue.png, from queue-1.dat: the step
# of each edge of the summary's cdf); a run without them shows -, one
# without a number is an error that names it.
summary_queue() {
	local got
	report_ab
	got=$(rj '.schemes[0] | "\(.runs[0].queue_avg_kb) \(.queue_p99_kb.mean) \(.queue_avg_kb.n) \(.runs[0].incast_queue_avg_kb) \(.incast_queue_p99_kb.mean) \(.runs[0].queue_sd_kb) \(.runs[0].queue_empty) \(.runs[0].queue_util)"')
	[ "$got" = "12.3456 65.535 1 2.5 8.191 4.321 0.25 0.875" ] &&
		grep -Eq '^pfc +12\.35 +65\.53 +4\.32 +0\.2500 +0\.8750 +2\.50 +8\.19 *$' "$WORK/out/report.txt" &&
		grep -Eq '^fafc +- +- +- +- +- +- +- *$' "$WORK/out/report.txt" &&
		[ -s "$WORK/out/queue.png" ] &&
		[ "$(awk '$1 == 0 || $1 == 16.383 || $1 == 32.7675 || $1 == 65.535 { printf "%s:%s ", $1, $2 }' "$WORK/out/queue-1.dat")" = "0:0.25 32.7675:0.75 65.535:1 " ]
	check_err $? "got $got, or the table's rows differ: $(grep -A3 '^queue' "$WORK/out/report.txt")"
	bad_summary '.queue |= del(.p99_bytes)' 'summary.json: "queue"'
	check_err $? "exit $BAD_RC: $(cat "$WORK/err")"
	bad_summary '.queue_incast |= del(.avg_bytes)' 'summary.json: "queue_incast"'
	check_err $? "exit $BAD_RC: $(cat "$WORK/err")"
	log_test "summary.json's deepest and incast queues: kB per run and scheme; a missing number named"
}

# A malformed line: exit 1, the message names the file and the line.
malformed_line() {
	local rc
	bad_copy
	awk 'NR == 37 { $5 = "12x4" } 1' "$WORK/a/fct.txt" >"$WORK/bad/fct.txt"
	"$REPORT" -o "$WORK/out-bad" "$WORK/a" "$WORK/bad" >/dev/null 2>"$WORK/err"
	rc=$?
	ktap_note "line 37: $(sed -n 37p "$WORK/bad/fct.txt"); exit $rc: $(cat "$WORK/err")"
	[ $rc = 1 ] && grep -q "$WORK/bad/fct.txt:37:" "$WORK/err"
	check_err $? "want exit 1 and $WORK/bad/fct.txt:37:"
	log_test "a malformed fct.txt line exits 1 naming file:line"
}

# A short line and a broken stats.json: the same.
short_line_bad_json() {
	local rc1 err1 rc2 err2
	bad_copy
	sed -i '5s/ [0-9]*$//' "$WORK/bad/fct.txt"
	"$REPORT" -o "$WORK/out-bad" "$WORK/bad" >/dev/null 2>"$WORK/err"
	rc1=$? err1=$(cat "$WORK/err")
	cp "$WORK/a/fct.txt" "$WORK/bad/fct.txt"
	sed -i '6s/"drops":2,/"drops":2,,/' "$WORK/bad/stats.json"
	"$REPORT" -o "$WORK/out-bad" "$WORK/bad" >/dev/null 2>"$WORK/err"
	rc2=$? err2=$(cat "$WORK/err")
	ktap_note "$err1"
	ktap_note "$err2"
	[ $rc1 = 1 ] && [[ $err1 == *"bad/fct.txt:5:"* ]] &&
		[ $rc2 = 1 ] && [[ $err2 == *"bad/stats.json:6:"* ]]
	check_err $? "exit $rc1 and $rc2, want 1 naming bad/fct.txt:5: and bad/stats.json:6:"
	log_test "a 7-column line and a JSON syntax error name file:line"
}

# Usage errors exit 2: no DIR, an unknown option.
usage_exit2() {
	local rc1 rc2
	"$REPORT" >/dev/null 2>&1
	rc1=$?
	"$REPORT" -x "$WORK/a" >/dev/null 2>&1
	rc2=$?
	[ $rc1 = 2 ] && [ $rc2 = 2 ]
	check_err $? "no DIR: $rc1, -x: $rc2"
	log_test "usage errors exit 2"
}

# gnuplot failing is an error, not a silent missing figure.
gnuplot_fails() {
	local rc
	report_ab
	mkdir -p "$WORK/fakebin"
	# It fails after writing part of a figure, as gnuplot can.
	printf '#!/bin/sh\ncp "%s" slowdown.png\necho "fake gnuplot: broken" >&2\nexit 1\n' \
		"$png" >"$WORK/fakebin/gnuplot"
	chmod +x "$WORK/fakebin/gnuplot"
	PATH="$WORK/fakebin:$PATH" "$REPORT" -o "$WORK/out-gp" "$WORK/a" >/dev/null 2>"$WORK/err"
	rc=$?
	ktap_note "exit $rc: $(tail -n 1 "$WORK/err")"
	[ $rc = 1 ] && grep -q 'gnuplot' "$WORK/err" && [ ! -e "$WORK/out-gp/slowdown.png" ]
	check_err $? "want exit 1, gnuplot named, no slowdown.png"
	log_test "a failing gnuplot makes fcq-report exit 1"
}

# One directory of runs or the runs one by one: the same aggregates.
seeds_same_aggregates() {
	seed_runs
	[ "$SEEDS_RC1" = 0 ] && [ "$SEEDS_RC2" = 0 ] &&
		[ "$(agg "$WORK/by-scheme.json")" = "$(agg "$WORK/exp-out/report.json")" ] &&
		[ "$(jq '[.schemes[] | .runs | length] | join(" ")' -r "$WORK/by-scheme.json")" = "3 4" ]
	check_err $? "exit $SEEDS_RC1/$SEEDS_RC2"
	log_test "a directory of seed runs and its runs named one by one: same aggregates"
}

# Mean and 95 % interval of the per-run avg or p99 (STAT) of all flows,
# recomputed here: t(0.975, df) from tq.
seeds_stat() {	# STAT
	local stat=$1 sc s f vals m h got_m got_h
	seed_runs
	for sc in "pfc 3 2" "fafc 4 3"; do
		set -- $sc
		vals=()
		for s in $(seq "$2"); do
			f=$(ls -d "$E"/scheme-*-"$1"/seed-$s)/fct.txt
			if [ "$stat" = avg ]; then
				vals+=("$(awk '{ s = $7 / $8; t += s < 1 ? 1 : s } END { printf "%.12f\n", t / NR }' "$f")")
			else
				vals+=("$(pct "$f" 99)")
			fi
		done
		read -r m h <<<"$(ci "$(tq "$3")" "${vals[@]}")"
		got_m=$(jq -r --arg s "$1" --arg k "$stat" '.schemes[] | select(.scheme == $s) | .groups.all[$k].mean' "$WORK/by-scheme.json")
		got_h=$(jq -r --arg s "$1" --arg k "$stat" '.schemes[] | select(.scheme == $s) | .groups.all[$k].ci95' "$WORK/by-scheme.json")
		ktap_note "$1 $stat: report $got_m ± $got_h, recomputed $m ± $h"
		awk -v a="$got_m" -v b="$m" -v c="$got_h" -v d="$h" 'BEGIN {
			exit !(a - b < 1e-6 && b - a < 1e-6 && c - d < 1e-3 * d && d - c < 1e-3 * d) }' ||
			check_err 1 "$1"
	done
	log_test "$stat of all flows: mean over seeds and Student t 95 % half-width"
}
seeds_avg() { seeds_stat avg; }
seeds_p99() { seeds_stat p99; }

# One run: a value, no interval, in JSON and text.
single_run() {
	local rc one row
	seed_runs
	"$REPORT" -o "$WORK/one" "$E/scheme-1-pfc/seed-1" "$E/scheme-2-fafc" >/dev/null 2>&1
	rc=$?
	one=$(jq -r '.schemes[0].groups.all.p99 | "\(.n) \(.ci95)"' "$WORK/one/report.json")
	row=$(grep -m1 '^pfc ' "$WORK/one/report.txt")
	[ $rc = 0 ] && [ "$one" = "1 null" ] && [[ "$row" != *±* ]] &&
		grep -m1 '^fafc ' "$WORK/one/report.txt" | grep -q '±'
	check_err $? "$one; $row"
	log_test "a single run shows its value, several a mean±interval"
}

# -p hpcc: a[int(n * p)] of the sorted slowdowns, 0-based (n = 500:
# n * p is whole for p50, p95 and p99, where the rules differ by one rank).
hpcc_percentiles() {
	local rc p want got near
	report_ab
	"$REPORT" -p hpcc -o "$WORK/hp" "$WORK/a" >/dev/null 2>&1
	rc=$?
	for p in 50 95 99; do
		want=$(awk '{ s = $7 / $8; if (s < 1) s = 1; printf "%.17g\n", s }' "$WORK/a/fct.txt" |
			sort -g | awk -v p="$p" '{ v[NR - 1] = $1 }
			END { i = int(NR * p / 100); if (i > NR - 1) i = NR - 1; printf "%.10f\n", v[i] }')
		got=$(jq -r ".schemes[0].runs[0].groups.all.p$p" "$WORK/hp/report.json")
		near=$(rj ".schemes[0].runs[0].groups.all.p$p")
		ktap_note "p$p: hpcc rule $got (recomputed $want), nearest rank $near"
		close "$got" "$want" || check_err 1 "p$p"
	done
	[ $rc = 0 ] && grep -q "fct_analysis.py" "$WORK/hp/report.txt" &&
		[ "$(jq -r .percentile "$WORK/hp/report.json" | grep -c fct_analysis)" = 1 ]
	check_err $? "exit $rc, or fct_analysis.py not named"
	log_test "-p hpcc: fct_analysis.py's percentiles, and the report says so"
}

# An untrusted run: a WARNING naming it, in report.txt and on stderr;
# written anyway; exit 3.
untrusted_warning() {
	untrusted_run
	[ "$UN_RC" = 3 ] && grep -q "^WARNING: .*seed-2 (pfc) is not trusted: 3 of 500 flows started late" \
		"$WORK/un/report.txt" && grep -q "WARNING" "$WORK/un.err" &&
		[ -s "$WORK/un/slowdown.png" ] && [ "$(jq .trusted "$WORK/un/report.json")" = false ]
	check_err $? "exit $UN_RC"
	log_test "an untrusted run: WARNING in the report and on stderr, exit 3"
}

# The same seed with different flows in two schemes: unfair, exit 3.
seed_flows_differ() {
	local rc
	seed_runs
	printf '{"seed":3,"flows_md5":"aaaa"}\n' >"$E/scheme-1-pfc/seed-3/summary.json"
	printf '{"seed":3,"flows_md5":"bbbb"}\n' >"$E/scheme-2-fafc/seed-3/summary.json"
	"$REPORT" -o "$WORK/md" "$E/scheme-1-pfc" "$E/scheme-2-fafc" >/dev/null 2>&1
	rc=$?
	rm "$E/scheme-1-pfc/seed-3/summary.json" "$E/scheme-2-fafc/seed-3/summary.json"
	[ $rc = 3 ] && grep -q "^WARNING: .*both ran seed 3 but replayed different flows" "$WORK/md/report.txt"
	check_err $? "exit $rc"
	log_test "one seed, different flows in two schemes: WARNING, exit 3"
}

# Paired: fafc minus pfc seed by seed over the seeds both ran (1 2 3),
# mean and Student t (df 2) half-width, recomputed.
paired() {
	local sd a b vals=() m h got vs n gm gh
	untrusted_run
	for sd in 1 2 3; do
		a=$(awk '{ s = $7 / $8; t += s < 1 ? 1 : s } END { printf "%.12f\n", t / NR }' "$E/scheme-2-fafc/seed-$sd/fct.txt")
		b=$(awk '{ s = $7 / $8; t += s < 1 ? 1 : s } END { printf "%.12f\n", t / NR }' "$E/scheme-1-pfc/seed-$sd/fct.txt")
		vals+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.12f\n", a - b }')")
	done
	read -r m h <<<"$(ci "$(tq 2)" "${vals[@]}")"
	got=$(jq -r '.schemes[1].paired | "\(.vs) \(.avg.n) \(.avg.mean) \(.avg.ci95)"' "$WORK/by-scheme.json")
	ktap_note "fafc - pfc avg: report $got; recomputed $m ± $h"
	read -r vs n gm gh <<<"$got"
	[ "$vs" = pfc ] && [ "$n" = 3 ] &&
		awk -v a="$gm" -v b="$m" -v c="$gh" -v d="$h" 'BEGIN {
			exit !(a - b < 1e-6 && b - a < 1e-6 && c - d < 1e-3 * d && d - c < 1e-3 * d) }' &&
		grep -q "minus pfc's, seed by seed" "$WORK/un/report.txt"
	check_err $? "$got"
	log_test "paired: the difference from the first scheme over the seeds both ran"
}

# ---- a sweep (-s) ----------------------------------------------------------
# bfc at 8 and 2 queues (in that order; three seeds at 8), fs at 4, pfc
# a reference; "bfc-x2" and "fs-4q-po" are no points (references too).
# Reported in $WORK/sw (exit SW_RC).
SW=$WORK/swruns
sweep_runs() {
	local s
	[ -z "${SW_RC:-}" ] || return 0
	mkrun "$SW/scheme-1-pfc" pfc 11 0.7 40
	mkrun "$SW/scheme-3-bfc-2q" bfc-2q 22 0.6 30
	for s in 1 2 3; do
		mkrun "$SW/scheme-2-bfc-8q/seed-$s" bfc-8q $((33 + s)) 0.5 $((5 * s))
		echo $s >"$SW/scheme-2-bfc-8q/seed-$s/seed"
	done
	mkrun "$SW/scheme-4-fs-4q" fs-4q 44 0.3 4
	mkrun "$SW/scheme-5-fs-4q-po" fs-4q-po 55 0.4 6
	mkrun "$SW/scheme-6-bfc-x2" bfc-x2 66 0.4 6
	"$REPORT" -s "queues per port" -o "$WORK/sw" "$SW"/scheme-* >/dev/null 2>"$WORK/sw.err"
	SW_RC=$?
}

# The table of the short flows' p99: a row per series, a column per N,
# "-" where a series has no point, the references in its title; each cell
# the <10KB p99 recomputed here (bfc-8q: the mean over its seeds).
sweep_table() {
	local rows title bfc fs want2 want4 want8 vals=() s m h
	sweep_runs
	rows=$(sed -n '/^sweep: <10KB p99 slowdown against queues per port/,/^$/p' "$WORK/sw/report.txt")
	title=$(echo "$rows" | head -n 1)
	bfc=$(echo "$rows" | awk '$1 == "bfc" { print $2, $3, $4 }')
	fs=$(echo "$rows" | awk '$1 == "fs" { print $2, $3, $4 }')
	for s in 1 2 3; do
		awk '$5 < 10000' "$SW/scheme-2-bfc-8q/seed-$s/fct.txt" >"$WORK/sw-small.txt"
		vals+=("$(pct "$WORK/sw-small.txt" 99)")
	done
	read -r m h <<<"$(ci "$(tq 2)" "${vals[@]}")"
	want8=$(printf '%.3f\u00b1%.3f' "$m" "$h")
	awk '$5 < 10000' "$SW/scheme-3-bfc-2q/fct.txt" >"$WORK/sw-small.txt"
	want2=$(printf '%.3f' "$(pct "$WORK/sw-small.txt" 99)")
	awk '$5 < 10000' "$SW/scheme-4-fs-4q/fct.txt" >"$WORK/sw-small.txt"
	want4=$(printf '%.3f' "$(pct "$WORK/sw-small.txt" 99)")
	ktap_note "$title"
	ktap_note "bfc: $bfc (want $want2 - $want8); fs: $fs (want - $want4 -)"
	[ "$SW_RC" = 0 ] &&
		echo "$rows" | sed -n 2p | grep -q '^series  *2  *4  *8$' &&
		[ "$bfc" = "$want2 - $want8" ] && [ "$fs" = "- $want4 -" ] &&
		[[ "$title" == *"(others: pfc "*", fs-4q-po "*", bfc-x2 "*")" ]] &&
		[ "$(grep -c '^sweep: ' "$WORK/sw/report.txt")" = 3 ]
	check_err $? "exit $SW_RC: $(cat "$WORK/sw.err")"
	log_test "-s: per statistic a table of the series against N, references named"
}

# The figure, its data and report.json's map of the series.
sweep_plot() {
	local series dat
	sweep_runs
	series=$(jq -c '.sweep | [.label, (.series[] | .name, [.points[] | "\(.x):\(.scheme)"])]' "$WORK/sw/report.json")
	dat=$(grep -v '^#' "$WORK/sw/sweep-1.dat" | awk '{ print $1, NF }' | tr '\n' ' ')
	ktap_note "report.json: $series; sweep-1.dat: $dat"
	ktap_note "sweep.png: $(file -b "$WORK/sw/sweep.png" 2>&1)"
	[ "$series" = '["queues per port","bfc",["2:bfc-2q","8:bfc-8q"],"fs",["4:fs-4q"]]' ] &&
		[ "$dat" = "2 10 8 10 " ] &&
		file -b "$WORK/sw/sweep.png" | grep -q '^PNG image data, 1500 x 500'
	check_err $? "exit $SW_RC"
	log_test "-s: sweep.png (1500x500) from sweep-S.dat, the series in report.json"
}

# Two schemes at one point, or no scheme to sweep: exit 1 and why, no
# report; without -s, an old sweep.png goes.
sweep_errors() {
	local rc1 err1 rc2 err2 rc3
	sweep_runs
	mkrun "$WORK/sw-dup/scheme-1-bfc-2" bfc-2 1 0.5 5
	"$REPORT" -s queues -o "$WORK/sw-dup-out" "$SW/scheme-3-bfc-2q" "$WORK/sw-dup/scheme-1-bfc-2" >/dev/null 2>"$WORK/err"
	rc1=$? err1=$(cat "$WORK/err")
	"$REPORT" -s queues -o "$WORK/sw-none" "$SW/scheme-1-pfc" >/dev/null 2>"$WORK/err"
	rc2=$? err2=$(cat "$WORK/err")
	cp -r "$WORK/sw" "$WORK/sw-again"
	"$REPORT" -o "$WORK/sw-again" "$SW"/scheme-* >/dev/null 2>&1
	rc3=$?
	ktap_note "$err1"
	ktap_note "$err2"
	[ $rc1 = 1 ] && [[ $err1 == *"bfc-2q and bfc-2 are both bfc at 2"* ]] &&
		[ ! -e "$WORK/sw-dup-out" ] &&
		[ $rc2 = 1 ] && [[ $err2 == *"-s queues: no scheme is named SERIES-N"* ]] &&
		[ ! -e "$WORK/sw-none" ] &&
		[ $rc3 = 0 ] && [ ! -e "$WORK/sw-again/sweep.png" ] &&
		! grep -q '^sweep: ' "$WORK/sw-again/report.txt"
	check_err $? "exit $rc1, $rc2, $rc3"
	log_test "-s: two schemes at one N or none to sweep exit 1; without -s no sweep.png"
}

# HPCC's pfc.txt and qlen.txt beside run a's fct.txt: pauses.png with a
# bar per paused interval (port 5/2 paused from 2.0001 s to 2.0003 s, a
# second pause line inside it changing nothing; port 0/1 paused at
# 2.0002 s and never resumed: to the file's last time, 2.0004 s), and
# qlen.png from the last dump, both ports' counts added: 7 samples in
# [0, 1) kB, 2 in [1, 2), 1 in [2, 3).
hpcc_run() {
	[ -z "${HT_RC:-}" ] || return 0
	mkrun "$WORK/ht" pfc 12345 0.7 40
	printf '%s\n' "2000100000 5 1 2 1" "2000150000 5 1 2 1" \
		"2000200000 0 0 1 1" "2000300000 5 1 2 0" "2000400000 5 1 2 0" \
		>"$WORK/ht/pfc.txt"
	printf '%s\n' "time: 2000000000" "5 1 1" "5 2 1" "time: 2000100000" \
		"5 1 3 2 1" "5 2 4" >"$WORK/ht/qlen.txt"
	"$REPORT" -o "$WORK/ht-out" "$WORK/ht" >/dev/null 2>"$WORK/err"
	HT_RC=$?
}

hpcc_traces() {
	local bars cdf
	report_ab
	hpcc_run
	bars=$(grep -v '^#' "$WORK/ht-out/pauses-1.dat" | tr '\n' ';')
	cdf=$(grep -v '^#' "$WORK/ht-out/qlen-1.dat" | tr '\n' ';')
	ktap_note "pauses-1.dat: $bars qlen-1.dat: $cdf"
	[ "$HT_RC" = 0 ] &&
		[ "$bars" = '2.000100000 0 0.000200000 "pfc 5/2";2.000200000 1 0.000200000 "pfc 0/1";' ] &&
		[ "$cdf" = "0 0;1 0.7;2 0.9;3 1;" ] &&
		file -b "$WORK/ht-out/pauses.png" | grep -q '^PNG image data, 1000 x 600' &&
		file -b "$WORK/ht-out/qlen.png" | grep -q '^PNG image data, 800 x 500' &&
		[ ! -e "$WORK/out/pauses.png" ] && [ ! -e "$WORK/out/qlen.png" ]
	check_err $? "exit $HT_RC: $(cat "$WORK/err")"
	log_test "pfc.txt and qlen.txt: pauses.png of the paused intervals, qlen.png of the samples; none without them"
}

# A malformed line of either: exit 1, naming the file and the line.
hpcc_traces_malformed() {
	local bad ok=0 rc
	hpcc_run
	for bad in "pfc.txt:2:2000150000 5 1 2" "pfc.txt:3:2000200000 0 2 1 1" \
		"pfc.txt:3:2000000000 0 0 1 1" "pfc.txt:1:2000100000 5 1 2 x" \
		"qlen.txt:1:5 1 1" "qlen.txt:4:time: 2000000000" "qlen.txt:5:5 1 3 -2 1"; do
		rm -rf "$WORK/htb"
		cp -r "$WORK/ht" "$WORK/htb"
		IFS=: read -r file line text <<<"$bad"
		awk -v n="$line" -v t="$text" 'NR == n { $0 = t } 1' "$WORK/ht/$file" >"$WORK/htb/$file"
		"$REPORT" -o "$WORK/htb-out" "$WORK/htb" >/dev/null 2>"$WORK/err"
		rc=$?
		ktap_note "$file line $line \"$text\": exit $rc, $(cat "$WORK/err")"
		[ $rc = 1 ] && grep -q "htb/$file:$line:" "$WORK/err" || ok=1
	done
	check_err $ok "want exit 1 naming the file and line"
	log_test "a malformed pfc.txt or qlen.txt line exits 1 naming file:line"
}

tests_run
ktap_finish
