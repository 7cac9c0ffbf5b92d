# SPDX-License-Identifier: GPL-2.0
#
# exp.sh - run an experiment file through tools/fcq-exp from a selftest
# (after ktap.sh).
#
#   exp_run OUT FILE
#       fcq-exp --native --out OUT FILE, its log in OUT.log and its verdict
#       lines as TAP comments; EXP_RC is its exit status (3: it judged the
#       run untrusted, summary.json says why).
#   exp_run_stalled OUT FILE [MATTERS]
#       exp_run, and again (up to twice) while the host stalled the guest
#       (exit 3 and exp_stalled) and, if given, the command MATTERS says
#       the stall touched what the suite judges: such a run says nothing
#       of the schemes. The last run is judged; a TAP comment per retry.
#   exp_stalled OUT
#       true if OUT's runs were untrusted, and only because the host did not
#       run the guest in time: flows started late, or a port lost link time
#       to host stalls (both measured by fcq-exp).
#   exp_why OUT
#       why OUT's runs were untrusted, on one line.
#   exp_losses REPORT
#       of fcq-report's REPORT (report.json), every run's paced streams
#       that lost, reordered or duplicated datagrams and its drops, as a
#       JSON array of "SCHEME STREAM" and "SCHEME drops N" ([]: none; empty
#       output: no report)
#   exp_check_trusted OUT RC
#       check_err unless RC (exp_run's EXP_RC) is 0, saying why; but
#       check_skip if the runs were untrusted only because the host stalled
#       the guest (exp_stalled, after exp_run_stalled's retries): a host
#       too busy to run the guest on time says nothing of fcq
#   exp_check_lossless REPORT
#       exp_losses as a TAP comment; check_err unless it is []
#   exp_copy FILE COPY [SED-OPTION...]
#       a copy of the experiment FILE that works from anywhere: the paths
#       of its topology, flows and workload files made absolute, then the
#       sed options applied (-e 's/^seeds .*/seed 1/', ...).
#   exp_hpcc_traces LIB DIR STATS
#       LIB's trace.sh (trace_save, then trace_hpcc) in a subshell, TOP
#       empty as in an installed fcq-exp, on a
#       fake tracefs in DIR holding the made trace
#       selftests/tools/hpcc-trace.txt (its nodes: hpcc-nodes.txt): CPU 0's
#       stats count no lost event, CPU 1's are STATS (printf %b). Prints
#       "PFC QLEN ERRORS": pfc.txt and qlen.txt's last dump, ';' for each
#       newline, and errors.txt; EXP_HPCC_PFC and EXP_HPCC_QLEN are the
#       two worked out by hand.

