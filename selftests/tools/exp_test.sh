#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exp_test.sh: fcq-exp reads the experiment files in the tree as
# experiments/README.md says, without running them (--jobs prints one
# command per run and exits). Every file in experiments/ gives one run per
# scheme and seed, each scheme with the same seeds; a flows file named with
# "%s" must exist for every seed, and a missing one is an error naming it
# before anything runs. --report compares runs already there, in the
# file's order, with the sweep the file asks for. Host-side, about a
# second.
set -u

# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	every_file_parses
	flows_per_seed
	flows_per_seed_missing
	topology_per_seed
	report_order_sweep
	phases_parsed
	phases_metrics
	phases_edge
	trace_parsed
	hpcc_trace_keys
	hpcc_traces_awk
	trace_lost_no_hpcc
	trusted_stalled_skipped
"
USAGE_MORE="TAP on stdout."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/exp.sh"

EXP=$TOP/tools/fcq-exp
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
tests_plan

# jobs FILE: fcq-exp's runs of FILE as "I SEED" lines in $W/runs; its
# status.
jobs() {
	"$EXP" --jobs --out "$W/out" "$1" >"$W/jobs" 2>"$W/err" || return
	sed -n 's/.* --run \([0-9]*\):\([0-9]*\) .*/\1 \2/p' "$W/jobs" >"$W/runs"
	[ "$(wc -l <"$W/runs")" = "$(wc -l <"$W/jobs")" ]
}

# The runs of $W/runs are schemes 1..N (N its scheme lines), each once
# with every seed, the same seeds for all.
cross_product() {
	local n seeds i
	n=$(grep -c '^scheme ' "$1")
	seeds=$(awk '$1 == 1 { print $2 }' "$W/runs" | sort -n | tr '\n' ' ')
	[ -n "$seeds" ] || return 1
	for i in $(seq "$n"); do
		[ "$(awk -v i="$i" '$1 == i { print $2 }' "$W/runs" |
			sort -n | tr '\n' ' ')" = "$seeds" ] || return 1
	done
	[ "$(wc -l <"$W/runs")" = $((n * $(echo "$seeds" | wc -w))) ]
}

every_file_parses() {
	local f bad=
	for f in "$TOP"/experiments/*.exp; do
		if ! jobs "$f"; then
			bad="$bad ${f##*/} ($(head -n 1 "$W/err"))"
		elif ! cross_product "$f"; then
			bad="$bad ${f##*/} (runs: $(tr '\n' ',' <"$W/runs"))"
		fi
	done
	check_err "$([ -z "$bad" ]; echo $?)" "not one run per scheme and seed:$bad"
	log_test "every experiment file: one run per scheme and seed"
}

# A copy of an experiment whose flows are flow-%s.txt, seeds 2 and 5.
per_seed() {
	mkdir -p "$W/e"
	cat >"$W/e/x.exp" <<'EOT'
topology star:3
flows    f/flow-%s.txt
seeds    2 5
scheme   a | pfc | pfc
scheme   b | pfc | pfc
EOT
	mkdir -p "$W/e/f"
	printf '1\n0 1 3 100 1000 0\n' >"$W/e/f/flow-2.txt"
	printf '1\n1 0 3 100 1000 0\n' >"$W/e/f/flow-5.txt"
}

flows_per_seed() {
	per_seed
	jobs "$W/e/x.exp"
	check_err $? "fcq-exp --jobs failed: $(head -n 1 "$W/err")"
	[ "$RET" != 0 ] || cross_product "$W/e/x.exp"
	check_err $? "runs $(tr '\n' ',' <"$W/runs"), not schemes 1-2 with seeds 2 and 5"
	log_test "flows flow-%s.txt: a file per seed, each scheme with each seed"
}

flows_per_seed_missing() {
	per_seed
	rm "$W/e/f/flow-5.txt"
	local rc
	"$EXP" --jobs --out "$W/out" "$W/e/x.exp" >"$W/jobs" 2>"$W/err"
	rc=$?
	check_err "$([ $rc = 1 ]; echo $?)" "fcq-exp exit $rc, not 1"
	grep -q "flow-5.txt (seed 5)" "$W/err"
	check_err $? "stderr does not name flow-5.txt: $(head -n 1 "$W/err")"
	[ ! -s "$W/jobs" ]
	check_err $? "it printed runs anyway"
	log_test "flows flow-%s.txt without the file of seed 5: an error naming it"
}

