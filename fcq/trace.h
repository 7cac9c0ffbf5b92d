/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints fcq:*. Times are ktime_get_ns() values, the
 * clock of the link model, so events of different ports compare directly.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fcq

#if !defined(_FCQ_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FCQ_TRACE_H

#include <linux/netdevice.h>
#include <linux/tracepoint.h>

/* A PFC/PAUSE frame started serializing on @dev. */
TRACE_EVENT(pause_tx,
	TP_PROTO(const struct net_device *dev, u8 enable, const u16 *quanta,
		 u64 start, u64 release),
	TP_ARGS(dev, enable, quanta, start, release),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u8, enable)
		__array(u16, quanta, 8)
		__field(u64, start)
		__field(u64, release)
		__field(u32, netns)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->enable = enable;
		memcpy(__entry->quanta, quanta, sizeof(__entry->quanta));
		__entry->start = start;
		__entry->release = release;
	),
	TP_printk("dev=%s enable=0x%02x quanta=%u,%u,%u,%u,%u,%u,%u,%u start=%llu release=%llu netns=%u",
		  __entry->dev, __entry->enable,
		  __entry->quanta[0], __entry->quanta[1], __entry->quanta[2],
		  __entry->quanta[3], __entry->quanta[4], __entry->quanta[5],
		  __entry->quanta[6], __entry->quanta[7],
		  __entry->start, __entry->release, __entry->netns)
);

/*
 * @dev honoured a PFC/PAUSE frame at @now; the serializer finishes the frame
 * it is sending at @stop, after which the paused classes stay silent.
 * @netns (its network namespace's inode number) tells apart the devices of
 * one name in different namespaces.
 */
TRACE_EVENT(pause_rx,
	TP_PROTO(const struct net_device *dev, u16 opcode, u8 enable,
		 const u16 *quanta, u64 now, u64 stop),
	TP_ARGS(dev, opcode, enable, quanta, now, stop),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u16, opcode)
		__field(u8, enable)
		__array(u16, quanta, 8)
		__field(u64, now)
		__field(u64, stop)
		__field(u32, netns)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->opcode = opcode;
		__entry->enable = enable;
		memcpy(__entry->quanta, quanta, sizeof(__entry->quanta));
		__entry->now = now;
		__entry->stop = stop;
	),
	TP_printk("dev=%s opcode=0x%04x enable=0x%02x quanta=%u,%u,%u,%u,%u,%u,%u,%u now=%llu stop=%llu netns=%u",
		  __entry->dev, __entry->opcode, __entry->enable,
		  __entry->quanta[0], __entry->quanta[1], __entry->quanta[2],
		  __entry->quanta[3], __entry->quanta[4], __entry->quanta[5],
		  __entry->quanta[6], __entry->quanta[7],
		  __entry->now, __entry->stop, __entry->netns)
);

/*
 * The bytes queued on @dev, not yet serializing, are @level from @since on
 * (the time of the port's queue-length histogram, never before its last
 * change). In namespace @netns, as pause_rx.
 */
TRACE_EVENT(qlen,
	TP_PROTO(const struct net_device *dev, u32 level, u64 since),
	TP_ARGS(dev, level, since),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u32, netns)
		__field(u32, level)
		__field(u64, since)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->level = level;
		__entry->since = since;
	),
	TP_printk("dev=%s netns=%u level=%u since=%llu", __entry->dev,
		  __entry->netns, __entry->level, __entry->since)
);

/*
 * A scheme asked ingress port @dev to pause its upstream's class @prio for
 * @ns more (timed pause); by the switch's account it resumes at @until.
 */
TRACE_EVENT(pause_request,
	TP_PROTO(const struct net_device *dev, u8 prio, u64 ns, u64 until),
	TP_ARGS(dev, prio, ns, until),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u8, prio)
		__field(u64, ns)
		__field(u64, until)
		__field(u32, netns)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->prio = prio;
		__entry->ns = ns;
		__entry->until = until;
	),
	TP_printk("dev=%s prio=%u ns=%llu until=%llu netns=%u", __entry->dev,
		  __entry->prio, __entry->ns, __entry->until, __entry->netns)
);

/*
 * A keyed pause frame: @dev sent it (kp_tx, at @now when it was built) or
 * took it in (kp_rx). @type 2 pauses, 3 resumes; @n keys, or ALL in @flags.
 */
DECLARE_EVENT_CLASS(kp_frame,
	TP_PROTO(const struct net_device *dev, u8 type, u8 prio, u8 flags,
		 u16 n, u32 seq, u64 now),
	TP_ARGS(dev, type, prio, flags, n, seq, now),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u8, type)
		__field(u8, prio)
		__field(u8, flags)
		__field(u16, n)
		__field(u32, seq)
		__field(u64, now)
		__field(u32, netns)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->type = type;
		__entry->prio = prio;
		__entry->flags = flags;
		__entry->n = n;
		__entry->seq = seq;
		__entry->now = now;
	),
	TP_printk("dev=%s %s prio=%u flags=0x%02x keys=%u seq=%u now=%llu netns=%u",
		  __entry->dev, __entry->type == 2 ? "pause" : "resume",
		  __entry->prio, __entry->flags, __entry->n, __entry->seq,
		  __entry->now, __entry->netns)
);

