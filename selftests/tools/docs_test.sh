#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs_test.sh: the documentation reads as it is meant to. Every
# Documentation/*.rst parses with docutils without a warning, its :doc:
# targets and figures exist (selftests/lib/rst_lint.py, under Debian's
# python3, which has python3-docutils); every man page formats with
# groff -man -ww without a warning. Each checker is first
# shown a page with faults it must report, so that a checker that
# stopped looking fails here. Host-side, a second or two.
#
#   selftests/tools/docs_test.sh
set -u

# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	rst_lint_finds
	rst_clean
	man_lint_finds
	man_clean
"
USAGE_MORE="TAP on stdout."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
tests_plan

rst_lint() { /usr/bin/python3 "$TOP/selftests/lib/rst_lint.py" "$@"; }
man_lint() {	# FILE: groff's warnings (none: no output)
	LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$1" 2>&1
}

rst_lint_finds() {
	local out n
	# Four faults: a list item's body unindented, a |substitution| never
	# defined, a :doc: to no page, a figure with no file.
	printf '%s\n' "Title" "=====" "" "See :doc:\`nowhere\`; |x| <= 1." "" \
		".. figure:: no-such.png" "" "10. an item" "   its body" >"$W/bad.rst"
	out=$(rst_lint "$W/bad.rst")
	check_fail $? "rst_lint.py passed a faulty page"
	n=$(grep -c "^$W/bad.rst:" <<<"$out")
	[ "$n" -ge 4 ]
	check_err $? "rst_lint.py reported $n of the page's 4 faults: $out"
	log_test "rst_lint.py reports each fault of a faulty page"
}

rst_clean() {
	local out
	out=$(rst_lint "$TOP"/Documentation/*.rst)
	check_err $? "$out"
	log_test "Documentation/*.rst: no docutils warning, every :doc: and figure found"
}

man_lint_finds() {
	printf '%s\n' ".TH X 8" ".SH NAME" "x \\- y" ".XY no such macro" \
		>"$W/bad.8"
	[ -n "$(man_lint "$W/bad.8")" ]
	check_err $? "groff -ww said nothing of an unknown macro"
	log_test "groff -ww reports a faulty man page"
}

man_clean() {
	local f out n=0
	for f in "$TOP"/Documentation/man/*.8; do
		out=$(man_lint "$f")
		[ -z "$out" ] && continue
		ktap_note "${f#"$TOP"/}: $out"
		n=$((n + 1))
	done
	[ $n = 0 ]
	check_err $? "$n man pages warned, named above"
	log_test "Documentation/man/*.8: groff -man -ww formats each without a warning"
}

tests_run
ktap_finish