# topology t/topo-%s.txt: a file per seed; seed 5's missing is an error
# naming it.
topology_per_seed() {
	local rc
	per_seed
	mkdir -p "$W/e/t"
	sed 's|^topology star:3|topology t/topo-%s.txt|' "$W/e/x.exp" >"$W/e/y.exp"
	"$TOP/build/tools/fcq-net" gen star:3 >"$W/e/t/topo-2.txt"
	cp "$W/e/t/topo-2.txt" "$W/e/t/topo-5.txt"
	jobs "$W/e/y.exp"
	check_err $? "fcq-exp --jobs failed: $(head -n 1 "$W/err")"
	[ "$RET" != 0 ] || cross_product "$W/e/y.exp"
	check_err $? "runs $(tr '\n' ',' <"$W/runs")"
	rm "$W/e/t/topo-5.txt"
	"$EXP" --jobs --out "$W/out" "$W/e/y.exp" >"$W/jobs" 2>"$W/err"
	rc=$?
	check_err "$([ $rc = 1 ]; echo $?)" "without topo-5.txt: fcq-exp exit $rc, not 1"
	grep -q "topo-5.txt (seed 5)" "$W/err"
	check_err $? "stderr does not name topo-5.txt: $(head -n 1 "$W/err")"
	log_test "topology topo-%s.txt: a file per seed; a missing one named"
}

# --report over E3's twelve schemes, one seed each, fct.txt written here
# (scheme I: every flow at slowdown I): the report lists them in the
# file's order (scheme-10 after scheme-9, not after scheme-1), and the
# file's "sweep queues" gives its tables and sweep.png.
report_order_sweep() {
	local f=$TOP/experiments/flowsail-e3.exp i n d rc order want row
	if [ ! -x "$TOP/build/tools/fcq-report" ]; then
		ktap_skip "--report: schemes in the file's order, and the file's sweep" \
			"no build/tools/fcq-report (make tools)"
		return
	fi
	want=$(awk '$1 == "scheme" { print $2 }' "$f" | tr '\n' ' ')
	i=0
	for n in $want; do
		i=$((i + 1))
		d=$W/rep/scheme-$i-$n/seed-1
		mkdir -p "$d"
		echo "$n" >"$d/scheme"
		printf '0b000101 0b000201 10000 100 5000 2000000000 %d 20000\n' \
			$((20000 * i)) >"$d/fct.txt"
	done
	"$EXP" --report --out "$W/rep" "$f" >"$W/out.txt" 2>"$W/err"
	rc=$?
	order=$(jq -r '[.schemes[].scheme] | join(" ")' "$W/rep/report.json" 2>/dev/null)
	row=$(sed -n '/^sweep: <10KB avg slowdown against queues/,/^$/p' "$W/rep/report.txt" |
		awk '$1 == "flowsail" { $1 = ""; print }')
	ktap_note "order: $order"
	ktap_note "flowsail's short flows, 2 to 32 queues:$row"
	[ $rc = 0 ] && [ "$order " = "$want" ] &&
		[ "$row" = " 3.000 5.000 7.000 9.000 11.000" ] &&
		[ -s "$W/rep/sweep.png" ] && grep -q "sweep.png" "$W/out.txt"
	check_err $? "exit $rc: $(head -n 2 "$W/err")"
	log_test "--report: schemes in the file's order, and the file's sweep"
}

# good_exp DIR LINES: DIR/good.exp, a star of 3 with one flow, LINES
# (printf's format) from its line 3 on, and one scheme; whether it parses.
good_exp() {
	mkdir -p "$1"
	printf '1\n0 1 3 100 1000 0\n' >"$1/flow.txt"
	# shellcheck disable=SC2059 # $2: lines with their \n
	printf "topology star:3\nflows flow.txt\n$2scheme a | pfc | pfc\n" \
		>"$1/good.exp"
	jobs "$1/good.exp"
}

# refused_at_3 DIR LINE: DIR/good.exp with its line 3 replaced by LINE is
# refused (exit 1), the error naming line 3 and LINE's key.
refused_at_3() {
	local rc
	sed "3c $2" "$1/good.exp" >"$1/bad.exp"
	"$EXP" --jobs --out "$W/out" "$1/bad.exp" >/dev/null 2>"$W/err"
	rc=$?
	[ $rc = 1 ] && grep -q "bad.exp:3: ${2%% *}" "$W/err" && return
	ktap_note "'$2': exit $rc, $(head -n 1 "$W/err")"
	return 1
}

