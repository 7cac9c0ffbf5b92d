-- SPDX-License-Identifier: GPL-2.0
--
-- fcq.lua - Wireshark/tshark dissector for fcq extension frames
-- (EtherType 0x88B5, IEEE 802 Local Experimental 1), the layout of
-- core/frames.h:
--
--   14 magic 0x4643 ("FC")  16 version 1  17 type  18 priority  19 flags
--   20 sequence (32 bits)   24 tx time (64 bits, ns)
--   32 body: FAFC pause (type 1): pause time (32 bits, ns)
--            Keys pause, keys resume (types 2, 3): key type (8 bits),
--            reserved (8), count (16), then count keys of the key type's
--            wire form (core/key.h), up to the MTU
--
-- PFC and PAUSE frames (EtherType 0x8808) are left to Wireshark's own MAC
-- Control dissector (macc.*).
--
-- Use it for one run:
--   tshark -X lua_script:tools/wireshark/fcq.lua -r capture.pcapng
--   tshark -X lua_script:tools/wireshark/fcq.lua -r capture.pcapng \
--       -T fields -e fcq.seq -e fcq.prio -e fcq.fafc.pause_ns \
--       -e fcq.flags.accumulate
--   tshark -X lua_script:tools/wireshark/fcq.lua -r capture.pcapng \
--       -Y "fcq.type == 2" -T fields -e fcq.keys.count -e fcq.keys.src \
--       -e fcq.keys.dst -e fcq.keys.src6 -e fcq.keys.dst6
-- or for good: copy it into ~/.local/lib/wireshark/plugins/ (Wireshark
-- and tshark then load it at start; `tshark -G folders` lists the folders
-- searched for Lua plugins).
--
-- Filter with fcq, fcq.type == 1, fcq.flags.accumulate == 1, ... Frames an
-- fcq receiver rejects (bad magic, version or priority, too short) carry an
-- error in expert group Malformed (filter _ws.malformed, or fcq.bad_magic,
-- fcq.bad_version, fcq.bad_prio, fcq.truncated); they are still decoded as
-- version 1, to show what fcq-frame's mutations changed. Unknown types
-- carry fcq.unknown_type and the rest of the frame as data. A keyed frame
-- with an unknown key type (fcq.bad_key_type, its keys shown as data) or
-- more keys than it holds (fcq.keys_truncated, the keys that fit decoded)
-- is malformed too.

local fcq = Proto("fcq", "fcq extension frame")

local MAGIC = 0x4643
local VERSION = 1
local HDR_LEN = 18		-- from the magic to the end of the tx time
local NUM_PRIO = 8
local FAFC_PAUSE = 1
local KEYS_PAUSE = 2
local KEYS_RESUME = 3
local F_ACCUMULATE = 0x01
local F_ALL = 0x02
local F_ORIGIN = 0x04
local F_MORE = 0x08

local type_names = {
	[FAFC_PAUSE] = "FAFC pause",
	[KEYS_PAUSE] = "Keys pause",
	[KEYS_RESUME] = "Keys resume",
}
-- Bytes of body each type has after the header (keyed frames: before
-- their keys).
local body_len = { [FAFC_PAUSE] = 4, [KEYS_PAUSE] = 4, [KEYS_RESUME] = 4 }

-- Key wire forms (core/key.h): address length, whether the source and
-- ports are there, and what Info calls them.
local key_forms = {
	[1] = { name = "PAIR4", alen = 4, src = true, noun = "pair" },
	[2] = { name = "PAIR6", alen = 16, src = true, noun = "pair" },
	[3] = { name = "DST4", alen = 4, noun = "destination" },
	[4] = { name = "DST6", alen = 16, noun = "destination" },
	[5] = { name = "TUPLE4", alen = 4, src = true, ports = true,
		noun = "5-tuple" },
	[6] = { name = "TUPLE6", alen = 16, src = true, ports = true,
		noun = "5-tuple" },
}
local key_type_names = {}
for wk, form in pairs(key_forms) do
	key_type_names[wk] = form.name
	-- saddr, daddr; sport, dport, proto, pad 3
	form.size = (form.src and 2 or 1) * form.alen + (form.ports and 8 or 0)
end

local f = fcq.fields
f.magic = ProtoField.uint16("fcq.magic", "Magic", base.HEX)
f.version = ProtoField.uint8("fcq.version", "Version", base.DEC)
f.type = ProtoField.uint8("fcq.type", "Type", base.DEC, type_names)
f.prio = ProtoField.uint8("fcq.prio", "Priority", base.DEC)
f.flags = ProtoField.uint8("fcq.flags", "Flags", base.HEX)
f.accumulate = ProtoField.bool("fcq.flags.accumulate", "Accumulate", 8,
	{ "Adds to the running pause", "Replaces the running pause" },
	F_ACCUMULATE)
f.all = ProtoField.bool("fcq.flags.all", "All", 8,
	{ "The whole class", "The keys listed" }, F_ALL)
f.origin = ProtoField.bool("fcq.flags.origin", "Origin", 8,
	{ "Sent by the congestion's origin", "Not from the origin" }, F_ORIGIN)
f.more = ProtoField.bool("fcq.flags.more", "More", 8,
	{ "The list goes on in another frame", "The last frame of the list" },
	F_MORE)
