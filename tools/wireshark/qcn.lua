-- SPDX-License-Identifier: GPL-2.0
--
-- qcn.lua - Wireshark/tshark dissector for IEEE 802.1Qau congestion
-- notification: CNMs (EtherType 0x22E7) and the CN-TAG (0x22E9), which
-- Wireshark 4.0 does not decode. The CNM layout is core/frames.h's:
--
--   14 version (4 bits), reserved (6), QntzFb (6)   16 CPID (8 bytes)
--   24 cnmQOffset, 26 cnmQDelta (signed, 64-byte units); in version 1
--      (DSM) instead 24 F_b (32 bits, signed, kbit/s), QntzFb informational
--   28 encapsulated priority (3 bits), reserved (13)
--   30 encapsulated DA   36 encapsulated MSDU length   38 MSDU (0-64 B)
--
-- A CN-TAG is 2 bytes of RPID (the reaction point's flow) before the
-- frame's own EtherType, whose dissector then takes the rest.
--
--   tshark -X lua_script:tools/wireshark/qcn.lua -r capture.pcapng \
--       -Y cnm -T fields -e eth.dst -e cnm.qntzfb -e cnm.encap_da \
--       -e cnm.qoffset_bytes
--
-- or copy it into ~/.local/lib/wireshark/plugins/ beside fcq.lua. A CNM of
-- a version other than 0 and 1 (cnm.bad_version; decoded as version 0),
-- an MSDU over 64 bytes (cnm.msdu_too_long) or a frame that ends before
-- its header or MSDU (cnm.truncated) is marked Malformed, as fcq's
-- receivers drop it.

local cnm = Proto("cnm", "IEEE 802.1Qau Congestion Notification Message")
local cntag = Proto("cntag", "IEEE 802.1Qau CN-TAG")

local HDR_LEN = 24		-- from the version to the MSDU length
local MSDU_MAX = 64
local UNIT = 64			-- bytes per cnmQOffset / cnmQDelta unit
local VERSION_DSM = 1		-- F_b in place of cnmQOffset and cnmQDelta

local f = cnm.fields
f.version = ProtoField.uint16("cnm.version", "Version", base.DEC, nil,
	0xf000)
f.reserved = ProtoField.uint16("cnm.reserved", "Reserved", base.HEX, nil,
	0x0fc0)
f.qntzfb = ProtoField.uint16("cnm.qntzfb", "QntzFb", base.DEC, nil, 0x003f,
	"The congestion point's feedback, quantized to 6 bits")
f.cpid = ProtoField.bytes("cnm.cpid", "CPID")
f.cpid_mac = ProtoField.ether("cnm.cpid.mac", "CP MAC")
f.cpid_index = ProtoField.uint16("cnm.cpid.index", "CP index", base.HEX)
f.qoffset = ProtoField.int16("cnm.qoffset", "cnmQOffset", base.DEC, nil,
	nil, "Q - Q_eq in 64-byte units")
f.qoffset_bytes = ProtoField.int32("cnm.qoffset_bytes", "Q - Q_eq",
	base.DEC + base.UNIT_STRING, { " B" })
f.qdelta = ProtoField.int16("cnm.qdelta", "cnmQDelta", base.DEC, nil, nil,
	"Q - Q_old in 64-byte units")
f.qdelta_bytes = ProtoField.int32("cnm.qdelta_bytes", "Q - Q_old",
	base.DEC + base.UNIT_STRING, { " B" })
f.dsm_fb = ProtoField.int32("cnm.dsm_fb", "F_b (kbit/s)", base.DEC, nil, nil,
	"DSM: the rate change the congestion point asks, negative to slow down")
f.prio = ProtoField.uint16("cnm.prio", "Encapsulated priority", base.DEC,
	nil, 0xe000)
f.encap_da = ProtoField.ether("cnm.encap_da", "Encapsulated DA")
f.msdu_len = ProtoField.uint16("cnm.msdu_len", "Encapsulated MSDU length",
	base.DEC)
f.msdu = ProtoField.bytes("cnm.msdu", "Encapsulated MSDU")
f.msdu_type = ProtoField.uint16("cnm.msdu.ethertype",
	"Encapsulated EtherType", base.HEX)

local e = cnm.experts
e.bad_version = ProtoExpert.new("cnm.bad_version", "Version is not 0 or 1",
	expert.group.MALFORMED, expert.severity.ERROR)
e.msdu_too_long = ProtoExpert.new("cnm.msdu_too_long",
	"Encapsulated MSDU is over 64 bytes",
	expert.group.MALFORMED, expert.severity.ERROR)
e.truncated = ProtoExpert.new("cnm.truncated",
	"Frame ends before the header or the MSDU does",
	expert.group.MALFORMED, expert.severity.ERROR)

function cnm.dissector(tvb, pinfo, tree)
	local len = tvb:len()
	local t = tree:add(cnm, tvb())
	local problems = {}

	pinfo.cols.protocol = "CNM"
	if len < HDR_LEN then
		t:add_proto_expert_info(e.truncated)
		pinfo.cols.info = "CNM [truncated]"
		return len
	end
	local word = tvb(0, 2):uint()
	local vitem = t:add(f.version, tvb(0, 2))
	t:add(f.reserved, tvb(0, 2))
	local qitem = t:add(f.qntzfb, tvb(0, 2))
	local version = bit.rshift(word, 12)
	local dsm = version == VERSION_DSM
	if version ~= 0 and not dsm then
		vitem:add_proto_expert_info(e.bad_version)
		problems[#problems + 1] = "bad version " .. version
	end
	local qfb = bit.band(word, 0x3f)
	local ctree = t:add(f.cpid, tvb(2, 8))
	ctree:add(f.cpid_mac, tvb(2, 6))
	ctree:add(f.cpid_index, tvb(8, 2))
	local qoff, qdelta, fb
	if dsm then
		-- F_b says it all; the sender's QntzFb only summarizes it.
		qitem:append_text(" (informational)")
		fb = tvb(10, 4):int()
		t:add(f.dsm_fb, tvb(10, 4))
	else
		qoff = tvb(10, 2):int()
		qdelta = tvb(12, 2):int()
		t:add(f.qoffset, tvb(10, 2))
		t:add(f.qoffset_bytes, tvb(10, 2), qoff * UNIT):set_generated()
		t:add(f.qdelta, tvb(12, 2))
		t:add(f.qdelta_bytes, tvb(12, 2), qdelta * UNIT):set_generated()
	end
	t:add(f.prio, tvb(14, 2))
	local prio = bit.rshift(tvb(14, 2):uint(), 13)
	t:add(f.encap_da, tvb(16, 6))
	local mitem = t:add(f.msdu_len, tvb(22, 2))
	local mlen = tvb(22, 2):uint()
	local used = HDR_LEN
	if mlen > MSDU_MAX then
		mitem:add_proto_expert_info(e.msdu_too_long)
		problems[#problems + 1] = "MSDU of " .. mlen .. " bytes"
	elseif HDR_LEN + mlen > len then
		mitem:add_proto_expert_info(e.truncated)
		problems[#problems + 1] = "truncated"
	elseif mlen > 0 then
		local mtree = t:add(f.msdu, tvb(HDR_LEN, mlen))
		if mlen >= 2 then
			mtree:add(f.msdu_type, tvb(HDR_LEN, 2))
		end
		used = HDR_LEN + mlen
	end

	local info
	if dsm then
		info = string.format("DSM CNM F_b %d kbit/s for %s prio %d",
			fb, tostring(tvb(16, 6):ether()), prio)
	else
		info = string.format("CNM QntzFb %d for %s prio %d, " ..
			"Q - Q_eq %d B, Q - Q_old %d B",
			qfb, tostring(tvb(16, 6):ether()), prio, qoff * UNIT,
			qdelta * UNIT)
	end
	if #problems > 0 then
		info = info .. " [" .. table.concat(problems, ", ") .. "]"
	end
	pinfo.cols.info = info
	t:set_len(used)
	return used
end

local g = cntag.fields
g.rpid = ProtoField.uint16("cntag.rpid", "RPID", base.HEX,
	nil, nil, "The reaction point's flow identifier")
g.type = ProtoField.uint16("cntag.ethertype", "EtherType", base.HEX)

local ge = cntag.experts
ge.truncated = ProtoExpert.new("cntag.truncated",
	"Frame ends before the tag does",
	expert.group.MALFORMED, expert.severity.ERROR)

local ethertype = DissectorTable.get("ethertype")

function cntag.dissector(tvb, pinfo, tree)
	local t = tree:add(cntag, tvb(0, math.min(4, tvb:len())))

	if tvb:len() < 4 then
		t:add_proto_expert_info(ge.truncated)
		return tvb:len()
	end
	t:add(g.rpid, tvb(0, 2))
	t:add(g.type, tvb(2, 2))
	t:append_text(string.format(", RPID 0x%04x", tvb(0, 2):uint()))
	if tvb:len() > 4 then
		ethertype:try(tvb(2, 2):uint(), tvb(4):tvb(), pinfo, tree)
	end
	return tvb:len()
end

ethertype:add(0x22e7, cnm)
ethertype:add(0x22e9, cntag)