# "phases" and a paced stream's SECONDS accepted, and a bad one of each
# refused with its line and key named.
phases_parsed() {
	local bad ok=0
	good_exp "$W/p" 'phases 4 4 2.5\npaced f1 0 2 20Mbps 0 150000000 12\n' || ok=1
	# (the values go on as JSON numbers: no ".5", no "04")
	for bad in "phases 4 0" "phases 4 x" "phases" "phases .5 4" "phases 04" \
		"paced f1 0 2 20Mbps 0 1500 0" "paced f1 0 2 20Mbps 0 1500 -1" \
		"paced f1 0 2 20Mbps 0 1500 2 9" "paced f1 0 2 20Mbps 0 1500 .5" \
		"paced f1 0 02 20Mbps 0 1500"; do
		refused_at_3 "$W/p" "$bad" || ok=1
	done
	# phases, but no paced stream to measure
	sed '/^paced /d' "$W/p/good.exp" >"$W/p/bad.exp"
	"$EXP" --jobs --out "$W/out" "$W/p/bad.exp" >/dev/null 2>"$W/err" &&
		{ ok=1; ktap_note "phases without paced streams accepted"; }
	grep -q "phases measure paced streams" "$W/err" || ok=1
	check_err $ok "good: $(head -n 1 "$W/err")"
	log_test "phases and a paced stream's SECONDS: parsed, and bad values refused by line and key"
}

# trace: SYSTEM or SYSTEM:EVENT words; anything else refused by line.
trace_parsed() {
	local bad ok=0
	good_exp "$W/t" 'trace qcn qcn:cnm_rx\n' || ok=1
	for bad in "trace" "trace qcn:" "trace qcn/cnm_rx" "trace Qcn" \
		"trace qcn:cnm_rx:x" "trace qcn *"; do
		refused_at_3 "$W/t" "$bad" || ok=1
	done
	check_err $ok "good: $(head -n 1 "$W/err")"
	log_test "trace: SYSTEM[:EVENT] words parsed, bad ones refused by line"
}

# pfc_trace on|off and qlen_trace INTERVAL DUMP_INTERVAL (a multiple);
# anything else refused by line.
hpcc_trace_keys() {
	local bad ok=0
	good_exp "$W/h" 'pfc_trace on\nqlen_trace 100 100000\n' || ok=1
	for bad in "pfc_trace" "pfc_trace yes" "qlen_trace 100" \
		"qlen_trace 100 150" "qlen_trace 0 100" "qlen_trace 100 1000 5" \
		"qlen_trace 1e3 1000"; do
		refused_at_3 "$W/h" "$bad" || ok=1
	done
	check_err $ok "good: $(head -n 1 "$W/err")"
	log_test "pfc_trace and qlen_trace: parsed, and bad values refused by line"
}

# tools/lib/hpcc-traces.awk on the made trace (exp.sh's EXP_HPCC_PFC and
# EXP_HPCC_QLEN). A port's event before its previous one (a trace whose
# CPUs' clocks differ) fails, as does a device fcq-net does not make.
hpcc_awk() {
	awk -f "$TOP/tools/lib/hpcc-traces.awk" -v epoch=1000000 -v scale=1000 \
		-v first=2000000000 -v interval=250 -v dump=500 -v tend=3000000 \
		"$@" "$HERE/hpcc-nodes.txt" "$W/tr.txt"
}
hpcc_traces_awk() {
	local pfc qlen rc rc2 ev
	cp "$HERE/hpcc-trace.txt" "$W/tr.txt"
	pfc=$(hpcc_awk -v mode=pfc | tr '\n' ';')
	qlen=$(hpcc_awk -v mode=qlen | tail -n 3 | tr '\n' ';')
	ev=$(grep -m 1 ' qlen: dev=p0 ' "$W/tr.txt")
	echo "${ev/since=1000000/since=999999}" >>"$W/tr.txt"
	hpcc_awk -v mode=qlen >/dev/null 2>"$W/err2"
	rc2=$?
	sed -i 's/dev=p1 opcode=0x0101 enable=0x09/dev=br0 opcode=0x0101 enable=0x09/' "$W/tr.txt"
	hpcc_awk -v mode=pfc >/dev/null 2>"$W/err"
	rc=$?
	ktap_note "pfc: $pfc qlen's last dump: $qlen a bad device: exit $rc, $(cat "$W/err"); out of order: exit $rc2, $(cat "$W/err2")"
	[ "$pfc" = "$EXP_HPCC_PFC" ] && [ "$qlen" = "$EXP_HPCC_QLEN" ] &&
		[ $rc != 0 ] && grep -q 'device br0' "$W/err" &&
		[ $rc2 != 0 ] && grep -q "port 5 1's since=999999 before" "$W/err2"
	check_err $? "unexpected output"
	log_test "hpcc-traces.awk: pfc.txt and qlen.txt from a made trace, as worked out by hand"
}