EXP_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The made trace's pfc.txt and qlen.txt's last dump, ';' for newlines.
# Node 0 a host (netns 11), node 5 a switch (22); epoch 1 ms, scale 1000,
# the first flow at 2 s. pfc: eth0 of host 0 paused (class 3), p1 of
# switch 5 paused on class 0 and resumed on class 3 in one frame: its
# interface 2. qlen, a sample every 250 ns (0.25 ms real) from the epoch
# to 3 ms real (9 samples), dumps every 500 ns: p0 at 1500 B from the
# epoch, 2500 B from 1.25 ms, 3500 B from 2.6 ms: 1 sample in bucket 1, 6
# in 2, 2 in 3, none in 0; p1 never changed: 9 in 0. The host's qlen event
# and a netns that is no node's are ignored; a second netns= after an
# event's own (as a tracepoint may gain at its end) changes nothing.
# shellcheck disable=SC2034 # read by the tests
EXP_HPCC_PFC="2000000000 0 0 1 1;2000000500 5 1 2 1;2000000500 5 1 2 0;"
# shellcheck disable=SC2034
EXP_HPCC_QLEN="time: 2000002000;5 1 0 1 6 2;5 2 9;"
exp_hpcc_traces() {
	(
		# shellcheck disable=SC2034 # read by trace.sh
		events=(fcq:pause_rx fcq:qlen) traces=() pfc_trace=on
		# shellcheck disable=SC2034
		qlen_trace="250 500" tag=t epoch=1000000 scale=1000
		# shellcheck disable=SC2034
		first=2000000000 tend=3000000 LIB=$1
		# as installed (fcq-exp): LIB alone says where the scripts are
		TOP=''
		say() { :; }
		progress() { :; }
		. "$1/trace.sh"
		TR=$2/tracefs rdv=$2/rdv dir=$2/run
		rm -rf "$TR" "$rdv" "$dir"
		mkdir -p "$TR/per_cpu/cpu0" "$TR/per_cpu/cpu1" "$rdv" "$dir"
		cp "$EXP_TOP/selftests/tools/hpcc-trace.txt" "$TR/trace"
		cp "$EXP_TOP/selftests/tools/hpcc-nodes.txt" "$rdv/nodes"
		printf 'entries: 7\noverrun: 0\ncommit overrun: 0\ndropped events: 0\n' \
			>"$TR/per_cpu/cpu0/stats"
		printf '%b' "$3" >"$TR/per_cpu/cpu1/stats"
		: >"$dir/errors.txt"
		trace_save
		trace_hpcc
		echo "$(tr '\n' ';' 2>/dev/null <"$dir/pfc.txt")" \
			"$(tail -n 3 "$dir/qlen.txt" 2>/dev/null | tr '\n' ';')" \
			"$(cat "$dir/errors.txt")"
	)
}

exp_stalled() {
	gojq -se '[.[].untrusted[]] | length > 0 and
		all(test("started later than|to host stalls"))' \
		"$1"/scheme-*/seed-*/summary.json >/dev/null 2>&1
}

exp_why() {
	gojq -rs '[.[].untrusted[]] | join("; ")' "$1"/scheme-*/seed-*/summary.json
}

exp_losses() {
	gojq -c '[.schemes[] | .scheme as $s | .runs[] as $r
		| ($r.paced[] | select(.lost > 0 or .reorders > 0 or .dups > 0)
		   | "\($s) \(.name)"),
		  (select(($r.drops // 0) > 0) | "\($s) drops \($r.drops)")]' \
		"$1" 2>/dev/null
}

exp_check_trusted() {
	if [ "$2" = 3 ] && exp_stalled "$1"; then
		check_skip "the host stalled the guest in every try: $(exp_why "$1")"
		return
	fi
	[ "$2" = 0 ]
	check_err $? "fcq-exp exit $2: $(exp_why "$1") $(tail -n 3 "$1.log")"
}

exp_check_lossless() {
	local bad
	bad=$(exp_losses "$1")
	ktap_note "streams lost, reordered or duplicated, and drops: ${bad:-no report}"
	[ "$bad" = "[]" ]
	check_err $? "${bad:-no report}"
}

exp_copy() {
	local src=$1 dst=$2 dir
	shift 2
	dir=$(cd "$(dirname "$src")" && pwd)
	awk -v d="$dir" '($1 == "topology" || $1 == "flows" ||
		$1 == "workload") && $2 ~ /\// && $2 !~ /^\// { $2 = d "/" $2 }
		{ print }' "$src" |
		if [ $# -gt 0 ]; then sed "$@"; else cat; fi >"$dst"
}

exp_run() {
	"$EXP_TOP/tools/fcq-exp" --native --out "$1" "$2" >"$1.log" 2>&1
	EXP_RC=$?
	grep -E 'done|WARNING|FAILED' "$1.log" | sed 's/^/# /'
}

exp_run_stalled() {
	local try
	for try in 1 2 3; do
		exp_run "$1" "$2"
		[ "$EXP_RC" = 3 ] && [ "$try" -lt 3 ] && exp_stalled "$1" &&
			{ [ -z "${3:-}" ] || "$3"; } || break
		ktap_note "run $try untrusted: $(exp_why "$1"); once more"
	done
}
