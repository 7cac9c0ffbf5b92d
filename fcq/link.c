// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated link behind every fcq port.
 *
 * veth has no line rate and no propagation delay, so each port ends in
 *
 *   queues --(pausable serializer at `rate`)--> wire (delay line) --> device
 *
 * A frame may start serializing when the serializer is free and its class
 * is not paused; it reaches the device `delay` after its last bit. Frames on
 * the wire count in sch->q.qlen but in no buffer, and a pause cannot call
 * them back, as on a real link. Control frames (PFC, fcq frames) go before
 * data and are never paused.
 *
 * Time is virtual and exact: when the watchdog fires late, frames that were
 * eligible earlier start at the time they would have started, back to back,
 * so timer slack does not cost bandwidth. Only the delivery to the device
 * is late, never the schedule. A machine that stalled for longer than
 * FCQ_MAX_LAG_NS (a busy emulator, a long softirq) is not replayed: that
 * would turn the stall into a burst that no real link sends, and overflow
 * the downstream headroom.
 */
#include <linux/etherdevice.h>
#include <linux/random.h>
#include <net/inet_ecn.h>
#include <net/sock.h>

#include "fcq.h"
#include "trace.h"
#include "../core/frames.h"
#include "../core/link.h"

#define FCQ_MAX_LAG_NS	NSEC_PER_MSEC

/* What the frame occupies the wire for: at least the minimum frame. */
static u64 wire_ns(const struct fcq_port *port, const struct sk_buff *skb)
{
	u32 len = max_t(u32, skb->len, ETH_ZLEN) + port->cfg.overhead;

	return fcq_tx_ns(len, port->cfg.rate);
}

static void trace_ctrl(struct fcq_port *port, struct sk_buff *skb, u64 start)
{
	struct fcq_macctl m;

	if (!trace_pause_tx_enabled() && !genl_has_listeners(&fcq_genl_family,
							      dev_net(port->dev),
							      FCQ_GENL_EVENTS))
		return;
	if (fcq_macctl_parse(skb->data, skb->len, &m) != FCQ_FRAME_OK)
		return;
	trace_pause_tx(port->dev, m.enable, m.quanta, start, fcq_cb(skb)->time);
	fcq_genl_pause_event(port, FCQ_EVENT_PAUSE_TX, m.enable, m.quanta, 0,
			     start);
}

/* @skb starts serializing at @start; it is delivered after the delay. */
static void start_tx(struct fcq_port *port, struct sk_buff *skb, u64 start)
{
	struct fcq_skb_cb *cb = fcq_cb(skb);

	/* The receive hook reads tx_free without the root lock. */
	WRITE_ONCE(port->tx_free, start + wire_ns(port, skb));
	cb->time = port->tx_free + port->cfg.delay;
	/*
	 * Sent: a NIC would free it now, so it no longer counts against its
	 * socket. Else TCP Small Queues and a UDP sndbuf would bound what a
	 * sender has anywhere in the fabric, and TCP over a few ms of delay
	 * would crawl (veth keeps the socket until the receiver frees the
	 * frame). As sch_netem does for its delay line.
	 */
	skb_orphan_partial(skb);
	__skb_queue_tail(&port->wire, skb);
	if (cb->ctrl)
		trace_ctrl(port, skb, start);
}

static u64 refresh_period(const struct fcq_port *port)
{
	u32 r = port->cfg.refresh;

	return r ?: fcq_quanta_to_ns(port->cfg.pause_quanta,
				     port->cfg.rate) / 2;
}

/* A control frame of @len bytes to fill, due at @when; NULL: no memory. */
static struct sk_buff *ctrl_alloc(struct fcq_port *port, __be16 proto,
				  u64 when, unsigned int len)
{
	struct sk_buff *skb;
	struct fcq_skb_cb *cb;

	skb = alloc_skb(LL_RESERVED_SPACE(port->dev) + len, GFP_ATOMIC);
	if (!skb) {
		port->st.ctrl_nomem++;
		return NULL;
	}
	skb_reserve(skb, LL_RESERVED_SPACE(port->dev));
	skb_put(skb, len);
	skb_reset_mac_header(skb);
	skb->dev = port->dev;
	skb->protocol = proto;
	skb->priority = TC_PRIO_CONTROL;
	qdisc_skb_cb(skb)->pkt_len = skb->len;
	cb = fcq_cb(skb);
	cb->time = when;
	cb->ingress = -1;
	cb->flow = 0;
	cb->prio = 0;
	cb->ctrl = true;
	cb->scheme = 0;
	return skb;
}

