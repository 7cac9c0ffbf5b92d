# SPDX-License-Identifier: GPL-2.0
#
# hpcc-traces.awk: the HPCC simulator's pfc.txt or qlen.txt from a run's
# fcq:pause_rx or fcq:qlen events (tracefs text), on the flow file's clock
# as fct.txt is: T = first + (t - epoch) / scale, in ns.
#
#   awk -f hpcc-traces.awk -v mode=pfc -v epoch=E -v scale=K -v first=F \
#       NODES TRACE
#   awk -f hpcc-traces.awk -v mode=qlen -v epoch=E -v scale=K -v first=F \
#       -v interval=I -v dump=D -v tend=T NODES TRACE
#
# NODES: a line per network namespace, "INUM ID TYPE" (its inode number,
# its HPCC node id, 0 host or 1 switch); then, for qlen, "port ID DEV" per
# switch port to report. A device pN or ethN is the node's link N in
# topology.txt's order, HPCC's interface N + 1 (its device 0 is loopback).
#
# pfc: a line "time_ns node_id node_type ifindex type" per class a PFC or
# 802.3x PAUSE frame paused (type 1, quanta > 0) or resumed (0) at the
# device that received it, in time order.
#
# qlen: each switch port's queue (bytes not yet serializing, every class)
# read at epoch + k * I * scale, k = 0, 1, ... up to tend (real ns), into
# a histogram of 1000-byte buckets, cumulative; at every D (a multiple of
# I) from the first sample on, and at the last sample, "time: T" then
# "switch port c0 c1 ..." per port, in switch and port order. A port's
# level is 0 until its first event; an event's level holds from its
# "since" on, a later event at the same time overriding it.
#
# The trace is read once, as a stream: a port's events must come in
# "since" order (one clock for every CPU: exp-run.sh sets trace_clock
# mono; a port's events are then in the order its lock gave them), else
# it fails. Memory holds a histogram per port, not the events; the work
# per event is constant, per dump a line per port (sort(1) puts the dumps'
# lines in order). Fields are found by key, so fields added at the end of
# an event (another netns=) change nothing.
function die(msg) {
	printf "hpcc-traces.awk: %s\n", msg >"/dev/stderr"
	failed = 1
	exit 1
}
# The line's "key=value" fields after the event @name (the task's name
# before it may hold blanks) into val[], the first of each key.
function fields(name,    i, e, c, key) {
	for (e = 1; e <= NF && $e != name; e++)
		;
	split("", val)
	for (i = e + 1; i <= NF; i++)
		if ((c = index($i, "=")) && !((key = substr($i, 1, c - 1)) in val))
			val[key] = substr($i, c + 1)
}
function field(key) {
	if (!(key in val))
		die("line " FNR " of " FILENAME ": no " key "= in: " $0)
	return val[key]
}
function ifindex(dev) {
	if (dev !~ /^(p|eth)[0-9]+$/)
		die("device " dev ": not a port fcq-net made (pN, ethN)")
	sub(/^(p|eth)/, "", dev)
	return dev + 1
}
function ftime(t) {
	return sprintf("%.0f", first + (t - epoch) / scale)
}
BEGIN {
	if (mode != "pfc" && mode != "qlen")
		die("mode=pfc or mode=qlen")
	if (scale <= 0 || epoch == "" || first == "")
		die("needs epoch, scale and first")
	if (mode == "qlen") {
		step = interval * scale
		if (interval <= 0 || dump <= 0 || dump % interval || tend == "")
			die("qlen needs interval, dump (a multiple of it) and tend")
		last = int((tend - epoch) / step)
		if (last < 0)
			die("tend before the epoch")
		every = dump / interval
		out = "sort -s -n -k1,1 -k2,2 | cut -d' ' -f3-"
	}
}
FNR == NR {
	if ($1 == "port") {
		k = $2 " " ifindex($3)
		if (!(k in row)) {
			row[k] = ++np
			ports[np] = k
		}
	} else {
		id[$1] = $2
		type[$1] = $3
	}
	next
}
mode == "pfc" && / pause_rx: / {
	fields("pause_rx:")
	ns = field("netns")
	if (!(ns in id))
		next
	split(field("quanta"), q, ",")
	en = strtonum_hex(field("enable"))
	when = ftime(field("now"))
	dev = ifindex(field("dev"))
	for (p = 0; p < 8; p++)
		if (int(en / 2 ^ p) % 2)
			printf "%s %d %d %d %d\n", when, id[ns], type[ns], dev,
				(q[p + 1] > 0 ? 1 : 0)
	next
}
mode == "qlen" && / qlen: / {
	fields("qlen:")
	ns = field("netns")
	if (!(ns in id) || type[ns] != 1)
		next
	k = id[ns] " " ifindex(field("dev"))
	if (!(k in row))
		next
	t = field("since") + 0
	if (k in since && t < since[k])
		die("line " FNR " of " FILENAME ": port " k "'s since=" t \
		    " before its previous event's " since[k] \
		    " (the trace's clock is not one for every CPU?)")
	since[k] = t
	upto(k, kfrom(t) - 1)
	lvl[k] = int(field("level") / 1000)
	next
}
# mawk has no strtonum: "0x08" -> 8
function strtonum_hex(s,    v, i, c) {
	s = tolower(s)
	sub(/^0x/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (!c)
			die("\"" s "\" is not hexadecimal")
		v = v * 16 + c - 1
	}
	return v
}
# the first sample index at or after real time t
function kfrom(t,    k) {
	k = (t - epoch) / step
	k = k == int(k) ? k : int(k) + (k > 0)
	return k < 0 ? 0 : k
}
# the first dump at or after sample index n (last + 1: none)
function dumpfrom(n,    d) {
	d = int(n / every) * every
	if (d < n)
		d += every
	return d > last ? (n <= last ? last : last + 1) : d
}
# Port @k's samples from nxt[k] to @to (at most the last) at its level,
# writing its line at each dump among them.
function upto(k, to,    b, d, i, s) {
	if (to > last)
		to = last
	b = lvl[k] + 0
	if (to < nxt[k] + 0)
		return
	if (b > top[k] + 0)
		top[k] = b
	for (d = dumpfrom(nxt[k] + 0); d <= to; d = dumpfrom(d + 1)) {
		h[k, b] += d - nxt[k] + 1
		nxt[k] = d + 1
		s = k
		for (i = 0; i <= top[k]; i++)
			s = s " " (h[k, i] + 0)
		printf "%.0f %d %s\n", d, row[k], s | out
	}
	h[k, b] += to - nxt[k] + 1
	nxt[k] = to + 1
}
END {
	if (failed)
		exit 1
	if (mode != "qlen")
		exit 0
	for (j = 1; j <= np; j++)
		upto(ports[j], last)
	for (d = dumpfrom(0); d <= last; d = dumpfrom(d + 1))
		printf "%.0f 0 time: %s\n", d, ftime(epoch + d * step) | out
	close(out)
}
