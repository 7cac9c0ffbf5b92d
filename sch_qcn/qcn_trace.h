/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints qcn:*, the CNMs of QCN: each one a congestion point sends,
 * each one a reaction point applies, with the rate it leaves.
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
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		memcpy(__entry->sa, sa, ETH_ALEN);
		memcpy(__entry->da, da, ETH_ALEN);
		__entry->prio = prio;
		__entry->qfb = qfb;
		__entry->qoff = qoff;
		__entry->qdelta = qdelta;
		__entry->sent = sent;
	),
	TP_printk("dev=%s flow=%pM>%pM prio=%u qfb=%u qoff=%lld qdelta=%lld sent=%d",
		  __entry->dev, __entry->sa, __entry->da, __entry->prio,
		  __entry->qfb, __entry->qoff, __entry->qdelta, __entry->sent)
);

/*
 * The RP of @dev applied a CNM with @qfb to its rate limiter of (@da,
 * @prio), at @now: it left the RL at current rate @cr and target @tr
 * (bits/s).
 */
TRACE_EVENT(cnm_rx,
	TP_PROTO(const struct net_device *dev, const u8 *da, u8 prio, u8 qfb,
		 u64 cr, u64 tr, u64 now),
	TP_ARGS(dev, da, prio, qfb, cr, tr, now),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__array(u8, da, ETH_ALEN)
		__field(u8, prio)
		__field(u8, qfb)
		__field(u64, cr)
		__field(u64, tr)
		__field(u64, now)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		memcpy(__entry->da, da, ETH_ALEN);
		__entry->prio = prio;
		__entry->qfb = qfb;
		__entry->cr = cr;
		__entry->tr = tr;
		__entry->now = now;
	),
	TP_printk("dev=%s da=%pM prio=%u qfb=%u cr=%llu tr=%llu now=%llu",
		  __entry->dev, __entry->da, __entry->prio, __entry->qfb,
		  __entry->cr, __entry->tr, __entry->now)
);

#endif /* _QCN_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE qcn_trace
#include <trace/define_trace.h>
