# SPDX-License-Identifier: GPL-2.0
#
# phases.jq: per phase of an experiment, its paced streams' rates and
# shares (tools/lib/exp-run.sh). Input: one object per paced stream,
# {name, src, dst (host numbers), bps (its RATE, payload bit/s), dgram
# (payload bytes per datagram), t0, t1 (its schedule, CLOCK_MONOTONIC ns),
# sink (the sink's line, null if none)}; $len the phases' lengths (s), $e
# the epoch they start from (ns), $links {HOST: {rate (bytes/s),
# overhead (bytes a frame takes on the wire beyond its own)}}.
#
# Phases follow each other from the flows' epoch. A stream takes part in a
# phase when its schedule (START, for SECONDS or BYTES at RATE) covers the
# last 70 % of it, where its goodput is measured (the first 30 % lets the
# rates settle, as the Unbiased QCN paper measures). Per receiver, the
# streams' max-min fair shares of its link's payload capacity (each
# demanding its RATE, at most its own link's capacity; a datagram of
# "dgram" payload bytes takes 82 bytes of headers and the port's overhead
# on the wire), and over them Jain's index J, max/min M, the deviation
# from the fair shares E = sqrt(mean(((x - F) / F)^2)) and the utilization
# U: what the receiver got of every paced stream over its capacity (a
# stream whose schedule ended may still drain what it had queued: it
# takes its part of the link, not of the fair shares).
#
# Output, one line: the per-receiver records, a space, the per-stream
# ones (JSON arrays):
#   [{phase, dst, flows, J, M, E, U}]   M null when a stream got nothing
#   [{phase, name, mbps, fair_mbps, share}]

# payload bit/s of host h link, for datagrams of d bytes
def cap(h; d): $links[h | tostring] as $l
	| $l.rate * 8 * d / (d + 82 + $l.overhead);
# the max-min fair shares of C among demands (in their order)
def fair($c): . as $d | length as $n
	| ($d | to_entries | sort_by(.value)) as $o
	| reduce range(0; $n) as $i ({rem: $c, f: {}};
		([$o[$i].value, .rem / ($n - $i)] | min) as $x
		| .f[$o[$i].key | tostring] = $x | .rem -= $x)
	| [range(0; $n) as $i | .f[$i | tostring]];
# seconds to whole ns: phase edges and schedules are compared in whole
# ns, as sums of decimal seconds in floating point (12.8 * 3 + 12.8)
# miss a stream's end (51.2) by a fraction of one
def ns: . * 1e9 | round;
# goodput (Mbit/s) in [a, b] ns, bins straddling an edge pro rata
def mbps(a; b): .sink as $k
	| ([range(0; $k.bins | length) as $i
	    | ($k.first_ns + $i * $k.bin_ns) as $b0
	    | ([$b0 + $k.bin_ns, b] | min) - ([$b0, a] | max)
	    | if . > 0 then . / $k.bin_ns * $k.bins[$i] else 0 end]
	   | add // 0) * 8 / ((b - a) / 1e3);

. as $streams
| [range(0; $len | length) as $p
 | ($e + ($len[:$p] | map(ns) | add // 0)) as $p0
 | ($p0 + ($len[$p] | ns)) as $p1
 | ($p1 - (0.7 * $len[$p] | ns)) as $w0
 | [$streams[] | select(.sink != null)]
 | group_by(.dst)[]
 | (cap(.[0].dst; .[0].dgram) / 1e6) as $c
 | ([.[] | mbps($w0; $p1)] | add) as $all
 | [.[] | select((.t0 | round) <= $w0 and (.t1 | round) >= $p1)
    | .x = mbps($w0; $p1)] as $g
 | select($g | length > 0)
 | ([$g[] | [.bps, cap(.src; .dgram)] | min / 1e6] | fair($c)) as $f
 | [range(0; $g | length) as $i
    | {phase: ($p + 1), dst: $g[$i].dst, name: $g[$i].name,
       mbps: $g[$i].x, fair_mbps: $f[$i],
       share: ($g[$i].x / $f[$i])}] as $r
 | ([$r[].mbps] | add) as $sum
 | ($r | length) as $n
 | {phase: ($p + 1), dst: $r[0].dst, flows: $n,
    J: (if $sum > 0 then $sum * $sum /
	($n * ([$r[].mbps | . * .] | add)) else null end),
    M: ([$r[].mbps] | if min > 0 then max / min else null end),
    E: (([$r[] | (.share - 1) | . * .] | add) / $n | sqrt),
    U: ($all / $c), streams: $r}]
| "\(map(del(.streams)) | tojson) \([.[].streams[] | del(.dst)] | tojson)"
