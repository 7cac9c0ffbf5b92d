#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# exp_qcn.sh: scenario B of Documentation/qcn.rst (the Unbiased QCN
# paper's culprit and victim, Fig. 3), experiments/qcn-b.exp with one
# seed and three of its configurations: PAUSE alone (C0), input CPs
# sampling by arrival (C2) and by occupancy (C3; the other configurations
# and seeds are `make repro`'s). s1 sends f1 to the hotspot d at 0.3 of
# the line and f6 to the idle e at 0.7; s2..s4 send to d at line rate
# through three phases, s5 in the second only (it stops on time: fcq-gen
# paced -d). fcq-exp measures each phase (its "phases" key); the suite
# reads its report, and the CNMs each run traced (the file's "trace",
# added here). Nothing is lost in any configuration; under C3 the
# victim f6 keeps its rate and the flows to d share it fairly; under C2
# f6 is slowed, and under C0 held back with f1.
set -u
# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	runs_trusted
	nothing_lost
	cnms_traced
	phases_measured
	victim_kept_by_occupancy
	victim_slowed_by_arrival
	victim_held_by_pause
"
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run, tools/vm/run).
Results in \$FCQ_RESULTS/exp_qcn (FCQ_RESULTS defaults to /tmp)."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"
. "$HERE/../lib/exp.sh"
OUT=${FCQ_RESULTS:-/tmp}/exp_qcn
EXP=$TOP/experiments/qcn-b.exp

b_run() {
	[ -z "${B_RC:-}" ] || return 0
	mkdir -p "$OUT"
	exp_copy "$EXP" "$OUT/b.exp" -e 's/^seeds .*/seed 1\ntrace qcn:cnm_tx/' \
		-e '/^scheme *\(C1-out-arr\|C4-in-det\) /d'
	exp_run_stalled "$OUT/b" "$OUT/b.exp"
	B_RC=$EXP_RC
}

# ph SCHEME FILTER: FILTER over the scheme's run's phase_streams (one run)
ph() {
	gojq -r --arg s "$1" ".schemes[] | select(.scheme == \$s)
		| .runs[0].phase_streams | $2" "$OUT/b/report.json" 2>/dev/null
}

# mean_v_below V_PER_PHASE REF_PER_PHASE: three phases each, the mean
# under 0.75 and under 0.8 times the reference's
mean_v_below() {
	awk -v a="$1" -v o="$2" 'BEGIN { n = split(a, x, " "); m = split(o, y, " ")
		for (i = 1; i <= n; i++) s += x[i]
		for (i = 1; i <= m; i++) t += y[i]
		exit !(n == 3 && m == 3 && s / 3 < 0.75 && s < 0.8 * t) }'
}

# f6's share of its 14 Mbit/s (the paper's V), per phase
v() { ph "$1" '[.[] | select(.name == "f6") | .share * 1000 | round / 1000] | join(" ")'; }

runs_trusted() {
	b_run
	exp_check_trusted "$OUT/b" "$B_RC"
	log_test "C0, C2 and C3 ran, their times trusted"
}

nothing_lost() {
	b_run
	exp_check_lossless "$OUT/b/report.json"
	log_test "every configuration: no stream lost, reordered or duplicated, no drop"
}

# Each run's trace.txt holds a cnm_tx event per CNM its switch sent while
# the streams ran: with CPs (C2, C3) some, and never more than the qdiscs'
# cnm_tx, which also counts any sent after the trace stopped; PAUSE alone
# (C0) none.
cnms_traced() {
	local s d n x bad=
	b_run
	for s in C0-pause C2-in-arr C3-in-occ; do
		d=$(echo "$OUT"/b/scheme-*-"$s"/seed-1)
		n=$(grep -c 'cnm_tx:.* sent=1 ' "$d/trace.txt" 2>/dev/null)
		x=$(gojq '[.[] | .tc.qcn.cnm_tx // 0] | add' "$d/stats.json" 2>/dev/null)
		case "$s:${n:-x}" in
		C0-pause:0) [ "$x" = 0 ] || bad+=" $s: xstats cnm_tx $x" ;;
		C0-pause:*) bad+=" $s: ${n:-no trace} traced" ;;
		*:x | *:0) bad+=" $s: none traced (xstats $x)" ;;
		*) [ "$n" -le "$x" ] || bad+=" $s: $n traced > xstats $x" ;;
		esac
		ktap_note "$s: $n cnm_tx traced, xstats cnm_tx $x"
	done
	check_err "$([ -z "$bad" ]; echo $?)" "$bad"
	log_test "trace: every run's cnm_tx events in its trace.txt, none beyond the xstats"
}

