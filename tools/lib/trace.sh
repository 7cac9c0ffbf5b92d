# SPDX-License-Identifier: GPL-2.0
#
# trace.sh: exp-run.sh's tracefs work, sourced by it: the events a run
# records, and HPCC's pfc.txt and qlen.txt made of them. Reads its
# globals: events (SYSTEM[:EVENT] words), traces (those `trace` named),
# pfc_trace, qlen_trace, rdv (the run's scratch directory, its `nodes`
# file), dir (the run's output), tag, epoch, scale, first, tend, LIB; and
# say, fail and progress.

TR=/sys/kernel/tracing
traced=() tr_clock='' tr_overwrite=''

trace_on() {
	local t f
	[ ${#events[@]} -gt 0 ] || return 0
	[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" ||
		fail "trace: no tracefs at $TR"
	echo 0 >"$TR/tracing_on"
	# fcq:qlen fires twice per packet a switch port queues
	if [ -n "$qlen_trace" ]; then
		echo 65536 >"$TR/buffer_size_kb"
	else
		echo 16384 >"$TR/buffer_size_kb"
	fi
	# A full buffer drops the newest events and counts them (trace_save)
	# rather than overwriting the oldest unmarked; one clock for every CPU,
	# so that the file's merge of the CPUs' buffers keeps each port's
	# events in the order its lock gave them (hpcc-traces.awk needs it).
	tr_overwrite=$(cat "$TR/options/overwrite")
	echo 0 >"$TR/options/overwrite"
	tr_clock=$(sed 's/.*\[\(.*\)\].*/\1/' "$TR/trace_clock")
	echo mono >"$TR/trace_clock"
	echo >"$TR/trace"
	# the switches' ports only (host ones are not in qlen.txt); a filter
	# longer than a page (some 170 switches) is refused: all ports then
	[ -z "$qlen_trace" ] || awk '$3 == 1 { print "netns == " $1 }' \
		"$rdv/nodes" | paste -sd'|' | sed 's/|/ || /g' \
		>"$TR/events/fcq/qlen/filter" 2>/dev/null || {
		echo 0 >"$TR/events/fcq/qlen/filter"
		say "$tag qlen_trace: tracefs refused the filter on the switches' namespaces: tracing every port (hosts' too)"
	}
	for t in "${events[@]}"; do
		f=$TR/events/${t/://}/enable
		[ -f "$f" ] || fail "trace $t: no such event here (is its module loaded?)"
		echo 1 >"$f" && traced+=("$f")
	done
	echo 1 >"$TR/tracing_on"
}

trace_off() {
	local f
	[ ${#traced[@]} -gt 0 ] || return 0
	for f in "${traced[@]}"; do echo 0 >"$f"; done
	[ -z "$qlen_trace" ] || echo 0 >"$TR/events/fcq/qlen/filter"
	traced=()
}

# The buffer's options as they were.
trace_restore() {
	[ -z "$tr_clock" ] || echo "$tr_clock" >"$TR/trace_clock"
	[ -z "$tr_overwrite" ] || echo "$tr_overwrite" >"$TR/options/overwrite"
	tr_clock='' tr_overwrite=''
}

# After trace_off: the trace into $rdv/trace.txt (and the run's trace.txt
# if `trace` named events), and whether the buffer lost events: dropped
# when full, overwritten, or a reader's LOST EVENTS mark, on any CPU.
trace_save() {
	local lost
	cp "$TR/trace" "$rdv/trace.txt"
	lost=$(awk '/^(overrun|commit overrun|dropped events):/ { n += $NF }
		END { print n + 0 }' "$TR"/per_cpu/cpu*/stats)
	trace_restore
	[ ${#traces[@]} = 0 ] || cp "$rdv/trace.txt" "$dir/trace.txt"
	if [ "$lost" != 0 ] || grep -q 'LOST EVENTS' "$rdv/trace.txt"; then
		say "$tag trace.txt lost $lost events: the trace buffer overflowed"
		[ "$pfc_trace$qlen_trace" = off ] ||
			echo "trace: the buffer overflowed ($lost events lost): no pfc.txt nor qlen.txt (qlen_trace: a longer INTERVAL does not help; fewer switch ports or a shorter run do)" \
				>>"$rdv/trace-errors"
	fi
}

# HPCC's pfc.txt and qlen.txt from $rdv/trace.txt (hpcc-traces.awk), on
# fct.txt's clock; none from a trace that lost events: errors.txt says so.
trace_hpcc() {
	local qi qd
	[ "$pfc_trace$qlen_trace" != off ] || return 0
	if [ -f "$rdv/trace-errors" ]; then
		cat "$rdv/trace-errors" >>"$dir/errors.txt"
		return 0
	fi
	progress "writing HPCC's pfc.txt and qlen.txt from $(wc -l <"$rdv/trace.txt") trace lines"
	if [ "$pfc_trace" = on ]; then
		awk -f "$LIB/hpcc-traces.awk" -v mode=pfc -v epoch="$epoch" \
			-v scale="$scale" -v first="$first" "$rdv/nodes" \
			"$rdv/trace.txt" >"$rdv/pfc.txt" &&
			sort -s -n -k1,1 "$rdv/pfc.txt" >"$dir/pfc.txt" ||
			echo "pfc_trace: could not write pfc.txt" >>"$dir/errors.txt"
	fi
	if [ -n "$qlen_trace" ]; then
		read -r qi qd <<<"$qlen_trace"
		awk -f "$LIB/hpcc-traces.awk" -v mode=qlen -v epoch="$epoch" \
			-v scale="$scale" -v first="$first" -v interval="$qi" \
			-v dump="$qd" -v tend="$tend" "$rdv/nodes" \
			"$rdv/trace.txt" >"$rdv/qlen.txt" &&
			mv "$rdv/qlen.txt" "$dir/qlen.txt" ||
			echo "qlen_trace: could not write qlen.txt" >>"$dir/errors.txt"
	fi
}
