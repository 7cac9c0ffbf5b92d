// SPDX-License-Identifier: GPL-2.0
/*
 * What every fcq qdisc does the same way: its life cycle, the
 * port options (TCA_FCQ_*), classification to a priority, admission into
 * the switch buffer, and statistics.
 */
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/dsfield.h>
#include <net/netlink.h>

#include "compat.h"
#include "fcq.h"
#include "trace.h"
#include "../core/link.h"

#define FCQ_RATE_MIN		125ULL			/* 1 kbit/s */
#define FCQ_RATE_MAX		50000000000ULL		/* 400 Gbit/s */
#define FCQ_TIME_MAX		NSEC_PER_SEC		/* delay, response */
#define FCQ_LONG_MAX		(4 * NSEC_PER_SEC)	/* refresh, pause_max */
#define FCQ_LIMIT_MAX		1000000
#define FCQ_BUFFER_MIN		(16 << 10)
#define FCQ_BUFFER_MAX		(1U << 31)
#define FCQ_PFCWD_RESTORE	(200 * NSEC_PER_MSEC)	/* as SONiC's pfcwd */

static void fcq_default_cfg(struct fcq_port_cfg *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->rate = 100000000 / 8;		/* 100 Mbit/s: see README */
	c->overhead = FCQ_ETH_OVERHEAD;
	c->limit = 10000;
	c->trust = FCQ_TRUST_DSCP;
	for (i = 0; i < 64; i++)
		c->dscp_map[i] = i >> 3;	/* class selector */
	c->lossless = 0xff;
	c->alpha = FCQ_ALPHA_ONE / 8;		/* HPCC simulator default */
	c->resume_offset = 3 << 10;
	c->reserve = 4 << 10;
	c->response = 200 * NSEC_PER_USEC;	/* see Documentation/pfc.rst */
	c->pause_quanta = FCQ_QUANTA_MAX;
	c->pfcwd_restore = FCQ_PFCWD_RESTORE;
	c->pfcwd_action = FCQ_PFCWD_DROP;
}

/* The largest frame the port sends, as the wire sees it. */
static u32 frame_wire_len(const struct fcq_port *port, u32 overhead)
{
	return port->dev->mtu + port->dev->hard_header_len + VLAN_HLEN +
	       overhead;
}

static u32 headroom_of(const struct fcq_port *port,
		       const struct fcq_port_cfg *c)
{
	if (c->headroom)
		return c->headroom;
	return fcq_pfc_headroom(c->rate, c->delay,
				frame_wire_len(port, c->overhead),
				ETH_ZLEN + c->overhead, c->response);
}

static const struct nla_policy fcq_dscp_policy[TCA_FCQ_DSCP_MAX + 1] = {
	[TCA_FCQ_DSCP_PRIO] = NLA_POLICY_MAX(NLA_U8, FCQ_NUM_PRIO - 1),
};

/* TCA_OPTIONS: ranges with units are checked in fcq_port_parse(). */
static const struct nla_policy fcq_port_policy[TCA_FCQ_MAX + 1] = {
	[TCA_FCQ_RATE] = { .type = NLA_U64 },
	[TCA_FCQ_DELAY] = { .type = NLA_U32 },
	[TCA_FCQ_OVERHEAD] = { .type = NLA_U32 },
	[TCA_FCQ_SWITCH] = { .type = NLA_U32 },
	[TCA_FCQ_TRUST] = NLA_POLICY_MAX(NLA_U8, FCQ_TRUST_SKB),
	[TCA_FCQ_DSCP_MAP] = NLA_POLICY_NESTED(fcq_dscp_policy),
	[TCA_FCQ_LIMIT] = { .type = NLA_U32 },
	[TCA_FCQ_LOSSLESS] = { .type = NLA_U8 },
	[TCA_FCQ_PAUSE_MAX] = { .type = NLA_U32 },
	[TCA_FCQ_BUFFER] = { .type = NLA_U32 },
	[TCA_FCQ_XOFF] = { .type = NLA_U32 },
	[TCA_FCQ_XON] = { .type = NLA_U32 },
	[TCA_FCQ_ALPHA] = { .type = NLA_U32 },
	[TCA_FCQ_RESUME_OFFSET] = { .type = NLA_U32 },
	[TCA_FCQ_RESERVE] = { .type = NLA_U32 },
	[TCA_FCQ_HEADROOM] = { .type = NLA_U32 },
	[TCA_FCQ_RESPONSE] = { .type = NLA_U32 },
	[TCA_FCQ_PAUSE_QUANTA] = NLA_POLICY_MIN(NLA_U16, 1),
	[TCA_FCQ_REFRESH] = { .type = NLA_U32 },
	[TCA_FCQ_ECN_KMIN] = { .type = NLA_U32 },
	[TCA_FCQ_ECN_KMAX] = { .type = NLA_U32 },
	[TCA_FCQ_ECN_PMAX] = { .type = NLA_U32 },
	[TCA_FCQ_SCHEME] = { .type = NLA_NESTED },
	[TCA_FCQ_PFCWD_DETECT] = { .type = NLA_U32 },
	[TCA_FCQ_PFCWD_RESTORE] = { .type = NLA_U32 },
	[TCA_FCQ_PFCWD_ACTION] = NLA_POLICY_MAX(NLA_U8, FCQ_PFCWD_ALERT),
};