# trace_save and trace_hpcc (tools/lib/trace.sh, exp_hpcc_traces) on a
# fake tracefs holding the made trace: pfc.txt and qlen.txt as
# hpcc_traces_awk has them when no CPU's stats count a lost event; none,
# and errors.txt saying how many were lost, when one CPU's do (overrun:
# the buffer overwrote them; dropped events: it was full).
trace_lost_no_hpcc() {
	local good over drop none="no pfc.txt nor qlen.txt (qlen_trace: a longer INTERVAL does not help; fewer switch ports or a shorter run do)"
	good=$(exp_hpcc_traces "$TOP/tools/lib" "$W/t" 'overrun: 0\ndropped events: 0\n')
	over=$(exp_hpcc_traces "$TOP/tools/lib" "$W/t" 'overrun: 3\ndropped events: 0\n')
	drop=$(exp_hpcc_traces "$TOP/tools/lib" "$W/t" 'overrun: 0\ndropped events: 12\n')
	ktap_note "none lost: $good; overrun: $over; dropped: $drop"
	[ "$good" = "$EXP_HPCC_PFC $EXP_HPCC_QLEN " ] &&
		[ "$over" = "  trace: the buffer overflowed (3 events lost): $none" ] &&
		[ "$drop" = "  trace: the buffer overflowed (12 events lost): $none" ]
	check_err $? "unexpected pfc.txt, qlen.txt or errors.txt"
	log_test "trace.sh: pfc.txt and qlen.txt from a whole trace, none from one that lost events"
}

# tools/lib/phases.jq on streams of constant rates, against values worked
# out by hand. Hosts 0..6 on 20 Mbit/s links: 1432-byte payloads in
# 1538 bytes on the wire, 18.6216 Mbit/s of payload. Phases 4 4 4 s, each
# measured over its last 2.8 s. f1 (6 Mbit/s offered, got 4), f2 and f3
# (got 5), f4 (got 4.62) to host 5 throughout; f5 (got 3) to host 5 from
# 4 to 8 s, its queue draining until 9.5 s; f6 (14 offered, got 13.9) to
# host 6. Max-min at host 5: f1's
# 6 is above the equal share, so each gets 18.6216 / 4 = 4.6554 (phase 2:
# / 5 = 3.7243); at host 6, f6 its 14. Phase 1 at host 5: J = 18.62^2 /
# (4 * 87.3444) = 0.99235, M = 5 / 4 = 1.25, E = sqrt(((4 / 4.6554 -
# 1)^2 + 2 (5 / 4.6554 - 1)^2 + (4.62 / 4.6554 - 1)^2) / 4) = 0.08780,
# U = 18.62 / 18.6216 = 0.99991; phase 2: M = 5 / 3 = 1.66667, U =
# 21.62 / 18.6216 = 1.16102; phase 3: f5 is not one of its streams, but
# its 3 Mbit/s from 9.2 to 9.5 s take 3 * 0.3 / 2.8 = 0.32143 of d's
# link: U = 18.94143 / 18.6216 = 1.01718; f6's share 13.9 / 14 = 0.99286.
phases_metrics() {
	local got want links
	# NAME SRC DST OFFERED GOT FROM TO [DATA_UNTIL] (Mbit/s, s)
	mk() {
		jq -c -n --arg n "$1" --argjson s "$2" --argjson d "$3" --argjson r "$4" \
			--argjson g "$5" --argjson a "$6" --argjson b "$7" \
			--argjson c "${8:-$7}" '
			{name: $n, src: $s, dst: $d, bps: ($r * 1e6), dgram: 1432,
			 t0: ($a * 1e9), t1: ($b * 1e9),
			 sink: {first_ns: ($a * 1e9), bin_ns: 1e8,
				bins: [range(0; ($c - $a) * 10 | round) | $g * 1e6 / 80]}}'
	}
	{
		mk f1 0 5 6 4 0 12
		mk f2 1 5 20 5 0 12
		mk f3 2 5 20 5 0 12
		mk f4 3 5 20 4.62 0 12
		mk f5 4 5 20 3 4 8 9.5
		mk f6 0 6 14 13.9 0 12
	} >"$W/ph.in"
	links=$(jq -c -n '[range(0; 7) | {key: tostring,
		value: {rate: 2500000, overhead: 24}}] | from_entries')
	gojq -r -s -f "$TOP/tools/lib/phases.jq" --argjson len '[4, 4, 4]' \
		--argjson links "$links" --argjson e 0 "$W/ph.in" >"$W/ph.out"
	got=$(jq -r -s '(.[0][] | select(.dst == 5) | "\(.phase):\(.flows)",
			([.J, .M, .E, .U] | map(. * 1e5 | round) | join(","))),
		(.[1][] | select(.name == "f5" or .name == "f6" and .phase == 1) |
			"\(.name)@\(.phase):" + ([.fair_mbps, .share] |
			map(. * 1e4 | round) | join(",")))' \
		<(tr ' ' '\n' <"$W/ph.out") | tr '\n' ' ')
	want="1:4 99235,125000,8780,99991 2:5 97032,166667,25915,116102 3:4 99235,125000,8780,101718 f6@1:140000,9929 f5@2:37243,8055 "
	ktap_note "got:  $got"
	[ "$got" = "$want" ]
	check_err $? "want: $want"
	log_test "phases.jq: max-min fair shares, J, M, E and U per phase and receiver, as worked out by hand"
}