# Per run: d's phases hold 4, 5 and 4 streams (f5 joins in the second and
# stops with it), e's f6 alone; f1's fair share at d is the line's
# payload over 4, 5 and 4 (its 6 Mbit/s is above them), f6's its 14. f5's
# sender stopped within its 4 s (fcq-gen paced -d), short of its bytes.
phases_measured() {
	local s got f5 bad=
	b_run
	for s in C0-pause C2-in-arr C3-in-occ; do
		f5=$(gojq -r '.sent < .bytes and .end_ns - .start_ns < 4e9' \
			"$OUT"/b/scheme-*-"$s"/seed-1/paced-f5.json 2>/dev/null)
		[ "$f5" = true ] || bad="$bad $s:f5-not-stopped"
		got=$(gojq -r --arg s "$s" '.schemes[] | select(.scheme == $s) | .runs[0]
			| ([.phases[] | "\(.dst):\(.flows)"] | join(" ")) + " / " +
			  ([.phase_streams[] | select(.name == "f1" or .name == "f6")
			    | "\(.name):\(.fair_mbps * 100 | round / 100)"] | join(" "))' \
			"$OUT/b/report.json" 2>/dev/null)
		ktap_note "$s: receiver:streams per phase / fair shares: $got"
		[ "$got" = "5:4 6:1 5:5 6:1 5:4 6:1 / f1:4.66 f6:14 f1:3.72 f6:14 f1:4.66 f6:14" ] ||
			bad="$bad $s"
	done
	[ -z "$bad" ]
	check_err $? "not as expected:$bad"
	log_test "three phases measured per receiver, f5 in the second only, fair shares max-min"
}

# C3: f6's frames leave s1's input at once (e is idle), so the CP seldom
# names it; the flows to d each hold a backlog at their input, and the
# output's round robin gives each its fair share. The margins are our
# pass criteria from the paper's claims (V >= 0.9, f1 within 15 % of its fair
# share, U >= 0.9 at d), except f1's in the first phase: the start-up's
# CNMs may cut f1's RL to about half, target too, and active increase
# takes some 2 s to bring it back, of the phase's 2.8 s measured
# (Documentation/qcn.rst); one such cut costs f1 up to a fifth of its
# share there, so at least 0.75 of it. Measured over 25 trusted runs (the
# 10 of `make repro`, 6.1 and 6.12, and seeds 2 to 16 on 6.12 with another
# guest beside them): V 0.95 to 1.02, U 0.97 or more, f1's share 0.98 to
# 1.00 in the second and third phases; in the first, 0.99 to 1.00 in 19
# runs and 0.91 to 0.97 in 6, and 0.85 once in CI (C4 once 0.82).
victim_kept_by_occupancy() {
	local vv f1 u
	b_run
	vv=$(v C3-in-occ)
	f1=$(ph C3-in-occ '[.[] | select(.name == "f1") | .share * 1000 | round / 1000] | join(" ")')
	u=$(gojq -r '.schemes[] | select(.scheme == "C3-in-occ") | .runs[0].phases[]
		| select(.dst == 5) | .U * 1000 | round / 1000' "$OUT/b/report.json" 2>/dev/null |
		tr '\n' ' ')
	ktap_note "C3 per phase: f6's V $vv; f1's share $f1; U at d $u"
	awk -v v="$vv" -v f="$f1" -v u="$u" 'BEGIN {
		ok = split(v, a, " ") == 3 && split(f, b, " ") == 3 && split(u, c, " ") == 3
		for (i = 1; i <= 3; i++)
			if (a[i] < 0.9 || b[i] < (i == 1 ? 0.75 : 0.85) ||
			    b[i] > 1.15 || c[i] < 0.9) ok = 0
		exit !ok }'
	check_err $? "V $vv; f1 $f1; U $u"
	log_test "C3 (occupancy sampling): f6 keeps 0.9 of its rate, f1 its fair share at d"
}

# C2: arrival sampling at s1's input names f6 as often as its frames
# arrive and slows it with f1. Over the 10 runs of `make repro` its mean
# V over the phases was 0.18 to 0.46, at most 0.46 times C3's (asserted:
# under 0.75, and under 0.8 times C3's beside it).
victim_slowed_by_arrival() {
	local a o
	b_run
	a=$(v C2-in-arr) o=$(v C3-in-occ)
	ktap_note "f6's V per phase: C2 $a, C3 $o"
	mean_v_below "$a" "$o"
	check_err $? "C2 $a, C3 $o"
	log_test "C2 (arrival sampling): f6 slowed, below 0.75 of its rate and 0.8 of C3's"
}

# C0: f1's backlog at s1's input pauses s1's link, f6 with it. The
# paper's f6 leaves at 7/3 of f1's rate; here it does so in the first
# phase only (qcn.rst, Experiment B, on why): once f5 joins, both
# sources are held back and f6 gets about f1's rate. Asserted: held, as
# with arrival sampling (mean V under 0.75 and under 0.8 times C3's);
# over the 10 runs of `make repro`, 0.48 to 0.49.
victim_held_by_pause() {
	local p o
	b_run
	p=$(v C0-pause) o=$(v C3-in-occ)
	ktap_note "f6's V per phase: C0 $p, C3 $o"
	mean_v_below "$p" "$o"
	check_err $? "C0 $p, C3 $o"
	log_test "C0 (PAUSE alone): f6 held back with f1, below 0.75 of its rate and 0.8 of C3's"
}

tests_plan
tests_run
ktap_finish