/* Elements are u8 or u32: the nest's policy has checked each one's length. */
int fcq_u32s_take(const struct nlattr *nest, int type, u32 lo, u32 hi,
		  u32 *val, int max, const struct nlattr **bad)
{
	const struct nlattr *a;
	int rem, n = 0;
	u32 v;

	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) != type)
			continue;
		if (n == max || (nla_len(a) != sizeof(u8) &&
				 nla_len(a) != sizeof(u32)))
			goto bad;
		v = nla_len(a) == sizeof(u8) ? nla_get_u8(a) : nla_get_u32(a);
		if (v < lo || v > hi)
			goto bad;
		val[n++] = v;
	}
	return n;
bad:
	*bad = a;
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(fcq_u32s_take);

/*
 * Parse TCA_OPTIONS @opt (may be NULL): the port options on top of the
 * port's current configuration into @c, and the scheme's own, nested in
 * TCA_FCQ_SCHEME, into @tb (@maxtype + 1 entries) under @policy. Nothing
 * changes until fcq_port_apply().
 */
int fcq_port_parse(struct fcq_port *port, struct nlattr *opt,
		   const struct nla_policy *policy, unsigned int maxtype,
		   struct nlattr **tb, struct fcq_port_cfg *c,
		   struct netlink_ext_ack *extack)
{
	struct nlattr *pt[TCA_FCQ_MAX + 1] = { NULL };
	int err;

	memset(tb, 0, (maxtype + 1) * sizeof(*tb));
	*c = port->cfg;
	c->buffer = 0;	/* switch-wide: only a change that names it sets it */
	if (!opt)
		return 0;
	err = nla_parse_nested(pt, TCA_FCQ_MAX, opt, fcq_port_policy, extack);
	if (err)
		return err;
	if (pt[TCA_FCQ_SCHEME]) {
		err = nla_parse_nested(tb, maxtype, pt[TCA_FCQ_SCHEME], policy,
				       extack);
		if (err)
			return err;
	}

