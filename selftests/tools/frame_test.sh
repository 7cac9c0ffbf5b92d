#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# frame_test.sh: fcq-frame's frames as Wireshark decodes them, on the host.
# fcq-frame sends over a veth pair in a private namespace while dumpcap
# captures the other end; tshark decodes the capture with its own MAC
# Control dissector, tools/wireshark/fcq.lua and tools/wireshark/qcn.lua
# (CNMs of version 0 and of version 1, DSM's F_b; a CN-TAG written with
# text2pcap). Every expected value is the one sent, written here. Needs
# root, tshark, dumpcap and text2pcap, and `make tools` (builds nothing).
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
	keys_captured
	keys_pair4
	keys_tuple6
	keys_all
	keys_origin_more
	keys_bad_key_type
	keys_truncated
	keys_full_mtu
	keys_filters
	keys_expert_info
	keys_refused
	cnm_lua_fields
	cnm_captured
	cnm_fields
	cnm_big_msdu
	cnm_malformed
	cnm_refused
	dsm_lua_field
	dsm_captured
	dsm_decrease
	dsm_increase
	dsm_limits
	dsm_not_malformed
	dsm_refused
	cntag_decoded
"
USAGE_MORE="TAP on stdout."
. "$(dirname "$0")/../lib/usage.sh"
usage_args 0 "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib/ktap.sh"

FRAME=${FCQ_FRAME:-$TOP/build/tools/fcq-frame}
LUA=$TOP/tools/wireshark/fcq.lua
QCN_LUA=$TOP/tools/wireshark/qcn.lua
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

for tool in tshark dumpcap text2pcap unshare; do
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
# tshark on capture NAME ($W/NAME.pcapng).
tsr() {
	local name=$1
	shift
	ts -X lua_script:"$LUA" -X lua_script:"$QCN_LUA" -r "$W/$name.pcapng" "$@"
}

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

# Capture as $W/NAME.pcapng the N frames one fcq-frame invocation sends
# (ARG...); what it prints goes to $W/NAME.sent, its errors and dumpcap's
# to $W/NAME.err.
capture() {
	local name=$1 n=$2
	shift 2
	veth_up
	# Emptied here, not by dumpcap's redirection, which runs when the
	# child does: the loop below must not find the last capture's line.
	: >"$W/dumpcap.err"
	ip netns exec "$NS" dumpcap -i rx0 -f "ether proto 0x88b5 or ether proto 0x8808 or ether proto 0x22e7" \
		-c "$n" -a duration:5 -w "$W/$name.pcapng" 2>"$W/dumpcap.err" &
	CAP=$!
	# Frames sent before dumpcap captures are lost. It says "Capturing on"
	# before it opens the device, "File:" once it has, filter set.
	for _ in $(seq 50); do
		grep -qs "^File: " "$W/dumpcap.err" && break
		sleep 0.1
	done
	ip netns exec "$NS" "$FRAME" tx0 "$@" >"$W/$name.sent" 2>"$W/frame.err"
	wait "$CAP"
	CAP=
	cat "$W/frame.err" "$W/dumpcap.err" >"$W/$name.err"
}

# The frames of one fcq-frame invocation, 1 ms apart. Extension frames are
# numbered across the invocation: the PFC frame takes no number. T[i] is
# when frame i + 1 was sent, $W/rows tshark's fields of each frame
# captured.
N=9
captured() {
	[ -z "${CAPTURED:-}" ] || return 0
	capture cap $N \
		fafc 3:2500000:acc --wait 1ms \
		fafc 5:1000 --wait 1ms \
		pfc 3:1000 --wait 1ms \
		fafc 2:777 --magic dead --wait 1ms \
		fafc 4:42 --type 9 --wait 1ms \
		fafc 1:1 --version 2 --wait 1ms \
		fafc 6:9 --len 34 --wait 1ms \
		fafc 7:5 --count 2
	mapfile -t T <"$W/cap.sent"
	tsr cap -T fields -E separator='|' -e frame.len -e fcq.magic -e fcq.version \
		-e fcq.type -e fcq.prio -e fcq.flags -e fcq.flags.accumulate \
		-e fcq.seq -e fcq.tx_ns -e fcq.fafc.pause_ns -e macc.opcode \
		-e macc.cbfc.enbv -e macc.cbfc.pause_time.c3 -e data.len \
		-e _ws.expert.message -e _ws.col.Info >"$W/rows"
	CAPTURED=1
}