static void ctrl_queue(struct sk_buff_head *q, struct fcq_port *port,
		       struct sk_buff *skb)
{
	__skb_queue_tail(q, skb);
	qdisc_qstats_backlog_inc(port->sch, skb);
	port->sch->q.qlen++;
	port->st.ctrl_tx++;
}

/* Take the timed pauses asked since the last frame. */
static u8 timed_take(struct fcq_port *port, u64 *add)
{
	u8 want;

	if (!READ_ONCE(port->tp_want))
		return 0;
	spin_lock(&port->tp_lock);
	want = port->tp_want;
	memcpy(add, port->tp_add, sizeof(port->tp_add));
	memset(port->tp_add, 0, sizeof(port->tp_add));
	WRITE_ONCE(port->tp_want, 0);
	spin_unlock(&port->tp_lock);
	return want;
}

/* Give back timed pauses whose frame could not be built: retried later. */
static void timed_untake(struct fcq_port *port, u8 classes, const u64 *add)
{
	int p;

	spin_lock(&port->tp_lock);
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if (classes & BIT(p))
			port->tp_add[p] += add[p];
	WRITE_ONCE(port->tp_want, port->tp_want | classes);
	spin_unlock(&port->tp_lock);
}

/* fcq's own frames: the time asked since the last one, accumulating. */
static void ext_tx(struct fcq_port *port, u8 classes, const u64 *add,
		   u64 now)
{
	struct fcq_ext f = {
		.type = FCQ_EXT_PAUSE,
		.flags = FCQ_EXT_F_ACCUMULATE,
		.tx_ns = now,
	};
	struct sk_buff *skb;
	int p;

	for (p = 0; p < FCQ_NUM_PRIO; p++) {
		if (!(classes & BIT(p)) || !add[p])
			continue;
		skb = ctrl_alloc(port, htons(FCQ_ETHERTYPE_EXT), now, ETH_ZLEN);
		if (!skb)
			return;	/* the upstream pauses less: never more */
		f.prio = p;
		f.seq = ++port->ext_seq;
		f.pause_ns = min_t(u64, add[p], U32_MAX);
		fcq_ext_build(skb->data, skb->len, port->dev->dev_addr, &f);
		port->st.pfc_tx[p]++;
		ctrl_queue(&port->ctrl, port, skb);
	}
}

/*
 * The keyed pauses this port owes its upstream: one frame waits at a time,
 * the rest stays owed. Class frames (ctrl) go before it, so that a PAUSE
 * waits behind no more than the frame on the wire, as the headroom assumes,
 * however many flows are owed. A frame that finds no memory stays owed,
 * tried again 1 ms later.
 */
static void kp_tx(struct fcq_port *port, u64 now)
{
	struct sk_buff *skb;
	size_t len;

	port->kp_retry_at = U64_MAX;
	if (!READ_ONCE(port->kp_dirty) || !skb_queue_empty(&port->kp_ctrl))
		return;
	skb = ctrl_alloc(port, htons(FCQ_ETHERTYPE_EXT), now,
			 READ_ONCE(port->dev->mtu) + ETH_HLEN);
	if (!skb) {
		/* Owed still; no other traffic may come to retry it */
		port->kp_retry_at = now + NSEC_PER_MSEC;
		return;
	}
	len = fcq_kp_build(port, skb->data, skb->len, now);
	if (!len) {
		consume_skb(skb);
		return;
	}
	skb_trim(skb, len);
	qdisc_skb_cb(skb)->pkt_len = len;
	ctrl_queue(&port->kp_ctrl, port, skb);
}