DEFINE_EVENT(kp_frame, kp_tx,
	TP_PROTO(const struct net_device *dev, u8 type, u8 prio, u8 flags,
		 u16 n, u32 seq, u64 now),
	TP_ARGS(dev, type, prio, flags, n, seq, now)
);

DEFINE_EVENT(kp_frame, kp_rx,
	TP_PROTO(const struct net_device *dev, u8 type, u8 prio, u8 flags,
		 u16 n, u32 seq, u64 now),
	TP_ARGS(dev, type, prio, flags, n, seq, now)
);

#define FCQ_DROP_REASONS				\
	EM(FCQ_DROP_LIMIT, "limit")			\
	EM(FCQ_DROP_LOSSY, "lossy")			\
	EM(FCQ_DROP_LOSSLESS, "lossless")		\
	EM(FCQ_DROP_GSO, "gso")				\
	EM(FCQ_DROP_SCHEME, "scheme")			\
	EM(FCQ_DROP_PFCWD, "pfcwd")			\
	EMe(FCQ_DROP_RX_MALFORMED, "rx_malformed")

#ifndef FCQ_DROP_ENUM_ONCE
#define FCQ_DROP_ENUM_ONCE
#undef EM
#undef EMe
#define EM(a, b) a,
#define EMe(a, b) a
enum fcq_drop_reason { FCQ_DROP_REASONS };
#endif

#undef EM
#undef EMe
#define EM(a, b) TRACE_DEFINE_ENUM(a);
#define EMe(a, b) TRACE_DEFINE_ENUM(a);
FCQ_DROP_REASONS
#undef EM
#undef EMe
#define EM(a, b) { a, b },
#define EMe(a, b) { a, b }

/* A paused packet of class @prio on @dev stepped aside, unsent. */
TRACE_EVENT(isolate,
	TP_PROTO(const struct net_device *dev, u8 prio, int from, int to,
		 u32 len),
	TP_ARGS(dev, prio, from, to, len),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u8, prio)
		__field(int, from)
		__field(int, to)
		__field(u32, len)
		__field(u32, netns)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->prio = prio;
		__entry->from = from;
		__entry->to = to;
		__entry->len = len;
	),
	TP_printk("dev=%s prio=%u lane=%d->%d len=%u netns=%u", __entry->dev,
		  __entry->prio, __entry->from, __entry->to, __entry->len,
		  __entry->netns)
);

/* A resume: lane @lane of class @prio drains its @pkts packets. */
TRACE_EVENT(resume,
	TP_PROTO(const struct net_device *dev, u8 prio, int lane, u32 pkts,
		 u32 bytes),
	TP_ARGS(dev, prio, lane, pkts, bytes),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u8, prio)
		__field(int, lane)
		__field(u32, pkts)
		__field(u32, bytes)
		__field(u32, netns)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->prio = prio;
		__entry->lane = lane;
		__entry->pkts = pkts;
		__entry->bytes = bytes;
	),
	TP_printk("dev=%s prio=%u lane=%d pkts=%u bytes=%u netns=%u", __entry->dev,
		  __entry->prio, __entry->lane, __entry->pkts, __entry->bytes,
		  __entry->netns)
);

/* fcq dropped a packet or a frame on @dev. */
TRACE_EVENT(drop,
	TP_PROTO(const struct net_device *dev, u8 prio, int reason, u32 len),
	TP_ARGS(dev, prio, reason, len),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u8, prio)
		__field(int, reason)
		__field(u32, len)
		__field(u32, netns)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->prio = prio;
		__entry->reason = reason;
		__entry->len = len;
	),
	TP_printk("dev=%s prio=%u reason=%s len=%u netns=%u", __entry->dev,
		  __entry->prio,
		  __print_symbolic(__entry->reason, FCQ_DROP_REASONS),
		  __entry->len, __entry->netns)
);

/*
 * The PFC watchdog of @dev found class @prio in storm (@storm) at @now,
 * and applies @action (enum fcq_pfcwd_action) to it; or put it back.
 */
TRACE_EVENT(pfcwd,
	TP_PROTO(const struct net_device *dev, u8 prio, bool storm, u8 action,
		 u64 now),
	TP_ARGS(dev, prio, storm, action, now),
	TP_STRUCT__entry(
		__array(char, dev, IFNAMSIZ)
		__field(u8, prio)
		__field(bool, storm)
		__field(u8, action)
		__field(u64, now)
		__field(u32, netns)
	),
	TP_fast_assign(
		memcpy(__entry->dev, dev->name, IFNAMSIZ);
		__entry->netns = dev_net(dev)->ns.inum;
		__entry->prio = prio;
		__entry->storm = storm;
		__entry->action = action;
		__entry->now = now;
	),
	TP_printk("dev=%s prio=%u %s action=%s now=%llu netns=%u", __entry->dev,
		  __entry->prio, __entry->storm ? "storm" : "restore",
		  __print_symbolic(__entry->action, { 0, "drop" },
				   { 1, "forward" }, { 2, "alert" }),
		  __entry->now, __entry->netns)
);

#undef EM
#undef EMe

#endif /* _FCQ_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