	if (pt[TCA_FCQ_RATE]) {
		c->rate = nla_get_u64(pt[TCA_FCQ_RATE]);
		if (c->rate < FCQ_RATE_MIN || c->rate > FCQ_RATE_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, pt[TCA_FCQ_RATE],
					    "rate must be between 1kbit and 400gbit");
			return -EINVAL;
		}
	}
	if (pt[TCA_FCQ_SWITCH]) {
		u32 sw = nla_get_u32(pt[TCA_FCQ_SWITCH]);

		if (port->sw && sw != c->switch_id) {
			NL_SET_ERR_MSG_ATTR(extack, pt[TCA_FCQ_SWITCH],
					    "switch cannot change; delete and add the qdisc");
			return -EOPNOTSUPP;
		}
		c->switch_id = sw;
	}
	if (pt[TCA_FCQ_TRUST])
		c->trust = nla_get_u8(pt[TCA_FCQ_TRUST]);
	if (pt[TCA_FCQ_DSCP_MAP]) {
		u32 prio[64];
		int i, n;

		n = fcq_get_u32s(pt[TCA_FCQ_DSCP_MAP], TCA_FCQ_DSCP_PRIO, 0,
				 FCQ_NUM_PRIO - 1, prio, 64,
				 "dscp_map gives at most 64 DSCPs a priority 0..7 each",
				 extack);
		if (n < 0)
			return n;
		for (i = 0; i < n; i++)
			c->dscp_map[i] = prio[i];
	}
	if (pt[TCA_FCQ_LOSSLESS])
		c->lossless = nla_get_u8(pt[TCA_FCQ_LOSSLESS]);
	if (pt[TCA_FCQ_PAUSE_QUANTA])
		c->pause_quanta = nla_get_u16(pt[TCA_FCQ_PAUSE_QUANTA]);
	if (pt[TCA_FCQ_PFCWD_ACTION])
		c->pfcwd_action = nla_get_u8(pt[TCA_FCQ_PFCWD_ACTION]);

	err = fcq_get_u32(pt[TCA_FCQ_DELAY], 0, FCQ_TIME_MAX, &c->delay,
			  "delay must be at most 1s", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_OVERHEAD], 0, 256, &c->overhead,
			  "overhead must be 0..256 bytes", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_LIMIT], 1, FCQ_LIMIT_MAX, &c->limit,
			  "limit must be 1..1000000 packets", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_PAUSE_MAX], 0, FCQ_LONG_MAX, &c->pause_max,
			  "pause_max must be at most 4s", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_BUFFER], FCQ_BUFFER_MIN, FCQ_BUFFER_MAX,
			  &c->buffer, "buffer must be 16KiB..2GiB", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_XOFF], 0, FCQ_BUFFER_MAX, &c->xoff,
			  "xoff must be at most 2GiB", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_XON], 0, FCQ_BUFFER_MAX, &c->xon,
			  "xon must be at most 2GiB", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_ALPHA], 1, 64 * FCQ_ALPHA_ONE, &c->alpha,
			  "alpha must be in (0, 64]", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_RESUME_OFFSET], 0, FCQ_BUFFER_MAX,
			  &c->resume_offset,
			  "resume_offset must be at most 2GiB", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_RESERVE], 0, 1 << 20, &c->reserve,
			  "reserve must be at most 1MiB", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_HEADROOM], 0, FCQ_BUFFER_MAX / 4,
			  &c->headroom, "headroom must be at most 512MiB",
			  extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_RESPONSE], 0, FCQ_TIME_MAX, &c->response,
			  "response must be at most 1s", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_REFRESH], 0, FCQ_LONG_MAX, &c->refresh,
			  "refresh must be at most 4s", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_ECN_KMIN], 0, FCQ_BUFFER_MAX, &c->ecn.kmin,
			  "ecn kmin must be at most 2GiB", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_ECN_KMAX], 0, FCQ_BUFFER_MAX, &c->ecn.kmax,
			  "ecn kmax must be at most 2GiB", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_ECN_PMAX], 0, FCQ_ECN_PROB_ONE,
			  &c->ecn.pmax, "ecn pmax must be in [0, 1]", extack) ?:
	      fcq_get_u32(pt[TCA_FCQ_PFCWD_RESTORE], NSEC_PER_MSEC,
			  FCQ_LONG_MAX, &c->pfcwd_restore,
			  "pfcwd_restore must be 1ms..4s", extack);
	if (err)
		return err;
	if (pt[TCA_FCQ_PFCWD_DETECT]) {
		u32 d = nla_get_u32(pt[TCA_FCQ_PFCWD_DETECT]);

		if (d && (d < NSEC_PER_MSEC || d > FCQ_LONG_MAX)) {
			NL_SET_ERR_MSG_ATTR(extack, pt[TCA_FCQ_PFCWD_DETECT],
					    "pfcwd must be off or 1ms..4s");
			return -EINVAL;
		}
		c->pfcwd_detect = d;
	}

	if (c->ecn.kmax && c->ecn.kmin > c->ecn.kmax) {
		NL_SET_ERR_MSG_ATTR(extack,
				    pt[TCA_FCQ_ECN_KMIN] ?: pt[TCA_FCQ_ECN_KMAX],
				    "ecn kmin must not exceed kmax");
		return -EINVAL;
	}
	if (c->xoff && c->xon >= c->xoff) {
		NL_SET_ERR_MSG_ATTR(extack, pt[TCA_FCQ_XON] ?: pt[TCA_FCQ_XOFF],
				    "xon must be below xoff");
		return -EINVAL;
	}
	if (!c->xoff && pt[TCA_FCQ_XON] && c->xon) {
		NL_SET_ERR_MSG_ATTR(extack, pt[TCA_FCQ_XON],
				    "xon needs a static xoff (dynamic thresholds use resume_offset)");
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(fcq_port_parse);

/*
 * Put a configuration from fcq_port_parse() in effect, with the headroom it
 * implies in the switch's books. The caller holds the root lock
 * (sch_tree_lock()) and commits its own options in the same section, so
 * that no dequeue runs on half a configuration; the switch's lock nests
 * inside it.
 */
void fcq_port_apply(struct fcq_port *port, const struct fcq_port_cfg *c)
{
	struct fcq_port_cfg *o = &port->cfg;
	int i;

	/* WRITE_ONCE: the receive hook, other ports and dumps read these
	 * without the root lock (architecture.rst, "Lockless reads").
	 */
	WRITE_ONCE(o->rate, c->rate);
	WRITE_ONCE(o->delay, c->delay);
	WRITE_ONCE(o->overhead, c->overhead);
	WRITE_ONCE(o->switch_id, c->switch_id);
	WRITE_ONCE(o->trust, c->trust);
	for (i = 0; i < ARRAY_SIZE(o->dscp_map); i++)
		WRITE_ONCE(o->dscp_map[i], c->dscp_map[i]);
	WRITE_ONCE(o->limit, c->limit);
	WRITE_ONCE(o->lossless, c->lossless);
	WRITE_ONCE(o->pause_max, c->pause_max);
	o->buffer = c->buffer;	/* read only under RTNL (load_slot) */
	WRITE_ONCE(o->xoff, c->xoff);
	WRITE_ONCE(o->xon, c->xon);
	WRITE_ONCE(o->alpha, c->alpha);
	WRITE_ONCE(o->resume_offset, c->resume_offset);
	WRITE_ONCE(o->reserve, c->reserve);
	WRITE_ONCE(o->headroom, c->headroom);
	WRITE_ONCE(o->response, c->response);
	WRITE_ONCE(o->pause_quanta, c->pause_quanta);
	WRITE_ONCE(o->refresh, c->refresh);
	WRITE_ONCE(o->ecn.kmin, c->ecn.kmin);
	WRITE_ONCE(o->ecn.kmax, c->ecn.kmax);
	WRITE_ONCE(o->ecn.pmax, c->ecn.pmax);
	WRITE_ONCE(o->pfcwd_detect, c->pfcwd_detect);
	WRITE_ONCE(o->pfcwd_restore, c->pfcwd_restore);
	WRITE_ONCE(o->pfcwd_action, c->pfcwd_action);
	WRITE_ONCE(port->headroom, headroom_of(port, o));
	fcq_switch_update(port);
}
EXPORT_SYMBOL_GPL(fcq_port_apply);

/* Headroom in effect after a change of the MTU (RTNL). */
void fcq_port_refresh_headroom(struct fcq_port *port)
{
	WRITE_ONCE(port->headroom, headroom_of(port, &port->cfg));
	fcq_switch_update(port);
}

int fcq_port_init(struct Qdisc *sch, const struct fcq_scheme_ops *ops,
		  struct netlink_ext_ack *extack)
{
	struct fcq_port *port = fcq_port(sch);
	struct net_device *dev = qdisc_dev(sch);
	int p;

	/* First, so that destroy() after a failed init finds it ready. */
	qdisc_watchdog_init(&port->wd, sch);
	port->sch = sch;
	port->dev = dev;
	port->ops = ops;
	port->index = -1;
	__skb_queue_head_init(&port->wire);
	__skb_queue_head_init(&port->ctrl);
	__skb_queue_head_init(&port->kp_ctrl);
	spin_lock_init(&port->pause_lock);
	spin_lock_init(&port->tp_lock);
	port->refresh_at = U64_MAX;
	port->kp_retry_at = U64_MAX;
	fcq_qhist_init(&port->qhist, ktime_get_ns());
	fcq_default_cfg(&port->cfg);
	port->headroom = headroom_of(port, &port->cfg);
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		port->pause[p] = (struct fcq_pause){ 0 };

	if (sch->parent != TC_H_ROOT) {
		NL_SET_ERR_MSG_MOD(extack, "must be the root qdisc of the device: it models the link");
		return -EOPNOTSUPP;
	}
	if (fcq_kp_init(port))
		return -ENOMEM;
	if (dev->type != ARPHRD_ETHER) {
		NL_SET_ERR_MSG_MOD(extack, "needs an Ethernet device");
		return -EOPNOTSUPP;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(fcq_port_init);

/*
 * Run @port's dequeue soon. Through qdisc_root(), as qdisc_watchdog() does:
 * a qdisc that tc deleted or replaced (or whose device is down) is no longer
 * the root, and must never be put back on a softnet output queue.
 */
void fcq_port_kick(struct fcq_port *port)
{
	if (!port)
		return;
	rcu_read_lock();
	__netif_schedule(qdisc_root(port->sch));
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(fcq_port_kick);

/*
 * @port's queue holds @level bytes from @now on: its histogram, and the
 * fcq:qlen tracepoint with the time the histogram gave the change.
 */
void fcq_port_qlen(struct fcq_port *port, u64 now, u32 level)
{
	fcq_qhist_set(&port->qhist, now, level);
	trace_qlen(port->dev, level, port->qhist.last);
}

/*
 * Join the switch and start honouring pauses; after the options. Under
 * `tc qdisc replace` the old qdisc is still on the device: the new one
 * takes over its switch slot and the pauses its downstream asked for.
 */
int fcq_port_start(struct fcq_port *port, struct netlink_ext_ack *extack)
{
	struct fcq_port *prev = fcq_switch_port_of(port->dev);
	int err;

	err = fcq_switch_join(port, extack);
	if (err)
		return err;
	if (prev)
		fcq_rx_take_over(port, prev);
	return fcq_rx_register(port, extack);
}
EXPORT_SYMBOL_GPL(fcq_port_start);

/* Drop every queued packet, returning its bytes to the switch. */
void fcq_port_reset(struct Qdisc *sch)
{
	struct fcq_port *port = fcq_port(sch);
	u64 now = ktime_get_ns();
	struct sk_buff *skb;

	/*
	 * qdisc_destroy() resets in process context, with softirqs on; the
	 * switch's and the other ports' locks taken here are also taken by
	 * softirq enqueues on this CPU.
	 */
	local_bh_disable();
	while ((skb = port->ops->flush(port))) {
		fcq_switch_release(port, skb, now);
		rtnl_kfree_skbs(skb, skb);
	}
	local_bh_enable();
	fcq_link_purge(port);
	fcq_kp_reset(port);
	fcq_pfcwd_reset(port);
	memset(port->st.backlog, 0, sizeof(port->st.backlog));
	fcq_port_qlen(port, now, 0);
	sch->q.qlen = 0;
	sch->qstats.backlog = 0;
	WRITE_ONCE(port->tx_free, 0);
	port->xoff_sent = 0;
	port->refresh_at = U64_MAX;
	port->kp_retry_at = U64_MAX;
	spin_lock_bh(&port->tp_lock);
	WRITE_ONCE(port->tp_want, 0);
	memset(port->tp_add, 0, sizeof(port->tp_add));
	if (port->fr)
		port->fr->head = port->fr->tail;
	WRITE_ONCE(port->fr_want, false);
	spin_unlock_bh(&port->tp_lock);
	qdisc_watchdog_cancel(&port->wd);
}
EXPORT_SYMBOL_GPL(fcq_port_reset);

/* Survives a failed init: every step checks that it was done. */
void fcq_port_destroy(struct Qdisc *sch)
{
	struct fcq_port *port = fcq_port(sch);

	qdisc_watchdog_cancel(&port->wd);
	fcq_rx_unregister(port);
	if (port->ops)
		fcq_port_reset(sch);
	fcq_switch_leave(port);
	fcq_kp_free(port);
	kfree(port->fr);
}
EXPORT_SYMBOL_GPL(fcq_port_destroy);

static u8 dscp_of(const struct sk_buff *skb)
{
	int off = skb_network_offset(skb);
	u8 buf[2], *p;

	switch (skb_protocol(skb, true)) {
	case htons(ETH_P_IP):
		p = skb_header_pointer(skb, off, 2, buf);
		return p ? p[1] >> 2 : 0;
	case htons(ETH_P_IPV6):
		p = skb_header_pointer(skb, off, 2, buf);
		return p ? ((p[0] & 0x0f) << 2 | p[1] >> 6) : 0;
	}
	return 0;
}

static u8 pcp_of(struct sk_buff *skb)
{
	u16 tci;

	if (skb_vlan_tag_present(skb))
		return skb_vlan_tag_get_prio(skb);
	if (!__vlan_get_tag(skb, &tci))
		return tci >> VLAN_PRIO_SHIFT;
	return 0;
}

static u8 classify(const struct fcq_port *port, struct sk_buff *skb)
{
	switch (port->cfg.trust) {
	case FCQ_TRUST_PCP:
		return pcp_of(skb);
	case FCQ_TRUST_SKB:
		return skb->priority & (FCQ_NUM_PRIO - 1);
	default:
		return port->cfg.dscp_map[dscp_of(skb)];
	}
}

/* @counter: NULL where the scheme counted the drop itself */
static int drop(struct fcq_port *port, struct sk_buff *skb, u8 prio,
		int reason, u64 *counter, struct sk_buff **to_free)
{
	if (counter)
		(*counter)++;
	port->st.drops[prio]++;
	trace_drop(port->dev, prio, reason, qdisc_pkt_len(skb));
	return qdisc_drop(skb, port->sch, to_free);
}

static int enqueue_one(struct sk_buff *skb, struct fcq_port *port,
		       struct sk_buff **to_free)
{
	struct fcq_skb_cb *cb = fcq_cb(skb);
	struct Qdisc *sch = port->sch;

	cb->time = ktime_get_ns();
	cb->prio = classify(port, skb);
	cb->ingress = -1;
	cb->flow = 0;
	cb->ctrl = false;
	cb->scheme = 0;

	if (unlikely(port->pfcwd_drop & BIT(cb->prio)))
		return drop(port, skb, cb->prio, FCQ_DROP_PFCWD,
			    &port->st.drop_pfcwd, to_free);
	if (unlikely(sch->q.qlen >= port->cfg.limit))
		return drop(port, skb, cb->prio, FCQ_DROP_LIMIT,
			    &port->st.drop_limit, to_free);
	if (port->ops->full && port->ops->full(port, skb))
		return drop(port, skb, cb->prio, FCQ_DROP_SCHEME, NULL,
			    to_free);
	switch (fcq_switch_admit(port, skb)) {
	case FCQ_DROP_LOSSLESS_Q:
		return drop(port, skb, cb->prio, FCQ_DROP_LOSSLESS,
			    &port->st.drop_lossless, to_free);
	case FCQ_DROP_LOSSY_Q:
		return drop(port, skb, cb->prio, FCQ_DROP_LOSSY,
			    &port->st.drop_lossy, to_free);
	case FCQ_ADMIT:
		break;
	}

	port->ops->queue(port, skb);
	port->st.backlog[cb->prio] += qdisc_pkt_len(skb);
	fcq_port_qlen(port, cb->time, port->qhist.level + qdisc_pkt_len(skb));
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	return NET_XMIT_SUCCESS;
}

/* Frames on the wire are MTU-sized: segment GSO packets here (as tbf). */
static int enqueue_gso(struct sk_buff *skb, struct fcq_port *port,
		       struct sk_buff **to_free)
{
	netdev_features_t features = netif_skb_features(skb);
	struct sk_buff *segs, *nskb;
	int nb = 0;

	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs)) {
		fcq_cb(skb)->prio = classify(port, skb);
		return drop(port, skb, fcq_cb(skb)->prio, FCQ_DROP_GSO,
			    &port->st.drop_gso, to_free);
	}
	consume_skb(skb);
	skb_list_walk_safe(segs, segs, nskb) {
		skb_mark_not_on_list(segs);
		qdisc_skb_cb(segs)->pkt_len = segs->len;
		if (enqueue_one(segs, port, to_free) == NET_XMIT_SUCCESS)
			nb++;
	}
	/* We are the root qdisc: no ancestor's backlog to correct. */
	return nb ? NET_XMIT_SUCCESS : NET_XMIT_DROP;
}

int fcq_port_enqueue(struct sk_buff *skb, struct Qdisc *sch,
		     struct sk_buff **to_free)
{
	struct fcq_port *port = fcq_port(sch);

	if (skb_is_gso(skb))
		return enqueue_gso(skb, port, to_free);
	return enqueue_one(skb, port, to_free);
}
EXPORT_SYMBOL_GPL(fcq_port_enqueue);

struct sk_buff *fcq_port_dequeue(struct Qdisc *sch)
{
	return fcq_link_dequeue(fcq_port(sch));
}
EXPORT_SYMBOL_GPL(fcq_port_dequeue);

static int put_dscp_map(struct sk_buff *skb, const u8 *map)
{
	struct nlattr *nest = nla_nest_start(skb, TCA_FCQ_DSCP_MAP);
	int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < 64; i++)
		if (nla_put_u8(skb, TCA_FCQ_DSCP_PRIO, map[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* Put the port options into an open TCA_OPTIONS nest. */
static int dump_port_opts(struct fcq_port *port, struct sk_buff *skb)
{
	const struct fcq_port_cfg *c = &port->cfg;
	u8 map[ARRAY_SIZE(c->dscp_map)];
	int i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		map[i] = READ_ONCE(c->dscp_map[i]);
	if (nla_put_u64_64bit(skb, TCA_FCQ_RATE, READ_ONCE(c->rate),
			      TCA_FCQ_PAD) ||
	    nla_put_u32(skb, TCA_FCQ_DELAY, READ_ONCE(c->delay)) ||
	    nla_put_u32(skb, TCA_FCQ_OVERHEAD, READ_ONCE(c->overhead)) ||
	    nla_put_u32(skb, TCA_FCQ_SWITCH, READ_ONCE(c->switch_id)) ||
	    nla_put_u8(skb, TCA_FCQ_TRUST, READ_ONCE(c->trust)) ||
	    put_dscp_map(skb, map) ||
	    nla_put_u32(skb, TCA_FCQ_LIMIT, READ_ONCE(c->limit)) ||
	    nla_put_u8(skb, TCA_FCQ_LOSSLESS, READ_ONCE(c->lossless)) ||
	    nla_put_u32(skb, TCA_FCQ_PAUSE_MAX, READ_ONCE(c->pause_max)) ||
	    nla_put_u32(skb, TCA_FCQ_BUFFER, fcq_switch_buffer(port)) ||
	    nla_put_u32(skb, TCA_FCQ_XOFF, READ_ONCE(c->xoff)) ||
	    nla_put_u32(skb, TCA_FCQ_XON, READ_ONCE(c->xon)) ||
	    nla_put_u32(skb, TCA_FCQ_ALPHA, READ_ONCE(c->alpha)) ||
	    nla_put_u32(skb, TCA_FCQ_RESUME_OFFSET, READ_ONCE(c->resume_offset)) ||
	    nla_put_u32(skb, TCA_FCQ_RESERVE, READ_ONCE(c->reserve)) ||
	    nla_put_u32(skb, TCA_FCQ_HEADROOM, READ_ONCE(c->headroom)) ||
	    nla_put_u32(skb, TCA_FCQ_RESPONSE, READ_ONCE(c->response)) ||
	    nla_put_u16(skb, TCA_FCQ_PAUSE_QUANTA, READ_ONCE(c->pause_quanta)) ||
	    nla_put_u32(skb, TCA_FCQ_REFRESH, READ_ONCE(c->refresh)) ||
	    nla_put_u32(skb, TCA_FCQ_ECN_KMIN, READ_ONCE(c->ecn.kmin)) ||
	    nla_put_u32(skb, TCA_FCQ_ECN_KMAX, READ_ONCE(c->ecn.kmax)) ||
	    nla_put_u32(skb, TCA_FCQ_ECN_PMAX, READ_ONCE(c->ecn.pmax)) ||
	    nla_put_u32(skb, TCA_FCQ_PFCWD_DETECT, READ_ONCE(c->pfcwd_detect)) ||
	    nla_put_u32(skb, TCA_FCQ_PFCWD_RESTORE,
			READ_ONCE(c->pfcwd_restore)) ||
	    nla_put_u8(skb, TCA_FCQ_PFCWD_ACTION, READ_ONCE(c->pfcwd_action)))
		return -EMSGSIZE;
	return 0;
}

/* Qdisc_ops.dump: the port options, and the scheme's in TCA_FCQ_SCHEME. */
int fcq_port_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct fcq_port *port = fcq_port(sch);
	struct nlattr *opts, *own;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (dump_port_opts(port, skb))
		goto fail;
	own = nla_nest_start(skb, TCA_FCQ_SCHEME);
	if (!own || port->ops->dump(port, skb))
		goto fail;
	nla_nest_end(skb, own);
	return nla_nest_end(skb, opts);

fail:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}
EXPORT_SYMBOL_GPL(fcq_port_dump);

static int dump_prio(struct sk_buff *skb, struct fcq_port *port, int p,
		     const struct fcq_port_stats *st,
		     const struct fcq_ingress_stats *in, u64 paused, u64 storms)
{
	struct nlattr *nest = nla_nest_start_noflag(skb, TCA_FCQ_STATS_PRIO);

	if (!nest ||
	    nla_put_u8(skb, TCA_FCQ_PRIO_ID, p) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_PRIO_TX_PACKETS, st->tx_packets[p],
			      TCA_FCQ_PRIO_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_PRIO_TX_BYTES, st->tx_bytes[p],
			      TCA_FCQ_PRIO_PAD) ||
	    nla_put_u32(skb, TCA_FCQ_PRIO_BACKLOG, st->backlog[p]) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_PRIO_DROPS, st->drops[p],
			      TCA_FCQ_PRIO_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_PRIO_PFC_RX, st->pfc_rx[p],
			      TCA_FCQ_PRIO_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_PRIO_PAUSED_NS, paused,
			      TCA_FCQ_PRIO_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_PRIO_PFC_TX, st->pfc_tx[p],
			      TCA_FCQ_PRIO_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_PRIO_XOFF, in->xoff[p],
			      TCA_FCQ_PRIO_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_PRIO_XON, in->xon[p],
			      TCA_FCQ_PRIO_PAD) ||
	    nla_put_u32(skb, TCA_FCQ_PRIO_INGRESS, in->bytes[p]) ||
	    nla_put_u32(skb, TCA_FCQ_PRIO_HEADROOM_MAX, in->hdrm_max[p]) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_PRIO_PFCWD_STORMS, storms,
			      TCA_FCQ_PRIO_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The queue-length histogram, brought up to now. */
static int dump_qhist(struct fcq_port *port, struct sk_buff *skb)
{
	struct fcq_qhist *h = &port->qhist;
	struct tc_fcq_qhist_bucket *b;
	struct nlattr *nest, *arr;
	int i, n = 0, err = -EMSGSIZE;
	u64 total = 0;

	nest = nla_nest_start_noflag(skb, TCA_FCQ_STATS_QHIST);
	if (!nest)
		return -EMSGSIZE;
	sch_tree_lock(port->sch);
	fcq_qhist_set(h, ktime_get_ns(), h->level);
	for (i = 0; i < FCQ_QHIST_BUCKETS; i++) {
		total += h->ns[i];
		n += h->ns[i] != 0;
	}
	if (nla_put_u64_64bit(skb, TCA_FCQ_QHIST_NS, total, TCA_FCQ_QHIST_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_QHIST_AREA, h->area,
			      TCA_FCQ_QHIST_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_QHIST_SQ, h->sq,
			      TCA_FCQ_QHIST_PAD) ||
	    nla_put_u32(skb, TCA_FCQ_QHIST_LEVEL, h->level) ||
	    nla_put_u32(skb, TCA_FCQ_QHIST_PEAK, h->max))
		goto out;
	arr = nla_reserve(skb, TCA_FCQ_QHIST_BUCKETS, n * sizeof(*b));
	if (!arr)
		goto out;
	b = nla_data(arr);
	for (i = 0; i < FCQ_QHIST_BUCKETS; i++) {
		if (!h->ns[i])
			continue;
		b->lo = fcq_qhist_lo(i);
		b->hi = fcq_qhist_hi(i);
		b->ns = h->ns[i];
		b++;
	}
	err = 0;
out:
	sch_tree_unlock(port->sch);
	if (err) {
		nla_nest_cancel(skb, nest);
		return err;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* xstats: TCA_STATS_APP holding TCA_FCQ_STATS_* (as sch_cake nests). */
int fcq_port_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct fcq_port *port = fcq_port(sch);
	u64 paused[FCQ_NUM_PRIO], storms[FCQ_NUM_PRIO], now = ktime_get_ns();
	struct fcq_ingress_stats in;
	struct fcq_port_stats st;
	struct sk_buff *skb = d->skb;
	struct nlattr *stats;
	u32 wire;
	int p;

	sch_tree_lock(sch);
	st = port->st;
	wire = skb_queue_len(&port->wire);
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		storms[p] = port->pfcwd[p].storms;
	sch_tree_unlock(sch);
	spin_lock_bh(&port->pause_lock);
	st.rx_pause = port->st.rx_pause;
	st.rx_malformed = port->st.rx_malformed;
	st.rx_bad_opcode = port->st.rx_bad_opcode;
	st.rx_not_lossless = port->st.rx_not_lossless;
	st.rx_over_max = port->st.rx_over_max;
	st.rx_ext = port->st.rx_ext;
	st.pfcwd_ignored = port->st.pfcwd_ignored;
	memcpy(st.pfc_rx, port->st.pfc_rx, sizeof(st.pfc_rx));
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		paused[p] = fcq_pause_total(&port->pause[p], now);
	spin_unlock_bh(&port->pause_lock);
	fcq_switch_stats(port, &in);

	stats = nla_nest_start_noflag(skb, TCA_STATS_APP);
	if (!stats)
		return -EMSGSIZE;
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		if (dump_prio(skb, port, p, &st, &in, paused[p], storms[p]))
			goto fail;
	if (nla_put_u32(skb, TCA_FCQ_STATS_WIRE, wire) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_CTRL_TX, st.ctrl_tx,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_CTRL_NOMEM, st.ctrl_nomem,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_TX_LAG, st.tx_lag_ns,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_RX_PAUSE, st.rx_pause,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_RX_MALFORMED, st.rx_malformed,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_RX_BAD_OPCODE,
			      st.rx_bad_opcode, TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_RX_NOT_LOSSLESS,
			      st.rx_not_lossless, TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_RX_OVER_MAX, st.rx_over_max,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_RX_EXT, st.rx_ext,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_DROP_LOSSLESS,
			      st.drop_lossless, TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_DROP_LOSSY, st.drop_lossy,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_DROP_LIMIT, st.drop_limit,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_DROP_GSO, st.drop_gso,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u32(skb, TCA_FCQ_STATS_HEADROOM, READ_ONCE(port->headroom)) ||
	    nla_put_u32(skb, TCA_FCQ_STATS_THRESHOLD, in.threshold) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_SW_USED, in.used,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_SW_USED_MAX, in.used_max,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_ECN_MARKED, st.ecn_marked,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u8(skb, TCA_FCQ_STATS_PFCWD_STORM,
		       READ_ONCE(port->pfcwd_storm)) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_DROP_PFCWD, st.drop_pfcwd,
			      TCA_FCQ_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_FCQ_STATS_PFCWD_IGNORED,
			      st.pfcwd_ignored, TCA_FCQ_STATS_PAD) ||
	    fcq_kp_dump_stats(port, skb) || dump_qhist(port, skb))
		goto fail;
	if (port->ops->dump_stats) {
		struct nlattr *own = nla_nest_start_noflag(skb,
							   TCA_FCQ_STATS_SCHEME);

		if (!own || port->ops->dump_stats(port, skb))
			goto fail;
		nla_nest_end(skb, own);
	}
	return nla_nest_end(skb, stats);

fail:
	nla_nest_cancel(skb, stats);
	return -EMSGSIZE;
}
EXPORT_SYMBOL_GPL(fcq_port_dump_stats);