int fcq_port_frames_enable(struct fcq_port *port)
{
	if (!port->fr)
		port->fr = kzalloc(sizeof(*port->fr), GFP_KERNEL);
	return port->fr ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_GPL(fcq_port_frames_enable);

bool fcq_port_frame_request(struct fcq_port *port, const u8 *frame, u16 len,
			    __be16 proto)
{
	struct fcq_fr *fr = port->fr;
	struct fcq_fr_slot *slot;
	bool ok = false;

	if (!fr || len > FCQ_FR_LEN)
		return false;
	spin_lock(&port->tp_lock);
	if (fr->tail - fr->head < FCQ_FR_SLOTS) {
		slot = &fr->slot[fr->tail % FCQ_FR_SLOTS];
		slot->proto = proto;
		slot->len = len;
		memcpy(slot->data, frame, len);
		fr->tail++;
		WRITE_ONCE(port->fr_want, true);
		ok = true;
	}
	spin_unlock(&port->tp_lock);
	return ok;
}
EXPORT_SYMBOL_GPL(fcq_port_frame_request);

/*
 * The frames asked of this port, in order, padded to the minimum. One that
 * finds no memory is dropped (ctrl_nomem): a request is advice, as a CNM
 * is, and no retry could be more timely than the next request.
 */
static void fr_tx(struct fcq_port *port, u64 now)
{
	struct fcq_fr *fr = port->fr;
	struct fcq_fr_slot slot;
	struct sk_buff *skb;

	if (!READ_ONCE(port->fr_want))
		return;
	/* One at a time: the requesters' lock is not held over allocations. */
	for (;;) {
		spin_lock(&port->tp_lock);
		if (fr->head == fr->tail) {
			WRITE_ONCE(port->fr_want, false);
			spin_unlock(&port->tp_lock);
			return;
		}
		slot = fr->slot[fr->head++ % FCQ_FR_SLOTS];
		spin_unlock(&port->tp_lock);
		skb = ctrl_alloc(port, slot.proto, now,
				 max_t(u16, slot.len, ETH_ZLEN));
		if (!skb)
			continue;
		memset(skb->data, 0, skb->len);
		memcpy(skb->data, slot.data, slot.len);
		ctrl_queue(&port->ctrl, port, skb);
	}
}

/*
 * Send what this port owes its upstream as a switch ingress: PFC XOFF for
 * classes over threshold, XON (quanta 0) for those that cleared, a refresh
 * of the XOFFs before the upstream's pause runs out, and the timed pauses
 * a scheme asked for. In PFC frames a class carries the longest pause it
 * is owed: XOFF's quanta, else what is left of its timed pause (sender-side
 * accumulation, so that an override frame never cuts a pause short).
 */
static void pause_tx(struct fcq_port *port, u64 now)
{
	u8 want = port->sends_pfc ? READ_ONCE(port->xoff_want) : 0;
	u64 add[FCQ_NUM_PRIO];
	u8 change = want ^ port->xoff_sent;
	u16 quanta[FCQ_NUM_PRIO] = { 0 };
	u8 enable, timed, native = 0;
	struct sk_buff *skb;
	u64 left;
	int p;

	timed = timed_take(port, add);
	if (timed && READ_ONCE(port->tp_frame) == FCQ_TP_EXT) {
		native = timed & ~want;
		timed = 0;
	}
	/*
	 * Classes in XOFF need no timed pause on top, and a timed pause that
	 * already ran out before its frame could go needs no frame: it would
	 * read as a resume.
	 */
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if ((timed & BIT(p)) && READ_ONCE(port->tp_until[p]) <= now)
			timed &= ~BIT(p);
	enable = change | (timed & ~want) | (now >= port->refresh_at ? want : 0);
	/* Every frame restarts the refresh period: it refreshes all of XOFF. */
	if (enable)
		enable |= want;
	if (enable) {
		skb = ctrl_alloc(port, htons(ETH_P_PAUSE),
				 change ? min(READ_ONCE(port->xoff_since), now)
					: now, ETH_ZLEN);
		if (!skb) {
			/* Retry soon: the data path keeps going meanwhile. */
			timed_untake(port, timed & ~want, add);
			port->refresh_at = now + NSEC_PER_MSEC;
			goto native;
		}
		for (p = 0; p < FCQ_NUM_PRIO; p++) {
			if (!(enable & BIT(p)))
				continue;
			if (want & BIT(p)) {
				quanta[p] = port->cfg.pause_quanta;
			} else {
				/* XON, or a timed pause: what is left of it */
				left = READ_ONCE(port->tp_until[p]);
				left = left > now ? left - now : 0;
				quanta[p] = fcq_ns_to_quanta(left, port->cfg.rate);
			}
			port->st.pfc_tx[p]++;
		}
		fcq_pfc_build(skb->data, skb->len, port->dev->dev_addr,
			      enable, quanta);
		ctrl_queue(&port->ctrl, port, skb);
		/* A state change goes out as soon as the link allows. */
		port->xoff_sent = want;
		port->refresh_at = want ? now + refresh_period(port) : U64_MAX;
	}
native:
	if (native)
		ext_tx(port, native, add, now);
	kp_tx(port, now);
	fr_tx(port, now);
}

/*
 * Ask @port to pause its upstream's class @prio for @ns more, at @now. The
 * pauses add up: the upstream stays paused until max(now, the end
 * of what it was already asked) + @ns. Callable with other ports' locks
 * held; the caller kicks @port afterwards.
 */
void fcq_port_pause_request(struct fcq_port *port, u8 prio, u64 ns, u64 now)
{
	u64 until;

	spin_lock(&port->tp_lock);
	until = max(now, port->tp_until[prio]) + ns;
	WRITE_ONCE(port->tp_until[prio], until);
	port->tp_add[prio] += ns;
	WRITE_ONCE(port->tp_want, port->tp_want | BIT(prio));
	spin_unlock(&port->tp_lock);
	trace_pause_request(port->dev, prio, ns, until);
}
EXPORT_SYMBOL_GPL(fcq_port_pause_request);

/* Data (not control, not on the wire) waits in the scheme's queues. */
static bool data_queued(const struct fcq_port *port)
{
	return port->sch->q.qlen > skb_queue_len(&port->wire) +
				   skb_queue_len(&port->ctrl) +
				   skb_queue_len(&port->kp_ctrl);
}

/*
 * Nothing queued or on the wire, and nothing owed upstream. The qdisc layer
 * dequeues until it gets NULL: that last call costs no clock read.
 */
static bool link_idle(const struct fcq_port *port)
{
	u8 want = port->sends_pfc ? READ_ONCE(port->xoff_want) : 0;

	return !port->sch->q.qlen && !port->pfcwd_storm &&
	       want == port->xoff_sent &&
	       port->refresh_at == U64_MAX && !READ_ONCE(port->tp_want) &&
	       !READ_ONCE(port->kp_dirty) && !READ_ONCE(port->fr_want);
}

/*
 * The first frame started after a stall longer than FCQ_MAX_LAG_NS: how much
 * later it starts than an exact replay would have started it. That link
 * time is lost for good; the counter tells a slow emulator from a slow
 * scheme. Later frames follow it back to back, so only the first counts.
 */
static void count_lag(struct fcq_port *port, u64 *behind, u64 eligible,
		      u64 start)
{
	u64 exact = max(*behind, eligible);

	if (*behind == U64_MAX)
		return;
	if (start > exact)
		port->st.tx_lag_ns += start - exact;
	*behind = U64_MAX;
}

/*
 * A packet of a class in storm that pick handed over (pfcwd.c: drop): it
 * leaves the switch without taking the serializer.
 */
static void pfcwd_drop(struct fcq_port *port, struct sk_buff *skb, u64 now)
{
	struct fcq_skb_cb *cb = fcq_cb(skb);
	u32 len = qdisc_pkt_len(skb);

	port->st.backlog[cb->prio] -= len;
	fcq_port_qlen(port, now, port->qhist.level - len);
	fcq_switch_release(port, skb, now);
	port->st.drops[cb->prio]++;
	port->st.drop_pfcwd++;
	trace_drop(port->dev, cb->prio, FCQ_DROP_PFCWD, len);
	qdisc_qstats_backlog_dec(port->sch, skb);
	qdisc_qstats_drop(port->sch);
	port->sch->q.qlen--;
	kfree_skb(skb);
}

struct sk_buff *fcq_link_dequeue(struct fcq_port *port)
{
	struct Qdisc *sch = port->sch;
	u64 now, retry = U64_MAX, next, start, eligible, behind, wd = U64_MAX;
	struct fcq_skb_cb *cb;
	struct sk_buff *skb;

	if (link_idle(port))
		return NULL;
	now = ktime_get_ns();
	if (port->cfg.pfcwd_detect || port->pfcwd_storm)
		wd = fcq_pfcwd_run(port, now);
	pause_tx(port, now);
	/* Where the serializer would be had the stall been replayed. */
	behind = port->tx_free;
	if (port->tx_free + FCQ_MAX_LAG_NS < now)
		WRITE_ONCE(port->tx_free, now - FCQ_MAX_LAG_NS);

	/* Start every frame the serializer could have started by now. */
	while (port->tx_free <= now) {
		skb = __skb_dequeue(&port->ctrl) ?:
		      __skb_dequeue(&port->kp_ctrl);
		if (skb) {
			start = max(port->tx_free, fcq_cb(skb)->time);
			count_lag(port, &behind, fcq_cb(skb)->time, start);
			start_tx(port, skb, start);
			continue;
		}
		if (!data_queued(port))
			break;
		skb = port->ops->pick(port, now, &retry);
		if (!skb)
			break;
		cb = fcq_cb(skb);
		if (unlikely(port->pfcwd_drop & BIT(cb->prio))) {
			pfcwd_drop(port, skb, now);
			continue;
		}
		/*
		 * Not before it arrived, nor before its class's pause ended,
		 * nor before the last keyed resume (it may have released this
		 * one: a flow's hold is no stall of the emulator), nor before
		 * the scheme's own hold of it ended. A pause the watchdog
		 * ignores does not count.
		 */
		eligible = max3(cb->time,
				port->pfcwd_free & BIT(cb->prio) ? 0 :
				READ_ONCE(port->pause[cb->prio].until),
				max(port->kp_resumed_at, port->held_until));
		start = max(port->tx_free, eligible);
		count_lag(port, &behind, eligible, start);
		port->st.backlog[cb->prio] -= qdisc_pkt_len(skb);
		fcq_port_qlen(port, start,
			      port->qhist.level - qdisc_pkt_len(skb));
		port->st.tx_packets[cb->prio]++;
		port->st.tx_bytes[cb->prio] += qdisc_pkt_len(skb);
		/* ECN on what it leaves behind in its class, at dequeue
		 * (no random number per packet when ECN is off).
		 */
		if (port->cfg.ecn.kmax &&
		    fcq_ecn_mark(&port->cfg.ecn, port->st.backlog[cb->prio],
				 get_random_u32() & 0xffff) &&
		    INET_ECN_set_ce(skb))
			port->st.ecn_marked++;
		/* It leaves the switch's buffer as it starts on the wire. */
		fcq_switch_release(port, skb, start);
		start_tx(port, skb, start);
	}

	skb = skb_peek(&port->wire);
	if (skb && fcq_cb(skb)->time <= now) {
		__skb_unlink(skb, &port->wire);
		qdisc_qstats_backlog_dec(sch, skb);
		qdisc_bstats_update(sch, skb);
		sch->q.qlen--;
		return skb;
	}

	next = skb ? fcq_cb(skb)->time : U64_MAX;
	if (port->tx_free > now) {
		if (data_queued(port) || !skb_queue_empty(&port->ctrl) ||
		    !skb_queue_empty(&port->kp_ctrl))
			next = min(next, port->tx_free);
	} else {
		next = min(next, retry);
	}
	next = min(next, port->refresh_at);
	next = min(next, port->kp_retry_at);
	next = min(next, wd);
	if (next != U64_MAX)
		qdisc_watchdog_schedule_ns(&port->wd, next);
	return NULL;
}

void fcq_link_purge(struct fcq_port *port)
{
	__skb_queue_purge(&port->wire);
	__skb_queue_purge(&port->ctrl);
	__skb_queue_purge(&port->kp_ctrl);
}
