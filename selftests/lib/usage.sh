# SPDX-License-Identifier: GPL-2.0
#
# usage.sh - -h/--help for fcq's test scripts, as GNU tools answer it. Source
# it first, before anything that needs root, namespaces or the guest:
#
#   USAGE=SYNOPSIS         its arguments, after "[-h | --help]"
#   USAGE_MORE=TEXT        lines printed after the header comment
#   ALL_TESTS="fn ..."     a script's cases (ktap.sh): listed, with TESTS=
#   usage_args MAX "$@"    -h or --help: usage on stdout, exit 0; any other
#                          option, or more than MAX arguments ("any" for no
#                          limit): a message and usage on stderr, exit 2
#
# The usage is "Usage: SCRIPT [-h | --help] SYNOPSIS" and the header comment.

# The script itself, found again after it changed directory.
USAGE_FILE=$(cd "$(dirname "$0")" && pwd)/${0##*/}

usage() {
	echo "Usage: $0 [-h | --help]${USAGE:+ $USAGE}"
	sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$USAGE_FILE"
	[ -z "${USAGE_MORE:-}" ] || printf '%s\n' "$USAGE_MORE"
	[ -z "${ALL_TESTS:-}" ] ||
		printf 'TESTS="NAME..." runs only those cases, of: %s\n' "$(echo $ALL_TESTS)"
}

usage_args() {
	local max=$1 a
	shift
	for a in "$@"; do
		case "$a" in
		-h | --help) usage; exit 0 ;;
		-*)
			echo "${0##*/}: unknown option '$a'" >&2
			usage >&2
			exit 2
			;;
		esac
	done
	if [ "$max" != any ] && [ $# -gt "$max" ]; then
		echo "${0##*/}: too many arguments" >&2
		usage >&2
		exit 2
	fi
}
