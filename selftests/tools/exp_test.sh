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
	report_order_sweep
"
USAGE_MORE="TAP on stdout."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"

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

tests_run
ktap_finish