# True if frame N's first fields in ROWS are exactly FIELD...; else WHY
# says how.
WHY=
row_in() {
	local rows=$1 n=$2 got want
	shift 2
	want=$(IFS='|'; echo "$*")
	got=$(sed -n "${n}p" "$rows" | cut -d'|' -f1-$#)
	[ "$got" = "$want" ] && return 0
	WHY="frame $n: got \"$got\", want \"$want\""
	return 1
}
row_is() { row_in "$W/rows" "$@"; }

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
	fcq.flags.all FT_BOOLEAN 8 0x2
	fcq.flags.origin FT_BOOLEAN 8 0x4
	fcq.flags.more FT_BOOLEAN 8 0x8
	fcq.keys.type FT_UINT8 BASE_DEC 0x0
	fcq.keys.count FT_UINT16 BASE_DEC 0x0
	fcq.keys.src FT_IPv4  0x0
	fcq.keys.dst FT_IPv4  0x0
	fcq.keys.src6 FT_IPv6  0x0
	fcq.keys.dst6 FT_IPv6  0x0
	fcq.keys.sport FT_UINT16 BASE_DEC 0x0
	fcq.keys.dport FT_UINT16 BASE_DEC 0x0
	fcq.keys.proto FT_UINT8 BASE_DEC 0x0
	EOF
	cmp -s "$W/fields" "$W/want" && ! grep -q "Lua" "$W/tshark.err"
	check_err $? "$(diff "$W/want" "$W/fields"; grep -v "^Running as" "$W/tshark.err")"
	log_test "fcq.lua loads and registers its 21 fields"
}

