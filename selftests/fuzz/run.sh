#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh: each of core/'s frame parsers under libFuzzer, with ASan and
# UBSan (build/fuzz/, `make fuzz-bins`), for SECONDS each, from the seed
# corpus (seeds.c) and whatever earlier runs added to build/fuzz/corpus.
# TAP: one test per parser, with the inputs it ran; a finding fails it,
# its input kept in build/fuzz/findings/ (rerun: build/fuzz/fuzz_NAME FILE).
set -u
# shellcheck disable=SC2034 # read by usage.sh
USAGE="[SECONDS]"
# shellcheck disable=SC2034 # read by usage.sh
USAGE_MORE="SECONDS per parser, default 15 (make check); make fuzz runs 600."
. "$(dirname "$0")/../lib/usage.sh"
usage_args any "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
B=$TOP/build/fuzz
S=${1:-15}
TARGETS="macctl ext cnm key"

mkdir -p "$B/findings"
for t in $TARGETS; do mkdir -p "$B/corpus/$t"; done
"$B/seeds" "$B/corpus" || exit 1
echo "TAP version 13"
echo "1..$(echo $TARGETS | wc -w)"
i=0 rc=0
for t in $TARGETS; do
	i=$((i + 1))
	echo "# fuzz_$t: ${S}s" >&2
	log=$(mktemp)
	"$B/fuzz_$t" -max_total_time="$S" -print_final_stats=1 \
		-use_value_profile=1 -artifact_prefix="$B/findings/$t-" \
		"$B/corpus/$t" >"$log" 2>&1
	st=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	corp=$(ls "$B/corpus/$t" | wc -l)
	if [ $st = 0 ] && [ -n "$runs" ]; then
		echo "ok $i fuzz_$t: ${runs} inputs in ${S}s, corpus $corp, no finding"
	else
		echo "not ok $i fuzz_$t: exit $st after ${runs:-?} inputs"
		grep -E 'ERROR|SUMMARY|Test unit written|runtime error' "$log" |
			head -n 5 | sed 's/^/# /'
		rc=1
	fi
	rm -f "$log"
done
exit $rc
