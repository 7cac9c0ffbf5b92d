/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints fafc:*, FAFC's pause LPs. Times are
 * ktime_get_ns() values, as fcq:*'s.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fafc

#if !defined(_FAFC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FAFC_TRACE_H

#include <linux/netdevice.h>
#include <linux/tracepoint.h>

/*
 * FAFC built the pause LP of egress @dev: Alg. 2's demand @raw, @demand
 * after the cap at arrivals - departures (A39), and @supply, what pausing
 * every contributor for T_hop removes (sum of a_i), all in bytes. @demand
 * over @supply is an infeasible LP (A15).
 */
TRACE_EVENT(fafc_lp,
	TP_PROTO(const struct net_device *dev, s64 raw, s64 demand,
		 s64 supply),
	TP_ARGS(dev, raw, demand, supply),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(s64, raw)
		__field(s64, demand)
		__field(s64, supply)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->raw = raw;
		__entry->demand = demand;
		__entry->supply = supply;
	),
	TP_printk("dev=%s raw=%lld demand=%lld supply=%lld", __entry->dev,
		  __entry->raw, __entry->demand, __entry->supply)
);

/*
 * FAFC solved the pause LP of egress @dev (@solver: 0 kernel, 1 fafcd) for
 * a demand of @demand bytes: @paused ingress ports, @pause_ns in total,
 * @latency ns from the trigger to the pauses being asked for.
 */
TRACE_EVENT(fafc_solve,
	TP_PROTO(const struct net_device *dev, u8 solver, s64 demand,
		 u32 paused, u64 pause_ns, u64 latency),
	TP_ARGS(dev, solver, demand, paused, pause_ns, latency),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u8, solver)
		__field(s64, demand)
		__field(u32, paused)
		__field(u64, pause_ns)
		__field(u64, latency)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->solver = solver;
		__entry->demand = demand;
		__entry->paused = paused;
		__entry->pause_ns = pause_ns;
		__entry->latency = latency;
	),
	TP_printk("dev=%s solver=%s demand=%lld paused=%u pause_ns=%llu latency=%llu",
		  __entry->dev, __entry->solver ? "user" : "kernel",
		  __entry->demand, __entry->paused, __entry->pause_ns,
		  __entry->latency)
);

#endif /* _FAFC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE fafc_trace
#include <trace/define_trace.h>
