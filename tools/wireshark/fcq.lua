-- SPDX-License-Identifier: GPL-2.0
--
-- fcq.lua - Wireshark/tshark dissector for fcq extension frames
-- (EtherType 0x88B5, IEEE 802 Local Experimental 1), the layout of
-- core/frames.h:
--
--   14 magic 0x4643 ("FC")  16 version 1  17 type  18 priority  19 flags
--   20 sequence (32 bits)   24 tx time (64 bits, ns)
--   32 body: FAFC pause (type 1): pause time (32 bits, ns)
--
-- PFC and PAUSE frames (EtherType 0x8808) are left to Wireshark's own MAC
-- Control dissector (macc.*).
--
-- Use it for one run:
--   tshark -X lua_script:tools/wireshark/fcq.lua -r capture.pcapng
--   tshark -X lua_script:tools/wireshark/fcq.lua -r capture.pcapng \
--       -T fields -e fcq.seq -e fcq.prio -e fcq.fafc.pause_ns \
--       -e fcq.flags.accumulate
-- or for good: copy it into ~/.local/lib/wireshark/plugins/ (Wireshark
-- and tshark then load it at start; `tshark -G folders` lists the folders
-- searched for Lua plugins).
--
-- Filter with fcq, fcq.type == 1, fcq.flags.accumulate == 1, ... Frames an
-- fcq receiver rejects (bad magic, version or priority, too short) carry an
-- error in expert group Malformed (filter _ws.malformed, or fcq.bad_magic,
-- fcq.bad_version, fcq.bad_prio, fcq.truncated); they are still decoded as
-- version 1, to show what fcq-frame's mutations changed. Unknown types
-- carry fcq.unknown_type and the rest of the frame as data.

local fcq = Proto("fcq", "fcq extension frame")

local MAGIC = 0x4643
local VERSION = 1
local HDR_LEN = 18		-- from the magic to the end of the tx time
local NUM_PRIO = 8
local FAFC_PAUSE = 1
local F_ACCUMULATE = 0x01

local type_names = { [FAFC_PAUSE] = "FAFC pause" }
-- Bytes of body each type has after the header.
local body_len = { [FAFC_PAUSE] = 4 }

local f = fcq.fields
f.magic = ProtoField.uint16("fcq.magic", "Magic", base.HEX)
f.version = ProtoField.uint8("fcq.version", "Version", base.DEC)
f.type = ProtoField.uint8("fcq.type", "Type", base.DEC, type_names)
f.prio = ProtoField.uint8("fcq.prio", "Priority", base.DEC)
f.flags = ProtoField.uint8("fcq.flags", "Flags", base.HEX)
f.accumulate = ProtoField.bool("fcq.flags.accumulate", "Accumulate", 8,
	{ "Adds to the running pause", "Replaces the running pause" },
	F_ACCUMULATE)
f.seq = ProtoField.uint32("fcq.seq", "Sequence", base.DEC)
f.tx_ns = ProtoField.uint64("fcq.tx_ns", "TX time",
	base.DEC + base.UNIT_STRING, { " ns" }, nil,
	"The sender's CLOCK_MONOTONIC when it sent the frame")
f.pause_ns = ProtoField.uint32("fcq.fafc.pause_ns", "Pause time",
	base.DEC + base.UNIT_STRING, { " ns" })

local e = fcq.experts
e.bad_magic = ProtoExpert.new("fcq.bad_magic", "Magic is not 0x4643",
	expert.group.MALFORMED, expert.severity.ERROR)
e.bad_version = ProtoExpert.new("fcq.bad_version", "Version is not 1",
	expert.group.MALFORMED, expert.severity.ERROR)
e.bad_prio = ProtoExpert.new("fcq.bad_prio", "Priority is not 0-7",
	expert.group.MALFORMED, expert.severity.ERROR)
e.truncated = ProtoExpert.new("fcq.truncated",
	"Frame ends before the header and body do",
	expert.group.MALFORMED, expert.severity.ERROR)
e.unknown_type = ProtoExpert.new("fcq.unknown_type", "Unknown type",
	expert.group.UNDECODED, expert.severity.WARN)

local data = Dissector.get("data")

function fcq.dissector(tvb, pinfo, tree)
	local len = tvb:len()
	local t = tree:add(fcq, tvb())
	local problems = {}

	-- Adds the field at [off, off + n) if the frame holds it; returns its
	-- item and value, else nil.
	local function field(pf, off, n)
		if off + n > len then
			return nil
		end
		return t:add(pf, tvb(off, n)), tvb(off, n):uint()
	end

	-- Flags the field's item with an expert error and notes it for Info.
	local function check(item, ok, ex, what)
		if item and not ok then
			item:add_proto_expert_info(ex)
			problems[#problems + 1] = what
		end
	end

	pinfo.cols.protocol = "fcq"

	local magic_item, magic = field(f.magic, 0, 2)
	check(magic_item, magic == MAGIC, e.bad_magic,
	      string.format("bad magic 0x%04x", magic or 0))
	local version_item, version = field(f.version, 2, 1)
	check(version_item, version == VERSION, e.bad_version,
	      "bad version " .. tostring(version))
	local type_item, ftype = field(f.type, 3, 1)
	local prio_item, prio = field(f.prio, 4, 1)
	check(prio_item, prio and prio < NUM_PRIO, e.bad_prio,
	      "bad priority " .. tostring(prio))
	local flags_item, flags = field(f.flags, 5, 1)
	if flags_item then
		flags_item:add(f.accumulate, tvb(5, 1))
	end
	local _, seq = field(f.seq, 6, 4)
	if len >= HDR_LEN then
		t:add(f.tx_ns, tvb(10, 8))
	end

	local info = "fcq"
	if ftype then
		info = type_names[ftype] or "Unknown type " .. ftype
	end
	if prio then
		info = info .. " prio " .. prio
	end

	-- Bytes that belong to the frame; the rest is Ethernet padding.
	local used = math.min(len, HDR_LEN)
	local blen = ftype and body_len[ftype]
	if ftype == FAFC_PAUSE and len >= HDR_LEN + blen then
		local _, pause = field(f.pause_ns, HDR_LEN, blen)
		info = info .. " " .. pause .. " ns"
		if bit.band(flags, F_ACCUMULATE) ~= 0 then
			info = info .. " (accumulate)"
		end
		used = HDR_LEN + blen
	elseif ftype and not blen then
		-- The body's length is unknown: all the rest may be body.
		type_item:add_proto_expert_info(e.unknown_type)
		if len > HDR_LEN then
			data:call(tvb(HDR_LEN):tvb(), pinfo, tree)
		end
		used = len
	end
	check(t, len >= HDR_LEN + (blen or 0), e.truncated, "truncated")

	if seq then
		info = info .. " seq " .. seq
	end
	if #problems > 0 then
		info = info .. " [" .. table.concat(problems, ", ") .. "]"
	end
	pinfo.cols.info = info
	t:set_len(used)
	return used
end

DissectorTable.get("ethertype"):add(0x88b5, fcq)
