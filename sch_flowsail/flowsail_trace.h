/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints flowsail:*, per-flow decisions of FlowSail ports. Flows are
 * named by their 5-tuple; times are ktime_get_ns() values, as fcq:*'s.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM flowsail

#if !defined(_FLOWSAIL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FLOWSAIL_TRACE_H

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/netdevice.h>
#include <linux/tracepoint.h>

#include "../core/key.h"

DECLARE_EVENT_CLASS(flowsail_flow,
	TP_PROTO(const struct net_device *dev, u8 prio,
		 const struct fcq_fkey *k, int lane),
	TP_ARGS(dev, prio, k, lane),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u8, prio)
		__field(u8, proto)
		__array(u8, src, sizeof(struct sockaddr_in6))
		__array(u8, dst, sizeof(struct sockaddr_in6))
		__field(int, lane)
		__field(u32, netns)
	),
	TP_fast_assign(
		struct sockaddr_in6 *s6 = (void *)__entry->src;
		struct sockaddr_in6 *d6 = (void *)__entry->dst;
		struct sockaddr_in *s4 = (void *)__entry->src;
		struct sockaddr_in *d4 = (void *)__entry->dst;

		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->prio = prio;
		__entry->proto = k->proto;
		memset(__entry->src, 0, sizeof(__entry->src));
		memset(__entry->dst, 0, sizeof(__entry->dst));
		if (k->family == 4) {
			s4->sin_family = AF_INET;
			s4->sin_port = htons(k->sport);
			memcpy(&s4->sin_addr, k->saddr, 4);
			d4->sin_family = AF_INET;
			d4->sin_port = htons(k->dport);
			memcpy(&d4->sin_addr, k->daddr, 4);
		} else {
			s6->sin6_family = AF_INET6;
			s6->sin6_port = htons(k->sport);
			memcpy(&s6->sin6_addr, k->saddr, 16);
			d6->sin6_family = AF_INET6;
			d6->sin6_port = htons(k->dport);
			memcpy(&d6->sin6_addr, k->daddr, 16);
		}
		__entry->lane = lane;
	),
	TP_printk("dev=%s prio=%u proto=%u flow=%pISpc>%pISpc lane=%d netns=%u",
		  __entry->dev, __entry->prio, __entry->proto,
		  __entry->src, __entry->dst, __entry->lane, __entry->netns)
);

/*
 * Egress @dev's queue @lane made flow @k congested: it asks the flow's
 * ingress port to pause it upstream (the first marked packet).
 */
DEFINE_EVENT(flowsail_flow, flowsail_pause,
	TP_PROTO(const struct net_device *dev, u8 prio,
		 const struct fcq_fkey *k, int lane),
	TP_ARGS(dev, prio, k, lane));

/* The last marked packet of flow @k left queue @lane: resume it. */
DEFINE_EVENT(flowsail_flow, flowsail_resume,
	TP_PROTO(const struct net_device *dev, u8 prio,
		 const struct fcq_fkey *k, int lane),
	TP_ARGS(dev, prio, k, lane));

/*
 * The peer of @dev paused flow @k: it is isolated in rsvQ (@lane), or held
 * in its own queue (bfc, or no free order mark).
 */
DEFINE_EVENT(flowsail_flow, flowsail_isolate,
	TP_PROTO(const struct net_device *dev, u8 prio,
		 const struct fcq_fkey *k, int lane),
	TP_ARGS(dev, prio, k, lane));

#endif /* _FLOWSAIL_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE flowsail_trace
#include <trace/define_trace.h>