frames_captured() {
	local got
	captured
	got=$(wc -l <"$W/rows")
	[ ${#T[@]} = $N ] && [ "$got" = $N ]
	check_err $? "sent ${#T[@]}, captured $got: $(cat "$W/cap.err")"
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
	types=$(tsr cap -Y fcq -O fcq | sed -n 's/^    Type: //p' | paste -sd,)
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
	bad=$(tsr cap -Y _ws.malformed -T fields -e frame.number | paste -sd' ')
	expert=$(tsr cap -Y _ws.expert -T fields -e frame.number | paste -sd' ')
	[ "$bad" = "4 6 7" ] && [ "$expert" = "4 5 6 7" ]
	check_err $? "malformed: $bad; expert info: $expert"
	log_test "malformed: frames 4, 6, 7 only; expert info: 4-7 only"
}

# A mutation of a header the frame does not have is refused.
mutation_refused() {
	local args rc
	veth_up
	for args in "fafc 3:1 --opcode 0101" "pfc 3:1 --magic 4643" \
		    "pause 1 --type 1" "fafc 3:1 --keytype 1" \
		    "pfc 3:1 --keycount 1" "keys pause 3:all --opcode 0101"; do
		ip netns exec "$NS" "$FRAME" tx0 $args >"$W/out" 2>"$W/err"
		rc=$?
		if [ $rc != 2 ] || [ -s "$W/out" ] || ! grep -q "does not apply" "$W/err"; then
			check_err 1 "not refused: $args"
			ktap_note "$args: exit $rc, $(cat "$W/out" "$W/err")"
		fi
	done
	log_test "--opcode on fcq frames, --magic, --type, --key* on pfc or pause, --keytype on fafc: exit 2"
}

# Keyed frames (types 2, 3) of one invocation, 1 ms apart: PAIR4, TUPLE6,
# ALL, DST4 with ORIGIN and MORE, a bad key type, a count beyond the frame,
# and 184 PAIR4 keys, as many as a 1500-byte MTU holds (36 + 184 * 8 =
# 1508 bytes). K[i] is when frame i + 1 was sent, $W/krows tshark's fields
# of each frame captured, seq and tx_ns last.
KN=7
TUPLES6='[2001:db8::1]:4791>[2001:db8::2]:80/udp'
TUPLES6+=',[2001:db8::3]:4792>[2001:db8::4]:443/tcp'
KEYS184=$(seq -f '10.1.0.%g>10.2.0.1' 184 | paste -sd,)
keys_captured_once() {
	[ -z "${KEYS_CAPTURED:-}" ] || return 0
	capture keys $KN \
		keys pause 3:origin '10.0.0.1>10.0.0.9,10.0.0.2>10.0.0.9' --wait 1ms \
		keys resume 5 "$TUPLES6" --wait 1ms \
		keys resume 2:all --wait 1ms \
		keys pause 1:origin:more '>10.0.0.7' --wait 1ms \
		keys pause 4 '10.0.0.1>10.0.0.2' --keytype 9 --wait 1ms \
		keys pause 6 '10.0.0.1>10.0.0.2,10.0.0.3>10.0.0.4' --keycount 10 \
		--wait 1ms \
		keys pause 7 "$KEYS184"
	mapfile -t K <"$W/keys.sent"
	tsr keys -T fields -E separator='|' -e frame.len -e fcq.type \
		-e fcq.prio -e fcq.flags -e fcq.flags.all -e fcq.flags.origin \
		-e fcq.flags.more -e fcq.keys.type -e fcq.keys.count \
		-e fcq.keys.src -e fcq.keys.dst -e fcq.keys.src6 \
		-e fcq.keys.dst6 -e fcq.keys.sport -e fcq.keys.dport \
		-e fcq.keys.proto -e data.len \
		-e _ws.expert.message -e _ws.col.Info -e fcq.seq -e fcq.tx_ns \
		>"$W/krows"
	KEYS_CAPTURED=1
}
krow_is() { row_in "$W/krows" "$@"; }

keys_captured() {
	local got seqs txs
	keys_captured_once
	got=$(wc -l <"$W/krows")
	seqs=$(awk -F'|' '{ printf "%s ", $20 }' "$W/krows")
	txs=$(awk -F'|' '{ printf "%s ", $21 }' "$W/krows")
	[ ${#K[@]} = $KN ] && [ "$got" = $KN ] &&
		[ "$seqs" = "1 2 3 4 5 6 7 " ] && [ "$txs" = "$(printf '%s ' "${K[@]}")" ]
	check_err $? "sent ${#K[@]}, captured $got, seq $seqs: $(cat "$W/keys.err")"
	log_test "all $KN keyed frames sent and captured, seq 1-$KN, tx_ns the send time"
}

keys_pair4() {
	keys_captured_once
	krow_is 1 60 2 3 0x04 0 1 0 1 2 10.0.0.1,10.0.0.2 10.0.0.9,10.0.0.9 \
		"" "" "" "" "" "" "" "Keys pause prio 3 2 pairs (origin) seq 1"
	check_err $? "$WHY"
	log_test "keys pause 3:origin, 2 PAIR4 keys: key type 1, count 2, sources and destinations"
}

keys_tuple6() {
	keys_captured_once
	krow_is 2 116 3 5 0x00 0 0 0 6 2 "" "" 2001:db8::1,2001:db8::3 \
		2001:db8::2,2001:db8::4 4791,4792 80,443 17,6 "" "" \
		"Keys resume prio 5 2 5-tuples seq 2"
	check_err $? "$WHY"
	log_test "keys resume 5, 2 TUPLE6 keys: 116 bytes, IPv6 addresses, ports, udp and tcp"
}

keys_all() {
	keys_captured_once
	krow_is 3 60 3 2 0x02 1 0 0 0 0 "" "" "" "" "" "" "" "" "" \
		"Keys resume prio 2 all seq 3"
	check_err $? "$WHY"
	log_test "keys resume 2:all: flag ALL, key type 0, count 0"
}

keys_origin_more() {
	keys_captured_once
	krow_is 4 60 2 1 0x0c 0 1 1 3 1 "" 10.0.0.7 "" "" "" "" "" "" "" \
		"Keys pause prio 1 1 destination (origin, more) seq 4"
	check_err $? "$WHY"
	log_test "keys pause 1:origin:more, one DST4 key: flags ORIGIN and MORE"
}

# The 24 bytes after the key list's header, as data.
keys_bad_key_type() {
	keys_captured_once
	krow_is 5 60 2 4 0x00 0 0 0 9 1 "" "" "" "" "" "" "" 24 \
		"Unknown key type" "Keys pause prio 4 1 key seq 5 [bad key type 9]"
	check_err $? "$WHY"
	log_test "--keytype 9: flagged unknown key type, the keys shown as data"
}

# 10 keys of 8 bytes from byte 36 of a 60-byte frame: the 2 sent and the
# zero padding fit as 3, and are decoded.
keys_truncated() {
	keys_captured_once
	krow_is 6 60 2 6 0x00 0 0 0 1 10 10.0.0.1,10.0.0.3,0.0.0.0 \
		10.0.0.2,10.0.0.4,0.0.0.0 "" "" "" "" "" "" \
		"Frame ends before its count of keys does" \
		"Keys pause prio 6 10 pairs seq 6 [keys truncated]"
	check_err $? "$WHY"
	log_test "--keycount 10 on 2 keys: flagged keys truncated, the 3 that fit decoded"
}

keys_full_mtu() {
	local src dst
	keys_captured_once
	src=$(seq -f '10.1.0.%g' 184 | paste -sd,)
	dst=$(yes 10.2.0.1 | head -n 184 | paste -sd,)
	krow_is 7 1508 2 7 0x00 0 0 0 1 184 "$src" "$dst" "" "" "" "" "" "" \
		"" "Keys pause prio 7 184 pairs seq 7"
	check_err $? "$WHY"
	log_test "184 PAIR4 keys at MTU 1500: a 1508-byte frame, all 184 decoded"
}

# Each family's fields filter by address.
keys_filters() {
	local v4 v6
	keys_captured_once
	v4=$(tsr keys -Y 'fcq.keys.dst == 10.0.0.9' -T fields -e frame.number)
	v6=$(tsr keys -Y 'fcq.keys.src6 == 2001:db8::3' -T fields -e frame.number)
	[ "$v4" = 1 ] && [ "$v6" = 2 ]
	check_err $? "fcq.keys.dst == 10.0.0.9: frame $v4; fcq.keys.src6 == 2001:db8::3: frame $v6"
	log_test "filters fcq.keys.dst == 10.0.0.9 and fcq.keys.src6 == 2001:db8::3 find frames 1 and 2"
}

keys_expert_info() {
	local bad expert
	keys_captured_once
	bad=$(tsr keys -Y _ws.malformed -T fields -e frame.number | paste -sd' ')
	expert=$(tsr keys -Y _ws.expert -T fields -e frame.number | paste -sd' ')
	[ "$bad" = "5 6" ] && [ "$expert" = "5 6" ]
	check_err $? "malformed: $bad; expert info: $expert"
	log_test "keyed frames: malformed and expert info on frames 5, 6 only"
}

# Keys of two wire types in one frame, or more than the MTU holds: exit 2,
# naming the key or the size, nothing sent.
keys_refused() {
	local rc
	veth_up
	ip netns exec "$NS" "$FRAME" tx0 keys pause 3 '10.0.0.1>10.0.0.2,::1>::2' \
		>"$W/out" 2>"$W/err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$W/out" ] && grep -q '"::1>::2" is PAIR6' "$W/err"
	check_err $? "PAIR4 then PAIR6: exit $rc, $(cat "$W/out" "$W/err")"
	ip netns exec "$NS" "$FRAME" tx0 keys pause 3 "$KEYS184,10.1.1.1>10.2.0.1" \
		>"$W/out" 2>"$W/err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$W/out" ] && grep -q "185 PAIR4 keys make a 1516-byte frame" "$W/err"
	check_err $? "185 PAIR4 keys: exit $rc, $(cat "$W/out" "$W/err")"
	log_test "keys of two wire types, or 185 PAIR4 at MTU 1500: exit 2, nothing sent"
}

# ---- 802.1Qau CNMs (core/frames.c) through tools/wireshark/qcn.lua ----

cnm_lua_fields() {
	ts -G fields -X lua_script:"$QCN_LUA" |
		awk -F'\t' '$1 == "F" && ($5 == "cnm" || $5 == "cntag") &&
			$4 != "FT_NONE" { print $3, $4, $6, $7 }' | sort >"$W/fields"
	sort >"$W/want" <<-EOF
	cnm.version FT_UINT16 BASE_DEC 0xf000
	cnm.reserved FT_UINT16 BASE_HEX 0xfc0
	cnm.qntzfb FT_UINT16 BASE_DEC 0x3f
	cnm.cpid FT_BYTES  0x0
	cnm.cpid.mac FT_ETHER  0x0
	cnm.cpid.index FT_UINT16 BASE_HEX 0x0
	cnm.qoffset FT_INT16 BASE_DEC 0x0
	cnm.qoffset_bytes FT_INT32 BASE_DEC 0x0
	cnm.qdelta FT_INT16 BASE_DEC 0x0
	cnm.qdelta_bytes FT_INT32 BASE_DEC 0x0
	cnm.dsm_fb FT_INT32 BASE_DEC 0x0
	cnm.prio FT_UINT16 BASE_DEC 0xe000
	cnm.encap_da FT_ETHER  0x0
	cnm.msdu_len FT_UINT16 BASE_DEC 0x0
	cnm.msdu FT_BYTES  0x0
	cnm.msdu.ethertype FT_UINT16 BASE_HEX 0x0
	cntag.rpid FT_UINT16 BASE_HEX 0x0
	cntag.ethertype FT_UINT16 BASE_HEX 0x0
	EOF
	cmp -s "$W/fields" "$W/want" && ! grep -q "Lua" "$W/tshark.err"
	check_err $? "$(diff "$W/want" "$W/fields"; grep -v "^Running as" "$W/tshark.err")"
	log_test "qcn.lua loads and registers its 18 fields"
}

# CNMs of one invocation, 1 ms apart: a well-formed one, one with the
# largest MSDU, then version 2 (0 is QCN's, 1 DSM's: below), an MSDU
# length over 64, and an MSDU
# past the end of the frame. $W/crows holds tshark's fields of each.
CN=5
C1=02:00:00:00:00:01
C5=02:00:00:00:00:05
cnm_captured_once() {
	[ -z "${CNM_CAPTURED:-}" ] || return 0
	capture cnm $CN \
		cnm 42:3 --dst $C1 --encap $C5 --qoff 40000 --qdelta -8000 --wait 1ms \
		cnm 63:7 --dst $C1 --msdu 64 --qoff -64 --wait 1ms \
		cnm 5 --dst $C1 --version 2 --wait 1ms \
		cnm 1 --dst $C1 --msdulen 70 --wait 1ms \
		cnm 9 --dst $C1 --msdu 40 --len 60
	TXMAC=$(ip netns exec "$NS" cat /sys/class/net/tx0/address)
	tsr cnm -n -T fields -E separator='|' -e frame.len -e eth.dst -e eth.src \
		-e cnm.version -e cnm.qntzfb -e cnm.cpid.mac -e cnm.cpid.index \
		-e cnm.qoffset -e cnm.qoffset_bytes -e cnm.qdelta_bytes -e cnm.prio \
		-e cnm.encap_da -e cnm.msdu_len -e cnm.msdu.ethertype \
		-e _ws.expert.message -e _ws.col.Info >"$W/crows"
	CNM_CAPTURED=1
}

# Every one of $3 frames sent (their times in $1) captured (rows in $2);
# fcq-frame's stderr in $4.
all_captured() {
	local got
	got=$(wc -l <"$2")
	[ "$(wc -l <"$1")" = "$3" ] && [ "$got" = "$3" ]
	check_err $? "sent $(wc -l <"$1"), captured $got: $(cat "$4")"
}

cnm_captured() {
	cnm_captured_once
	all_captured "$W/cnm.sent" "$W/crows" $CN "$W/cnm.err"
	log_test "all $CN CNMs sent and captured"
}

cnm_fields() {
	cnm_captured_once
	row_in "$W/crows" 1 60 $C1 "$TXMAC" 0 42 "$TXMAC" 0x0000 625 40000 \
		-8000 3 $C5 22 0x88b5 "" \
		"CNM QntzFb 42 for $C5 prio 3, Q - Q_eq 40000 B, Q - Q_old -8000 B"
	check_err $? "$WHY"
	log_test "cnm 42:3: to --dst from the port, QntzFb 42, prio 3, Q_off 625 x 64 B, Q_delta -125 x 64 B"
}

cnm_big_msdu() {
	cnm_captured_once
	row_in "$W/crows" 2 102 $C1 "$TXMAC" 0 63 "$TXMAC" 0x0000 -1 -64 0 7 \
		00:00:00:00:00:00 64 0x88b5 ""
	check_err $? "$WHY"
	log_test "cnm 63:7 --msdu 64: a 102-byte frame, the whole MSDU decoded"
}

cnm_malformed() {
	local bad
	cnm_captured_once
	row_in "$W/crows" 3 60 $C1 "$TXMAC" 2 5 "$TXMAC" 0x0000 0 0 0 0 \
		00:00:00:00:00:00 22 0x88b5 "Version is not 0 or 1"
	check_err $? "$WHY"
	row_in "$W/crows" 4 60 $C1 "$TXMAC" 0 1 "$TXMAC" 0x0000 0 0 0 0 \
		00:00:00:00:00:00 70 "" "Encapsulated MSDU is over 64 bytes"
	check_err $? "$WHY"
	row_in "$W/crows" 5 60 $C1 "$TXMAC" 0 9 "$TXMAC" 0x0000 0 0 0 0 \
		00:00:00:00:00:00 40 "" "Frame ends before the header or the MSDU does"
	check_err $? "$WHY"
	bad=$(tsr cnm -Y _ws.malformed -T fields -e frame.number | paste -sd' ')
	[ "$bad" = "3 4 5" ]
	check_err $? "malformed: $bad"
	log_test "version 2, MSDU length 70, MSDU past the end: flagged malformed (3 4 5 only)"
}

cnm_refused() {
	local args rc
	veth_up
	for args in "cnm 64" "cnm 1:8" "cnm 1 --msdu 65" "pfc 3:1 --encap $C5" \
		    "cnm 1 --opcode 0101" "cnm 1 --dst 02:00:00:00:00:100"; do
		ip netns exec "$NS" "$FRAME" tx0 $args >"$W/out" 2>"$W/err"
		rc=$?
		if [ $rc != 2 ] || [ -s "$W/out" ] || [ ! -s "$W/err" ]; then
			check_err 1 "not refused: $args"
			ktap_note "$args: exit $rc, $(cat "$W/out" "$W/err")"
		fi
	done
	log_test "QntzFb 64, priority 8, MSDU 65, --encap on pfc, --opcode on cnm, a bad MAC: exit 2"
}

# ---- DSM CNMs (version 1): F_b, signed kbit/s, at bytes 24-27 ----

dsm_lua_field() {
	ts -G fields -X lua_script:"$QCN_LUA" |
		awk -F'\t' '$1 == "F" && $3 == "cnm.dsm_fb" { print $2, $4, $6 }' \
		>"$W/fields"
	echo "F_b (kbit/s) FT_INT32 BASE_DEC" >"$W/want"
	cmp -s "$W/fields" "$W/want"
	check_err $? "$(diff "$W/want" "$W/fields")"
	log_test "qcn.lua registers cnm.dsm_fb, \"F_b (kbit/s)\", a signed 32-bit integer"
}

# DSM CNMs of one invocation, 1 ms apart: a decrease, an increase, then
# the largest decrease and increase 32 bits hold (their bytes 80 00 00 00
# and 7f ff ff ff show the sign bit and the byte order). QNTZFB is sent as
# their informational QntzFb. $W/drows holds tshark's fields of each.
DN=4
FB_DOWN=-1234567
FB_UP=5000000
dsm_captured_once() {
	[ -z "${DSM_CAPTURED:-}" ] || return 0
	capture dsm $DN \
		cnm 7:3 --dst $C1 --encap $C5 --fb $FB_DOWN --wait 1ms \
		cnm 31:5 --dst $C1 --encap $C5 --fb $FB_UP --msdu 0 --wait 1ms \
		cnm 63 --dst $C1 --fb -2147483648 --wait 1ms \
		cnm 63:7 --dst $C1 --fb 2147483647
	TXMAC=$(ip netns exec "$NS" cat /sys/class/net/tx0/address)
	tsr dsm -n -T fields -E separator='|' -e frame.len -e eth.dst \
		-e cnm.version -e cnm.qntzfb -e cnm.cpid.mac -e cnm.dsm_fb \
		-e cnm.qoffset -e cnm.qdelta -e cnm.prio -e cnm.encap_da \
		-e cnm.msdu_len -e _ws.expert.message -e _ws.col.Info \
		>"$W/drows"
	DSM_CAPTURED=1
}

dsm_captured() {
	dsm_captured_once
	all_captured "$W/dsm.sent" "$W/drows" $DN "$W/dsm.err"
	log_test "all $DN DSM CNMs (cnm --fb) sent and captured"
}

# Version 1 and F_b as sent; no cnmQOffset or cnmQDelta in a DSM CNM.
dsm_decrease() {
	dsm_captured_once
	row_in "$W/drows" 1 60 $C1 1 7 "$TXMAC" $FB_DOWN "" "" 3 $C5 22 "" \
		"DSM CNM F_b $FB_DOWN kbit/s for $C5 prio 3"
	check_err $? "$WHY"
	log_test "cnm 7:3 --fb $FB_DOWN: version 1, F_b $FB_DOWN kbit/s, QntzFb 7, prio 3"
}

dsm_increase() {
	dsm_captured_once
	row_in "$W/drows" 2 60 $C1 1 31 "$TXMAC" $FB_UP "" "" 5 $C5 0 "" \
		"DSM CNM F_b $FB_UP kbit/s for $C5 prio 5"
	check_err $? "$WHY"
	log_test "cnm 31:5 --fb $FB_UP: version 1, F_b $FB_UP kbit/s, QntzFb 31, prio 5"
}

dsm_limits() {
	local bytes
	dsm_captured_once
	row_in "$W/drows" 3 60 $C1 1 63 "$TXMAC" -2147483648 "" "" 0
	check_err $? "$WHY"
	row_in "$W/drows" 4 60 $C1 1 63 "$TXMAC" 2147483647 "" "" 7
	check_err $? "$WHY"
	# The bytes themselves, as PDML shows where the field lies: 24-27
	# of the frame, big-endian, two's complement.
	bytes=$(tsr dsm -T pdml | sed -n \
		's/.*name="cnm.dsm_fb".* size="\([0-9]*\)" pos="\([0-9]*\)".* value="\([0-9a-f]*\)".*/\2+\1:\3/p' |
		paste -sd' ')
	[ "$bytes" = "24+4:ffed2979 24+4:004c4b40 24+4:80000000 24+4:7fffffff" ]
	check_err $? "offset+size:bytes of cnm.dsm_fb: \"$bytes\""
	log_test "--fb -2147483648 and 2147483647: decoded as sent; bytes 24-27 big-endian"
}

# Well-formed: no expert info at all.
dsm_not_malformed() {
	local expert
	dsm_captured_once
	expert=$(tsr dsm -Y _ws.expert -T fields -e frame.number | paste -sd' ')
	[ -z "$expert" ]
	check_err $? "expert info on frames $expert"
	log_test "DSM CNMs carry no expert info (version 1 is not malformed)"
}

dsm_refused() {
	local args rc
	veth_up
	for args in "cnm 1 --fb 2147483648" "cnm 1 --fb -2147483649" \
		    "cnm 1 --fb 12x" "cnm 1 --fb -5 --qoff 64" \
		    "cnm 1 --qdelta 64 --fb 5" "pfc 3:1 --fb 5"; do
		ip netns exec "$NS" "$FRAME" tx0 $args >"$W/out" 2>"$W/err"
		rc=$?
		if [ $rc != 2 ] || [ -s "$W/out" ] || [ ! -s "$W/err" ]; then
			check_err 1 "not refused: $args"
			ktap_note "$args: exit $rc, $(cat "$W/out" "$W/err")"
		fi
	done
	log_test "--fb beyond 32 signed bits, not a number, with --qoff or --qdelta, on pfc: exit 2"
}

# A CN-TAG before an IPv4 header, written with text2pcap: the tag, then
# IPv4's own dissector.
cntag_decoded() {
	cat >"$W/cntag.txt" <<-EOF
	0000  02 00 00 00 00 01 02 00 00 00 00 07 22 e9 12 34
	0010  08 00 45 00 00 14 00 00 00 00 40 11 00 00 0a 00
	0020  00 01 0a 00 00 02 00 00 00 00 00 00 00 00 00 00
	0030  00 00 00 00 00 00 00 00 00 00 00 00
	EOF
	text2pcap -q "$W/cntag.txt" "$W/cntag.pcapng" 2>>"$W/tshark.err"
	tsr cntag -T fields -E separator='|' -e cntag.rpid -e cntag.ethertype \
		-e ip.src -e ip.dst >"$W/ctrows"
	row_in "$W/ctrows" 1 0x1234 0x0800 10.0.0.1 10.0.0.2
	check_err $? "$WHY"
	log_test "CN-TAG: RPID 0x1234, then the IPv4 header it carries"
}

tests_run
ktap_finish