f.seq = ProtoField.uint32("fcq.seq", "Sequence", base.DEC)
f.tx_ns = ProtoField.uint64("fcq.tx_ns", "TX time",
	base.DEC + base.UNIT_STRING, { " ns" }, nil,
	"The sender's CLOCK_MONOTONIC when it sent the frame")
f.pause_ns = ProtoField.uint32("fcq.fafc.pause_ns", "Pause time",
	base.DEC + base.UNIT_STRING, { " ns" })
f.key_type = ProtoField.uint8("fcq.keys.type", "Key type", base.DEC,
	key_type_names)
f.count = ProtoField.uint16("fcq.keys.count", "Count", base.DEC)
-- A name per family, as ip.src and ipv6.src: display filters take the
-- type of one field of a name only.
f.src4 = ProtoField.ipv4("fcq.keys.src", "Source")
f.src6 = ProtoField.ipv6("fcq.keys.src6", "Source")
f.dst4 = ProtoField.ipv4("fcq.keys.dst", "Destination")
f.dst6 = ProtoField.ipv6("fcq.keys.dst6", "Destination")
f.sport = ProtoField.uint16("fcq.keys.sport", "Source port", base.DEC)
f.dport = ProtoField.uint16("fcq.keys.dport", "Destination port", base.DEC)
f.proto = ProtoField.uint8("fcq.keys.proto", "Protocol", base.DEC,
	{ [6] = "TCP", [17] = "UDP" })

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
e.bad_key_type = ProtoExpert.new("fcq.bad_key_type", "Unknown key type",
	expert.group.MALFORMED, expert.severity.ERROR)
e.keys_truncated = ProtoExpert.new("fcq.keys_truncated",
	"Frame ends before its count of keys does",
	expert.group.MALFORMED, expert.severity.ERROR)

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
	local keyed = ftype == KEYS_PAUSE or ftype == KEYS_RESUME
	local flags_item, flags = field(f.flags, 5, 1)
	if flags_item and keyed then
		flags_item:add(f.all, tvb(5, 1))
		flags_item:add(f.origin, tvb(5, 1))
		flags_item:add(f.more, tvb(5, 1))
	elseif flags_item then
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

	-- Adds the address at [off, off + n) to the key's tree; returns it
	-- (with its port, if any) as fcq-frame takes it.
	local function addr(pf4, pf6, ktree, off, n, port)
		local a
		if n == 4 then
			ktree:add(pf4, tvb(off, 4))
			a = tostring(tvb(off, 4):ipv4())
		else
			ktree:add(pf6, tvb(off, 16))
			a = tostring(tvb(off, 16):ipv6())
			if port then
				a = "[" .. a .. "]"
			end
		end
		if port then
			a = a .. ":" .. port
		end
		return a
	end

	-- The key list of a keyed frame, from off. Returns Info's words for
	-- it and the bytes it takes.
	local function keys(off)
		local wk_item, wk = field(f.key_type, off, 1)
		local count_item, count = field(f.count, off + 2, 2)
		local form = key_forms[wk]
		local words = ""
		local opts = {}

		if bit.band(flags, F_ALL) ~= 0 then
			words = " all"
		end
		if count > 0 or words == "" then
			local noun = (form and form.noun or "key") ..
				(count == 1 and "" or "s")
			words = words .. (words == "" and " " or ", ") ..
				count .. " " .. noun
		end
		if bit.band(flags, F_ORIGIN) ~= 0 then
			opts[#opts + 1] = "origin"
		end
		if bit.band(flags, F_MORE) ~= 0 then
			opts[#opts + 1] = "more"
		end
		if #opts > 0 then
			words = words .. " (" .. table.concat(opts, ", ") .. ")"
		end

		-- Key type 0 (none) only in a frame without keys, as
		-- fcq_ext_parse() has it.
		off = off + 4
		if not form then
			check(wk_item, wk == 0 and count == 0, e.bad_key_type,
			      "bad key type " .. wk)
			if wk ~= 0 or count ~= 0 then
				if len > off then
					data:call(tvb(off):tvb(), pinfo, tree)
				end
				return words, len
			end
			return words, off
		end
		local i = 0
		while i < count and off + form.size <= len do
			local ktree = t:add(tvb(off, form.size),
					    "Key " .. (i + 1))
			local a = form.alen
			local src, dst, sport, dport, p = ""
			if form.ports then
				sport = tvb(off + 2 * a, 2):uint()
				dport = tvb(off + 2 * a + 2, 2):uint()
			end
			if form.src then
				src = addr(f.src4, f.src6, ktree, off, a, sport)
				off = off + a
			end
			dst = addr(f.dst4, f.dst6, ktree, off, a, dport)
			off = off + a
			if form.ports then
				ktree:add(f.sport, tvb(off, 2))
				ktree:add(f.dport, tvb(off + 2, 2))
				ktree:add(f.proto, tvb(off + 4, 1))
				p = tvb(off + 4, 1):uint()
				dst = dst .. "/" .. (p == 6 and "tcp" or
					p == 17 and "udp" or p)
				off = off + 8
			end
			ktree:append_text(": " .. src .. ">" .. dst)
			i = i + 1
		end
		check(count_item, i == count, e.keys_truncated,
		      "keys truncated")
		return words, i == count and off or len
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
	elseif keyed and len >= HDR_LEN + blen then
		local words
		words, used = keys(HDR_LEN)
		info = info .. words
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
