#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# frame_test.sh: fcq-frame's frames as Wireshark decodes them, on the host.
# fcq-frame sends over a veth pair in a private namespace while dumpcap
# captures the other end; tshark decodes the capture with its own MAC
# Control dissector and tools/wireshark/fcq.lua. Every expected value is
# the one sent, written here. Needs root, tshark and dumpcap, and
# `make tools` (builds nothing).
#
#   selftests/tools/frame_test.sh      (FCQ_FRAME=path to test another binary)
set -u

# shellcheck disable=SC2034 # read by usage.sh and ktap.sh
ALL_TESTS="
	lua_fields
	frames_captured
	fafc_accumulate
	fafc_plain
	pfc_mac_control
	seq_and_tx_ns
	bad_magic
	unknown_type
	bad_version
	truncated
	expert_info
	mutation_refused
"
USAGE_MORE="TAP on stdout."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"

FRAME=${FCQ_FRAME:-$TOP/build/tools/fcq-frame}
LUA=$TOP/tools/wireshark/fcq.lua
NS=fcqft-$$
W=$(mktemp -d)
CAP=

cleanup() {
	[ -z "$CAP" ] || kill "$CAP" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

tests_plan

for tool in tshark dumpcap unshare; do
	command -v $tool >/dev/null && continue
	for _ in $(tests_selected); do
		ktap_skip "fcq frames through Wireshark" "no $tool"
	done
	ktap_finish
done
[ -x "$FRAME" ] || { ktap_note "no $FRAME: run make tools"; ktap_finish; }

# tshark with the fcq.lua under test and no other: a copy installed in a
# plugin folder would clash with it. Root makes tshark ignore
# WIRESHARK_PLUGIN_DIR, so an empty directory hides the global folder.
mkdir "$W/empty"
GLOBAL_LUA=$(tshark -G folders 2>/dev/null |
	sed -n 's/^Global Lua Plugins:[[:space:]]*//p')
ts() {
	HOME=$W unshare -m sh -c \
		'[ ! -d "$1" ] || mount --bind "$2" "$1" || exit 1
		 shift 2
		 exec tshark "$@"' sh "$GLOBAL_LUA" "$W/empty" "$@" 2>>"$W/tshark.err"
}
tsr() { ts -X lua_script:"$LUA" -r "$W/cap.pcapng" "$@"; }

# Shared steps, each done once whichever case needs it first (so that
# TESTS= may name any case).

# The veth pair tx0-rx0 in namespace NS.
veth_up() {
	[ -z "${VETH_UP:-}" ] || return 0
	ip netns add "$NS"
	ip -n "$NS" link add tx0 type veth peer name rx0
	ip -n "$NS" link set tx0 up
	ip -n "$NS" link set rx0 up
	VETH_UP=1
}

# Capture what one fcq-frame invocation sends, 1 ms apart. Extension
# frames are numbered across the invocation: the PFC frame takes no number.
# T[i] is when frame i + 1 was sent, $W/rows tshark's fields of each frame
# captured.
N=9
captured() {
	[ -z "${CAPTURED:-}" ] || return 0
	veth_up
	ip netns exec "$NS" dumpcap -i rx0 -f "ether proto 0x88b5 or ether proto 0x8808" \
		-c $N -a duration:5 -w "$W/cap.pcapng" 2>"$W/dumpcap.err" &
	CAP=$!
	# Frames sent before dumpcap captures are lost. It says "Capturing on"
	# before it opens the device, "File:" once it has, filter set.
	for _ in $(seq 50); do
		grep -qs "^File: " "$W/dumpcap.err" && break
		sleep 0.1
	done
	ip netns exec "$NS" "$FRAME" tx0 \
		fafc 3:2500000:acc --wait 1ms \
		fafc 5:1000 --wait 1ms \
		pfc 3:1000 --wait 1ms \
		fafc 2:777 --magic dead --wait 1ms \
		fafc 4:42 --type 9 --wait 1ms \
		fafc 1:1 --version 2 --wait 1ms \
		fafc 6:9 --len 34 --wait 1ms \
		fafc 7:5 --count 2 >"$W/sent" 2>"$W/frame.err"
	wait "$CAP"
	CAP=
	mapfile -t T <"$W/sent"
	tsr -T fields -E separator='|' -e frame.len -e fcq.magic -e fcq.version \
		-e fcq.type -e fcq.prio -e fcq.flags -e fcq.flags.accumulate \
		-e fcq.seq -e fcq.tx_ns -e fcq.fafc.pause_ns -e macc.opcode \
		-e macc.cbfc.enbv -e macc.cbfc.pause_time.c3 -e data.len \
		-e _ws.expert.message -e _ws.col.Info >"$W/rows"
	CAPTURED=1
}

# True if frame N's first fields are exactly FIELD...; else WHY says how.
WHY=
row_is() {
	local n=$1 got want
	shift
	want=$(IFS='|'; echo "$*")
	got=$(sed -n "${n}p" "$W/rows" | cut -d'|' -f1-$#)
	[ "$got" = "$want" ] && return 0
	WHY="frame $n: got \"$got\", want \"$want\""
	return 1
}

# The fields, their types and bases, as filters name them.
lua_fields() {
	ts -G fields -X lua_script:"$LUA" |
		awk -F'\t' '$1 == "F" && $5 == "fcq" && $4 != "FT_NONE" {
			print $3, $4, $6, $7 }' | sort >"$W/fields"
	sort >"$W/want" <<-EOF
	fcq.magic FT_UINT16 BASE_HEX 0x0
	fcq.version FT_UINT8 BASE_DEC 0x0
	fcq.type FT_UINT8 BASE_DEC 0x0
	fcq.prio FT_UINT8 BASE_DEC 0x0
	fcq.flags FT_UINT8 BASE_HEX 0x0
	fcq.flags.accumulate FT_BOOLEAN 8 0x1
	fcq.seq FT_UINT32 BASE_DEC 0x0
	fcq.tx_ns FT_UINT64 BASE_DEC 0x0
	fcq.fafc.pause_ns FT_UINT32 BASE_DEC 0x0
	EOF
	cmp -s "$W/fields" "$W/want" && ! grep -q "Lua" "$W/tshark.err"
	check_err $? "$(diff "$W/want" "$W/fields"; grep -v "^Running as" "$W/tshark.err")"
	log_test "fcq.lua loads and registers its 9 fields"
}

frames_captured() {
	local got
	captured
	got=$(wc -l <"$W/rows")
	[ ${#T[@]} = $N ] && [ "$got" = $N ]
	check_err $? "sent ${#T[@]}, captured $got: $(cat "$W/frame.err" "$W/dumpcap.err")"
	log_test "all $N frames sent and captured"
}

# Well-formed FAFC pauses, with and without ACCUMULATE.
fafc_accumulate() {
	captured
	row_is 1 60 0x4643 1 1 3 0x01 1 1 "${T[0]}" 2500000 "" "" "" "" "" \
		"FAFC pause prio 3 2500000 ns (accumulate) seq 1"
	check_err $? "$WHY"
	log_test "fafc 3:2500000:acc: priority 3, 2500000 ns, accumulate, seq 1"
}

fafc_plain() {
	captured
	row_is 2 60 0x4643 1 1 5 0x00 0 2 "${T[1]}" 1000 "" "" "" "" "" \
		"FAFC pause prio 5 1000 ns seq 2"
	check_err $? "$WHY"
	log_test "fafc 5:1000: priority 5, 1000 ns, no accumulate, seq 2"
}

# PFC is Wireshark's own MAC Control (its Info text is not ours to fix).
pfc_mac_control() {
	captured
	row_is 3 60 "" "" "" "" "" "" "" "" "" 0x0101 0x0008 1000 "" ""
	check_err $? "$WHY"
	log_test "pfc 3:1000 decodes as MAC Control: opcode 0x0101, class 3, 1000 quanta"
}

# Numbered 1, 2, ... in order, copies included; tx time as printed.
seq_and_tx_ns() {
	local seqs txs want_txs
	captured
	seqs=$(awk -F'|' '$8 != "" { printf "%s ", $8 }' "$W/rows")
	txs=$(awk -F'|' '$9 != "" { printf "%s ", $9 }' "$W/rows")
	want_txs=$(printf '%s ' "${T[@]:0:2}" "${T[@]:3}")
	[ "$seqs" = "1 2 3 4 5 6 7 8 " ] && [ "$txs" = "$want_txs" ]
	check_err $? "seq $seqs; tx_ns $txs, sent $want_txs"
	log_test "seq counts extension frames 1-8, copies included; tx_ns is the send time"
}

# Mutated frames (bad_magic to truncated): decoded as far as they go, and
# flagged.
bad_magic() {
	captured
	row_is 4 60 0xdead 1 1 2 0x00 0 3 "${T[3]}" 777 "" "" "" "" \
		"Magic is not 0x4643" "FAFC pause prio 2 777 ns seq 3 [bad magic 0xdead]"
	check_err $? "$WHY"
	log_test "--magic dead: flagged bad magic, still decoded"
}

unknown_type() {
	local types want_types
	captured
	types=$(tsr -Y fcq -O fcq | sed -n 's/^    Type: //p' | paste -sd,)
	want_types="FAFC pause (1),FAFC pause (1),FAFC pause (1),Unknown (9)"
	want_types="$want_types,FAFC pause (1),FAFC pause (1),FAFC pause (1),FAFC pause (1)"
	WHY="types \"$types\", want \"$want_types\""
	row_is 5 60 0x4643 1 9 4 0x00 0 4 "${T[4]}" "" "" "" "" 28 \
		"Unknown type" "Unknown type 9 prio 4 seq 4" &&
		[ "$types" = "$want_types" ]
	check_err $? "$WHY"
	log_test "--type 9: shown as Unknown (9), the rest (28 bytes) as data"
}

bad_version() {
	captured
	row_is 6 60 0x4643 2 1 1 0x00 0 5 "${T[5]}" 1 "" "" "" "" \
		"Version is not 1" "FAFC pause prio 1 1 ns seq 5 [bad version 2]"
	check_err $? "$WHY"
	log_test "--version 2: flagged bad version, still decoded"
}

truncated() {
	captured
	row_is 7 34 0x4643 1 1 6 0x00 0 6 "${T[6]}" "" "" "" "" "" \
		"Frame ends before the header and body do" \
		"FAFC pause prio 6 seq 6 [truncated]"
	check_err $? "$WHY"
	log_test "--len 34: flagged truncated, no pause time read"
}

# Exactly the rejected frames are malformed; well-formed ones carry no
# expert info at all.
expert_info() {
	local bad expert
	captured
	bad=$(tsr -Y _ws.malformed -T fields -e frame.number | paste -sd' ')
	expert=$(tsr -Y _ws.expert -T fields -e frame.number | paste -sd' ')
	[ "$bad" = "4 6 7" ] && [ "$expert" = "4 5 6 7" ]
	check_err $? "malformed: $bad; expert info: $expert"
	log_test "malformed: frames 4, 6, 7 only; expert info: 4-7 only"
}

# A mutation of a header the frame does not have is refused.
mutation_refused() {
	local args rc
	veth_up
	for args in "fafc 3:1 --opcode 0101" "pfc 3:1 --magic 4643" \
		    "pause 1 --type 1"; do
		ip netns exec "$NS" "$FRAME" tx0 $args >"$W/out" 2>"$W/err"
		rc=$?
		if [ $rc != 2 ] || [ -s "$W/out" ] || ! grep -q "does not apply" "$W/err"; then
			check_err 1 "not refused: $args"
			ktap_note "$args: exit $rc, $(cat "$W/out" "$W/err")"
		fi
	done
	log_test "--opcode on fafc, --magic and --type on pfc or pause: exit 2, nothing sent"
}

tests_run
ktap_finish
