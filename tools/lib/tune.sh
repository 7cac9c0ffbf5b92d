# SPDX-License-Identifier: GPL-2.0
#
# tune.sh - machine-wide settings a traffic run needs, each remembered as it
# was so that untune puts it back: whatever runs next on the machine (the
# next run, the next selftest suite) must not inherit them. Sourced by
# tools/lib/exp-run.sh and selftests/lib/net.sh.
#
#   tune KEY=VALUE...      set sysctls
#   tune_ksoftirqd NICE    renice the ksoftirqd threads
#   untune                 put back all of it, the last change first (a
#                          setting changed twice ends as it was before the
#                          first)

TUNED=()	# KEY=VALUE and PID:NICE as they were

tune() {
	local kv
	for kv in "$@"; do
		TUNED+=("${kv%%=*}=$(sysctl -n "${kv%%=*}")")
	done
	sysctl -qw "$@"
}

tune_ksoftirqd() {
	local p
	for p in $(pgrep ksoftirqd); do
		TUNED+=("$p:$(ps -o ni= -p "$p" | xargs)")
		renice -n "$1" -p "$p" >/dev/null
	done
}

untune() {
	local i t
	for ((i = ${#TUNED[@]} - 1; i >= 0; i--)); do
		t=${TUNED[$i]}
		case "$t" in
		*=*) sysctl -qw "$t" >/dev/null ;;
		*) renice -n "${t#*:}" -p "${t%%:*}" >/dev/null 2>&1 ;;
		esac
	done
	TUNED=()
}
