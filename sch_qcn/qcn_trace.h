/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints qcn:*, the CNMs of QCN and DSM: each one a congestion point
 * sends, each one a reaction point applies, with the rate it leaves; and
 * each sample of a DSM congestion point, the queue's trace.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM qcn

#if !defined(_QCN_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _QCN_TRACE_H

#include <linux/netdevice.h>
#include <linux/tracepoint.h>

/*
 * The CP of @dev named the flow (@sa, @da, @prio) with @qfb (Q_off and
 * Q_delta in bytes): its CNM to @sa went to the port's ring, or found it
 * full (@sent false: cnm_refused).
 */
TRACE_EVENT(cnm_tx,
	TP_PROTO(const struct net_device *dev, const u8 *sa, const u8 *da,
		 u8 prio, u8 qfb, s64 qoff, s64 qdelta, bool sent),
	TP_ARGS(dev, sa, da, prio, qfb, qoff, qdelta, sent),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__array(u8, sa, ETH_ALEN)
		__array(u8, da, ETH_ALEN)
		__field(u8, prio)
		__field(u8, qfb)
		__field(s64, qoff)
		__field(s64, qdelta)
		__field(bool, sent)
		__field(u32, netns)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		memcpy(__entry->sa, sa, ETH_ALEN);
		memcpy(__entry->da, da, ETH_ALEN);
		__entry->prio = prio;
		__entry->qfb = qfb;
		__entry->qoff = qoff;
		__entry->qdelta = qdelta;
		__entry->sent = sent;
	),
	TP_printk("dev=%s flow=%pM>%pM prio=%u qfb=%u qoff=%lld qdelta=%lld sent=%d netns=%u",
		  __entry->dev, __entry->sa, __entry->da, __entry->prio,
		  __entry->qfb, __entry->qoff, __entry->qdelta, __entry->sent,
		  __entry->netns)
);

/*
 * A sample of the DSM CP of @dev: its queue held @q bytes; the prediction
 * (^Q_f, ^Q_v, bytes) lay in @region (enum dsm_region), which asked for a
 * step @u (bytes per sampling period) of the sampled frame's source; @sent
 * of it went out (rounded to the CNM's kbit/s; 0 if no CNM did), which the
 * prediction counts from now on. With room on, @room is the source's rate
 * in bytes per period that bounded the step (-1: none; deviation 17).
 */
TRACE_EVENT(dsm_sample,
	TP_PROTO(const struct net_device *dev, u32 q, s64 qfh, s64 qvh, s64 u,
		 s64 sent, u8 region, s64 room),
	TP_ARGS(dev, q, qfh, qvh, u, sent, region, room),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u32, q)
		__field(s64, qfh)
		__field(s64, qvh)
		__field(s64, u)
		__field(s64, sent)
		__field(u8, region)
		__field(s64, room)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->q = q;
		__entry->qfh = qfh;
		__entry->qvh = qvh;
		__entry->u = u;
		__entry->sent = sent;
		__entry->region = region;
		__entry->room = room;
	),
	TP_printk("dev=%s q=%u qfh=%lld qvh=%lld u=%lld sent=%lld region=%u room=%lld",
		  __entry->dev, __entry->q, __entry->qfh, __entry->qvh,
		  __entry->u, __entry->sent, __entry->region, __entry->room)
);

/*
 * The RP of @dev applied a CNM with @qfb (DSM: and F_b @fb, kbit/s) to
 * its rate limiter of (@da, @prio), at @now: it left the RL at current
 * rate @cr and target @tr (bits/s; DSM has no target: 0).
 */
TRACE_EVENT(cnm_rx,
	TP_PROTO(const struct net_device *dev, const u8 *da, u8 prio, u8 qfb,
		 u64 cr, u64 tr, u64 now, s32 fb),
	TP_ARGS(dev, da, prio, qfb, cr, tr, now, fb),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__array(u8, da, ETH_ALEN)
		__field(u8, prio)
		__field(u8, qfb)
		__field(u64, cr)
		__field(u64, tr)
		__field(u64, now)
		__field(s32, fb)
		__field(u32, netns)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		memcpy(__entry->da, da, ETH_ALEN);
		__entry->prio = prio;
		__entry->qfb = qfb;
		__entry->cr = cr;
		__entry->tr = tr;
		__entry->now = now;
		__entry->fb = fb;
	),
	TP_printk("dev=%s da=%pM prio=%u qfb=%u cr=%llu tr=%llu now=%llu fb=%d netns=%u",
		  __entry->dev, __entry->da, __entry->prio, __entry->qfb,
		  __entry->cr, __entry->tr, __entry->now, __entry->fb,
		  __entry->netns)
);

#endif /* _QCN_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE qcn_trace
#include <trace/define_trace.h>
