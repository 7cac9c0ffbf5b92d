# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Checks of paced UDP streams (fcq-gen paced) from their sink's reports,
# the JSON lines of fcq-gen server in a file; for the order stresses of
# the schemes that isolate flows. Each sets the case's verdict through
# check_err (ktap.sh) and counts drops with total_drops (net.sh).

# paced_complete RCV N: all N streams arrived whole.
paced_complete() {
	local n
	n=$(gojq -s 'map(select(.end == "complete")) | length' "$1")
	[ "$n" = "$2" ]
	check_err $? "$n of $2 streams complete"
}

# paced_in_order RCV: no datagram out of order or twice.
paced_in_order() {
	local r
	r=$(gojq -s 'map(.reorders + .dups) | add' "$1")
	[ "$r" = 0 ]
	check_err $? "reorders + duplicates: $r"
}

# paced_no_loss RCV: no byte lost, no packet dropped anywhere.
paced_no_loss() {
	local lost drops
	lost=$(gojq -s 'map(.lost) | add' "$1")
	drops=$(total_drops)
	[ "$lost" = 0 ] && [ "${drops%% *}" = 0 ]
	check_err $? "lost $lost bytes; drops: $drops"
}