# A stream that ends where a phase ends takes part in it, though the
# phase's edge, summed from decimal seconds (12.8 * 3 + 12.8), is not
# its end (51.2 s) in floating point: dsm-e3's phase 4 lost f2 so.
phases_edge() {
	local got links e=8412090970
	jq -c -n --argjson e "$e" '{name: "a", src: 0, dst: 5, bps: 2e7,
		dgram: 1432, t0: $e, t1: ($e + 1e9 * 51.2),
		sink: {first_ns: $e, bin_ns: 1e8, bins: [range(0; 512) | 50000]}},
		{name: "b", src: 1, dst: 5, bps: 2e7, dgram: 1432,
		t0: $e, t1: ($e + 1e9 * 64),
		sink: {first_ns: $e, bin_ns: 1e8, bins: [range(0; 640) | 50000]}}' \
		>"$W/edge.in"
	links=$(jq -c -n '[range(0; 7) | {key: tostring,
		value: {rate: 2500000, overhead: 24}}] | from_entries')
	got=$(gojq -r -s -f "$TOP/tools/lib/phases.jq" \
		--argjson len '[12.8, 12.8, 12.8, 12.8, 12.8]' \
		--argjson links "$links" --argjson e "$e" "$W/edge.in" |
		cut -d ' ' -f 1 | jq -r '[.[] | "\(.phase):\(.flows)"] | join(" ")')
	[ "$got" = "1:2 2:2 3:2 4:2 5:1" ]
	check_err $? "streams per phase: $got, want 1:2 2:2 3:2 4:2 5:1"
	log_test "phases.jq: a stream that ends with a phase takes part in it"
}

# verdict OUT RC UNTRUSTED...: how exp_check_trusted judges a run whose
# summary.json lists UNTRUSTED reasons and fcq-exp's exit RC.
verdict() {
	local out=$W/$1 rc=$2
	shift 2
	mkdir -p "$out/scheme-1-a/seed-1"
	printf '%s\n' "$@" | jq -R . | jq -s '{untrusted: .}' \
		>"$out/scheme-1-a/seed-1/summary.json"
	: >"$out.log"
	(
		RET=0 RETMSG='' RETSKIP=''
		exp_check_trusted "$out" "$rc"
		if [ "$RET" != 0 ]; then echo fail
		elif [ -n "$RETSKIP" ]; then echo skip
		else echo pass
		fi
	)
}

# A run the host stalled in every try is skipped, saying so; any other
# reason to distrust it fails the case, stalls or not.
trusted_stalled_skipped() {
	local lag="3 of 40 flows started later than their own standalone FCT"
	local lost="port sw-d lost 120 ms of link time to host stalls (3.0 % of the run)"
	local got
	got="$(verdict ok 0) $(verdict lag 3 "$lag") $(verdict lost 3 "$lost")"
	got+=" $(verdict both 3 "$lag" "$lost") $(verdict other 3 "the guest's clock jumped")"
	got+=" $(verdict mixed 3 "$lost" "the guest's clock jumped") $(verdict crash 1)"
	[ "$got" = "pass skip skip skip fail fail fail" ]
	check_err $? "got $got, want pass skip skip skip fail fail fail"
	log_test "exp_check_trusted: stalls alone skip, anything else fails"
}

tests_run
ktap_finish
