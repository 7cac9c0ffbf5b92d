#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nl_fuzz.sh: random netlink option sets against every fcq kind
# (selftests/lib/nl_fuzz.py), on a dummy device in a namespace of its own:
# NL_FUZZ_SETS (default 5000) adds, changes, replaces and deletes per kind,
# every refusal with an extack message, every accepted one dumped, and the
# qdisc still taking a valid configuration and passing packets after.
set -u
# shellcheck disable=SC2034 # read by usage.sh
USAGE_MORE="TAP on stdout. Runs as root in the fcq guest (selftests/guest-run).
NL_FUZZ_SEED (environment) repeats a run's sets; its TAP names the seed."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)

NS=fcq-nlfuzz
ip netns del "$NS" 2>/dev/null
ip netns add "$NS" || exit 1
trap 'ip netns del "$NS"' EXIT
ip -n "$NS" link add fz0 type dummy
ip -n "$NS" link set fz0 up
ip -n "$NS" addr add 192.0.2.1/24 dev fz0
ip netns exec "$NS" "$HERE/../lib/nl_fuzz.py" --sets "${NL_FUZZ_SETS:-5000}" \
	${NL_FUZZ_SEED:+--seed "$NL_FUZZ_SEED"} fz0 pfc fafc ofc flowsail qcn qcnrp
