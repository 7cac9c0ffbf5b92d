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
function die(msg) {
	printf "hpcc-traces.awk: %s\n", msg >"/dev/stderr"
	failed = 1
	exit 1
}
# Where the event's name is on its line (the task's name before it may
# hold blanks); then "key=value" at its field @n after it.
function event(name,    i) {
	for (i = 1; i <= NF && $i != name; i++)
		;
	return i
}
function field(n, key) {
	if (index($(e + n), key "=") != 1)
		die("line " FNR " of " FILENAME ": no " key "= at field " n \
		    " after " $e " in: " $0)
	return substr($(e + n), length(key) + 2)
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
	}
}
FNR == NR {
	if ($1 == "port")
		ports[++np] = $2 " " ifindex($3)
	else {
		id[$1] = $2
		type[$1] = $3
	}
	next
}
# pause_rx: dev opcode enable quanta now stop netns
mode == "pfc" && / pause_rx: / {
	e = event("pause_rx:")
	ns = field(7, "netns")
	if (!(ns in id))
		next
	split(field(4, "quanta"), q, ",")
	en = strtonum_hex(field(3, "enable"))
	when = ftime(field(5, "now"))
	dev = ifindex(field(1, "dev"))
	for (p = 0; p < 8; p++)
		if (int(en / 2 ^ p) % 2)
			printf "%s %d %d %d %d\n", when, id[ns], type[ns], dev,
				(q[p + 1] > 0 ? 1 : 0)
	next
}
# qlen: dev netns level since
mode == "qlen" && / qlen: / {
	e = event("qlen:")
	ns = field(2, "netns")
	if (!(ns in id) || type[ns] != 1)
		next
	k = id[ns] " " ifindex(field(1, "dev"))
	n = ++nev[k]
	ev_t[k, n] = field(4, "since")
	ev_l[k, n] = field(3, "level")
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
# n samples of @level into port @k's histogram, stopping at each dump
function add(k, level, from, to,    b, stop, i, s) {
	b = int(level / 1000)
	while (from <= to) {
		stop = int(from / every) * every
		if (stop < from)
			stop += every
		if (stop > last)
			stop = last
		if (stop > to)
			stop = to
		h[k, b] += stop - from + 1
		if (b > top[k])
			top[k] = b
		if (stop % every == 0 || stop == last) {
			s = k
			for (i = 0; i <= top[k]; i++)
				s = s " " (h[k, i] + 0)
			snap[stop, k] = s
		}
		from = stop + 1
	}
}
END {
	if (failed)
		exit 1
	if (mode != "qlen")
		exit 0
	for (j = 1; j <= np; j++) {
		k = ports[j]
		top[k] = 0
		level = 0
		from = 0
		for (n = 1; n <= nev[k]; n++) {
			to = kfrom(ev_t[k, n]) - 1
			if (to > last)
				to = last
			if (to >= from)
				add(k, level, from, to)
			if (to + 1 > from)
				from = to + 1
			level = ev_l[k, n]
		}
		if (from <= last)
			add(k, level, from, last)
	}
	for (d = 0; d <= last; d++) {
		if (d % every && d != last)
			continue
		printf "time: %s\n", ftime(epoch + d * step)
		for (j = 1; j <= np; j++)
			print snap[d, ports[j]]
	}
}
