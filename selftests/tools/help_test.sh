#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# help_test.sh: every tool and script answers as GNU tools do. `X --help`
# and `X -h` print a usage (stdout contains "sage") on stdout, nothing on
# stderr, and exit 0; `X --no-such-option` exits non-zero with a message on
# stderr. C tools with commands are checked per command (fcq-gen server
# --help, ...). Three cases, one per option, each over every tool and
# command; a diagnostic names each that failed. Host-side, a second or two;
# builds nothing: the C tools are those `make tools` left in build/tools/,
# and a missing one fails all three.
#
# A script runs only if its source mentions the option (or passes its
# arguments to selftests/lib/usage.sh's usage_args): one that does not
# would take it for an argument and do its work (boot a guest, build
# namespaces, run make check); it fails the case unrun. Likewise the bogus
# option runs only where --help passed. Each run is limited to 5 s.
#
#   selftests/tools/help_test.sh      (FCQ_TOOLS=dir of the C tools to test)
set -u

# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	help_long
	help_short
	bad_option
"
USAGE_MORE="TAP on stdout."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"

TOOLS=${FCQ_TOOLS:-$TOP/build/tools}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
tests_plan

# Each case: a path from the top (build/tools/X: the C tool X in $TOOLS),
# then the command words to put before the option, if any.
CASES=(
	"build/tools/fafcd"
	"build/tools/fcq-frame"
	"build/tools/fcqctl"
	"build/tools/fcq-gen"
	"build/tools/fcq-gen server"
	"build/tools/fcq-gen flows"
	"build/tools/fcq-gen bulk"
	"build/tools/fcq-gen paced"
	"build/tools/fcq-gen now"
	"build/tools/fcq-gen workload"
	"build/tools/fcq-gen run"
	"build/tools/fcq-net"
	"build/tools/fcq-net gen"
	"build/tools/fcq-net up"
	"build/tools/fcq-net down"
	"build/tools/fcq-report"
	"build/tools/fcq-cnsim"
	"build/tools/fcq-top"
	"tools/fcq-exp"
	"tools/demo"
	"tools/setup"
	"tools/buildroot"
	"tools/vm/run"
	"tools/bench"
	"selftests/bench/bench.sh"
	"tools/vm/mkinitrd"
	"selftests/check"
	"selftests/kbuild.sh"
	"selftests/guest-run"
	"selftests/lib/summarize"
	"selftests/lib/pause_reaction.py"
	"selftests/lib/tdc.py"
	"selftests/lib/tc_raw.py"
	"selftests/net/exp_hpcc.sh"
	"selftests/net/exp_leafspine.sh"
	"selftests/net/exp_scale.sh"
	"selftests/net/fafc_e1.sh"
	"selftests/net/pfc_rx.sh"
	"selftests/net/pfc_incast.sh"
	"selftests/net/fcq_top.sh"
	"selftests/net/frame_fuzz.sh"
	"build/selftests/frame_fuzz"
	"selftests/net/teardown.sh"
	"selftests/vm/runner_test.sh"
)
for t in "$TOP"/selftests/tools/*_test.sh; do
	CASES+=("${t#"$TOP"/}")
done

# The source mentions OPT as a word of its own ("-h)", '-h', "-h |"), or
# hands its arguments to selftests/lib/usage.sh, which answers both.
mentions() {
	grep -qE -- "(^|[^[:alnum:]_-])$2([^[:alnum:]_-]|\$)" "$1" ||
		grep -qE '^usage_args ' "$1"
}

# run CMD...: RC, OUT and ERR (files) of CMD, which may take 5 s.
run() {
	timeout -k 1 5 "$@" </dev/null >"$W/out" 2>"$W/err"
	RC=$?
}

# What a run printed, for a failure's diagnostic.
what() {
	local rc="exit $RC"

	[ "$RC" = 124 ] || [ "$RC" = 137 ] && rc="timed out after 5 s"
	echo "$rc; stdout: $(head -c 100 "$W/out" | head -n 1);" \
		"stderr: $(head -c 200 "$W/err" | head -n 2 | tr '\n' ' ')"
}

# tool CASE: label, exe, script (empty for a C tool) and cmd of one of
# CASES; why, if it cannot run at all.
tool() {
	local path words
	read -r path words <<<"$1"
	label="${path#build/tools/}${words:+ $words}"
	case "$path" in
	build/tools/*) exe=$TOOLS/${path#build/tools/} script= ;;
	*) exe=$TOP/$path script=$exe ;;
	esac
	# shellcheck disable=SC2206
	cmd=("$exe" $words)

	why=
	if [ ! -e "$exe" ]; then
		why="no $exe"
		[ -n "$script" ] || why="$why: run make tools"
	elif [ ! -x "$exe" ]; then
		why="$exe is not executable"
	fi
}

# answers OPT: run every one of CASES with OPT (once); UNANSWERED["OPT
# LABEL"] says why one did not print a usage as it should.
declare -A UNANSWERED
ANSWERED=
answers() {
	local opt=$1 c
	case " $ANSWERED " in *" $opt "*) return 0 ;; esac
	ANSWERED="$ANSWERED $opt"
	for c in "${CASES[@]}"; do
		tool "$c"
		if [ -n "$why" ]; then
			UNANSWERED["$opt $label"]=$why
			continue
		fi
		if [ -n "$script" ] && ! mentions "$script" "$opt"; then
			UNANSWERED["$opt $label"]="not run: ${script#"$TOP"/} does not handle $opt (it would run for real)"
			continue
		fi
		run "${cmd[@]}" "$opt"
		if [ $RC != 0 ] || [ -s "$W/err" ] || ! grep -q sage "$W/out"; then
			UNANSWERED["$opt $label"]=$(what)
		fi
	done
}

# usage_case OPT: every one of CASES answers OPT with a usage.
usage_case() {
	local opt=$1 c n=0
	answers "$opt"
	for c in "${CASES[@]}"; do
		tool "$c"
		[ -n "${UNANSWERED["$opt $label"]:-}" ] || continue
		ktap_note "$label $opt: ${UNANSWERED["$opt $label"]}"
		n=$((n + 1))
	done
	[ $n = 0 ]
	check_err $? "$n of ${#CASES[@]} failed, named above"
	log_test "$opt: usage on stdout, exit 0, stderr empty, from every tool and command"
}
help_long() { usage_case --help; }
help_short() { usage_case -h; }

# The bogus option, run where --help passed.
bad_option() {
	local c n=0 fail
	answers --help
	for c in "${CASES[@]}"; do
		tool "$c"
		fail=
		if [ -n "$why" ]; then
			fail=$why
		elif [ -n "${UNANSWERED["--help $label"]:-}" ]; then
			fail="not run: --help failed"
		else
			run "${cmd[@]}" --no-such-option
			if [ $RC = 0 ] || [ $RC = 124 ] || [ $RC = 137 ] ||
			   [ ! -s "$W/err" ]; then
				fail=$(what)
			fi
		fi
		[ -n "$fail" ] || continue
		ktap_note "$label --no-such-option: $fail"
		n=$((n + 1))
	done
	[ $n = 0 ]
	check_err $? "$n of ${#CASES[@]} failed, named above"
	log_test "--no-such-option: non-zero exit, a message on stderr, from every tool and command"
}

tests_run
ktap_finish
